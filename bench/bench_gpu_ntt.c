/*
 * bench_gpu_ntt.c — `cuzk bench gpu-ntt` (CUDA builds, run only when named): NTT / iNTT /
 * coset NTT / coset iNTT and the whole quotient H (bellperson, 7 transforms) at 2^k, data
 * on the device, each timed with CUDA events (bench_gpu_time). Default sizes 2^20 .. 2^27.
 * Threading: the random inputs are made on a pool of all CPUs; device work on one stream.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <stdlib.h>

#include "cuzk/gpu.h"
#include "cuzk/poly.h"

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
    size_t nk = bench_gpu_log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, bench_gpu_host_threads());
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
            !bench_gpu_device_scalars(&x.a, n, 0, 1, pool) ||
            !bench_gpu_device_scalars(&x.b, n, 0, 2, pool) ||
            !bench_gpu_device_scalars(&x.c, n, 0, 3, pool)) {
            bench_sized_fail(o, r0, "setup failed (device memory?)");
        } else {
            static const char *names[4] = {"ntt (bellperson)", "intt", "coset ntt", "coset intt"};
            for (int kind = 0; kind < 4; kind++) {
                bench_sized_result *r = kind ? bench_sized_add("gpu", names[kind], k, 1, n) : r0;
                x.kind = (cuzk_gpu_ntt_kind)kind;
                if (bench_gpu_time(o, r, op_ntt, &x, s))
                    bench_sized_done(o, r);
            }
            bench_sized_result *r = bench_sized_add("gpu", "H bellperson (7 transforms)", k, 1, n);
            if (bench_gpu_time(o, r, op_h, &x, s))
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

static void run_ntt(const bench_sized_opts *o)
{
    if (bench_gpu_have_device(o, "ntt"))
        gpu_ntt_group(o);
}

const bench_sized_group bench_group_gpu_ntt = {"gpu-ntt", run_ntt, true};

#endif /* CUZK_HAVE_CUDA */
