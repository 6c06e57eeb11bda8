/*
 * test_subgroup.c — the endomorphism subgroup checks (G1: sigma(P) == [-x^2]P, G2:
 * psi(P) == [x]P) against the definition [r]P == O (computed with the sliding-window
 * jac_mul_u64s_var, itself checked against double-and-add in test_scalar_mul.c):
 * generators and their multiples are in; random curve points (cofactor not cleared) and a
 * G1 point of order 3 are out; [h]P is in again. This file includes itself once per group
 * (SG_PASS). Single-threaded.
 */
#ifndef SG_PASS
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "test_rng.h"

/* Cofactors: h1 = (x-1)^2/3, h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13)/9
 * for x = -0xd201000000010000 (python, little-endian limbs). */
static const uint64_t H1[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
/* h1 / 3 */
static const uint64_t H1_DIV3[2] = {0x2eaae38e55558e39ULL, 0x13242eaac71ca072ULL};
static const uint64_t H2[8] = {0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL,
                               0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
                               0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL,
                               0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};

#define SG_PASS 1
#define TN(name) name##_g1
#define TG(name) cuzk_g1_##name
#define TF(name) cuzk_fp_##name
#define T_AFF cuzk_g1_affine
#define T_JAC cuzk_g1_jac
#define T_F cuzk_fp
#define T_GEN CUZK_G1_GENERATOR
#define RAND_F test_rand_fp
#define T_H H1
#define T_H_LIMBS 2
static void curve_b_g1(cuzk_fp *b) { cuzk_fp_from_u64(b, 4); }
#include "test_subgroup.c"
#undef SG_PASS
#undef TN
#undef TG
#undef TF
#undef T_AFF
#undef T_JAC
#undef T_F
#undef T_GEN
#undef RAND_F
#undef T_H
#undef T_H_LIMBS

#define SG_PASS 2
#define TN(name) name##_g2
#define TG(name) cuzk_g2_##name
#define TF(name) cuzk_fp2_##name
#define T_AFF cuzk_g2_affine
#define T_JAC cuzk_g2_jac
#define T_F cuzk_fp2
#define T_GEN CUZK_G2_GENERATOR
#define RAND_F test_rand_fp2
#define T_H H2
#define T_H_LIMBS 8
static void curve_b_g2(cuzk_fp2 *b)
{
    cuzk_fp_from_u64(&b->c0, 4);
    cuzk_fp_from_u64(&b->c1, 4);
}
#include "test_subgroup.c"

/* A point of order 3 in E(Fp): [r * h1/3]P for a random P (3 | h1 exactly once). */
static void test_order3_point_g1(void **state)
{
    (void)state;
    int found = 0;
    for (int tries = 0; tries < 20 && found < 2; tries++) {
        cuzk_g1_jac p, q, t;
        rand_curve_point_g1(&p);
        cuzk_g1_jac_mul_u64s_var(&q, &p, CUZK_FR_MODULUS, 4);
        cuzk_g1_jac_mul_u64s_var(&q, &q, H1_DIV3, 2);
        if (cuzk_g1_jac_is_infinity(&q))
            continue;                        /* P had no 3-part */
        found++;
        cuzk_g1_jac_dbl(&t, &q);
        cuzk_g1_jac_add(&t, &t, &q);
        assert_true(cuzk_g1_jac_is_infinity(&t));   /* order exactly 3 */
        assert_true(cuzk_g1_jac_on_curve(&q));
        assert_false(cuzk_g1_jac_in_subgroup(&q));
        cuzk_g1_affine qa;
        cuzk_g1_jac_to_affine(&qa, &q);
        assert_false(cuzk_g1_affine_in_subgroup(&qa));
        /* a subgroup point plus the order-3 point is outside too */
        cuzk_g1_jac g;
        cuzk_g1_jac_from_affine(&g, &CUZK_G1_GENERATOR);
        cuzk_g1_jac_add(&t, &g, &q);
        assert_false(cuzk_g1_jac_in_subgroup(&t));
    }
    assert_true(found > 0);
}

int main(void)
{
    test_rng_init("test_subgroup");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members_g1),
        cmocka_unit_test(test_non_members_g1),
        cmocka_unit_test(test_order3_point_g1),
        cmocka_unit_test(test_members_g2),
        cmocka_unit_test(test_non_members_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* SG_PASS: the per-group body */

/* Random x until x^3 + b is a square; the cofactor is NOT cleared. */
static void TN(rand_curve_point)(T_JAC *p)
{
    T_AFF a;
    T_F rhs, b;
    int tries = 0;
    do {
        assert_true(++tries < 1000);         /* half of all x qualify */
        RAND_F(&a.x);
        TF(sqr)(&rhs, &a.x);
        TF(mul)(&rhs, &rhs, &a.x);
        TN(curve_b)(&b);
        TF(add)(&rhs, &rhs, &b);
    } while (!TF(sqrt)(&a.y, &rhs));
    assert_true(TG(affine_on_curve)(&a));
    TG(jac_from_affine)(p, &a);
}

static bool TN(in_subgroup_by_definition)(const T_JAC *p)
{
    T_JAC t;
    TG(jac_mul_u64s_var)(&t, p, CUZK_FR_MODULUS, 4);
    return TG(jac_is_infinity)(&t);
}

static void TN(test_members)(void **state)
{
    (void)state;
    T_JAC g, p;
    T_AFF a;
    TG(jac_from_affine)(&g, &T_GEN);
    assert_true(TG(affine_on_curve)(&T_GEN));
    assert_true(TG(affine_in_subgroup)(&T_GEN));
    assert_true(TG(jac_in_subgroup)(&g));
    assert_true(TN(in_subgroup_by_definition)(&g));
    TG(jac_set_infinity)(&p);
    assert_true(TG(jac_in_subgroup)(&p));
    TG(affine_set_infinity)(&a);
    assert_true(TG(affine_in_subgroup)(&a));
    size_t n = test_iters(10);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        cuzk_fr s;
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k, &s);
        TG(jac_mul_u64s_var)(&p, &g, k, 4);
        assert_true(TG(jac_in_subgroup)(&p));
        TG(jac_to_affine)(&a, &p);
        assert_true(TG(affine_in_subgroup)(&a));
        /* other Jacobian representative */
        T_F l, l2;
        do
            RAND_F(&l);
        while (TF(is_zero)(&l));
        TF(sqr)(&l2, &l);
        TF(mul)(&p.x, &p.x, &l2);
        TF(mul)(&p.y, &p.y, &l2);
        TF(mul)(&p.y, &p.y, &l);
        TF(mul)(&p.z, &p.z, &l);
        assert_true(TG(jac_in_subgroup)(&p));
    }
}

static void TN(test_non_members)(void **state)
{
    (void)state;
    size_t n = test_iters(6);
    for (size_t i = 0; i < n; i++) {
        T_JAC p, c, t;
        T_AFF a;
        TN(rand_curve_point)(&p);
        bool def = TN(in_subgroup_by_definition)(&p);
        assert_int_equal(TG(jac_in_subgroup)(&p), def);
        TG(jac_to_affine)(&a, &p);
        assert_int_equal(TG(affine_in_subgroup)(&a), def);
        assert_false(def);   /* probability ~1/h of failing: negligible */
        /* clearing the cofactor lands in the subgroup */
        TG(jac_mul_u64s_var)(&c, &p, T_H, T_H_LIMBS);
        assert_false(TG(jac_is_infinity)(&c));
        assert_true(TG(jac_in_subgroup)(&c));
        assert_true(TN(in_subgroup_by_definition)(&c));
        /* member + non-member is a non-member */
        TG(jac_add)(&t, &c, &p);
        assert_false(TG(jac_in_subgroup)(&t));
    }
}

#endif /* SG_PASS */
