/*
 * bench_gpu_fixed_base.c — `cuzk bench gpu-fixed-base` (CUDA builds, run only when named):
 * k[i] G for 2^k random scalars, host arrays in and out (the dev setup's point
 * multiplications, cuzk_gpu_g1s/g2s_fixed_mul), G1 and G2: points/s, timed by wall clock
 * (bench_sized_time). Default sizes 2^20, 2^24, 2^26; G2 past 2^24 only with --g2 when
 * sizes are given.
 * Threading: the scalars are made on a pool of all CPUs, which the fixed-base object also
 * uses for its host work.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"

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
    size_t nk = bench_gpu_log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, bench_gpu_host_threads());
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
                                k, bench_gpu_host_threads(), n);
            cuzk_fr *sc = malloc(n * sizeof *sc);
            x.out = malloc(n * (g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine)));
            if (!sc || !x.out) {
                bench_sized_fail(o, r, "no host memory for 2^%u points", k);
            } else {
                bench_gpu_fill f = {sc, 5 + k, 0};
                cuzk_pool_for(pool, n, bench_gpu_fill_fr, &f, 1 << 14);
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

static void run_fixed_base(const bench_sized_opts *o)
{
    if (bench_gpu_have_device(o, "fixed-base"))
        gpu_fixed_base_group(o);
}

const bench_sized_group bench_group_gpu_fixed_base = {"gpu-fixed-base", run_fixed_base, true};

#endif /* CUZK_HAVE_CUDA */
