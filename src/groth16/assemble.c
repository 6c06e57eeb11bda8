/*
 * assemble.c — Groth16 proof assembly from the five MSM results and the blinding factors:
 * the part of finalize every backend shares, so CPU and GPU proofs are the same bytes for
 * the same (MSM results, r, s).
 *   A = alpha + A_msm + r delta1
 *   B = beta2 + B2_msm + s delta2
 *   C = s A_msm + r B1_msm + rs delta1 + s alpha + r beta1 + H + L
 *     = s * A + r * (beta1 + B1_msm) + H + L   (since s A = s alpha + s A_msm + rs delta1)
 * Constant-time in r and s (they and the proof together reveal the witness).
 * Threading: pure function of its arguments.
 */
#include "cuzk/groth16.h"

void cuzk_groth16_assemble(cuzk_groth16_proof *proof, const cuzk_groth16_vk *vk,
                           const cuzk_groth16_msm_results *m, const cuzk_fr *r,
                           const cuzk_fr *s)
{
    cuzk_g1_jac A, B1, C, t, d1;
    cuzk_g2_jac B, d2;
    cuzk_g1_jac_from_affine(&d1, &vk->delta_g1);
    cuzk_g1_jac_mul(&t, &d1, r);
    cuzk_g1_jac_add_affine(&A, &m->a, &vk->alpha_g1);
    cuzk_g1_jac_add(&A, &A, &t);
    cuzk_g2_jac_from_affine(&d2, &vk->delta_g2);
    cuzk_g2_jac_mul(&d2, &d2, s);
    cuzk_g2_jac_add_affine(&B, &m->b_g2, &vk->beta_g2);
    cuzk_g2_jac_add(&B, &B, &d2);
    cuzk_g1_jac_add_affine(&B1, &m->b_g1, &vk->beta_g1);
    cuzk_g1_jac_mul(&C, &A, s);
    cuzk_g1_jac_mul(&t, &B1, r);
    cuzk_g1_jac_add(&C, &C, &t);
    cuzk_g1_jac_add(&C, &C, &m->h);
    cuzk_g1_jac_add(&C, &C, &m->l);
    cuzk_g1_jac_to_affine(&proof->a, &A);
    cuzk_g2_jac_to_affine(&proof->b, &B);
    cuzk_g1_jac_to_affine(&proof->c, &C);
}
