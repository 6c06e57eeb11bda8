/*
 * test_fp2.c — Fp2 = Fp[u]/(u^2+1): arithmetic against schoolbook formulas written here on
 * Fp, field axioms, inversion, pow, Frobenius, Legendre symbol, square roots and the
 * zcash sign rule. Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuzk/ff.h"
#include "test_rng.h"

/* p as little-endian limbs (copy of CUZK_FP_MODULUS, used as an exponent) */
static const uint64_t *P = CUZK_FP_MODULUS;

static void fp2_from_u64s(cuzk_fp2 *r, uint64_t c0, uint64_t c1)
{
    cuzk_fp_from_u64(&r->c0, c0);
    cuzk_fp_from_u64(&r->c1, c1);
}

/* Schoolbook (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u. */
static void ref_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    cuzk_fp t0, t1, t2, t3;
    cuzk_fp_mul(&t0, &a->c0, &b->c0);
    cuzk_fp_mul(&t1, &a->c1, &b->c1);
    cuzk_fp_mul(&t2, &a->c0, &b->c1);
    cuzk_fp_mul(&t3, &a->c1, &b->c0);
    cuzk_fp_sub(&r->c0, &t0, &t1);
    cuzk_fp_add(&r->c1, &t2, &t3);
}

static void rand_nonzero(cuzk_fp2 *a)
{
    do
        test_rand_fp2(a);
    while (cuzk_fp2_is_zero(a));
}

static void test_mul_sqr(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a, b, c, d;
        test_rand_fp2(&a);
        test_rand_fp2(&b);
        cuzk_fp2_mul(&c, &a, &b);
        ref_mul(&d, &a, &b);
        assert_true(cuzk_fp2_eq(&c, &d));
        cuzk_fp2_sqr(&c, &a);
        ref_mul(&d, &a, &a);
        assert_true(cuzk_fp2_eq(&c, &d));
        /* aliasing */
        c = a;
        cuzk_fp2_mul(&c, &c, &b);
        ref_mul(&d, &a, &b);
        assert_true(cuzk_fp2_eq(&c, &d));
        c = a;
        cuzk_fp2_mul(&c, &c, &c);
        ref_mul(&d, &a, &a);
        assert_true(cuzk_fp2_eq(&c, &d));
        c = a;
        cuzk_fp2_sqr(&c, &c);
        assert_true(cuzk_fp2_eq(&c, &d));
    }
    /* u^2 = -1 */
    cuzk_fp2 u, c, m1;
    fp2_from_u64s(&u, 0, 1);
    cuzk_fp2_sqr(&c, &u);
    cuzk_fp2_neg(&m1, &CUZK_FP2_ONE);
    assert_true(cuzk_fp2_eq(&c, &m1));
}

static void test_axioms(void **state)
{
    (void)state;
    size_t n = test_iters(200);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a, b, c, l, r, t;
        test_rand_fp2(&a);
        test_rand_fp2(&b);
        test_rand_fp2(&c);
        /* associativity */
        cuzk_fp2_mul(&l, &a, &b);
        cuzk_fp2_mul(&l, &l, &c);
        cuzk_fp2_mul(&r, &b, &c);
        cuzk_fp2_mul(&r, &a, &r);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* commutativity */
        cuzk_fp2_mul(&l, &a, &b);
        cuzk_fp2_mul(&r, &b, &a);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* distributivity */
        cuzk_fp2_add(&t, &b, &c);
        cuzk_fp2_mul(&l, &a, &t);
        cuzk_fp2_mul(&r, &a, &b);
        cuzk_fp2_mul(&t, &a, &c);
        cuzk_fp2_add(&r, &r, &t);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* a - b + b = a, a + (-a) = 0, dbl = a + a */
        cuzk_fp2_sub(&l, &a, &b);
        cuzk_fp2_add(&l, &l, &b);
        assert_true(cuzk_fp2_eq(&l, &a));
        cuzk_fp2_neg(&l, &a);
        cuzk_fp2_add(&l, &l, &a);
        assert_true(cuzk_fp2_is_zero(&l));
        cuzk_fp2_dbl(&l, &a);
        cuzk_fp2_add(&r, &a, &a);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* mul_fp: (b0 + 0u) as an Fp2 element */
        cuzk_fp2 bf = {b.c0, CUZK_FP_ZERO};
        cuzk_fp2_mul_fp(&l, &a, &b.c0);
        ref_mul(&r, &a, &bf);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* nonresidue = 1 + u */
        cuzk_fp2 xi;
        fp2_from_u64s(&xi, 1, 1);
        cuzk_fp2_mul_by_nonresidue(&l, &a);
        ref_mul(&r, &a, &xi);
        assert_true(cuzk_fp2_eq(&l, &r));
        l = a;
        cuzk_fp2_mul_by_nonresidue(&l, &l);
        assert_true(cuzk_fp2_eq(&l, &r));
        /* conj(a) a is in Fp (norm) */
        cuzk_fp2_conj(&l, &a);
        cuzk_fp2_mul(&l, &l, &a);
        assert_true(cuzk_fp_is_zero(&l.c1));
        /* one is the multiplicative identity */
        cuzk_fp2_mul(&l, &a, &CUZK_FP2_ONE);
        assert_true(cuzk_fp2_eq(&l, &a));
    }
}

static void test_inv(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a, b, c;
        rand_nonzero(&a);
        cuzk_fp2_inv(&b, &a);
        cuzk_fp2_mul(&c, &a, &b);
        assert_true(cuzk_fp2_is_one(&c));
        cuzk_fp2_inv_var(&c, &a);
        assert_true(cuzk_fp2_eq(&b, &c));
        c = a;
        cuzk_fp2_inv(&c, &c);
        assert_true(cuzk_fp2_eq(&b, &c));
    }
    cuzk_fp2 z = CUZK_FP2_ZERO, r;
    cuzk_fp2_inv(&r, &z);
    assert_true(cuzk_fp2_is_zero(&r));
    cuzk_fp2_inv_var(&r, &z);
    assert_true(cuzk_fp2_is_zero(&r));
    cuzk_fp2_inv(&r, &CUZK_FP2_ONE);
    assert_true(cuzk_fp2_is_one(&r));
    /* pure-imaginary and pure-real elements: 1/u = -u */
    cuzk_fp2 u, mu;
    fp2_from_u64s(&u, 0, 1);
    cuzk_fp2_inv(&r, &u);
    cuzk_fp2_neg(&mu, &u);
    assert_true(cuzk_fp2_eq(&r, &mu));
}

static void test_pow_frobenius(void **state)
{
    (void)state;
    size_t n = test_iters(10);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a, b, c;
        test_rand_fp2(&a);
        /* a^13 by repeated multiplication */
        uint64_t e13 = 13;
        cuzk_fp2_pow(&b, &a, &e13, 1);
        c = CUZK_FP2_ONE;
        for (int k = 0; k < 13; k++)
            cuzk_fp2_mul(&c, &c, &a);
        assert_true(cuzk_fp2_eq(&b, &c));
        /* a^p == frobenius(a) == conj(a) */
        cuzk_fp2_pow(&b, &a, P, CUZK_FP_LIMBS);
        cuzk_fp2_frobenius(&c, &a);
        assert_true(cuzk_fp2_eq(&b, &c));
        /* a^0 = 1 */
        uint64_t zero = 0;
        cuzk_fp2_pow(&b, &a, &zero, 1);
        assert_true(cuzk_fp2_is_one(&b));
    }
}

static void test_legendre_sqrt(void **state)
{
    (void)state;
    size_t n = test_iters(30);
    cuzk_fp2 xi;
    fp2_from_u64s(&xi, 1, 1); /* 1 + u: norm 2, a non-square in Fp since p = 3 mod 8 */
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a, sq, r, t, na;
        rand_nonzero(&a);
        cuzk_fp2_sqr(&sq, &a);
        assert_int_equal(cuzk_fp2_legendre(&sq), 1);
        assert_true(cuzk_fp2_sqrt(&r, &sq));
        cuzk_fp2_sqr(&t, &r);
        assert_true(cuzk_fp2_eq(&t, &sq));
        cuzk_fp2_neg(&na, &a);
        assert_true(cuzk_fp2_eq(&r, &a) || cuzk_fp2_eq(&r, &na));
        /* aliasing */
        t = sq;
        assert_true(cuzk_fp2_sqrt(&t, &t));
        assert_true(cuzk_fp2_eq(&t, &r));
        /* a non-square: xi * a^2 */
        cuzk_fp2_mul(&t, &sq, &xi);
        assert_int_equal(cuzk_fp2_legendre(&t), -1);
        assert_false(cuzk_fp2_sqrt(&r, &t));
        /* random elements: sqrt succeeds exactly when legendre says square */
        test_rand_fp2(&a);
        int l = cuzk_fp2_legendre(&a);
        bool ok = cuzk_fp2_sqrt(&r, &a);
        assert_int_equal(ok, l >= 0);
        if (ok) {
            cuzk_fp2_sqr(&t, &r);
            assert_true(cuzk_fp2_eq(&t, &a));
        }
    }
    /* every element of Fp is a square in Fp2: random c0 + 0u, and 0 + c1 u */
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 a = CUZK_FP2_ZERO, r, t;
        test_rand_fp(&a.c0);
        assert_true(cuzk_fp2_sqrt(&r, &a));
        cuzk_fp2_sqr(&t, &r);
        assert_true(cuzk_fp2_eq(&t, &a));
        a.c1 = a.c0;
        a.c0 = CUZK_FP_ZERO;
        bool ok = cuzk_fp2_sqrt(&r, &a);
        assert_int_equal(ok, cuzk_fp2_legendre(&a) >= 0);
        if (ok) {
            cuzk_fp2_sqr(&t, &r);
            assert_true(cuzk_fp2_eq(&t, &a));
        }
    }
    /* edge cases: 0, 1, -1, u, 1+u */
    cuzk_fp2 r, t, e;
    e = CUZK_FP2_ZERO;
    assert_int_equal(cuzk_fp2_legendre(&e), 0);
    assert_true(cuzk_fp2_sqrt(&r, &e));
    assert_true(cuzk_fp2_is_zero(&r));
    assert_true(cuzk_fp2_sqrt(&r, &CUZK_FP2_ONE));
    cuzk_fp2_sqr(&t, &r);
    assert_true(cuzk_fp2_is_one(&t));
    cuzk_fp2_neg(&e, &CUZK_FP2_ONE);
    assert_true(cuzk_fp2_sqrt(&r, &e)); /* +-u */
    assert_true(cuzk_fp_is_zero(&r.c0));
    cuzk_fp2_sqr(&t, &r);
    assert_true(cuzk_fp2_eq(&t, &e));
    fp2_from_u64s(&e, 0, 1);
    assert_true(cuzk_fp2_sqrt(&r, &e)); /* u has norm 1, a square */
    cuzk_fp2_sqr(&t, &r);
    assert_true(cuzk_fp2_eq(&t, &e));
    assert_int_equal(cuzk_fp2_legendre(&xi), -1);
    assert_false(cuzk_fp2_sqrt(&r, &xi));
}

/* The norm-method square root splits on chi((a0 + n)/2) and special-cases c = 0 (a1 = 0):
 * squares of x0 + 0u, 0 + x1 u (x0 == 0: a = -x1^2, a non-square of Fp), small values,
 * and a1 = 0 with a0 square / non-square in Fp; every root must be +-x for the x that was
 * squared (a definition-level check, independent of the exponentiations). */
static void expect_root_pm(const cuzk_fp2 *sq, const cuzk_fp2 *x)
{
    cuzk_fp2 r, nx;
    assert_true(cuzk_fp2_sqrt(&r, sq));
    cuzk_fp2_neg(&nx, x);
    assert_true(cuzk_fp2_eq(&r, x) || cuzk_fp2_eq(&r, &nx));
}

static void test_sqrt_norm_cases(void **state)
{
    (void)state;
    size_t n = test_iters(40);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp2 x, sq;
        cuzk_fp s;
        test_rand_fp(&s);
        x.c0 = s;                   /* x1 == 0: a = s^2, a1 = 0, a0 a square of Fp */
        x.c1 = CUZK_FP_ZERO;
        cuzk_fp2_sqr(&sq, &x);
        assert_true(cuzk_fp_is_zero(&sq.c1));
        expect_root_pm(&sq, &x);
        x.c0 = CUZK_FP_ZERO;        /* x0 == 0: a = -s^2, a1 = 0, a0 a non-square of Fp */
        x.c1 = s;
        cuzk_fp2_sqr(&sq, &x);
        assert_true(cuzk_fp_is_zero(&sq.c1));
        if (!cuzk_fp_is_zero(&s))
            assert_int_equal(cuzk_fp_legendre(&sq.c0), -1);
        expect_root_pm(&sq, &x);
        test_rand_fp2(&x);          /* generic: both chi((a0+n)/2) branches occur */
        cuzk_fp2_sqr(&sq, &x);
        expect_root_pm(&sq, &x);
        x.c1 = x.c0;                /* x0 == x1: a = 2 x0^2 u, a0 == 0 */
        cuzk_fp2_sqr(&sq, &x);
        assert_true(cuzk_fp_is_zero(&sq.c0));
        expect_root_pm(&sq, &x);
    }
    for (uint64_t v0 = 0; v0 < 6; v0++) {
        for (uint64_t v1 = 0; v1 < 6; v1++) {
            cuzk_fp2 x, sq;
            fp2_from_u64s(&x, v0, v1);
            cuzk_fp2_sqr(&sq, &x);
            expect_root_pm(&sq, &x);
            cuzk_fp2_neg(&x, &x);
            cuzk_fp2_sqr(&sq, &x);
            expect_root_pm(&sq, &x);
        }
    }
    /* p-1 = -1 in both coordinates */
    cuzk_fp2 x, sq;
    cuzk_fp2_neg(&x, &CUZK_FP2_ONE);
    cuzk_fp_neg(&x.c1, &CUZK_FP_ONE);
    cuzk_fp2_sqr(&sq, &x);
    expect_root_pm(&sq, &x);
}

static void test_predicates_sign(void **state)
{
    (void)state;
    cuzk_fp2 a, b;
    assert_true(cuzk_fp2_is_zero(&CUZK_FP2_ZERO));
    assert_false(cuzk_fp2_is_zero(&CUZK_FP2_ONE));
    assert_true(cuzk_fp2_is_one(&CUZK_FP2_ONE));
    fp2_from_u64s(&a, 1, 1);
    assert_false(cuzk_fp2_is_one(&a));
    fp2_from_u64s(&a, 0, 1);
    assert_false(cuzk_fp2_is_one(&a));
    assert_false(cuzk_fp2_eq(&a, &CUZK_FP2_ONE));

    /* sign: small values are not largest, their negations are; c1 decides when non-zero */
    fp2_from_u64s(&a, 5, 0);
    assert_false(cuzk_fp2_is_lexicographically_largest(&a));
    cuzk_fp2_neg(&b, &a);
    assert_true(cuzk_fp2_is_lexicographically_largest(&b));
    fp2_from_u64s(&a, 0, 7);
    assert_false(cuzk_fp2_is_lexicographically_largest(&a));
    cuzk_fp2_neg(&b, &a);
    assert_true(cuzk_fp2_is_lexicographically_largest(&b));
    /* c1 small, c0 large: not largest */
    fp2_from_u64s(&a, 0, 3);
    cuzk_fp_from_u64(&b.c0, 9);
    cuzk_fp_neg(&a.c0, &b.c0);
    assert_false(cuzk_fp2_is_lexicographically_largest(&a));
    /* c1 large, c0 small: largest */
    cuzk_fp_neg(&a.c1, &a.c1);
    cuzk_fp_from_u64(&a.c0, 1);
    assert_true(cuzk_fp2_is_lexicographically_largest(&a));
    assert_false(cuzk_fp2_is_lexicographically_largest(&CUZK_FP2_ZERO));
    /* exactly one of a, -a is largest for a != 0 */
    size_t n = test_iters(100);
    for (size_t i = 0; i < n; i++) {
        rand_nonzero(&a);
        cuzk_fp2_neg(&b, &a);
        assert_true(cuzk_fp2_is_lexicographically_largest(&a) !=
                    cuzk_fp2_is_lexicographically_largest(&b));
    }

    /* cmov */
    test_rand_fp2(&a);
    test_rand_fp2(&b);
    cuzk_fp2 r;
    cuzk_fp2_cmov(&r, &a, &b, false);
    assert_true(cuzk_fp2_eq(&r, &a));
    cuzk_fp2_cmov(&r, &a, &b, true);
    assert_true(cuzk_fp2_eq(&r, &b));
}

int main(void)
{
    test_rng_init("test_fp2");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mul_sqr),       cmocka_unit_test(test_axioms),
        cmocka_unit_test(test_inv),           cmocka_unit_test(test_pow_frobenius),
        cmocka_unit_test(test_legendre_sqrt), cmocka_unit_test(test_predicates_sign),
        cmocka_unit_test(test_sqrt_norm_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
