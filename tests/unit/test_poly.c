/*
 * test_poly.c — radix-2 domains and the NTT family against definitions:
 *   - the 2^32 roots equal 7^t and 5^t computed here with cuzk_fr_pow, match the published
 *     hex constants, and 5 is the first non-residue from 2 (ffjavascript's nqr);
 *   - every omega has exact order 2^k, the shifts are 7 and the 2n-th root;
 *   - ntt/intt/coset_ntt/coset_intt and the nr/rn halves for every k = 0..12 and both
 *     conventions against a naive O(n^2) DFT (Horner at omega^j), all outputs up to
 *     2^8, sampled outputs above;
 *   - round trips at 2^16 and 2^18, one thread and two threads bit-identical;
 *   - divide_by_z against Z evaluated at each coset point; H (bellperson) checked by
 *     h(x) Z(x) = A(x)B(x) - C(x) at random x, H (snarkjs) against direct evaluation at
 *     the odd 2n-th roots.
 * Single test thread; pools of 2 threads inside.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/poly.h"
#include "test_rng.h"

/* r - 1 = 2^32 t */
static const uint64_t FR_T[4] = {0xfffe5bfeffffffffull, 0x09a1d80553bda402ull,
                                 0x299d7d483339d808ull, 0x0000000073eda753ull};
static const uint64_t FR_HALF[4] = {0x7fffffff80000000ull, 0xa9ded2017fff2dffull,
                                    0x199cec0404d0ec02ull, 0x39f6d3a994cebea4ull};

static cuzk_fr fr_u64(uint64_t v)
{
    cuzk_fr r;
    cuzk_fr_from_u64(&r, v);
    return r;
}

static cuzk_fr fr_pow(const cuzk_fr *a, uint64_t e)
{
    cuzk_fr r;
    cuzk_fr_pow(&r, a, &e, 1);
    return r;
}

static cuzk_fr fr_from_hex_be(const char *hex)
{
    uint8_t be[32];
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        be[i] = (uint8_t)v;
    }
    cuzk_fr r;
    assert_int_equal(cuzk_fr_from_bytes_be(&r, be), CUZK_OK);
    return r;
}

/* p(x) = sum coeffs[i] x^i, Horner */
static cuzk_fr horner(const cuzk_fr *coeffs, size_t n, const cuzk_fr *x)
{
    cuzk_fr acc = CUZK_FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        cuzk_fr_mul(&acc, &acc, x);
        cuzk_fr_add(&acc, &acc, &coeffs[i]);
    }
    return acc;
}

static cuzk_fr *rand_vec(size_t n)
{
    cuzk_fr *v = malloc(n * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&v[i]);
    return v;
}

static cuzk_fr *dup_vec(const cuzk_fr *a, size_t n)
{
    cuzk_fr *v = malloc(n * sizeof *v);
    assert_non_null(v);
    memcpy(v, a, n * sizeof *v);
    return v;
}

static size_t rev_bits(size_t i, unsigned k)
{
    size_t r = 0;
    for (unsigned b = 0; b < k; b++)
        r |= ((i >> b) & 1) << (k - 1 - b);
    return r;
}

typedef cuzk_status (*init_fn)(cuzk_domain *, unsigned);
static const init_fn INITS[2] = {cuzk_domain_init_bellperson, cuzk_domain_init_snarkjs};

static void test_root_constants(void **state)
{
    (void)state;
    cuzk_fr seven = fr_u64(7), five = fr_u64(5), r7, r5, one = CUZK_FR_ONE, m1;
    cuzk_fr_neg(&m1, &one);
    cuzk_fr_pow(&r7, &seven, FR_T, 4);
    cuzk_fr_pow(&r5, &five, FR_T, 4);
    cuzk_fr pub7 = fr_from_hex_be("16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    cuzk_fr pub5 = fr_from_hex_be("0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
    assert_true(cuzk_fr_eq(&r7, &pub7));
    assert_true(cuzk_fr_eq(&r5, &pub5));
    /* ffjavascript's nqr: first x >= 2 with x^((r-1)/2) = -1 */
    for (uint64_t x = 2; x <= 5; x++) {
        cuzk_fr fx = fr_u64(x), l;
        cuzk_fr_pow(&l, &fx, FR_HALF, 4);
        assert_true(cuzk_fr_eq(&l, &m1) == (x == 5));
    }
    /* 7 is a non-residue too, so 7^t has order exactly 2^32 */
    cuzk_fr l7;
    cuzk_fr_pow(&l7, &seven, FR_HALF, 4);
    assert_true(cuzk_fr_eq(&l7, &m1));

    for (unsigned k = 0; k <= CUZK_DOMAIN_MAX_LOG2; k++) {
        cuzk_domain *d = malloc(sizeof *d);
        assert_non_null(d);
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, k), CUZK_OK);
            assert_int_equal(d->n, (size_t)1 << k);
            cuzk_fr w = c == 0 ? r7 : r5;
            for (unsigned i = k; i < 32; i++)
                cuzk_fr_sqr(&w, &w);
            assert_true(cuzk_fr_eq(&w, &d->omega));
            /* exact order 2^k */
            cuzk_fr t = d->omega;
            for (unsigned i = 0; i + 1 < k; i++)
                cuzk_fr_sqr(&t, &t);
            if (k >= 1) {
                assert_true(cuzk_fr_eq(&t, &m1));
                cuzk_fr_sqr(&t, &t);
            }
            assert_true(cuzk_fr_is_one(&t));
            cuzk_fr prod;
            cuzk_fr_mul(&prod, &d->omega, &d->omega_inv);
            assert_true(cuzk_fr_is_one(&prod));
            cuzk_fr nf = fr_u64((uint64_t)1 << k);
            cuzk_fr_mul(&prod, &nf, &d->n_inv);
            assert_true(cuzk_fr_is_one(&prod));
            cuzk_fr_mul(&prod, &d->shift, &d->shift_inv);
            assert_true(cuzk_fr_is_one(&prod));
            if (c == 0) {
                assert_true(cuzk_fr_eq(&d->shift, &seven));
            } else {
                /* the primitive 2n-th root: shift^2 = omega, shift^n = -1 */
                cuzk_fr s2;
                cuzk_fr_sqr(&s2, &d->shift);
                assert_true(cuzk_fr_eq(&s2, &d->omega));
                cuzk_fr sn = fr_pow(&d->shift, (uint64_t)1 << k);
                assert_true(cuzk_fr_eq(&sn, &m1));
            }
            /* z_coset_inv * (g^n - 1) = 1 */
            cuzk_fr z = fr_pow(&d->shift, (uint64_t)1 << k);
            cuzk_fr_sub(&z, &z, &one);
            cuzk_fr_mul(&z, &z, &d->z_coset_inv);
            assert_true(cuzk_fr_is_one(&z));
        }
        free(d);
    }
}

/* Checks one array against the naive transform at output index j. */
enum kind { K_NTT, K_INTT, K_COSET_NTT, K_COSET_INTT };

static cuzk_fr naive_at(const cuzk_domain *d, const cuzk_fr *in, enum kind kd, size_t j)
{
    size_t n = d->n;
    /* omega^-1 as omega^(n-1), independent of d->omega_inv */
    cuzk_fr x, ginv;
    switch (kd) {
    case K_NTT:
        x = fr_pow(&d->omega, j);
        return horner(in, n, &x);
    case K_COSET_NTT:
        x = fr_pow(&d->omega, j);
        cuzk_fr_mul(&x, &x, &d->shift);
        return horner(in, n, &x);
    case K_INTT:
    case K_COSET_INTT: {
        x = fr_pow(&d->omega, (n - 1) * j % n);
        cuzk_fr s = horner(in, n, &x), ninv, nf = fr_u64(n);
        cuzk_fr_inv(&ninv, &nf);
        cuzk_fr_mul(&s, &s, &ninv);
        if (kd == K_COSET_INTT) {
            cuzk_fr_inv(&ginv, &d->shift);
            ginv = fr_pow(&ginv, j);
            cuzk_fr_mul(&s, &s, &ginv);
        }
        return s;
    }
    }
    return CUZK_FR_ZERO;
}

static void check_against_naive(const cuzk_domain *d, const cuzk_fr *in, const cuzk_fr *out,
                                enum kind kd, bool bitrev_out)
{
    size_t n = d->n;
    size_t samples = n <= 256 ? n : n <= 4096 ? 16 : 5;
    for (size_t s = 0; s < samples; s++) {
        size_t j;
        if (n <= 256)
            j = s;
        else if (s < 4)
            j = (size_t[]){0, 1, n / 2, n - 1}[s];
        else
            j = (size_t)(test_rng_u64() % n);
        cuzk_fr want = naive_at(d, in, kd, j);
        size_t pos = bitrev_out ? rev_bits(j, d->log2n) : j;
        assert_true(cuzk_fr_eq(&out[pos], &want));
    }
}

static void test_naive_all_sizes(void **state)
{
    (void)state;
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    for (unsigned k = 0; k <= 12; k++) {
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, k), CUZK_OK);
            size_t n = d->n;
            cuzk_fr *in = rand_vec(n);
            cuzk_fr *a = dup_vec(in, n);

            assert_int_equal(cuzk_ntt(d, a, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_NTT, false);
            memcpy(a, in, n * sizeof *a);
            assert_int_equal(cuzk_intt(d, a, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_INTT, false);
            memcpy(a, in, n * sizeof *a);
            assert_int_equal(cuzk_coset_ntt(d, a, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_COSET_NTT, false);
            memcpy(a, in, n * sizeof *a);
            assert_int_equal(cuzk_coset_intt(d, a, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_COSET_INTT, false);

            /* halves: nr gives the DFT in bit-reversed order; rn undoes a bit-reversed input */
            memcpy(a, in, n * sizeof *a);
            assert_int_equal(cuzk_ntt_nr(d, a, false, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_NTT, true);
            for (size_t i = 0; i < n; i++)
                a[rev_bits(i, k)] = in[i];
            assert_int_equal(cuzk_ntt_rn(d, a, false, NULL), CUZK_OK);
            check_against_naive(d, in, a, K_NTT, false);
            free(a);
            free(in);
        }
    }
    free(d);
}

static void test_special_inputs(void **state)
{
    (void)state;
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    cuzk_fr one = CUZK_FR_ONE, m1;
    cuzk_fr_neg(&m1, &one);
    for (unsigned k = 0; k <= 11; k += (k < 3 ? 1 : 4)) {
        assert_int_equal(cuzk_domain_init_bellperson(d, k), CUZK_OK);
        size_t n = d->n;
        cuzk_fr *a = calloc(n, sizeof *a);
        assert_non_null(a);
        /* zeros stay zeros */
        assert_int_equal(cuzk_ntt(d, a, NULL), CUZK_OK);
        for (size_t i = 0; i < n; i++)
            assert_true(cuzk_fr_is_zero(&a[i]));
        /* delta at 0 -> all ones */
        a[0] = one;
        assert_int_equal(cuzk_ntt(d, a, NULL), CUZK_OK);
        for (size_t i = 0; i < n; i++)
            assert_true(cuzk_fr_is_one(&a[i]));
        /* all p-1 -> (-n, 0, ..., 0) */
        for (size_t i = 0; i < n; i++)
            a[i] = m1;
        assert_int_equal(cuzk_ntt(d, a, NULL), CUZK_OK);
        cuzk_fr mn = fr_u64(n);
        cuzk_fr_neg(&mn, &mn);
        assert_true(cuzk_fr_eq(&a[0], &mn));
        for (size_t i = 1; i < n; i++)
            assert_true(cuzk_fr_is_zero(&a[i]));
        free(a);
    }
    free(d);
}

static void test_large_roundtrip_threads(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    const unsigned ks[2] = {16, 18};
    for (int ki = 0; ki < 2; ki++) {
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, ks[ki]), CUZK_OK);
            size_t n = d->n;
            cuzk_fr *in = rand_vec(n);
            cuzk_fr *a1 = dup_vec(in, n), *a2 = dup_vec(in, n);
            assert_int_equal(cuzk_ntt(d, a1, NULL), CUZK_OK);
            assert_int_equal(cuzk_ntt(d, a2, pool), CUZK_OK);
            assert_memory_equal(a1, a2, n * sizeof *a1);
            check_against_naive(d, in, a1, K_NTT, false);
            assert_int_equal(cuzk_intt(d, a2, pool), CUZK_OK);
            assert_memory_equal(a2, in, n * sizeof *a2);
            if (ki == 0) {
                assert_int_equal(cuzk_coset_ntt(d, a2, pool), CUZK_OK);
                check_against_naive(d, in, a2, K_COSET_NTT, false);
                assert_int_equal(cuzk_coset_intt(d, a2, pool), CUZK_OK);
                assert_memory_equal(a2, in, n * sizeof *a2);
            }
            free(a1);
            free(a2);
            free(in);
        }
    }
    free(d);
    cuzk_pool_destroy(pool);
}

/* coset_ntt(a) == ntt(a_i * g^i), with the scaling done by a plain running product */
static void test_coset_is_scaled_ntt(void **state)
{
    (void)state;
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    for (unsigned k = 0; k <= 12; k += 1) {
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, k), CUZK_OK);
            size_t n = d->n;
            cuzk_fr *a = rand_vec(n), *b = dup_vec(a, n);
            cuzk_fr gi = CUZK_FR_ONE;
            for (size_t i = 0; i < n; i++) {
                cuzk_fr_mul(&b[i], &b[i], &gi);
                cuzk_fr_mul(&gi, &gi, &d->shift);
            }
            assert_int_equal(cuzk_coset_ntt(d, a, NULL), CUZK_OK);
            assert_int_equal(cuzk_ntt(d, b, NULL), CUZK_OK);
            assert_memory_equal(a, b, n * sizeof *a);
            free(a);
            free(b);
        }
    }
    free(d);
}

static void test_divide_by_z(void **state)
{
    (void)state;
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    for (unsigned k = 0; k <= 10; k += 2) {
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, k), CUZK_OK);
            size_t n = d->n;
            cuzk_fr *a = rand_vec(n), *orig = dup_vec(a, n);
            assert_int_equal(cuzk_poly_divide_by_z_on_coset(d, a, NULL), CUZK_OK);
            cuzk_fr x = d->shift;
            for (size_t i = 0; i < n; i++) {
                /* Z(x) = x^n - 1 at x = g omega^i, evaluated directly */
                cuzk_fr z = fr_pow(&x, n), t;
                cuzk_fr_sub(&z, &z, &CUZK_FR_ONE);
                cuzk_fr_mul(&t, &a[i], &z);
                assert_true(cuzk_fr_eq(&t, &orig[i]));
                cuzk_fr_mul(&x, &x, &d->omega);
            }
            free(a);
            free(orig);
        }
    }
    free(d);
}

/* Random A, B (n coefficients), C = interpolant of A*B on the domain; returns the three
 * evaluation vectors and the coefficient vectors of A, B, C. */
static void make_abc(const cuzk_domain *d, cuzk_fr **ea, cuzk_fr **eb, cuzk_fr **ec,
                     cuzk_fr **ca, cuzk_fr **cb, cuzk_fr **cc)
{
    size_t n = d->n;
    *ca = rand_vec(n);
    *cb = rand_vec(n);
    *ea = dup_vec(*ca, n);
    *eb = dup_vec(*cb, n);
    assert_int_equal(cuzk_ntt(d, *ea, NULL), CUZK_OK);
    assert_int_equal(cuzk_ntt(d, *eb, NULL), CUZK_OK);
    *ec = malloc(n * sizeof **ec);
    assert_non_null(*ec);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&(*ec)[i], &(*ea)[i], &(*eb)[i]);
    *cc = dup_vec(*ec, n);
    assert_int_equal(cuzk_intt(d, *cc, NULL), CUZK_OK);
}

static void test_h_bellperson(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_domain *d = malloc(sizeof *d);
    assert_non_null(d);
    const unsigned ks[] = {1, 2, 5, 11};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        for (int c = 0; c < 2; c++) {
            assert_int_equal(INITS[c](d, ks[ki]), CUZK_OK);
            size_t n = d->n;
            cuzk_fr *ea, *eb, *ec, *ca, *cb, *cc;
            make_abc(d, &ea, &eb, &ec, &ca, &cb, &cc);
            /* reference chain through the public natural-order functions */
            cuzk_fr *ra = dup_vec(ea, n), *rb = dup_vec(eb, n), *rc = dup_vec(ec, n);
            cuzk_fr *ref[3] = {ra, rb, rc};
            for (int v = 0; v < 3; v++) {
                assert_int_equal(cuzk_intt(d, ref[v], NULL), CUZK_OK);
                assert_int_equal(cuzk_coset_ntt(d, ref[v], NULL), CUZK_OK);
            }
            for (size_t i = 0; i < n; i++) {
                cuzk_fr_mul(&ra[i], &ra[i], &rb[i]);
                cuzk_fr_sub(&ra[i], &ra[i], &rc[i]);
            }
            assert_int_equal(cuzk_poly_divide_by_z_on_coset(d, ra, NULL), CUZK_OK);
            assert_int_equal(cuzk_coset_intt(d, ra, NULL), CUZK_OK);

            cuzk_fr *pb = dup_vec(eb, n), *pc = dup_vec(ec, n);
            assert_int_equal(cuzk_poly_h_bellperson(d, ea, pb, pc, pool), CUZK_OK);
            assert_memory_equal(ea, ra, n * sizeof *ea);
            /* deg h <= n - 2 and h Z = A B - C at random points */
            assert_true(cuzk_fr_is_zero(&ea[n - 1]));
            for (int s = 0; s < 4; s++) {
                cuzk_fr x, hz, ab, cx;
                test_rand_fr(&x);
                cuzk_fr h = horner(ea, n, &x), z = fr_pow(&x, n);
                cuzk_fr_sub(&z, &z, &CUZK_FR_ONE);
                cuzk_fr_mul(&hz, &h, &z);
                cuzk_fr ax = horner(ca, n, &x), bx = horner(cb, n, &x);
                cuzk_fr_mul(&ab, &ax, &bx);
                cx = horner(cc, n, &x);
                cuzk_fr_sub(&ab, &ab, &cx);
                assert_true(cuzk_fr_eq(&hz, &ab));
            }
            free(pb);
            free(pc);
            free(ra);
            free(rb);
            free(rc);
            free(ea);
            free(eb);
            free(ec);
            free(ca);
            free(cb);
            free(cc);
        }
    }
    free(d);
    cuzk_pool_destroy(pool);
}

static void test_h_snarkjs(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_domain *d = malloc(sizeof *d), *d2 = malloc(sizeof *d2);
    assert_non_null(d);
    assert_non_null(d2);
    const unsigned ks[] = {0, 1, 3, 11};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        assert_int_equal(cuzk_domain_init_snarkjs(d, k), CUZK_OK);
        assert_int_equal(cuzk_domain_init_snarkjs(d2, k + 1), CUZK_OK);
        size_t n = d->n;
        cuzk_fr *ea, *eb, *ec, *ca, *cb, *cc;
        make_abc(d, &ea, &eb, &ec, &ca, &cb, &cc);
        cuzk_fr *sa = dup_vec(ea, n), *sb = dup_vec(eb, n), *sc = dup_vec(ec, n);
        assert_int_equal(cuzk_poly_h_snarkjs(d, ea, eb, ec, NULL), CUZK_OK);
        assert_int_equal(cuzk_poly_h_snarkjs(d, sa, sb, sc, pool), CUZK_OK);
        assert_memory_equal(ea, sa, n * sizeof *ea);
        size_t samples = n <= 64 ? n : 16;
        for (size_t s = 0; s < samples; s++) {
            size_t j = n <= 64 ? s : (size_t)(test_rng_u64() % n);
            /* the odd 2n-th root w_{2n}^(2j+1), from the 2n-sized domain */
            cuzk_fr x = fr_pow(&d2->omega, 2 * j + 1), ab, cx;
            cuzk_fr ax = horner(ca, n, &x), bx = horner(cb, n, &x);
            cuzk_fr_mul(&ab, &ax, &bx);
            cx = horner(cc, n, &x);
            cuzk_fr_sub(&ab, &ab, &cx);
            assert_true(cuzk_fr_eq(&ea[j], &ab));
        }
        free(sa);
        free(sb);
        free(sc);
        free(ea);
        free(eb);
        free(ec);
        free(ca);
        free(cb);
        free(cc);
    }
    free(d);
    free(d2);
    cuzk_pool_destroy(pool);
}

static void test_args(void **state)
{
    (void)state;
    cuzk_domain *d = calloc(1, sizeof *d);
    assert_non_null(d);
    cuzk_fr a[4] = {{{0}}};
    /* never initialised */
    assert_int_equal(cuzk_ntt(d, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_intt(d, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_coset_ntt(d, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_coset_intt(d, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_divide_by_z_on_coset(d, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_h_bellperson(d, a, a, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_ntt(NULL, a, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_domain_init_bellperson(d, CUZK_DOMAIN_MAX_LOG2 + 1),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_domain_init_snarkjs(d, 33), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_domain_init_snarkjs(NULL, 3), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_domain_init_bellperson(d, 2), CUZK_OK);
    assert_int_equal(cuzk_ntt(d, NULL, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_h_snarkjs(d, a, NULL, a, NULL), CUZK_ERR_INVALID_ARG);
    cuzk_fr b4[4] = {{{0}}}, c4[4] = {{{0}}};
    assert_int_equal(cuzk_poly_h_snarkjs(d, a, a, c4, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_h_bellperson(d, a, b4, b4, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_h_bellperson(d, a, b4, c4, NULL), CUZK_OK);
    assert_int_equal(cuzk_poly_bitreverse(NULL, 3, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poly_distribute_powers(a, 4, NULL, &CUZK_FR_ONE, NULL),
                     CUZK_ERR_INVALID_ARG);

    unsigned k = 99;
    assert_int_equal(cuzk_domain_log2_for(0, &k), CUZK_OK);
    assert_int_equal(k, 0);
    assert_int_equal(cuzk_domain_log2_for(1, &k), CUZK_OK);
    assert_int_equal(k, 0);
    assert_int_equal(cuzk_domain_log2_for(2, &k), CUZK_OK);
    assert_int_equal(k, 1);
    assert_int_equal(cuzk_domain_log2_for(1000, &k), CUZK_OK);
    assert_int_equal(k, 10);
    assert_int_equal(cuzk_domain_log2_for(1024, &k), CUZK_OK);
    assert_int_equal(k, 10);
    assert_int_equal(cuzk_domain_log2_for((size_t)1 << 28, &k), CUZK_OK);
    assert_int_equal(k, 28);
    assert_int_equal(cuzk_domain_log2_for(((size_t)1 << 28) + 1, &k), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_domain_log2_for(5, NULL), CUZK_ERR_INVALID_ARG);
    free(d);
}

static void test_bitreverse_and_powers(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    for (unsigned k = 0; k <= 15; k += 3) {
        size_t n = (size_t)1 << k;
        cuzk_fr *a = rand_vec(n), *b = dup_vec(a, n);
        assert_int_equal(cuzk_poly_bitreverse(b, k, pool), CUZK_OK);
        for (size_t i = 0; i < n; i++)
            assert_memory_equal(&b[rev_bits(i, k)], &a[i], sizeof *a);
        cuzk_fr c, g;
        test_rand_fr(&c);
        test_rand_fr(&g);
        memcpy(b, a, n * sizeof *a);
        assert_int_equal(cuzk_poly_distribute_powers(b, n, &c, &g, pool), CUZK_OK);
        for (size_t i = 0; i < n; i += 1 + n / 64) {
            cuzk_fr w = fr_pow(&g, i), t;
            cuzk_fr_mul(&w, &w, &c);
            cuzk_fr_mul(&t, &a[i], &w);
            assert_true(cuzk_fr_eq(&t, &b[i]));
        }
        free(a);
        free(b);
    }
    cuzk_pool_destroy(pool);
}

int main(void)
{
    test_rng_init("poly");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_root_constants),
        cmocka_unit_test(test_naive_all_sizes),
        cmocka_unit_test(test_special_inputs),
        cmocka_unit_test(test_large_roundtrip_threads),
        cmocka_unit_test(test_coset_is_scaled_ntt),
        cmocka_unit_test(test_divide_by_z),
        cmocka_unit_test(test_h_bellperson),
        cmocka_unit_test(test_h_snarkjs),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_bitreverse_and_powers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
