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
} cuzk_prover_ops;

struct cuzk_prover {
    cuzk_backend_kind kind;
    const cuzk_prover_ops *ops;
    cuzk_pool *pool;
    char desc[128];
    void *impl; /* the backend's own state */
};

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

/* Monotonic milliseconds, for stage timings. */
double cuzk_prover_now_ms(void);

/* Backend constructors: fill p->ops, p->impl, p->desc. */
cuzk_status cuzk_prover_cpu_init(cuzk_prover *p, cuzk_error *err);
#ifdef CUZK_HAVE_CUDA
cuzk_status cuzk_prover_cuda_init(cuzk_prover *p, int device, cuzk_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif
