/*
 * ec_scalar.c — scalar recodings for the G1/G2 multiplications (see ec_internal.h).
 * Threading: pure functions on caller memory.
 */
#include "ec/ec_internal.h"

size_t cuzk_ec_wnaf(int8_t *naf, const uint64_t *k, size_t nlimbs, unsigned w)
{
    /* Left-to-right in bit position with a carry instead of subtracting digits from a
     * bignum copy: the scalar stays read-only and no length-dependent buffer is needed.
     * Invariant: the value still to encode is (k >> pos) + carry. */
    const size_t nbits = 64 * nlimbs;
    const int64_t half = (int64_t)1 << (w - 1), full = (int64_t)1 << w;
    size_t len = 0;
    unsigned carry = 0;
    size_t pos = 0;
    for (size_t i = 0; i < nbits + 8; i++)
        naf[i] = 0;
    while (pos < nbits) {
        if ((unsigned)ec_scalar_bits(k, nlimbs, pos, 1) == carry) {
            /* (bit + carry) is even: digit 0, carry unchanged */
            pos++;
            continue;
        }
        int64_t v = (int64_t)ec_scalar_bits(k, nlimbs, pos, w) + carry;
        if (v >= half) {
            v -= full;
            carry = 1;
        } else {
            carry = 0;
        }
        naf[pos] = (int8_t)v;
        len = pos + 1;
        pos += w;
    }
    if (carry) {
        /* pos may have stepped past nbits by up to w-1 */
        naf[pos] = 1;
        len = pos + 1;
    }
    return len;
}

void cuzk_ec_signed_windows(int8_t *digits, size_t ndigits, const uint64_t *k, size_t nlimbs,
                            unsigned w)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < ndigits; i++) {
        uint64_t v = ec_scalar_bits(k, nlimbs, i * w, w) + carry;   /* in [0, 2^w] */
        /* v >= 2^(w-1)  <=>  (v + 2^(w-1)) >> w == 1, for v <= 2^w */
        carry = (v + ((uint64_t)1 << (w - 1))) >> w;
        digits[i] = (int8_t)((int64_t)v - (int64_t)(carry << w));
    }
}
