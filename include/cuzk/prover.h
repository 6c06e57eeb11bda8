/*
 * cuzk/prover.h — the prover backend interface: what the engine (and the CLI) drive to turn
 * (proving key, constraint system, witnesses) into verified Groth16 proofs, on the CPU or
 * on one CUDA device. The engine knows this interface only; kernels know no jobs.
 *
 * Model
 *   A cuzk_prover is one backend instance bound to one compute resource: the CPU (a
 *   cuzk_pool) or CUDA device N. It keeps per-device state that outlives proofs: the
 *   device mutex, streams, and the device-resident copies of the keys and constraint
 *   systems it has seen (uploaded on first use, reused while the same pk / r1cs objects
 *   are passed; cuzk_prover_forget drops them before those objects are freed).
 *
 *   A proof goes through two calls:
 *     cuzk_prover_start     all work that needs the device: A·w, B·w, C·w, the quotient H
 *                           and the H, L, A, B_G1 and B_G2 MSMs, for a batch of partitions
 *                           of one circuit (shared pk and r1cs, one witness each). Returns
 *                           with the device free for the next start: the per-proof device
 *                           buffers are released, only the MSM results remain.
 *     cuzk_prover_finalize  the assembly with blinding factors r, s (drawn from getrandom
 *                           unless given) and the self-check: every proof is
 *                           pairing-checked against pk's verifying key before it is
 *                           returned (cuzk_groth16_proof_selfcheck diagnoses a failure).
 *   so one worker's finalize overlaps another worker's start on the same device.
 *
 * Cancellation: start reads *cancel (if non-NULL) between stages and returns
 *   CUZK_ERR_CANCELLED, having released everything, once it is non-zero.
 *
 * Threading: a cuzk_prover may be used by several threads at once (two workers per GPU is
 *   the intended use): device work is serialised by the prover's device mutex, which is
 *   held only around kernel work; uploads are staged before it is taken. The mutex is
 *   handed over by priority (cuzk_prove_opts.priority; FIFO within one priority): nothing
 *   preempts a holder, but a waiting high-priority start enters before a waiting
 *   low-priority one that arrived first. A job is used by one
 *   thread at a time. pk, r1cs and the witnesses must stay alive and unchanged from start
 *   to finalize.
 *
 * Fault injection (tests): CUZK_PROVER_FAULT=start|finalize|wrong-proof|lost[:COUNT|:all]
 *   [@LOG2N] in the environment makes COUNT calls (default 1; only keys of domain 2^LOG2N
 *   if given) of start or finalize fail, or has finalize corrupt the proof before its
 *   self-check (which then fails with CUZK_ERR_INVALID_PROOF), or takes the prover that
 *   runs the start out of service for good ("lost"). Read once per process; inert unset.
 *   See src/prover/fault.c.
 *
 * Memory: the backend allocates what it needs (pinned staging, device buffers, the job);
 *   every allocation is released on every path, including errors and cancellation.
 * Device memory (CUDA): NTT domains and a proof's working set are on the device; a
 *   constraint system's matrices are too when they fit next to the working set, and a
 *   proving key when it fits next to both (idle residents are evicted, least recently
 *   used first, to make room). What cannot fit is streamed: a key's vectors, or a
 *   circuit's row_ptr/col/coefficient indices, stay in host memory, pinned, and every MSM
 *   (every evaluation, block of rows by block of rows) copies them through two staging
 *   buffers while it computes; each decision and its numbers go to the logger. When even
 *   the working set alone would not fit, the MSMs run with narrower windows (a smaller
 *   scratch: cuzk/gpu.h), also logged.
 *   CUZK_GPU_MEM_LIMIT=BYTES[K|M|G] treats the device as that large (share a card, or
 *   rehearse a smaller one); CUZK_GPU_SRS=stream[:BYTES] streams every key with staging
 *   buffers of BYTES, CUZK_GPU_CSR=stream every constraint system (tests).
 *   CUZK_GPU_STAGE=BYTES[K|M|G] caps the pinned host buffers the prover keeps for witness
 *   uploads and result read-backs (default cuzk_prover_gpu_stage_default(); 0: none, every
 *   start pins its witness in place). Read when the prover is opened.
 */
#ifndef CUZK_PROVER_H
#define CUZK_PROVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_backend_kind {
    CUZK_BACKEND_CPU = 0,
    CUZK_BACKEND_CUDA = 1,
} cuzk_backend_kind;

/* Stages whose wall time a proof reports (milliseconds, summed over the batch). */
typedef enum cuzk_prove_stage {
    CUZK_STAGE_UPLOAD = 0,  /* key / r1cs / witness staging and host->device copies */
    CUZK_STAGE_LOCK_WAIT,   /* waiting for the device mutex */
    CUZK_STAGE_EVAL,        /* A·w, B·w, C·w (and the satisfaction check on the CPU) */
    CUZK_STAGE_NTT_H,       /* the quotient H */
    CUZK_STAGE_MSM_H,
    CUZK_STAGE_MSM_L,
    CUZK_STAGE_MSM_A,
    CUZK_STAGE_MSM_B_G1,
    CUZK_STAGE_MSM_B_G2,
    CUZK_STAGE_DEVICE,      /* the whole device-mutex hold */
    CUZK_STAGE_FINALIZE,    /* assembly */
    CUZK_STAGE_VERIFY,      /* the self-check */
    CUZK_STAGE_COUNT
} cuzk_prove_stage;

typedef struct cuzk_prove_timings {
    double ms[CUZK_STAGE_COUNT];
    /* When the device mutex was taken and released (CLOCK_MONOTONIC, ms; the last hold
     * for a batch): what a timeline shows as the device's busy interval. */
    double device_begin_ms, device_end_ms;
    /* The key's point vectors were streamed from host memory through staging buffers
     * during the MSMs (the key did not fit the device; see "Device memory" above). */
    bool srs_streamed;
} cuzk_prove_timings;

/* The clock of device_begin_ms / device_end_ms (CLOCK_MONOTONIC in ms). */
double cuzk_prover_clock_ms(void);

/* Short name of a stage ("msm_h"); never NULL. */
const char *cuzk_prove_stage_name(cuzk_prove_stage s);

typedef struct cuzk_prover cuzk_prover;
typedef struct cuzk_prove_job cuzk_prove_job;

/*
 * Opens a backend from a spec: "cpu", "gpu" (device 0), "gpu:N", or "auto" (the GPU when
 * one is present and this build has CUDA, else the CPU). pool: CPU threads for the CPU
 * backend and for the CPU parts of the GPU backend (finalize, self-check); NULL = one
 * thread; it must outlive the prover. Errors: CUZK_ERR_INVALID_ARG for an unknown spec,
 * CUZK_ERR_UNSUPPORTED for "gpu" in a build without CUDA or with no such device,
 * CUZK_ERR_CUDA / CUZK_ERR_NOMEM when the device cannot be set up.
 */
cuzk_status cuzk_prover_open(cuzk_prover **out, const char *spec, cuzk_pool *pool,
                             cuzk_error *err);
void cuzk_prover_close(cuzk_prover *p); /* NULL is a no-op; no job may be in flight */

/* CUDA devices this build can use (0 without CUDA or without a device). */
unsigned cuzk_prover_gpu_count(void);
/* Total memory of CUDA device `device` in bytes (0 without CUDA or without that device). */
uint64_t cuzk_prover_gpu_memory(unsigned device);

cuzk_backend_kind cuzk_prover_kind(const cuzk_prover *p);
/* "cpu (4 threads)", "gpu:0 NVIDIA H200 (139.8 GiB)"; never NULL. */
const char *cuzk_prover_describe(const cuzk_prover *p);

/* false (with the reason in why, if given) once the device can no longer prove: a CUDA
 * context lost to a sticky error (illegal address, ECC, ...), or the injected "lost"
 * fault. Such a prover fails every start at once (CUZK_ERR_CUDA, "out of service"); the
 * engine takes it out of rotation. */
bool cuzk_prover_in_service(const cuzk_prover *p, char *why, size_t cap);

/* Where a backend reports what an operator should know (a key streamed from host memory,
 * with the reason): warn = true for a degraded mode, false for information. Default
 * (fn NULL): stderr. Set before the first start; fn must be thread-safe. */
typedef void (*cuzk_prover_log_fn)(void *ctx, bool warn, const char *msg);
void cuzk_prover_set_log(cuzk_prover *p, cuzk_prover_log_fn fn, void *ctx);

/* Drops any device-resident copy of pk and/or r1cs (either may be NULL). Call before
 * freeing a key or constraint system the prover has seen. */
void cuzk_prover_forget(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);

/* How many pk and r1cs objects (by address) this prover was given by starts and not yet
 * told to forget: what its caller must still forget before freeing them. Every backend
 * counts them, the CPU's too, so a caller's tests can check on any machine that each
 * object it frees was forgotten by the address it was passed at. */
size_t cuzk_prover_held(cuzk_prover *p);

/*
 * Makes the device copy of pk the only one its owner keeps: call it after a start with pk
 * on this prover; on CUZK_OK the caller may free pk's point vectors (h, l, a, b_g1, b_g2;
 * set them NULL), and this prover will neither evict the copy to make room for another
 * key (only cuzk_prover_forget drops it) nor read the host vectors again (a proof that
 * fails its self-check is then not diagnosed point by point). Returns once no self-check
 * still reads pk's points. Errors: CUZK_ERR_NOT_FOUND (pk is not resident here: never
 * used, streamed from host memory, or evicted; or resident while a start still streams
 * it from the host copy it had before: try again later), CUZK_ERR_UNSUPPORTED (a backend without
 * device memory: the CPU). A start with pk's points gone on a prover that has not adopted
 * it fails with CUZK_ERR_INVALID_ARG.
 */
cuzk_status cuzk_prover_key_adopt(cuzk_prover *p, const cuzk_groth16_pk *pk, cuzk_error *err);

/*
 * Starts n proofs (n >= 1) of r1cs under pk, one per witness ws[0..n). On success *job
 * holds the state finalize needs. Errors: those of cuzk_groth16_pk_check_circuit,
 * CUZK_ERR_INVALID_ARG (witness sizes), CUZK_ERR_CANCELLED, CUZK_ERR_CUDA / NOMEM (the
 * device), CUZK_ERR_UNSATISFIED (a witness the CPU backend found unsatisfying; the GPU
 * backend leaves that to the self-check). *job is NULL on error.
 */
cuzk_status cuzk_prover_start(cuzk_prover *p, const cuzk_groth16_pk *pk,
                              const cuzk_r1cs *r1cs, const cuzk_witness *ws, size_t n,
                              const volatile int *cancel, cuzk_prove_job **job,
                              cuzk_error *err);

/* Options of cuzk_prover_start_opts. priority: who takes the device mutex next when
 * several starts wait for it (higher first; the engine passes its cuzk_priority, 0..4);
 * the CPU backend's finalize takes its prover lock with it too. */
typedef struct cuzk_prove_opts {
    const volatile int *cancel; /* as cuzk_prover_start's cancel (NULL: none) */
    int priority;               /* 0 = lowest (what cuzk_prover_start passes) */
} cuzk_prove_opts;

/* cuzk_prover_start with options (opts NULL: no cancel flag, priority 0). */
cuzk_status cuzk_prover_start_opts(cuzk_prover *p, const cuzk_groth16_pk *pk,
                                   const cuzk_r1cs *r1cs, const cuzk_witness *ws, size_t n,
                                   const cuzk_prove_opts *opts, cuzk_prove_job **job,
                                   cuzk_error *err);

/*
 * Assembles the job's n proofs into proofs[0..n) with blinding r[i], s[i] (NULL: fresh
 * random ones from getrandom(2)), then self-checks each one. Always consumes the job.
 * timings (may be NULL) receives the per-stage times of start and finalize.
 * proofs are written only if every one of them verified.
 */
cuzk_status cuzk_prover_finalize(cuzk_prove_job *job, const cuzk_fr *r, const cuzk_fr *s,
                                 cuzk_groth16_proof *proofs, cuzk_prove_timings *timings,
                                 cuzk_error *err);

/* Releases a started job that will not be finalized (NULL is a no-op). */
void cuzk_prove_job_free(cuzk_prove_job *job);

/* The timings start recorded so far (finalize adds its own); valid until the job ends. */
const cuzk_prove_timings *cuzk_prove_job_timings(const cuzk_prove_job *job);

/*
 * A development setup's point multiplications on p's GPU: *out is a hook for
 * cuzk_groth16_setup_dev_ex (cuzk_groth16_setup_opts.fixed_base, cuzk/groth16.h) that runs
 * them on p's device (src/gpu/fixed_base.cu), byte-identical to the CPU's, under p's
 * device mutex (proofs on the device wait while a multiplication runs). Its device
 * buffers (~8 GiB) and pinned staging (~2 GiB) are made at the first call and kept until
 * cuzk_prover_fixed_base_hook_close; p must outlive the hook. The host copies use p's
 * pool. Errors: CUZK_ERR_UNSUPPORTED for a CPU prover (the caller then leaves the
 * multiplications on the CPU), NOMEM. Threading: a hook serves one setup at a time.
 */
cuzk_status cuzk_prover_fixed_base_hook_open(cuzk_prover *p, cuzk_groth16_fixed_base_hook **out,
                                             cuzk_error *err);
void cuzk_prover_fixed_base_hook_close(cuzk_groth16_fixed_base_hook *hook); /* NULL: no-op */
/* The pinned host memory a hook of p holds at most (0 where p has none: a CPU prover),
 * for a caller that counts a setup's memory before it runs. */
uint64_t cuzk_prover_fixed_base_hook_host_bytes(const cuzk_prover *p);

/* start + finalize for one witness, random r and s. */
cuzk_status cuzk_prover_prove(cuzk_prover *p, const cuzk_groth16_pk *pk,
                              const cuzk_r1cs *r1cs, const cuzk_witness *w,
                              cuzk_groth16_proof *proof, cuzk_prove_timings *timings,
                              cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Device memory of the CUDA backend, as a plan (every build, with or without a device)
 *
 * What the CUDA backend puts on a device for a circuit of a given shape, by the formulas
 * it admits and uploads with (backend_cuda.cu, cuda_resident.cu and cuda_partition.cu
 * call the same code, src/prover/gpu_need.c): the proving key's point vectors and the
 * constraint system when resident, and one start's working set (witness uploads, the
 * expanded compact witness, the n-vectors a, b (, c) of the quotient, the density gathers
 * when they do not fit in those, the MSM scratch, the results). The MSM scratch is the
 * device MSM's own layout (src/gpu/msm_plan.h); the backend takes CUB's temporary sizes
 * from the device, a plan without one takes msm_cub_bytes_bound (at most ~33 MiB more an
 * MSM at 2^27).
 * ------------------------------------------------------------------------------------- */

/* The shape of a key and circuit, counts only (no points, no matrices). */
typedef struct cuzk_gpu_shape {
    unsigned log2n;          /* the key's domain */
    bool snarkjs;            /* key flavour: snarkjs (else bellperson) */
    uint64_t n_constraints;  /* the circuit's rows (bellperson's input rows excluded) */
    uint64_t n_vars;         /* 1 + public + aux */
    bool compact;            /* witnesses come compact (bits + dense values) */
    uint64_t n_bits;         /* compact: the variables kept as bits */
    uint64_t nnz[CUZK_R1CS_MATRICES];
    uint64_t n_coeff_values; /* distinct coefficients (cuzk_r1cs_coeff_table) */
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2; /* the key's vectors */
    uint64_t batch;          /* partitions per start (the engine starts 1) */
} cuzk_gpu_shape;

typedef struct cuzk_gpu_need {
    uint64_t key;            /* h, l, a, b_g1, b_g2 uploaded (a resident key) */
    uint64_t circuit;        /* matrices, coefficient table, density lists (resident) */
    uint64_t circuit_tables; /* of which what stays when the matrices stream (table, lists) */
    uint64_t map;            /* the compact-witness map (is_bit, rank) */
    uint64_t domain;         /* the NTT domain's twiddle tables */
    uint64_t working_set;    /* one start, MSM scratch included */
    uint64_t msm_scratch;    /* the working set's MSM scratch */
    uint64_t stream_key;     /* what a streamed key adds to the working set (staging + partials) */
    uint64_t stream_circuit; /* what streamed matrices add (two staging buffers) */
    uint64_t headroom;       /* left free for the CUDA context and pools */
} cuzk_gpu_need;

/* Fills *out for shape s. msm_scratch: the MSM scratch as the device sizes it (the
 * backend passes cuzk/gpu.h's *_scratch_size); 0 = from the device MSM's layout with
 * CUB's temporary storage bounded (a plan without a device). Staging buffers are counted
 * at their smallest (256 MiB each). */
void cuzk_prover_gpu_need(const cuzk_gpu_shape *s, uint64_t msm_scratch, cuzk_gpu_need *out);
/* The most host memory p keeps pinned between starts, outside any job (the CUDA
 * backend's staging, CUZK_GPU_STAGE; 0 for the CPU backend). */
uint64_t cuzk_prover_pinned_host(const cuzk_prover *p);
/* The CUDA prover's pinned host staging (CUZK_GPU_STAGE's default): the most host bytes
 * one device keeps pinned between starts for witness uploads and result read-backs,
 * min(12 GiB, this host's memory / 8). The engine takes it off its memory budget, per
 * device (cuzk_prover_pinned_host), and `cuzk plan` does the same. */
uint64_t cuzk_prover_gpu_stage_default(void);
/* The same rule for a host of `memory` bytes (a plan for another machine). */
uint64_t cuzk_prover_gpu_stage_for(uint64_t memory);
/* The working set's MSM scratch with windows of at most max_bits (4..22; the backend caps
 * them on a card too small for the default windows), from the layout, CUB bounded. */
uint64_t cuzk_prover_gpu_msm_scratch(const cuzk_gpu_shape *s, unsigned max_bits);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PROVER_H */
