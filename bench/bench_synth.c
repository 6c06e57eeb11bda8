/*
 * bench_synth.c — `cuzk bench synth --kind porep|window-post|winning-post|snap
 * --sector-size S[,S..] [--threads T,..] [--witness-only]`: witness generation for one
 * partition of a Filecoin circuit. PoRep runs on a generated C1 output (cuzk/c1_synth.h:
 * test data, sparse trees, consistent); PoSt and SnapDeals on shape-exact partitions with
 * random values (cuzk/fil_synth.h: the witness does the same work, but is not satisfied).
 *
 * Per sector size:
 *   record           the R1CS (CSR) and witness map, once (it is cached in production);
 *                    "bits %" is the share of aux values that are bits;
 *   plain dense /    the generic single-threaded witness backend
 *   plain compact    (cuzk_circuit_witness_*): the reference, "before" (the only one for
 *                    PoSt and SnapDeals; the compact row also says "bits %");
 * and per pool size:
 *   fast dense /     cuzk_porep_witness_* (challenge segments on the pool; PoRep only);
 *   fast compact     (PoSt: cuzk_post_witness_compact, sectors on the pool)
 *   A.w B.w C.w      cuzk_r1cs_eval of the dense witness on the pool.
 * n is the partition's constraints (input rows included), so ns/elem is per constraint.
 * Each row carries the peak RSS increase during its runs (VmHWM reset before) as "peak MB"
 * and the result size as "out MB". --witness-only skips record and eval (a 32 GiB record
 * needs tens of GB).
 *
 * Threading: generation, record and the plain witness on the calling thread; the fast
 * witness and eval on a pool of t participants.
 */
#include "bench.h"
#include "bench_sized.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/c1_synth.h"
#include "cuzk/circuits.h"
#include "cuzk/fil_synth.h"
#include "cuzk/porep.h"
#include "cuzk/r1cs.h"

#define MB (1024.0 * 1024.0)

typedef struct synth_ctx {
    const cuzk_porep_circuit *c; /* PoRep only: the fast paths */
    cuzk_circuit_fn fn;          /* the circuit and its ctx, every kind */
    const void *fctx;
    cuzk_pool *pool;
    const cuzk_r1cs *r1cs;
    cuzk_fr *w;          /* dense witness for eval */
    uint32_t n_vars;
    cuzk_fr *a, *b, *cc; /* eval outputs */
    double out_mb;
    double bits_pct; /* compact runs: bits of aux */
    uint64_t n_in;   /* inputs, ONE included */
} synth_ctx;

static bool run_plain_dense(void *p)
{
    synth_ctx *x = p;
    cuzk_fr *w = NULL;
    uint32_t n = 0;
    bool ok = cuzk_circuit_witness_dense(x->fn, x->fctx, &w, &n, NULL) == CUZK_OK;
    x->out_mb = (double)n * sizeof(cuzk_fr) / MB;
    free(w);
    return ok;
}

static bool run_plain_compact(void *p)
{
    synth_ctx *x = p;
    cuzk_compact_assignment a;
    bool ok = cuzk_circuit_witness_compact(x->fn, x->fctx, &a, NULL) == CUZK_OK;
    x->out_mb = ((double)(a.n_vars - a.n_bits) * sizeof(cuzk_fr) + (a.n_bits + 63) / 64 * 8.0) / MB;
    x->bits_pct = ok && a.n_vars > x->n_in ? 100.0 * a.n_bits / (double)(a.n_vars - x->n_in) : 0;
    cuzk_compact_assignment_free(&a);
    return ok;
}

static bool run_fast_dense(void *p)
{
    synth_ctx *x = p;
    cuzk_fr *w = NULL;
    uint32_t n = 0;
    bool ok = cuzk_porep_witness_dense(x->c, x->pool, &w, &n, NULL) == CUZK_OK;
    x->out_mb = (double)n * sizeof(cuzk_fr) / MB;
    free(w);
    return ok;
}

static bool run_fast_compact(void *p)
{
    synth_ctx *x = p;
    cuzk_compact_assignment a;
    bool ok = cuzk_porep_witness_compact(x->c, x->pool, &a, NULL) == CUZK_OK;
    x->out_mb = ((double)(a.n_vars - a.n_bits) * sizeof(cuzk_fr) + (a.n_bits + 63) / 64 * 8.0) / MB;
    cuzk_compact_assignment_free(&a);
    return ok;
}

static bool run_post_compact(void *p)
{
    synth_ctx *x = p;
    cuzk_compact_assignment a;
    bool ok = cuzk_post_witness_compact(x->fctx, x->pool, &a, NULL) == CUZK_OK;
    x->out_mb = ((double)(a.n_vars - a.n_bits) * sizeof(cuzk_fr) + (a.n_bits + 63) / 64 * 8.0) / MB;
    cuzk_compact_assignment_free(&a);
    return ok;
}

static bool run_eval(void *p)
{
    synth_ctx *x = p;
    cuzk_witness w = cuzk_witness_dense(x->w, x->n_vars);
    x->out_mb = 3.0 * (double)x->r1cs->n_constraints * sizeof(cuzk_fr) / MB;
    return cuzk_r1cs_eval(x->r1cs, &w, x->a, x->b, x->cc, x->pool) == CUZK_OK;
}

static const char *size_name(uint64_t b, char buf[24])
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
    unsigned u = 0;
    while (u < 3 && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        u++;
    }
    snprintf(buf, 24, "%llu%s", (unsigned long long)b, unit[u]);
    return buf;
}

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

/* Times fn into a new row "<what> <size>" with peak RSS and output size. */
static void item(const bench_sized_opts *o, synth_ctx *x, const char *what, const char *sz,
                 unsigned k, unsigned t, uint64_t rows, bool (*fn)(void *))
{
    char name[48];
    snprintf(name, sizeof name, "%s %s", what, sz);
    bench_sized_result *r = bench_sized_add("synth", name, k, t, rows);
    bench_sized_reset_peak_rss();
    uint64_t base = bench_sized_rss();
    if (!bench_sized_time(o, r, fn, x)) {
        bench_sized_fail(o, r, "%s failed", what);
        return;
    }
    uint64_t peak = bench_sized_peak_rss();
    r->extra_name[0] = "peak MB";
    r->extra[0] = peak > base ? (double)(peak - base) / MB : 0;
    r->extra_name[1] = "out MB";
    r->extra[1] = x->out_mb;
    if (fn == run_plain_compact) {
        r->extra_name[2] = "bits %";
        r->extra[2] = x->bits_pct;
    }
    bench_sized_done(o, r);
}

typedef enum { K_POREP, K_WPOST, K_WINNING, K_SNAP } skind;

static skind kind_of(const char *k)
{
    if (k && strcmp(k, "window-post") == 0)
        return K_WPOST;
    if (k && strcmp(k, "winning-post") == 0)
        return K_WINNING;
    if (k && strcmp(k, "snap") == 0)
        return K_SNAP;
    return K_POREP;
}

static void one_size(const bench_sized_opts *o, uint64_t size, const unsigned *thr, size_t nt)
{
    static const char *const tag[] = {"", "wpost ", "winning ", "snap "};
    skind kd = kind_of(o->kind);
    char sz[32], bytes[24];
    snprintf(sz, sizeof sz, "%s%s", tag[kd], size_name(size, bytes));
    cuzk_error e = {0};
    cuzk_c1_output *c1 = NULL;
    cuzk_porep_circuit *c = NULL;
    cuzk_post_partition post = {0};
    cuzk_snap_partition snap = {0};
    synth_ctx x = {0};
    cuzk_fr r;
    bench_rand_fr(&r);
    double t0 = bench_now_ns();
    cuzk_status gst;
    if (kd == K_POREP) {
        gst = cuzk_c1_synth(size, 1, r.l[0], &c1, &e);
        if (gst == CUZK_OK)
            gst = cuzk_porep_circuit_make(c1, 0, &c, &e);
        x.c = c;
        x.fn = cuzk_porep_circuit_synthesize;
        x.fctx = c;
    } else if (kd == K_SNAP) {
        gst = cuzk_snap_synth(size, r.l[0], &snap, &e);
        x.fn = cuzk_snap_circuit;
        x.fctx = &snap;
    } else {
        gst = cuzk_post_synth(kd == K_WPOST ? CUZK_POST_WINDOW : CUZK_POST_WINNING, size,
                              r.l[0], &post, &e);
        x.fn = cuzk_post_circuit;
        x.fctx = &post;
    }
    if (gst != CUZK_OK) {
        bench_sized_fail(o, bench_sized_add("synth", kd == K_POREP ? "C1 test data" : "bench data",
                                            0, 1, 0),
                         "%s: %s", sz, e.msg);
        goto out;
    }
    double gen_ms = (bench_now_ns() - t0) * 1e-6;
    cuzk_circuit_counts cnt;
    uint64_t rows;
    if (!o->witness_only) {
        char name[48];
        snprintf(name, sizeof name, "record %s", sz);
        bench_sized_reset_peak_rss();
        uint64_t base = bench_sized_rss();
        cuzk_r1cs *m = NULL;
        cuzk_witness_map map;
        t0 = bench_now_ns();
        cuzk_status st = cuzk_circuit_record(x.fn, x.fctx, &m, &map, &e);
        double ms = (bench_now_ns() - t0) * 1e-6;
        if (st != CUZK_OK) {
            bench_sized_fail(o, bench_sized_add("synth", name, 0, 1, 0), "%s", e.msg);
            goto out;
        }
        x.r1cs = m;
        x.n_in = 1 + m->n_public;
        rows = m->n_constraints + 1 + m->n_public;
        bench_sized_result *res = bench_sized_add("synth", name, log2_ceil(rows), 1, rows);
        res->runs = 1;
        res->best_ms = res->median_ms = ms;
        uint64_t peak = bench_sized_peak_rss();
        res->extra_name[0] = "peak MB";
        res->extra[0] = peak > base ? (double)(peak - base) / MB : 0;
        uint64_t nnz = m->m[0].nnz + m->m[1].nnz + m->m[2].nnz;
        res->extra_name[1] = "out MB";
        res->extra[1] = ((double)nnz * (4 + sizeof(cuzk_fr)) +
                         3.0 * (double)(m->n_constraints + 1) * 8) / MB;
        res->extra_name[2] = "bits %";
        res->extra[2] = 100.0 * map.n_bits / (double)m->n_aux;
        snprintf(res->note, sizeof res->note, "once; %s generated in %.0f ms",
                 kd == K_POREP ? "C1" : "bench data", gen_ms);
        bench_sized_done(o, res);
        cuzk_witness_map_free(&map);
        size_t n = (size_t)m->n_constraints;
        x.a = malloc(n * sizeof *x.a);
        x.b = malloc(n * sizeof *x.b);
        x.cc = malloc(n * sizeof *x.cc);
        cuzk_status wst = CUZK_ERR_NOMEM;
        if (x.a && x.b && x.cc)
            wst = kd == K_POREP ? cuzk_porep_witness_dense(c, NULL, &x.w, &x.n_vars, &e)
                                : cuzk_circuit_witness_dense(x.fn, x.fctx, &x.w, &x.n_vars, &e);
        if (wst != CUZK_OK) {
            bench_sized_fail(o, bench_sized_add("synth", "eval inputs", 0, 1, 0),
                             "%s: cannot allocate the eval buffers (%s)", sz, e.msg);
            goto out;
        }
    } else {
        if (cuzk_circuit_count(x.fn, x.fctx, &cnt, &e) != CUZK_OK) {
            bench_sized_fail(o, bench_sized_add("synth", "count", 0, 1, 0), "%s", e.msg);
            goto out;
        }
        rows = cuzk_circuit_counts_rows_with_inputs(&cnt);
        x.n_in = 1 + cnt.n_public;
    }
    unsigned k = log2_ceil(rows);
    item(o, &x, "plain dense", sz, k, 1, rows, run_plain_dense);
    item(o, &x, "plain compact", sz, k, 1, rows, run_plain_compact);
    for (size_t ti = 0; ti < nt; ti++) {
        if (!bench_sized_pool(&x.pool, thr[ti])) {
            bench_sized_fail(o, bench_sized_add("synth", "pool", 0, thr[ti], 0),
                             "cannot create a pool of %u threads", thr[ti]);
            continue;
        }
        if (kd == K_POREP) {
            item(o, &x, "fast dense", sz, k, thr[ti], rows, run_fast_dense);
            item(o, &x, "fast compact", sz, k, thr[ti], rows, run_fast_compact);
        } else if (kd != K_SNAP) { /* PoSt: sectors over the pool */
            item(o, &x, "fast compact", sz, k, thr[ti], rows, run_post_compact);
        }
        if (x.r1cs)
            item(o, &x, "A.w B.w C.w", sz, k, thr[ti], rows, run_eval);
        cuzk_pool_destroy(x.pool);
        x.pool = NULL;
    }
out:
    free(x.w);
    free(x.a);
    free(x.b);
    free(x.cc);
    cuzk_r1cs_destroy((cuzk_r1cs *)x.r1cs);
    cuzk_porep_circuit_free(c);
    cuzk_c1_synth_free(c1);
    cuzk_post_synth_free(&post);
    cuzk_snap_synth_free(&snap);
}

static void synth_group(const bench_sized_opts *o)
{
    unsigned thr[BENCH_SIZED_MAX_LIST];
    uint64_t sz[BENCH_SIZED_MAX_LIST];
    size_t nt = bench_sized_threads(o, thr), ns = bench_sized_sectors(o, sz, 2048);
    for (size_t i = 0; i < ns; i++)
        one_size(o, sz[i], thr, nt);
}

const bench_sized_group bench_group_synth = {"synth", synth_group, true};
