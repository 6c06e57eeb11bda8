/*
 * cuzk/ec.h — the groups G1 (E: y^2 = x^3 + 4 over Fp) and G2 (E': y^2 = x^3 + 4(u+1) over
 * Fp2) of BLS12-381, in affine, Jacobian and XYZZ coordinates, and their encodings.
 *
 * Representation
 *   Coordinates are cuzk_fp / cuzk_fp2 in Montgomery form (see ff.h); the same bytes are
 *   used on the GPU.
 *   affine:   (x, y); the point at infinity is x = y = 0 (not on the curve, since b != 0).
 *   jacobian: (X, Y, Z) with x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
 *   xyzz:     (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity has ZZ = 0.
 *             Cheapest for bucket accumulation in MSM (mixed add 8M+2S).
 *
 * Validity
 *   Arithmetic assumes on-curve inputs and does not check; decoders and the explicit
 *   checks (on_curve, in_subgroup) are where untrusted data is validated. Subgroup checks
 *   use the endomorphisms (G1: sigma(P) == -[x^2]P, G2: psi(P) == [x]P), not [r]P.
 *
 * Constant time
 *   Scalar multiplications without _var are constant-time in the scalar; _var ones
 *   (wNAF + GLV/GLS) are for public scalars (verification, tests, MSM tails).
 *
 * Encodings (zcash / IETF, as used by Filecoin's .params/.vk/proofs)
 *   big-endian canonical coordinates; G2 puts c1 before c0; byte 0 carries flags:
 *   0x80 compressed, 0x40 infinity (all other bits zero), 0x20 sign (y lexicographically
 *   largest; compressed only). Compressed 48/96 bytes, uncompressed 96/192 bytes.
 *   Decoders take the input length and check it, the flags, canonical coordinates, the
 *   curve equation and the subgroup, returning a distinct cuzk_status for each failure.
 *   *_unchecked decoders skip the curve and subgroup checks (never the length, flag and
 *   canonicity checks): for trusted files only.
 *
 * Scratch: batch routines take caller scratch whose size (in elements) is documented.
 * Aliasing: outputs may alias inputs of the same type.
 * Threading: pure functions on caller memory; fixed-base tables are read-only after init
 * and may be shared between threads.
 */
#ifndef CUZK_EC_H
#define CUZK_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_g1_affine { cuzk_fp x, y; } cuzk_g1_affine;
typedef struct cuzk_g1_jac { cuzk_fp x, y, z; } cuzk_g1_jac;
typedef struct cuzk_g1_xyzz { cuzk_fp x, y, zz, zzz; } cuzk_g1_xyzz;

typedef struct cuzk_g2_affine { cuzk_fp2 x, y; } cuzk_g2_affine;
typedef struct cuzk_g2_jac { cuzk_fp2 x, y, z; } cuzk_g2_jac;
typedef struct cuzk_g2_xyzz { cuzk_fp2 x, y, zz, zzz; } cuzk_g2_xyzz;

#define CUZK_G1_COMPRESSED_BYTES 48
#define CUZK_G1_UNCOMPRESSED_BYTES 96
#define CUZK_G2_COMPRESSED_BYTES 96
#define CUZK_G2_UNCOMPRESSED_BYTES 192

/* The standard generators (same as zcash/IETF/noble). */
extern const cuzk_g1_affine CUZK_G1_GENERATOR;
extern const cuzk_g2_affine CUZK_G2_GENERATOR;

/* ---------------------------------------------------------------------------------------
 * G1
 * ------------------------------------------------------------------------------------- */
void cuzk_g1_affine_set_infinity(cuzk_g1_affine *p);
bool cuzk_g1_affine_is_infinity(const cuzk_g1_affine *p);
bool cuzk_g1_affine_on_curve(const cuzk_g1_affine *p);      /* infinity counts as on curve */
bool cuzk_g1_affine_in_subgroup(const cuzk_g1_affine *p);   /* assumes on curve */
bool cuzk_g1_affine_eq(const cuzk_g1_affine *a, const cuzk_g1_affine *b);
void cuzk_g1_affine_neg(cuzk_g1_affine *r, const cuzk_g1_affine *a);

void cuzk_g1_jac_set_infinity(cuzk_g1_jac *p);
bool cuzk_g1_jac_is_infinity(const cuzk_g1_jac *p);
void cuzk_g1_jac_from_affine(cuzk_g1_jac *r, const cuzk_g1_affine *a);
void cuzk_g1_jac_to_affine(cuzk_g1_affine *r, const cuzk_g1_jac *a);
bool cuzk_g1_jac_on_curve(const cuzk_g1_jac *p);
bool cuzk_g1_jac_in_subgroup(const cuzk_g1_jac *p);
bool cuzk_g1_jac_eq(const cuzk_g1_jac *a, const cuzk_g1_jac *b);  /* projective equality */
void cuzk_g1_jac_neg(cuzk_g1_jac *r, const cuzk_g1_jac *a);
void cuzk_g1_jac_dbl(cuzk_g1_jac *r, const cuzk_g1_jac *a);
/* Complete for all inputs: handles a == b, a == -b and infinities. */
void cuzk_g1_jac_add(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_g1_jac *b);
void cuzk_g1_jac_add_affine(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_g1_affine *b);
/* Scalar multiplication by an Fr element (canonical value used). */
/* Constant-time GLV (k = k1 + k2*lambda, signed windows, cmov table scans, complete
 * additions). Like blst's, correct only for points in G1 (the endomorphism acts as lambda
 * there); a point of unknown order gives a wrong result, not a crash. */
void cuzk_g1_jac_mul(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_fr *k);      /* CT */
/* GLV+wNAF; correct only for points in G1 (the endomorphism acts as lambda there). Points of
 * unknown order: use cuzk_g1_jac_mul_u64s_var. */
void cuzk_g1_jac_mul_var(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_fr *k);
/* Multiplication by an arbitrary-length integer (LE limbs), variable-time; used for
 * cofactor clearing and tests. */
void cuzk_g1_jac_mul_u64s_var(cuzk_g1_jac *r, const cuzk_g1_jac *a, const uint64_t *k,
                              size_t nlimbs);
/* One inversion for n points; scratch: n cuzk_fp. */
void cuzk_g1s_jac_to_affine(cuzk_g1_affine *r, const cuzk_g1_jac *a, size_t n,
                            cuzk_fp *scratch);

void cuzk_g1_xyzz_set_infinity(cuzk_g1_xyzz *p);
bool cuzk_g1_xyzz_is_infinity(const cuzk_g1_xyzz *p);
void cuzk_g1_xyzz_from_affine(cuzk_g1_xyzz *r, const cuzk_g1_affine *a);
void cuzk_g1_xyzz_to_jac(cuzk_g1_jac *r, const cuzk_g1_xyzz *a);
void cuzk_g1_xyzz_dbl(cuzk_g1_xyzz *r, const cuzk_g1_xyzz *a);
void cuzk_g1_xyzz_add(cuzk_g1_xyzz *r, const cuzk_g1_xyzz *a, const cuzk_g1_xyzz *b);
void cuzk_g1_xyzz_add_affine(cuzk_g1_xyzz *r, const cuzk_g1_xyzz *a, const cuzk_g1_affine *b);

/* Fixed-base multiplication with a precomputed comb table (e.g. for the generator in key
 * generation). cuzk_g1_fixed_table_size() bytes of caller memory hold the table. */
typedef struct cuzk_g1_fixed_table cuzk_g1_fixed_table;
size_t cuzk_g1_fixed_table_size(void);
cuzk_status cuzk_g1_fixed_table_init(cuzk_g1_fixed_table *t, const cuzk_g1_affine *base);
void cuzk_g1_fixed_mul(cuzk_g1_jac *r, const cuzk_g1_fixed_table *t, const cuzk_fr *k);

/*
 * Batched fixed-base multiplication for key generation (src/ec/fixed_batch_impl.h):
 * r[i] = k[i] * B, affine, from a table of w-bit signed windows (ceil(256/w) windows of
 * 2^(w-1) affine multiples; cuzk_g1_fixed_wide_size(w) bytes of caller memory, 0 when w
 * is outside [CUZK_FIXED_WIDE_MIN_W, CUZK_FIXED_WIDE_MAX_W]; w = 16: 48 MiB, w = 12:
 * 4.1 MiB). No doublings: about ceil(256/w) affine additions per point, 512 of them
 * sharing one inversion. VARIABLE-TIME in k (branches and table addresses follow the
 * digits): for a development setup only, never for secrets that must stay secret.
 * The table is read-only after init and may be shared by threads; each call needs
 * cuzk_g1s_fixed_mul_var_scratch_size() bytes of its own scratch, which it wipes.
 * Errors: CUZK_ERR_INVALID_ARG (NULL, bad w, base at infinity, short scratch).
 */
#define CUZK_FIXED_WIDE_MIN_W 2u
#define CUZK_FIXED_WIDE_MAX_W 20u
typedef struct cuzk_g1_fixed_wide cuzk_g1_fixed_wide;
size_t cuzk_g1_fixed_wide_size(unsigned w);
cuzk_status cuzk_g1_fixed_wide_init(cuzk_g1_fixed_wide *t, unsigned w,
                                    const cuzk_g1_affine *base);
size_t cuzk_g1s_fixed_mul_var_scratch_size(void);
cuzk_status cuzk_g1s_fixed_mul_var(cuzk_g1_affine *r, const cuzk_g1_fixed_wide *t,
                                   const cuzk_fr *k, size_t n, void *scratch,
                                   size_t scratch_size);

/* Encodings. */
void cuzk_g1_affine_to_zcash_compressed(uint8_t out[CUZK_G1_COMPRESSED_BYTES],
                                        const cuzk_g1_affine *p);
void cuzk_g1_affine_to_zcash_uncompressed(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES],
                                          const cuzk_g1_affine *p);
/* Accepts either form, told apart by the 0x80 flag; len must match that form. */
cuzk_status cuzk_g1_affine_from_zcash(cuzk_g1_affine *r, const uint8_t *in, size_t len,
                                      cuzk_error *err);
cuzk_status cuzk_g1_affine_from_zcash_compressed(cuzk_g1_affine *r, const uint8_t *in,
                                                 size_t len, cuzk_error *err);
cuzk_status cuzk_g1_affine_from_zcash_uncompressed(cuzk_g1_affine *r, const uint8_t *in,
                                                   size_t len, cuzk_error *err);
cuzk_status cuzk_g1_affine_from_zcash_uncompressed_unchecked(cuzk_g1_affine *r,
                                                             const uint8_t *in, size_t len,
                                                             cuzk_error *err);
/* snarkjs: x || y, each 48-byte little-endian Montgomery form; infinity is all zero. */
void cuzk_g1_affine_to_mont_le(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES], const cuzk_g1_affine *p);
cuzk_status cuzk_g1_affine_from_mont_le(cuzk_g1_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * G2 (same contract as G1)
 * ------------------------------------------------------------------------------------- */
void cuzk_g2_affine_set_infinity(cuzk_g2_affine *p);
bool cuzk_g2_affine_is_infinity(const cuzk_g2_affine *p);
bool cuzk_g2_affine_on_curve(const cuzk_g2_affine *p);
bool cuzk_g2_affine_in_subgroup(const cuzk_g2_affine *p);
bool cuzk_g2_affine_eq(const cuzk_g2_affine *a, const cuzk_g2_affine *b);
void cuzk_g2_affine_neg(cuzk_g2_affine *r, const cuzk_g2_affine *a);

void cuzk_g2_jac_set_infinity(cuzk_g2_jac *p);
bool cuzk_g2_jac_is_infinity(const cuzk_g2_jac *p);
void cuzk_g2_jac_from_affine(cuzk_g2_jac *r, const cuzk_g2_affine *a);
void cuzk_g2_jac_to_affine(cuzk_g2_affine *r, const cuzk_g2_jac *a);
bool cuzk_g2_jac_on_curve(const cuzk_g2_jac *p);
bool cuzk_g2_jac_in_subgroup(const cuzk_g2_jac *p);
bool cuzk_g2_jac_eq(const cuzk_g2_jac *a, const cuzk_g2_jac *b);
void cuzk_g2_jac_neg(cuzk_g2_jac *r, const cuzk_g2_jac *a);
void cuzk_g2_jac_dbl(cuzk_g2_jac *r, const cuzk_g2_jac *a);
void cuzk_g2_jac_add(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_g2_jac *b);
void cuzk_g2_jac_add_affine(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_g2_affine *b);
/* Constant-time 4-dimensional GLS (base-|x| digits, psi), correct only for points in G2
 * (psi acts as [x] there); points of unknown order: cuzk_g2_jac_mul_u64s_var. */
void cuzk_g2_jac_mul(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_fr *k);      /* CT */
/* GLS+wNAF; correct only for points in G2 (psi acts as [x] there). */
void cuzk_g2_jac_mul_var(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_fr *k);
void cuzk_g2_jac_mul_u64s_var(cuzk_g2_jac *r, const cuzk_g2_jac *a, const uint64_t *k,
                              size_t nlimbs);
/* psi, the untwist-Frobenius-twist endomorphism; acts as [x] (x = BLS parameter) on G2. */
void cuzk_g2_jac_psi(cuzk_g2_jac *r, const cuzk_g2_jac *a);
void cuzk_g2s_jac_to_affine(cuzk_g2_affine *r, const cuzk_g2_jac *a, size_t n,
                            cuzk_fp2 *scratch);

void cuzk_g2_xyzz_set_infinity(cuzk_g2_xyzz *p);
bool cuzk_g2_xyzz_is_infinity(const cuzk_g2_xyzz *p);
void cuzk_g2_xyzz_from_affine(cuzk_g2_xyzz *r, const cuzk_g2_affine *a);
void cuzk_g2_xyzz_to_jac(cuzk_g2_jac *r, const cuzk_g2_xyzz *a);
void cuzk_g2_xyzz_dbl(cuzk_g2_xyzz *r, const cuzk_g2_xyzz *a);
void cuzk_g2_xyzz_add(cuzk_g2_xyzz *r, const cuzk_g2_xyzz *a, const cuzk_g2_xyzz *b);
void cuzk_g2_xyzz_add_affine(cuzk_g2_xyzz *r, const cuzk_g2_xyzz *a, const cuzk_g2_affine *b);

typedef struct cuzk_g2_fixed_table cuzk_g2_fixed_table;
size_t cuzk_g2_fixed_table_size(void);
cuzk_status cuzk_g2_fixed_table_init(cuzk_g2_fixed_table *t, const cuzk_g2_affine *base);
void cuzk_g2_fixed_mul(cuzk_g2_jac *r, const cuzk_g2_fixed_table *t, const cuzk_fr *k);

/* Batched fixed-base multiplication, as for G1 (w = 16: 96 MiB). VARIABLE-TIME. */
typedef struct cuzk_g2_fixed_wide cuzk_g2_fixed_wide;
size_t cuzk_g2_fixed_wide_size(unsigned w);
cuzk_status cuzk_g2_fixed_wide_init(cuzk_g2_fixed_wide *t, unsigned w,
                                    const cuzk_g2_affine *base);
size_t cuzk_g2s_fixed_mul_var_scratch_size(void);
cuzk_status cuzk_g2s_fixed_mul_var(cuzk_g2_affine *r, const cuzk_g2_fixed_wide *t,
                                   const cuzk_fr *k, size_t n, void *scratch,
                                   size_t scratch_size);

void cuzk_g2_affine_to_zcash_compressed(uint8_t out[CUZK_G2_COMPRESSED_BYTES],
                                        const cuzk_g2_affine *p);
void cuzk_g2_affine_to_zcash_uncompressed(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES],
                                          const cuzk_g2_affine *p);
cuzk_status cuzk_g2_affine_from_zcash(cuzk_g2_affine *r, const uint8_t *in, size_t len,
                                      cuzk_error *err);
cuzk_status cuzk_g2_affine_from_zcash_compressed(cuzk_g2_affine *r, const uint8_t *in,
                                                 size_t len, cuzk_error *err);
cuzk_status cuzk_g2_affine_from_zcash_uncompressed(cuzk_g2_affine *r, const uint8_t *in,
                                                   size_t len, cuzk_error *err);
cuzk_status cuzk_g2_affine_from_zcash_uncompressed_unchecked(cuzk_g2_affine *r,
                                                             const uint8_t *in, size_t len,
                                                             cuzk_error *err);
/* snarkjs: x.c0 || x.c1 || y.c0 || y.c1, each 48-byte LE Montgomery; infinity all zero. */
void cuzk_g2_affine_to_mont_le(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES], const cuzk_g2_affine *p);
cuzk_status cuzk_g2_affine_from_mont_le(cuzk_g2_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_EC_H */
