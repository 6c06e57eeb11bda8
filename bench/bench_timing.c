/*
 * bench_timing.c — warm-up, batch calibration and median-of-batches timing (the protocol
 * is described in bench_timing.h). Single-threaded; bench_sink is the only global and is
 * written, never read for decisions.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */

#include "bench_timing.h"

#include <stdlib.h>
#include <time.h>

volatile uint64_t bench_sink;

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double time_batch(bench_run_fn fn, void *ctx, uint64_t n)
{
    double t0 = bench_now_ns();
    fn(ctx, n);
    return bench_now_ns() - t0;
}

void bench_measure_run(bench_measure *m, const bench_opts *o, bench_run_fn fn, void *ctx)
{
    double min_ns = o->min_time_s > 0 ? o->min_time_s * 1e9 : 0;
    /* ~10 batches fit in the minimum time, so the median has something to choose from. */
    double batch_ns = min_ns / 10;
    uint64_t n = o->iters;

    if (n == 0) {
        /* Doubling doubles as warm-up: by the time a batch is long enough, the item has
         * run for about as long again. The 2^40 cap only guards against a broken clock. */
        n = 1;
        for (;;) {
            double t = time_batch(fn, ctx, n);
            if (t >= batch_ns || n >= ((uint64_t)1 << 40))
                break;
            /* Jump close to the target once the timing means something (>= 20 us). */
            if (t > 20e3) {
                double want = (double)n * batch_ns / t;
                uint64_t next = want > (double)(n * 2) ? (uint64_t)want : n * 2;
                n = next;
            } else {
                n *= 2;
            }
        }
    } else {
        time_batch(fn, ctx, n);   /* warm-up at the requested size */
    }

    double per_op[BENCH_MAX_BATCHES];
    unsigned b = 0;
    double spent = 0;
    while (b < BENCH_MAX_BATCHES && (b < BENCH_MIN_BATCHES || spent < min_ns)) {
        double t = time_batch(fn, ctx, n);
        spent += t;
        per_op[b++] = t / (double)n;
    }
    qsort(per_op, b, sizeof per_op[0], bench_cmp_double);
    m->ns_per_op = (b & 1) ? per_op[b / 2] : (per_op[b / 2 - 1] + per_op[b / 2]) / 2;
    m->ns_min = per_op[0];
    m->iters = n * b;
    m->batches = b;
}
