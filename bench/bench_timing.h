/*
 * bench_timing.h — the measurement protocol shared by every `cuzk bench` item (and by any
 * out-of-tree comparison program that wants numbers taken the same way).
 *
 * Protocol: an item is a function that performs n operations. The harness warms it up by
 * doubling n until one batch takes at least 1/10 of the minimum time (this also brings the
 * caches, branch predictors and CPU clock up), then runs batches of that size until both
 * the minimum time has passed and at least BENCH_MIN_BATCHES batches ran, and reports the
 * median of the per-batch ns/op. The median rather than the mean keeps a preempted batch
 * (2 shared cores) from moving the result.
 *
 * Depends only on libc (clock_gettime(CLOCK_MONOTONIC)); no cuzk headers.
 * Threading: no shared state; call from one thread per measurement.
 */
#ifndef CUZK_BENCH_TIMING_H
#define CUZK_BENCH_TIMING_H

#include <stdint.h>

#define BENCH_MIN_BATCHES 5
#define BENCH_MAX_BATCHES 255

typedef struct bench_opts {
    double min_time_s;   /* time spent measuring each item (after warm-up) */
    uint64_t iters;      /* ops per batch; 0 = calibrate from min_time_s */
} bench_opts;

typedef struct bench_measure {
    double ns_per_op;    /* median over batches */
    double ns_min;       /* fastest batch, for noise estimates */
    uint64_t iters;      /* operations timed in total (warm-up excluded) */
    unsigned batches;
} bench_measure;

/* Runs n operations; ctx is the item's state. */
typedef void (*bench_run_fn)(void *ctx, uint64_t n);

double bench_now_ns(void);
/* qsort comparator: doubles in ascending order (for the best and the median of a run list). */
int bench_cmp_double(const void *a, const void *b);
void bench_measure_run(bench_measure *m, const bench_opts *o, bench_run_fn fn, void *ctx);

/* Results are written here so the compiler cannot drop the work that produced them. */
extern volatile uint64_t bench_sink;

#endif
