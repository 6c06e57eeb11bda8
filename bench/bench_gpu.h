/*
 * bench_gpu.h — what the GPU benchmark groups of `cuzk bench` share (CUDA builds only):
 * host threads for input preparation, the size list, random scalars (host and device),
 * CUDA-event timing of a device operation, and the "no CUDA device" row. The groups live
 * in bench_gpu_ntt.c, bench_gpu_msm.c, bench_gpu_prove.c, bench_gpu_fixed_base.c and
 * bench_gpu_setup.c; the helpers in bench_gpu.c, whose opening comment describes them all.
 * Threading: call from the harness's thread; the fills run on the given pool.
 */
#ifndef CUZK_BENCH_GPU_H
#define CUZK_BENCH_GPU_H

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/status.h"

#include "bench_sized.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

/* Host preparation (random points, scalars, the synthetic circuit and random key) runs on
 * every CPU: at 2^27 the key alone is ~47 GiB of points, minutes on one thread. */
unsigned bench_gpu_host_threads(void);

/* The sizes of a group: o's --log2 list, else the group's nd defaults. Returns the count. */
size_t bench_gpu_log2_list(const bench_sized_opts *o, unsigned *out, const unsigned *def,
                           size_t nd);

/* ---- random data ------------------------------------------------------------------------ */

static inline uint64_t bench_gpu_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct bench_gpu_fill {
    cuzk_fr *v;
    uint64_t seed;
    unsigned ones_per_1000; /* 0: dense random; else that many per mille are 0 or 1 */
} bench_gpu_fill;

/* A cuzk_pool_for body: v[begin, end) from seed (ctx: a bench_gpu_fill). */
void bench_gpu_fill_fr(void *ctx, size_t begin, size_t end, unsigned worker);

/* n random scalars on the device (host staging through a temporary buffer). */
bool bench_gpu_device_scalars(cuzk_fr **d, size_t n, unsigned ones_per_1000, uint64_t seed,
                              cuzk_pool *pool);

/* ---- event timing ----------------------------------------------------------------------- */

typedef bool (*bench_gpu_op)(void *ctx, cudaStream_t s, cuzk_error *err);

/* Warm-up + timed runs with events on s (max(--runs, 5), at most 64); fills r's
 * runs/best/median, or marks r failed and returns false. */
bool bench_gpu_time(const bench_sized_opts *o, bench_sized_result *r, bench_gpu_op op, void *ctx,
                    cudaStream_t s);

/* true if there is a CUDA device; else a failed row "gpu <group>: no CUDA device". */
bool bench_gpu_have_device(const bench_sized_opts *o, const char *group);

#endif /* CUZK_HAVE_CUDA */
#endif
