/*
 * bench_prove.c — `cuzk bench prove [--log2 K,..] [--threads T,..] [--flavour F]
 * [--no-cache]`: a whole Groth16 proof of a synthetic Filecoin-shaped circuit, timed by
 * stage, with the prover's memory.
 *
 * The circuit (2^k - 2 rows, one public input, so the two appended input rows make the
 * domain exactly 2^k) repeats a block shaped like Filecoin's gadgets:
 *   64 boolean rows (1 - b) * b = 0        bit decomposition of a random 64-bit value w
 *    1 packing row  (sum 2^i b_i) * 1 = w
 *   16 chain rows   c * c = c'             dense values (a running squaring)
 * and fills the rest with chain rows; the last row exposes the chain as the public input
 * (c * 1 = out). About 80% of the witness values are 0 or 1, as in a PoRep witness.
 *
 * Reported per size and pool size: the dev setup (once per size, or the load of the key
 * cached in /tmp for the bellperson flavour), prove_start, prove_finalize and their total
 * (best / median of the runs), the peak RSS during the proving runs (VmHWM after resetting
 * it), the scratch in field elements per domain point, and the bytes of key, circuit and
 * witness for comparison. The last proof of each series is verified; a proof that does not
 * verify fails the item (a stale cached key would be caught here: rerun with --no-cache).
 *
 * Threading: setup, proving and verification use a pool of t participants (t = 1: inline);
 * circuit building and the bookkeeping run on the calling thread.
 */
#define _POSIX_C_SOURCE 200809L   /* stat */

#include "bench.h"
#include "bench_sized.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/outfiles.h"
#include "cuzk/poly.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"

#define DEFAULT_LOG2 14u
#define BLOCK_BITS 64
#define BLOCK_CHAIN 16
#define MIB (1024.0 * 1024.0)
/* Bump when the circuit's shape changes: the cached keys are named after it. */
#define CIRCUIT_VERSION 1

typedef struct circuit {
    cuzk_r1cs *r1cs;
    cuzk_fr *values;   /* dense witness, n_vars values */
    size_t bits;       /* witness values that are 0 or 1 */
} circuit;

/* Records the builder's current aux count as the next variable and its value. */
typedef struct gen {
    cuzk_r1cs_builder *b;
    cuzk_fr *aux;      /* values of the aux variables, in allocation order */
    uint32_t n_aux;
    cuzk_error *err;
} gen;

static cuzk_status new_aux(gen *g, const cuzk_fr *value, cuzk_r1cs_var *v)
{
    cuzk_status st = cuzk_r1cs_builder_alloc_aux(g->b, 1, v, g->err);
    if (st == CUZK_OK)
        g->aux[g->n_aux++] = *value;
    return st;
}

#define TRY(x)                                                                              \
    do {                                                                                    \
        if ((st = (x)) != CUZK_OK)                                                          \
            goto fail;                                                                      \
    } while (0)

/* One chain row c * c = c'; *c becomes c'. */
static cuzk_status chain_row(gen *g, cuzk_r1cs_var *c, cuzk_fr *cv)
{
    cuzk_status st;
    cuzk_r1cs_var next;
    cuzk_fr nv;
    cuzk_fr_sqr(&nv, cv);
    TRY(new_aux(g, &nv, &next));
    TRY(cuzk_r1cs_builder_begin_row(g->b, g->err));
    TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_A, *c, &CUZK_FR_ONE, g->err));
    TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_B, *c, &CUZK_FR_ONE, g->err));
    TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_C, next, &CUZK_FR_ONE, g->err));
    *c = next;
    *cv = nv;
fail:
    return st;
}

/* 64 boolean rows and the packing row of one random 64-bit value. */
static cuzk_status bits_block(gen *g, size_t *bits)
{
    cuzk_status st;
    cuzk_fr minus_one, pow2[BLOCK_BITS], wv, r;
    cuzk_r1cs_var bit[BLOCK_BITS], w;
    cuzk_fr_neg(&minus_one, &CUZK_FR_ONE);
    bench_rand_fr(&r);
    uint64_t x = r.l[0];
    cuzk_fr_from_u64(&wv, x);
    TRY(new_aux(g, &wv, &w));
    pow2[0] = CUZK_FR_ONE;
    for (int i = 0; i < BLOCK_BITS; i++) {
        if (i)
            cuzk_fr_dbl(&pow2[i], &pow2[i - 1]);
        TRY(new_aux(g, (x >> i) & 1 ? &CUZK_FR_ONE : &CUZK_FR_ZERO, &bit[i]));
        /* (1 - b) * b = 0: bellperson's Boolean::alloc constraint */
        TRY(cuzk_r1cs_builder_begin_row(g->b, g->err));
        TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_A, CUZK_R1CS_VAR_ONE, &CUZK_FR_ONE,
                                       g->err));
        TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_A, bit[i], &minus_one, g->err));
        TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_B, bit[i], &CUZK_FR_ONE, g->err));
    }
    *bits += BLOCK_BITS;
    TRY(cuzk_r1cs_builder_begin_row(g->b, g->err));
    for (int i = 0; i < BLOCK_BITS; i++)
        TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_A, bit[i], &pow2[i], g->err));
    TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_B, CUZK_R1CS_VAR_ONE, &CUZK_FR_ONE, g->err));
    TRY(cuzk_r1cs_builder_add_term(g->b, CUZK_R1CS_C, w, &CUZK_FR_ONE, g->err));
fail:
    return st;
}

static cuzk_status build_circuit(circuit *out, unsigned k, cuzk_error *err)
{
    cuzk_status st;
    uint64_t rows = ((uint64_t)1 << k) - 2;   /* + 2 input rows (ONE, out) = 2^k */
    gen g = {.err = err};
    memset(out, 0, sizeof *out);
    g.aux = malloc((rows + 2) * sizeof *g.aux);   /* each row adds at most one variable */
    if (!g.aux)
        return CUZK_ERR_NOMEM;
    TRY(cuzk_r1cs_builder_create(&g.b, err));
    cuzk_r1cs_var out_var, c;
    TRY(cuzk_r1cs_builder_alloc_public(g.b, 1, &out_var, err));
    cuzk_fr cv;
    bench_rand_fr(&cv);
    TRY(new_aux(&g, &cv, &c));
    size_t bits = 0;
    const uint64_t block = BLOCK_BITS + 1 + BLOCK_CHAIN;
    while (cuzk_r1cs_builder_rows(g.b) + block + 1 <= rows) {
        TRY(bits_block(&g, &bits));
        for (int i = 0; i < BLOCK_CHAIN; i++)
            TRY(chain_row(&g, &c, &cv));
    }
    while (cuzk_r1cs_builder_rows(g.b) + 1 < rows)
        TRY(chain_row(&g, &c, &cv));
    TRY(cuzk_r1cs_builder_begin_row(g.b, err));
    TRY(cuzk_r1cs_builder_add_term(g.b, CUZK_R1CS_A, c, &CUZK_FR_ONE, err));
    TRY(cuzk_r1cs_builder_add_term(g.b, CUZK_R1CS_B, CUZK_R1CS_VAR_ONE, &CUZK_FR_ONE, err));
    TRY(cuzk_r1cs_builder_add_term(g.b, CUZK_R1CS_C, out_var, &CUZK_FR_ONE, err));
    st = cuzk_r1cs_builder_finish(g.b, &out->r1cs, err);
    g.b = NULL;
    if (st != CUZK_OK)
        goto fail;
    out->values = malloc((size_t)out->r1cs->n_vars * sizeof *out->values);
    if (!out->values) {
        st = CUZK_ERR_NOMEM;
        goto fail;
    }
    /* bellperson order: ONE, the public input, then aux in allocation order */
    out->values[0] = CUZK_FR_ONE;
    out->values[1] = cv;
    memcpy(out->values + 2, g.aux, (size_t)g.n_aux * sizeof *g.aux);
    out->bits = bits;
    free(g.aux);
    return CUZK_OK;
fail:
    cuzk_r1cs_builder_destroy(g.b);
    cuzk_r1cs_destroy(out->r1cs);
    out->r1cs = NULL;
    free(g.aux);
    return st;
}

static uint64_t r1cs_bytes(const cuzk_r1cs *r)
{
    uint64_t s = 0;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        s += (r->n_constraints + 1) * 8 + r->m[m].nnz * (4 + sizeof(cuzk_fr)) +
             (r->n_vars + 63) / 64 * 8;
    return s;
}

static uint64_t key_bytes(const cuzk_groth16_pk *pk)
{
    return (uint64_t)(pk->n_h + pk->n_l + pk->n_a + pk->n_b_g1 + pk->vk.n_ic) *
               sizeof(cuzk_g1_affine) +
           (uint64_t)pk->n_b_g2 * sizeof(cuzk_g2_affine);
}

/* The key for circuit c: from the /tmp cache (bellperson, unless --no-cache) or a fresh
 * dev setup, reported as its own item. */
/* Writes the key cache all-or-nothing (cuzk/outfiles.h): an interrupted or failed write,
 * or two benches at once, never leave a truncated cache that a later run would load
 * unchecked. */
static cuzk_status save_cache(const cuzk_groth16_pk *pk, const char *path, cuzk_error *err)
{
    cuzk_outfiles *set;
    const char *tmp;
    cuzk_status st = cuzk_outfiles_create(&set, err);
    if (st != CUZK_OK)
        return st;
    if ((st = cuzk_outfiles_add(set, path, NULL, err)) == CUZK_OK &&
        (st = cuzk_outfiles_temp_path(set, 0, &tmp, err)) == CUZK_OK &&
        (st = cuzk_groth16_pk_save_bellperson(pk, tmp, err)) == CUZK_OK)
        st = cuzk_outfiles_commit(set, err);
    cuzk_outfiles_destroy(set);
    return st;
}

static bool get_key(const bench_sized_opts *o, cuzk_groth16_pk *pk, const circuit *c,
                    unsigned k, cuzk_pool *pool, unsigned t)
{
    cuzk_error err = {0};
    bool bp = o->flavour == BENCH_FLAVOUR_BELLPERSON;
    char path[128];
    snprintf(path, sizeof path, "/tmp/cuzk-bench-prove-v%d-%u.params", CIRCUIT_VERSION, k);
    struct stat sb;
    bool cached = bp && !o->no_cache && stat(path, &sb) == 0;
    bench_sized_result *r = bench_sized_add("prove", cached ? "key load (/tmp cache)" :
                                            "dev setup", k, t, (uint64_t)1 << k);
    double t0 = bench_now_ns();
    cuzk_status st;
    if (cached) {
        /* the bench wrote it itself: the subgroup checks would only time the reader */
        st = cuzk_groth16_pk_load_bellperson(pk, path, CUZK_PARAMS_UNCHECKED, pool, &err);
        if (st == CUZK_OK)
            st = cuzk_groth16_pk_check_circuit(pk, c->r1cs, &err);
    } else {
        st = cuzk_groth16_setup_dev(pk, NULL, c->r1cs,
                                    bp ? CUZK_GROTH16_BELLPERSON : CUZK_GROTH16_SNARKJS, NULL,
                                    pool, &err);
    }
    r->runs = 1;
    r->best_ms = r->median_ms = (bench_now_ns() - t0) * 1e-6;
    if (st != CUZK_OK) {
        bench_sized_fail(o, r, "%s: %s", cached ? path : "setup", err.msg);
        return false;
    }
    if (bp && !cached && !o->no_cache) {
        cuzk_error e2 = {0};
        snprintf(r->note, sizeof r->note, "saved to %.100s", path);
        if (save_cache(pk, path, &e2) != CUZK_OK)
            snprintf(r->note, sizeof r->note, "not cached: %.100s", e2.msg);
    } else if (cached) {
        snprintf(r->note, sizeof r->note, "%.100s", path);
    }
    r->extra_name[0] = "key_mib";
    r->extra[0] = (double)key_bytes(pk) / MIB;
    bench_sized_done(o, r);
    return true;
}

static void stats(bench_sized_result *r, double *t, unsigned n)
{
    qsort(t, n, sizeof t[0], bench_cmp_double);
    r->runs = n;
    r->best_ms = t[0];
    r->median_ms = n & 1 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The stage rows of a series whose total row carries the error. */
static void fail_stages(bench_sized_result *rs, bench_sized_result *rf)
{
    rs->failed = rf->failed = true;
    snprintf(rs->note, sizeof rs->note, "see prove total");
    snprintf(rf->note, sizeof rf->note, "see prove total");
}

/* Warm-up + timed proofs with one pool; reports start, finalize, total. */
static void prove_series(const bench_sized_opts *o, const cuzk_groth16_pk *pk,
                         const circuit *c, unsigned k, unsigned t, cuzk_pool *pool)
{
    static double ts[BENCH_SIZED_MAX_RUNS], tf[BENCH_SIZED_MAX_RUNS], tt[BENCH_SIZED_MAX_RUNS];
    uint64_t n = (uint64_t)1 << k;
    bench_sized_result *rs = bench_sized_add("prove", "prove_start", k, t, n);
    bench_sized_result *rf = bench_sized_add("prove", "prove_finalize", k, t, n);
    bench_sized_result *rt = bench_sized_add("prove", "prove total", k, t, n);
    cuzk_error err = {0};
    size_t ssz = cuzk_groth16_prove_scratch_size(pk, c->r1cs, t);
    void *scratch = ssz ? malloc(ssz) : NULL;
    if (!scratch) {
        bench_sized_fail(o, rt, "no scratch (%zu bytes)", ssz);
        fail_stages(rs, rf);
        return;
    }
    cuzk_witness w = cuzk_witness_dense(c->values, c->r1cs->n_vars);
    cuzk_groth16_proof proof;
    cuzk_prover *backend = NULL;
    if (o->backend && cuzk_prover_open(&backend, o->backend, pool, &err) != CUZK_OK) {
        bench_sized_fail(o, rt, "%s", err.msg);
        fail_stages(rs, rf);
        free(scratch);
        return;
    }
    uint64_t base_rss = bench_sized_rss();
    bool reset = bench_sized_reset_peak_rss();
    unsigned runs = 0;
    double spent = 0;
    for (unsigned i = 0; runs < BENCH_SIZED_MAX_RUNS && (i == 0 || runs < o->runs ||
                                                         spent < o->min_time_s); i++) {
        cuzk_groth16_prover_state state;
        cuzk_fr r, s;
        bench_rand_fr(&r);
        bench_rand_fr(&s);
        double t0 = bench_now_ns(), t1, t2;
        cuzk_status st;
        if (backend) { /* the engine's path: start, then finalize with its self-check */
            cuzk_prove_job *job = NULL;
            st = cuzk_prover_start(backend, pk, c->r1cs, &w, 1, NULL, &job, &err);
            t1 = bench_now_ns();
            if (st == CUZK_OK)
                st = cuzk_prover_finalize(job, &r, &s, &proof, NULL, &err);
        } else {
            st = cuzk_groth16_prove_start(&state, pk, c->r1cs, &w, scratch, ssz, pool, &err);
            t1 = bench_now_ns();
            if (st == CUZK_OK)
                st = cuzk_groth16_prove_finalize(&state, &r, &s, &proof, &err);
        }
        t2 = bench_now_ns();
        if (st != CUZK_OK) {
            bench_sized_fail(o, rt, "%s", err.msg);
            fail_stages(rs, rf);
            free(scratch);
            cuzk_prover_close(backend);
            return;
        }
        if (i == 0)
            continue;   /* warm-up: faults in the scratch */
        ts[runs] = (t1 - t0) * 1e-6;
        tf[runs] = (t2 - t1) * 1e-6;
        tt[runs] = (t2 - t0) * 1e-6;
        spent += tt[runs] * 1e-3;
        runs++;
    }
    uint64_t peak = bench_sized_peak_rss();
    free(scratch);
    if (backend) {
        cuzk_prover_forget(backend, pk, c->r1cs);
        snprintf(rs->note, sizeof rs->note, "backend %.100s", cuzk_prover_describe(backend));
    }
    cuzk_prover_close(backend);

    cuzk_groth16_pvk pvk;
    cuzk_status vst = cuzk_groth16_pvk_prepare(&pvk, &pk->vk);
    if (vst == CUZK_OK)
        vst = cuzk_groth16_verify(&pvk, &c->values[1], 1, &proof, &err);

    stats(rs, ts, runs);
    stats(rf, tf, runs);
    stats(rt, tt, runs);
    if (!o->backend) {
        snprintf(rs->note, sizeof rs->note, "eval, H, MSMs H/L/A/B1");
        snprintf(rf->note, sizeof rf->note, "B2 MSM, assembly");
    } else {
        snprintf(rf->note, sizeof rf->note, "assembly + self-check%s",
                 strstr(rs->note, "cpu") ? " (+ B2 MSM)" : "");
    }
    bench_sized_done(o, rs);
    bench_sized_done(o, rf);
    if (vst != CUZK_OK) {
        bench_sized_fail(o, rt, "proof does not verify (stale /tmp key? try --no-cache)");
        return;
    }
    snprintf(rt->note, sizeof rt->note, "%u rows, %.0f%% bits, verified%s",
             (unsigned)c->r1cs->n_constraints,
             100.0 * (double)c->bits / (double)c->r1cs->n_vars,
             reset ? "" : "; peak RSS not reset (whole process)");
    rt->extra_name[0] = "peak_rss_mib";
    rt->extra[0] = (double)peak / MIB;
    rt->extra_name[1] = "rss_before_mib";
    rt->extra[1] = (double)base_rss / MIB;
    rt->extra_name[2] = "scratch_fe_per_point";
    rt->extra[2] = (double)ssz / sizeof(cuzk_fr) / (double)n;
    rt->extra_name[3] = "key_r1cs_wit_mib";
    rt->extra[3] = (double)(key_bytes(pk) + r1cs_bytes(c->r1cs) +
                            (uint64_t)c->r1cs->n_vars * sizeof(cuzk_fr)) / MIB;
    bench_sized_done(o, rt);
}

static void prove_group(const bench_sized_opts *o)
{
    unsigned logs[BENCH_SIZED_MAX_LIST], thr[BENCH_SIZED_MAX_LIST];
    size_t nl = bench_sized_log2s(o, logs, DEFAULT_LOG2);
    size_t nt;
    if (o->nthreads) {
        nt = bench_sized_threads(o, thr);
    } else {
        /* proving is reported at full width by default; 1 thread only on request */
        size_t m = bench_sized_threads(o, thr);
        thr[0] = thr[m - 1];
        nt = 1;
    }
    for (size_t li = 0; li < nl; li++) {
        unsigned k = logs[li];
        circuit c;
        cuzk_error err = {0};
        if (k < 8 || k > CUZK_DOMAIN_MAX_LOG2) {
            bench_sized_fail(o, bench_sized_add("prove", "circuit", k, 0, 0),
                             "prove needs 8 <= log2 <= %u", CUZK_DOMAIN_MAX_LOG2);
            continue;
        }
        if (build_circuit(&c, k, &err) != CUZK_OK) {
            bench_sized_fail(o, bench_sized_add("prove", "circuit", k, 0, 0),
                             "building the circuit: %s", err.msg);
            continue;
        }
        cuzk_pool *pool = NULL;
        cuzk_groth16_pk pk;
        memset(&pk, 0, sizeof pk);
        /* the key is made with the widest pool asked for */
        unsigned tmax = 1;
        for (size_t i = 0; i < nt; i++)
            tmax = thr[i] > tmax ? thr[i] : tmax;
        bool ok = bench_sized_pool(&pool, tmax) && get_key(o, &pk, &c, k, pool, tmax);
        cuzk_pool_destroy(pool);
        for (size_t ti = 0; ok && ti < nt; ti++) {
            if (!bench_sized_pool(&pool, thr[ti])) {
                bench_sized_fail(o, bench_sized_add("prove", "pool", k, thr[ti], 0),
                                 "cannot create a pool of %u threads", thr[ti]);
                continue;
            }
            prove_series(o, &pk, &c, k, thr[ti], pool);
            cuzk_pool_destroy(pool);
        }
        cuzk_groth16_pk_free(&pk);
        cuzk_r1cs_destroy(c.r1cs);
        free(c.values);
    }
}

const bench_sized_group bench_group_prove = {"prove", prove_group, false};
