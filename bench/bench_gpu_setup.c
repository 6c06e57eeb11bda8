/*
 * bench_gpu_setup.c — `cuzk bench gpu-setup` (CUDA builds, run only when named): a whole
 * dev setup (cuzk_groth16_setup_dev_ex) of the synthetic PoRep-shaped circuit at 2^k with
 * the GPU hook of the prover layer (--backend cpu: without it), once per size; its phases
 * on stderr. Default sizes 2^20 and 2^24.
 * Threading: the circuit and the setup run on a pool of all CPUs; the hook's device calls
 * come from this thread.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

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
    size_t nk = bench_gpu_log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, bench_gpu_host_threads());
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
            bench_gpu_host_threads(), (size_t)1 << k);
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

static void run_setup(const bench_sized_opts *o)
{
    if ((o->backend && !strcmp(o->backend, "cpu")) || bench_gpu_have_device(o, "setup"))
        gpu_setup_group(o);
}

const bench_sized_group bench_group_gpu_setup = {"gpu-setup", run_setup, true};

#endif /* CUZK_HAVE_CUDA */
