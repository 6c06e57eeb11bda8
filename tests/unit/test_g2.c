/*
 * test_g2.c — group law of G2 (the generic checks of test_g1.c instantiated over Fp2) plus
 * the endomorphism psi: psi(P) == [x]P on G2 (x = -0xd201000000010000, the BLS parameter),
 * psi^4 - psi^2 + 1 == 0 on G2 (x^4 - x^2 + 1 = r), psi keeps points on the curve.
 * Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "test_rng.h"

#define TG(name) cuzk_g2_##name
#define TGS(name) cuzk_g2s_##name
#define TF(name) cuzk_fp2_##name
#define T_AFF cuzk_g2_affine
#define T_JAC cuzk_g2_jac
#define T_XYZZ cuzk_g2_xyzz
#define T_F cuzk_fp2
#define T_GEN CUZK_G2_GENERATOR
#define T_F_ONE CUZK_FP2_ONE
#define RAND_F test_rand_fp2
#define TEST_NAME "test_g2"
#define GROUP_EXTRA_TESTS cmocka_unit_test(test_psi),

/* b' = 4(u+1) */
static void curve_b(cuzk_fp2 *b)
{
    cuzk_fp_from_u64(&b->c0, 4);
    cuzk_fp_from_u64(&b->c1, 4);
}

static void rand_point(cuzk_g2_jac *j, cuzk_g2_affine *a);
static void rescale(cuzk_g2_jac *p);

static void test_psi(void **state)
{
    (void)state;
    static const uint64_t abs_x = 0xd201000000010000ULL;
    size_t n = test_iters(10);
    for (size_t i = 0; i < n; i++) {
        cuzk_g2_jac p, a, b, c;
        cuzk_g2_affine pa;
        rand_point(&p, &pa);
        /* psi(P) == [x]P == -[|x|]P, with [|x|] as plain double-and-add */
        cuzk_g2_jac_psi(&a, &p);
        assert_true(cuzk_g2_jac_on_curve(&a));
        cuzk_g2_jac_set_infinity(&b);
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_g2_jac_dbl(&b, &b);
            if ((abs_x >> bit) & 1)
                cuzk_g2_jac_add(&b, &b, &p);
        }
        cuzk_g2_jac_neg(&b, &b);
        assert_true(cuzk_g2_jac_eq(&a, &b));
        /* psi^4(P) - psi^2(P) + P == O */
        cuzk_g2_jac_psi(&b, &a);              /* psi^2 */
        cuzk_g2_jac_psi(&c, &b);
        cuzk_g2_jac_psi(&c, &c);              /* psi^4, aliased */
        cuzk_g2_jac_neg(&b, &b);
        cuzk_g2_jac_add(&c, &c, &b);
        cuzk_g2_jac_add(&c, &c, &p);
        assert_true(cuzk_g2_jac_is_infinity(&c));
        /* psi does not depend on the Jacobian representative */
        cuzk_g2_jac q = p;
        rescale(&q);
        cuzk_g2_jac_psi(&q, &q);
        assert_true(cuzk_g2_jac_eq(&q, &a));
        /* psi of a point off the subgroup stays on the curve */
        cuzk_g2_affine t;
        cuzk_fp2 rhs, b4, y;
        int tries = 0;
        do {
            assert_true(++tries < 1000);
            test_rand_fp2(&t.x);
            cuzk_fp2_sqr(&rhs, &t.x);
            cuzk_fp2_mul(&rhs, &rhs, &t.x);
            curve_b(&b4);
            cuzk_fp2_add(&rhs, &rhs, &b4);
        } while (!cuzk_fp2_sqrt(&y, &rhs));
        t.y = y;
        assert_true(cuzk_g2_affine_on_curve(&t));
        cuzk_g2_jac_from_affine(&a, &t);
        cuzk_g2_jac_psi(&a, &a);
        assert_true(cuzk_g2_jac_on_curve(&a));
    }
    cuzk_g2_jac inf;
    cuzk_g2_jac_set_infinity(&inf);
    cuzk_g2_jac_psi(&inf, &inf);
    assert_true(cuzk_g2_jac_is_infinity(&inf));
}

#include "test_g1.c"
