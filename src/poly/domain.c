/*
 * domain.c — radix-2 evaluation domains of Fr under the bellperson and snarkjs
 * conventions (roots of unity, coset shift, the constants each transform needs).
 *
 * Threading: init writes only the caller's struct; a filled domain is read-only.
 *
 * Fr: r - 1 = 2^32 * t with t odd,
 *   t = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff.
 * Both roots below are a^t for a quadratic non-residue a, hence of order exactly 2^32
 * (a^((r-1)/2) = -1 means (a^t)^(2^31) = -1). Recompute with python3:
 *   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 *   hex(pow(7, (r-1) >> 32, r)), hex(pow(5, (r-1) >> 32, r))
 * tests/unit/test_poly.c recomputes both with cuzk_fr_pow and checks the order.
 */
#include <string.h>

#include "poly/poly_internal.h"

#define FR_TWO_ADICITY 32u

/* 7^t: bellperson/blstrs Fr::ROOT_OF_UNITY (7 = Fr::MULTIPLICATIVE_GENERATOR), canonical
 * limbs, little-endian: 0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b */
static const uint64_t ROOT7_2_32[CUZK_FR_LIMBS] = {0x3829971f439f0d2bull, 0xb63683508c2280b9ull,
                                                   0xd09b681922c813b4ull, 0x16a2a19edfe81f20ull};
/* 5^t: ffjavascript's Fr.w[32] (5 = its nqr, the first non-residue counting up from 2),
 * 0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f */
static const uint64_t ROOT5_2_32[CUZK_FR_LIMBS] = {0x1b788f500b912f1full, 0xc4024ff270b3e094ull,
                                                   0x0fd56dc8d168d6c0ull, 0x0212d79e5b416b6full};
#define BELLPERSON_COSET_SHIFT 7u

void poly_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e) { cuzk_fr_pow(r, a, &e, 1); }

bool poly_domain_ok(const cuzk_domain *d)
{
    return d &&
           (d->convention == CUZK_DOMAIN_BELLPERSON || d->convention == CUZK_DOMAIN_SNARKJS) &&
           d->log2n <= CUZK_DOMAIN_MAX_LOG2 && d->n == (size_t)1 << d->log2n;
}

void poly_revsteps(cuzk_fr step[], unsigned k, const cuzk_fr *g, const cuzk_fr *ginv)
{
    /* gpow[b] = g^(2^b); the running product undo = ginv^(2^(k-1) + ... + 2^(k-tz)) */
    cuzk_fr gpow[CUZK_DOMAIN_MAX_LOG2], ginvpow[CUZK_DOMAIN_MAX_LOG2];
    if (k == 0)
        return;
    gpow[0] = *g;
    ginvpow[0] = *ginv;
    for (unsigned b = 1; b < k; b++) {
        cuzk_fr_sqr(&gpow[b], &gpow[b - 1]);
        cuzk_fr_sqr(&ginvpow[b], &ginvpow[b - 1]);
    }
    cuzk_fr undo = CUZK_FR_ONE;
    for (unsigned tz = 0; tz < k; tz++) {
        if (tz > 0)
            cuzk_fr_mul(&undo, &undo, &ginvpow[k - tz]);
        cuzk_fr_mul(&step[tz], &gpow[k - 1 - tz], &undo);
    }
}

/* Common part once omega (order n) and the shift are known. */
static void domain_fill(cuzk_domain *d, unsigned k, cuzk_domain_convention conv,
                        const cuzk_fr *omega, const cuzk_fr *shift)
{
    memset(d, 0, sizeof *d);
    d->log2n = k;
    d->n = (size_t)1 << k;
    d->convention = conv;
    d->omega = *omega;
    cuzk_fr_inv(&d->omega_inv, omega);
    d->shift = *shift;
    cuzk_fr_inv(&d->shift_inv, shift);
    cuzk_fr nfr;
    cuzk_fr_from_u64(&nfr, (uint64_t)d->n);
    cuzk_fr_inv(&d->n_inv, &nfr);
    cuzk_fr gn;
    poly_pow_u64(&gn, shift, (uint64_t)d->n);
    cuzk_fr_sub(&gn, &gn, &CUZK_FR_ONE);
    cuzk_fr_inv(&d->z_coset_inv, &gn); /* g^n != 1: g is outside <omega> in both conventions */

    /* in-block twiddles: omega_B = omega^(n/B) */
    unsigned logb = k < CUZK_NTT_BLOCK_LOG2 ? k : CUZK_NTT_BLOCK_LOG2;
    size_t half = ((size_t)1 << logb) >> 1;
    cuzk_fr wb, wbinv;
    poly_pow_u64(&wb, omega, (uint64_t)1 << (k - logb));
    poly_pow_u64(&wbinv, &d->omega_inv, (uint64_t)1 << (k - logb));
    if (half > 0) {
        d->tw_[0][0] = CUZK_FR_ONE;
        d->tw_[1][0] = CUZK_FR_ONE;
        for (size_t j = 1; j < half; j++) {
            cuzk_fr_mul(&d->tw_[0][j], &d->tw_[0][j - 1], &wb);
            cuzk_fr_mul(&d->tw_[1][j], &d->tw_[1][j - 1], &wbinv);
        }
    }
    poly_revsteps(d->revstep_[0], k, &d->shift, &d->shift_inv);
    poly_revsteps(d->revstep_[1], k, &d->shift_inv, &d->shift);
}

/* root32^(2^(32-e)): the primitive 2^e-th root in the chain of root32. */
static void root_of_order(cuzk_fr *r, const uint64_t root32[CUZK_FR_LIMBS], unsigned e)
{
    /* cannot fail: the constants are < r */
    (void)cuzk_fr_from_canonical(r, root32);
    for (unsigned i = e; i < FR_TWO_ADICITY; i++)
        cuzk_fr_sqr(r, r);
}

cuzk_status cuzk_domain_init_bellperson(cuzk_domain *d, unsigned log2n)
{
    if (!d)
        return CUZK_ERR_INVALID_ARG;
    if (log2n > CUZK_DOMAIN_MAX_LOG2)
        return CUZK_ERR_UNSUPPORTED;
    cuzk_fr omega, g;
    root_of_order(&omega, ROOT7_2_32, log2n);
    cuzk_fr_from_u64(&g, BELLPERSON_COSET_SHIFT);
    domain_fill(d, log2n, CUZK_DOMAIN_BELLPERSON, &omega, &g);
    return CUZK_OK;
}

cuzk_status cuzk_domain_init_snarkjs(cuzk_domain *d, unsigned log2n)
{
    if (!d)
        return CUZK_ERR_INVALID_ARG;
    if (log2n > CUZK_DOMAIN_MAX_LOG2)
        return CUZK_ERR_UNSUPPORTED;
    /* snarkjs groth16_prove: inc = Fr.w[power+1] (Fr.shift only when power == Fr.s = 32,
     * out of our range). */
    cuzk_fr omega, g;
    root_of_order(&omega, ROOT5_2_32, log2n);
    root_of_order(&g, ROOT5_2_32, log2n + 1);
    domain_fill(d, log2n, CUZK_DOMAIN_SNARKJS, &omega, &g);
    return CUZK_OK;
}

cuzk_status cuzk_domain_log2_for(size_t m, unsigned *log2n)
{
    if (!log2n)
        return CUZK_ERR_INVALID_ARG;
    unsigned k = 0;
    while (k <= CUZK_DOMAIN_MAX_LOG2 && ((size_t)1 << k) < m)
        k++;
    if (k > CUZK_DOMAIN_MAX_LOG2)
        return CUZK_ERR_UNSUPPORTED;
    *log2n = k;
    return CUZK_OK;
}
