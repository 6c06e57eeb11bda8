/*
 * bench_pipeline.c — `cuzk bench pipeline [--backend cpu|gpu|gpu:N] [--devices LIST|all]`:
 * what the engine costs, and how it scales over several devices (--devices: the engine on
 * the list, the bare loop on its first device; the note gives the throughput as a multiple
 * of one device's, the scaling efficiency against N x one, and each device's busy ratio).
 * For each size 2^k (default 16) and thread count, the same work is done twice on the same
 * backend (default cpu) with the same kind of key (a dev setup up to 2^16, so every proof
 * is self-checked and verifies; a random key above, benchmark-only results):
 *   bare    a loop on one thread: cuzk_prover_start + cuzk_prover_finalize (self-check
 *           included) on the synthetic circuit's compact witness, computed once, P times;
 *   engine  J synthetic jobs of P partitions submitted at once to an engine on that
 *           backend, timed from the first submit until all are done. The engine's
 *           synthetic partitions share the witness computed when the key loads (see
 *           srs_key), so both sides prove the same witness and synthesis costs nothing.
 * Rows: s/proof of each (best_ms / median_ms hold the per-proof time), the engine's
 * overhead over the bare loop in %, the engine run's host peak RSS (VmHWM, reset before
 * the run where /proc/self/clear_refs allows) and the per-stage busy ratios read from the
 * engine's timeline: for each stage (synthesize, prove_start, device = the backend's
 * device-held interval, finalize) the share of the timed window during which at least one
 * of its workers was in it (the union of its events: 1.0 = never idle, whatever the
 * number of workers).
 * Jobs: J = max(3, --runs); P = 2 on the CPU backend, 10 on a GPU (a 32 GiB PoRep proof).
 * Explicit-only: runs when named.
 * Threading: the engine's threads; the bare loop on the calling thread with a pool.
 */
#define _DEFAULT_SOURCE /* mkstemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_sized.h"
#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

/* Partitions per job: 2 on the CPU backend (small sizes, CI), 10 on a GPU (a 32 GiB PoRep
 * proof's count, as the throughput goal states it). */
static unsigned parts_for(const char *backend)
{
    return strncmp(backend, "cpu", 3) == 0 ? 2u : 10u;
}
#define MIB (1024.0 * 1024.0)

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

/* The bare loop: ms per proof, or < 0 with the message in r. */
static double run_bare(const bench_sized_opts *o, bench_sized_result *r, unsigned k, unsigned t,
                       const char *backend, unsigned nproofs, bool real_key)
{
    cuzk_pool *pool = NULL;
    cuzk_prover *p = NULL;
    cuzk_synthetic syn = {0};
    cuzk_groth16_pk pk = {0};
    cuzk_error err = {0};
    double ms = -1;
    cuzk_status st = cuzk_pool_create(&pool, t) == CUZK_OK ? CUZK_OK : CUZK_ERR_NOMEM;
    if (st == CUZK_OK)
        st = cuzk_prover_open(&p, backend, pool, &err);
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
        /* the witness the engine's synthetic partitions use: computed once, compact */
        cuzk_witness wv = cuzk_synthetic_compact(&syn);
        cuzk_prove_job *job;
        cuzk_groth16_proof proof;
        st = cuzk_prover_start(p, &pk, syn.r1cs, &wv, 1, NULL, &job, &err);
        if (st == CUZK_OK)
            st = cuzk_prover_finalize(job, NULL, NULL, &proof, NULL, &err);
        if (!real_key && st == CUZK_ERR_INVALID_PROOF)
            st = CUZK_OK;
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

/* The timeline's stages, by event name (src/engine/pipeline.c). */
enum { ST_SYNTH, ST_START, ST_DEVICE, ST_FINALIZE, ST_COUNT };
static const char *const k_stage_event[ST_COUNT] = {"synthesize", "prove_start", "device",
                                                    "finalize"};

#define MAX_DEVS 16

typedef struct engine_run {
    double ms_per_proof;
    double busy[ST_COUNT];
    double dev_busy[MAX_DEVS]; /* per device track, in track order (= device order) */
    unsigned ndev;
    uint64_t peak_rss;
    bool benchmark_only;
} engine_run;

typedef struct ival {
    double a, b;
} ival;

static int ival_cmp(const void *x, const void *y)
{
    const ival *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

/* A growing list of intervals. */
typedef struct ivals {
    ival *v;
    size_t n, cap;
} ivals;

/* Appends [a, b] clipped to [w0, w1] (nothing when empty); false when out of memory. */
static bool ivals_add(ivals *l, double a, double b, double w0, double w1)
{
    a = a < w0 ? w0 : a;
    b = b > w1 ? w1 : b;
    if (b <= a)
        return true;
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 256;
        ival *v = realloc(l->v, c * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = c;
    }
    l->v[l->n++] = (ival){a, b};
    return true;
}

/* Length of the union of n intervals (sorted here). */
static double union_len(ival *v, size_t n)
{
    qsort(v, n, sizeof *v, ival_cmp);
    double len = 0, a = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || v[i].a > b) {
            len += b - a;
            a = v[i].a;
            b = v[i].b;
        } else if (v[i].b > b) {
            b = v[i].b;
        }
    }
    return n ? len + (b - a) : 0;
}

/* busy[s] = union of stage s's timeline events clipped to [w0, w1] (cuzk_prover_clock_ms)
 * / (w1 - w0). The timeline is written to a temporary file and read back: one "X" event a
 * line, in the fixed form src/engine/timeline.c writes. */
static bool timeline_busy(cuzk_engine *e, double w0, double w1, engine_run *out,
                          cuzk_error *err)
{
    double *busy = out->busy;
    int dev_tid[MAX_DEVS];
    ivals dv[MAX_DEVS];
    memset(dv, 0, sizeof dv);
    out->ndev = 0;
    char path[] = "/tmp/cuzk-bench-timeline-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "timeline: cannot create a temporary file");
        return false;
    }
    close(fd);
    bool ok = cuzk_engine_timeline_write(e, path, err) == CUZK_OK;
    FILE *f = ok ? fopen(path, "r") : NULL;
    ivals iv[ST_COUNT];
    memset(iv, 0, sizeof iv);
    char line[512];
    while (f && ok && fgets(line, sizeof line, f)) {
        char name[64];
        int tid;
        double ts, dur;
        if (sscanf(line, "{\"name\":\"%63[^\"]\",\"cat\":\"engine\",\"ph\":\"X\",\"pid\":1,"
                         "\"tid\":%d,\"ts\":%lf,\"dur\":%lf",
                   name, &tid, &ts, &dur) != 4)
            continue;
        double a = ts * 1e-3, b = (ts + dur) * 1e-3;
        if (strcmp(name, "device") == 0) { /* the same intervals, per device track */
            unsigned d = 0;
            while (d < out->ndev && dev_tid[d] != tid)
                d++;
            if (d == out->ndev && d < MAX_DEVS)
                dev_tid[out->ndev++] = tid;
            if (d < MAX_DEVS && !ivals_add(&dv[d], a, b, w0, w1))
                ok = false;
        }
        for (int s = 0; s < ST_COUNT; s++)
            if (strcmp(name, k_stage_event[s]) == 0 && !ivals_add(&iv[s], a, b, w0, w1))
                ok = false;
    }
    if (f)
        fclose(f);
    else
        ok = false;
    unlink(path);
    for (int s = 0; s < ST_COUNT; s++) {
        busy[s] = ok && w1 > w0 ? union_len(iv[s].v, iv[s].n) / (w1 - w0) : 0;
        free(iv[s].v);
    }
    /* tracks in creation order: the engine makes device d's track before device d + 1's */
    for (unsigned i = 0; i < out->ndev; i++)
        for (unsigned j = i + 1; j < out->ndev; j++)
            if (dev_tid[j] < dev_tid[i]) {
                int t = dev_tid[i];
                ivals v = dv[i];
                dev_tid[i] = dev_tid[j], dv[i] = dv[j];
                dev_tid[j] = t, dv[j] = v;
            }
    for (unsigned d = 0; d < out->ndev; d++) {
        out->dev_busy[d] = ok && w1 > w0 ? union_len(dv[d].v, dv[d].n) / (w1 - w0) : 0;
        free(dv[d].v);
    }
    if (!ok && !err->msg[0])
        snprintf(err->msg, sizeof err->msg, "timeline: cannot read it back");
    return ok;
}

static bool run_engine(const bench_sized_opts *o, bench_sized_result *r, unsigned k, unsigned t,
                       const char *backend, const char *devices, unsigned jobs, bool real_key,
                       engine_run *out)
{
    const unsigned parts = parts_for(backend);
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = devices;
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
    double t0 = 0, w0 = 0;
    for (unsigned i = 0; ok && i <= jobs; i++) {
        cuzk_job_request req = {.kind = CUZK_PROOF_SYNTHETIC};
        req.synthetic.log2n = k;
        req.synthetic.partitions = i == 0 ? 1 : parts;
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
            w0 = cuzk_prover_clock_ms();
        }
    }
    for (unsigned i = 1; ok && i <= jobs; i++) {
        cuzk_job_result res;
        ok = cuzk_engine_await(e, ids[i], 0, &res, &err) == CUZK_OK &&
             res.state == CUZK_JOB_COMPLETED;
        if (!ok && !err.msg[0])
            snprintf(err.msg, sizeof err.msg, "job %u: %.200s", i, res.error);
        out->benchmark_only = res.benchmark_only;
        cuzk_job_result_free(&res);
    }
    double wall = (bench_now_ns() - t0) * 1e-6, w1 = cuzk_prover_clock_ms();
    out->peak_rss = bench_sized_peak_rss();
    ok = ok && timeline_busy(e, w0, w1, out, &err);
    if (ok) {
        out->ms_per_proof = wall / (jobs * parts);
        if (getenv("CUZK_TRACE")) {
            char path[512];
            snprintf(path, sizeof path, "%s-pipeline-2p%u.json", getenv("CUZK_TRACE"), k);
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
    /* with --devices the engine gets the list and the bare loop its first device */
    const char *devices = o->devices ? o->devices : o->backend ? o->backend : "cpu";
    char first[64];
    if (strcmp(devices, "all") == 0)
        snprintf(first, sizeof first, "%s", cuzk_prover_gpu_count() ? "gpu:0" : "cpu");
    else
        snprintf(first, sizeof first, "%.*s", (int)strcspn(devices, ","), devices);
    const char *backend = first;
    const unsigned parts = parts_for(backend);
    for (size_t i = 0; i < nk; i++)
        for (size_t j = 0; j < nt; j++) {
            unsigned k = ks[i], t = ts[j];
            bool real_key = k <= 16;
            uint64_t n = 1ull << k;
            bench_sized_result *rb = bench_sized_add("pipeline", "bare s/proof", k, t, n);
            bench_sized_result *re = bench_sized_add("pipeline", "engine s/proof", k, t, n);
            double bare = run_bare(o, rb, k, t, backend, parts, real_key);
            if (bare < 0) {
                re->failed = true;
                snprintf(re->note, sizeof re->note, "see bare");
                bench_sized_done(o, re);
                continue;
            }
            rb->runs = parts;
            rb->best_ms = rb->median_ms = bare;
            snprintf(rb->note, sizeof rb->note, "start + finalize, %s key",
                     real_key ? "dev" : "random");
            bench_sized_done(o, rb);
            engine_run er = {0};
            if (!run_engine(o, re, k, t, backend, devices, jobs, real_key, &er))
                continue;
            re->runs = jobs * parts;
            re->best_ms = re->median_ms = er.ms_per_proof;
            int w = snprintf(re->note, sizeof re->note, "%u jobs x %u partitions, overhead %+.1f%%%s",
                             jobs, parts, 100.0 * (er.ms_per_proof / bare - 1.0),
                             er.benchmark_only ? ", benchmark-only" : ", verified");
            if (er.ndev > 1 && w > 0 && (size_t)w < sizeof re->note) {
                /* N devices against N x the bare loop on one */
                w += snprintf(re->note + w, sizeof re->note - (size_t)w,
                              ", %u devices: %.2f x one (scaling %.0f%%), busy", er.ndev,
                              bare / er.ms_per_proof, 100.0 * bare / (er.ms_per_proof * er.ndev));
                for (unsigned d = 0; d < er.ndev && w > 0 && (size_t)w < sizeof re->note; d++)
                    w += snprintf(re->note + w, sizeof re->note - (size_t)w, " %.3f",
                                  er.dev_busy[d]);
            }
            re->extra_name[0] = "overhead_pct";
            re->extra[0] = 100.0 * (er.ms_per_proof / bare - 1.0);
            re->extra_name[1] = "peak_rss_mib";
            re->extra[1] = (double)er.peak_rss / MIB;
            static const char *const busy_names[ST_COUNT] = {"synth_busy", "start_busy",
                                                             "device_busy", "finalize_busy"};
            for (int s = 0; s < ST_COUNT; s++) {
                re->extra_name[2 + s] = busy_names[s];
                re->extra[2 + s] = er.busy[s];
            }
            bench_sized_done(o, re);
        }
}

const bench_sized_group bench_group_pipeline = {"pipeline", run_pipeline, true};
