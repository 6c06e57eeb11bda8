/*
 * cuda_resident.h — what the CUDA prover backend keeps on a device between proofs (its
 * internal interface, shared by backend_cuda.cu and cuda_resident.cu): proving keys and
 * constraint systems mirrored in device memory (with the compact-witness map and the NTT
 * domains), least-recently-used eviction of idle entries to make room, and the per-device
 * state. CUDA sources of the prover layer only.
 * Threading: every function here runs under cuda_prover.cache_mu.
 */
#ifndef CUZK_PROVER_CUDA_RESIDENT_H
#define CUZK_PROVER_CUDA_RESIDENT_H

#include <pthread.h>

#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"
#include "prover/host_stage.h"
#include "prover/prio_gate.h"
#include "prover/prover_internal.h"

#define MAX_RESIDENT 4
/* HEADROOM_BYTES (left free on the device): prover_internal.h, with the other rules the
 * memory plan shares (gpu_need.c). */

/* Residency bookkeeping shared by keys and circuits (the first member of both). */
typedef struct dev_slot {
    const void *owner;  /* the host pk / r1cs this entry mirrors; NULL: free */
    uint64_t last_used; /* cuda_prover.clock at the last start that used it */
    int in_use;         /* starts running with it: never evicted then */
    /* Superseded by a whole upload while starts still ran with it (a streamed entry that
     * fits the device again: key_get, circuit_get): never handed out again, released by
     * the last key_unuse / circuit_unuse. */
    bool retired;
} dev_slot;

typedef struct dev_key {
    dev_slot slot;
    const cuzk_groth16_pk *pk;
    cuzk_g1_affine *h, *l, *a, *b_g1; /* NULL when streamed */
    cuzk_g2_affine *b_g2;
    size_t bytes;                     /* device bytes (0 when streamed) */
    /* Streamed: the key did not fit the device next to the circuit and a working set, so
     * its point vectors stay in host memory (pinned here, counted: host_pin.h) and each
     * MSM copies them through two staging buffers while it runs. */
    bool streamed;
    const void *pinned[5];
    int n_pinned;
    /* Adopted (cuzk_prover_key_adopt): the host copy may be gone, so the entry is never
     * evicted to make room; only cuzk_prover_forget drops it. */
    bool sole;
} dev_key;

typedef struct dev_circuit {
    dev_slot slot;
    const cuzk_r1cs *r1cs;
    bool bellperson;          /* density index lists present */
    cuzk_gpu_csr m[CUZK_R1CS_MATRICES];
    uint64_t *row_ptr[CUZK_R1CS_MATRICES];
    uint32_t *col[CUZK_R1CS_MATRICES], *coeff_idx[CUZK_R1CS_MATRICES];
    uint32_t *long_rows[CUZK_R1CS_MATRICES]; /* rows a warp each (cuzk_gpu_csr.d_long) */
    cuzk_fr *table;           /* distinct coefficients, shared by the three matrices */
    uint32_t *a_idx, *b_idx;  /* bellperson: variables of the A and B vectors */
    const cuzk_witness_map *map; /* the compact-witness map uploaded below (NULL: none) */
    uint64_t *d_is_bit;
    uint32_t *d_rank;
    size_t n_a_idx, n_b_idx;
    size_t bytes;
    /* Streamed: the matrices did not fit the device next to the working set (or
     * CUZK_GPU_CSR=stream), so only the table and the density lists are uploaded; row_ptr,
     * col and the coefficient indices stay in host memory (pinned here where the driver
     * allows) and each evaluation copies them block by block through the job's staging
     * buffers. h_ci: the host coefficient indices (owned_ci when computed here). */
    bool streamed;
    const uint32_t *h_ci[CUZK_R1CS_MATRICES];
    uint32_t *owned_ci[CUZK_R1CS_MATRICES];
    const void *pinned[3 * CUZK_R1CS_MATRICES];
    int n_pinned;
} dev_circuit;

typedef struct dev_domain {
    unsigned log2n;
    cuzk_domain_convention conv;
    cuzk_gpu_domain *gd;
} dev_domain;

typedef struct cuda_prover {
    int dev;
    cuzk_prover *owner;        /* for its logger */
    /* CUZK_GPU_MEM_LIMIT: the device is treated as this many bytes large (0: its real
     * size), so a smaller card's behaviour can be had on a big one. */
    size_t mem_limit;
    /* CUZK_GPU_SRS=stream[:BYTES]: stream every key, BYTES per staging buffer (tests). */
    bool force_stream;
    size_t stage_bytes_req;
    /* CUZK_GPU_CSR=stream: stream every constraint system (tests). */
    bool force_stream_csr;
    /* CUZK_GPU_PROFILE: each start logs its device-mutex time against its kernels' span */
    bool profile;
    unsigned trims; /* pool trims (device_free with trim), for the profile log */
    /* pinned host buffers kept between starts: witness staging, result read-backs
     * (host_stage.h; CUZK_GPU_STAGE) */
    host_stage stage;
    unsigned stage_refused_logged;
    /* kernel work: a gate handed over by priority (prio_gate.h), so a prepared LOW
     * partition waiting for the device yields to a CRITICAL one */
    prio_gate device_gate;
    pthread_mutex_t cache_mu;  /* the resident caches below, and the admission state */
    pthread_cond_t released;   /* a job's working set went back (admission waits on it) */
    int admitted;              /* jobs holding a working set now */
    size_t admitted_bytes;     /* and the bytes they hold */
    unsigned msm_cap_logged;   /* the last MSM window cap logged (0: none) */
    dev_key keys[MAX_RESIDENT];
    dev_circuit circuits[MAX_RESIDENT];
    dev_domain domains[MAX_RESIDENT];
    uint64_t clock;            /* counts starts, for least-recently-used eviction */
    /* starts of the latency classes whose release (unuse, run_release) runs on a thread
     * of its own after they returned (backend_cuda.cu late_release): forget waits for
     * those that use what it forgets, close for all; under cache_mu */
    struct late_rel *late;
    int broken;                /* a sticky CUDA error was seen: the context is gone */
    char broken_msg[CUZK_ERROR_MSG_MAX];
} cuda_prover;

/* ---- resident caches ------------------------------------------------------------------ */

/* How device_free counts. The working sets of proofs come from the stream-ordered pool,
 * which keeps what they free (its release threshold is unlimited: cuzk_prover_cuda_init),
 * and the driver counts that as used. FREE_POOLED adds the pool's idle reserve, which a
 * stream-ordered allocation reuses as it is; FREE_TRIM hands the reserve back to the
 * driver first, which a plain cudaMalloc (keys, circuits) needs. Counted by the driver
 * alone, a 32 GiB WindowPoSt's working set (~35 GiB on a card 129 GiB full) looked short
 * at every other admission and trimmed the pool, so the next one was mapped again from
 * the driver while the other worker's kernels ran (H200, s15: 2 trims in 5 partitions;
 * counted this way, none). */
typedef enum free_mode { FREE_DRIVER, FREE_POOLED, FREE_TRIM } free_mode;
/* Free device bytes as this prover may use them (mem_limit applied), counted as `mode`
 * says. */
cuzk_status device_free(cuda_prover *cp, free_mode mode, size_t *free_b, size_t *total_b,
                        cuzk_error *err);
/* Fails with NOMEM (naming what) unless `bytes` more fit on the device with headroom;
 * pooled: they come from the stream-ordered pool (FREE_POOLED first, then FREE_TRIM). */
cuzk_status check_fits(cuda_prover *cp, size_t bytes, bool pooled, const char *what,
                       cuzk_error *err);
/* The end of a start that used the entry (in_use--); a retired one is released by its
 * last. */
void key_unuse(dev_key *k);
void circuit_unuse(dev_circuit *c);
/* check_fits, evicting idle residents (least recently used first, never `keep`). */
cuzk_status make_room(cuda_prover *cp, size_t bytes, bool pooled, const char *what,
                      const dev_slot *keep, cuzk_error *err);
/* cudaMallocAsync on s; when the pool's idle blocks, counted as free, cannot serve it,
 * the pool is trimmed and the allocation tried once more. NOMEM when it still fails. */
cuzk_status pool_alloc(cuda_prover *cp, void **p, size_t bytes, cudaStream_t s,
                       cuzk_error *err);
/* cuzk_prover_forget's work on this device: every entry of pk and of r1cs (retired ones
 * too) released. The caller promises no start runs with them. */
void resident_forget(cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);
/* cuzk_prover_key_adopt's work on this device (cuzk/prover.h): pk's resident copy marked
 * sole; NOT_FOUND when it is streamed, absent, or a retired streamed copy is still in use
 * (the caller frees the host points a start may still stream from). */
cuzk_status resident_key_adopt(cuda_prover *cp, const cuzk_groth16_pk *pk, cuzk_error *err);
/* The device copy of pk, uploaded on a miss when it fits next to `reserve` more bytes
 * (idle residents evicted for it only if that makes it fit); otherwise the key is
 * streamed (dev_key.streamed), and the reason is logged.
 * A streamed entry (key or circuit) is decided again at every use: when it would now fit
 * whole by the same rule, it is uploaded whole into another slot and the streamed one is
 * released (at once if idle, else retired until its starts end). Decided once, a circuit
 * streamed while another kind held the card stayed streamed for its whole life (H100,
 * s22: the PoRep stream ran 22 s a proof after one WindowPoSt, 13 s before it). */
cuzk_status key_get(cuda_prover *cp, const cuzk_groth16_pk *pk, size_t reserve, dev_key **out,
                    cuzk_error *err);
/* Whether pk is on this device whole (uploaded or adopted, not streamed, not retired): a
 * start with it needs no staging for its points. */
bool key_whole_here(const cuda_prover *cp, const cuzk_groth16_pk *pk);
/* The device copy of r1cs, uploaded on a miss when its matrices fit next to `reserve`
 * more bytes (idle residents evicted for them only if that makes them fit); otherwise the
 * matrices are streamed (dev_circuit.streamed) and the reason is logged. Then the
 * compact-witness map of a circuit, the NTT domain of pk's size and flavour. */
cuzk_status circuit_get(cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                        size_t reserve, dev_circuit **out, cuzk_error *err);
cuzk_status map_get(cuda_prover *cp, dev_circuit *c, const cuzk_witness_map *map,
                    cuzk_error *err);
cuzk_status domain_get(cuda_prover *cp, const cuzk_groth16_pk *pk, cuzk_gpu_domain **out,
                       cuzk_error *err);
void key_release(dev_key *k);
/* Device bytes idle residents hold (what evictions could give back). */
size_t idle_bytes(const cuda_prover *cp);
/* After a failure: a sticky CUDA error (the context is lost) marks cp out of service with
 * err's message (backend_cuda.cu). */
void cuda_note_sticky(cuda_prover *cp, const cuzk_error *err);
/* Reports through the owner's logger (cuzk_prover_set_log; stderr by default). */
void cuda_log(cuda_prover *cp, bool warn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void circuit_release(dev_circuit *c);

#endif
