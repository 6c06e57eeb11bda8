/*
 * bench_pipeline.c — `cuzk bench pipeline`: what the engine costs. For each size 2^k
 * (default 16) and thread count, the same work is done twice with the same kind of key
 * (a dev setup up to 2^16, so every proof is self-checked and verifies; a random key
 * above, benchmark-only results):
 *   bare    a loop on one thread: synthesize the synthetic circuit's witness, then
 *           cuzk_prover_start + cuzk_prover_finalize (self-check included), N times;
 *   engine  J jobs of P partitions (N = J x P) submitted at once to an engine on the
 *           CPU backend, timed from the first submit until all are done.
 * Rows: s/proof of each (best_ms / median_ms hold the per-proof time), the engine's
 * overhead over the bare loop in %, the per-stage busy ratios (stage time summed over
 * partitions / wall: synthesis, device, finalize) and the engine run's peak RSS.
 * Jobs: J = max(3, --runs), P = 2. Explicit-only: runs when named.
 * Threading: the engine's threads; the bare loop on the calling thread with a pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_sized.h"
#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#define PARTS 2u
#define MIB (1024.0 * 1024.0)

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

/* The bare loop: ms per proof, or < 0 with the message in r. */
static double run_bare(const bench_sized_opts *o, bench_sized_result *r, unsigned k, unsigned t,
                       unsigned nproofs, bool real_key)
{
    cuzk_pool *pool = NULL;
    cuzk_prover *p = NULL;
    cuzk_synthetic syn = {0};
    cuzk_groth16_pk pk = {0};
    cuzk_error err = {0};
    double ms = -1;
    cuzk_status st = cuzk_pool_create(&pool, t) == CUZK_OK ? CUZK_OK : CUZK_ERR_NOMEM;
    if (st == CUZK_OK)
        st = cuzk_prover_open(&p, "cpu", pool, &err);
    if (st == CUZK_OK)
        st = cuzk_synthetic_porep(&syn, k, 1, pool, &err);
    if (st == CUZK_OK)
        st = real_key ? cuzk_groth16_setup_dev(&pk, NULL, syn.r1cs, CUZK_GROTH16_BELLPERSON, NULL,
                                               pool, &err)
                      : cuzk_groth16_pk_random(&pk, syn.r1cs, CUZK_GROTH16_BELLPERSON, 1, pool,
                                               &err);
    double t0 = bench_now_ns();
    for (unsigned i = 0; st == CUZK_OK && i <= nproofs; i++) {
        if (i == 1)
            t0 = bench_now_ns(); /* proof 0 warms up */
        cuzk_synthetic w = {0};
        st = cuzk_synthetic_porep(&w, k, 1, pool, &err);
        if (st != CUZK_OK)
            break;
        cuzk_r1cs_destroy(w.r1cs);
        cuzk_witness wv = cuzk_witness_dense(w.witness, syn.r1cs->n_vars);
        cuzk_prove_job *job;
        cuzk_groth16_proof proof;
        st = cuzk_prover_start(p, &pk, syn.r1cs, &wv, 1, NULL, &job, &err);
        if (st == CUZK_OK)
            st = cuzk_prover_finalize(job, NULL, NULL, &proof, NULL, &err);
        if (!real_key && st == CUZK_ERR_INVALID_PROOF)
            st = CUZK_OK;
        free(w.witness);
    }
    if (st == CUZK_OK)
        ms = (bench_now_ns() - t0) * 1e-6 / nproofs;
    else
        bench_sized_fail(o, r, "%s", err.msg);
    cuzk_prover_close(p);
    cuzk_groth16_pk_free(&pk);
    cuzk_synthetic_free(&syn);
    cuzk_pool_destroy(pool);
    return ms;
}

typedef struct engine_run {
    double ms_per_proof;
    double busy[3]; /* synthesis, device, finalize */
    uint64_t peak_rss;
    bool benchmark_only;
} engine_run;

static bool run_engine(const bench_sized_opts *o, bench_sized_result *r, unsigned k, unsigned t,
                       unsigned jobs, bool real_key, engine_run *out)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.threads = t;
    c.synthetic_setup_max_log2n = real_key ? k : 2;
    c.log = quiet;
    cuzk_engine *e;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK) {
        bench_sized_fail(o, r, "engine: %s", err.msg);
        return false;
    }
    char id[64];
    snprintf(id, sizeof id, "synthetic-%u-1", k);
    bool ok = cuzk_engine_preload(e, id, NULL, NULL, &err) == CUZK_OK;
    /* one warm-up job, then the timed batch */
    char (*ids)[CUZK_JOB_ID_SIZE] = calloc(jobs + 1, sizeof *ids);
    ok = ok && ids;
    bench_sized_reset_peak_rss();
    double t0 = 0;
    uint64_t sum[3] = {0};
    for (unsigned i = 0; ok && i <= jobs; i++) {
        cuzk_job_request req = {.kind = CUZK_PROOF_SYNTHETIC};
        req.synthetic.log2n = k;
        req.synthetic.partitions = i == 0 ? 1 : PARTS;
        req.synthetic.seed = 1;
        cuzk_job_ticket tk;
        ok = cuzk_engine_submit(e, &req, &tk, &err) == CUZK_OK;
        memcpy(ids[i], tk.job_id, CUZK_JOB_ID_SIZE);
        if (ok && i == 0) {
            cuzk_job_result res;
            ok = cuzk_engine_await(e, ids[0], 0, &res, &err) == CUZK_OK &&
                 res.state == CUZK_JOB_COMPLETED;
            if (!ok && !err.msg[0])
                snprintf(err.msg, sizeof err.msg, "warm-up job: %.200s", res.error);
            cuzk_job_result_free(&res);
            t0 = bench_now_ns();
        }
    }
    for (unsigned i = 1; ok && i <= jobs; i++) {
        cuzk_job_result res;
        ok = cuzk_engine_await(e, ids[i], 0, &res, &err) == CUZK_OK &&
             res.state == CUZK_JOB_COMPLETED;
        if (!ok && !err.msg[0])
            snprintf(err.msg, sizeof err.msg, "job %u: %.200s", i, res.error);
        out->benchmark_only = res.benchmark_only;
        sum[0] += res.t.synthesis_ms;
        sum[1] += res.t.gpu_compute_ms;
        sum[2] += res.t.finalize_ms;
        cuzk_job_result_free(&res);
    }
    double wall = (bench_now_ns() - t0) * 1e-6;
    out->peak_rss = bench_sized_peak_rss();
    if (ok) {
        out->ms_per_proof = wall / (jobs * PARTS);
        for (int s = 0; s < 3; s++)
            out->busy[s] = (double)sum[s] / wall;
        if (getenv("CUZK_TRACE")) {
            char path[512];
            snprintf(path, sizeof path, "%s-pipeline-2^%u.json", getenv("CUZK_TRACE"), k);
            if (cuzk_engine_timeline_write(e, path, &err) == CUZK_OK)
                fprintf(stderr, "pipeline timeline: %s\n", path);
        }
    } else {
        bench_sized_fail(o, r, "%s", err.msg[0] ? err.msg : "engine run failed");
    }
    free(ids);
    cuzk_engine_destroy(e);
    return ok;
}

static void run_pipeline(const bench_sized_opts *o)
{
    unsigned ks[BENCH_SIZED_MAX_LIST], ts[BENCH_SIZED_MAX_LIST];
    size_t nk = bench_sized_log2s(o, ks, 16), nt = bench_sized_threads(o, ts);
    unsigned jobs = o->runs > 3 ? o->runs : 3;
    for (size_t i = 0; i < nk; i++)
        for (size_t j = 0; j < nt; j++) {
            unsigned k = ks[i], t = ts[j];
            bool real_key = k <= 16;
            uint64_t n = 1ull << k;
            bench_sized_result *rb = bench_sized_add("pipeline", "bare s/proof", k, t, n);
            bench_sized_result *re = bench_sized_add("pipeline", "engine s/proof", k, t, n);
            double bare = run_bare(o, rb, k, t, jobs * PARTS, real_key);
            if (bare < 0) {
                re->failed = true;
                snprintf(re->note, sizeof re->note, "see bare");
                bench_sized_done(o, re);
                continue;
            }
            rb->runs = jobs * PARTS;
            rb->best_ms = rb->median_ms = bare;
            snprintf(rb->note, sizeof rb->note, "synthesize + start + finalize, %s key",
                     real_key ? "dev" : "random");
            bench_sized_done(o, rb);
            engine_run er = {0};
            if (!run_engine(o, re, k, t, jobs, real_key, &er))
                continue;
            re->runs = jobs * PARTS;
            re->best_ms = re->median_ms = er.ms_per_proof;
            snprintf(re->note, sizeof re->note, "%u jobs x %u partitions, overhead %+.1f%%%s",
                     jobs, PARTS, 100.0 * (er.ms_per_proof / bare - 1.0),
                     er.benchmark_only ? ", benchmark-only" : ", verified");
            re->extra_name[0] = "overhead_pct";
            re->extra[0] = 100.0 * (er.ms_per_proof / bare - 1.0);
            re->extra_name[1] = "synth_busy";
            re->extra[1] = er.busy[0];
            re->extra_name[2] = "device_busy";
            re->extra[2] = er.busy[1];
            re->extra_name[3] = "peak_rss_mib";
            re->extra[3] = (double)er.peak_rss / MIB;
            bench_sized_done(o, re);
            fprintf(stderr, "pipeline 2^%u t=%u: finalize busy %.2f\n", k, t, er.busy[2]);
        }
}

const bench_sized_group bench_group_pipeline = {"pipeline", run_pipeline, true};
