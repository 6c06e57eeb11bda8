/*
 * test_fr.c — Fr against definition-level identities and independent computations: known
 * values, encodings and their rejection of r, r+1 and 2^256-1, ring laws, mul vs repeated
 * addition, the inverse paths against each other and a*a^-1 = 1, pow vs a multiplication
 * loop, Legendre vs Tonelli–Shanks sqrt (including elements of high 2-power order), and
 * the 512-bit reduction against lo + hi*2^256 assembled from 128-bit pieces.
 * Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ff.h"
#include "test_rng.h"

#define N CUZK_FR_LIMBS

/* r-1, r+1, (r+1)/2 as canonical limbs (python3 from r) */
static const uint64_t R_M1[N] = {0xffffffff00000000, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                 0x73eda753299d7d48};
static const uint64_t R_P1[N] = {0xffffffff00000002, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                 0x73eda753299d7d48};
static const uint64_t HALF_P1[N] = {0x7fffffff80000001, 0xa9ded2017fff2dff, 0x199cec0404d0ec02,
                                    0x39f6d3a994cebea4};

static cuzk_fr fr_canon(const uint64_t l[N])
{
    cuzk_fr r;
    assert_int_equal(cuzk_fr_from_canonical(&r, l), CUZK_OK);
    return r;
}

static void assert_fr_eq(const cuzk_fr *a, const cuzk_fr *b)
{
    assert_memory_equal(a->l, b->l, sizeof a->l);
}

static void rand_edge(cuzk_fr *r)
{
    switch (test_rng_u64() % 16) {
    case 0: *r = CUZK_FR_ZERO; break;
    case 1: *r = CUZK_FR_ONE; break;
    case 2: *r = fr_canon(R_M1); break;
    case 3: *r = fr_canon(HALF_P1); break;
    default: test_rand_fr(r); break;
    }
}

static void test_known_values(void **state)
{
    (void)state;
    uint64_t c[N];
    cuzk_fr m1 = fr_canon(R_M1), t, two, neg1;
    cuzk_fr_to_canonical(c, &CUZK_FR_ONE);
    assert_true(c[0] == 1 && c[1] == 0 && c[2] == 0 && c[3] == 0);
    cuzk_fr_mul(&t, &m1, &m1);
    assert_true(cuzk_fr_is_one(&t));
    cuzk_fr_neg(&neg1, &CUZK_FR_ONE);
    assert_fr_eq(&neg1, &m1);
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_inv(&t, &two);
    cuzk_fr_to_canonical(c, &t);
    assert_memory_equal(c, HALF_P1, sizeof c);
    cuzk_fr_inv_var(&t, &two);
    cuzk_fr_to_canonical(c, &t);
    assert_memory_equal(c, HALF_P1, sizeof c);
    assert_true(CUZK_FR_MODULUS[0] == R_M1[0] + 1);
    assert_memory_equal(CUZK_FR_MODULUS + 1, R_M1 + 1, (N - 1) * 8);
}

static void test_noncanonical(void **state)
{
    (void)state;
    const uint64_t ones[N] = {~0ull, ~0ull, ~0ull, ~0ull};
    const uint64_t *bad[3] = {CUZK_FR_MODULUS, R_P1, ones};
    cuzk_fr r;
    uint8_t be[32], le[32];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cuzk_fr_from_canonical(&r, bad[i]), CUZK_ERR_NONCANONICAL);
        for (int k = 0; k < 32; k++) {
            le[k] = (uint8_t)(bad[i][k / 8] >> (8 * (k % 8)));
            be[31 - k] = le[k];
        }
        assert_int_equal(cuzk_fr_from_bytes_le(&r, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(cuzk_fr_from_bytes_be(&r, be), CUZK_ERR_NONCANONICAL);
        assert_int_equal(cuzk_fr_from_mont_le(&r, le), CUZK_ERR_NONCANONICAL);
    }
    for (int k = 0; k < 32; k++) {
        le[k] = (uint8_t)(R_M1[k / 8] >> (8 * (k % 8)));
        be[31 - k] = le[k];
    }
    cuzk_fr m1 = fr_canon(R_M1);
    assert_int_equal(cuzk_fr_from_bytes_le(&r, le), CUZK_OK);
    assert_fr_eq(&r, &m1);
    assert_int_equal(cuzk_fr_from_bytes_be(&r, be), CUZK_OK);
    assert_fr_eq(&r, &m1);
    assert_int_equal(cuzk_fr_from_mont_le(&r, le), CUZK_OK);
    assert_memory_equal(r.l, R_M1, sizeof r.l);
}

static void test_encodings(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr a, b;
        rand_edge(&a);
        uint64_t c[N];
        uint8_t be[32], le[32], ml[32];
        cuzk_fr_to_canonical(c, &a);
        assert_int_equal(cuzk_fr_from_canonical(&b, c), CUZK_OK);
        assert_fr_eq(&a, &b);
        cuzk_fr_to_bytes_be(be, &a);
        cuzk_fr_to_bytes_le(le, &a);
        for (int k = 0; k < 32; k++) {
            assert_int_equal(be[k], le[31 - k]);
            assert_int_equal(le[k], (uint8_t)(c[k / 8] >> (8 * (k % 8))));
        }
        assert_int_equal(cuzk_fr_from_bytes_be(&b, be), CUZK_OK);
        assert_fr_eq(&a, &b);
        assert_int_equal(cuzk_fr_from_bytes_le(&b, le), CUZK_OK);
        assert_fr_eq(&a, &b);
        cuzk_fr_to_mont_le(ml, &a);
        for (int k = 0; k < 32; k++)
            assert_int_equal(ml[k], (uint8_t)(a.l[k / 8] >> (8 * (k % 8))));
        assert_int_equal(cuzk_fr_from_mont_le(&b, ml), CUZK_OK);
        assert_fr_eq(&a, &b);
        uint64_t v = test_rng_u64() >> (test_rng_u64() % 64);
        uint64_t cv[N] = {v};
        cuzk_fr_from_u64(&a, v);
        b = fr_canon(cv);
        assert_fr_eq(&a, &b);
    }
}

static void test_ring_laws(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr a, b, c, t, u, v, acc = CUZK_FR_ZERO;
        rand_edge(&a);
        rand_edge(&b);
        rand_edge(&c);
        cuzk_fr_add(&t, &a, &b);
        cuzk_fr_sub(&t, &t, &b);
        assert_fr_eq(&t, &a);
        cuzk_fr_neg(&t, &a);
        cuzk_fr_add(&t, &t, &a);
        assert_true(cuzk_fr_is_zero(&t));
        cuzk_fr_dbl(&t, &a);
        cuzk_fr_add(&u, &a, &a);
        assert_fr_eq(&t, &u);
        cuzk_fr_add(&t, &a, &b);
        cuzk_fr_mul(&t, &t, &c);
        cuzk_fr_mul(&u, &a, &c);
        cuzk_fr_mul(&v, &b, &c);
        cuzk_fr_add(&u, &u, &v);
        assert_fr_eq(&t, &u);
        cuzk_fr_mul(&t, &a, &b);
        cuzk_fr_mul(&t, &t, &c);
        cuzk_fr_mul(&u, &b, &c);
        cuzk_fr_mul(&u, &a, &u);
        assert_fr_eq(&t, &u);
        cuzk_fr_sqr(&t, &a);
        u = a;
        cuzk_fr_mul(&u, &u, &u);
        assert_fr_eq(&t, &u);
        /* mul by a small k vs k-fold addition */
        uint64_t k = test_rng_u64() % 40;
        for (uint64_t j = 0; j < k; j++)
            cuzk_fr_add(&acc, &acc, &a);
        cuzk_fr_from_u64(&t, k);
        cuzk_fr_mul(&t, &t, &a);
        assert_fr_eq(&t, &acc);
        cuzk_fr_cmov(&t, &a, &b, true);
        assert_fr_eq(&t, &b);
        cuzk_fr_cmov(&t, &a, &b, false);
        assert_fr_eq(&t, &a);
    }
    cuzk_fr z;
    cuzk_fr_neg(&z, &CUZK_FR_ZERO);
    assert_true(cuzk_fr_is_zero(&z));
}

static void test_inverse_paths(void **state)
{
    (void)state;
    size_t n = test_iters(150);
    cuzk_fr t, m1 = fr_canon(R_M1);
    cuzk_fr_inv(&t, &CUZK_FR_ZERO);
    assert_true(cuzk_fr_is_zero(&t));
    cuzk_fr_inv_var(&t, &CUZK_FR_ZERO);
    assert_true(cuzk_fr_is_zero(&t));
    cuzk_fr_inv(&t, &m1);
    assert_fr_eq(&t, &m1);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr a, x, y, z, w;
        rand_edge(&a);
        x = a;
        cuzk_fr_inv(&x, &x);
        y = a;
        cuzk_fr_inv_var(&y, &y);
        assert_fr_eq(&x, &y);
        if (cuzk_fr_is_zero(&a))
            continue;
        cuzk_fr_mul(&z, &a, &x);
        assert_true(cuzk_fr_is_one(&z));
        uint64_t e[N];
        memcpy(e, CUZK_FR_MODULUS, sizeof e);
        e[0] -= 2;
        cuzk_fr_pow(&w, &a, e, N);
        assert_fr_eq(&w, &x);
    }
    enum { B = 41 };
    cuzk_fr v[B], orig[B], scratch[B];
    for (size_t i = 0; i < B; i++) {
        if (i == 3 || i == B - 1 || test_rng_u64() % 4 == 0)
            v[i] = CUZK_FR_ZERO;
        else
            rand_edge(&v[i]);
        orig[i] = v[i];
    }
    cuzk_frs_inv_var(v, B, scratch);
    for (size_t i = 0; i < B; i++) {
        cuzk_fr x;
        cuzk_fr_inv(&x, &orig[i]);
        assert_fr_eq(&x, &v[i]);
    }
}

/* Inverse on bit patterns that stress the divstep counts: the raw Montgomery limbs handed
 * to safegcd are set directly to 2^k, 2^k - 1, M - 2^k, M - 2^k + 1 for every k, runs of
 * ones between random bit positions, alternating bits, and 1..16 and M-1..M-16. Each is
 * checked by the definition (a * a^-1 == 1), by inverting twice, and against the
 * variable-time path (which runs plain divsteps to completion, not a fixed count). */
static bool fr_raw_ok(uint64_t l[N])
{
    for (int i = N - 1; i >= 0; i--)
        if (l[i] != CUZK_FR_MODULUS[i])
            return l[i] < CUZK_FR_MODULUS[i];
    return false;
}

static void fr_check_inv_raw(const uint64_t l[N])
{
    uint64_t c[N];
    memcpy(c, l, sizeof c);
    if (!fr_raw_ok(c))
        return;
    cuzk_fr a, x, y, z;
    memcpy(a.l, c, sizeof a.l);
    cuzk_fr_inv(&x, &a);
    cuzk_fr_inv_var(&y, &a);
    assert_memory_equal(x.l, y.l, sizeof x.l);
    if (cuzk_fr_is_zero(&a)) {
        assert_true(cuzk_fr_is_zero(&x));
        return;
    }
    cuzk_fr_mul(&z, &a, &x);
    assert_true(cuzk_fr_is_one(&z));
    cuzk_fr_inv(&z, &x);
    assert_memory_equal(z.l, a.l, sizeof a.l);
}

static void fr_sub_raw(uint64_t r[N], const uint64_t a[N], const uint64_t b[N])
{
    unsigned __int128 br = 0;
    for (int i = 0; i < N; i++) {
        unsigned __int128 d = (unsigned __int128)a[i] - b[i] - (uint64_t)br;
        r[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
}

static void test_inverse_patterns(void **state)
{
    (void)state;
    uint64_t l[N], t[N];
    for (int k = 0; k < 64 * N; k++) {
        memset(l, 0, sizeof l);
        l[k / 64] = (uint64_t)1 << (k % 64);
        fr_check_inv_raw(l); /* 2^k */
        fr_sub_raw(t, CUZK_FR_MODULUS, l);
        fr_check_inv_raw(t); /* M - 2^k */
        t[0] += 1; /* M - 2^k + 1 (no carry: M is odd) */
        fr_check_inv_raw(t);
        /* 2^k - 1: a low run of ones */
        for (int i = 0; i < N; i++)
            l[i] = i < k / 64 ? ~(uint64_t)0
                   : i == k / 64 ? (((uint64_t)1 << (k % 64)) - 1) : 0;
        fr_check_inv_raw(l);
    }
    for (uint64_t v = 1; v <= 16; v++) {
        memset(l, 0, sizeof l);
        l[0] = v;
        fr_check_inv_raw(l);
        fr_sub_raw(t, CUZK_FR_MODULUS, l);
        fr_check_inv_raw(t);
    }
    for (int rep = 0; rep < 2; rep++) { /* 0101... and 1010... */
        for (int i = 0; i < N; i++)
            l[i] = rep ? 0xaaaaaaaaaaaaaaaaULL : 0x5555555555555555ULL;
        l[N - 1] &= CUZK_FR_MODULUS[N - 1] >> 1;
        fr_check_inv_raw(l);
    }
    size_t n = test_iters(200);
    for (size_t it = 0; it < n; it++) { /* runs of ones [lo, hi) */
        unsigned lo = (unsigned)(test_rng_u64() % (64 * N));
        unsigned hi = lo + (unsigned)(test_rng_u64() % (64 * N - lo)) + 1;
        for (int i = 0; i < N; i++) {
            uint64_t m = 0;
            for (unsigned b = 0; b < 64; b++) {
                unsigned bit = 64 * (unsigned)i + b;
                m |= (uint64_t)(bit >= lo && bit < hi) << b;
            }
            l[i] = m;
        }
        fr_check_inv_raw(l);
        fr_sub_raw(t, CUZK_FR_MODULUS, l); /* and M minus it */
        fr_check_inv_raw(t);
    }
}

static void test_pow(void **state)
{
    (void)state;
    size_t n = test_iters(40);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr a, t, acc = CUZK_FR_ONE;
        rand_edge(&a);
        uint64_t k = test_rng_u64() % 200;
        for (uint64_t j = 0; j < k; j++)
            cuzk_fr_mul(&acc, &acc, &a);
        cuzk_fr_pow(&t, &a, &k, 1);
        assert_fr_eq(&t, &acc);
        uint64_t e[N];
        memcpy(e, R_M1, sizeof e);
        cuzk_fr_pow(&t, &a, e, N);
        assert_true(cuzk_fr_is_zero(&a) ? cuzk_fr_is_zero(&t) : cuzk_fr_is_one(&t));
    }
}

static void check_sqrt(const cuzk_fr *a)
{
    cuzk_fr r, t;
    int l = cuzk_fr_legendre(a);
    bool ok = cuzk_fr_sqrt(&r, a);
    assert_int_equal(ok, l != -1);
    if (ok) {
        cuzk_fr_sqr(&t, &r);
        assert_fr_eq(&t, a);
    }
}

static void test_legendre_sqrt(void **state)
{
    (void)state;
    cuzk_fr seven, w, r, m1 = fr_canon(R_M1);
    assert_int_equal(cuzk_fr_legendre(&CUZK_FR_ZERO), 0);
    assert_int_equal(cuzk_fr_legendre(&m1), 1); /* r = 1 mod 4 */
    cuzk_fr_from_u64(&seven, 7);
    assert_int_equal(cuzk_fr_legendre(&seven), -1);
    assert_false(cuzk_fr_sqrt(&r, &seven));
    assert_true(cuzk_fr_sqrt(&r, &CUZK_FR_ZERO));
    assert_true(cuzk_fr_is_zero(&r));
    check_sqrt(&m1);
    /* w = 7^((r-1)/2^32) has order 2^32: its powers w^(2^k) exercise every
     * Tonelli–Shanks round count; w itself is a non-square. */
    uint64_t T[N];
    memcpy(T, R_M1, sizeof T);
    for (int i = 0; i < N - 1; i++)
        T[i] = (T[i] >> 32) | (T[i + 1] << 32);
    T[N - 1] >>= 32;
    cuzk_fr_pow(&w, &seven, T, N);
    for (int k = 0; k <= 32; k++) {
        check_sqrt(&w);
        assert_int_equal(cuzk_fr_legendre(&w), k == 0 ? -1 : 1);
        assert_int_equal(cuzk_fr_is_one(&w), k == 32);
        cuzk_fr_mul(&r, &w, &seven); /* non-square times a 2-power-order element */
        check_sqrt(&r);
        cuzk_fr_sqr(&w, &w);
    }
    size_t n = test_iters(60);
    int seen[3] = {0};
    for (size_t i = 0; i < n; i++) {
        cuzk_fr a, b, s, t;
        rand_edge(&a);
        rand_edge(&b);
        cuzk_fr_sqr(&s, &a);
        assert_int_equal(cuzk_fr_legendre(&s), cuzk_fr_is_zero(&a) ? 0 : 1);
        check_sqrt(&s);
        check_sqrt(&a);
        int la = cuzk_fr_legendre(&a), lb = cuzk_fr_legendre(&b);
        seen[la + 1]++;
        cuzk_fr_mul(&t, &a, &b);
        assert_int_equal(cuzk_fr_legendre(&t), la * lb);
    }
    assert_true(seen[0] > 0 && seen[2] > 0);
}

/* x mod r for a 256-bit x = x0 + x1*2^128, each half < 2^128 < r so it is canonical */
static void ref_from256(cuzk_fr *out, const uint64_t x[4], const cuzk_fr *two128)
{
    uint64_t lo[N] = {x[0], x[1], 0, 0}, hi[N] = {x[2], x[3], 0, 0};
    cuzk_fr l = fr_canon(lo), h = fr_canon(hi);
    cuzk_fr_mul(&h, &h, two128);
    cuzk_fr_add(out, &l, &h);
}

static void test_wide(void **state)
{
    (void)state;
    cuzk_fr two64, two128, two256;
    cuzk_fr_from_u64(&two64, 1ull << 63);
    cuzk_fr_dbl(&two64, &two64);
    cuzk_fr_sqr(&two128, &two64);
    cuzk_fr_sqr(&two256, &two128);
    size_t n = test_iters(300);
    for (size_t i = 0; i < n + 6; i++) {
        uint8_t in[64];
        uint64_t x[8];
        test_rng_bytes(in, 64);
        if (i == 0)
            memset(in, 0, 64);
        if (i == 1)
            memset(in, 0xff, 64);
        for (int k = 0; k < 8; k++)
            memcpy(&x[k], in + 8 * k, 8); /* the test machine is little-endian */
        if (i == 2 || i == 3) { /* lo = r, hi = r-1 / lo = r-1, hi = r */
            memcpy(x, i == 2 ? CUZK_FR_MODULUS : R_M1, 32);
            memcpy(x + 4, i == 2 ? R_M1 : CUZK_FR_MODULUS, 32);
        }
        if (i == 4) /* lo = 2r (< 2^256), hi = 0 */
            for (int k = 0; k < 4; k++) {
                x[k] = (CUZK_FR_MODULUS[k] << 1) | (k ? CUZK_FR_MODULUS[k - 1] >> 63 : 0);
                x[k + 4] = 0;
            }
        if (i == 5) /* lo = 2^256 - 1, hi = 1 */
            for (int k = 0; k < 4; k++) {
                x[k] = ~0ull;
                x[k + 4] = k == 0;
            }
        for (int k = 0; k < 8; k++)
            for (int b = 0; b < 8; b++)
                in[8 * k + b] = (uint8_t)(x[k] >> (8 * b));
        cuzk_fr got, lo, hi, want;
        cuzk_fr_from_bytes_wide_le(&got, in);
        ref_from256(&lo, x, &two128);
        ref_from256(&hi, x + 4, &two128);
        cuzk_fr_mul(&hi, &hi, &two256);
        cuzk_fr_add(&want, &lo, &hi);
        assert_fr_eq(&got, &want);
    }
}

int main(void)
{
    test_rng_init("test_fr");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_noncanonical),
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_ring_laws),
        cmocka_unit_test(test_inverse_paths),
        cmocka_unit_test(test_inverse_patterns),
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_legendre_sqrt),
        cmocka_unit_test(test_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
