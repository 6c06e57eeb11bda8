/*
 * selfcheck.c — the pairing check every prover path runs on a proof before handing it
 * out, and the diagnosis when it fails.
 *
 * A proof that does not verify has one of three causes, told apart in this order, each
 * test only run on the failure path (a valid proof costs one 3-pair multi-pairing, after
 * its three points are checked to be in their subgroups, as the chain's decoder checks):
 *   1. the witness does not satisfy the circuit — decidable only when the circuit's C is
 *      known (an r1cs with all three matrices): CUZK_ERR_UNSATISFIED naming the lowest
 *      failing row, never the witness values;
 *   2. the proving key holds a point off the curve or outside its subgroup (the default
 *      trust level only checks that the big vectors are on the curve, and the prover's
 *      GLV arithmetic assumes subgroup points): CUZK_ERR_FORMAT "proving key is bad:
 *      l[17] is not in the subgroup";
 *   3. otherwise CUZK_ERR_INVALID_PROOF. Without C (a .zkey) the witness is the likely
 *      cause and the message says so; with C known and satisfied, the key does not fit
 *      its verifying key or the circuit.
 *
 * Threading: the public inputs' MSM (cuzk_groth16_verify_pool) and the key scan of
 * cause 2 run over the pool; everything else is on the calling thread. Reads its
 * arguments only; allocates the public inputs and the MSM's scratch.
 */
#include <stdatomic.h>

#include <stdlib.h>

#include "cuzk/groth16.h"

/* Points per pool chunk of the key scan: a subgroup check is one ~64-bit scalar
 * multiplication, tens of microseconds, so a few hundred make a worthwhile hand-off. */
#define SCAN_GRAIN 256

typedef struct vec_ref {
    const char *name;
    const void *pts;
    size_t n;
    bool g2;
} vec_ref;

typedef enum bad_kind { BAD_NONE = 0, BAD_CURVE = 1, BAD_SUBGROUP = 2 } bad_kind;

static bad_kind point_bad(const vec_ref *v, size_t i)
{
    if (v->g2) {
        const cuzk_g2_affine *p = (const cuzk_g2_affine *)v->pts + i;
        return !cuzk_g2_affine_on_curve(p)      ? BAD_CURVE
               : !cuzk_g2_affine_in_subgroup(p) ? BAD_SUBGROUP
                                                : BAD_NONE;
    }
    const cuzk_g1_affine *p = (const cuzk_g1_affine *)v->pts + i;
    return !cuzk_g1_affine_on_curve(p)      ? BAD_CURVE
           : !cuzk_g1_affine_in_subgroup(p) ? BAD_SUBGROUP
                                            : BAD_NONE;
}

typedef struct scan_ctx {
    const vec_ref *v;
    _Atomic size_t first; /* lowest bad index found (SIZE_MAX: none) */
} scan_ctx;

static void scan_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    (void)worker_id;
    scan_ctx *s = vctx;
    if (begin >= atomic_load_explicit(&s->first, memory_order_relaxed))
        return;
    for (size_t i = begin; i < end; i++)
        if (point_bad(s->v, i) != BAD_NONE) {
            size_t cur = atomic_load_explicit(&s->first, memory_order_relaxed);
            while (i < cur && !atomic_compare_exchange_weak_explicit(
                                  &s->first, &cur, i, memory_order_relaxed,
                                  memory_order_relaxed)) {
            }
            return;
        }
}

/* CUZK_ERR_FORMAT naming the first bad point of the key (vectors in a fixed order, lowest
 * index within the vector), CUZK_OK if every point is on its curve and in its subgroup. */
static cuzk_status scan_key(const cuzk_groth16_pk *pk, cuzk_pool *pool, cuzk_error *err)
{
    const cuzk_groth16_vk *vk = &pk->vk;
    const vec_ref vecs[] = {
        {"vk.alpha_g1", &vk->alpha_g1, 1, false}, {"vk.beta_g1", &vk->beta_g1, 1, false},
        {"vk.delta_g1", &vk->delta_g1, 1, false}, {"vk.beta_g2", &vk->beta_g2, 1, true},
        {"vk.gamma_g2", &vk->gamma_g2, 1, true},  {"vk.delta_g2", &vk->delta_g2, 1, true},
        {"vk.ic", vk->ic, vk->n_ic, false},       {"h", pk->h, pk->n_h, false},
        {"l", pk->l, pk->n_l, false},             {"a", pk->a, pk->n_a, false},
        {"b_g1", pk->b_g1, pk->n_b_g1, false},    {"b_g2", pk->b_g2, pk->n_b_g2, true},
    };
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++) {
        const vec_ref *v = &vecs[k];
        if (v->n == 0 || !v->pts)
            continue;
        scan_ctx s = {.v = v};
        atomic_init(&s.first, SIZE_MAX);
        cuzk_status st = cuzk_pool_for(pool, v->n, scan_fn, &s, SCAN_GRAIN);
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "groth16 self-check: pool failure");
        size_t i = atomic_load(&s.first);
        if (i != SIZE_MAX)
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "proving key is bad: %s[%zu] is %s",
                                  v->name, i,
                                  point_bad(v, i) == BAD_CURVE ? "not on the curve"
                                                               : "not in the subgroup");
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_proof_selfcheck(const cuzk_groth16_pk *pk,
                                         const cuzk_groth16_pvk *pvk, const cuzk_r1cs *r1cs,
                                         const cuzk_witness *w,
                                         const cuzk_groth16_proof *proof, cuzk_pool *pool,
                                         cuzk_error *err)
{
    if (!pk || !w || !proof || !pk->vk.ic || pk->vk.n_ic == 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 self-check: NULL argument");
    if ((w->kind == CUZK_WITNESS_DENSE && !w->values) ||
        (w->kind == CUZK_WITNESS_COMPACT && (!w->map || !w->dense)) ||
        (w->kind != CUZK_WITNESS_DENSE && w->kind != CUZK_WITNESS_COMPACT))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 self-check: unsupported witness");
    if (w->n_vars < pk->vk.n_ic)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 self-check: witness has %u values, the key has %zu "
                              "inputs (ONE included)",
                              w->n_vars, pk->vk.n_ic);
    if (pk->benchmark_only)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "groth16 self-check: the key is a random benchmark key "
                              "(cuzk_groth16_pk_random); its proofs cannot verify");
    cuzk_groth16_pvk local;
    if (!pvk) {
        if (cuzk_groth16_pvk_prepare(&local, &pk->vk) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "groth16 self-check: cannot prepare the verifying key");
        pvk = &local;
    } else if (pvk->n_ic != pk->vk.n_ic) {
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 self-check: prepared key has %zu inputs, the proving "
                              "key %zu",
                              pvk->n_ic, pk->vk.n_ic);
    }
    /* the public inputs are variables 1..n_public of the witness */
    size_t n_pub = pk->vk.n_ic - 1;
    size_t sz = cuzk_groth16_verify_scratch_size(pvk, cuzk_pool_nthreads(pool));
    cuzk_fr *pub = malloc((n_pub ? n_pub : 1) * sizeof *pub);
    void *scratch = sz ? malloc(sz) : NULL;
    if (!pub || (sz && !scratch)) {
        free(pub);
        free(scratch);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "groth16 self-check: out of memory");
    }
    for (size_t i = 0; i < n_pub; i++)
        cuzk_witness_value(&pub[i], w, (uint32_t)(i + 1));
    /* The proof's own points in their subgroups first (three scalar multiplications): the
     * chain's verifier decodes them with that check, and a key may be served before its
     * file's digest is known (engine trust policy), so a point off the subgroup in the key
     * must not reach a proof that passes the pairing check. */
    bool in_groups = cuzk_g1_affine_on_curve(&proof->a) && cuzk_g1_affine_in_subgroup(&proof->a) &&
                     cuzk_g2_affine_on_curve(&proof->b) && cuzk_g2_affine_in_subgroup(&proof->b) &&
                     cuzk_g1_affine_on_curve(&proof->c) && cuzk_g1_affine_in_subgroup(&proof->c);
    cuzk_status st = in_groups ? cuzk_groth16_verify_pool(pvk, pub, n_pub, proof, scratch, sz,
                                                          pool, err)
                               : CUZK_ERR_INVALID_PROOF;
    free(scratch);
    free(pub);
    if (st != CUZK_ERR_INVALID_PROOF)
        return st;

    bool satisfied = false;
    if (r1cs && !r1cs->c_absent) {
        /* diagnosis only (the proof already failed): a compact witness is expanded */
        cuzk_fr *dense = NULL;
        cuzk_witness wd = *w;
        if (w->kind == CUZK_WITNESS_COMPACT) {
            dense = malloc((size_t)w->n_vars * sizeof *dense);
            if (!dense || cuzk_witness_expand(dense, w, pool) != CUZK_OK) {
                free(dense);
                return cuzk_error_set(err, CUZK_ERR_NOMEM, "groth16 self-check: out of memory");
            }
            wd = cuzk_witness_dense(dense, w->n_vars);
        }
        st = cuzk_r1cs_eval_check(r1cs, &wd, NULL, NULL, NULL, NULL, pool, err);
        free(dense);
        if (st != CUZK_OK)
            return st;
        satisfied = true;
    }
    if ((st = scan_key(pk, pool, err)) != CUZK_OK)
        return st;
    if (satisfied)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "the proof does not verify although the witness satisfies the "
                              "circuit: the proving key does not fit its verifying key or "
                              "this circuit");
    return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                          "the proof does not verify: the witness does not satisfy the "
                          "circuit");
}
