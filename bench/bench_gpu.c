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
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "cuzk/fil_synth.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/prover.h"

#define MIN_RUNS 5u
#define MAX_RUNS 64u
#define GIB (1024.0 * 1024.0 * 1024.0)

/* Host preparation (random points, scalars, the synthetic circuit and random key) runs on
 * every CPU: at 2^27 the key alone is ~47 GiB of points, minutes on one thread. */
static unsigned host_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > CUZK_POOL_MAX_THREADS ? CUZK_POOL_MAX_THREADS : (unsigned)n;
}

static size_t log2_list(const bench_sized_opts *o, unsigned *out, const unsigned *def, size_t nd)
{
    if (o->nlog2) {
        memcpy(out, o->log2, o->nlog2 * sizeof *out);
        return o->nlog2;
    }
    memcpy(out, def, nd * sizeof *out);
    return nd;
}

/* ---- random device data ---------------------------------------------------------------- */

typedef struct fill_ctx {
    cuzk_fr *v;
    uint64_t seed;
    unsigned ones_per_1000; /* 0: dense random; else that many per mille are 0 or 1 */
} fill_ctx;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_fr(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    fill_ctx *x = vctx;
    for (size_t i = begin; i < end; i++) {
        uint64_t h = mix(x->seed + i * 0x9e3779b97f4a7c15ull);
        if (x->ones_per_1000 && h % 1000 < x->ones_per_1000) {
            x->v[i] = (h >> 32) & 1 ? CUZK_FR_ONE : CUZK_FR_ZERO;
            continue;
        }
        for (int k = 0; k < 4; k++)
            x->v[i].l[k] = mix(h + (uint64_t)k + 1);
        x->v[i].l[3] &= 0x3fffffffffffffffull; /* < 2^254 < r: a valid Montgomery value */
    }
}

/* n random scalars on the device (host staging through a temporary buffer). */
static bool device_scalars(cuzk_fr **d, size_t n, unsigned ones_per_1000, uint64_t seed,
                           cuzk_pool *pool)
{
    cuzk_fr *h = malloc(n * sizeof *h);
    if (!h)
        return false;
    fill_ctx x = {h, seed, ones_per_1000};
    cuzk_pool_for(pool, n, fill_fr, &x, 1 << 14);
    bool ok = cudaMalloc((void **)d, n * sizeof *h) == cudaSuccess &&
              cudaMemcpy(*d, h, n * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess;
    free(h);
    return ok;
}

/* ---- event timing ----------------------------------------------------------------------- */

typedef bool (*gpu_op)(void *ctx, cudaStream_t s, cuzk_error *err);

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Warm-up + timed runs with events on s; fills r's runs/best/median. */
static bool time_gpu(const bench_sized_opts *o, bench_sized_result *r, gpu_op op, void *ctx,
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
    qsort(t, runs, sizeof *t, cmp_double);
    r->runs = runs;
    r->best_ms = t[0];
    r->median_ms = t[runs / 2];
    return true;
}

/* ---- gpu-ntt ------------------------------------------------------------------------------ */

typedef struct ntt_ctx {
    cuzk_gpu_domain *gd;
    cuzk_fr *a, *b, *c;
    cuzk_gpu_ntt_kind kind;
} ntt_ctx;

static bool op_ntt(void *p, cudaStream_t s, cuzk_error *err)
{
    ntt_ctx *x = p;
    return cuzk_gpu_ntt(x->gd, x->a, x->kind, (cuzk_gpu_stream)s, err) == CUZK_OK;
}

static bool op_h(void *p, cudaStream_t s, cuzk_error *err)
{
    ntt_ctx *x = p;
    return cuzk_gpu_h_bellperson(x->gd, x->a, x->b, x->c, (cuzk_gpu_stream)s, err) == CUZK_OK;
}

static void gpu_ntt_group(const bench_sized_opts *o)
{
    static const unsigned def[] = {20, 22, 24, 26, 27};
    unsigned ks[BENCH_SIZED_MAX_LIST];
    size_t nk = log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, host_threads());
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (size_t i = 0; i < nk; i++) {
        unsigned k = ks[i];
        size_t n = (size_t)1 << k;
        ntt_ctx x = {0};
        cuzk_domain *dom = malloc(sizeof *dom);
        cuzk_error err;
        bench_sized_result *r0 = bench_sized_add("gpu", "ntt (bellperson)", k, 1, n);
        if (!dom || cuzk_domain_init_bellperson(dom, k) != CUZK_OK ||
            cuzk_gpu_domain_create(&x.gd, dom, &err) != CUZK_OK ||
            !device_scalars(&x.a, n, 0, 1, pool) || !device_scalars(&x.b, n, 0, 2, pool) ||
            !device_scalars(&x.c, n, 0, 3, pool)) {
            bench_sized_fail(o, r0, "setup failed (device memory?)");
        } else {
            static const char *names[4] = {"ntt (bellperson)", "intt", "coset ntt", "coset intt"};
            for (int kind = 0; kind < 4; kind++) {
                bench_sized_result *r = kind ? bench_sized_add("gpu", names[kind], k, 1, n) : r0;
                x.kind = (cuzk_gpu_ntt_kind)kind;
                if (time_gpu(o, r, op_ntt, &x, s))
                    bench_sized_done(o, r);
            }
            bench_sized_result *r = bench_sized_add("gpu", "H bellperson (7 transforms)", k, 1, n);
            if (time_gpu(o, r, op_h, &x, s))
                bench_sized_done(o, r);
        }
        cudaFree(x.a);
        cudaFree(x.b);
        cudaFree(x.c);
        cuzk_gpu_domain_destroy(x.gd);
        free(dom);
    }
    cudaStreamDestroy(s);
    cuzk_pool_destroy(pool);
}

/* ---- gpu-msm ------------------------------------------------------------------------------ */

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
        if (!device_scalars(&x.sc, n, pass ? 987 : 0, 11 + (uint64_t)pass, pool)) {
            bench_sized_fail(o, r, "scalar upload failed");
            continue;
        }
        x.kind = (g2 ? 2 : 0) + pass;
        if (time_gpu(o, r, op_msm, &x, s))
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
                hb[i] = mix(i + 99);
        }
        if (hb && cudaMalloc((void **)&x.bitmap, words * 8) == cudaSuccess &&
            cudaMemcpy(x.bitmap, hb, words * 8, cudaMemcpyHostToDevice) == cudaSuccess) {
            x.kind = 4;
            if (time_gpu(o, r, op_msm, &x, s))
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
    size_t nk = log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, host_threads());
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

/* ---- gpu-prove ----------------------------------------------------------------------------- */

typedef struct worker {
    cuzk_prover *p;
    const cuzk_groth16_pk *pk;
    const cuzk_r1cs *r1cs;
    cuzk_witness w;
    bool real_key;
    unsigned count;
    double start_ms[32], end_ms[32];
    cuzk_prove_timings t[32];
    cuzk_status st;
    char msg[CUZK_ERROR_MSG_MAX];
} worker;

static bool prove_one(worker *wk, unsigned i)
{
    cuzk_error err = {0};
    cuzk_prove_job *job;
    wk->start_ms[i] = cuzk_prover_clock_ms();
    cuzk_status st = cuzk_prover_start(wk->p, wk->pk, wk->r1cs, &wk->w, 1, NULL, &job, &err);
    if (st == CUZK_OK && wk->real_key) {
        cuzk_groth16_proof proof;
        st = cuzk_prover_finalize(job, NULL, NULL, &proof, &wk->t[i], &err);
    } else if (st == CUZK_OK) {
        /* a random key's proofs cannot verify (and the self-check's diagnosis would scan
         * the whole key): time the device part only */
        wk->t[i] = *cuzk_prove_job_timings(job);
        cuzk_prove_job_free(job);
    }
    wk->end_ms[i] = cuzk_prover_clock_ms();
    if (st != CUZK_OK) {
        wk->st = st;
        snprintf(wk->msg, sizeof wk->msg, "%s", err.msg);
        return false;
    }
    return true;
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    for (unsigned i = 0; i < wk->count; i++)
        if (!prove_one(wk, i))
            break;
    return NULL;
}

static void write_trace(const char *path, worker *wk, int nw, double t0)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "{\"traceEvents\":[\n");
    bool first = true;
    for (int w = 0; w < nw; w++)
        for (unsigned i = 0; i < wk[w].count; i++) {
            const cuzk_prove_timings *t = &wk[w].t[i];
            struct {
                const char *name;
                int tid;
                double b, e;
            } ev[4] = {
                {"prepare (pin, alloc, upload)", 1 + w, wk[w].start_ms[i], t->device_begin_ms},
                {"device (mutex held)", 1 + w, t->device_begin_ms, t->device_end_ms},
                {"release + finalize", 1 + w, t->device_end_ms, wk[w].end_ms[i]},
                {"partition", 100, t->device_begin_ms, t->device_end_ms},
            };
            for (int k = 0; k < 4; k++) {
                fprintf(f, "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                           "\"ts\":%.1f,\"dur\":%.1f,\"args\":{\"worker\":%d,\"partition\":%u}}",
                        first ? "" : ",\n", ev[k].name, ev[k].tid, (ev[k].b - t0) * 1e3,
                        (ev[k].e - ev[k].b) * 1e3, w, i);
                first = false;
            }
        }
    for (int w = 0; w <= nw; w++)
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                   "\"args\":{\"name\":\"%s%d\"}}",
                w < nw ? 1 + w : 100, w < nw ? "worker " : "gpu 0", w < nw ? w : 0);
    fprintf(f, "\n]}\n");
    if (fclose(f) == 0)
        rename(tmp, path);
    else
        remove(tmp);
}

/* The measurements of one partition (r: its row, already added): the first proof (key
 * and circuit uploads), single-partition runs with the per-stage breakdown, then two
 * workers back to back with the device's busy fraction (and a Chrome trace with
 * CUZK_TRACE). The caller keeps pk, r1cs and the witness alive and forgets them after. */
static void gpu_prove_measure(const bench_sized_opts *o, bench_sized_result *r, unsigned k,
                              cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                              cuzk_witness w0, bool real_key)
{
    size_t n = (size_t)1 << k;
    worker wk[2];
    memset(wk, 0, sizeof wk);
    for (int w = 0; w < 2; w++) {
        wk[w].p = p;
        wk[w].pk = pk;
        wk[w].r1cs = r1cs;
        wk[w].w = w0;
        wk[w].real_key = real_key;
    }
    /* first proof: uploads the key and circuit (reported), then single-partition runs */
    double u0 = cuzk_prover_clock_ms();
    wk[0].count = 1;
    if (!prove_one(&wk[0], 0)) {
        bench_sized_fail(o, r, "%s", wk[0].msg);
        return;
    }
    double upload_s = (cuzk_prover_clock_ms() - u0) / 1e3;
    cuzk_gpu_profile_report(NULL, NULL, 0);
    /* device memory in use once key, circuit and one proof's (pooled) working set exist */
    size_t dfree = 0, dtotal = 0;
    cudaMemGetInfo(&dfree, &dtotal);
    unsigned runs = o->runs > 3 ? o->runs : 3;
    if (runs > 16)
        runs = 16;
    double wall[16], stage[CUZK_STAGE_COUNT][16];
    for (unsigned i = 0; i < runs; i++) {
        if (!prove_one(&wk[0], 0)) {
            bench_sized_fail(o, r, "%s", wk[0].msg);
            return;
        }
        const cuzk_prove_timings *t = &wk[0].t[0];
        wall[i] = t->device_end_ms - wk[0].start_ms[0];
        for (int s = 0; s < CUZK_STAGE_COUNT; s++)
            stage[s][i] = t->ms[s];
    }
    {
        char title[64];
        snprintf(title, sizeof title, "prove_start 2^%u", k);
        cuzk_gpu_profile_report(stderr, title, runs);
    }
    qsort(wall, runs, sizeof *wall, cmp_double);
    r->runs = runs;
    r->best_ms = wall[0];
    r->median_ms = wall[runs / 2];
    snprintf(r->note, sizeof r->note,
             "%s key%s; first proof incl. key+circuit upload %.1f s; device used %.1f GiB; "
             "host peak RSS %.1f GiB",
             real_key ? "dev" : "random",
             wk[0].t[0].srs_streamed ? " STREAMED from host" : "", upload_s,
             (double)(dtotal - dfree) / GIB,
             (double)bench_sized_peak_rss() / GIB);
    bench_sized_done(o, r);
    for (int s = 0; s < CUZK_STAGE_COUNT; s++) {
        qsort(stage[s], runs, sizeof stage[s][0], cmp_double);
        if (stage[s][runs / 2] == 0)
            continue;
        char name[48];
        snprintf(name, sizeof name, "  stage %s", cuzk_prove_stage_name((cuzk_prove_stage)s));
        bench_sized_result *rs = bench_sized_add("gpu", name, k, 1, n);
        rs->runs = runs;
        rs->best_ms = stage[s][0];
        rs->median_ms = stage[s][runs / 2];
        bench_sized_done(o, rs);
    }
    {
        /* two workers, back to back */
        unsigned per = runs > 4 ? runs : 4;
        bench_sized_result *r2 = bench_sized_add("gpu", "2 workers, per partition", k, 2, n);
        pthread_t th[2];
        double b0 = cuzk_prover_clock_ms();
        for (int w = 0; w < 2; w++) {
            wk[w].count = per;
            wk[w].st = CUZK_OK;
            pthread_create(&th[w], NULL, worker_main, &wk[w]);
        }
        for (int w = 0; w < 2; w++)
            pthread_join(th[w], NULL);
        double b1 = cuzk_prover_clock_ms();
        if (wk[0].st != CUZK_OK || wk[1].st != CUZK_OK) {
            bench_sized_fail(o, r2, "%s", wk[0].st != CUZK_OK ? wk[0].msg : wk[1].msg);
            return;
        }
        /* busy = union of the device-mutex intervals over [first hold, last release] */
        double busy = 0, first = 1e300, last = 0;
        for (int w = 0; w < 2; w++)
            for (unsigned i = 0; i < per; i++) {
                busy += wk[w].t[i].device_end_ms - wk[w].t[i].device_begin_ms;
                if (wk[w].t[i].device_begin_ms < first)
                    first = wk[w].t[i].device_begin_ms;
                if (wk[w].t[i].device_end_ms > last)
                    last = wk[w].t[i].device_end_ms;
            }
        r2->runs = 2 * per;
        r2->best_ms = r2->median_ms = (b1 - b0) / (2 * per);
        snprintf(r2->note, sizeof r2->note, "device busy %.1f%% of %.2f s", 100 * busy / (last - first),
                 (last - first) / 1e3);
        bench_sized_done(o, r2);
        const char *trace = getenv("CUZK_TRACE");
        if (trace && *trace) {
            char path[4000];
            snprintf(path, sizeof path, "%s-2p%u.json", trace, k);
            write_trace(path, wk, 2, b0);
            fprintf(stderr, "gpu-prove 2^%u: timeline written to %s\n", k, path);
        }
    }
}

static void gpu_prove_size(const bench_sized_opts *o, unsigned k, cuzk_pool *pool,
                           cuzk_prover *p)
{
    size_t n = (size_t)1 << k;
    cuzk_error err;
    cuzk_synthetic c;
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    bench_sized_result *r = bench_sized_add("gpu", "prove_start 1 partition", k, 1, n);
    double t0 = cuzk_prover_clock_ms();
    if (cuzk_synthetic_porep(&c, k, 42 + k, pool, &err) != CUZK_OK) {
        bench_sized_fail(o, r, "synthetic circuit: %s", err.msg);
        return;
    }
    double t1 = cuzk_prover_clock_ms();
    /* the dev setup's time grows past a minute beyond 2^17; a dense random witness does
     * not satisfy the circuit, so its proofs are benchmark-only (random key) */
    bool real_key = k <= 17 && !o->dense_witness;
    cuzk_fr *dense = NULL;
    if (o->dense_witness) {
        /* every value a fresh random field element: the MSMs see no 0/1 scalars, as in a
         * PoSt partition (~99 % field values); ONE and the input stay as they are */
        dense = malloc((size_t)c.r1cs->n_vars * sizeof *dense);
        if (!dense) {
            bench_sized_fail(o, r, "out of memory");
            cuzk_synthetic_free(&c);
            return;
        }
        memcpy(dense, c.witness, (1 + c.r1cs->n_public) * sizeof *dense);
        fill_ctx x = {dense + 1 + c.r1cs->n_public, 0x5eed + k, 0};
        cuzk_pool_for(pool, c.r1cs->n_vars - 1 - c.r1cs->n_public, fill_fr, &x, 1 << 14);
    }
    cuzk_status st = real_key ? cuzk_groth16_setup_dev(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                                       NULL, pool, &err)
                              : cuzk_groth16_pk_random(&pk, c.r1cs, CUZK_GROTH16_BELLPERSON, 5,
                                                       pool, &err);
    double t2 = cuzk_prover_clock_ms();
    if (st != CUZK_OK) {
        bench_sized_fail(o, r, "key: %s", err.msg);
        cuzk_synthetic_free(&c);
        return;
    }
    fprintf(stderr, "gpu-prove 2^%u: circuit %.1f s (%llu rows, %.1f%% bits%s), %s key %.1f s\n",
            k, (t1 - t0) / 1e3, (unsigned long long)c.r1cs->n_constraints,
            100.0 * c.bits / c.r1cs->n_aux, dense ? "; witness replaced by random values" : "",
            real_key ? "dev" : "random", (t2 - t1) / 1e3);
    /* what crosses PCIe in the real path: the compact witness (PoRep), or all of it */
    gpu_prove_measure(o, r, k, p, &pk, c.r1cs,
                      dense ? cuzk_witness_dense(dense, c.r1cs->n_vars) : cuzk_synthetic_compact(&c),
                      real_key);
    cuzk_prover_forget(p, &pk, c.r1cs);
    cuzk_groth16_pk_free(&pk);
    cuzk_synthetic_free(&c);
    free(dense);
}

/* "32GiB", "2KiB" or the byte count. */
static const char *fil_size_name(uint64_t b, char buf[24])
{
    if (b >= (1ull << 30) && b % (1ull << 30) == 0)
        snprintf(buf, 24, "%lluGiB", (unsigned long long)(b >> 30));
    else if (b >= (1ull << 20) && b % (1ull << 20) == 0)
        snprintf(buf, 24, "%lluMiB", (unsigned long long)(b >> 20));
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, 24, "%lluKiB", (unsigned long long)(b >> 10));
    else
        snprintf(buf, 24, "%llu", (unsigned long long)b);
    return buf;
}

/* --kind winning-post|window-post|snap: one real Filecoin partition circuit (recorded), its
 * witness from shape-exact random data (cuzk/fil_synth.h: a real partition's work, but it
 * does not satisfy the circuit), a random key: the compact witness's time, then the device
 * measurements. Benchmark only. */
static void gpu_prove_fil(const bench_sized_opts *o, uint64_t size, cuzk_pool *pool,
                          cuzk_prover *p)
{
    bool snap = strcmp(o->kind, "snap") == 0;
    bool winning = strcmp(o->kind, "winning-post") == 0;
    const char *tag = snap ? "snap" : winning ? "winning" : "wpost";
    cuzk_post_partition pp;
    cuzk_snap_partition sp;
    cuzk_r1cs *r1cs = NULL;
    cuzk_witness_map map;
    cuzk_compact_assignment ca;
    cuzk_groth16_pk pk;
    cuzk_error err;
    memset(&pp, 0, sizeof pp);
    memset(&sp, 0, sizeof sp);
    memset(&map, 0, sizeof map);
    memset(&ca, 0, sizeof ca);
    memset(&pk, 0, sizeof pk);
    memset(&err, 0, sizeof err);
    char sz[24], name[48];
    snprintf(name, sizeof name, "prove_start %s %s", tag, fil_size_name(size, sz));
    cuzk_circuit_fn fn = snap ? cuzk_snap_circuit : cuzk_post_circuit;
    const void *ctx = snap ? (const void *)&sp : (const void *)&pp;
    double t0 = cuzk_prover_clock_ms(), t1 = 0, t2 = 0, wbest = 1e300;
    cuzk_status st = snap ? cuzk_snap_synth(size, 7, &sp, &err)
                          : cuzk_post_synth(winning ? CUZK_POST_WINNING : CUZK_POST_WINDOW, size,
                                            7, &pp, &err);
    if (st == CUZK_OK)
        st = cuzk_circuit_record(fn, ctx, &r1cs, &map, &err);
    t1 = cuzk_prover_clock_ms();
    for (int i = 0; st == CUZK_OK && i < 3; i++) { /* best of 3, the last one kept */
        cuzk_compact_assignment_free(&ca);
        double w0 = cuzk_prover_clock_ms();
        st = cuzk_circuit_witness_compact(fn, ctx, &ca, &err);
        double w = cuzk_prover_clock_ms() - w0;
        wbest = w < wbest ? w : wbest;
    }
    if (st == CUZK_OK) {
        t2 = cuzk_prover_clock_ms();
        st = cuzk_groth16_pk_random(&pk, r1cs, CUZK_GROTH16_BELLPERSON, 7, pool, &err);
    }
    if (st != CUZK_OK) {
        bench_sized_fail(o, bench_sized_add("gpu", name, 0, 1, 0), "%s", err.msg);
    } else {
        unsigned k = pk.log2n;
        fprintf(stderr, "gpu-prove %s: circuit recorded in %.1f s (%llu rows, 2^%u, %.1f%% "
                        "bits of aux), random key %.1f s\n",
                name + 12, (t1 - t0) / 1e3, (unsigned long long)r1cs->n_constraints, k,
                100.0 * ca.n_bits / (double)r1cs->n_aux, (cuzk_prover_clock_ms() - t2) / 1e3);
        char wname[48];
        snprintf(wname, sizeof wname, "  witness %s (compact, 1 thr)", tag);
        bench_sized_result *rw = bench_sized_add("gpu", wname, k, 1, (size_t)1 << k);
        rw->runs = 3;
        rw->best_ms = rw->median_ms = wbest;
        bench_sized_done(o, rw);
        bench_sized_result *r = bench_sized_add("gpu", name, k, 1, (size_t)1 << k);
        gpu_prove_measure(o, r, k, p, &pk, r1cs, cuzk_witness_compact(&map, ca.bits, ca.dense),
                          false);
    }
    cuzk_prover_forget(p, &pk, r1cs);
    cuzk_groth16_pk_free(&pk);
    cuzk_compact_assignment_free(&ca);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r1cs);
    cuzk_post_synth_free(&pp);
    cuzk_snap_synth_free(&sp);
}

static void gpu_prove_group(const bench_sized_opts *o)
{
    static const unsigned def[] = {22, 27};
    unsigned ks[BENCH_SIZED_MAX_LIST];
    size_t nk = log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, host_threads());
    cuzk_prover *p = NULL;
    cuzk_error err;
    if (cuzk_prover_open(&p, "gpu", pool, &err) != CUZK_OK) {
        bench_sized_fail(o, bench_sized_add("gpu", "prove", 0, 1, 0), "%s", err.msg);
    } else {
        fprintf(stderr, "gpu-prove on %s\n", cuzk_prover_describe(p));
        if (o->kind && strcmp(o->kind, "porep") != 0) {
            uint64_t sz[BENCH_SIZED_MAX_LIST];
            size_t ns = bench_sized_sectors(o, sz, 32ull << 30);
            for (size_t i = 0; i < ns; i++)
                gpu_prove_fil(o, sz[i], pool, p);
        } else {
            for (size_t i = 0; i < nk; i++)
                gpu_prove_size(o, ks[i], pool, p);
        }
    }
    cuzk_prover_close(p);
    cuzk_pool_destroy(pool);
}

static bool have_device(const bench_sized_opts *o, const char *group)
{
    if (cuzk_gpu_device_count() > 0)
        return true;
    bench_sized_fail(o, bench_sized_add("gpu", group, 0, 0, 0), "no CUDA device");
    return false;
}

static void run_ntt(const bench_sized_opts *o)
{
    if (have_device(o, "ntt"))
        gpu_ntt_group(o);
}
static void run_msm(const bench_sized_opts *o)
{
    if (have_device(o, "msm"))
        gpu_msm_group(o);
}
static void run_prove(const bench_sized_opts *o)
{
    if (have_device(o, "prove"))
        gpu_prove_group(o);
}

/* ---- gpu-fixed-base and gpu-setup -------------------------------------------------------- */

typedef struct fb_ctx {
    cuzk_gpu_fixed_base *fb;
    bool g2;
    void *out;
    const cuzk_fr *k;
    size_t n;
    char msg[CUZK_ERROR_MSG_MAX];
} fb_ctx;

static bool op_fixed_base(void *p)
{
    fb_ctx *x = p;
    cuzk_error err = {0};
    cuzk_status st = x->g2 ? cuzk_gpu_g2s_fixed_mul(x->fb, x->out, NULL, x->k, x->n, &err)
                           : cuzk_gpu_g1s_fixed_mul(x->fb, x->out, NULL, x->k, x->n, &err);
    if (st != CUZK_OK)
        snprintf(x->msg, sizeof x->msg, "%s", err.msg);
    return st == CUZK_OK;
}

/* k[i] G for 2^k random scalars, host arrays in and out (what a dev setup hands the GPU):
 * wall time of the whole call, copies included; the warm-up builds the table and faults
 * the output in. */
static void gpu_fixed_base_group(const bench_sized_opts *o)
{
    static const unsigned def[] = {20, 24, 26};
    unsigned ks[BENCH_SIZED_MAX_LIST];
    size_t nk = log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, host_threads());
    cuzk_gpu_fixed_base_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.pool = pool;
    fb_ctx x;
    memset(&x, 0, sizeof x);
    cuzk_error err = {0};
    if (cuzk_gpu_fixed_base_create(&x.fb, 0, &fo, &err) != CUZK_OK) {
        bench_sized_fail(o, bench_sized_add("gpu", "fixed-base g1", 0, 1, 0), "%s", err.msg);
        cuzk_pool_destroy(pool);
        return;
    }
    for (size_t i = 0; i < nk; i++)
        for (int g2 = 0; g2 < 2; g2++) {
            unsigned k = ks[i];
            size_t n = (size_t)1 << k;
            if (g2 && !o->g2 && o->nlog2 && k > 24) /* G2 past 2^24 only with --g2 */
                continue;
            bench_sized_result *r =
                bench_sized_add("gpu", g2 ? "fixed-base g2 (host in/out)" : "fixed-base g1 (host in/out)",
                                k, host_threads(), n);
            cuzk_fr *sc = malloc(n * sizeof *sc);
            x.out = malloc(n * (g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine)));
            if (!sc || !x.out) {
                bench_sized_fail(o, r, "no host memory for 2^%u points", k);
            } else {
                fill_ctx f = {sc, 5 + k, 0};
                cuzk_pool_for(pool, n, fill_fr, &f, 1 << 14);
                x.g2 = g2;
                x.k = sc;
                x.n = n;
                x.msg[0] = 0;
                if (!bench_sized_time(o, r, op_fixed_base, &x)) {
                    bench_sized_fail(o, r, "%s", x.msg);
                } else {
                    r->extra[0] = (double)n / (r->best_ms * 1e-3) / 1e6;
                    r->extra_name[0] = "Mpoints/s";
                    snprintf(r->note, sizeof r->note,
                             "%.1f M points/s; the 32 GiB PoRep key's %s points: ~%.1f s",
                             r->extra[0], g2 ? "33.1 M G2" : "427 M G1",
                             (g2 ? 33.1 : 427.0) / r->extra[0]);
                    bench_sized_done(o, r);
                }
                cuzk_gpu_profile_report(stderr, r->name, r->runs + 1);
            }
            free(sc);
            free(x.out);
            x.out = NULL;
        }
    cuzk_gpu_fixed_base_destroy(x.fb);
    cuzk_pool_destroy(pool);
}

static void setup_log_line(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "  %s\n", msg);
}

/* A whole development setup of the synthetic PoRep-shaped circuit at 2^k (2^27: the 32 GiB
 * PoRep partition's shape) with the point multiplications on GPU 0, once (at 2^27 about
 * 100 GB of host memory: circuit ~30, key 47, scalars ~21); its phases go to stderr.
 * --backend cpu times the CPU setup instead. */
static void gpu_setup_group(const bench_sized_opts *o)
{
    static const unsigned def[] = {20, 24};
    unsigned ks[BENCH_SIZED_MAX_LIST];
    size_t nk = log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, host_threads());
    bool cpu = o->backend && !strcmp(o->backend, "cpu");
    cuzk_error err = {0};
    cuzk_prover *p = NULL;
    cuzk_groth16_fixed_base_hook *hook = NULL;
    if (!cpu && (cuzk_prover_open(&p, o->backend ? o->backend : "gpu:0", pool, &err) != CUZK_OK ||
                 cuzk_prover_fixed_base_hook_open(p, &hook, &err) != CUZK_OK)) {
        bench_sized_fail(o, bench_sized_add("gpu", "setup", 0, 1, 0), "%s", err.msg);
        cuzk_prover_close(p);
        cuzk_pool_destroy(pool);
        return;
    }
    for (size_t i = 0; i < nk; i++) {
        unsigned k = ks[i];
        bench_sized_result *r = bench_sized_add(
            "gpu", cpu ? "dev setup, cpu (synthetic porep)" : "dev setup, gpu (synthetic porep)", k,
            host_threads(), (size_t)1 << k);
        cuzk_synthetic syn = {0};
        double t0 = bench_now_ns();
        if (cuzk_synthetic_porep(&syn, k, 1, pool, &err) != CUZK_OK) {
            bench_sized_fail(o, r, "synthetic circuit: %s", err.msg);
            cuzk_synthetic_free(&syn);
            continue;
        }
        double t1 = bench_now_ns();
        /* the witness is not needed: its memory goes before the key's */
        free(syn.witness);
        free(syn.bit_values);
        free(syn.dense);
        syn.witness = NULL;
        syn.bit_values = NULL;
        syn.dense = NULL;
        fprintf(stderr, "gpu-setup 2^%u: circuit in %.1f s (%llu rows, %u variables)\n", k,
                (t1 - t0) * 1e-9, (unsigned long long)syn.r1cs->n_constraints, syn.r1cs->n_vars);
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        so.fixed_base = hook;
        so.log = setup_log_line;
        uint8_t seed[32];
        memset(seed, 7, sizeof seed);
        cuzk_groth16_pk pk;
        double s0 = bench_now_ns();
        cuzk_status st = cuzk_groth16_setup_dev_ex(&pk, NULL, syn.r1cs, CUZK_GROTH16_BELLPERSON,
                                                   seed, pool, &so, &err);
        double s1 = bench_now_ns();
        if (st != CUZK_OK) {
            bench_sized_fail(o, r, "setup: %s", err.msg);
        } else {
            r->runs = 1;
            r->best_ms = r->median_ms = (s1 - s0) * 1e-6;
            r->extra[0] = (double)(pk.n_h + pk.n_l + pk.n_a + pk.n_b_g1) / 1e6;
            r->extra_name[0] = "M G1 points";
            r->extra[1] = (double)pk.n_b_g2 / 1e6;
            r->extra_name[1] = "M G2 points";
            snprintf(r->note, sizeof r->note, "%.1f M G1 + %.1f M G2 points in %.1f s (%s)",
                     r->extra[0], r->extra[1], (s1 - s0) * 1e-9,
                     hook ? hook->name : "cpu");
            bench_sized_done(o, r);
            cuzk_groth16_pk_free(&pk);
        }
        cuzk_synthetic_free(&syn);
    }
    cuzk_prover_fixed_base_hook_close(hook);
    cuzk_prover_close(p);
    cuzk_pool_destroy(pool);
}

static void run_fixed_base(const bench_sized_opts *o)
{
    if (have_device(o, "fixed-base"))
        gpu_fixed_base_group(o);
}
static void run_setup(const bench_sized_opts *o)
{
    if ((o->backend && !strcmp(o->backend, "cpu")) || have_device(o, "setup"))
        gpu_setup_group(o);
}

const bench_sized_group bench_group_gpu_ntt = {"gpu-ntt", run_ntt, true};
const bench_sized_group bench_group_gpu_msm = {"gpu-msm", run_msm, true};
const bench_sized_group bench_group_gpu_prove = {"gpu-prove", run_prove, true};
const bench_sized_group bench_group_gpu_fixed_base = {"gpu-fixed-base", run_fixed_base, true};
const bench_sized_group bench_group_gpu_setup = {"gpu-setup", run_setup, true};

#endif /* CUZK_HAVE_CUDA */
