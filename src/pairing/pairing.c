/*
 * pairing.c — e(P, Q) and the product check prod e(P_i, Q_i) == 1 on top of the Miller
 * loop and the final exponentiation. Variable-time (public inputs).
 * Threading: pure functions on caller memory.
 */
#include "cuzk/pairing.h"

void cuzk_pairing(cuzk_fp12 *r, const cuzk_g1_affine *p, const cuzk_g2_affine *q)
{
    cuzk_fp12 f;
    cuzk_pairing_multi_miller_loop(&f, p, q, 1);
    cuzk_pairing_final_exp(r, &f);
}

bool cuzk_pairing_check(const cuzk_g1_affine *p, const cuzk_g2_affine *q, size_t n)
{
    cuzk_fp12 f;
    cuzk_pairing_multi_miller_loop(&f, p, q, n);
    cuzk_pairing_final_exp(&f, &f);
    return cuzk_fp12_is_one(&f);
}
