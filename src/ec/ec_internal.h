/*
 * ec_internal.h — scalar recodings shared by G1 and G2 (internal to src/ec).
 *
 * Scalars are little-endian 64-bit limbs of the canonical integer. Two recodings:
 *   - width-w NAF (variable-time; for public scalars in the _var multiplications),
 *   - fixed-length signed windows (constant-time; every digit is computed with the same
 *     instruction sequence, so the constant-time scalar multiplications can use them).
 * Threading: pure functions on caller memory.
 */
#ifndef CUZK_EC_INTERNAL_H
#define CUZK_EC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Bits [pos, pos+n) of k (n <= 57), zero beyond the last limb. Constant-time in k's
 * values (the limb indices depend only on pos). */
static inline uint64_t ec_scalar_bits(const uint64_t *k, size_t nlimbs, size_t pos, unsigned n)
{
    size_t li = pos / 64;
    unsigned sh = (unsigned)(pos % 64);
    uint64_t lo = li < nlimbs ? k[li] >> sh : 0;
    uint64_t hi = (sh != 0 && li + 1 < nlimbs) ? k[li + 1] << (64 - sh) : 0;
    return (lo | hi) & (((uint64_t)1 << n) - 1);
}

/* Clears secret scalar material; the volatile stores keep the compiler from dropping them
 * as dead (memset on a local that is never read again may be elided). */
static inline void ec_wipe(void *p, size_t n)
{
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (n--)
        *v++ = 0;
}

/*
 * Width-w NAF of k (2 <= w <= 7): naf[i] is 0 or odd with |naf[i]| < 2^(w-1), and any w
 * consecutive digits hold at most one non-zero. naf needs 64*nlimbs + 8 entries (the final
 * carry can land up to w-1 places past the top bit); all of them are written. Returns the length up to the highest non-zero digit (0 when k == 0).
 * Variable-time.
 */
size_t cuzk_ec_wnaf(int8_t *naf, const uint64_t *k, size_t nlimbs, unsigned w);

/*
 * Signed fixed windows: k = sum digits[i] * 2^(w*i) with digits[i] in [-2^(w-1), 2^(w-1)].
 * Needs k < 2^(w*ndigits - 1), so that the last carry is absorbed (the top window then
 * holds at most 2^(w-1) - 1 plus a carry of 1). Bits past the last limb read as zero, so
 * ndigits*w may exceed 64*nlimbs. Constant-time in k.
 */
void cuzk_ec_signed_windows(int8_t *digits, size_t ndigits, const uint64_t *k, size_t nlimbs,
                            unsigned w);

#endif /* CUZK_EC_INTERNAL_H */
