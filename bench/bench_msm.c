/*
 * bench_msm.c — `cuzk bench msm [--log2 K,..] [--threads T,..] [--g2] [--ones F]`:
 * wall time of whole multi-scalar multiplications, reported per point.
 *
 * For each size 2^k and pool size t:
 *   G1 MSM random            cuzk_g1s_msm on uniform scalars (the number compared with
 *                            blst's Pippenger in docs/perf.md)
 *   G1 MSM mix plain         the same MSM on a Filecoin-like mix: a fraction F (--ones) of
 *                            the scalars are 0 or 1 (half each), the rest uniform
 *   G1 MSM mix split         the prover's path for that mix: cuzk_msm_split_scalars, then
 *                            sum_bitmap of the ones + gather + MSM of the tail; its result
 *                            is checked against the plain MSM (a mismatch fails the item)
 *   G1 sum_bitmap            only the bitmap sum, per point of the whole vector
 * and with --g2 the same three MSM items on G2.
 *
 * Inputs are built once for the largest size and prefixes are used for smaller ones.
 * Threading: the timed calls run on a pool of t participants (t = 1: inline); everything
 * else on the calling thread.
 */
#include "bench.h"
#include "bench_sized.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"

#define DEFAULT_LOG2 16u

typedef struct msm_ctx {
    size_t n;
    cuzk_pool *pool;
    const cuzk_g1_affine *p1;
    const cuzk_g2_affine *p2;
    const cuzk_fr *scalars;        /* the scalars the plain MSM uses */
    const cuzk_fr *mix;            /* the 0/1 mix the split path uses */
    uint64_t *bitmap;              /* ceil(n/64) words */
    cuzk_fr *tail;                 /* n */
    uint32_t *tail_index;          /* n */
    cuzk_g1_affine *tail_p1;       /* n gathered points */
    cuzk_g2_affine *tail_p2;
    void *scratch;
    size_t scratch_size;
    cuzk_g1_jac r1;
    cuzk_g2_jac r2;
    size_t ones;
} msm_ctx;

static bool run_g1_msm(void *p)
{
    msm_ctx *c = p;
    return cuzk_g1s_msm(&c->r1, c->p1, c->scalars, c->n, c->scratch, c->scratch_size,
                        c->pool) == CUZK_OK;
}

static bool run_g2_msm(void *p)
{
    msm_ctx *c = p;
    return cuzk_g2s_msm(&c->r2, c->p2, c->scalars, c->n, c->scratch, c->scratch_size,
                        c->pool) == CUZK_OK;
}

static bool run_g1_bitmap(void *p)
{
    msm_ctx *c = p;
    return cuzk_g1s_sum_bitmap(&c->r1, c->p1, c->bitmap, c->n, c->scratch, c->scratch_size,
                               c->pool) == CUZK_OK;
}

static bool run_g1_split(void *p)
{
    msm_ctx *c = p;
    size_t m;
    cuzk_g1_jac ones, tail;
    if (cuzk_msm_split_scalars(c->bitmap, c->tail, c->tail_index, &m, &c->ones, c->mix,
                               c->n) != CUZK_OK)
        return false;
    cuzk_g1s_gather(c->tail_p1, c->p1, c->tail_index, m);
    if (cuzk_g1s_sum_bitmap(&ones, c->p1, c->bitmap, c->n, c->scratch, c->scratch_size,
                            c->pool) != CUZK_OK ||
        cuzk_g1s_msm(&tail, c->tail_p1, c->tail, m, c->scratch, c->scratch_size, c->pool) !=
            CUZK_OK)
        return false;
    cuzk_g1_jac_add(&c->r1, &ones, &tail);
    return true;
}

static bool run_g2_split(void *p)
{
    msm_ctx *c = p;
    size_t m;
    cuzk_g2_jac ones, tail;
    if (cuzk_msm_split_scalars(c->bitmap, c->tail, c->tail_index, &m, &c->ones, c->mix,
                               c->n) != CUZK_OK)
        return false;
    cuzk_g2s_gather(c->tail_p2, c->p2, c->tail_index, m);
    if (cuzk_g2s_sum_bitmap(&ones, c->p2, c->bitmap, c->n, c->scratch, c->scratch_size,
                            c->pool) != CUZK_OK ||
        cuzk_g2s_msm(&tail, c->tail_p2, c->tail, m, c->scratch, c->scratch_size, c->pool) !=
            CUZK_OK)
        return false;
    cuzk_g2_jac_add(&c->r2, &ones, &tail);
    return true;
}

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

/* Times one item and reports it; note names the window or the mix. */
static void item(const bench_sized_opts *o, msm_ctx *c, const char *name, unsigned k,
                 unsigned t, bool (*fn)(void *), const char *note)
{
    bench_sized_result *r = bench_sized_add("msm", name, k, t, c->n);
    if (!bench_sized_time(o, r, fn, c)) {
        bench_sized_fail(o, r, "the MSM call failed");
        return;
    }
    snprintf(r->note, sizeof r->note, "%s", note);
    bench_sized_done(o, r);
}

/* The split result must equal the plain MSM over the same mix (computed right before). */
static void split_item(const bench_sized_opts *o, msm_ctx *c, bool g2, unsigned k, unsigned t)
{
    cuzk_g1_jac plain1 = c->r1;
    cuzk_g2_jac plain2 = c->r2;
    bench_sized_result *r =
        bench_sized_add("msm", g2 ? "G2 MSM mix split" : "G1 MSM mix split", k, t, c->n);
    if (!bench_sized_time(o, r, g2 ? run_g2_split : run_g1_split, c)) {
        bench_sized_fail(o, r, "the split path failed");
        return;
    }
    bool same = g2 ? cuzk_g2_jac_eq(&plain2, &c->r2) : cuzk_g1_jac_eq(&plain1, &c->r1);
    if (!same) {
        bench_sized_fail(o, r, "split result differs from the plain MSM");
        return;
    }
    size_t zeros = 0;   /* the split does not count them; the tail is what is left */
    for (size_t i = 0; i < c->n; i++)
        zeros += cuzk_fr_is_zero(&c->mix[i]);
    snprintf(r->note, sizeof r->note, "%zu ones, %zu zeros, tail %zu", c->ones, zeros,
             c->n - c->ones - zeros);
    bench_sized_done(o, r);
}

static void run_size(const bench_sized_opts *o, msm_ctx *c, unsigned k, unsigned t,
                     const cuzk_fr *random, const cuzk_fr *mix)
{
    char note[64];
    snprintf(note, sizeof note, "window %u", cuzk_msm_window_bits(c->n));
    c->scalars = random;
    item(o, c, "G1 MSM random", k, t, run_g1_msm, note);
    c->scalars = mix;
    snprintf(note, sizeof note, "%.0f%% 0/1 scalars", o->ones * 100);
    item(o, c, "G1 MSM mix plain", k, t, run_g1_msm, note);
    split_item(o, c, false, k, t);
    /* the bitmap left by the split is the ones of the mix */
    snprintf(note, sizeof note, "%zu of %zu bits set", c->ones, c->n);
    item(o, c, "G1 sum_bitmap", k, t, run_g1_bitmap, note);
    if (!o->g2)
        return;
    snprintf(note, sizeof note, "window %u", cuzk_msm_window_bits(c->n));
    c->scalars = random;
    item(o, c, "G2 MSM random", k, t, run_g2_msm, note);
    c->scalars = mix;
    snprintf(note, sizeof note, "%.0f%% 0/1 scalars", o->ones * 100);
    item(o, c, "G2 MSM mix plain", k, t, run_g2_msm, note);
    split_item(o, c, true, k, t);
}

static void msm_group(const bench_sized_opts *o)
{
    unsigned logs[BENCH_SIZED_MAX_LIST], thr[BENCH_SIZED_MAX_LIST];
    size_t nl = bench_sized_log2s(o, logs, DEFAULT_LOG2);
    size_t nt = bench_sized_threads(o, thr);
    unsigned kmax = 0, tmax = 1;
    for (size_t i = 0; i < nl; i++)
        kmax = logs[i] > kmax ? logs[i] : kmax;
    for (size_t i = 0; i < nt; i++)
        tmax = thr[i] > tmax ? thr[i] : tmax;
    size_t N = (size_t)1 << kmax;

    size_t scratch_size = 0;
    for (size_t i = 0; i < nl; i++) {
        size_t n = (size_t)1 << logs[i];
        scratch_size = max_sz(scratch_size, cuzk_g1s_msm_scratch_size(n, tmax));
        scratch_size = max_sz(scratch_size, cuzk_g1s_sum_bitmap_scratch_size(n, tmax));
        if (o->g2) {
            scratch_size = max_sz(scratch_size, cuzk_g2s_msm_scratch_size(n, tmax));
            scratch_size = max_sz(scratch_size, cuzk_g2s_sum_bitmap_scratch_size(n, tmax));
        }
    }
    msm_ctx c;
    memset(&c, 0, sizeof c);
    cuzk_g1_affine *p1 = malloc(N * sizeof *p1);
    cuzk_g1_affine *tp1 = malloc(N * sizeof *tp1);
    cuzk_g2_affine *p2 = o->g2 ? malloc(N * sizeof *p2) : NULL;
    cuzk_g2_affine *tp2 = o->g2 ? malloc(N * sizeof *tp2) : NULL;
    cuzk_fr *random = malloc(N * sizeof *random);
    cuzk_fr *mix = malloc(N * sizeof *mix);
    c.tail = malloc(N * sizeof *c.tail);
    c.tail_index = malloc(N * sizeof *c.tail_index);
    c.bitmap = malloc((N + 63) / 64 * sizeof *c.bitmap);
    c.scratch = malloc(scratch_size);
    c.scratch_size = scratch_size;
    bool ok = p1 && tp1 && random && mix && c.tail && c.tail_index && c.bitmap && c.scratch &&
              (!o->g2 || (p2 && tp2));
    ok = ok && bench_sized_g1_points(p1, N) && (!o->g2 || bench_sized_g2_points(p2, N));
    if (!ok) {
        bench_sized_fail(o, bench_sized_add("msm", "inputs", kmax, 0, N),
                         "cannot allocate the inputs for 2^%u points", kmax);
        goto out;
    }
    /* The mix: with probability ones a bit (0 or 1 with equal odds), else uniform. The
     * threshold compares 32 random bits with ones * 2^32. */
    uint64_t thresh = (uint64_t)(o->ones * 4294967296.0);
    for (size_t i = 0; i < N; i++) {
        cuzk_fr u;
        bench_rand_fr(&random[i]);
        bench_rand_fr(&u);
        if ((u.l[0] & 0xffffffffu) < thresh)
            mix[i] = (u.l[1] & 1) ? CUZK_FR_ONE : CUZK_FR_ZERO;
        else
            bench_rand_fr(&mix[i]);
    }
    c.p1 = p1;
    c.p2 = p2;
    c.tail_p1 = tp1;
    c.tail_p2 = tp2;
    c.mix = mix;
    for (size_t ti = 0; ti < nt; ti++) {
        if (!bench_sized_pool(&c.pool, thr[ti])) {
            bench_sized_fail(o, bench_sized_add("msm", "pool", 0, thr[ti], 0),
                             "cannot create a pool of %u threads", thr[ti]);
            continue;
        }
        for (size_t li = 0; li < nl; li++) {
            c.n = (size_t)1 << logs[li];
            run_size(o, &c, logs[li], thr[ti], random, mix);
        }
        cuzk_pool_destroy(c.pool);
        c.pool = NULL;
    }
out:
    free(p1);
    free(tp1);
    free(p2);
    free(tp2);
    free(random);
    free(mix);
    free(c.tail);
    free(c.tail_index);
    free(c.bitmap);
    free(c.scratch);
}

const bench_sized_group bench_group_msm = {"msm", msm_group, false};
