/*
 * prover_internal.h — what a prover backend implements (the CPU one in src/prover, the
 * CUDA one in src/gpu/backend_cuda.cu) and the shared job record the common finalize
 * (src/prover/prover.c) reads. Internal interface of the prover layer for its backends.
 *
 * A backend's start fills job->msm[i] for every partition (the five MSM results) and the
 * start-side timings, or, for backends that finalize themselves (the CPU one reuses the
 * groth16 layer's own finalize), sets job->assemble to do it. Threading: see prover.h.
 */
#ifndef CUZK_PROVER_INTERNAL_H
#define CUZK_PROVER_INTERNAL_H

#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_prover_ops {
    cuzk_status (*start)(cuzk_prover *p, cuzk_prove_job *job, const volatile int *cancel,
                         cuzk_error *err);
    void (*forget)(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);
    void (*close)(cuzk_prover *p);
    /* NULL: always in service; else false with the reason once the device is unusable */
    bool (*in_service)(const cuzk_prover *p, char *why, size_t cap);
} cuzk_prover_ops;

struct cuzk_prover {
    cuzk_backend_kind kind;
    const cuzk_prover_ops *ops;
    cuzk_pool *pool;
    char desc[128];
    void *impl; /* the backend's own state */
    cuzk_prover_log_fn log_fn;
    void *log_ctx;
    int lost; /* out of service (the injected "lost" fault); __atomic builtins */
};

/* A backend's message through p's logger (cuzk_prover_set_log). */
void cuzk_prover_log(cuzk_prover *p, bool warn, const char *msg);

struct cuzk_prove_job {
    cuzk_prover *p;
    const cuzk_groth16_pk *pk;
    const cuzk_r1cs *r1cs;
    size_t n;
    cuzk_witness *ws;               /* n views (copied; the values are the caller's) */
    cuzk_groth16_msm_results *msm;  /* n results, filled by start */
    cuzk_prove_timings t;
    /* Optional: a backend that assembles itself (CPU) sets these; NULL means the common
     * cuzk_groth16_assemble over msm[i]. */
    cuzk_status (*assemble)(cuzk_prove_job *job, size_t i, const cuzk_fr *r,
                            const cuzk_fr *s, cuzk_groth16_proof *proof, cuzk_error *err);
    void (*impl_free)(cuzk_prove_job *job);
    void *impl;
};

/* Fault injection (fault.c): CUZK_PROVER_FAULT in the environment, read once. True when
 * this call at point `at`, for a key of domain 2^log2n, is to fail. */
typedef enum cuzk_prover_fault_point {
    CUZK_FAULT_START = 0,
    CUZK_FAULT_FINALIZE = 1,
    CUZK_FAULT_WRONG_PROOF = 2,
    CUZK_FAULT_LOST = 3,
} cuzk_prover_fault_point;
void cuzk_prover_fault_arm(void); /* reads the variable (once); cuzk_prover_open calls it */
bool cuzk_prover_fault_take(cuzk_prover_fault_point at, unsigned log2n);
const char *cuzk_prover_fault_name(cuzk_prover_fault_point at);

/* Monotonic milliseconds, for stage timings. */
double cuzk_prover_now_ms(void);

/* Backend constructors: fill p->ops, p->impl, p->desc. */
cuzk_status cuzk_prover_cpu_init(cuzk_prover *p, cuzk_error *err);
#ifdef CUZK_HAVE_CUDA
cuzk_status cuzk_prover_cuda_init(cuzk_prover *p, int device, cuzk_error *err);
/* The CUDA backend's fixed-base hook (cuda_setup.cu; p is a CUDA prover). */
cuzk_status cuzk_prover_cuda_fixed_base_hook(cuzk_prover *p, cuzk_groth16_fixed_base_hook **out,
                                             cuzk_error *err);
void cuzk_prover_cuda_fixed_base_close(cuzk_groth16_fixed_base_hook *hook);
#endif

#ifdef __cplusplus
}
#endif

#endif
