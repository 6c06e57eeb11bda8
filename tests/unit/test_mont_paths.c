/*
 * test_mont_paths.c — the limb back end bit for bit: the build's Montgomery mul/sqr and
 * add/sub/dbl/neg (x86-64 ADX asm under CUZK_ASM, else the portable mont.h) against the
 * portable mont.h routines and against slow references written here (schoolbook product,
 * then 64n halvings mod m — the bit-serial form of a*b*2^(-64n) mod m; add/neg by plain
 * integer steps with explicit comparisons). Inputs: random values and
 * edge patterns near the modulus (m-1, m-2, all-ones limbs under the top, alternating
 * zero/all-ones limbs, 2^k-1). Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ff.h"
#include "ff/fp_internal.h"
#include "ff/mont.h"
#include "test_rng.h"

#define MAXN 6

/* a < b as n-limb integers (variable-time: test only) */
static int ref_lt(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* r = a*b*2^(-64n) mod m, by schoolbook product and bit-serial halving */
static void ref_mont(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                     size_t n)
{
    uint64_t x[2 * MAXN + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 c = 0;
        for (size_t j = 0; j < n; j++) {
            c += (unsigned __int128)a[i] * b[j] + x[i + j];
            x[i + j] = (uint64_t)c;
            c >>= 64;
        }
        x[i + n] = (uint64_t)c;
    }
    /* x < m^2; each step x = (x + (x odd ? m : 0)) / 2 keeps x < m^2/2^k + m */
    for (size_t k = 0; k < 64 * n; k++) {
        if (x[0] & 1) {
            unsigned __int128 c = 0;
            for (size_t i = 0; i <= 2 * n; i++) {
                c += (unsigned __int128)x[i] + (i < n ? m[i] : 0);
                x[i] = (uint64_t)c;
                c >>= 64;
            }
        }
        for (size_t i = 0; i < 2 * n; i++)
            x[i] = (x[i] >> 1) | (x[i + 1] << 63);
        x[2 * n] >>= 1;
    }
    /* now x < 2m */
    if (!ref_lt(x, m, n) || x[n]) {
        unsigned __int128 br = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned __int128 d = (unsigned __int128)x[i] - m[i] - (uint64_t)br;
            x[i] = (uint64_t)d;
            br = (d >> 64) & 1;
        }
    }
    memcpy(r, x, n * 8);
}

/* an operand < m: random, or one of the patterns that stress carries */
static void pick(uint64_t *a, const uint64_t *m, size_t n, unsigned kind)
{
    switch (kind % 10) {
    case 0: memset(a, 0, n * 8); break;
    case 1: memset(a, 0, n * 8); a[0] = 1; break;
    case 2: memcpy(a, m, n * 8); a[0] -= 1; break; /* m-1 (m odd) */
    case 3: memcpy(a, m, n * 8); a[0] -= 2; break; /* m-2 */
    case 4: /* all-ones limbs under a top limb just below m's */
        for (size_t i = 0; i + 1 < n; i++)
            a[i] = ~0ull;
        a[n - 1] = m[n - 1] - 1;
        break;
    case 5: /* alternating all-ones / zero limbs */
        for (size_t i = 0; i + 1 < n; i++)
            a[i] = (i & 1) ? 0 : ~0ull;
        a[n - 1] = m[n - 1] - 1;
        break;
    case 6: { /* 2^k - 1 for k below the modulus size */
        size_t k = test_rng_u64() % (64 * n - 3);
        memset(a, 0, n * 8);
        for (size_t i = 0; i < n; i++)
            a[i] = k >= 64 * (i + 1) ? ~0ull : (k > 64 * i ? (~0ull >> (64 - (k - 64 * i))) : 0);
        break;
    }
    case 7: /* top limb equal to m's, low limbs small */
        memset(a, 0, n * 8);
        a[n - 1] = m[n - 1];
        a[0] = test_rng_u64() & 0xff;
        break;
    default:
        do {
            for (size_t i = 0; i < n; i++)
                a[i] = test_rng_u64();
            a[n - 1] &= (~0ull >> __builtin_clzll(m[n - 1]));
        } while (!ref_lt(a, m, n));
        break;
    }
}

typedef void (*mul_fn)(uint64_t *, const uint64_t *, const uint64_t *);
typedef void (*sqr_fn)(uint64_t *, const uint64_t *);
typedef struct paths {
    mul_fn mul, add, sub;
    sqr_fn sqr, dbl, neg;
} paths;

/* (a + b) mod m by an integer add and an explicit comparison (a, b < m) */
static void ref_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                    size_t n)
{
    uint64_t t[MAXN] = {0};
    unsigned __int128 c = 0;
    for (size_t i = 0; i < n; i++) { /* no carry out: m < 2^(64n-1) */
        c += (unsigned __int128)a[i] + b[i];
        t[i] = (uint64_t)c;
        c >>= 64;
    }
    if (!ref_lt(t, m, n)) {
        c = 0;
        for (size_t i = 0; i < n; i++) {
            c = (unsigned __int128)t[i] - m[i] - (uint64_t)c;
            t[i] = (uint64_t)c;
            c = (c >> 64) & 1;
        }
    }
    memcpy(r, t, n * 8);
}

/* -a mod m: m - a, or 0 for a = 0 */
static void ref_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    int az = 1;
    for (size_t i = 0; i < n; i++)
        az &= a[i] == 0;
    unsigned __int128 c = 0;
    for (size_t i = 0; i < n; i++) {
        c = (unsigned __int128)m[i] - a[i] - (uint64_t)c;
        r[i] = az ? 0 : (uint64_t)c;
        c = (c >> 64) & 1;
    }
}

static void check_field(const uint64_t *m, uint64_t m0inv, size_t n, const paths *P)
{
    size_t iters = test_iters(3000);
    for (size_t it = 0; it < iters; it++) {
        uint64_t a[MAXN], b[MAXN], r1[MAXN], r2[MAXN], r3[MAXN], s1[MAXN], s2[MAXN];
        pick(a, m, n, it < 100 ? (unsigned)(it % 10) : (unsigned)test_rng_u64());
        pick(b, m, n, it < 100 ? (unsigned)(it / 10) : (unsigned)test_rng_u64());
        P->mul(r1, a, b);
        mont_mul(r2, a, b, m, m0inv, n);
        ref_mont(r3, a, b, m, n);
        assert_memory_equal(r1, r2, n * 8);
        assert_memory_equal(r1, r3, n * 8);
        P->sqr(s1, a);
        ref_mont(s2, a, a, m, n);
        assert_memory_equal(s1, s2, n * 8);
        /* aliasing: r == a, r == b, r == a == b */
        memcpy(s1, a, n * 8);
        P->mul(s1, s1, b);
        assert_memory_equal(s1, r1, n * 8);
        memcpy(s1, b, n * 8);
        P->mul(s1, a, s1);
        assert_memory_equal(s1, r1, n * 8);
        memcpy(s1, a, n * 8);
        P->sqr(s1, s1);
        assert_memory_equal(s1, s2, n * 8);
        /* add / sub / dbl / neg against the reference and the portable mont.h */
        uint64_t nb[MAXN];
        P->add(r1, a, b);
        ref_add(r2, a, b, m, n);
        assert_memory_equal(r1, r2, n * 8);
        mont_add(r3, a, b, m, n);
        assert_memory_equal(r1, r3, n * 8);
        P->sub(r1, a, b);
        ref_neg(nb, b, m, n);
        ref_add(r2, a, nb, m, n);
        assert_memory_equal(r1, r2, n * 8);
        mont_sub(r3, a, b, m, n);
        assert_memory_equal(r1, r3, n * 8);
        memcpy(s1, a, n * 8);
        P->dbl(s1, s1);
        ref_add(r2, a, a, m, n);
        assert_memory_equal(s1, r2, n * 8);
        memcpy(s1, a, n * 8);
        P->neg(s1, s1);
        ref_neg(r2, a, m, n);
        assert_memory_equal(s1, r2, n * 8);
        mont_neg(r3, a, m, n);
        assert_memory_equal(s1, r3, n * 8);
    }
}

#define WRAP(f)                                                                            \
    static void f##_mul_w(uint64_t *r, const uint64_t *a, const uint64_t *b)                 \
    {                                                                                      \
        f##_mul_impl(r, a, b);                                                             \
    }                                                                                      \
    static void f##_add_w(uint64_t *r, const uint64_t *a, const uint64_t *b)                 \
    {                                                                                      \
        f##_add_impl(r, a, b);                                                             \
    }                                                                                      \
    static void f##_sub_w(uint64_t *r, const uint64_t *a, const uint64_t *b)                 \
    {                                                                                      \
        f##_sub_impl(r, a, b);                                                             \
    }                                                                                      \
    static void f##_sqr_w(uint64_t *r, const uint64_t *a) { f##_sqr_impl(r, a); }            \
    static void f##_dbl_w(uint64_t *r, const uint64_t *a) { f##_dbl_impl(r, a); }            \
    static void f##_neg_w(uint64_t *r, const uint64_t *a) { f##_neg_impl(r, a); }            \
    static const paths f##_paths = {f##_mul_w, f##_add_w, f##_sub_w,                         \
                                    f##_sqr_w, f##_dbl_w, f##_neg_w};
WRAP(fp)
WRAP(fr)

static void test_fp_paths(void **state)
{
    (void)state;
    check_field(CUZK_FP_MODULUS, CUZK_FP_M0INV, CUZK_FP_LIMBS, &fp_paths);
}

static void test_fr_paths(void **state)
{
    (void)state;
    check_field(CUZK_FR_MODULUS, CUZK_FR_M0INV, CUZK_FR_LIMBS, &fr_paths);
}

/* the reference itself against a known value: R mod p times R^2 mod p must give R^2 */
static void test_reference_known(void **state)
{
    (void)state;
    const uint64_t r2[6] = {0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                            0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa};
    uint64_t out[6];
    ref_mont(out, CUZK_FP_ONE.l, r2, CUZK_FP_MODULUS, 6);
    assert_memory_equal(out, r2, sizeof out);
    const uint64_t one[6] = {1};
    ref_mont(out, r2, one, CUZK_FP_MODULUS, 6);
    assert_memory_equal(out, CUZK_FP_ONE.l, sizeof out);
}

int main(void)
{
    test_rng_init("test_mont_paths");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_known),
        cmocka_unit_test(test_fp_paths),
        cmocka_unit_test(test_fr_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
