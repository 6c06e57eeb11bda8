/*
 * bench_gpu_prove.c — `cuzk bench gpu-prove` (CUDA builds, run only when named): the
 * synthetic PoRep-shaped partition (cuzk/circuits.h) through the CUDA prover backend: one
 * partition with its per-stage breakdown, then two workers proving partitions back to
 * back, with the device's busy fraction and, with CUZK_TRACE=PREFIX, a Chrome trace-event
 * timeline (Perfetto); --dense-witness: every witness value random (a PoSt partition's
 * scalars); --kind winning-post|window-post|snap --sector-size S: the real Filecoin
 * partition circuit on shape-exact random data (cuzk/fil_synth.h), its compact witness
 * timed, then the same device measurements.
 *
 * The proving rows time prove_start (everything the device does, uploads of the witness
 * included) by wall clock, which is what a worker waits for. Keys: up to 2^17 a dev setup
 * makes a real key, so the proofs are finalized and pass the self-check; above that a
 * random key of the right shape (cuzk_groth16_pk_random) stands in and only prove_start
 * runs (its proofs could not verify).
 * Threading: host preparation runs on a pool of all CPUs; the two-worker run uses two
 * threads on one prover.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_gpu.h"
#include "bench_sized.h"

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/fil_synth.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

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
    qsort(wall, runs, sizeof *wall, bench_cmp_double);
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
        qsort(stage[s], runs, sizeof stage[s][0], bench_cmp_double);
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
        bench_gpu_fill x = {dense + 1 + c.r1cs->n_public, 0x5eed + k, 0};
        cuzk_pool_for(pool, c.r1cs->n_vars - 1 - c.r1cs->n_public, bench_gpu_fill_fr, &x, 1 << 14);
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
    size_t nk = bench_gpu_log2_list(o, ks, def, sizeof def / sizeof def[0]);
    cuzk_pool *pool = NULL;
    bench_sized_pool(&pool, bench_gpu_host_threads());
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

static void run_prove(const bench_sized_opts *o)
{
    if (bench_gpu_have_device(o, "prove"))
        gpu_prove_group(o);
}

const bench_sized_group bench_group_gpu_prove = {"gpu-prove", run_prove, true};

#endif /* CUZK_HAVE_CUDA */
