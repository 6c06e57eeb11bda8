/*
 * mont.h — generic n-limb Montgomery arithmetic (internal), portable C.
 *
 * Everything is `static inline` with the limb count as a parameter; fp.c and fr.c call it
 * with a constant n so the compiler fully unrolls each instance. Constant-time: no branch
 * or memory index depends on limb values (carries are folded with masks).
 * Requires elements < m on input and produces elements < m.
 */
#ifndef CUZK_FF_MONT_H
#define CUZK_FF_MONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 cuzk_u128;

/* Loops here run over a compile-time limb count once inlined; -O2 does not always peel
 * them completely, and the unrolled form is several times faster (carries stay in
 * registers instead of round-tripping through memory). */
#if defined(__GNUC__) && !defined(__clang__)
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#else
/* clang fully unrolls constant-trip loops by itself, and its "unroll" pragma turns into a
 * -Werror failure where the trip count is a run-time value (the tests' generic calls). */
#define CUZK_UNROLL
#endif

/* r = a + b mod m */
static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, size_t n)
{
    uint64_t t[8], s[8];
    cuzk_u128 c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        c += (cuzk_u128)a[i] + b[i];
        t[i] = (uint64_t)c;
        c >>= 64;
    }
    uint64_t carry = (uint64_t)c;
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)t[i] - m[i] - (uint64_t)br;
        s[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
    /* keep t when (carry:t) < m, i.e. the subtraction borrowed and there was no carry */
    uint64_t keep = (uint64_t)0 - ((uint64_t)br & ~carry & 1);
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        r[i] = (t[i] & keep) | (s[i] & ~keep);
}

/* r = a - b mod m */
static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, size_t n)
{
    uint64_t t[8];
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)a[i] - b[i] - (uint64_t)br;
        t[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
    uint64_t mask = (uint64_t)0 - (uint64_t)br;
    cuzk_u128 c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        c += (cuzk_u128)t[i] + (m[i] & mask);
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

static inline bool mont_is_zero(const uint64_t *a, size_t n)
{
    uint64_t acc = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

/* r = -a mod m (0 stays 0) */
static inline void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    uint64_t nz = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)m[i] - a[i] - (uint64_t)br;
        r[i] = (uint64_t)d & mask;
        br = (d >> 64) & 1;
    }
}

/*
 * r = a*b*2^(-64n) mod m, CIOS. Needs m < 2^(64n-1) (true for p and r: both leave spare
 * top bits), so the running value stays below 2m and one final conditional subtraction
 * suffices.
 */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, uint64_t m0inv, size_t n)
{
    uint64_t t[10] = {0};
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 c = 0;
        CUZK_UNROLL
        for (size_t j = 0; j < n; j++) {
            c += (cuzk_u128)a[j] * b[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        cuzk_u128 top = (cuzk_u128)t[n] + (uint64_t)c;
        t[n] = (uint64_t)top;
        uint64_t q = t[0] * m0inv;
        c = (cuzk_u128)q * m[0] + t[0];
        c >>= 64;
        CUZK_UNROLL
        for (size_t j = 1; j < n; j++) {
            c += (cuzk_u128)q * m[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        c += t[n];
        t[n - 1] = (uint64_t)c;
        t[n] = (uint64_t)(c >> 64);
    }
    uint64_t s[8];
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)t[i] - m[i] - (uint64_t)br;
        s[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
    uint64_t keep = (uint64_t)0 - ((uint64_t)br & ~t[n] & 1);
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        r[i] = (t[i] & keep) | (s[i] & ~keep);
}

/* r = a - m if a >= m else a, for a < 2m (one conditional subtraction), constant-time */
static inline void mont_csub(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    uint64_t s[8];
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)a[i] - m[i] - (uint64_t)br;
        s[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
    uint64_t keep = (uint64_t)0 - (uint64_t)br;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        r[i] = (a[i] & keep) | (s[i] & ~keep);
}

/*
 * r = a/2 mod m for odd m: a even -> a>>1; a odd -> (a+m)>>1. a+m < 2^(64n) because
 * m < 2^(64n-1), so no carry limb is needed. Constant-time (mask instead of a branch).
 */
static inline void mont_half(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    uint64_t mask = (uint64_t)0 - (a[0] & 1);
    uint64_t t[8];
    cuzk_u128 c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        c += (cuzk_u128)a[i] + (m[i] & mask);
        t[i] = (uint64_t)c;
        c >>= 64;
    }
    CUZK_UNROLL
    for (size_t i = 0; i + 1 < n; i++)
        r[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r[n - 1] = t[n - 1] >> 1;
}

/* a < m as integers, constant-time */
static inline bool mont_lt(const uint64_t *a, const uint64_t *m, size_t n)
{
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        cuzk_u128 d = (cuzk_u128)a[i] - m[i] - (uint64_t)br;
        br = (d >> 64) & 1;
    }
    return br != 0;
}

static inline void mont_cmov(uint64_t *r, const uint64_t *a, const uint64_t *b, bool cond,
                             size_t n)
{
    uint64_t mask = (uint64_t)0 - (uint64_t)cond;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        r[i] = (a[i] & ~mask) | (b[i] & mask);
}

static inline bool mont_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t acc = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return acc == 0;
}

static inline void limbs_from_bytes_be(uint64_t *r, const uint8_t *in, size_t n)
{
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        CUZK_UNROLL
        for (size_t k = 0; k < 8; k++)
            v = (v << 8) | in[(n - 1 - i) * 8 + k];
        r[i] = v;
    }
}

static inline void limbs_to_bytes_be(uint8_t *out, const uint64_t *a, size_t n)
{
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        CUZK_UNROLL
        for (size_t k = 0; k < 8; k++)
            out[(n - 1 - i) * 8 + k] = (uint8_t)(a[i] >> (56 - 8 * k));
}

static inline void limbs_from_bytes_le(uint64_t *r, const uint8_t *in, size_t n)
{
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        CUZK_UNROLL
        for (size_t k = 0; k < 8; k++)
            v |= (uint64_t)in[i * 8 + k] << (8 * k);
        r[i] = v;
    }
}

static inline void limbs_to_bytes_le(uint8_t *out, const uint64_t *a, size_t n)
{
    CUZK_UNROLL
    for (size_t i = 0; i < n; i++)
        CUZK_UNROLL
        for (size_t k = 0; k < 8; k++)
            out[i * 8 + k] = (uint8_t)(a[i] >> (8 * k));
}

#endif /* CUZK_FF_MONT_H */
