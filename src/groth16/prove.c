/*
 * prove.c — the CPU Groth16 prover, split like the GPU backend: prove_start does the
 * satisfaction check, A.w/B.w/C.w, the quotient H and the H, L, A, B_G1 MSMs;
 * prove_finalize does the B_G2 MSM and assembles the proof from r and s; prove runs both
 * and then the self-check (selfcheck.c), so no proof leaves it unverified.
 *
 * Scratch layout (one caller block, recomputed identically by start and finalize):
 *   dom   the cuzk_domain (about 34 KiB)
 *   R1    a, b, c (3n Fr) for H; once the H MSM is done the same bytes hold the 0/1 split
 *         of the next MSM (bitmap, tail scalars, tail indices, gathered tail points)
 *   R2    density-gathered scalars of the A and B MSMs (BELLPERSON only; SNARKJS vectors
 *         are unfiltered, so the witness itself is the scalar vector)
 *   R3    the msm layer's scratch, sized for the largest MSM / bitmap sum
 * That is about 4-5 field elements per vector element plus the MSM scratch; the witness
 * and key are read in place.
 *
 * Threading: one thread drives a prover state; pool spreads eval, NTTs and MSMs.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "groth16/groth16_internal.h"

#define ALIGN 64u
static size_t align_up(size_t x) { return (x + (ALIGN - 1)) & ~(size_t)(ALIGN - 1); }

typedef struct layout {
    size_t off_r1, off_r2, off_r3, r3_size, total;
    size_t n, max_vec;
} layout;

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* Returns false on overflow-prone sizes (the caller reports 0). */
static bool make_layout(layout *L, const cuzk_groth16_pk *pk, size_t nthreads)
{
    size_t n = (size_t)1 << pk->log2n;
    if (n > SIZE_MAX / (8 * sizeof(cuzk_g2_affine)))
        return false;
    size_t mx = max2(max2(pk->n_h, pk->n_l), max2(pk->n_a, pk->n_b_g1));
    if (mx > SIZE_MAX / (8 * sizeof(cuzk_g2_affine)))
        return false;
    size_t r1 = max2(align_up(3 * n * sizeof(cuzk_fr)),
                     max2(cuzk_g1s_msm_auto_split_size(mx),
                          cuzk_g2s_msm_auto_split_size(pk->n_b_g2)));
    size_t r2 = pk->flavour == CUZK_GROTH16_BELLPERSON
                    ? align_up(max2(pk->n_a, pk->n_b_g1) * sizeof(cuzk_fr))
                    : 0;
    size_t r3 = max2(max2(cuzk_g1s_msm_scratch_size(mx, nthreads),
                          cuzk_g1s_sum_bitmap_scratch_size(mx, nthreads)),
                     max2(cuzk_g2s_msm_scratch_size(pk->n_b_g2, nthreads),
                          cuzk_g2s_sum_bitmap_scratch_size(pk->n_b_g2, nthreads)));
    L->n = n;
    L->max_vec = mx;
    L->off_r1 = align_up(sizeof(cuzk_domain)) + ALIGN; /* + ALIGN: room to realign the base */
    L->off_r2 = L->off_r1 + r1;
    L->off_r3 = L->off_r2 + r2;
    L->r3_size = align_up(r3);
    L->total = L->off_r3 + L->r3_size;
    return true;
}

size_t cuzk_groth16_prove_scratch_size(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                       size_t nthreads)
{
    layout L;
    if (!pk || !r1cs || cuzk_groth16_pk_check_circuit(pk, r1cs, NULL) != CUZK_OK ||
        !make_layout(&L, pk, nthreads ? nthreads : 1))
        return 0;
    return L.total;
}

size_t cuzk_groth16_prove_scratch_size_for(const cuzk_groth16_pk *sizes, size_t nthreads)
{
    layout L;
    if (!sizes || !make_layout(&L, sizes, nthreads ? nthreads : 1))
        return 0;
    return L.total;
}

/* The aligned base of the caller's scratch (the domain sits there). */
static uint8_t *scratch_base(void *scratch)
{
    uintptr_t p = (uintptr_t)scratch;
    return (uint8_t *)((p + (ALIGN - 1)) & ~(uintptr_t)(ALIGN - 1));
}

/* BELLPERSON A scalars: every input, then the aux variables A uses (filecoin.md 1.2). */
static size_t gather_a(cuzk_fr *dst, const cuzk_r1cs *r1cs, const cuzk_fr *w)
{
    size_t k = 0;
    uint32_t aux0 = 1 + r1cs->n_public;
    for (uint32_t v = 0; v < aux0; v++)
        dst[k++] = w[v];
    for (uint32_t v = aux0; v < r1cs->n_vars; v++)
        if (cuzk_r1cs_density_test(r1cs, CUZK_R1CS_A, v))
            dst[k++] = w[v];
    return k;
}

/* BELLPERSON B scalars: the variables (inputs and aux) B uses. */
static size_t gather_b(cuzk_fr *dst, const cuzk_r1cs *r1cs, const cuzk_fr *w)
{
    size_t k = 0;
    for (uint32_t v = 0; v < r1cs->n_vars; v++)
        if (cuzk_r1cs_density_test(r1cs, CUZK_R1CS_B, v))
            dst[k++] = w[v];
    return k;
}

cuzk_status cuzk_groth16_prove_start(cuzk_groth16_prover_state *state,
                                     const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                     const cuzk_witness *w, void *scratch, size_t scratch_size,
                                     cuzk_pool *pool, cuzk_error *err)
{
    if (!state || !pk || !r1cs || !w || !scratch)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 prove: NULL argument");
    state->started_ = 0;
    if (w->kind != CUZK_WITNESS_DENSE || !w->values)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 prove: unsupported witness");
    cuzk_status st = cuzk_groth16_pk_check_circuit(pk, r1cs, err);
    if (st != CUZK_OK)
        return st;
    layout L;
    size_t nthreads = cuzk_pool_nthreads(pool);
    if (!make_layout(&L, pk, nthreads) || scratch_size < L.total)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 prove: scratch of %zu bytes, need %zu", scratch_size,
                              L.total);
    if (w->n_vars != r1cs->n_vars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 prove: witness has %u values, the circuit %u variables",
                              w->n_vars, r1cs->n_vars);
    if (!cuzk_fr_is_one(&w->values[0]))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "groth16 prove: witness value 0 must be ONE (the constant 1)");
    bool snarkjs = pk->flavour == CUZK_GROTH16_SNARKJS;
    if (r1cs->c_absent && !snarkjs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 prove: a bellperson key needs the circuit's C matrix");

    uint8_t *base = scratch_base(scratch);
    cuzk_domain *dom = (cuzk_domain *)base;
    uint8_t *r1 = base + L.off_r1 - ALIGN, *r2 = base + L.off_r2 - ALIGN,
            *r3 = base + L.off_r3 - ALIGN;
    size_t r1_size = L.off_r2 - L.off_r1;
    size_t n = L.n, m = r1cs->n_constraints;
    cuzk_fr *a = (cuzk_fr *)r1, *b = a + n, *c = b + n;

    st = snarkjs ? cuzk_domain_init_snarkjs(dom, pk->log2n)
                 : cuzk_domain_init_bellperson(dom, pk->log2n);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: cannot build the 2^%u domain", pk->log2n);
    /* One parallel pass evaluates and checks. Without C (a .zkey) there is nothing to
     * check against: snarkjs's recipe takes c = a*b row by row, which is C.w whenever the
     * witness satisfies the circuit, and the final self-check catches one that does not. */
    if (r1cs->c_absent) {
        if ((st = cuzk_r1cs_eval(r1cs, w, a, b, NULL, pool)) != CUZK_OK)
            return cuzk_error_set(err, st, "groth16 prove: constraint evaluation failed");
    } else if ((st = cuzk_r1cs_eval_check(r1cs, w, a, b, c, NULL, pool, err)) != CUZK_OK) {
        return st;
    }
    size_t rows = m;
    if (pk->append_input_rows)
        for (size_t i = 0; i < pk->vk.n_ic; i++, rows++) {
            a[rows] = w->values[i]; /* input_i * 0 = 0 */
            b[rows] = CUZK_FR_ZERO;
            c[rows] = CUZK_FR_ZERO;
        }
    memset(a + rows, 0, (n - rows) * sizeof(cuzk_fr));
    memset(b + rows, 0, (n - rows) * sizeof(cuzk_fr));
    memset(c + rows, 0, (n - rows) * sizeof(cuzk_fr));
    if (snarkjs) {
        /* c = a*b; where C was evaluated (and checked) c already equals it, bit for bit
         * (reduced Montgomery form is unique), input rows included (a*0 = 0). */
        if (r1cs->c_absent)
            for (size_t i = 0; i < m; i++)
                cuzk_fr_mul(&c[i], &a[i], &b[i]);
        st = cuzk_poly_h_snarkjs(dom, a, b, c, pool);
    } else {
        st = cuzk_poly_h_bellperson(dom, a, b, c, pool);
    }
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: H computation failed");
    if ((st = cuzk_g1s_msm(&state->h_, pk->h, a, pk->n_h, r3, L.r3_size, pool)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: H MSM failed");

    const cuzk_fr *wv = w->values;
    uint32_t aux0 = 1 + r1cs->n_public;
    if ((st = cuzk_g1s_msm_auto(&state->l_, pk->l, wv + aux0, pk->n_l, r1, r1_size, r3,
                                L.r3_size, pool)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: L MSM failed");
    const cuzk_fr *sa = wv, *sb = wv;
    if (!snarkjs) {
        cuzk_fr *g = (cuzk_fr *)r2;
        if (gather_a(g, r1cs, wv) != pk->n_a)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "groth16 prove: A density mismatch");
        sa = g;
    }
    if ((st = cuzk_g1s_msm_auto(&state->a_, pk->a, sa, pk->n_a, r1, r1_size, r3, L.r3_size,
                                pool)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: A MSM failed");
    if (!snarkjs) {
        cuzk_fr *g = (cuzk_fr *)r2;
        if (gather_b(g, r1cs, wv) != pk->n_b_g1)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "groth16 prove: B density mismatch");
        sb = g;
    }
    if ((st = cuzk_g1s_msm_auto(&state->b_g1_, pk->b_g1, sb, pk->n_b_g1, r1, r1_size, r3,
                                L.r3_size, pool)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 prove: B_G1 MSM failed");

    state->pk_ = pk;
    state->r1cs_ = r1cs;
    state->w_ = *w;
    state->pool_ = pool;
    state->scratch_ = scratch;
    state->scratch_size_ = scratch_size;
    state->started_ = 1;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_prove_finalize(cuzk_groth16_prover_state *state, const cuzk_fr *r,
                                        const cuzk_fr *s, cuzk_groth16_proof *proof,
                                        cuzk_error *err)
{
    if (!state || !r || !s || !proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 finalize: NULL argument");
    if (state->started_ != 1)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 finalize: state was not started (or already used)");
    state->started_ = 0;
    const cuzk_groth16_pk *pk = state->pk_;
    layout L;
    if (!make_layout(&L, pk, cuzk_pool_nthreads(state->pool_)))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "groth16 finalize: layout");
    uint8_t *base = scratch_base(state->scratch_);
    uint8_t *r1 = base + L.off_r1 - ALIGN, *r2 = base + L.off_r2 - ALIGN,
            *r3 = base + L.off_r3 - ALIGN;
    size_t r1_size = L.off_r2 - L.off_r1;
    const cuzk_fr *sb = state->w_.values;
    if (pk->flavour == CUZK_GROTH16_BELLPERSON) {
        cuzk_fr *g = (cuzk_fr *)r2;
        if (gather_b(g, state->r1cs_, state->w_.values) != pk->n_b_g2)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "groth16 finalize: B density mismatch");
        sb = g;
    }
    cuzk_g2_jac b2;
    cuzk_status st = cuzk_g2s_msm_auto(&b2, pk->b_g2, sb, pk->n_b_g2, r1, r1_size, r3,
                                       L.r3_size, state->pool_);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "groth16 finalize: B_G2 MSM failed");

    cuzk_groth16_msm_results m = {
        .h = state->h_, .l = state->l_, .a = state->a_, .b_g1 = state->b_g1_, .b_g2 = b2};
    cuzk_groth16_assemble(proof, &pk->vk, &m, r, s);
    explicit_bzero(&m, sizeof m);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *proof, const cuzk_groth16_pk *pk,
                               const cuzk_r1cs *r1cs, const cuzk_witness *w, void *scratch,
                               size_t scratch_size, cuzk_pool *pool, cuzk_error *err)
{
    if (!proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 prove: proof is NULL");
    cuzk_groth16_prover_state state;
    cuzk_status st =
        cuzk_groth16_prove_start(&state, pk, r1cs, w, scratch, scratch_size, pool, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fr r, s;
    if ((st = cuzk_fr_random(&r, err)) != CUZK_OK || (st = cuzk_fr_random(&s, err)) != CUZK_OK)
        return st;
    cuzk_groth16_proof out;
    st = cuzk_groth16_prove_finalize(&state, &r, &s, &out, err);
    explicit_bzero(&r, sizeof r); /* anyone with r, s and the proof learns the witness */
    explicit_bzero(&s, sizeof s);
    if (st == CUZK_OK)
        st = cuzk_groth16_proof_selfcheck(pk, NULL, r1cs, w, &out, pool, err);
    if (st == CUZK_OK)
        *proof = out;
    return st;
}
