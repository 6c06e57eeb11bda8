/*
 * test_tower.c — Fp6 and Fp12: products against schoolbook polynomial products written
 * here (Fp6 over the basis 1, v, v^2 with v^3 = xi; Fp12 over 1, w, ..., w^5 with
 * w^6 = xi), field axioms, inverses, Frobenius maps against a^(p^k) by plain
 * exponentiation, cyclotomic squaring against squaring on f^((p^6-1)(p^2+1)), and the
 * sparse line product against a full product. Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ff.h"
#include "test_rng.h"

static void rand_fp6(cuzk_fp6 *a)
{
    test_rand_fp2(&a->c0);
    test_rand_fp2(&a->c1);
    test_rand_fp2(&a->c2);
}

static void rand_fp12(cuzk_fp12 *a)
{
    rand_fp6(&a->c0);
    rand_fp6(&a->c1);
}

static void xi_times(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    /* (a0 + a1 u)(1 + u) written out rather than via mul_by_nonresidue */
    cuzk_fp2 xi;
    cuzk_fp_from_u64(&xi.c0, 1);
    cuzk_fp_from_u64(&xi.c1, 1);
    cuzk_fp2_mul(r, a, &xi);
}

/* Schoolbook product of degree-<n polynomials over Fp2, reduced with X^n = xi. */
static void poly_mul_reduce(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b, int n)
{
    cuzk_fp2 t[11], m;
    for (int i = 0; i < 2 * n - 1; i++)
        t[i] = CUZK_FP2_ZERO;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            cuzk_fp2_mul(&m, &a[i], &b[j]);
            cuzk_fp2_add(&t[i + j], &t[i + j], &m);
        }
    for (int k = 2 * n - 2; k >= n; k--) {
        xi_times(&m, &t[k]);
        cuzk_fp2_add(&t[k - n], &t[k - n], &m);
    }
    for (int i = 0; i < n; i++)
        r[i] = t[i];
}

static void ref_fp6_mul(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b)
{
    cuzk_fp2 x[3] = {a->c0, a->c1, a->c2}, y[3] = {b->c0, b->c1, b->c2}, z[3];
    poly_mul_reduce(z, x, y, 3);
    r->c0 = z[0];
    r->c1 = z[1];
    r->c2 = z[2];
}

/* w-basis: w^0 = c0.c0, w^1 = c1.c0, w^2 = c0.c1, w^3 = c1.c1, w^4 = c0.c2, w^5 = c1.c2 */
static void to_w(cuzk_fp2 w[6], const cuzk_fp12 *a)
{
    w[0] = a->c0.c0;
    w[1] = a->c1.c0;
    w[2] = a->c0.c1;
    w[3] = a->c1.c1;
    w[4] = a->c0.c2;
    w[5] = a->c1.c2;
}

static void from_w(cuzk_fp12 *a, const cuzk_fp2 w[6])
{
    a->c0.c0 = w[0];
    a->c1.c0 = w[1];
    a->c0.c1 = w[2];
    a->c1.c1 = w[3];
    a->c0.c2 = w[4];
    a->c1.c2 = w[5];
}

static void ref_fp12_mul(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b)
{
    cuzk_fp2 x[6], y[6], z[6];
    to_w(x, a);
    to_w(y, b);
    poly_mul_reduce(z, x, y, 6);
    from_w(r, z);
}

/* p^k as little-endian limbs (k <= 12 fits in 72 limbs). Returns the limb count. */
static size_t p_power(uint64_t *out, unsigned k)
{
    size_t n = 1;
    memset(out, 0, 72 * sizeof *out);
    out[0] = 1;
    for (unsigned j = 0; j < k; j++) {
        uint64_t t[72] = {0};
        for (size_t i = 0; i < n; i++) {
            unsigned __int128 c = 0;
            for (size_t l = 0; l < CUZK_FP_LIMBS; l++) {
                c += (unsigned __int128)out[i] * CUZK_FP_MODULUS[l] + t[i + l];
                t[i + l] = (uint64_t)c;
                c >>= 64;
            }
            t[i + CUZK_FP_LIMBS] = (uint64_t)c;
        }
        n += CUZK_FP_LIMBS;
        memcpy(out, t, sizeof t);
    }
    while (n > 1 && out[n - 1] == 0)
        n--;
    return n;
}

static void test_fp6_arith(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp6 a, b, c, l, r, t;
        rand_fp6(&a);
        rand_fp6(&b);
        rand_fp6(&c);
        cuzk_fp6_mul(&l, &a, &b);
        ref_fp6_mul(&r, &a, &b);
        assert_true(cuzk_fp6_eq(&l, &r));
        cuzk_fp6_sqr(&l, &a);
        ref_fp6_mul(&r, &a, &a);
        assert_true(cuzk_fp6_eq(&l, &r));
        t = a;
        cuzk_fp6_sqr(&t, &t);
        assert_true(cuzk_fp6_eq(&t, &r));
        t = a;
        cuzk_fp6_mul(&t, &t, &t);
        assert_true(cuzk_fp6_eq(&t, &r));
        /* associativity, distributivity */
        cuzk_fp6_mul(&l, &a, &b);
        cuzk_fp6_mul(&l, &l, &c);
        cuzk_fp6_mul(&r, &b, &c);
        cuzk_fp6_mul(&r, &a, &r);
        assert_true(cuzk_fp6_eq(&l, &r));
        cuzk_fp6_add(&t, &b, &c);
        cuzk_fp6_mul(&l, &a, &t);
        cuzk_fp6_mul(&r, &a, &b);
        cuzk_fp6_mul(&t, &a, &c);
        cuzk_fp6_add(&r, &r, &t);
        assert_true(cuzk_fp6_eq(&l, &r));
        /* sub / neg */
        cuzk_fp6_sub(&l, &a, &b);
        cuzk_fp6_add(&l, &l, &b);
        assert_true(cuzk_fp6_eq(&l, &a));
        cuzk_fp6_neg(&l, &a);
        cuzk_fp6_add(&l, &l, &a);
        assert_true(cuzk_fp6_is_zero(&l));
        /* times v */
        cuzk_fp6 v = CUZK_FP6_ZERO;
        v.c1 = CUZK_FP2_ONE;
        cuzk_fp6_mul_by_nonresidue(&l, &a);
        ref_fp6_mul(&r, &a, &v);
        assert_true(cuzk_fp6_eq(&l, &r));
        /* inverse */
        if (!cuzk_fp6_is_zero(&a)) {
            cuzk_fp6_inv(&l, &a);
            cuzk_fp6_mul(&r, &l, &a);
            assert_true(cuzk_fp6_eq(&r, &CUZK_FP6_ONE));
            t = a;
            cuzk_fp6_inv(&t, &t);
            assert_true(cuzk_fp6_eq(&t, &l));
        }
    }
    cuzk_fp6 z = CUZK_FP6_ZERO, r;
    cuzk_fp6_inv(&r, &z);
    assert_true(cuzk_fp6_is_zero(&r));
    cuzk_fp6_inv(&r, &CUZK_FP6_ONE);
    assert_true(cuzk_fp6_eq(&r, &CUZK_FP6_ONE));
    assert_false(cuzk_fp6_is_zero(&CUZK_FP6_ONE));
    /* an element with only c2 set (exercises the xi-reduction path of the inverse) */
    rand_fp6(&z);
    z.c0 = CUZK_FP2_ZERO;
    z.c1 = CUZK_FP2_ZERO;
    cuzk_fp6_inv(&r, &z);
    cuzk_fp6_mul(&r, &r, &z);
    assert_true(cuzk_fp6_eq(&r, &CUZK_FP6_ONE));
}

static void test_fp12_arith(void **state)
{
    (void)state;
    size_t n = test_iters(60);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp12 a, b, c, l, r, t;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        cuzk_fp12_mul(&l, &a, &b);
        ref_fp12_mul(&r, &a, &b);
        assert_true(cuzk_fp12_eq(&l, &r));
        cuzk_fp12_sqr(&l, &a);
        ref_fp12_mul(&r, &a, &a);
        assert_true(cuzk_fp12_eq(&l, &r));
        t = a;
        cuzk_fp12_sqr(&t, &t);
        assert_true(cuzk_fp12_eq(&t, &r));
        t = a;
        cuzk_fp12_mul(&t, &t, &t);
        assert_true(cuzk_fp12_eq(&t, &r));
        t = a;
        cuzk_fp12_mul(&t, &t, &b);
        ref_fp12_mul(&r, &a, &b);
        assert_true(cuzk_fp12_eq(&t, &r));
        t = b;
        cuzk_fp12_mul(&t, &a, &t);
        assert_true(cuzk_fp12_eq(&t, &r));
        /* associativity, distributivity */
        cuzk_fp12_mul(&l, &a, &b);
        cuzk_fp12_mul(&l, &l, &c);
        cuzk_fp12_mul(&r, &b, &c);
        cuzk_fp12_mul(&r, &a, &r);
        assert_true(cuzk_fp12_eq(&l, &r));
        cuzk_fp12_add(&t, &b, &c);
        cuzk_fp12_mul(&l, &a, &t);
        cuzk_fp12_mul(&r, &a, &b);
        cuzk_fp12_mul(&t, &a, &c);
        cuzk_fp12_add(&r, &r, &t);
        assert_true(cuzk_fp12_eq(&l, &r));
        cuzk_fp12_sub(&l, &a, &b);
        cuzk_fp12_add(&l, &l, &b);
        assert_true(cuzk_fp12_eq(&l, &a));
        /* inverse */
        cuzk_fp12_inv(&l, &a);
        cuzk_fp12_mul(&r, &l, &a);
        assert_true(cuzk_fp12_is_one(&r));
        t = a;
        cuzk_fp12_inv(&t, &t);
        assert_true(cuzk_fp12_eq(&t, &l));
        /* identity */
        cuzk_fp12_mul(&l, &a, &CUZK_FP12_ONE);
        assert_true(cuzk_fp12_eq(&l, &a));
    }
    cuzk_fp12 z, r;
    memset(&z, 0, sizeof z);
    cuzk_fp12_inv(&r, &z);
    assert_true(cuzk_fp12_eq(&r, &z));
    cuzk_fp12_inv(&r, &CUZK_FP12_ONE);
    assert_true(cuzk_fp12_is_one(&r));
    assert_false(cuzk_fp12_is_one(&z));
}

static void test_pow(void **state)
{
    (void)state;
    cuzk_fp12 a, r, t;
    rand_fp12(&a);
    uint64_t e = 0;
    cuzk_fp12_pow(&r, &a, &e, 1);
    assert_true(cuzk_fp12_is_one(&r));
    e = 1;
    cuzk_fp12_pow(&r, &a, &e, 1);
    assert_true(cuzk_fp12_eq(&r, &a));
    e = 11;
    cuzk_fp12_pow(&r, &a, &e, 1);
    t = CUZK_FP12_ONE;
    for (int i = 0; i < 11; i++)
        ref_fp12_mul(&t, &t, &a);
    assert_true(cuzk_fp12_eq(&r, &t));
    /* two-limb exponent 2^64 + 3: a^(2^64) by 64 squarings */
    uint64_t e2[2] = {3, 1};
    cuzk_fp12_pow(&r, &a, e2, 2);
    t = a;
    for (int i = 0; i < 64; i++)
        cuzk_fp12_sqr(&t, &t);
    for (int i = 0; i < 3; i++)
        cuzk_fp12_mul(&t, &t, &a);
    assert_true(cuzk_fp12_eq(&r, &t));
    r = a;
    cuzk_fp12_pow(&r, &r, e2, 2);
    assert_true(cuzk_fp12_eq(&r, &t));
}

/* a^(p^k) by exponentiation, for every k, against the Frobenius maps (Fp6 via elements
 * with c1 = 0). Also the conjugation = p^6. */
static void test_frobenius(void **state)
{
    (void)state;
    static uint64_t pk[72];
    cuzk_fp12 a, r, t;
    rand_fp12(&a);
    for (unsigned k = 0; k < 12; k++) {
        size_t n = p_power(pk, k);
        cuzk_fp12_pow(&t, &a, pk, n);
        cuzk_fp12_frobenius(&r, &a, k);
        assert_true(cuzk_fp12_eq(&r, &t));
        r = a;
        cuzk_fp12_frobenius(&r, &r, k);
        assert_true(cuzk_fp12_eq(&r, &t));
        if (k == 6) {
            cuzk_fp12_conj(&r, &a);
            assert_true(cuzk_fp12_eq(&r, &t));
        }
    }
    cuzk_fp12 b;
    rand_fp6(&b.c0);
    b.c1 = CUZK_FP6_ZERO;
    for (unsigned k = 0; k < 6; k++) {
        size_t n = p_power(pk, k);
        cuzk_fp12_pow(&t, &b, pk, n);
        cuzk_fp6 f;
        cuzk_fp6_frobenius(&f, &b.c0, k);
        assert_true(cuzk_fp6_eq(&f, &t.c0));
        assert_true(cuzk_fp6_is_zero(&t.c1));
    }
    /* composition on more elements: frob_j(frob_k(a)) == frob_{j+k}(a) */
    size_t iters = test_iters(10);
    for (size_t i = 0; i < iters; i++) {
        rand_fp12(&a);
        unsigned j = (unsigned)(test_rng_u64() % 12), k = (unsigned)(test_rng_u64() % 12);
        cuzk_fp12_frobenius(&r, &a, k);
        cuzk_fp12_frobenius(&r, &r, j);
        cuzk_fp12_frobenius(&t, &a, (j + k) % 12);
        assert_true(cuzk_fp12_eq(&r, &t));
        /* Frobenius is multiplicative */
        cuzk_fp12 b2, ab, fa, fb;
        rand_fp12(&b2);
        cuzk_fp12_mul(&ab, &a, &b2);
        cuzk_fp12_frobenius(&ab, &ab, k);
        cuzk_fp12_frobenius(&fa, &a, k);
        cuzk_fp12_frobenius(&fb, &b2, k);
        cuzk_fp12_mul(&fa, &fa, &fb);
        assert_true(cuzk_fp12_eq(&ab, &fa));
    }
}

static void test_cyclotomic(void **state)
{
    (void)state;
    size_t n = test_iters(30);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp12 f, g, t, l, r;
        rand_fp12(&f);
        /* g = f^((p^6 - 1)(p^2 + 1)) */
        cuzk_fp12_inv(&t, &f);
        cuzk_fp12_conj(&g, &f);
        cuzk_fp12_mul(&g, &g, &t);
        cuzk_fp12_frobenius(&t, &g, 2);
        cuzk_fp12_mul(&g, &g, &t);
        /* in the cyclotomic subgroup conj is the inverse */
        cuzk_fp12_conj(&t, &g);
        cuzk_fp12_mul(&t, &t, &g);
        assert_true(cuzk_fp12_is_one(&t));
        cuzk_fp12_cyclotomic_sqr(&l, &g);
        cuzk_fp12_sqr(&r, &g);
        assert_true(cuzk_fp12_eq(&l, &r));
        t = g;
        cuzk_fp12_cyclotomic_sqr(&t, &t);
        assert_true(cuzk_fp12_eq(&t, &r));
        /* a chain of squarings stays in the subgroup */
        for (int k = 0; k < 5; k++) {
            cuzk_fp12_cyclotomic_sqr(&l, &l);
            cuzk_fp12_sqr(&r, &r);
        }
        assert_true(cuzk_fp12_eq(&l, &r));
    }
    cuzk_fp12 one;
    cuzk_fp12_cyclotomic_sqr(&one, &CUZK_FP12_ONE);
    assert_true(cuzk_fp12_is_one(&one));
}

static void test_mul_by_014(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp12 a, line, l, r, t;
        cuzk_fp2 c0, c1, c4;
        rand_fp12(&a);
        test_rand_fp2(&c0);
        test_rand_fp2(&c1);
        test_rand_fp2(&c4);
        memset(&line, 0, sizeof line);
        line.c0.c0 = c0;
        line.c0.c1 = c1;
        line.c1.c1 = c4;
        cuzk_fp12_mul_by_014(&l, &a, &c0, &c1, &c4);
        ref_fp12_mul(&r, &a, &line);
        assert_true(cuzk_fp12_eq(&l, &r));
        t = a;
        cuzk_fp12_mul_by_014(&t, &t, &c0, &c1, &c4);
        assert_true(cuzk_fp12_eq(&t, &r));
    }
}

int main(void)
{
    test_rng_init("test_tower");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp6_arith),  cmocka_unit_test(test_fp12_arith),
        cmocka_unit_test(test_pow),        cmocka_unit_test(test_frobenius),
        cmocka_unit_test(test_cyclotomic), cmocka_unit_test(test_mul_by_014),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
