/*
 * cuzk/pairing.h — the optimal ate pairing e: G1 x G2 -> GT (a subgroup of Fp12*) of
 * BLS12-381, used only for verification (variable-time; all inputs are public).
 *
 * e(P, Q) = final_exp(miller_loop(P, Q)). The product of several pairings shares one final
 * exponentiation (cuzk_pairing_multi_miller_loop), which is what Groth16 verification
 * needs: e(A,B) == e(alpha,beta) e(IC,gamma) e(C,delta) is checked as
 * e(-A,B) e(alpha,beta) e(IC,gamma) e(C,delta) == 1 with cuzk_pairing_check.
 *
 * Inputs are affine points assumed valid (decode them with the checked decoders). Pairs
 * with either point at infinity contribute 1.
 * Threading: pure functions on caller memory.
 */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* f = prod_i miller_loop(P_i, Q_i) (no final exponentiation). */
void cuzk_pairing_multi_miller_loop(cuzk_fp12 *f, const cuzk_g1_affine *p,
                                    const cuzk_g2_affine *q, size_t n);
void cuzk_pairing_final_exp(cuzk_fp12 *r, const cuzk_fp12 *f);
/* r = e(P, Q) */
void cuzk_pairing(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q);
/* true iff prod_i e(P_i, Q_i) == 1. n == 0 gives true. */
bool cuzk_pairing_check(const cuzk_g1_affine *p, const cuzk_g2_affine *q, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PAIRING_H */
