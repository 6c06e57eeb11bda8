/*
 * test_scalar_mul.c — scalar multiplication of G1 and G2: the constant-time GLV/GLS
 * windows (jac_mul), the GLV/GLS wNAF (jac_mul_var), the fixed-base table (fixed_mul) and
 * the arbitrary-length sliding window (jac_mul_u64s_var), the batched wide-window
 * fixed-base multiplication (fixed_mul_var: digit edges, zeros, chunk seams) against a bit-by-bit
 * double-and-add written here, on random scalars, on k = 0, 1, 2, r-1, r-2 and high-bit
 * patterns, on the seams and extremes of both decompositions (multiples of lambda, powers
 * of |x|, chosen sub-scalars); points off the subgroup through the generic method;
 * [r]G == O; the scalar recodings reconstruct their input.
 *
 * This file includes itself once per group (SM_PASS) so G1 and G2 share one body.
 * Single-threaded.
 */
#ifndef SM_PASS
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "ec/ec_internal.h"
#include "test_rng.h"

/* k as an Fr element (k < r) */
static void fr_of(cuzk_fr *s, const uint64_t k[4])
{
    assert_int_equal(cuzk_fr_from_canonical(s, k), CUZK_OK);
}

/* r - d for small d */
static void r_minus(uint64_t k[4], uint64_t d)
{
    memcpy(k, CUZK_FR_MODULUS, 4 * sizeof(uint64_t));
    uint64_t b = k[0] < d;
    k[0] -= d;
    for (int i = 1; i < 4 && b; i++)
        b = k[i]-- == 0;
}

/* k[0..4) *= m (mod 2^256) */
static void mul_u64(uint64_t k[4], uint64_t m)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)k[i] * m;
        k[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* k[0..4) += d (signed, small) */
static void add_small(uint64_t k[4], int64_t d)
{
    unsigned __int128 c = (unsigned __int128)k[0] + (uint64_t)d;
    k[0] = (uint64_t)c;
    uint64_t ext = d < 0 ? ~0ULL : 0;
    c >>= 64;
    for (int i = 1; i < 4; i++) {
        c += (unsigned __int128)k[i] + ext;
        k[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* Scalars at the seams of the decompositions: multiples of the GLV lambda = x^2 - 1 plus
 * {-1, 0, 1}, and powers of |x| (the GLS base) plus {-1, 0, 1}. */
static size_t seam_scalars(uint64_t out[][4], size_t cap)
{
    static const uint64_t abs_x = 0xd201000000010000ULL;
    size_t n = 0;
    for (int rep = 0; rep < 3; rep++) {
        uint64_t lam[4] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};
        uint64_t m = rep == 0 ? 1 : test_rng_u64();
        uint64_t m2 = rep == 2 ? (test_rng_u64() >> 2) : 1;
        mul_u64(lam, m);
        mul_u64(lam, m2);                       /* < 2^128 * 2^126 < r */
        for (int64_t d = -1; d <= 1 && n < cap; d++) {
            memcpy(out[n], lam, sizeof lam);
            add_small(out[n], d);
            n++;
        }
    }
    uint64_t p[4] = {1, 0, 0, 0};
    for (int e = 1; e <= 3; e++) {
        mul_u64(p, abs_x);
        for (int64_t d = -1; d <= 1 && n < cap; d++) {
            memcpy(out[n], p, sizeof p);
            add_small(out[n], d);
            n++;
        }
    }
    return n;
}

/* r = a*b mod 2^256 on 4 limbs */
static void mul4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        unsigned __int128 c = 0;
        for (int j = 0; i + j < 4; j++) {
            c += (unsigned __int128)a[i] * b[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
    }
    memcpy(r, t, sizeof t);
}

/* r = a + b mod 2^256 */
static void add4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)a[i] + b[i];
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

static bool lt_r(const uint64_t k[4])
{
    for (int i = 3; i >= 0; i--)
        if (k[i] != CUZK_FR_MODULUS[i])
            return k[i] < CUZK_FR_MODULUS[i];
    return false;
}

static size_t extreme_scalars(uint64_t out[][4], size_t cap)
{
    static const uint64_t lam[4] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};
    static const uint64_t X = 0xd201000000010000ULL;
    size_t n = 0;
    /* GLV: k1 values (< lambda), k2 values (<= floor((r-1)/lambda)) */
    uint64_t k1s[8][4] = {{0}, {1}, {2}, {0, 0, 0, 0}, {0, 0, 0, 0},
                          {0x00000000fffffffeULL, 0xac45a4010001a402ULL},
                          {0, 1ULL << 63}, {0x00000000fffffffdULL, 0xac45a4010001a402ULL}};
    k1s[3][0] = test_rng_u64() & ~1ULL;      /* even, full size */
    k1s[3][1] = test_rng_u64() >> 2;
    k1s[4][0] = test_rng_u64() | 1;          /* odd, full size */
    k1s[4][1] = test_rng_u64() >> 2;
    /* the largest k2, floor((r-1)/lambda) = 0xac45a4010001a4020000000100000000 (python3:
     * hex((r-1)//lam); r-1 is an exact multiple, so it has k1 = 0), a full 128 bits */
    uint64_t k2s[7][4] = {{0}, {1}, {2}, {0}, {0}, {0, 0}, {0, 1ULL << 62}};
    k2s[3][0] = test_rng_u64() & ~1ULL;
    k2s[3][1] = test_rng_u64() >> 3;
    k2s[4][0] = test_rng_u64() | 1;
    k2s[4][1] = test_rng_u64() >> 3;
    k2s[5][0] = 0x0000000100000000ULL;
    k2s[5][1] = 0xac45a4010001a402ULL;
    for (int a = 0; a < 8; a++) {
        for (int b = 0; b < 7 && n < cap; b++) {
            uint64_t t[4];
            mul4(t, k2s[b], lam);
            add4(t, t, k1s[a]);
            if (lt_r(t))
                memcpy(out[n++], t, sizeof t);
        }
    }
    /* GLS: Horner in base X over digit choices */
    uint64_t ds[6] = {0, 1, X - 1, X - 2, 1ULL << 63, test_rng_u64() % X};
    for (int i = 0; i < 36 && n < cap; i++) {
        uint64_t dig[4] = {ds[i % 6], ds[(i / 6) % 6], ds[(i + 3) % 6], ds[(i / 6 + i) % 6]};
        if (i == 35) {       /* digits near the top: X^4 - X^3 - 1 < r = X^4 - X^2 + 1 */
            dig[0] = dig[1] = dig[2] = X - 1;
            dig[3] = X - 2;
        }
        uint64_t t[4] = {0}, xx[4] = {X, 0, 0, 0};
        for (int j = 3; j >= 0; j--) {
            uint64_t dj[4] = {dig[j], 0, 0, 0};
            mul4(t, t, xx);
            add4(t, t, dj);
        }
        if (lt_r(t))
            memcpy(out[n++], t, sizeof t);
    }
    return n;
}

#define SM_PASS 1
#define TN(name) name##_g1
#define TG(name) cuzk_g1_##name
#define TGS(name) cuzk_g1s_##name
#define T_AFF cuzk_g1_affine
#define T_JAC cuzk_g1_jac
#define T_TABLE cuzk_g1_fixed_table
#define T_WIDE cuzk_g1_fixed_wide
#define T_F cuzk_fp
#define T_GEN CUZK_G1_GENERATOR
#define RAND_F test_rand_fp
#define F_SQRT cuzk_fp_sqrt
#define TF(name) cuzk_fp_##name
static void curve_b_g1(cuzk_fp *b) { cuzk_fp_from_u64(b, 4); }
#include "test_scalar_mul.c"
#undef SM_PASS
#undef TN
#undef TG
#undef TGS
#undef T_AFF
#undef T_JAC
#undef T_TABLE
#undef T_WIDE
#undef T_F
#undef T_GEN
#undef RAND_F
#undef F_SQRT
#undef TF

#define SM_PASS 2
#define TN(name) name##_g2
#define TG(name) cuzk_g2_##name
#define TGS(name) cuzk_g2s_##name
#define T_AFF cuzk_g2_affine
#define T_JAC cuzk_g2_jac
#define T_TABLE cuzk_g2_fixed_table
#define T_WIDE cuzk_g2_fixed_wide
#define T_F cuzk_fp2
#define T_GEN CUZK_G2_GENERATOR
#define RAND_F test_rand_fp2
#define F_SQRT cuzk_fp2_sqrt
#define TF(name) cuzk_fp2_##name
static void curve_b_g2(cuzk_fp2 *b)
{
    cuzk_fp_from_u64(&b->c0, 4);
    cuzk_fp_from_u64(&b->c1, 4);
}
#include "test_scalar_mul.c"

static void test_wnaf_roundtrip(void **state)
{
    (void)state;
    size_t n = test_iters(200);
    for (size_t it = 0; it < n; it++) {
        uint64_t k[2] = {test_rng_u64(), test_rng_u64()};
        if (it % 4 == 1)
            k[1] = ~(uint64_t)0;             /* top bits set: final carry past the end */
        for (unsigned w = 2; w <= 7; w++) {
            int8_t naf[2 * 64 + 8];
            size_t len = cuzk_ec_wnaf(naf, k, 2, w);
            /* sum naf[i] 2^i as a signed 3-limb integer, via __int128 halves */
            unsigned __int128 lo = 0, hi = 0;   /* value = hi*2^128 + lo (mod 2^256) */
            size_t last = 0;
            for (size_t i = 2 * 64 + 8; i-- > 0;) {
                if (naf[i] == 0)
                    continue;
                if (!last)
                    last = i + 1;
                assert_true(naf[i] & 1);
                assert_true(naf[i] < (1 << (w - 1)) && naf[i] > -(1 << (w - 1)));
                for (size_t j = i + 1; j < i + w && j < 2 * 64 + 8; j++)
                    assert_int_equal(naf[j], 0);
                unsigned __int128 mag = (unsigned __int128)(naf[i] < 0 ? -naf[i] : naf[i]);
                unsigned __int128 vlo = i < 128 ? mag << i : 0;
                unsigned __int128 vhi = i >= 128 ? mag << (i - 128) : (i ? mag >> (128 - i) : 0);
                if (naf[i] > 0) {
                    unsigned __int128 s = lo + vlo;
                    hi += vhi + (s < lo);
                    lo = s;
                } else {
                    unsigned __int128 s = lo - vlo;
                    hi -= vhi + (s > lo);
                    lo = s;
                }
            }
            assert_int_equal(len, last);
            assert_true(hi == 0);
            assert_true((uint64_t)lo == k[0] && (uint64_t)(lo >> 64) == k[1]);
        }
    }
    uint64_t z[2] = {0, 0};
    int8_t naf[2 * 64 + 8];
    assert_int_equal(cuzk_ec_wnaf(naf, z, 2, 5), 0);
}

static void test_signed_windows_roundtrip(void **state)
{
    (void)state;
    size_t n = test_iters(200);
    for (size_t it = 0; it < n; it++) {
        uint64_t k[4];
        cuzk_fr s;
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k, &s);
        if (it == 0)
            r_minus(k, 1);
        for (unsigned w = 4; w <= 6; w++) {
            int8_t d[80];
            size_t nd = (256 + 1 + w - 1) / w;
            cuzk_ec_signed_windows(d, nd, k, 4, w);
            /* Horner from the top: acc = acc*2^w + d, in 4 limbs with signed carries */
            int64_t acc[5] = {0};
            for (size_t i = nd; i-- > 0;) {
                assert_true(d[i] >= -(1 << (w - 1)) && d[i] <= (1 << (w - 1)));
                __int128 c = d[i];
                for (int l = 0; l < 5; l++) {
                    __int128 v = (__int128)(uint64_t)acc[l] * ((__int128)1 << w) + c;
                    acc[l] = (int64_t)(uint64_t)v;
                    c = v >> 64;
                }
            }
            for (int l = 0; l < 4; l++)
                assert_true((uint64_t)acc[l] == k[l]);
            assert_true(acc[4] == 0);
        }
    }
}

int main(void)
{
    test_rng_init("test_scalar_mul");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnaf_roundtrip),
        cmocka_unit_test(test_signed_windows_roundtrip),
        cmocka_unit_test(test_special_scalars_g1),
        cmocka_unit_test(test_random_scalars_g1),
        cmocka_unit_test(test_order_and_long_scalars_g1),
        cmocka_unit_test(test_off_subgroup_g1),
        cmocka_unit_test(test_decomposition_extremes_g1),
        cmocka_unit_test(test_fixed_table_g1),
        cmocka_unit_test(test_fixed_wide_g1),
        cmocka_unit_test(test_special_scalars_g2),
        cmocka_unit_test(test_random_scalars_g2),
        cmocka_unit_test(test_order_and_long_scalars_g2),
        cmocka_unit_test(test_off_subgroup_g2),
        cmocka_unit_test(test_decomposition_extremes_g2),
        cmocka_unit_test(test_fixed_table_g2),
        cmocka_unit_test(test_fixed_wide_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* SM_PASS: the per-group body */

static void TN(naive_mul)(T_JAC *r, const T_JAC *p, const uint64_t *k, size_t n)
{
    T_JAC acc;
    TG(jac_set_infinity)(&acc);
    for (size_t i = 64 * n; i-- > 0;) {
        TG(jac_dbl)(&acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            TG(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}

static void TN(gen_jac)(T_JAC *g)
{
    TG(jac_from_affine)(g, &T_GEN);
}

/* Checks every method against naive_mul for one point and scalar. */
static void TN(check_all)(const T_JAC *p, const T_TABLE *tab, const uint64_t k[4])
{
    cuzk_fr s;
    T_JAC want, got, alias;
    fr_of(&s, k);
    TN(naive_mul)(&want, p, k, 4);
    TG(jac_mul)(&got, p, &s);
    assert_true(TG(jac_eq)(&got, &want));
    TG(jac_mul_var)(&got, p, &s);
    assert_true(TG(jac_eq)(&got, &want));
    TG(jac_mul_u64s_var)(&got, p, k, 4);
    assert_true(TG(jac_eq)(&got, &want));
    alias = *p;
    TG(jac_mul)(&alias, &alias, &s);
    assert_true(TG(jac_eq)(&alias, &want));
    alias = *p;
    TG(jac_mul_var)(&alias, &alias, &s);
    assert_true(TG(jac_eq)(&alias, &want));
    if (tab) {
        TG(fixed_mul)(&got, tab, &s);
        assert_true(TG(jac_eq)(&got, &want));
    }
}

static T_TABLE *TN(gen_table)(void)
{
    T_TABLE *t = malloc(TG(fixed_table_size)());
    assert_non_null(t);
    assert_int_equal(TG(fixed_table_init)(t, &T_GEN), CUZK_OK);
    return t;
}

static void TN(test_special_scalars)(void **state)
{
    (void)state;
    T_TABLE *tab = TN(gen_table)();
    T_JAC g, got, want;
    TN(gen_jac)(&g);
    uint64_t ks[][4] = {
        {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {31, 0, 0, 0}, {32, 0, 0, 0}, {33, 0, 0, 0},
        {0, 0, 0, 1ULL << 62},                     /* high bits set */
        {~0ULL, ~0ULL, ~0ULL, 0x3fffffffffffffffULL},
        {0, 0, 0x8000000000000000ULL, 0x7000000000000000ULL},
        {0xffffffff, 0, 0, 0x0000000100000000ULL},
        {0xac45a4010001a402ULL, 0, 0, 0},           /* around GLV lambda's limbs */
        {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0},   /* = lambda */
        {0xd201000000010000ULL, 0, 0, 0},           /* = |x| */
        {0, 0, 0, 0}, {0, 0, 0, 0},                 /* r-1, r-2 filled below */
    };
    size_t nk = sizeof ks / sizeof ks[0];
    r_minus(ks[nk - 2], 1);
    r_minus(ks[nk - 1], 2);
    for (size_t i = 0; i < nk; i++)
        TN(check_all)(&g, tab, ks[i]);
    uint64_t seams[32][4];
    size_t ns = seam_scalars(seams, 32);
    for (size_t i = 0; i < ns; i++)
        TN(check_all)(&g, NULL, seams[i]);
    /* [r-1]G == -G, [1]G == G, [0]G == O */
    cuzk_fr s;
    fr_of(&s, ks[nk - 2]);
    TG(jac_mul_var)(&got, &g, &s);
    TG(jac_neg)(&want, &g);
    assert_true(TG(jac_eq)(&got, &want));
    TG(fixed_mul)(&got, tab, &s);
    assert_true(TG(jac_eq)(&got, &want));
    fr_of(&s, ks[1]);
    TG(jac_mul)(&got, &g, &s);
    assert_true(TG(jac_eq)(&got, &g));
    fr_of(&s, ks[0]);
    TG(jac_mul)(&got, &g, &s);
    assert_true(TG(jac_is_infinity)(&got));
    TG(fixed_mul)(&got, tab, &s);
    assert_true(TG(jac_is_infinity)(&got));
    /* the point at infinity times anything */
    T_JAC inf;
    TG(jac_set_infinity)(&inf);
    fr_of(&s, ks[7]);
    TG(jac_mul)(&got, &inf, &s);
    assert_true(TG(jac_is_infinity)(&got));
    TG(jac_mul_var)(&got, &inf, &s);
    assert_true(TG(jac_is_infinity)(&got));
    TG(jac_mul_u64s_var)(&got, &inf, ks[7], 4);
    assert_true(TG(jac_is_infinity)(&got));
    free(tab);
}

static void TN(test_random_scalars)(void **state)
{
    (void)state;
    T_TABLE *tab = TN(gen_table)();
    T_JAC g, p;
    TN(gen_jac)(&g);
    size_t n = test_iters(12);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4], k2[4];
        cuzk_fr s;
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k, &s);
        TN(check_all)(&g, tab, k);
        /* another subgroup point, another Z */
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k2, &s);
        TN(naive_mul)(&p, &g, k2, 4);
        TN(check_all)(&p, NULL, k);
    }
    free(tab);
}

static void TN(test_order_and_long_scalars)(void **state)
{
    (void)state;
    T_JAC g, got, want;
    TN(gen_jac)(&g);
    TG(jac_mul_u64s_var)(&got, &g, CUZK_FR_MODULUS, 4);
    assert_true(TG(jac_is_infinity)(&got));
    TN(naive_mul)(&got, &g, CUZK_FR_MODULUS, 4);
    assert_true(TG(jac_is_infinity)(&got));
    /* long scalars (up to 10 limbs, with leading zero limbs) against naive */
    size_t n = test_iters(4);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[10];
        size_t nl = 1 + (size_t)(test_rng_u64() % 10);
        for (size_t j = 0; j < nl; j++)
            k[j] = test_rng_u64();
        if (nl > 2)
            k[nl - 1] = 0;
        TG(jac_mul_u64s_var)(&got, &g, k, nl);
        TN(naive_mul)(&want, &g, k, nl);
        assert_true(TG(jac_eq)(&got, &want));
    }
    /* short scalars exercise the small windows */
    for (uint64_t v = 0; v < 40; v++) {
        TG(jac_mul_u64s_var)(&got, &g, &v, 1);
        TN(naive_mul)(&want, &g, &v, 1);
        assert_true(TG(jac_eq)(&got, &want));
    }
}

/* jac_mul and jac_mul_var need a point of the subgroup (the endomorphisms act as scalars
 * only there); points of unknown order go through jac_mul_u64s_var, which must be right
 * for any curve point. Points here carry a cofactor component, and the GLV/GLS methods
 * are seen to differ from the naive product on them (so the subgroup requirement in ec.h
 * is real, and this test would notice if the endomorphism code were bypassed). */
static void TN(test_off_subgroup)(void **state)
{
    (void)state;
    size_t n = test_iters(4);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        T_AFF a;
        T_F rhs, b;
        int tries = 0;
        do {
            assert_true(++tries < 1000);     /* half of all x qualify */
            RAND_F(&a.x);
            TF(sqr)(&rhs, &a.x);
            TF(mul)(&rhs, &rhs, &a.x);
            TN(curve_b)(&b);
            TF(add)(&rhs, &rhs, &b);
        } while (!F_SQRT(&a.y, &rhs));
        assert_true(TG(affine_on_curve)(&a));
        assert_false(TG(affine_in_subgroup)(&a));
        T_JAC p, got, want;
        uint64_t k[4];
        cuzk_fr s;
        TG(jac_from_affine)(&p, &a);
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k, &s);
        TN(naive_mul)(&want, &p, k, 4);
        TG(jac_mul_u64s_var)(&got, &p, k, 4);
        assert_true(TG(jac_eq)(&got, &want));
        TG(jac_mul)(&got, &p, &s);
        differ += !TG(jac_eq)(&got, &want);
        /* [r]P != O off the subgroup, and [r-1]P = [r]P - P */
        uint64_t rm1[4];
        r_minus(rm1, 1);
        TG(jac_mul_u64s_var)(&got, &p, CUZK_FR_MODULUS, 4);
        assert_false(TG(jac_is_infinity)(&got));
        TN(naive_mul)(&want, &p, rm1, 4);
        TG(jac_mul_u64s_var)(&got, &p, rm1, 4);
        assert_true(TG(jac_eq)(&got, &want));
    }
    assert_true(differ > 0);
}

/* Scalars built from chosen sub-scalars of the two decompositions, so the constant-time
 * recodings see their extremes: GLV k = k1 + k2*lambda with k1, k2 in {0, 1, 2, even,
 * odd, lambda-1 / the largest k2, 2^127}; GLS k = d0 + d1 X + d2 X^2 + d3 X^3 with
 * digits in {0, 1, X-1, X-2, 2^63, random}. Every method against the naive product. */
static void TN(test_decomposition_extremes)(void **state)
{
    (void)state;
    T_JAC g, p;
    uint64_t kp[4];
    cuzk_fr s;
    TN(gen_jac)(&g);
    test_rand_fr(&s);
    cuzk_fr_to_canonical(kp, &s);
    TN(naive_mul)(&p, &g, kp, 4);
    const T_JAC *pts[2] = {&g, &p};
    uint64_t ks[128][4];
    size_t nk = extreme_scalars(ks, 128);
    assert_true(nk > 60);
    for (size_t i = 0; i < nk; i++)
        TN(check_all)(pts[i & 1], NULL, ks[i]);
}

static void TN(test_fixed_table)(void **state)
{
    (void)state;
    T_TABLE *tab = malloc(TG(fixed_table_size)());
    assert_non_null(tab);
    assert_int_equal(TG(fixed_table_init)(NULL, &T_GEN), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TG(fixed_table_init)(tab, NULL), CUZK_ERR_INVALID_ARG);
    /* a random base */
    T_JAC g, b;
    T_AFF ba;
    uint64_t kb[4];
    cuzk_fr s;
    TN(gen_jac)(&g);
    test_rand_fr(&s);
    cuzk_fr_to_canonical(kb, &s);
    TN(naive_mul)(&b, &g, kb, 4);
    TG(jac_to_affine)(&ba, &b);
    assert_int_equal(TG(fixed_table_init)(tab, &ba), CUZK_OK);
    size_t n = test_iters(8);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k, &s);
        TN(check_all)(&b, tab, k);
    }
    /* base at infinity: every product is O */
    T_AFF inf;
    T_JAC got;
    TG(affine_set_infinity)(&inf);
    assert_int_equal(TG(fixed_table_init)(tab, &inf), CUZK_OK);
    TG(fixed_mul)(&got, tab, &s);
    assert_true(TG(jac_is_infinity)(&got));
    free(tab);
}

/* ---- batched wide-window fixed-base multiplication (fixed_mul_var) ---------------- */

/* The scalars for one width: 0 between the others (accumulators that stay infinity, or
 * start late), 1, 2, r-1, r-2, every digit boundary of width w (2^(w-1) +- 1, 2^w - 1,
 * 2^w, carries rippling through all windows), 2^255 - r and 2^256 - 2r (the scalars
 * whose partial sums would meet a table entry mod r if the top windows could wrap), then
 * random ones; more than one 512-point chunk. */
static size_t TN(wide_scalars)(uint64_t (*k)[4], size_t cap, unsigned w)
{
    static const uint64_t wrap[2][4] = {
        {0x00000000ffffffffULL, 0xac425bfd0001a401ULL, 0xccc627f7f65e27faULL,
         0x0c1258acd66282b7ULL},
        {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
         0x1824b159acc5056fULL}};
    size_t n = 0;
    memset(k, 0, cap * sizeof *k);
    k[n++][0] = 1;
    n++; /* 0 */
    k[n++][0] = 2;
    r_minus(k[n++], 1);
    r_minus(k[n++], 2);
    uint64_t half = 1ULL << (w - 1), full = w < 64 ? 1ULL << w : 0;
    uint64_t edge[5] = {half - 1, half, half + 1, full - 1, full};
    for (int i = 0; i < 5; i++) {
        k[n][0] = edge[i];
        n++;
        memset(k[n], 0, sizeof k[n]);
        for (int l = 0; l < 4; l++)  /* the pattern in every 64-bit limb: carries */
            k[n][l] = edge[i] * 0x0101010101010101ULL;
        k[n][3] &= 0x3fffffffffffffffULL; /* below r */
        n++;
    }
    memcpy(k[n++], wrap[0], sizeof wrap[0]);
    memcpy(k[n++], wrap[1], sizeof wrap[1]);
    n++; /* 0 */
    while (n < cap) {
        cuzk_fr s;
        test_rand_fr(&s);
        cuzk_fr_to_canonical(k[n++], &s);
    }
    return n;
}

static void TN(test_fixed_wide)(void **state)
{
    (void)state;
    enum { N = 600 };
    uint64_t(*k)[4] = malloc(N * sizeof *k);
    cuzk_fr *s = malloc(N * sizeof *s);
    T_AFF *got = malloc(N * sizeof *got);
    size_t scr = TGS(fixed_mul_var_scratch_size)();
    void *scratch = malloc(scr);
    assert_true(k && s && got && scratch);
    T_TABLE *ct = TN(gen_table)();
    /* a random base for one width, the generator for the others */
    T_JAC g, rb;
    T_AFF rba;
    cuzk_fr rs;
    uint64_t rk[4];
    TN(gen_jac)(&g);
    test_rand_fr(&rs);
    cuzk_fr_to_canonical(rk, &rs);
    TN(naive_mul)(&rb, &g, rk, 4);
    TG(jac_to_affine)(&rba, &rb);
    const unsigned widths[] = {CUZK_FIXED_WIDE_MIN_W, 5, 8, 13};
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        unsigned w = widths[wi];
        bool rand_base = w == 8;
        size_t tsz = TG(fixed_wide_size)(w);
        assert_true(tsz > 0);
        T_WIDE *t = malloc(tsz);
        assert_non_null(t);
        assert_int_equal(TG(fixed_wide_init)(t, w, rand_base ? &rba : &T_GEN), CUZK_OK);
        size_t n = TN(wide_scalars)(k, N, w);
        for (size_t i = 0; i < n; i++)
            fr_of(&s[i], k[i]);
        assert_int_equal(TGS(fixed_mul_var)(got, t, s, n, scratch, scr), CUZK_OK);
        for (size_t i = 0; i < n; i++) {
            T_JAC want;
            T_AFF wa;
            if (rand_base)
                TN(naive_mul)(&want, &rb, k[i], 4);
            else
                TG(fixed_mul)(&want, ct, &s[i]); /* the constant-time table, checked above */
            TG(jac_to_affine)(&wa, &want);
            if (!TG(affine_eq)(&got[i], &wa))
                fail_msg("w = %u, scalar %zu: wrong product", w, i);
        }
        /* a short batch in the middle gives the same points */
        T_AFF few[3];
        assert_int_equal(TGS(fixed_mul_var)(few, t, s + 7, 3, scratch, scr), CUZK_OK);
        for (int i = 0; i < 3; i++)
            assert_true(TG(affine_eq)(&few[i], &got[7 + i]));
        free(t);
    }
    /* bad arguments */
    assert_int_equal(TG(fixed_wide_size)(CUZK_FIXED_WIDE_MIN_W - 1), 0);
    assert_int_equal(TG(fixed_wide_size)(CUZK_FIXED_WIDE_MAX_W + 1), 0);
    T_WIDE *t = malloc(TG(fixed_wide_size)(4));
    assert_non_null(t);
    T_AFF inf;
    TG(affine_set_infinity)(&inf);
    assert_int_equal(TG(fixed_wide_init)(t, 4, &inf), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TG(fixed_wide_init)(t, 1, &T_GEN), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TG(fixed_wide_init)(NULL, 4, &T_GEN), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TG(fixed_wide_init)(t, 4, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TG(fixed_wide_init)(t, 4, &T_GEN), CUZK_OK);
    assert_int_equal(TGS(fixed_mul_var)(got, t, s, 1, scratch, scr - 1), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(fixed_mul_var)(got, t, s, 1, NULL, scr), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(fixed_mul_var)(NULL, t, s, 1, scratch, scr), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(fixed_mul_var)(NULL, NULL, NULL, 0, NULL, 0), CUZK_OK);
    free(t);
    free(ct);
    free(k);
    free(s);
    free(got);
    free(scratch);
}

#endif /* SM_PASS */
