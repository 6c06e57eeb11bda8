/*
 * bench_sized.h — the size-parameterised `cuzk bench` groups: msm (bench_msm.c), ntt
 * (bench_ntt.c) and prove (bench_prove.c), and the harness they share (bench_sized.c).
 *
 * Unlike the per-operation items of bench.h, one operation here is a whole MSM, transform
 * or proof of 2^k elements, so each measurement is a list of wall-clock runs of that
 * operation: one warm-up run (it faults in the buffers; one of 2 s or more counts as the
 * first run instead, as its page faults are noise by then), then runs until at least
 * opts->runs runs and opts->min_time_s seconds have passed (capped at
 * BENCH_SIZED_MAX_RUNS); the best and the median run are reported, the per-element cost
 * from the best. Wall time, not CPU time, because multi-threaded runs are measured too.
 *
 * Results are collected in one process-wide list so cmd_bench can print them after the
 * item table (text: as they finish; JSON: inside the same "results" array).
 * Threading: the harness runs on one thread; the groups create a cuzk_pool of the
 * requested size for each thread count and destroy it before the next one.
 */
#ifndef CUZK_BENCH_SIZED_H
#define CUZK_BENCH_SIZED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/ec.h"
#include "cuzk/pool.h"

#define BENCH_SIZED_MAX_LIST 8
#define BENCH_SIZED_MAX_RUNS 1000
#define BENCH_SIZED_MAX_LOG2 28u   /* the largest domain; the CPU groups report a failed
                                      * allocation when the machine is too small */

typedef enum { BENCH_FLAVOUR_BELLPERSON = 1, BENCH_FLAVOUR_SNARKJS = 2 } bench_flavour;

typedef struct bench_sized_opts {
    unsigned log2[BENCH_SIZED_MAX_LIST];     /* sizes; nlog2 == 0: the group's default */
    size_t nlog2;
    unsigned threads[BENCH_SIZED_MAX_LIST];  /* pool sizes; nthreads == 0: the default */
    size_t nthreads;
    bool g2;            /* msm: also time G2 */
    double ones;        /* msm: fraction of scalars that are 0/1 in the Filecoin-like mix */
    bench_flavour flavour;
    const char *backend; /* prove: NULL = the groth16 prover directly; else a prover
                            backend spec (cuzk/prover.h) */
    const char *devices; /* pipeline: the engine's device list ("all", "gpu:0,gpu:1",
                            "cpu,cpu"); NULL = the backend alone */
    bool no_cache;      /* prove: always run the dev setup, never read/write /tmp keys */
    const char *kind;   /* synth: porep, window-post, winning-post, snap (NULL: porep) */
    uint64_t sector_size[BENCH_SIZED_MAX_LIST]; /* synth: bytes; nsector == 0: 2 KiB */
    size_t nsector;
    bool witness_only;  /* synth: no record and no A.w/B.w/C.w (sizes too large to record) */
    bool dense_witness; /* gpu-prove: random field elements for every witness value (a
                           PoSt partition's scalar mix) instead of the PoRep-shaped one */
    unsigned runs;      /* minimum timed runs per measurement */
    double min_time_s;  /* minimum time spent per measurement (after the warm-up) */
    bool json;          /* results are printed by bench_sized_json, not as they come */
} bench_sized_opts;     /* defaults, parsing and usage lines: bench_args.h */

#define BENCH_SIZED_EXTRAS 6

typedef struct bench_sized_result {
    const char *group;
    char name[48];
    unsigned log2, threads;
    uint64_t n;               /* elements the per-element cost divides by */
    unsigned runs;
    double best_ms, median_ms;
    double extra[BENCH_SIZED_EXTRAS]; /* group-specific numbers, named by extra_name (NULL:
                                         none) */
    const char *extra_name[BENCH_SIZED_EXTRAS];
    char note[256];           /* free text; the error message when failed */
    bool failed;
} bench_sized_result;

typedef struct bench_sized_group {
    const char *name;
    /* Runs every measurement of the group for o; results go through bench_sized_add. */
    void (*run)(const bench_sized_opts *o);
    bool explicit_only; /* run only when named (the GPU groups), not in the default set */
} bench_sized_group;

extern const bench_sized_group bench_group_msm;
extern const bench_sized_group bench_group_ntt;
extern const bench_sized_group bench_group_prove;
extern const bench_sized_group bench_group_pipeline; /* bench_pipeline.c, explicit-only */
extern const bench_sized_group bench_group_synth;    /* bench_synth.c, explicit-only */
extern const bench_sized_group bench_group_csr;      /* bench_csr.c, explicit-only */
#ifdef CUZK_HAVE_CUDA
extern const bench_sized_group bench_group_gpu_ntt;   /* bench_gpu_*.c */
extern const bench_sized_group bench_group_gpu_msm;
extern const bench_sized_group bench_group_gpu_prove;
extern const bench_sized_group bench_group_gpu_fixed_base;
extern const bench_sized_group bench_group_gpu_setup;
#endif

/* The sizes / thread counts a group uses: o's lists, or the given defaults (threads 0
 * stands for the number of online CPUs; duplicates are dropped). Returns the count. */
size_t bench_sized_log2s(const bench_sized_opts *o, unsigned *out, unsigned def);
size_t bench_sized_threads(const bench_sized_opts *o, unsigned *out);
size_t bench_sized_sectors(const bench_sized_opts *o, uint64_t *out, uint64_t def);

/* A new result in the process-wide list (never NULL: a full list reuses a scratch slot
 * that is not reported), pre-filled with group, name, log2, threads, n. */
bench_sized_result *bench_sized_add(const char *group, const char *name, unsigned log2,
                                    unsigned threads, uint64_t n);
/* Marks r done: prints its row unless JSON output was asked for. */
void bench_sized_done(const bench_sized_opts *o, bench_sized_result *r);
void bench_sized_fail(const bench_sized_opts *o, bench_sized_result *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Times fn(ctx) per the protocol above into r (runs, best_ms, median_ms). fn returns
 * false on failure: then r is marked failed and false is returned. */
bool bench_sized_time(const bench_sized_opts *o, bench_sized_result *r, bool (*fn)(void *),
                      void *ctx);

/* Writes the results as JSON objects, each preceded by ",\n  " unless it is the first
 * of the whole array (first_in_array). */
void bench_sized_json(FILE *out, bool first_in_array);

/* A pool of t participants (t == 1: NULL, i.e. inline). false on failure. */
bool bench_sized_pool(cuzk_pool **pool, unsigned t);

/* Points for MSMs: P_i = P_{i-1} + Q_{random of 16}, 16 random multiples Q of the
 * generator, normalised in batches; random-looking and cheap at 2^20 (nothing in a
 * Pippenger can see the structure). false if the temporary buffers cannot be allocated. */
bool bench_sized_g1_points(cuzk_g1_affine *pts, size_t n);
bool bench_sized_g2_points(cuzk_g2_affine *pts, size_t n);

/* Peak resident set (VmHWM) in bytes, and a reset of that peak to the current RSS
 * (/proc/self/clear_refs "5"; false if the kernel refuses). Current RSS in bytes. */
uint64_t bench_sized_peak_rss(void);
bool bench_sized_reset_peak_rss(void);
uint64_t bench_sized_rss(void);

#endif
