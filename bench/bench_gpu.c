/*
 * bench_gpu.c — the GPU benchmark groups of `cuzk bench` (CUDA builds, run only when named):
 *   gpu-ntt    NTT / iNTT / coset NTT and the whole quotient H (bellperson) at 2^k,
 *              data on the device
 *   gpu-msm    G1 MSM with random scalars and with PoRep-like scalars (98.7% in {0,1},
 *              through the device 0/1 split), G2 MSM, the bitmap sum; bases on the device
 *   gpu-prove  the synthetic PoRep-shaped partition (cuzk/circuits.h) through the CUDA
 *              prover backend: one partition with its per-stage breakdown, then two
 *              workers proving partitions back to back, with the device's busy fraction
 *              and, with --trace FILE, a Chrome trace-event timeline (Perfetto);
 *              --dense-witness: every witness value random (a PoSt partition's scalars);
 *              --kind winning-post|window-post|snap --sector-size S: the real Filecoin
 *              partition circuit on shape-exact random data (cuzk/fil_synth.h), its
 *              compact witness timed, then the same device measurements
 *   gpu-fixed-base  k[i] G for 2^k random scalars, host arrays in and out (the dev setup's
 *              point multiplications, cuzk_gpu_g1s/g2s_fixed_mul), G1 and G2: points/s
 *   gpu-setup  a whole dev setup (cuzk_groth16_setup_dev_ex) of the synthetic PoRep-shaped
 *              circuit at 2^k with the GPU hook (--backend cpu: without), phases on stderr
 * Each group is a file of its own (bench_gpu_ntt.c, bench_gpu_msm.c, bench_gpu_prove.c,
 * bench_gpu_fixed_base.c, bench_gpu_setup.c); this one holds the helpers they share
 * (bench_gpu.h).
 *
 * Timing: device work is timed with CUDA events around the call, after one warm-up run,
 * over at least max(--runs, 5) runs; best and median are reported. The proving rows time
 * prove_start (everything the device does, uploads of the witness included) by wall clock,
 * which is what a worker waits for.
 *
 * Keys: up to 2^17 a dev setup makes a real key, so the proofs are finalized and pass the
 * self-check; above that a random key of the right shape (cuzk_groth16_pk_random) stands
 * in and only prove_start runs (its proofs could not verify).
 * Threading: host preparation runs on a pool of all CPUs; device work on one stream per
 * measurement; the two-worker run uses two threads on one prover.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"

#define MIN_RUNS 5u
#define MAX_RUNS 64u

unsigned bench_gpu_host_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > CUZK_POOL_MAX_THREADS ? CUZK_POOL_MAX_THREADS : (unsigned)n;
}

size_t bench_gpu_log2_list(const bench_sized_opts *o, unsigned *out, const unsigned *def,
                           size_t nd)
{
    if (o->nlog2) {
        memcpy(out, o->log2, o->nlog2 * sizeof *out);
        return o->nlog2;
    }
    memcpy(out, def, nd * sizeof *out);
    return nd;
}

/* ---- random device data ---------------------------------------------------------------- */

void bench_gpu_fill_fr(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    bench_gpu_fill *x = vctx;
    for (size_t i = begin; i < end; i++) {
        uint64_t h = bench_gpu_mix(x->seed + i * 0x9e3779b97f4a7c15ull);
        if (x->ones_per_1000 && h % 1000 < x->ones_per_1000) {
            x->v[i] = (h >> 32) & 1 ? CUZK_FR_ONE : CUZK_FR_ZERO;
            continue;
        }
        for (int k = 0; k < 4; k++)
            x->v[i].l[k] = bench_gpu_mix(h + (uint64_t)k + 1);
        x->v[i].l[3] &= 0x3fffffffffffffffull; /* < 2^254 < r: a valid Montgomery value */
    }
}

bool bench_gpu_device_scalars(cuzk_fr **d, size_t n, unsigned ones_per_1000, uint64_t seed,
                              cuzk_pool *pool)
{
    cuzk_fr *h = malloc(n * sizeof *h);
    if (!h)
        return false;
    bench_gpu_fill x = {h, seed, ones_per_1000};
    cuzk_pool_for(pool, n, bench_gpu_fill_fr, &x, 1 << 14);
    bool ok = cudaMalloc((void **)d, n * sizeof *h) == cudaSuccess &&
              cudaMemcpy(*d, h, n * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess;
    free(h);
    return ok;
}

/* ---- event timing ----------------------------------------------------------------------- */

bool bench_gpu_time(const bench_sized_opts *o, bench_sized_result *r, bench_gpu_op op, void *ctx,
                    cudaStream_t s)
{
    cudaEvent_t e0, e1;
    cuzk_error err = {0};
    unsigned runs = o->runs > MIN_RUNS ? o->runs : MIN_RUNS;
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    double t[MAX_RUNS];
    if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        bench_sized_fail(o, r, "cudaEventCreate failed");
        return false;
    }
    bool ok = op(ctx, s, &err) && cudaStreamSynchronize(s) == cudaSuccess;
    cuzk_gpu_profile_report(NULL, NULL, 0); /* the warm-up's phases are not counted */
    for (unsigned i = 0; ok && i < runs; i++) {
        float ms = 0;
        ok = cudaEventRecord(e0, s) == cudaSuccess && op(ctx, s, &err) &&
             cudaEventRecord(e1, s) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
             cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
        t[i] = ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (!ok) {
        bench_sized_fail(o, r, "%s", err.msg[0] ? err.msg : cudaGetErrorString(cudaGetLastError()));
        return false;
    }
    char title[96];
    snprintf(title, sizeof title, "%s 2^%u", r->name, r->log2);
    cuzk_gpu_profile_report(stderr, title, runs);
    qsort(t, runs, sizeof *t, bench_cmp_double);
    r->runs = runs;
    r->best_ms = t[0];
    r->median_ms = t[runs / 2];
    return true;
}

bool bench_gpu_have_device(const bench_sized_opts *o, const char *group)
{
    if (cuzk_gpu_device_count() > 0)
        return true;
    bench_sized_fail(o, bench_sized_add("gpu", group, 0, 0, 0), "no CUDA device");
    return false;
}

#endif /* CUZK_HAVE_CUDA */
