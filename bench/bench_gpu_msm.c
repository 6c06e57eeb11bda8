/*
 * bench_gpu_msm.c — `cuzk bench gpu-msm` (CUDA builds, run only when named): G1 MSM with
 * random scalars and with PoRep-like scalars (98.7% in {0,1}, through the device 0/1
 * split), G2 MSM (--g2, or the default sizes), and the bitmap sum alone; bases on the
 * device, each timed with CUDA events (bench_gpu_time). Default sizes 2^20 .. 2^27 (G1),
 * 2^22 and 2^24 (G2).
 * Threading: the random points and scalars are made on a pool of all CPUs; device work on
 * one stream.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <stdlib.h>

#include "cuzk/ec.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"

typedef struct msm_ctx {
    void *pts;
    cuzk_fr *sc;
    uint64_t *bitmap;
    size_t n;
    void *scratch;
    size_t scratch_size;
    void *out;
    int kind; /* 0 g1 msm, 1 g1 msm_auto, 2 g2 msm, 3 g2 auto, 4 g1 bitmap sum */
} msm_ctx;

static bool op_msm(void *p, cudaStream_t s, cuzk_error *err)
{
    msm_ctx *x = p;
    cuzk_gpu_stream gs = (cuzk_gpu_stream)s;
    switch (x->kind) {
    case 0:
        return cuzk_gpu_g1s_msm(x->out, x->pts, x->sc, x->n, x->scratch, x->scratch_size, gs,
                                err) == CUZK_OK;
    case 1:
        return cuzk_gpu_g1s_msm_auto(x->out, x->pts, x->sc, x->n, x->scratch, x->scratch_size,
                                     gs, err) == CUZK_OK;
    case 2:
        return cuzk_gpu_g2s_msm(x->out, x->pts, x->sc, x->n, x->scratch, x->scratch_size, gs,
                                err) == CUZK_OK;
    case 3:
        return cuzk_gpu_g2s_msm_auto(x->out, x->pts, x->sc, x->n, x->scratch, x->scratch_size,
                                     gs, err) == CUZK_OK;
    default:
        return cuzk_gpu_g1s_sum_bitmap(x->out, x->pts, x->bitmap, x->n, x->scratch,
                                       x->scratch_size, gs, err) == CUZK_OK;
    }
}

static void msm_series(const bench_sized_opts *o, bool g2, unsigned k, cuzk_pool *pool,
                       cudaStream_t s)
{
    size_t n = (size_t)1 << k;
    size_t psz = g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine);
    msm_ctx x = {.n = n};
    void *hp = malloc(n * psz);
    cuzk_error err;
    bench_sized_result *r0 = bench_sized_add("gpu", g2 ? "msm g2 random" : "msm g1 random", k, 1, n);
    bool ok = hp && (g2 ? cuzk_g2s_fill_random(hp, n, 7, pool, &err)
                        : cuzk_g1s_fill_random(hp, n, 7, pool, &err)) == CUZK_OK;
    ok = ok && cudaMalloc(&x.pts, n * psz) == cudaSuccess &&
         cudaMemcpy(x.pts, hp, n * psz, cudaMemcpyHostToDevice) == cudaSuccess;
    free(hp);
    x.scratch_size = g2 ? cuzk_gpu_g2s_msm_auto_scratch_size(n) : cuzk_gpu_g1s_msm_auto_scratch_size(n);
    size_t plain = g2 ? cuzk_gpu_g2s_msm_scratch_size(n) : cuzk_gpu_g1s_msm_scratch_size(n);
    if (plain > x.scratch_size)
        x.scratch_size = plain;
    size_t bsum = cuzk_gpu_g1s_sum_bitmap_scratch_size(n);
    if (!g2 && bsum > x.scratch_size)
        x.scratch_size = bsum;
    ok = ok && cudaMalloc(&x.scratch, x.scratch_size) == cudaSuccess &&
         cudaMalloc(&x.out, sizeof(cuzk_g2_jac)) == cudaSuccess;
    if (!ok) {
        bench_sized_fail(o, r0, "setup failed (%.1f GiB of points + %.1f GiB scratch)",
                         n * psz / GIB, x.scratch_size / GIB);
        goto done;
    }
    /* random scalars, then PoRep-like (98.7% in {0,1}) */
    for (int pass = 0; pass < 2; pass++) {
        bench_sized_result *r = pass ? bench_sized_add("gpu", g2 ? "msm g2 porep-like (split)"
                                                                 : "msm g1 porep-like (split)",
                                                       k, 1, n)
                                     : r0;
        if (!bench_gpu_device_scalars(&x.sc, n, pass ? 987 : 0, 11 + (uint64_t)pass, pool)) {
            bench_sized_fail(o, r, "scalar upload failed");
            continue;
        }
        x.kind = (g2 ? 2 : 0) + pass;
        if (bench_gpu_time(o, r, op_msm, &x, s))
            bench_sized_done(o, r);
        cudaFree(x.sc);
        x.sc = NULL;
    }
    if (!g2) { /* the batch addition alone: half the bases selected */
        size_t words = (n + 63) / 64;
        uint64_t *hb = malloc(words * 8);
        bench_sized_result *r = bench_sized_add("gpu", "sum bitmap g1 (50%)", k, 1, n);
        if (hb) {
            for (size_t i = 0; i < words; i++)
                hb[i] = bench_gpu_mix(i + 99);
        }
        if (hb && cudaMalloc((void **)&x.bitmap, words * 8) == cudaSuccess &&
            cudaMemcpy(x.bitmap, hb, words * 8, cudaMemcpyHostToDevice) == cudaSuccess) {
            x.kind = 4;
            if (bench_gpu_time(o, r, op_msm, &x, s))
                bench_sized_done(o, r);
        } else {
            bench_sized_fail(o, r, "bitmap setup failed");
        }
        free(hb);
        cudaFree(x.bitmap);
    }
done:
    cudaFree(x.pts);
    cudaFree(x.scratch);
    cudaFree(x.out);
}

static void gpu_msm_group(const bench_sized_opts *o)
{
    static const unsigned def[] = {20, 22, 24, 26, 27};
    unsigned ks[BENCH_SIZED_MAX_LIST];
    size_t nk = bench_gpu_log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, bench_gpu_host_threads());
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (size_t i = 0; i < nk; i++)
        msm_series(o, false, ks[i], pool, s);
    if (o->g2 || !o->nlog2) {
        static const unsigned g2def[] = {22, 24};
        for (size_t i = 0; i < (o->nlog2 ? nk : 2); i++)
            msm_series(o, true, o->nlog2 ? ks[i] : g2def[i], pool, s);
    }
    cudaStreamDestroy(s);
    cuzk_pool_destroy(pool);
}

static void run_msm(const bench_sized_opts *o)
{
    if (bench_gpu_have_device(o, "msm"))
        gpu_msm_group(o);
}

const bench_sized_group bench_group_gpu_msm = {"gpu-msm", run_msm, true};

#endif /* CUZK_HAVE_CUDA */
