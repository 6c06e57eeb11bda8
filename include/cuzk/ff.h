/*
 * cuzk/ff.h — finite fields of BLS12-381: Fp (381-bit base field), Fr (255-bit scalar
 * field) and the tower Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-(u+1)), Fp12 = Fp6[w]/(w^2-v).
 *
 * Representation
 *   cuzk_fp / cuzk_fr hold an element in Montgomery form (a*R mod m, R = 2^(64*limbs)),
 *   little-endian 64-bit limbs, always fully reduced (< m). The GPU uses the same bytes read
 *   as 32-bit limbs, so a host array can be copied to the device unchanged.
 *   "Canonical" means the plain integer (not Montgomery); functions that take or give the
 *   canonical value say so in their name (_from_canonical, _to_canonical, _bytes_*).
 *   The all-zero bit pattern is the element 0 in both forms.
 *
 * Constant time
 *   Everything is constant-time in the values of its operands unless its name ends in
 *   _var (variable-time: only for public data such as verification or decoding).
 *
 * Aliasing
 *   Every output may alias any input (r == a == b is fine).
 *
 * Threading: pure functions on caller memory; no global mutable state.
 *
 * Build paths: the portable C path (unsigned __int128) and the x86-64 path (mulx/adcx/adox,
 * selected by CUZK_ASM at build time) give bit-identical results. cuzk_ff_backend() names
 * the one compiled in.
 */
#ifndef CUZK_FF_H
#define CUZK_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_FP_LIMBS 6
#define CUZK_FR_LIMBS 4
#define CUZK_FP_BYTES 48
#define CUZK_FR_BYTES 32

typedef struct cuzk_fp { uint64_t l[CUZK_FP_LIMBS]; } cuzk_fp;
typedef struct cuzk_fr { uint64_t l[CUZK_FR_LIMBS]; } cuzk_fr;
typedef struct cuzk_fp2 { cuzk_fp c0, c1; } cuzk_fp2;          /* c0 + c1*u */
typedef struct cuzk_fp6 { cuzk_fp2 c0, c1, c2; } cuzk_fp6;     /* c0 + c1*v + c2*v^2 */
typedef struct cuzk_fp12 { cuzk_fp6 c0, c1; } cuzk_fp12;       /* c0 + c1*w */

/* "portable" or "x86-64-adx": which limb arithmetic this build uses. */
const char *cuzk_ff_backend(void);

/* ---------------------------------------------------------------------------------------
 * Fp
 * ------------------------------------------------------------------------------------- */
extern const cuzk_fp CUZK_FP_ZERO;
extern const cuzk_fp CUZK_FP_ONE;          /* Montgomery form of 1, i.e. R mod p */
extern const uint64_t CUZK_FP_MODULUS[CUZK_FP_LIMBS];  /* p, canonical limbs */

void cuzk_fp_add(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_sub(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_neg(cuzk_fp *r, const cuzk_fp *a);          /* -0 = 0 */
void cuzk_fp_dbl(cuzk_fp *r, const cuzk_fp *a);
void cuzk_fp_mul(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b);
void cuzk_fp_sqr(cuzk_fp *r, const cuzk_fp *a);
void cuzk_fp_mul_small(cuzk_fp *r, const cuzk_fp *a, uint64_t k); /* a*k, k < 2^32 */
void cuzk_fp_half(cuzk_fp *r, const cuzk_fp *a);          /* a/2 */
/* r = a^e, e given as little-endian 64-bit limbs (nlimbs of them); constant-time in a and
 * in the bits of e (e's length is public). */
void cuzk_fp_pow(cuzk_fp *r, const cuzk_fp *a, const uint64_t *e, size_t nlimbs);
/* Inverse; inv(0) = 0 (callers that care test is_zero first, or use the checked form). */
void cuzk_fp_inv(cuzk_fp *r, const cuzk_fp *a);          /* constant-time */
void cuzk_fp_inv_var(cuzk_fp *r, const cuzk_fp *a);      /* faster, variable-time */
/* Replaces a[i] by a[i]^-1 for all i using one inversion (Montgomery's trick). Zeros stay
 * zero and do not poison the others. scratch: n elements supplied by the caller. */
void cuzk_fps_inv_var(cuzk_fp *a, size_t n, cuzk_fp *scratch);
/* Legendre symbol: 1 (non-zero square), -1 (non-square), 0 (zero). */
int cuzk_fp_legendre(const cuzk_fp *a);
/* r = sqrt(a) if a is a square (returns true), unspecified r and false otherwise.
 * The root returned is the one cuzk_fp_sqrt chooses; use cuzk_fp_is_lexicographically_largest
 * to pick a sign. */
bool cuzk_fp_sqrt(cuzk_fp *r, const cuzk_fp *a);
bool cuzk_fp_is_zero(const cuzk_fp *a);
bool cuzk_fp_is_one(const cuzk_fp *a);
bool cuzk_fp_eq(const cuzk_fp *a, const cuzk_fp *b);
/* zcash "sign": canonical(a) > (p-1)/2 */
bool cuzk_fp_is_lexicographically_largest(const cuzk_fp *a);
/* r = cond ? b : a, constant-time. */
void cuzk_fp_cmov(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b, bool cond);

/* Canonical <-> Montgomery. from_canonical rejects limbs >= p with CUZK_ERR_NONCANONICAL. */
cuzk_status cuzk_fp_from_canonical(cuzk_fp *r, const uint64_t limbs[CUZK_FP_LIMBS]);
void cuzk_fp_to_canonical(uint64_t limbs[CUZK_FP_LIMBS], const cuzk_fp *a);
void cuzk_fp_from_u64(cuzk_fp *r, uint64_t v);
/* 48-byte canonical encodings; decoders reject values >= p (CUZK_ERR_NONCANONICAL). */
cuzk_status cuzk_fp_from_bytes_be(cuzk_fp *r, const uint8_t in[CUZK_FP_BYTES]);
cuzk_status cuzk_fp_from_bytes_le(cuzk_fp *r, const uint8_t in[CUZK_FP_BYTES]);
void cuzk_fp_to_bytes_be(uint8_t out[CUZK_FP_BYTES], const cuzk_fp *a);
void cuzk_fp_to_bytes_le(uint8_t out[CUZK_FP_BYTES], const cuzk_fp *a);
/* Montgomery-form raw limbs (snarkjs stores points this way, LE). Rejects >= p. */
cuzk_status cuzk_fp_from_mont_le(cuzk_fp *r, const uint8_t in[CUZK_FP_BYTES]);
void cuzk_fp_to_mont_le(uint8_t out[CUZK_FP_BYTES], const cuzk_fp *a);

/* ---------------------------------------------------------------------------------------
 * Fr (same contract as Fp)
 * ------------------------------------------------------------------------------------- */
extern const cuzk_fr CUZK_FR_ZERO;
extern const cuzk_fr CUZK_FR_ONE;
extern const uint64_t CUZK_FR_MODULUS[CUZK_FR_LIMBS];

void cuzk_fr_add(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_sub(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_neg(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_dbl(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_sqr(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_pow(cuzk_fr *r, const cuzk_fr *a, const uint64_t *e, size_t nlimbs);
void cuzk_fr_inv(cuzk_fr *r, const cuzk_fr *a);
void cuzk_fr_inv_var(cuzk_fr *r, const cuzk_fr *a);
void cuzk_frs_inv_var(cuzk_fr *a, size_t n, cuzk_fr *scratch);
int cuzk_fr_legendre(const cuzk_fr *a);
bool cuzk_fr_sqrt(cuzk_fr *r, const cuzk_fr *a);
bool cuzk_fr_is_zero(const cuzk_fr *a);
bool cuzk_fr_is_one(const cuzk_fr *a);
bool cuzk_fr_eq(const cuzk_fr *a, const cuzk_fr *b);
void cuzk_fr_cmov(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b, bool cond);
cuzk_status cuzk_fr_from_canonical(cuzk_fr *r, const uint64_t limbs[CUZK_FR_LIMBS]);
void cuzk_fr_to_canonical(uint64_t limbs[CUZK_FR_LIMBS], const cuzk_fr *a);
void cuzk_fr_from_u64(cuzk_fr *r, uint64_t v);
cuzk_status cuzk_fr_from_bytes_be(cuzk_fr *r, const uint8_t in[CUZK_FR_BYTES]);
cuzk_status cuzk_fr_from_bytes_le(cuzk_fr *r, const uint8_t in[CUZK_FR_BYTES]);
void cuzk_fr_to_bytes_be(uint8_t out[CUZK_FR_BYTES], const cuzk_fr *a);
void cuzk_fr_to_bytes_le(uint8_t out[CUZK_FR_BYTES], const cuzk_fr *a);
cuzk_status cuzk_fr_from_mont_le(cuzk_fr *r, const uint8_t in[CUZK_FR_BYTES]);
void cuzk_fr_to_mont_le(uint8_t out[CUZK_FR_BYTES], const cuzk_fr *a);
/* Reduces an arbitrary 64-byte little-endian integer mod r (uniform scalars from a hash or
 * RNG output). */
void cuzk_fr_from_bytes_wide_le(cuzk_fr *r, const uint8_t in[64]);

/* ---------------------------------------------------------------------------------------
 * Fp2 = Fp[u]/(u^2 + 1)
 * ------------------------------------------------------------------------------------- */
extern const cuzk_fp2 CUZK_FP2_ZERO;
extern const cuzk_fp2 CUZK_FP2_ONE;

void cuzk_fp2_add(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_sub(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_neg(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_dbl(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_conj(cuzk_fp2 *r, const cuzk_fp2 *a);      /* c0 - c1*u */
void cuzk_fp2_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b);
void cuzk_fp2_sqr(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_mul_fp(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp *b);
void cuzk_fp2_mul_by_nonresidue(cuzk_fp2 *r, const cuzk_fp2 *a); /* a*(u+1) */
void cuzk_fp2_inv(cuzk_fp2 *r, const cuzk_fp2 *a);       /* inv(0) = 0 */
void cuzk_fp2_inv_var(cuzk_fp2 *r, const cuzk_fp2 *a);
void cuzk_fp2_pow(cuzk_fp2 *r, const cuzk_fp2 *a, const uint64_t *e, size_t nlimbs);
void cuzk_fp2_frobenius(cuzk_fp2 *r, const cuzk_fp2 *a); /* a^p = conj(a) */
int cuzk_fp2_legendre(const cuzk_fp2 *a);
bool cuzk_fp2_sqrt(cuzk_fp2 *r, const cuzk_fp2 *a);
bool cuzk_fp2_is_zero(const cuzk_fp2 *a);
bool cuzk_fp2_is_one(const cuzk_fp2 *a);
bool cuzk_fp2_eq(const cuzk_fp2 *a, const cuzk_fp2 *b);
/* zcash G2 sign rule: compare c1; if c1 == 0 compare c0. */
bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2 *a);
void cuzk_fp2_cmov(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b, bool cond);

/* ---------------------------------------------------------------------------------------
 * Fp6 = Fp2[v]/(v^3 - (u+1)),  Fp12 = Fp6[w]/(w^2 - v)
 * ------------------------------------------------------------------------------------- */
extern const cuzk_fp6 CUZK_FP6_ZERO;
extern const cuzk_fp6 CUZK_FP6_ONE;
extern const cuzk_fp12 CUZK_FP12_ONE;

void cuzk_fp6_add(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_sub(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_neg(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp6_mul(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b);
void cuzk_fp6_sqr(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp6_mul_by_nonresidue(cuzk_fp6 *r, const cuzk_fp6 *a); /* a*v */
void cuzk_fp6_inv(cuzk_fp6 *r, const cuzk_fp6 *a);
/* r = a^(p^k) for k in 0..5 */
void cuzk_fp6_frobenius(cuzk_fp6 *r, const cuzk_fp6 *a, unsigned k);
bool cuzk_fp6_eq(const cuzk_fp6 *a, const cuzk_fp6 *b);
bool cuzk_fp6_is_zero(const cuzk_fp6 *a);

void cuzk_fp12_add(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_sub(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_mul(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b);
void cuzk_fp12_sqr(cuzk_fp12 *r, const cuzk_fp12 *a);
/* Squaring for elements of the cyclotomic subgroup (after the final exponentiation's easy
 * part); wrong for general elements. */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12 *r, const cuzk_fp12 *a);
void cuzk_fp12_inv(cuzk_fp12 *r, const cuzk_fp12 *a);
void cuzk_fp12_conj(cuzk_fp12 *r, const cuzk_fp12 *a); /* a^(p^6); the inverse in the cyclotomic subgroup */
/* r = a^(p^k) for k in 0..11 */
void cuzk_fp12_frobenius(cuzk_fp12 *r, const cuzk_fp12 *a, unsigned k);
void cuzk_fp12_pow(cuzk_fp12 *r, const cuzk_fp12 *a, const uint64_t *e, size_t nlimbs);
bool cuzk_fp12_eq(const cuzk_fp12 *a, const cuzk_fp12 *b);
bool cuzk_fp12_is_one(const cuzk_fp12 *a);
/* Sparse multiplication by a line c0 + c1*v + c4*v*w (the shape produced by the M-type
 * twist of BLS12-381 in the Miller loop); r = a * line. */
void cuzk_fp12_mul_by_014(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp2 *c0,
                          const cuzk_fp2 *c1, const cuzk_fp2 *c4);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_FF_H */
