/*
 * test_fp.c — Fp against definition-level identities and independent computations:
 * known values ((p-1)^2 = 1, 2^-1 = (p+1)/2), encodings and their rejection of p, p+1 and
 * 2^384-1, ring laws, mul vs repeated addition, mul_small vs mul, half, the three inverse
 * paths (constant-time, variable-time, batch) against each other and a*a^-1 = 1, pow vs a
 * multiplication loop, Legendre/sqrt consistency and the zcash sign rule.
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

#define N CUZK_FP_LIMBS

/* p-1, p, p+1, (p-1)/2, (p+1)/2 as canonical limbs (python3 from p) */
static const uint64_t P_M1[N] = {0xb9feffffffffaaaa, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
static const uint64_t P_P1[N] = {0xb9feffffffffaaac, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
static const uint64_t HALF_M1[N] = {0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
                                    0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};
static const uint64_t HALF_P1[N] = {0xdcff7fffffffd556, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
                                    0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};

static cuzk_fp fp_canon(const uint64_t l[N])
{
    cuzk_fp r;
    assert_int_equal(cuzk_fp_from_canonical(&r, l), CUZK_OK);
    return r;
}

static void assert_fp_eq(const cuzk_fp *a, const cuzk_fp *b)
{
    assert_memory_equal(a->l, b->l, sizeof a->l);
}

/* random element, with a 1-in-8 chance of an edge value (0, 1, p-1, 2, (p±1)/2) */
static void rand_edge(cuzk_fp *r)
{
    uint64_t k = test_rng_u64();
    switch (k % 16) {
    case 0: *r = CUZK_FP_ZERO; break;
    case 1: *r = CUZK_FP_ONE; break;
    case 2: *r = fp_canon(P_M1); break;
    case 3: *r = fp_canon(HALF_M1); break;
    case 4: *r = fp_canon(HALF_P1); break;
    default: test_rand_fp(r); break;
    }
}

static void test_known_values(void **state)
{
    (void)state;
    uint64_t c[N];
    cuzk_fp m1 = fp_canon(P_M1), t, two, neg1;
    cuzk_fp_to_canonical(c, &CUZK_FP_ONE);
    assert_true(c[0] == 1 && c[1] == 0 && c[5] == 0);
    cuzk_fp_mul(&t, &m1, &m1);
    assert_true(cuzk_fp_is_one(&t));
    cuzk_fp_neg(&neg1, &CUZK_FP_ONE);
    assert_fp_eq(&neg1, &m1);
    cuzk_fp_from_u64(&two, 2);
    cuzk_fp_inv(&t, &two);
    cuzk_fp_to_canonical(c, &t);
    assert_memory_equal(c, HALF_P1, sizeof c);
    cuzk_fp_inv_var(&t, &two);
    cuzk_fp_to_canonical(c, &t);
    assert_memory_equal(c, HALF_P1, sizeof c);
    cuzk_fp_half(&t, &CUZK_FP_ONE);
    cuzk_fp_to_canonical(c, &t);
    assert_memory_equal(c, HALF_P1, sizeof c);
    /* modulus constant matches p-1 + 1 */
    assert_true(CUZK_FP_MODULUS[0] == P_M1[0] + 1);
    assert_memory_equal(CUZK_FP_MODULUS + 1, P_M1 + 1, (N - 1) * 8);
    const char *be = cuzk_ff_backend();
    assert_non_null(be);
#ifdef CUZK_ASM
    assert_string_equal(be, "x86-64-adx");
#else
    assert_string_equal(be, "portable");
#endif
}

static void test_noncanonical(void **state)
{
    (void)state;
    const uint64_t ones[N] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
    const uint64_t *bad[3] = {CUZK_FP_MODULUS, P_P1, ones};
    cuzk_fp r;
    uint8_t be[48], le[48];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cuzk_fp_from_canonical(&r, bad[i]), CUZK_ERR_NONCANONICAL);
        for (int k = 0; k < 48; k++) {
            le[k] = (uint8_t)(bad[i][k / 8] >> (8 * (k % 8)));
            be[47 - k] = le[k];
        }
        assert_int_equal(cuzk_fp_from_bytes_le(&r, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(cuzk_fp_from_bytes_be(&r, be), CUZK_ERR_NONCANONICAL);
        assert_int_equal(cuzk_fp_from_mont_le(&r, le), CUZK_ERR_NONCANONICAL);
    }
    for (int k = 0; k < 48; k++) {
        le[k] = (uint8_t)(P_M1[k / 8] >> (8 * (k % 8)));
        be[47 - k] = le[k];
    }
    cuzk_fp m1 = fp_canon(P_M1);
    assert_int_equal(cuzk_fp_from_bytes_le(&r, le), CUZK_OK);
    assert_fp_eq(&r, &m1);
    assert_int_equal(cuzk_fp_from_bytes_be(&r, be), CUZK_OK);
    assert_fp_eq(&r, &m1);
    assert_int_equal(cuzk_fp_from_mont_le(&r, le), CUZK_OK);
    assert_memory_equal(r.l, P_M1, sizeof r.l);
}

static void test_encodings(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, b;
        rand_edge(&a);
        uint64_t c[N];
        uint8_t be[48], le[48], ml[48];
        cuzk_fp_to_canonical(c, &a);
        assert_int_equal(cuzk_fp_from_canonical(&b, c), CUZK_OK);
        assert_fp_eq(&a, &b);
        cuzk_fp_to_bytes_be(be, &a);
        cuzk_fp_to_bytes_le(le, &a);
        for (int k = 0; k < 48; k++) {
            assert_int_equal(be[k], le[47 - k]);
            assert_int_equal(le[k], (uint8_t)(c[k / 8] >> (8 * (k % 8))));
        }
        assert_int_equal(cuzk_fp_from_bytes_be(&b, be), CUZK_OK);
        assert_fp_eq(&a, &b);
        assert_int_equal(cuzk_fp_from_bytes_le(&b, le), CUZK_OK);
        assert_fp_eq(&a, &b);
        cuzk_fp_to_mont_le(ml, &a);
        for (int k = 0; k < 48; k++)
            assert_int_equal(ml[k], (uint8_t)(a.l[k / 8] >> (8 * (k % 8))));
        assert_int_equal(cuzk_fp_from_mont_le(&b, ml), CUZK_OK);
        assert_fp_eq(&a, &b);
    }
    /* from_u64 agrees with from_canonical */
    for (size_t i = 0; i < n; i++) {
        uint64_t v = test_rng_u64() >> (test_rng_u64() % 64);
        uint64_t c[N] = {v};
        cuzk_fp a, b;
        cuzk_fp_from_u64(&a, v);
        b = fp_canon(c);
        assert_fp_eq(&a, &b);
    }
}

static void test_ring_laws(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, b, c, t, u, v;
        rand_edge(&a);
        rand_edge(&b);
        rand_edge(&c);
        cuzk_fp_add(&t, &a, &b);
        cuzk_fp_sub(&t, &t, &b);
        assert_fp_eq(&t, &a);
        cuzk_fp_neg(&t, &a);
        cuzk_fp_add(&t, &t, &a);
        assert_true(cuzk_fp_is_zero(&t));
        cuzk_fp_sub(&t, &CUZK_FP_ZERO, &a);
        cuzk_fp_neg(&u, &a);
        assert_fp_eq(&t, &u);
        cuzk_fp_dbl(&t, &a);
        cuzk_fp_add(&u, &a, &a);
        assert_fp_eq(&t, &u);
        /* (a+b)c = ac + bc, ab = ba, a^2 = a*a */
        cuzk_fp_add(&t, &a, &b);
        cuzk_fp_mul(&t, &t, &c);
        cuzk_fp_mul(&u, &a, &c);
        cuzk_fp_mul(&v, &b, &c);
        cuzk_fp_add(&u, &u, &v);
        assert_fp_eq(&t, &u);
        cuzk_fp_mul(&t, &a, &b);
        cuzk_fp_mul(&u, &b, &a);
        assert_fp_eq(&t, &u);
        cuzk_fp_sqr(&t, &a);
        cuzk_fp_mul(&u, &a, &a);
        assert_fp_eq(&t, &u);
        /* (ab)c = a(bc) */
        cuzk_fp_mul(&t, &a, &b);
        cuzk_fp_mul(&t, &t, &c);
        cuzk_fp_mul(&u, &b, &c);
        cuzk_fp_mul(&u, &a, &u);
        assert_fp_eq(&t, &u);
        /* aliasing r == a == b */
        t = a;
        cuzk_fp_mul(&t, &t, &t);
        cuzk_fp_sqr(&u, &a);
        assert_fp_eq(&t, &u);
        t = a;
        cuzk_fp_sqr(&t, &t);
        assert_fp_eq(&t, &u);
        t = a;
        cuzk_fp_add(&t, &t, &t);
        cuzk_fp_dbl(&u, &a);
        assert_fp_eq(&t, &u);
        t = a;
        cuzk_fp_sub(&t, &t, &t);
        assert_true(cuzk_fp_is_zero(&t));
        t = a;
        cuzk_fp_neg(&t, &t);
        cuzk_fp_neg(&u, &a);
        assert_fp_eq(&t, &u);
        /* cmov / eq */
        cuzk_fp_cmov(&t, &a, &b, false);
        assert_fp_eq(&t, &a);
        cuzk_fp_cmov(&t, &a, &b, true);
        assert_fp_eq(&t, &b);
        assert_true(cuzk_fp_eq(&a, &a));
    }
    cuzk_fp z;
    cuzk_fp_neg(&z, &CUZK_FP_ZERO);
    assert_true(cuzk_fp_is_zero(&z));
    assert_false(cuzk_fp_is_zero(&CUZK_FP_ONE));
    assert_false(cuzk_fp_is_one(&CUZK_FP_ZERO));
}

/* a*k computed as k-fold addition: independent of the multiplier */
static void test_mul_small_and_repeated_add(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, k_fp, t, u, acc = CUZK_FP_ZERO;
        rand_edge(&a);
        uint64_t k = test_rng_u64() % 64;
        for (uint64_t j = 0; j < k; j++)
            cuzk_fp_add(&acc, &acc, &a);
        cuzk_fp_from_u64(&k_fp, k);
        cuzk_fp_mul(&t, &a, &k_fp);
        assert_fp_eq(&t, &acc);
        cuzk_fp_mul_small(&u, &a, k);
        assert_fp_eq(&u, &acc);
    }
    const uint64_t ks[] = {0, 1, 2, 3, 0xffffffffu, 0xfffffffeu, 0x80000000u, 12345,
                           1ull << 32, ~0ull}; /* the last two are beyond the k < 2^32 fast path */
    cuzk_fp m1 = fp_canon(P_M1);
    for (size_t i = 0; i < 4 * n; i++) {
        cuzk_fp a, k_fp, t, u;
        if (i % 5 == 0)
            a = m1;
        else
            rand_edge(&a);
        uint64_t k = i < 10 ? ks[i] : (test_rng_u64() >> (32 + test_rng_u64() % 32));
        cuzk_fp_from_u64(&k_fp, k);
        cuzk_fp_mul(&t, &a, &k_fp);
        u = a;
        cuzk_fp_mul_small(&u, &u, k);
        assert_fp_eq(&t, &u);
    }
}

static void test_half(void **state)
{
    (void)state;
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, h, t;
        rand_edge(&a);
        h = a;
        cuzk_fp_half(&h, &h);
        cuzk_fp_dbl(&t, &h);
        assert_fp_eq(&t, &a);
    }
}

static void test_inverse_paths(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    cuzk_fp t;
    cuzk_fp_inv(&t, &CUZK_FP_ZERO);
    assert_true(cuzk_fp_is_zero(&t));
    cuzk_fp_inv_var(&t, &CUZK_FP_ZERO);
    assert_true(cuzk_fp_is_zero(&t));
    cuzk_fp_inv(&t, &CUZK_FP_ONE);
    assert_true(cuzk_fp_is_one(&t));
    cuzk_fp m1 = fp_canon(P_M1);
    cuzk_fp_inv(&t, &m1);
    assert_fp_eq(&t, &m1);
    cuzk_fp_inv_var(&t, &m1);
    assert_fp_eq(&t, &m1);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, x, y, z, w;
        rand_edge(&a);
        x = a;
        cuzk_fp_inv(&x, &x);
        y = a;
        cuzk_fp_inv_var(&y, &y);
        assert_fp_eq(&x, &y);
        if (cuzk_fp_is_zero(&a)) {
            assert_true(cuzk_fp_is_zero(&x));
            continue;
        }
        cuzk_fp_mul(&z, &a, &x);
        assert_true(cuzk_fp_is_one(&z));
        /* Fermat by the generic ladder: a^(p-2) */
        uint64_t e[N];
        memcpy(e, CUZK_FP_MODULUS, sizeof e);
        e[0] -= 2;
        cuzk_fp_pow(&w, &a, e, N);
        assert_fp_eq(&w, &x);
    }
    /* batch, with zeros sprinkled in and at both ends */
    enum { B = 37 };
    cuzk_fp v[B], orig[B], scratch[B];
    for (size_t i = 0; i < B; i++) {
        if (i == 0 || i == B - 1 || test_rng_u64() % 5 == 0)
            v[i] = CUZK_FP_ZERO;
        else
            rand_edge(&v[i]);
        orig[i] = v[i];
    }
    cuzk_fps_inv_var(v, B, scratch);
    for (size_t i = 0; i < B; i++) {
        cuzk_fp x;
        cuzk_fp_inv(&x, &orig[i]);
        assert_fp_eq(&x, &v[i]);
    }
    cuzk_fps_inv_var(v, 0, scratch);
    v[0] = m1;
    cuzk_fps_inv_var(v, 1, scratch);
    assert_fp_eq(&v[0], &m1);
}

/* Inverse on bit patterns that stress the divstep counts: the raw Montgomery limbs handed
 * to safegcd are set directly to 2^k, 2^k - 1, M - 2^k, M - 2^k + 1 for every k, runs of
 * ones between random bit positions, alternating bits, and 1..16 and M-1..M-16. Each is
 * checked by the definition (a * a^-1 == 1), by inverting twice, and against the
 * variable-time path (which runs plain divsteps to completion, not a fixed count). */
static bool fp_raw_ok(uint64_t l[N])
{
    for (int i = N - 1; i >= 0; i--)
        if (l[i] != CUZK_FP_MODULUS[i])
            return l[i] < CUZK_FP_MODULUS[i];
    return false;
}

static void fp_check_inv_raw(const uint64_t l[N])
{
    uint64_t c[N];
    memcpy(c, l, sizeof c);
    if (!fp_raw_ok(c))
        return;
    cuzk_fp a, x, y, z;
    memcpy(a.l, c, sizeof a.l);
    cuzk_fp_inv(&x, &a);
    cuzk_fp_inv_var(&y, &a);
    assert_memory_equal(x.l, y.l, sizeof x.l);
    if (cuzk_fp_is_zero(&a)) {
        assert_true(cuzk_fp_is_zero(&x));
        return;
    }
    cuzk_fp_mul(&z, &a, &x);
    assert_true(cuzk_fp_is_one(&z));
    cuzk_fp_inv(&z, &x);
    assert_memory_equal(z.l, a.l, sizeof a.l);
}

static void fp_sub_raw(uint64_t r[N], const uint64_t a[N], const uint64_t b[N])
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
        fp_check_inv_raw(l); /* 2^k */
        fp_sub_raw(t, CUZK_FP_MODULUS, l);
        fp_check_inv_raw(t); /* M - 2^k */
        t[0] += 1; /* M - 2^k + 1 (no carry: M is odd) */
        fp_check_inv_raw(t);
        /* 2^k - 1: a low run of ones */
        for (int i = 0; i < N; i++)
            l[i] = i < k / 64 ? ~(uint64_t)0
                   : i == k / 64 ? (((uint64_t)1 << (k % 64)) - 1) : 0;
        fp_check_inv_raw(l);
    }
    for (uint64_t v = 1; v <= 16; v++) {
        memset(l, 0, sizeof l);
        l[0] = v;
        fp_check_inv_raw(l);
        fp_sub_raw(t, CUZK_FP_MODULUS, l);
        fp_check_inv_raw(t);
    }
    for (int rep = 0; rep < 2; rep++) { /* 0101... and 1010... */
        for (int i = 0; i < N; i++)
            l[i] = rep ? 0xaaaaaaaaaaaaaaaaULL : 0x5555555555555555ULL;
        l[N - 1] &= CUZK_FP_MODULUS[N - 1] >> 1;
        fp_check_inv_raw(l);
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
        fp_check_inv_raw(l);
        fp_sub_raw(t, CUZK_FP_MODULUS, l); /* and M minus it */
        fp_check_inv_raw(t);
    }
}

static void test_pow(void **state)
{
    (void)state;
    size_t n = test_iters(30);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, t, acc = CUZK_FP_ONE;
        rand_edge(&a);
        uint64_t k = test_rng_u64() % 200;
        for (uint64_t j = 0; j < k; j++)
            cuzk_fp_mul(&acc, &acc, &a);
        cuzk_fp_pow(&t, &a, &k, 1);
        assert_fp_eq(&t, &acc);
        /* a^(e * 2^64 + f) = (a^e)^(2^64) * a^f with a 2-limb exponent */
        uint64_t e2[2] = {test_rng_u64(), test_rng_u64()};
        cuzk_fp x, y;
        cuzk_fp_pow(&x, &a, e2, 2);
        cuzk_fp_pow(&y, &a, &e2[1], 1);
        for (int j = 0; j < 64; j++)
            cuzk_fp_sqr(&y, &y);
        cuzk_fp_pow(&t, &a, &e2[0], 1);
        cuzk_fp_mul(&y, &y, &t);
        assert_fp_eq(&x, &y);
        /* a^(p-1) = 1 for a != 0 (Fermat) */
        uint64_t e[N];
        memcpy(e, P_M1, sizeof e);
        cuzk_fp_pow(&t, &a, e, N);
        assert_true(cuzk_fp_is_zero(&a) ? cuzk_fp_is_zero(&t) : cuzk_fp_is_one(&t));
    }
    cuzk_fp t;
    cuzk_fp_pow(&t, &CUZK_FP_ZERO, NULL, 0);
    assert_true(cuzk_fp_is_one(&t));
}

static void test_legendre_sqrt(void **state)
{
    (void)state;
    size_t n = test_iters(100);
    cuzk_fp r, m1 = fp_canon(P_M1);
    assert_int_equal(cuzk_fp_legendre(&CUZK_FP_ZERO), 0);
    assert_int_equal(cuzk_fp_legendre(&CUZK_FP_ONE), 1);
    assert_int_equal(cuzk_fp_legendre(&m1), -1); /* p = 3 mod 4 */
    assert_true(cuzk_fp_sqrt(&r, &CUZK_FP_ZERO));
    assert_true(cuzk_fp_is_zero(&r));
    assert_false(cuzk_fp_sqrt(&r, &m1));
    int seen[3] = {0};
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, b, s, t;
        rand_edge(&a);
        rand_edge(&b);
        cuzk_fp_sqr(&s, &a);
        assert_int_equal(cuzk_fp_legendre(&s), cuzk_fp_is_zero(&a) ? 0 : 1);
        t = s;
        assert_true(cuzk_fp_sqrt(&t, &t));
        cuzk_fp_sqr(&t, &t);
        assert_fp_eq(&t, &s);
        int la = cuzk_fp_legendre(&a), lb = cuzk_fp_legendre(&b);
        seen[la + 1]++;
        cuzk_fp_mul(&t, &a, &b);
        assert_int_equal(cuzk_fp_legendre(&t), la * lb);
        bool ok = cuzk_fp_sqrt(&r, &a);
        assert_int_equal(ok, la != -1);
        if (ok) {
            cuzk_fp_sqr(&t, &r);
            assert_fp_eq(&t, &a);
        }
    }
    assert_true(seen[0] > 0 && seen[2] > 0);
}

static void test_sign(void **state)
{
    (void)state;
    assert_false(cuzk_fp_is_lexicographically_largest(&CUZK_FP_ZERO));
    assert_false(cuzk_fp_is_lexicographically_largest(&CUZK_FP_ONE));
    cuzk_fp h = fp_canon(HALF_M1), h1 = fp_canon(HALF_P1), m1 = fp_canon(P_M1);
    assert_false(cuzk_fp_is_lexicographically_largest(&h));
    assert_true(cuzk_fp_is_lexicographically_largest(&h1));
    assert_true(cuzk_fp_is_lexicographically_largest(&m1));
    size_t n = test_iters(300);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, na;
        rand_edge(&a);
        cuzk_fp_neg(&na, &a);
        bool x = cuzk_fp_is_lexicographically_largest(&a);
        bool y = cuzk_fp_is_lexicographically_largest(&na);
        if (cuzk_fp_is_zero(&a))
            assert_false(x || y);
        else
            assert_true(x != y);
        /* definition: canonical value compared with (p-1)/2 as a big-endian byte string */
        uint8_t be[48], hb[48];
        cuzk_fp_to_bytes_be(be, &a);
        cuzk_fp_to_bytes_be(hb, &h);
        assert_int_equal(x, memcmp(be, hb, 48) > 0);
    }
}

int main(void)
{
    test_rng_init("test_fp");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_noncanonical),
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_ring_laws),
        cmocka_unit_test(test_mul_small_and_repeated_add),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_inverse_paths),
        cmocka_unit_test(test_inverse_patterns),
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_legendre_sqrt),
        cmocka_unit_test(test_sign),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
