/*
 * verify.c — Groth16 verification with a prepared verifying key: single proofs as one
 * 3-pair multi-Miller loop, batches as a random linear combination (bellperson's
 * verify_proofs_batch) with n + 2 pairs and one final exponentiation.
 *
 * Single:  e(A, B) * e(IC, -gamma) * e(C, -delta) == e(alpha, beta),
 *          IC = ic[0] + sum_i x_i ic[i+1].
 * Batch:   with random 128-bit z_k,
 *          prod_k e(z_k A_k, B_k) * e(sum_k z_k IC_k, -gamma) * e(sum_k z_k C_k, -delta)
 *          == e(alpha, beta)^(sum_k z_k).
 *          A forged proof passes only if the z_k hit a root of a non-zero linear relation:
 *          probability 2^-128.
 *
 * All data is public, so the variable-time scalar multiplications are used; given scratch,
 * IC's sum is a Pippenger MSM from 32 inputs up. Nothing here allocates.
 * Threading: pure functions of their arguments (batch draws from getrandom); the _pool
 * variant spreads IC's MSM over the pool.
 */
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"
#include "groth16/groth16_internal.h"
#include "util/util_export.h"

/* From this many public inputs up, IC's sum is one Pippenger MSM (in the caller's scratch)
 * rather than a variable-time multiplication per input. Why: a 32 GiB WindowPoSt partition
 * has 25,839 inputs (2,349 comm_r and 23,490 challenged leaf indices): one multiplication
 * each took 1.4 s on one core of V, and every WindowPoSt proof's self-check paid it. */
#define IC_MSM_MIN 32

/* acc = ic[0] + sum_i x_i ic[i+1]: with scratch (the caller checked its size) one MSM
 * over pool (NULL: the caller's thread), without it the plain loop. */
static void public_input_sum(cuzk_g1_jac *acc, const cuzk_groth16_pvk *pvk, const cuzk_fr *x,
                             void *scratch, size_t scratch_size, cuzk_pool *pool)
{
    size_t n = pvk->n_ic - 1;
    cuzk_g1_jac_from_affine(acc, &pvk->ic[0]);
    cuzk_g1_jac sum;
    if (scratch &&
        cuzk_g1s_msm(&sum, pvk->ic + 1, x, n, scratch, scratch_size, pool) == CUZK_OK) {
        cuzk_g1_jac_add(acc, acc, &sum);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        cuzk_g1_jac p, t;
        cuzk_g1_jac_from_affine(&p, &pvk->ic[i + 1]);
        cuzk_g1_jac_mul_var(&t, &p, &x[i]);
        cuzk_g1_jac_add(acc, acc, &t);
    }
}

static cuzk_status check_args(const cuzk_groth16_pvk *pvk, const cuzk_fr *x, size_t n,
                              cuzk_error *err)
{
    if (!pvk || !pvk->ic || pvk->n_ic == 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 verify: key not prepared");
    if (n != pvk->n_ic - 1)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 verify: %zu public inputs given, the key takes %zu", n,
                              pvk->n_ic - 1);
    if (n && !x)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 verify: inputs are NULL");
    /* the proof and key points reach the Miller loop's own VERIFY checks */
    CUZK_VERIFY_CHECK(verify_first_unreduced(x ? x->l : NULL, n, CUZK_FR_MODULUS,
                                             CUZK_FR_LIMBS) == SIZE_MAX,
                      "public input %zu of %zu is not reduced",
                      verify_first_unreduced(x ? x->l : NULL, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS),
                      n);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify(const cuzk_groth16_pvk *pvk, const cuzk_fr *public_inputs,
                                size_t n, const cuzk_groth16_proof *proof, cuzk_error *err)
{
    return cuzk_groth16_verify_pool(pvk, public_inputs, n, proof, NULL, 0, NULL, err);
}

size_t cuzk_groth16_verify_scratch_size(const cuzk_groth16_pvk *pvk, unsigned nthreads)
{
    if (!pvk || pvk->n_ic <= IC_MSM_MIN)
        return 0;
    return cuzk_g1s_msm_scratch_size(pvk->n_ic - 1, nthreads ? nthreads : 1);
}

cuzk_status cuzk_groth16_verify_pool(const cuzk_groth16_pvk *pvk, const cuzk_fr *public_inputs,
                                     size_t n, const cuzk_groth16_proof *proof, void *scratch,
                                     size_t scratch_size, cuzk_pool *pool, cuzk_error *err)
{
    cuzk_status st = check_args(pvk, public_inputs, n, err);
    if (st != CUZK_OK)
        return st;
    if (!proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 verify: proof is NULL");
    size_t need = cuzk_groth16_verify_scratch_size(pvk, cuzk_pool_nthreads(pool));
    if (scratch && scratch_size < need)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 verify: scratch of %zu bytes, %zu needed", scratch_size,
                              need);
    if (!need)
        scratch = NULL;
    cuzk_g1_jac acc;
    public_input_sum(&acc, pvk, public_inputs, scratch, scratch_size, pool);
    cuzk_g1_affine p[3];
    cuzk_g2_affine q[3];
    p[0] = proof->a;
    q[0] = proof->b;
    cuzk_g1_jac_to_affine(&p[1], &acc);
    q[1] = pvk->neg_gamma_g2;
    p[2] = proof->c;
    q[2] = pvk->neg_delta_g2;
    cuzk_fp12 f, e;
    cuzk_pairing_multi_miller_loop(&f, p, q, 3);
    cuzk_pairing_final_exp(&e, &f);
    if (!cuzk_fp12_eq(&e, &pvk->alpha_beta))
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF, "groth16 proof does not verify");
    return CUZK_OK;
}

size_t cuzk_groth16_verify_batch_scratch_size(size_t n_proofs)
{
    size_t pairs = n_proofs + 2;
    if (n_proofs > SIZE_MAX / 4 / (sizeof(cuzk_g1_affine) + sizeof(cuzk_g2_affine)))
        return 0;
    return pairs * (sizeof(cuzk_g1_affine) + sizeof(cuzk_g2_affine));
}

cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_pvk *pvk,
                                      const cuzk_fr *public_inputs, size_t n_inputs,
                                      const cuzk_groth16_proof *proofs, size_t n_proofs,
                                      void *scratch, size_t scratch_size, cuzk_error *err)
{
    if (n_proofs == 0 && pvk && pvk->ic && n_inputs + 1 == pvk->n_ic)
        return CUZK_OK; /* the empty batch is valid */
    cuzk_status st = check_args(pvk, public_inputs, n_inputs, err);
    if (st != CUZK_OK)
        return st;
    if (!proofs || !scratch || scratch_size < cuzk_groth16_verify_batch_scratch_size(n_proofs))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 verify batch: NULL proofs or scratch too small");
    size_t pairs = n_proofs + 2;
    /* scratch holds the pairs; G2 points first (larger alignment needs are the same) */
    cuzk_g2_affine *q = scratch;
    cuzk_g1_affine *p = (cuzk_g1_affine *)(q + pairs);

    cuzk_g1_jac ic_acc, c_acc;
    cuzk_g1_jac_set_infinity(&ic_acc);
    cuzk_g1_jac_set_infinity(&c_acc);
    cuzk_fr zsum = CUZK_FR_ZERO;
    for (size_t k = 0; k < n_proofs; k++) {
        uint8_t rnd[16];
        if ((st = g16_random_bytes(rnd, sizeof rnd, err)) != CUZK_OK)
            return st;
        uint64_t limbs[CUZK_FR_LIMBS] = {0};
        memcpy(&limbs[0], rnd, 8);
        memcpy(&limbs[1], rnd + 8, 8);
        limbs[0] |= 1; /* z_k != 0 so no proof drops out of the combination */
        cuzk_fr z;
        if (cuzk_fr_from_canonical(&z, limbs) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "batch verify: scalar out of range");
        cuzk_fr_add(&zsum, &zsum, &z);

        cuzk_g1_jac t, u;
        cuzk_g1_jac_from_affine(&t, &proofs[k].a);
        cuzk_g1_jac_mul_var(&t, &t, &z);
        cuzk_g1_jac_to_affine(&p[k], &t);
        q[k] = proofs[k].b;

        public_input_sum(&t, pvk, public_inputs + k * n_inputs, NULL, 0, NULL);
        cuzk_g1_jac_mul_var(&t, &t, &z);
        cuzk_g1_jac_add(&ic_acc, &ic_acc, &t);

        cuzk_g1_jac_from_affine(&u, &proofs[k].c);
        cuzk_g1_jac_mul_var(&u, &u, &z);
        cuzk_g1_jac_add(&c_acc, &c_acc, &u);
    }
    cuzk_g1_jac_to_affine(&p[n_proofs], &ic_acc);
    q[n_proofs] = pvk->neg_gamma_g2;
    cuzk_g1_jac_to_affine(&p[n_proofs + 1], &c_acc);
    q[n_proofs + 1] = pvk->neg_delta_g2;

    cuzk_fp12 f, e, rhs;
    cuzk_pairing_multi_miller_loop(&f, p, q, pairs);
    cuzk_pairing_final_exp(&e, &f);
    uint64_t zl[CUZK_FR_LIMBS];
    cuzk_fr_to_canonical(zl, &zsum);
    cuzk_fp12_pow(&rhs, &pvk->alpha_beta, zl, CUZK_FR_LIMBS);
    if (!cuzk_fp12_eq(&e, &rhs))
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "groth16 batch of %zu proofs does not verify", n_proofs);
    return CUZK_OK;
}
