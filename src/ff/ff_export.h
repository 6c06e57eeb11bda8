/*
 * ff_export.h — the ff layer's internal interface for the layers above it (today the
 * pairing): not public API (not in include/cuzk, free to change with its users), but the
 * only ff header another layer may include (tests/lint/check_layers.sh enforces it).
 *
 * What it offers, all of it tower arithmetic the Miller loop and the final exponentiation
 * need at a finer grain than cuzk/ff.h gives:
 *   - the Fp2 operations as static inline functions (tower_fp2.h, brought in here with the
 *     limb back end it sits on), so the pairing's hot loops inline the whole Fp2 layer;
 *   - the sparse Fp6 products used by line multiplication, the Frobenius coefficients,
 *     and the variable-time Fp6/Fp12 inverses.
 * The ff files that implement these include this header too, so the declarations have one
 * home. Pure functions on caller memory; thread-safe.
 */
#ifndef CUZK_FF_EXPORT_H
#define CUZK_FF_EXPORT_H

#include "cuzk/ff.h"
#include "ff/tower_fp2.h"

/* Frobenius coefficients (frobenius_consts.c): v^(p^k) = CUZK_FROB6_C1[k] v,
 * v^(2 p^k) = CUZK_FROB6_C2[k] v^2, w^(p^k) = CUZK_FROB12_W[k] w. */
extern const cuzk_fp2 CUZK_FROB6_C1[6];
extern const cuzk_fp2 CUZK_FROB6_C2[6];
extern const cuzk_fp2 CUZK_FROB12_W[12];

/* r = a * (b0 + b1 v): 5 Fp2 multiplications instead of 6. */
void cuzk_fp6_mul_by_01(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b0,
                        const cuzk_fp2 *b1);
/* r = a * (b1 v): 3 Fp2 multiplications. */
void cuzk_fp6_mul_by_1(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b1);
/* r = a * s for s in Fp2 (coefficient-wise). */
void cuzk_fp6_mul_fp2(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *s);
/* Inverses through cuzk_fp_inv_var (public data only: pairing final exponentiation). */
void cuzk_fp6_inv_var(cuzk_fp6 *r, const cuzk_fp6 *a);
void cuzk_fp12_inv_var(cuzk_fp12 *r, const cuzk_fp12 *a);

#endif /* CUZK_FF_EXPORT_H */
