/*
 * poly_internal.h — helpers shared by the files of src/poly (not part of the API).
 *
 * Threading: the parallel helpers split their loops over the pool given (NULL = inline);
 * each element is touched by one chunk only.
 *
 * Walking g^rev(i): for i with exactly tz trailing one bits, i+1 clears bits 0..tz-1 and
 * sets bit tz; in reversed order (bit b -> bit k-1-b) that is
 *   rev(i+1) = rev(i) - (2^k - 2^(k-tz)) + 2^(k-1-tz),
 * so g^rev(i+1) = g^rev(i) * step[tz] with step[tz] = g^(2^(k-1-tz)) * g^-(2^k - 2^(k-tz)).
 * One multiplication per element, and tz = ctz(i+1) < k for every i < n-1.
 */
#ifndef CUZK_POLY_INTERNAL_H
#define CUZK_POLY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/poly.h"

/* True when d looks initialised (convention set, n == 2^log2n within bounds). */
bool poly_domain_ok(const cuzk_domain *d);

/* k-bit reversal of i (k <= 32). */
static inline size_t poly_rev(size_t i, unsigned k)
{
    uint64_t x = i;
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
    x = (x >> 32) | (x << 32);
    return k == 0 ? 0 : (size_t)(x >> (64 - k));
}

/* Fills step[0..k) for shift g and its inverse ginv (see the comment at the top). */
void poly_revsteps(cuzk_fr step[], unsigned k, const cuzk_fr *g, const cuzk_fr *ginv);

/* a[i] *= c * g^rev_k(i) for i < 2^k, where step is poly_revsteps for g (each chunk starts
 * from a pow of g, then walks with step). */
cuzk_status poly_mul_powers_bitrev(cuzk_fr *a, unsigned k, const cuzk_fr *c, const cuzk_fr *g,
                                   const cuzk_fr *step, cuzk_pool *pool);

/* a[i] *= c for i < n. */
cuzk_status poly_mul_const(cuzk_fr *a, size_t n, const cuzk_fr *c, cuzk_pool *pool);

/* r = a^e for a 64-bit exponent. */
void poly_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e);

#endif
