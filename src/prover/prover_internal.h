/*
 * prover_internal.h — what a prover backend implements (the CPU one in src/prover, the
 * CUDA one in src/prover/backend_cuda.cu) and the shared job record the common finalize
 * (src/prover/prover.c) reads. Internal interface of the prover layer for its backends.
 *
 * A backend's start fills job->msm[i] for every partition (the five MSM results) and the
 * start-side timings, or, for backends that finalize themselves (the CPU one reuses the
 * groth16 layer's own finalize), sets job->assemble to do it. Threading: see prover.h.
 */
#ifndef CUZK_PROVER_INTERNAL_H
#define CUZK_PROVER_INTERNAL_H

#include <pthread.h>

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
    /* NULL: no device memory. Else marks pk's resident copy the only one (never evicted
     * to make room; cuzk_prover_key_adopt), CUZK_ERR_NOT_FOUND when pk is not resident
     * (never used here, streamed, or evicted). */
    cuzk_status (*key_adopt)(cuzk_prover *p, const cuzk_groth16_pk *pk, cuzk_error *err);
} cuzk_prover_ops;

/* The keys whose points live only in this prover's device memory (key_sole.c). Host
 * points are read by a start that uploads or streams them and by the self-check's
 * diagnosis of a failed proof; an adopted key is never uploaded again, and the diagnosis
 * of its proofs skips its points, so its owner may free them. readers lists the
 * self-checks running on keys not (yet) adopted: adopting a key waits for those of that
 * key, since one may be scanning the very points its owner is about to free. */
#define KEY_SOLE_MAX 8
typedef struct key_sole_reader {
    const cuzk_groth16_pk *pk;
    struct key_sole_reader *next;
} key_sole_reader;
typedef struct key_sole {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const cuzk_groth16_pk *pk[KEY_SOLE_MAX];
    int n;
    key_sole_reader *readers; /* the self-checks reading host points, on the caller's stack */
} key_sole;

/* The pk and r1cs objects given to starts and adopts, not yet forgotten (prover_held.c). */
typedef struct prover_held {
    pthread_mutex_t mu;
    const void **v;
    size_t n, cap;
} prover_held;

struct cuzk_prover {
    cuzk_backend_kind kind;
    const cuzk_prover_ops *ops;
    cuzk_pool *pool;
    char desc[128];
    void *impl; /* the backend's own state */
    cuzk_prover_log_fn log_fn;
    void *log_ctx;
    int lost; /* out of service (the injected "lost" fault); __atomic builtins */
    uint64_t pinned_host; /* the most host bytes the backend keeps pinned (CUDA staging) */
    key_sole sole;
    prover_held held;
};

void prover_held_init(prover_held *h);
void prover_held_destroy(prover_held *h);
void prover_held_add(prover_held *h, const void *obj);
void prover_held_del(prover_held *h, const void *obj);

void key_sole_init(key_sole *ks);
void key_sole_destroy(key_sole *ks);
/* Whether pk is adopted here (its host points may be gone). */
bool key_sole_has(cuzk_prover *p, const cuzk_groth16_pk *pk);
/* The key a self-check may read: pk, listed as reader r, or (adopted) *view, a copy of
 * pk without its point vectors. End with key_sole_read_end(p, r). */
const cuzk_groth16_pk *key_sole_read_begin(cuzk_prover *p, const cuzk_groth16_pk *pk,
                                           cuzk_groth16_pk *view, key_sole_reader *r);
void key_sole_read_end(cuzk_prover *p, key_sole_reader *r);
/* cuzk_prover_forget's part: pk is no longer adopted. */
void key_sole_forget(cuzk_prover *p, const cuzk_groth16_pk *pk);
/* Whether every point vector pk counts is in host memory. */
bool key_points_present(const cuzk_groth16_pk *pk);

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
    int priority;                   /* cuzk_prove_opts.priority: the device gate's order */
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

/* ---- the CUDA backend's device memory rules (gpu_need.c), shared by the backend and the
 * plan of cuzk_prover_gpu_need so that both count the same bytes ---- */

/* Device memory left free after our allocations: the CUDA context, CUB's and the
 * stream-ordered pool's own bookkeeping need headroom, and another process may share the
 * card. */
#define HEADROOM_BYTES ((size_t)1 << 30)
/* Staging buffers of a streamed key (two of them): 1 GiB each, less when the device has
 * less to spare (at least 256 MiB). At 2^27 on the H200 the L and A MSMs (12.5 GiB of
 * points each) are bound by the host-to-device copy, whose rate differed between the lent
 * hosts (~37 GB/s on one, ~13 GB/s on others) more than between 1 GiB and 4 GiB buffers
 * (6.0 s a partition with either on the same kind of host); 1 GiB keeps the footprint small. */
#define STAGE_BYTES_MIN ((size_t)256 << 20)
#define STAGE_BYTES_MAX ((size_t)1 << 30)

/* The shape of a start: pk's vectors, r1cs's counts, the witnesses' kind (the first one's:
 * a batch has one kind and map). n_coeff_values is r1cs's table when it carries one, else
 * 0 (the backend builds the table at upload). */
void gpu_shape_of(cuzk_gpu_shape *s, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                  const cuzk_witness *w0, size_t batch);

/* One start's working set without its MSM scratch, in the pieces the backend allocates. */
typedef struct gpu_ws {
    size_t up_bytes[2]; /* one witness upload: dense values, or bits and dense values */
    size_t slots;       /* upload slots: 2 when a batch has more partitions (double buffering) */
    size_t w_bytes;     /* the compact witness expanded on the device (0: dense) */
    size_t nvec;        /* n-vectors of the quotient: a, b (bellperson), a, b, c (snarkjs) */
    size_t abc_bytes;
    size_t g_len;       /* the longest density gather (A or B_G1 scalars) */
    size_t g_bytes;     /* the gathers' own buffer when they do not fit in b (, c); else 0 */
    size_t res_bytes;   /* the MSM results of the batch */
    size_t g1_max;      /* the longest G1 vector (streaming chunks) */
    size_t base;        /* the sum of the above */
} gpu_ws;
void gpu_ws_plan(gpu_ws *w, const cuzk_gpu_shape *s);

/* The MSMs of one partition whose scratch the working set holds: H (plain, n_h points),
 * the 0/1-split G1 MSMs over the longest of L and the gathers, B_G2 (split). The scratch is
 * the largest of their scratch sizes. */
void gpu_msm_sizes(const cuzk_gpu_shape *s, size_t *h, size_t *g1_split, size_t *g2_split);

/* A streamed key's or constraint system's staging (two buffers of whole G1 and G2 points,
 * at most the longest vector or the largest streamed matrix, csr_max) and its chunk
 * counts; bytes is what streaming adds on the device. */
typedef struct gpu_stage {
    size_t stage_bytes, maxc1, maxc2, bytes;
} gpu_stage;
void gpu_stage_plan(gpu_stage *g, size_t g1_max, size_t n_b_g2, size_t batch, size_t want,
                    size_t csr_max);

/* Device bytes of a resident key's vectors, of a constraint system's tables (coefficient
 * table; bellperson: the A and B density lists, counted at n_vars each) and matrices
 * (row_ptr, col, coefficient index: snarkjs keys never evaluate C), and of a compact
 * witness map. */
size_t gpu_key_bytes(size_t n_h, size_t n_l, size_t n_a, size_t n_b_g1, size_t n_b_g2);
size_t gpu_csr_tables_bytes(size_t n_table, size_t n_vars, bool bellperson);
size_t gpu_csr_matrix_bytes(uint64_t rows, const uint64_t nnz[CUZK_R1CS_MATRICES],
                            bool bellperson);
size_t gpu_map_bytes(size_t n_vars);

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
