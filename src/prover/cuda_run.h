/*
 * cuda_run.h — the state of one start of the CUDA backend (a batch of partitions of one
 * circuit), shared by backend_cuda.cu (its lifecycle: admission, buffers, streams, the
 * device mutex, release) and cuda_partition.cu (the kernels of one partition and the copies
 * through the staging buffers of a streamed key or circuit). CUDA sources of the prover
 * layer only.
 * Threading: a run belongs to the thread that started it.
 */
#ifndef CUZK_PROVER_CUDA_RUN_H
#define CUZK_PROVER_CUDA_RUN_H

#include <cuda_runtime.h>

#include "cuzk/prover.h"
#include "prover/cuda_resident.h"
#include "prover/prover_internal.h"

enum { EV_START, EV_EVAL, EV_NTT, EV_H, EV_L, EV_A, EV_B1, EV_B2, EV_COUNT };

typedef struct run {
    cudaStream_t copy, compute;
    cudaEvent_t uploaded[2], consumed[2];
    cudaEvent_t *stage_ev; /* n * EV_COUNT timing events */
    size_t n_stage_ev;
    void **reg;            /* host buffers pinned in place (cudaHostRegister succeeded) */
    size_t n_reg;
    /* the witnesses copied into a kept pinned buffer (host_stage.h): partition i's part k
     * at h_stage + i * stage_stride + (k ? stage_off1 : 0); NULL: pinned in place (reg) */
    void *h_stage;
    size_t stage_stride, stage_off1;
    bool h_res_kept, h_pg_kept; /* h_res / h_pg1, h_pg2 from the pool, not cudaMallocHost */
    bool compact;
    void *d_up[2][2];      /* upload slots: dense: [slot][0] is the witness itself;
                              compact: [slot][0] bits, [slot][1] dense values */
    size_t up_bytes[2];
    cuzk_fr *d_w;          /* compact: the expanded witness the kernels read */
    const cuzk_witness_map *map;
    const dev_circuit *circ;
    cuzk_fr *d_abc, *d_g;  /* d_g only when the gathers do not fit in the dead vectors */
    void *d_scratch;
    size_t scratch_size;
    cuzk_groth16_msm_results *d_res, *h_res;
    /* a streamed key (dev_key.streamed): two staging buffers for its point vectors, and
     * one partial result per chunk, summed on the host after the batch */
    bool streamed;
    bool csr_streamed;     /* dev_circuit.streamed: the evaluations use the staging too */
    void *d_stage[2];
    size_t stage_bytes;
    unsigned stage_next;
    cudaEvent_t stage_ready[2], stage_free[2];
    size_t maxc1, maxc2;          /* chunks of the longest G1 / G2 vector */
    cuzk_g1_jac *d_pg1, *h_pg1;   /* [partition][H, L, A, B_G1][maxc1] */
    cuzk_g2_jac *d_pg2, *h_pg2;   /* [partition][maxc2] */
} run;

/* STAGE_BYTES_MIN / STAGE_BYTES_MAX (a streamed key's staging buffers): prover_internal.h,
 * shared with the memory plan (gpu_need.c). */

static inline size_t max2(size_t a, size_t b) { return a > b ? a : b; }
static inline size_t chunks(size_t n, size_t chunk) { return (n + chunk - 1) / chunk; }

/* CUZK_GPU_FAULT=where ("alloc" or "kernel"): the injected failure of that point. */
cuzk_status cuda_fault(const char *where, cuzk_error *err);
/* Sizes R's staging (gpu_stage_plan: whole G1 and G2 points per buffer, multiples of 192
 * bytes, at most the longest vector, or the largest streamed matrix: csr_max) and its chunk
 * counts; returns the device bytes streaming adds. */
size_t stage_plan(run *R, const cuzk_prove_job *job, size_t g1_max, size_t want,
                  size_t csr_max = 0);
/* The kernels of partition i, all on R->compute. */
cuzk_status prove_one(run *R, const cuzk_prove_job *job, size_t i, const dev_key *k,
                      const dev_circuit *c, const cuzk_gpu_domain *gd, cuzk_error *err);
/* A streamed key's MSM results: the sums of their chunks' partials, into R->h_res. */
void sum_parts(run *R, const cuzk_prove_job *job);

/* The end of a start (cuda_release.cu): R's device memory and admission back and its uses
 * of k and c dropped under cache_mu, then everything else R holds; R is left zeroed.
 * priority >= 3 (the engine's HIGH and CRITICAL): on a thread of its own, after the
 * caller has returned (its results read back already), or inline when no thread can be
 * had; otherwise inline. */
void cuda_run_end(cuda_prover *cp, dev_key *k, dev_circuit *c, run *R, bool admitted,
                  size_t need, int priority);
/* Whether a late release still uses pk or r1cs (cache_mu held). */
bool cuda_late_uses(const cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);

#endif
