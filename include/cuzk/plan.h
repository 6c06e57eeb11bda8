/*
 * cuzk/plan.h — the memory plan of the Filecoin proof kinds: what a job of a kind and
 * sector size takes on the host and on a device, from each circuit's exact counts, and
 * whether it fits a machine as the engine admits it.
 *
 * Model
 *   Counts: one row per (kind, sector size) — PoRep C2, WindowPoSt, WinningPoSt and
 *   SnapDeals at 2 KiB, 8 MiB, 512 MiB, 32 GiB and 64 GiB — of the partition circuit as
 *   the counting backend counts it (cuzk/circuits.h; `cuzk inspect circuit` prints the
 *   same numbers): rows, inputs, aux, non-zeros per matrix, A and B densities, bit
 *   variables, distinct coefficients, domain. A unit test holds the table to the counting
 *   backend at the small sizes and to independent checks at the large ones.
 *   Memory (cuzk_fil_memory): from those counts only, by the formulas the code that holds
 *   the memory uses:
 *     key on the host       the decoded proving key (h, l, a, b_g1 in G1, b_g2 in G2, vk);
 *     circuit on the host   the recorded circuit's arrays as mapped from its CSR cache
 *                           (4-byte coefficient indices into the table of distinct
 *                           values) with its compact-witness map; and as recorded in
 *                           memory when there is no cache (32-byte coefficients);
 *     a partition, host     its compact witness (bits as a bitmap, the rest dense Fr) and
 *                           the engine's margin; on the CPU backend also the witness
 *                           expanded to dense and the CPU prover's scratch;
 *     device                cuzk_prover_gpu_need: the key and the circuit when resident,
 *                           one partition's working set, what streaming adds.
 *   Plan (cuzk_plan_make): a machine (RAM or a budget, CPU or one GPU and its memory) and
 *   the engine's rules: the budget (RAM less the safety margin), the key and circuit
 *   charged once, each partition in flight charged its host bytes, at most as many in
 *   flight as the engine's stages hold; on a GPU the backend's residency decisions (the
 *   circuit and then the key resident when they fit next to a working set, else streamed
 *   from host memory). It fits when the key, the circuit and one partition fit the budget
 *   and one working set fits the device; the reason says what it takes, or what is short
 *   and by how much.
 *
 * Threading: pure functions over a constant table.
 */
#ifndef CUZK_PLAN_H
#define CUZK_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/prover.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exact counts of one partition's circuit (bellperson's numbering: ONE is input 0). */
typedef struct cuzk_fil_counts {
    cuzk_proof_kind kind;    /* POREP_SEAL_COMMIT, WINDOW_POST_PARTITION, WINNING_POST,
                                SNAP_DEALS_UPDATE */
    uint64_t sector_size;
    uint64_t constraints;    /* the circuit's rows, bellperson's input rows excluded */
    uint64_t inputs;         /* ONE + public inputs: the input rows, the vk's ic points */
    uint64_t aux;
    uint64_t nnz[3];         /* non-zero terms of A, B, C */
    uint64_t a_aux;          /* aux variables with a term in A */
    uint64_t b_inputs;       /* inputs (ONE included) with a term in B */
    uint64_t b_aux;          /* aux variables with a term in B */
    uint64_t bits;           /* aux variables kept as bits in a compact witness */
    uint64_t coeffs;         /* distinct coefficients, ONE included */
    unsigned log2n;          /* the NTT domain: constraints + inputs rounded up */
} cuzk_fil_counts;

/* The row for (kind, sector_size), or NULL (another kind or size). */
const cuzk_fil_counts *cuzk_fil_counts_get(cuzk_proof_kind kind, uint64_t sector_size);
/* Rows of the table, in (kind, size) order, for listings and tests. */
const cuzk_fil_counts *cuzk_fil_counts_table(unsigned *n);

/* The key's vectors and the device shape implied by counts (bellperson keys). */
void cuzk_fil_counts_key(const cuzk_fil_counts *c, uint64_t *n_h, uint64_t *n_l,
                         uint64_t *n_a, uint64_t *n_b);
void cuzk_fil_counts_gpu_shape(const cuzk_fil_counts *c, cuzk_gpu_shape *s);

/* Bytes a job of the kind takes, by part. */
typedef struct cuzk_fil_memory {
    uint64_t key_host;           /* decoded proving key: vectors and vk */
    uint64_t circuit_host;       /* the circuit as mapped from its CSR cache, + witness map */
    uint64_t circuit_recorded;   /* the circuit recorded in memory (no cache), + witness map */
    uint64_t witness;            /* one partition's compact witness */
    uint64_t partition_host_gpu; /* a partition proved on a GPU: witness + margin */
    uint64_t partition_host_cpu; /* on the CPU: + dense expansion + the CPU prover's scratch */
    cuzk_gpu_need device;        /* on a device (CUDA backend) */
} cuzk_fil_memory;

/* cpu_threads: the CPU pool the CPU prover's scratch is sized for (0 = 1). Errors:
 * CUZK_ERR_UNSUPPORTED (no row for kind and size). */
cuzk_status cuzk_fil_memory_get(cuzk_proof_kind kind, uint64_t sector_size,
                                unsigned cpu_threads, cuzk_fil_memory *out, cuzk_error *err);

/* The machine a plan is made for. */
typedef struct cuzk_plan_machine {
    uint64_t memory;            /* host RAM (MemTotal); used when budget is 0 */
    uint64_t budget;            /* the engine's memory budget; 0 = memory - safety_margin,
                                   the engine's own rule (cuzk_engine_config) */
    uint64_t safety_margin;     /* 0 = the engine's default, 5 GiB */
    bool gpu;                   /* proving on one GPU (else on the CPU) */
    uint64_t device_memory;     /* the GPU's memory (gpu only) */
    unsigned cpu_threads;       /* the CPU pool (0 = 1) */
    bool no_csr_cache;          /* circuits are recorded in memory (the engine has no cache
                                   directory: csr_cache_dir, dev_key_dir or state_dir) */
    /* the engine's stages (0 = its defaults: 2 synthesis workers, 2 workers a device,
     * 2 finalizers, a device queue of one partition per worker; the latency classes'
     * extra workers, src/engine/sched.h, hold no bulk partition) */
    unsigned synthesis_workers, workers_per_device, finalizers, device_queue_depth;
} cuzk_plan_machine;

typedef struct cuzk_plan {
    cuzk_fil_counts counts;
    cuzk_fil_memory mem;
    uint32_t partitions;            /* of one job (PoRep 10 at 32/64 GiB; PoSt 1; ...) */
    uint64_t budget;                /* the memory budget planned against (the GPU's pinned
                                       staging already taken off, as the engine does) */
    uint64_t stage_host_bytes;      /* that staging: cuzk_prover_gpu_stage_for (0 on the CPU) */
    uint64_t key_host_bytes;        /* mem.key_host */
    uint64_t circuit_host_bytes;    /* mapped or recorded, as the machine loads it */
    uint64_t partition_host_bytes;  /* a partition on this machine's backend */
    uint64_t key_device_bytes;      /* 0 on the CPU, or when the key is streamed */
    uint64_t circuit_device_bytes;  /* 0 on the CPU; the tables only when streamed */
    uint64_t partition_device_bytes;/* one working set (with what streaming adds); 0 on CPU */
    uint32_t partitions_in_flight;  /* partitions held at once: budget and stages allow */
    uint32_t device_working_sets;   /* working sets side by side on the device (1 or 2) */
    bool key_streamed, circuit_streamed;
    bool host_fits, device_fits, fits;
    char reason[512];               /* fits: what it takes; else what is short, by how much */
} cuzk_plan;

/* Errors: CUZK_ERR_INVALID_ARG (NULL, no memory and no budget, gpu without device memory),
 * CUZK_ERR_UNSUPPORTED (no row for kind and size). A job that does not fit is CUZK_OK with
 * fits false. */
cuzk_status cuzk_plan_make(cuzk_proof_kind kind, uint64_t sector_size,
                           const cuzk_plan_machine *m, cuzk_plan *out, cuzk_error *err);

/* The engine's budget rule: memory - margin (margin 0 = 5 GiB), half the memory when the
 * margin is larger than it. */
uint64_t cuzk_plan_budget(uint64_t memory, uint64_t margin);
/* This machine's RAM as the engine reads it (MemTotal, /proc/meminfo); 0 if unreadable. */
uint64_t cuzk_plan_host_memory(void);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PLAN_H */
