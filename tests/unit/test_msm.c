/*
 * test_msm.c — Pippenger MSM, bitmap sums (batched affine additions) and the 0/1 split.
 *
 * References, none of which shares code with src/msm:
 *   - small n: the sum of k_i * P_i with cuzk_*_jac_mul_var (GLV/wNAF scalar mult) and
 *     Jacobian additions;
 *   - large n: points are built as P_i = a_i * G with a_i known in Fr, so the MSM must
 *     equal (sum k_i a_i) * G, computed with Fr arithmetic and one scalar multiplication;
 *   - bitmap sums: sequential Jacobian additions, or the Fr identity above.
 *
 * The body is generic over the group: test_msm_g2.c defines the T_* macros for G2 and
 * includes this file. Single-threaded except where a pool is created explicitly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"
#include "msm/msm_internal.h"
#include "test_rng.h"

#ifndef TG
#define TG(name) cuzk_g1_##name
#define TGS(name) cuzk_g1s_##name
#define T_AFF cuzk_g1_affine
#define T_JAC cuzk_g1_jac
#define T_F cuzk_fp
#define T_GEN CUZK_G1_GENERATOR
#define TEST_NAME "msm"
#define T_MAX_N 4096      /* largest random size */
#define T_SMALL_N 64      /* exhaustive sizes 0..T_SMALL_N vs the naive sum */
#define T_TUNED_N 300     /* points for the forced-window sweep */
#endif

/* ---- fixtures ------------------------------------------------------------------------- */

/* Points P_i = a_i G with known a_i: a random walk a_i = a_{i-1} + s_j over 8 random
 * steps, so building n points costs n additions instead of n scalar multiplications. */
static void make_points(T_AFF *p, cuzk_fr *a, size_t n)
{
    if (n == 0)
        return;
    T_JAC g, steps[8], cur;
    cuzk_fr sa[8];
    TG(jac_from_affine)(&g, &T_GEN);
    for (int j = 0; j < 8; j++) {
        test_rand_fr(&sa[j]);
        TG(jac_mul_var)(&steps[j], &g, &sa[j]);
    }
    T_JAC *jac = malloc(n * sizeof *jac);
    T_F *scratch = malloc(n * sizeof *scratch);
    assert_non_null(jac);
    assert_non_null(scratch);
    test_rand_fr(&a[0]);
    TG(jac_mul_var)(&cur, &g, &a[0]);
    jac[0] = cur;
    for (size_t i = 1; i < n; i++) {
        unsigned j = (unsigned)(test_rng_u64() & 7);
        cuzk_fr_add(&a[i], &a[i - 1], &sa[j]);
        TG(jac_add)(&cur, &cur, &steps[j]);
        jac[i] = cur;
    }
    TGS(jac_to_affine)(p, jac, n, scratch);
    free(scratch);
    free(jac);
}

/* (sum_i k_i a_i) G: the MSM by linearity, in Fr. */
static void fr_reference(T_JAC *r, const cuzk_fr *a, const cuzk_fr *k, size_t n)
{
    cuzk_fr s = CUZK_FR_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_mul(&t, &a[i], &k[i]);
        cuzk_fr_add(&s, &s, &t);
    }
    T_JAC g;
    TG(jac_from_affine)(&g, &T_GEN);
    TG(jac_mul_var)(r, &g, &s);
}

/* sum_i k_i P_i with scalar multiplications and Jacobian additions */
static void naive_msm(T_JAC *r, const T_AFF *p, const cuzk_fr *k, size_t n)
{
    T_JAC acc, q;
    TG(jac_set_infinity)(&acc);
    for (size_t i = 0; i < n; i++) {
        TG(jac_from_affine)(&q, &p[i]);
        TG(jac_mul_var)(&q, &q, &k[i]);
        TG(jac_add)(&acc, &acc, &q);
    }
    *r = acc;
}

static void *g_scratch;
static size_t g_scratch_size;

static void *scratch_for(size_t bytes)
{
    if (bytes > g_scratch_size) {
        free(g_scratch);
        g_scratch = malloc(bytes);
        assert_non_null(g_scratch);
        g_scratch_size = bytes;
    }
    /* garbage, so nothing relies on zeroed scratch */
    memset(g_scratch, 0xa5, bytes);
    return g_scratch;
}

static void msm_ok(T_JAC *r, const T_AFF *p, const cuzk_fr *k, size_t n, cuzk_pool *pool)
{
    size_t sz = TGS(msm_scratch_size)(n, cuzk_pool_nthreads(pool));
    void *s = scratch_for(sz);
    assert_int_equal(TGS(msm)(r, p, k, n, s, sz, pool), CUZK_OK);
    assert_true(TG(jac_on_curve)(r));
}

static void msm_canonical_ok(T_JAC *r, const T_AFF *p, const cuzk_fr *k, size_t n,
                             cuzk_pool *pool)
{
    uint64_t *kc = malloc((n + 1) * 4 * sizeof *kc);
    assert_non_null(kc);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_to_canonical(kc + 4 * i, &k[i]);
    size_t sz = TGS(msm_scratch_size)(n, cuzk_pool_nthreads(pool));
    void *s = scratch_for(sz);
    assert_int_equal(TGS(msm_canonical)(r, p, kc, n, s, sz, pool, NULL), CUZK_OK);
    free(kc);
}

static void sum_bitmap_ok(T_JAC *r, const T_AFF *p, const uint64_t *bm, size_t n,
                          cuzk_pool *pool)
{
    size_t sz = TGS(sum_bitmap_scratch_size)(n, cuzk_pool_nthreads(pool));
    void *s = scratch_for(sz);
    assert_int_equal(TGS(sum_bitmap)(r, p, bm, n, s, sz, pool), CUZK_OK);
    assert_true(TG(jac_on_curve)(r));
}

static void rand_scalars(cuzk_fr *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&k[i]);
}

/* r - 1 in Montgomery form */
static void fr_minus_one(cuzk_fr *r) { cuzk_fr_neg(r, &CUZK_FR_ONE); }

/* ---- MSM -------------------------------------------------------------------------------- */

static void test_msm_small_exhaustive(void **state)
{
    (void)state;
    T_AFF p[T_SMALL_N];
    cuzk_fr a[T_SMALL_N], k[T_SMALL_N];
    make_points(p, a, T_SMALL_N);
    for (size_t n = 0; n <= T_SMALL_N; n++) {
        rand_scalars(k, n);
        T_JAC got, got_c, want;
        msm_ok(&got, p, k, n, NULL);
        msm_canonical_ok(&got_c, p, k, n, NULL);
        naive_msm(&want, p, k, n);
        assert_true(TG(jac_eq)(&got, &want));
        assert_true(TG(jac_eq)(&got_c, &want));
    }
}

static void test_msm_random_sizes(void **state)
{
    (void)state;
    T_AFF *p = malloc(T_MAX_N * sizeof *p);
    cuzk_fr *a = malloc(T_MAX_N * sizeof *a), *k = malloc(T_MAX_N * sizeof *k);
    assert_non_null(p);
    assert_non_null(a);
    assert_non_null(k);
    make_points(p, a, T_MAX_N);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    size_t iters = test_iters(6);
    for (size_t it = 0; it < iters; it++) {
        /* log-uniform sizes so every window width gets exercised */
        unsigned bits = (unsigned)(test_rng_u64() % 13);
        size_t n = 1 + (size_t)(test_rng_u64() % ((size_t)1 << bits));
        if (n > T_MAX_N)
            n = T_MAX_N;
        if (it == 0)
            n = T_MAX_N;
        rand_scalars(k, n);
        T_JAC got, want;
        fr_reference(&want, a, k, n);
        msm_ok(&got, p, k, n, (it & 1) ? pool : NULL);
        assert_true(TG(jac_eq)(&got, &want));
    }
    cuzk_pool_destroy(pool);
    free(k);
    free(a);
    free(p);
}

static void test_msm_edge_scalars(void **state)
{
    (void)state;
    enum { N = 40 };
    T_AFF p[N];
    cuzk_fr a[N], k[N];
    make_points(p, a, N);
    T_JAC got, want;

    /* all zero -> infinity */
    for (size_t i = 0; i < N; i++)
        k[i] = CUZK_FR_ZERO;
    msm_ok(&got, p, k, N, NULL);
    assert_true(TG(jac_is_infinity)(&got));

    /* 0, 1, r-1 mixed: r-1 has every Booth window at its extremes */
    for (size_t i = 0; i < N; i++) {
        switch (i % 3) {
        case 0: k[i] = CUZK_FR_ZERO; break;
        case 1: k[i] = CUZK_FR_ONE; break;
        default: fr_minus_one(&k[i]); break;
        }
    }
    msm_ok(&got, p, k, N, NULL);
    naive_msm(&want, p, k, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* all r-1: the sum of -P_i */
    for (size_t i = 0; i < N; i++)
        fr_minus_one(&k[i]);
    msm_ok(&got, p, k, N, NULL);
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* all equal random scalar */
    test_rand_fr(&k[0]);
    for (size_t i = 1; i < N; i++)
        k[i] = k[0];
    msm_ok(&got, p, k, N, NULL);
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* scalars of the form 2^j and 2^j - 1 (digit patterns at window borders) */
    for (size_t i = 0; i < N; i++) {
        uint64_t limbs[4] = {0, 0, 0, 0};
        unsigned j = (unsigned)(test_rng_u64() % 255);
        limbs[j / 64] = (uint64_t)1 << (j % 64);
        assert_int_equal(cuzk_fr_from_canonical(&k[i], limbs), CUZK_OK);
        if (i & 1)
            cuzk_fr_sub(&k[i], &k[i], &CUZK_FR_ONE);
    }
    msm_ok(&got, p, k, N, NULL);
    naive_msm(&want, p, k, N);
    assert_true(TG(jac_eq)(&got, &want));
}

static void test_msm_infinity_and_repeated_points(void **state)
{
    (void)state;
    enum { N = 300 };
    T_AFF *p = malloc(N * sizeof *p);
    cuzk_fr a[N], k[N];
    assert_non_null(p);
    make_points(p, a, N);
    rand_scalars(k, N);
    T_JAC got, want;

    /* infinity points contribute nothing: zero their a_i */
    for (size_t i = 0; i < N; i += 7) {
        TG(affine_set_infinity)(&p[i]);
        a[i] = CUZK_FR_ZERO;
    }
    msm_ok(&got, p, k, N, NULL);
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* one point repeated with one scalar: every bucket hit adds P to itself (doubling) */
    for (size_t i = 0; i < N; i++) {
        p[i] = p[1];
        a[i] = a[1];
        k[i] = k[1];
    }
    msm_ok(&got, p, k, N, NULL);
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* P and -P with the same scalar: buckets go through infinity and back */
    for (size_t i = 0; i < N; i += 2) {
        TG(affine_neg)(&p[i], &p[1]);
        cuzk_fr_neg(&a[i], &a[1]);
    }
    rand_scalars(k, N);
    for (size_t i = 0; i + 1 < N; i += 2)
        k[i] = k[i + 1];
    msm_ok(&got, p, k, N, NULL);
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&got, &want));
    assert_true(TG(jac_is_infinity)(&got));
    free(p);
}

static void test_msm_threads_agree(void **state)
{
    (void)state;
    enum { N = 1500 };
    T_AFF *p = malloc(N * sizeof *p);
    cuzk_fr *a = malloc(N * sizeof *a), *k = malloc(N * sizeof *k);
    assert_non_null(p);
    assert_non_null(a);
    assert_non_null(k);
    make_points(p, a, N);
    rand_scalars(k, N);
    /* 2 threads (windows split), and more threads than windows (point chunks too) */
    static const unsigned nts[] = {1, 2, 3, 64};
    static const size_t ns[] = {1, 5, N};
    T_JAC ref[3], got;
    for (size_t j = 0; j < 3; j++)
        msm_ok(&ref[j], p, k, ns[j], NULL);
    for (size_t t = 0; t < sizeof nts / sizeof nts[0]; t++) {
        cuzk_pool *pool;
        assert_int_equal(cuzk_pool_create(&pool, nts[t]), CUZK_OK);
        for (size_t j = 0; j < 3; j++) {
            msm_ok(&got, p, k, ns[j], pool);
            assert_true(TG(jac_eq)(&got, &ref[j]));
        }
        cuzk_pool_destroy(pool);
    }
    T_JAC want;
    fr_reference(&want, a, k, N);
    assert_true(TG(jac_eq)(&ref[2], &want));
    free(k);
    free(a);
    free(p);
}

/* Every window width in both bucket representations (the public entry points pick one
 * of each per n); tiny windows with affine buckets hammer the conflict queue. Scalars
 * are mostly small so that many points share buckets, plus random and r-1 ones. */
static void test_msm_tuned_widths(void **state)
{
    (void)state;
    enum { N = T_TUNED_N };
    T_AFF *p = malloc(N * sizeof *p);
    cuzk_fr a[N], k[N];
    uint64_t kc[4 * N];
    assert_non_null(p);
    make_points(p, a, N);
    for (size_t i = 0; i < N; i++) {
        unsigned r = (unsigned)(test_rng_u64() % 4);
        if (r == 0)
            test_rand_fr(&k[i]);
        else if (r == 1)
            fr_minus_one(&k[i]);
        else
            cuzk_fr_from_u64(&k[i], test_rng_u64() % 8);
        cuzk_fr_to_canonical(kc + 4 * i, &k[i]);
    }
    /* Opposite then repeated points with one full scalar, first in the input so their
     * buckets start empty: in every window P lands in an empty bucket, -P cancels it
     * inside a batch, then P, P again forces a doubling inside a batch. */
    test_rand_fr(&k[0]);
    TG(affine_neg)(&p[1], &p[0]);
    cuzk_fr_neg(&a[1], &a[0]);
    p[2] = p[3] = p[0];
    a[2] = a[3] = a[0];
    k[1] = k[2] = k[3] = k[0];
    for (size_t i = 0; i < 4; i++)
        cuzk_fr_to_canonical(kc + 4 * i, &k[i]);
    TG(affine_set_infinity)(&p[4]);
    a[4] = CUZK_FR_ZERO;
    T_JAC want, got;
    fr_reference(&want, a, k, N);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    T_JAC naive;
    naive_msm(&naive, p, k, N);
    assert_true(TG(jac_eq)(&naive, &want));
    /* Every width 1..MSM_MAX_C: 13..16 are the widths real proofs use (n >= 2^16) and
     * the only way to run them on a small input is to force them. */
    assert_true(MSM_MAX_C >= 16);
    for (unsigned c = 1; c <= MSM_MAX_C; c++) {
        for (int aff = 0; aff < 2; aff++) {
            cuzk_pool *pl = (c & 1) ? pool : NULL;
            size_t sz = TGS(msm_tuned_scratch_size)(N, cuzk_pool_nthreads(pl), c, aff);
            assert_true(sz > 0);
            void *s = scratch_for(sz);
            cuzk_status st = TGS(msm_tuned)(&got, p, kc, N, c, aff, s, sz, pl, NULL);
            if (st != CUZK_OK || !TG(jac_eq)(&got, &want))
                fail_msg("forced window c=%u %s buckets: status %d or wrong sum", c,
                         aff ? "affine" : "XYZZ", (int)st);
        }
    }
    /* widths outside 1..MSM_MAX_C are refused */
    size_t sz = TGS(msm_tuned_scratch_size)(N, 1, 4, false);
    void *s = scratch_for(sz);
    assert_true(TGS(msm_tuned_scratch_size)(N, 1, 0, false) == 0);
    assert_true(TGS(msm_tuned_scratch_size)(N, 1, MSM_MAX_C + 1, false) == 0);
    assert_int_equal(TGS(msm_tuned)(&got, p, kc, N, 0, false, s, sz, NULL, NULL),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm_tuned)(&got, p, kc, N, MSM_MAX_C + 1, false, s, sz, NULL, NULL),
                     CUZK_ERR_INVALID_ARG);
    cuzk_pool_destroy(pool);
    free(p);
}

/* The affine bucket reduction (row and column trees of batched additions, see
 * bucket_affine_impl.h) on buckets that repeat three values: bucket m gets P, -P, Q or
 * nothing (scalar m + 1, all in window 0), so its trees meet doublings (P + P, then 2P +
 * 2P ...), cancellations (P + -P), empty sides and mixed sums at every level, for every
 * width with affine buckets. */
static void test_msm_reduction_equal_buckets(void **state)
{
    (void)state;
    T_AFF base[2];
    cuzk_fr ab[2];
    make_points(base, ab, 2);
    T_AFF pick[3];
    cuzk_fr apick[3];
    pick[0] = base[0];
    apick[0] = ab[0];
    TG(affine_neg)(&pick[1], &base[0]);
    cuzk_fr_neg(&apick[1], &ab[0]);
    pick[2] = base[1];
    apick[2] = ab[1];
    for (unsigned c = 2; c <= MSM_MAX_C; c++) {
        size_t nb = (size_t)1 << (c - 1), n = 0;
        T_AFF *p = malloc(nb * sizeof *p);
        cuzk_fr *a = malloc(nb * sizeof *a), *k = malloc(nb * sizeof *k);
        uint64_t *kc = malloc(nb * 4 * sizeof *kc);
        assert_true(p && a && k && kc);
        for (size_t m = 0; m < nb; m++) {
            unsigned r = (unsigned)(test_rng_u64() % 4);
            if (r == 3)
                continue;       /* bucket m stays empty */
            p[n] = pick[r];
            a[n] = apick[r];
            cuzk_fr_from_u64(&k[n], m + 1);
            cuzk_fr_to_canonical(kc + 4 * n, &k[n]);
            n++;
        }
        T_JAC want, got;
        fr_reference(&want, a, k, n);
        size_t sz = TGS(msm_tuned_scratch_size)(n, 1, c, true);
        assert_int_equal(TGS(msm_tuned)(&got, p, kc, n, c, true, scratch_for(sz), sz, NULL,
                                        NULL), CUZK_OK);
        if (!TG(jac_eq)(&got, &want))
            fail_msg("c=%u: wrong sum over %zu repeated buckets", c, n);
        free(kc);
        free(k);
        free(a);
        free(p);
    }
}

/* Canonical scalars must be < r: r - 1 is the largest accepted; r, 2^255 + 1 (which the
 * 256-bit Booth windows would silently get wrong) and 2^256 - 1 are argument errors that
 * name the index, through the public entry point and the forced-width one alike. */
static void test_msm_canonical_range(void **state)
{
    (void)state;
    enum { N = 5, BAD = 3 };
    T_AFF p[N];
    cuzk_fr a[N], k[N];
    make_points(p, a, N);
    rand_scalars(k, N);
    uint64_t kc[4 * N];
    for (size_t i = 0; i < N; i++)
        cuzk_fr_to_canonical(kc + 4 * i, &k[i]);
    size_t sz = TGS(msm_scratch_size)(N, 1);
    size_t tsz = TGS(msm_tuned_scratch_size)(N, 1, 16, true);
    T_JAC got, want;

    /* r - 1 */
    fr_minus_one(&k[BAD]);
    for (int j = 0; j < 4; j++)
        kc[4 * BAD + j] = CUZK_FR_MODULUS[j] - (j == 0);
    naive_msm(&want, p, k, N);
    cuzk_error e;
    assert_int_equal(TGS(msm_canonical)(&got, p, kc, N, scratch_for(sz), sz, NULL, &e),
                     CUZK_OK);
    assert_true(TG(jac_eq)(&got, &want));
    assert_int_equal(TGS(msm_tuned)(&got, p, kc, N, 16, true, scratch_for(tsz), tsz, NULL,
                                    &e), CUZK_OK);
    assert_true(TG(jac_eq)(&got, &want));

    static const uint64_t bad[3][4] = {
        {0, 0, 0, 0},                                    /* r, filled in below */
        {1, 0, 0, (uint64_t)1 << 63},                    /* 2^255 + 1 */
        {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0}, /* 2^256 - 1 */
    };
    for (int b = 0; b < 3; b++) {
        for (int j = 0; j < 4; j++)
            kc[4 * BAD + j] = b == 0 ? CUZK_FR_MODULUS[j] : bad[b][j];
        cuzk_pool *pool;
        assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
        size_t psz = TGS(msm_scratch_size)(N, 2);
        memset(&e, 0, sizeof e);
        assert_int_equal(TGS(msm_canonical)(&got, p, kc, N, scratch_for(psz), psz, pool, &e),
                         CUZK_ERR_INVALID_ARG);
        assert_int_equal(e.code, CUZK_ERR_INVALID_ARG);
        assert_non_null(strstr(e.msg, "scalar 3 "));
        assert_int_equal(TGS(msm_canonical)(&got, p, kc, N, scratch_for(sz), sz, NULL, NULL),
                         CUZK_ERR_INVALID_ARG);
        memset(&e, 0, sizeof e);
        assert_int_equal(TGS(msm_tuned)(&got, p, kc, N, 16, true, scratch_for(tsz), tsz,
                                        NULL, &e), CUZK_ERR_INVALID_ARG);
        assert_non_null(strstr(e.msg, "scalar 3 "));
        cuzk_pool_destroy(pool);
    }
}

static void test_msm_bad_args(void **state)
{
    (void)state;
    T_AFF p[4];
    cuzk_fr a[4], k[4];
    make_points(p, a, 4);
    rand_scalars(k, 4);
    T_JAC r;
    size_t sz = TGS(msm_scratch_size)(4, 1);
    void *s = scratch_for(sz);
    assert_int_equal(TGS(msm)(&r, p, k, 4, s, sz - 1, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm)(&r, p, k, 4, NULL, sz, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm)(NULL, p, k, 4, s, sz, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm)(&r, NULL, k, 4, s, sz, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm)(&r, p, NULL, 4, s, sz, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(msm_canonical)(&r, p, NULL, 4, s, sz, NULL, NULL),
                     CUZK_ERR_INVALID_ARG);
    /* a scratch sized for 1 thread is too small for a 2-thread pool */
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    assert_int_equal(TGS(msm)(&r, p, k, 4, s, sz, pool), CUZK_ERR_INVALID_ARG);
    cuzk_pool_destroy(pool);
    /* impossible sizes cannot be satisfied by any scratch */
    assert_true(TGS(msm_scratch_size)(SIZE_MAX / 2, 1) == SIZE_MAX);
    /* n == 0 needs no scratch and gives infinity */
    assert_int_equal(TGS(msm)(&r, NULL, NULL, 0, NULL, 0, NULL), CUZK_OK);
    assert_true(TG(jac_is_infinity)(&r));
    uint64_t bm = 0xf;
    size_t bsz = TGS(sum_bitmap_scratch_size)(4, 1);
    s = scratch_for(bsz);
    assert_int_equal(TGS(sum_bitmap)(&r, p, &bm, 4, s, bsz - 1, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(sum_bitmap)(&r, p, NULL, 4, s, bsz, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(TGS(sum_bitmap)(NULL, p, &bm, 4, s, bsz, NULL), CUZK_ERR_INVALID_ARG);
}

/* ---- bitmap sums ------------------------------------------------------------------------ */

static void naive_sum_bitmap(T_JAC *r, const T_AFF *p, const uint64_t *bm, size_t n)
{
    TG(jac_set_infinity)(r);
    for (size_t i = 0; i < n; i++)
        if ((bm[i / 64] >> (i % 64)) & 1)
            TG(jac_add_affine)(r, r, &p[i]);
}

static void test_sum_bitmap_small(void **state)
{
    (void)state;
    enum { N = 200 };
    T_AFF p[N];
    cuzk_fr a[N];
    uint64_t bm[(N + 63) / 64 + 1];
    make_points(p, a, N);
    T_JAC got, want;
    size_t sizes[] = {0, 1, 2, 3, 63, 64, 65, 127, 130, N};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        size_t nw = (n + 63) / 64;
        /* empty, all ones (bits beyond n set too: must be ignored), random */
        for (int mode = 0; mode < 3; mode++) {
            for (size_t w = 0; w <= nw; w++)
                bm[w] = mode == 0 ? 0 : mode == 1 ? ~(uint64_t)0 : test_rng_u64();
            sum_bitmap_ok(&got, p, bm, n, NULL);
            naive_sum_bitmap(&want, p, bm, n);
            assert_true(TG(jac_eq)(&got, &want));
            if (mode == 0)
                assert_true(TG(jac_is_infinity)(&got));
        }
    }
}

static void test_sum_bitmap_special_pairs(void **state)
{
    (void)state;
    enum { N = 130 };
    T_AFF p[N];
    cuzk_fr a[N];
    uint64_t bm[3] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
    make_points(p, a, N);
    T_JAC got, want;

    /* P, -P adjacent: pairs cancel inside a batch round */
    for (size_t i = 0; i + 1 < N; i += 2)
        TG(affine_neg)(&p[i + 1], &p[i]);
    sum_bitmap_ok(&got, p, bm, N, NULL);
    assert_true(TG(jac_is_infinity)(&got));
    sum_bitmap_ok(&got, p, bm, N - 1, NULL);       /* odd count leaves the last P */
    naive_sum_bitmap(&want, p, bm, N - 1);
    assert_true(TG(jac_eq)(&got, &want));

    /* the same point many times: doublings inside every round */
    for (size_t i = 0; i < N; i++)
        p[i] = p[0];
    sum_bitmap_ok(&got, p, bm, N, NULL);
    naive_sum_bitmap(&want, p, bm, N);
    assert_true(TG(jac_eq)(&got, &want));

    /* infinity points in the input are skipped */
    make_points(p, a, N);
    for (size_t i = 0; i < N; i += 3)
        TG(affine_set_infinity)(&p[i]);
    sum_bitmap_ok(&got, p, bm, N, NULL);
    naive_sum_bitmap(&want, p, bm, N);
    assert_true(TG(jac_eq)(&got, &want));
}

/* Large sums (many streaming rounds, several threads) against the Fr identity. */
static void test_sum_bitmap_large(void **state)
{
    (void)state;
    const size_t n = T_MAX_N + 37;
    T_AFF *p = malloc(n * sizeof *p);
    cuzk_fr *a = malloc(n * sizeof *a);
    uint64_t *bm = malloc(((n + 63) / 64) * sizeof *bm);
    assert_non_null(p);
    assert_non_null(a);
    assert_non_null(bm);
    make_points(p, a, n);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    for (int mode = 0; mode < 3; mode++) {
        for (size_t w = 0; w < (n + 63) / 64; w++) {
            uint64_t x = test_rng_u64();
            bm[w] = mode == 0 ? ~(uint64_t)0 : mode == 1 ? x : (x & test_rng_u64());
        }
        cuzk_fr s = CUZK_FR_ZERO;
        for (size_t i = 0; i < n; i++)
            if ((bm[i / 64] >> (i % 64)) & 1)
                cuzk_fr_add(&s, &s, &a[i]);
        T_JAC g, want, got;
        TG(jac_from_affine)(&g, &T_GEN);
        TG(jac_mul_var)(&want, &g, &s);
        sum_bitmap_ok(&got, p, bm, n, mode == 1 ? NULL : pool);
        assert_true(TG(jac_eq)(&got, &want));
    }
    cuzk_pool_destroy(pool);
    free(bm);
    free(a);
    free(p);
}

/* ---- split ------------------------------------------------------------------------------ */

/* cuzk_g*s_msm_auto with freshly sized buffers; true on CUZK_OK. */
static bool auto_msm_ok(T_JAC *out, const T_AFF *p, const cuzk_fr *k, size_t n, cuzk_pool *pool)
{
    size_t nt = (size_t)cuzk_pool_nthreads(pool);
    size_t ss = TGS(msm_auto_split_size)(n);
    size_t ms = TGS(msm_scratch_size)(n, nt), bs = TGS(sum_bitmap_scratch_size)(n, nt);
    size_t sz = ms > bs ? ms : bs;
    void *sp = malloc(ss), *scr = malloc(sz);
    bool ok = sp && scr && TGS(msm_auto)(out, p, k, n, sp, ss, scr, sz, pool) == CUZK_OK;
    free(sp);
    free(scr);
    return ok;
}

static void test_split_matches_full_msm(void **state)
{
    (void)state;
    const size_t n = 1000;
    T_AFF *p = malloc(n * sizeof *p), *tp = malloc(n * sizeof *tp);
    cuzk_fr *a = malloc(n * sizeof *a), *k = malloc(n * sizeof *k);
    cuzk_fr *tk = malloc(n * sizeof *tk);
    uint32_t *ti = malloc(n * sizeof *ti);
    uint64_t bm[(1000 + 63) / 64];
    assert_true(p && tp && a && k && tk && ti);
    make_points(p, a, n);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    size_t iters = test_iters(3);
    for (size_t it = 0; it < iters; it++) {
        /* mostly bits, like a Filecoin witness: 45% zero, 45% one, 10% random */
        size_t nz = 0, no = 0, nt = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned r = (unsigned)(test_rng_u64() % 100);
            if (r < 45) {
                k[i] = CUZK_FR_ZERO;
                nz++;
            } else if (r < 90) {
                k[i] = CUZK_FR_ONE;
                no++;
            } else {
                test_rand_fr(&k[i]);
                nt++;
            }
        }
        size_t tail_len = 0, ones = 0;
        assert_int_equal(cuzk_msm_split_scalars(bm, tk, ti, &tail_len, &ones, k, n), CUZK_OK);
        assert_int_equal(ones, no);
        assert_int_equal(tail_len, nt);
        for (size_t t = 1; t < tail_len; t++)
            assert_true(ti[t - 1] < ti[t]);
        TGS(gather)(tp, p, ti, tail_len);
        T_JAC ones_sum, tail_sum, full, want;
        cuzk_pool *pl = (it & 1) ? pool : NULL;
        sum_bitmap_ok(&ones_sum, p, bm, n, pl);
        msm_ok(&tail_sum, tp, tk, tail_len, pl);
        TG(jac_add)(&ones_sum, &ones_sum, &tail_sum);
        msm_ok(&full, p, k, n, pl);
        fr_reference(&want, a, k, n);
        assert_true(TG(jac_eq)(&full, &want));
        assert_true(TG(jac_eq)(&ones_sum, &want));
        /* msm_auto: takes the split here (45% ones) and must give the same sum */
        T_JAC autosum;
        assert_true(auto_msm_ok(&autosum, p, k, n, pl));
        assert_true(TG(jac_eq)(&autosum, &want));
        /* and the plain path when the ones are too few: all significant scalars */
        for (size_t i = 0; i < n; i++)
            test_rand_fr(&k[i]);
        fr_reference(&want, a, k, n);
        assert_true(auto_msm_ok(&autosum, p, k, n, pl));
        assert_true(TG(jac_eq)(&autosum, &want));
    }
    /* msm_auto: a split scratch one byte short is refused */
    {
        size_t ss = TGS(msm_auto_split_size)(n);
        size_t ms = TGS(msm_scratch_size)(n, 1), bs = TGS(sum_bitmap_scratch_size)(n, 1);
        size_t sz = ms > bs ? ms : bs;
        void *sp = malloc(ss), *scr = malloc(sz);
        T_JAC r;
        assert_true(sp && scr);
        assert_int_equal(TGS(msm_auto)(&r, p, k, n, sp, ss - 1, scr, sz, NULL),
                         CUZK_ERR_INVALID_ARG);
        free(sp);
        free(scr);
    }
    /* bad args */
    size_t tl;
    assert_int_equal(cuzk_msm_split_scalars(bm, tk, ti, NULL, NULL, k, n), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_msm_split_scalars(NULL, tk, ti, &tl, NULL, k, n), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_msm_split_scalars(NULL, NULL, NULL, &tl, NULL, NULL, 0), CUZK_OK);
    assert_int_equal(tl, 0);
    cuzk_pool_destroy(pool);
    free(ti);
    free(tk);
    free(k);
    free(a);
    free(tp);
    free(p);
}

static void test_window_bits(void **state)
{
    (void)state;
    /* monotone in n and within the supported range */
    unsigned prev = 0;
    for (size_t n = 1; n < ((size_t)1 << 32); n *= 2) {
        unsigned c = cuzk_msm_window_bits(n);
        assert_true(c >= 2 && c <= 16);
        assert_true(c >= prev);
        prev = c;
    }
}

int main(void)
{
    test_rng_init(TEST_NAME);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msm_small_exhaustive),
        cmocka_unit_test(test_msm_random_sizes),
        cmocka_unit_test(test_msm_edge_scalars),
        cmocka_unit_test(test_msm_infinity_and_repeated_points),
        cmocka_unit_test(test_msm_threads_agree),
        cmocka_unit_test(test_msm_tuned_widths),
        cmocka_unit_test(test_msm_reduction_equal_buckets),
        cmocka_unit_test(test_msm_canonical_range),
        cmocka_unit_test(test_msm_bad_args),
        cmocka_unit_test(test_sum_bitmap_small),
        cmocka_unit_test(test_sum_bitmap_special_pairs),
        cmocka_unit_test(test_sum_bitmap_large),
        cmocka_unit_test(test_split_matches_full_msm),
        cmocka_unit_test(test_window_bits),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(g_scratch);
    return rc;
}
