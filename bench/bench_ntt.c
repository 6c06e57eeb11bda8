/*
 * bench_ntt.c — `cuzk bench ntt [--log2 K,..] [--threads T,..]`: wall time of whole
 * radix-2 transforms over Fr and of the prover's quotient (H) step, per element.
 *
 * For each size 2^k and pool size t:
 *   NTT, iNTT, coset NTT   one in-place transform of 2^k elements (bellperson domain;
 *                          the snarkjs domain differs only in its constants)
 *   H bellperson           cuzk_poly_h_bellperson: 3 iNTT + 3 coset NTT + pointwise
 *                          (a*b - c)/Z + 1 coset iNTT, i.e. everything Groth16 does
 *                          between A.w/B.w/C.w and the H MSM
 *   H snarkjs              cuzk_poly_h_snarkjs on the snarkjs domain (no division)
 * The arrays hold random field elements; the transforms' cost does not depend on the
 * values, and transforming already-transformed data again keeps them field elements, so
 * the runs need no refill.
 *
 * Threading: the timed calls run on a pool of t participants (t = 1: inline).
 */
#include "bench.h"
#include "bench_sized.h"

#include <stdlib.h>

#include "cuzk/poly.h"

#define DEFAULT_LOG2 16u

typedef struct ntt_ctx {
    cuzk_domain *dom;   /* bellperson */
    cuzk_domain *dsj;   /* snarkjs */
    cuzk_fr *a, *b, *c;
    cuzk_pool *pool;
} ntt_ctx;

static bool run_ntt(void *p)
{
    ntt_ctx *x = p;
    return cuzk_ntt(x->dom, x->a, x->pool) == CUZK_OK;
}

static bool run_intt(void *p)
{
    ntt_ctx *x = p;
    return cuzk_intt(x->dom, x->a, x->pool) == CUZK_OK;
}

static bool run_coset(void *p)
{
    ntt_ctx *x = p;
    return cuzk_coset_ntt(x->dom, x->a, x->pool) == CUZK_OK;
}

static bool run_h_bellperson(void *p)
{
    ntt_ctx *x = p;
    return cuzk_poly_h_bellperson(x->dom, x->a, x->b, x->c, x->pool) == CUZK_OK;
}

static bool run_h_snarkjs(void *p)
{
    ntt_ctx *x = p;
    return cuzk_poly_h_snarkjs(x->dsj, x->a, x->b, x->c, x->pool) == CUZK_OK;
}

static void item(const bench_sized_opts *o, ntt_ctx *x, const char *name, unsigned k,
                 unsigned t, bool (*fn)(void *), const char *note)
{
    bench_sized_result *r = bench_sized_add("ntt", name, k, t, (uint64_t)1 << k);
    if (!bench_sized_time(o, r, fn, x)) {
        bench_sized_fail(o, r, "the transform failed");
        return;
    }
    snprintf(r->note, sizeof r->note, "%s", note);
    bench_sized_done(o, r);
}

static void ntt_group(const bench_sized_opts *o)
{
    unsigned logs[BENCH_SIZED_MAX_LIST], thr[BENCH_SIZED_MAX_LIST];
    size_t nl = bench_sized_log2s(o, logs, DEFAULT_LOG2);
    size_t nt = bench_sized_threads(o, thr);
    unsigned kmax = 0;
    for (size_t i = 0; i < nl; i++)
        kmax = logs[i] > kmax ? logs[i] : kmax;
    size_t N = (size_t)1 << kmax;

    ntt_ctx x = {0};
    x.dom = malloc(sizeof *x.dom);
    x.dsj = malloc(sizeof *x.dsj);
    x.a = malloc(N * sizeof *x.a);
    x.b = malloc(N * sizeof *x.b);
    x.c = malloc(N * sizeof *x.c);
    if (!x.dom || !x.dsj || !x.a || !x.b || !x.c) {
        bench_sized_fail(o, bench_sized_add("ntt", "inputs", kmax, 0, N),
                         "cannot allocate 3 x 2^%u elements", kmax);
        goto out;
    }
    for (size_t i = 0; i < N; i++) {
        bench_rand_fr(&x.a[i]);
        bench_rand_fr(&x.b[i]);
        bench_rand_fr(&x.c[i]);
    }
    for (size_t ti = 0; ti < nt; ti++) {
        if (!bench_sized_pool(&x.pool, thr[ti])) {
            bench_sized_fail(o, bench_sized_add("ntt", "pool", 0, thr[ti], 0),
                             "cannot create a pool of %u threads", thr[ti]);
            continue;
        }
        for (size_t li = 0; li < nl; li++) {
            unsigned k = logs[li];
            if (cuzk_domain_init_bellperson(x.dom, k) != CUZK_OK ||
                cuzk_domain_init_snarkjs(x.dsj, k) != CUZK_OK) {
                bench_sized_fail(o, bench_sized_add("ntt", "domain", k, thr[ti], 0),
                                 "no domain of size 2^%u", k);
                continue;
            }
            item(o, &x, "NTT", k, thr[ti], run_ntt, "");
            item(o, &x, "iNTT", k, thr[ti], run_intt, "");
            item(o, &x, "coset NTT", k, thr[ti], run_coset, "");
            item(o, &x, "H bellperson", k, thr[ti], run_h_bellperson,
                 "7 transforms + (ab-c)/Z");
            item(o, &x, "H snarkjs", k, thr[ti], run_h_snarkjs, "6 transforms + ab-c");
        }
        cuzk_pool_destroy(x.pool);
        x.pool = NULL;
    }
out:
    free(x.dom);
    free(x.dsj);
    free(x.a);
    free(x.b);
    free(x.c);
}

const bench_sized_group bench_group_ntt = {"ntt", ntt_group, false};
