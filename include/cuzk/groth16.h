/*
 * cuzk/groth16.h — Groth16 over BLS12-381: proving and verifying keys, the prover (split
 * into start + finalize, the split the GPU backend uses), verification (single and batch)
 * and a development-only trusted setup.
 *
 * Keys and flavours
 *   A proving key (cuzk_groth16_pk) is the verifying key plus the point vectors h, l, a,
 *   b_g1, b_g2. How H and the a/b vectors are laid out depends on where the key came from:
 *   - CUZK_GROTH16_BELLPERSON (Filecoin .params): a, b_g1, b_g2 are filtered by density:
 *     a = [every input 0..n_inputs) ++ [aux j whose A column is non-zero], b = [inputs and
 *     aux whose B column is non-zero], in variable order; l has one point per aux variable;
 *     h[i] = tau^i t(tau)/delta for i < n-1. The prover takes H's coefficients (domain with
 *     omega from 7, coset shift 7, division by Z on the coset).
 *   - CUZK_GROTH16_SNARKJS (.zkey): a, b_g1, b_g2 have one point per variable (infinity
 *     where unused); l is the zkey's C vector (one per aux variable); h[j] is the Lagrange
 *     basis of the 2n domain at tau at the odd index 2j+1, over delta (n of them). The
 *     prover takes A*B - C evaluated at the odd 2n-th roots (5-based roots), no division.
 *   Both flavours bind the public inputs with extra rows appended after the circuit's own
 *   constraints: row m + i reads "var_i * 0 = 0" for i = 0..n_public (ONE included), A
 *   having coefficient 1 on var_i. When pk->append_input_rows is true the prover adds these
 *   rows itself (the r1cs holds only the circuit's rows, as the builder and .r1cs files
 *   give them); a key whose r1cs already holds them sets it false. The domain size n is the
 *   next power of two >= rows (circuit rows + input rows).
 *
 * Variables follow cuzk/r1cs.h: 0 = ONE, 1..n_public public inputs, then aux. Public
 *   inputs passed to verify exclude ONE (bellperson order: variable 1, 2, ...).
 *
 * Proof assembly (both flavours; algebraically the same as bellman's and snarkjs's):
 *   A = alpha + sum a_i w_i + r delta1,  B = beta2 + sum b_i w_i + s delta2,
 *   C = s A_msm + r B1_msm + rs delta1 + s alpha + r beta1 + H_msm + L_msm.
 *
 * Memory: keys own their arrays (cuzk_groth16_pk_free / _vk_free). The prover allocates
 *   nothing: cuzk_groth16_prove_scratch_size(pk, r1cs, nthreads) bytes of caller scratch
 *   hold the a/b/c evaluations, gathered scalars, the 0/1 split and the MSM scratch (measured:
 *   9.5 field elements per domain point at n = 2^16, single thread). Verification needs no allocation except batch verification,
 *   which takes caller scratch too.
 *
 * Threading: keys are read-only after construction and may be shared. A prover state is
 *   used by one thread; the pool argument spreads the NTTs and MSMs over its workers.
 *
 * Randomness: cuzk_groth16_prove and cuzk_groth16_setup_dev draw from getrandom(2). The
 *   fixed-r/s path (cuzk_groth16_prove_finalize with given r, s) exists for tests and for
 *   the GPU backend, which draws r and s the same way.
 */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_groth16_flavour {
    CUZK_GROTH16_BELLPERSON = 1,
    CUZK_GROTH16_SNARKJS = 2,
} cuzk_groth16_flavour;

typedef struct cuzk_groth16_vk {
    cuzk_g1_affine alpha_g1, beta_g1, delta_g1;
    cuzk_g2_affine beta_g2, gamma_g2, delta_g2;
    size_t n_ic;          /* 1 + number of public inputs */
    cuzk_g1_affine *ic;   /* owned; ic[0] belongs to ONE */
} cuzk_groth16_vk;

typedef struct cuzk_groth16_pk {
    cuzk_groth16_flavour flavour;
    cuzk_groth16_vk vk;
    unsigned log2n;          /* evaluation domain size n = 2^log2n */
    bool append_input_rows;  /* prover appends var_i * 0 = 0 for i < vk.n_ic (see above) */
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cuzk_g1_affine *h, *l, *a, *b_g1; /* owned */
    cuzk_g2_affine *b_g2;             /* owned */
    /* Set by cuzk_groth16_pk_random only: the points are random, no proof made with the key
     * verifies, and the self-check says so at once (CUZK_ERR_INVALID_PROOF) instead of
     * diagnosing, which would scan the circuit and check every key point (minutes at
     * 2^27). Loaders leave it false. */
    bool benchmark_only;
} cuzk_groth16_pk;

typedef struct cuzk_groth16_proof {
    cuzk_g1_affine a;
    cuzk_g2_affine b;
    cuzk_g1_affine c;
} cuzk_groth16_proof;

/* Prepared verifying key: e(alpha, beta) and the negated G2 points, so a verification is
 * e(A, B) * e(IC, -gamma) * e(C, -delta) == e(alpha, beta): one 3-pair Miller loop and one
 * final exponentiation. It points at the vk's ic array (does not copy it): keep the vk. */
typedef struct cuzk_groth16_pvk {
    cuzk_fp12 alpha_beta;
    cuzk_g2_affine neg_gamma_g2, neg_delta_g2;
    size_t n_ic;
    const cuzk_g1_affine *ic;
} cuzk_groth16_pvk;

/* ---------------------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------------------- */

/* Allocates vk->ic for n_ic points (other fields untouched, ic zeroed = infinity). */
cuzk_status cuzk_groth16_vk_alloc(cuzk_groth16_vk *vk, size_t n_ic, cuzk_error *err);
void cuzk_groth16_vk_free(cuzk_groth16_vk *vk); /* frees ic; NULL or zeroed is a no-op */

/* Allocates pk's vectors for the given counts (zeroed = infinity) and the vk's ic; the
 * scalar fields (flavour, log2n, ...) are the caller's to set. */
cuzk_status cuzk_groth16_pk_alloc(cuzk_groth16_pk *pk, size_t n_ic, size_t n_h, size_t n_l,
                                  size_t n_a, size_t n_b, cuzk_error *err);
void cuzk_groth16_pk_free(cuzk_groth16_pk *pk);

/* Copies the vk (deep: ic is allocated). */
cuzk_status cuzk_groth16_vk_copy(cuzk_groth16_vk *dst, const cuzk_groth16_vk *src,
                                 cuzk_error *err);
bool cuzk_groth16_vk_eq(const cuzk_groth16_vk *a, const cuzk_groth16_vk *b);
bool cuzk_groth16_pk_eq(const cuzk_groth16_pk *a, const cuzk_groth16_pk *b);

/* Prepares pvk from vk (one pairing). Errors: CUZK_ERR_INVALID_ARG for NULL / empty ic. */
cuzk_status cuzk_groth16_pvk_prepare(cuzk_groth16_pvk *pvk, const cuzk_groth16_vk *vk);

/* A key of the right shape for r1cs (append_input_rows set) whose points are random group
 * elements from the seed, NOT a setup: its proofs do not verify. For benchmarks at sizes
 * where a setup is out of reach (src/groth16/key_random.c says how the points are made).
 * Allocates pk's vectors; parallel on pool. */
cuzk_status cuzk_groth16_pk_random(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                   cuzk_groth16_flavour flavour, uint64_t seed,
                                   cuzk_pool *pool, cuzk_error *err);

/* n random-looking group elements from the seed (the building block of the random key;
 * also the MSM benchmarks' bases). Parallel on pool; allocates two small tables. */
cuzk_status cuzk_g1s_fill_random(cuzk_g1_affine *p, size_t n, uint64_t seed, cuzk_pool *pool,
                                 cuzk_error *err);
cuzk_status cuzk_g2s_fill_random(cuzk_g2_affine *p, size_t n, uint64_t seed, cuzk_pool *pool,
                                 cuzk_error *err);

/* Checks that pk fits r1cs: input count, aux count, domain size and, for BELLPERSON, the
 * a/b counts against the r1cs density bitmaps. CUZK_ERR_FORMAT with the mismatch named. */
cuzk_status cuzk_groth16_pk_check_circuit(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                          cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Proving
 * ------------------------------------------------------------------------------------- */

/* The prover's state between start and finalize. Fields are private to src/groth16; the
 * pk, r1cs, witness values and scratch must stay alive and untouched until finalize. */
typedef struct cuzk_groth16_prover_state {
    const cuzk_groth16_pk *pk_;
    const cuzk_r1cs *r1cs_;
    cuzk_witness w_;
    cuzk_pool *pool_;
    void *scratch_;
    size_t scratch_size_;
    cuzk_g1_jac h_, l_, a_, b_g1_; /* the MSM results start computes */
    int started_;
} cuzk_groth16_prover_state;

/* Bytes of scratch a prove of r1cs under pk needs with a pool of nthreads participants
 * (0 if pk and r1cs do not fit together; cuzk_groth16_pk_check_circuit says why). */
size_t cuzk_groth16_prove_scratch_size(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                       size_t nthreads);
/* The same from a key's sizes alone: only flavour, log2n and the vector lengths n_h, n_l,
 * n_a, n_b_g1, n_b_g2 of `sizes` are read (no points, no circuit, no check), so a memory
 * plan can reserve it before the key exists. 0 on sizes too large to lay out. */
size_t cuzk_groth16_prove_scratch_size_for(const cuzk_groth16_pk *sizes, size_t nthreads);

/*
 * Everything the GPU backend will do: a/b/c = A.w, B.w, C.w plus the input rows and the
 * satisfaction check, in one parallel pass (CUZK_ERR_UNSATISFIED naming the lowest failing
 * constraint, no values; nothing else is computed then), H by the flavour's NTT recipe,
 * and the H, L, A and B_G1 MSMs (0/1 split where the witness is mostly bits). An r1cs
 * without C (r1cs->c_absent, a .zkey's) is accepted for SNARKJS keys only: c = a*b row by
 * row, no check, so only the self-check can catch a bad witness. On success *state is
 * ready for finalize. The proof finalize makes is not yet checked: run
 * cuzk_groth16_proof_selfcheck (cuzk_groth16_prove does) before handing it out.
 */
cuzk_status cuzk_groth16_prove_start(cuzk_groth16_prover_state *state,
                                     const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                     const cuzk_witness *w, void *scratch, size_t scratch_size,
                                     cuzk_pool *pool, cuzk_error *err);

/* The B_G2 MSM and the proof assembly with the given blinding factors r, s. Consumes the
 * state (a second finalize is CUZK_ERR_INVALID_ARG). Deterministic in (state, r, s). */
cuzk_status cuzk_groth16_prove_finalize(cuzk_groth16_prover_state *state, const cuzk_fr *r,
                                        const cuzk_fr *s, cuzk_groth16_proof *proof,
                                        cuzk_error *err);

/* The five MSM results a proof is assembled from (any backend computes them). */
typedef struct cuzk_groth16_msm_results {
    cuzk_g1_jac h, l, a, b_g1;
    cuzk_g2_jac b_g2;
} cuzk_groth16_msm_results;

/* Proof assembly from the MSM results with blinding r, s (see "Proof assembly" above);
 * constant-time in r and s. Shared by the CPU and GPU backends. */
void cuzk_groth16_assemble(cuzk_groth16_proof *proof, const cuzk_groth16_vk *vk,
                           const cuzk_groth16_msm_results *m, const cuzk_fr *r,
                           const cuzk_fr *s);

/* start + finalize with r, s drawn from getrandom(2), then cuzk_groth16_proof_selfcheck:
 * proof is written only when it verifies against pk->vk (one multi-pairing). Errors of
 * the self-check as documented there. */
cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *proof, const cuzk_groth16_pk *pk,
                               const cuzk_r1cs *r1cs, const cuzk_witness *w, void *scratch,
                               size_t scratch_size, cuzk_pool *pool, cuzk_error *err);

/*
 * The check every prover path (CPU and GPU backends, the engine) runs before a proof is
 * written or returned: the proof must verify under pk->vk with the public inputs taken
 * from the witness (variables 1 .. pk->vk.n_ic - 1). pvk: pk->vk prepared (NULL: prepared
 * here, one more pairing). r1cs: the circuit, optional; it is read only if the proof
 * fails, and only if it has all three matrices (not c_absent).
 *
 * CUZK_OK when the proof verifies. Otherwise the first cause found of:
 *   CUZK_ERR_UNSATISFIED   r1cs given with C, and the witness fails it: "constraint 7
 *                          unsatisfied" (the lowest failing row; no witness values);
 *   CUZK_ERR_FORMAT        a key point is off its curve or outside its subgroup:
 *                          "proving key is bad: l[17] is not in the subgroup" (vectors vk.*,
 *                          h, l, a, b_g1, b_g2; scanned over the pool);
 *   CUZK_ERR_INVALID_PROOF "the proof does not verify: the witness does not satisfy the
 *                          circuit" when C was not available (snarkjs .zkey keys fold C
 *                          into the key, so this is their unsatisfied-witness error), or
 *                          "... although the witness satisfies the circuit: the proving key
 *                          does not fit ..." when C was checked;
 *   CUZK_ERR_INVALID_ARG   NULL, non-dense witness, fewer witness values than inputs, pvk of
 *                          another input count.
 * A passing proof costs one 3-pair multi-pairing; the diagnosis runs on failure only.
 * Threading: reads its arguments only; pool spreads the diagnosis. No allocation.
 */
cuzk_status cuzk_groth16_proof_selfcheck(const cuzk_groth16_pk *pk,
                                         const cuzk_groth16_pvk *pvk, const cuzk_r1cs *r1cs,
                                         const cuzk_witness *w,
                                         const cuzk_groth16_proof *proof, cuzk_pool *pool,
                                         cuzk_error *err);

/* A uniformly random Fr from getrandom(2) (64 bytes reduced mod r). CUZK_ERR_IO if the
 * kernel refuses. */
cuzk_status cuzk_fr_random(cuzk_fr *r, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Verification
 * ------------------------------------------------------------------------------------- */

/* CUZK_OK if the proof is valid for these public inputs (n = pvk->n_ic - 1 of them, ONE
 * excluded, Montgomery), CUZK_ERR_INVALID_PROOF if not, CUZK_ERR_INVALID_ARG for a wrong
 * input count or NULL. The proof's points are trusted to be valid group elements (decode
 * proofs with the checked decoders, as the bellperson proof reader does). */
cuzk_status cuzk_groth16_verify(const cuzk_groth16_pvk *pvk, const cuzk_fr *public_inputs,
                                size_t n, const cuzk_groth16_proof *proof, cuzk_error *err);
/* The same with the public inputs' sum as one MSM in scratch, over pool (NULL: the
 * caller's thread): from 32 inputs up, and it matters from thousands (a 32 GiB WindowPoSt
 * proof has 25,839: 1.4 s one by one on a core, ~0.1 s so). scratch:
 * cuzk_groth16_verify_scratch_size(pvk, cuzk_pool_nthreads(pool)) bytes (0: fewer than 32
 * inputs, none needed); NULL scratch sums one input at a time, as cuzk_groth16_verify;
 * a smaller one is CUZK_ERR_INVALID_ARG. */
size_t cuzk_groth16_verify_scratch_size(const cuzk_groth16_pvk *pvk, unsigned nthreads);
cuzk_status cuzk_groth16_verify_pool(const cuzk_groth16_pvk *pvk, const cuzk_fr *public_inputs,
                                     size_t n, const cuzk_groth16_proof *proof, void *scratch,
                                     size_t scratch_size, cuzk_pool *pool, cuzk_error *err);

/* Batch verification of n_proofs proofs under one key with a random linear combination
 * (128-bit coefficients from getrandom): one multi-pairing of n_proofs + 2 pairs.
 * public_inputs holds n_proofs rows of n_inputs = pvk->n_ic - 1 values. OK iff all are
 * valid (except with probability 2^-128); CUZK_ERR_INVALID_PROOF otherwise.
 * scratch: cuzk_groth16_verify_batch_scratch_size(n_proofs) bytes. */
size_t cuzk_groth16_verify_batch_scratch_size(size_t n_proofs);
cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_pvk *pvk,
                                      const cuzk_fr *public_inputs, size_t n_inputs,
                                      const cuzk_groth16_proof *proofs, size_t n_proofs,
                                      void *scratch, size_t scratch_size, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Development setup — NOT a trusted setup. One party knows the toxic waste for a moment,
 * so anyone holding these keys could be the one who forges proofs. Tests and demos only.
 * ------------------------------------------------------------------------------------- */

/*
 * Creates pk (and a copy of its verifying key in vk, which may be NULL) for r1cs with
 * fresh random tau, alpha, beta, gamma, delta. seed == NULL draws them from getrandom(2);
 * a 32-byte seed derives them deterministically (tests; the expansion is not a
 * cryptographic PRF). The toxic waste lives in memory only during the call: it and the
 * arrays derived from it (Lagrange values, A/B/C(tau), scalar buffers) are wiped with
 * explicit_bzero before it returns; a few single-element stack temporaries are not. Sets
 * pk->append_input_rows. Allocates the keys and its temporaries (generator tables of
 * 7.5 + 15 MiB, one ec scratch per pool thread, the scalar vectors); not math scratch.
 * The point multiplications (cuzk_g1s/g2s_fixed_mul_var) are variable-time in the toxic
 * waste: acceptable for a key whose maker can forge proofs anyway. Parallel on pool: every
 * O(n) step (Lagrange basis, A/B/C at tau, the scalars, the point multiplications), with
 * the same bytes for every pool size (field arithmetic is exact: the split changes the
 * order of additions, not their sum). A 2 KiB PoRep key (2^22) takes ~80 s of one core;
 * cuzk_groth16_dev_key_cached (formats.h) keeps one on disk, and cuzk_groth16_setup_dev_ex
 * hands the point multiplications (~95 % of the CPU time) to a GPU.
 * Errors: CUZK_ERR_FORMAT if a variable the key needs is unconstrained (bellperson refuses
 * an identity point in l), CUZK_ERR_UNSUPPORTED if the domain is too large, NOMEM,
 * CANCELLED (cuzk_groth16_setup_opts.cancel).
 * The caller (CLI) must print a loud warning that the keys are for testing only.
 */
cuzk_status cuzk_groth16_setup_dev(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                   const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                   const uint8_t seed[32], cuzk_pool *pool, cuzk_error *err);

/*
 * Where the setup's fixed-base multiplications run, when not on the CPU pool: g1s / g2s
 * must set r[i] = k[i] * CUZK_G1_GENERATOR / CUZK_G2_GENERATOR for i < n, affine, exactly
 * the bytes cuzk_g1s/g2s_fixed_mul_var give (infinity (0, 0) for a zero scalar); k is the
 * setup's (Montgomery) and must not be kept. An error fails the setup with that error.
 * The groth16 layer knows no GPU: the prover layer makes one of these for its CUDA backend
 * (cuzk_prover_fixed_base_hook_open, cuzk/prover.h). name is for logs ("gpu:0 ...").
 * The calls come from the thread that runs the setup, one at a time.
 */
typedef struct cuzk_groth16_fixed_base_hook {
    void *ctx;
    cuzk_status (*g1s)(void *ctx, cuzk_g1_affine *r, const cuzk_fr *k, size_t n,
                       cuzk_error *err);
    cuzk_status (*g2s)(void *ctx, cuzk_g2_affine *r, const cuzk_fr *k, size_t n,
                       cuzk_error *err);
    char name[96];
} cuzk_groth16_fixed_base_hook;

typedef struct cuzk_groth16_setup_opts {
    /* NULL: the fixed-base multiplications run on the pool (w = 13 tables, as before) */
    const cuzk_groth16_fixed_base_hook *fixed_base;
    /* Optional: one line per phase with its wall time ("setup: lagrange 2^27 0.84 s"),
     * from the thread that runs the setup. */
    void (*log)(void *ctx, const char *msg);
    void *log_ctx;
    /* Optional: read between the setup's steps and between its chunks of point
     * multiplications (FB_GRAIN points on the pool; one hook call each); once *cancel is
     * nonzero the setup wipes and frees what it made and returns CUZK_ERR_CANCELLED. The
     * caller sets it from any thread (a stopping daemon, a cancelled job). */
    const volatile int *cancel;
} cuzk_groth16_setup_opts;

/* The host memory a development setup holds beside the key it makes, at most: the
 * Lagrange basis (2^log2n), A, B and C at tau (3 x n_vars), the scalars of the longest point
 * vector (max_points, at least 2^log2n), all 32 bytes each; with cpu_workers > 0 (the
 * points made on the CPU pool, no fixed-base hook) also the fixed-base tables and each
 * worker's scratch. WindowPoSt 32 GiB: 19.4 GiB, as much as a third of its key, so the
 * engine charges it to the memory budget for the load (kind_fil_load.c). */
uint64_t cuzk_groth16_setup_dev_host_bytes(unsigned log2n, uint64_t n_vars, uint64_t max_points,
                                           unsigned cpu_workers);

/* cuzk_groth16_setup_dev with options (opts NULL: the same as cuzk_groth16_setup_dev).
 * For a given seed the key is byte-identical whichever pool size or hook made it. */
cuzk_status cuzk_groth16_setup_dev_ex(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                      const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                      const uint8_t seed[32], cuzk_pool *pool,
                                      const cuzk_groth16_setup_opts *opts, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_GROTH16_H */
