/*
 * eval.c — sparse matrix × witness products (A·w, B·w, C·w) and the satisfaction check,
 * as one row-parallel pass.
 *
 * Each pool chunk owns a disjoint range of rows and writes only those outputs, so no
 * synchronisation is needed beyond the pool's completion hand-off. When checking, a chunk
 * stops at its first failing row and lowers a shared atomic minimum; chunks that start
 * above the current minimum are skipped. The row reported is therefore the lowest failing
 * row whatever the thread count or scheduling: any chunk holding a lower failing row
 * starts below the minimum, so it runs and finds it. Nothing here allocates. Coefficients
 * come from m[].coeff or, for a mapped cache, the distinct-value table (cuzk/r1cs.h).
 */
#include <stdatomic.h>
#include <string.h>

#include "cuzk/r1cs.h"

/* Rows per pool chunk: a row is a few multiplications, so hand-offs must cover
 * thousands of rows to be worth it. */
#define EVAL_GRAIN 4096

/* The two coefficient forms (cuzk/r1cs.h, "Coefficients"): a direct array, or indices
 * into the distinct-value table (a mapped cache). Callers pick one per matrix, outside
 * the term loop, so neither loop tests the form per term. */
static void row_dot(cuzk_fr *r, const cuzk_csr *c, uint64_t row, const cuzk_fr *w)
{
    cuzk_fr acc = CUZK_FR_ZERO, t;
    for (uint64_t k = c->row_ptr[row]; k < c->row_ptr[row + 1]; k++) {
        const cuzk_fr *x = &w[c->col[k]];
        /* Most circuit coefficients are 1 (bit decompositions, copies): skip the multiply. */
        if (cuzk_fr_is_one(&c->coeff[k])) {
            cuzk_fr_add(&acc, &acc, x);
        } else {
            cuzk_fr_mul(&t, &c->coeff[k], x);
            cuzk_fr_add(&acc, &acc, &t);
        }
    }
    *r = acc;
}

/* The same sum through the table: the same operations on the same values in the same
 * order, so the result is bit-identical to row_dot's. The table is a few KB (cache
 * resident); one 4-byte index a term replaces the 32-byte coefficient stream. */
static void row_dot_idx(cuzk_fr *r, const cuzk_csr *c, const uint32_t *ci, const cuzk_fr *tab,
                        uint64_t row, const cuzk_fr *w)
{
    cuzk_fr acc = CUZK_FR_ZERO, t;
    for (uint64_t k = c->row_ptr[row]; k < c->row_ptr[row + 1]; k++) {
        const cuzk_fr *x = &w[c->col[k]], *v = &tab[ci[k]];
        if (cuzk_fr_is_one(v)) {
            cuzk_fr_add(&acc, &acc, x);
        } else {
            cuzk_fr_mul(&t, v, x);
            cuzk_fr_add(&acc, &acc, &t);
        }
    }
    *r = acc;
}

typedef struct eval_ctx {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *w;
    cuzk_fr *out[CUZK_R1CS_MATRICES];
    bool check;
    _Atomic uint64_t first_bad; /* lowest failing row seen so far (UINT64_MAX: none) */
} eval_ctx;

static void lower_first_bad(eval_ctx *ctx, uint64_t row)
{
    uint64_t cur = atomic_load_explicit(&ctx->first_bad, memory_order_relaxed);
    while (row < cur && !atomic_compare_exchange_weak_explicit(
                            &ctx->first_bad, &cur, row, memory_order_relaxed,
                            memory_order_relaxed)) {
    }
}

static void eval_rows(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    (void)worker_id;
    eval_ctx *ctx = vctx;
    const cuzk_csr *m = ctx->r1cs->m;
    if (!ctx->check) {
        /* one matrix at a time: each pass streams one CSR */
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            if (!ctx->out[k])
                continue;
            if (m[k].coeff) {
                for (size_t i = begin; i < end; i++)
                    row_dot(&ctx->out[k][i], &m[k], i, ctx->w);
            } else {
                const uint32_t *ci = ctx->r1cs->coeff_index[k];
                for (size_t i = begin; i < end; i++)
                    row_dot_idx(&ctx->out[k][i], &m[k], ci, ctx->r1cs->coeff_values, i, ctx->w);
            }
        }
        return;
    }
    if (begin >= atomic_load_explicit(&ctx->first_bad, memory_order_relaxed))
        return; /* a lower row already failed: nothing here can be the answer */
    for (size_t i = begin; i < end; i++) {
        cuzk_fr v[CUZK_R1CS_MATRICES], ab;
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            /* the form test is per row and matrix (one predictable branch), not per term */
            if (m[k].coeff)
                row_dot(&v[k], &m[k], i, ctx->w);
            else
                row_dot_idx(&v[k], &m[k], ctx->r1cs->coeff_index[k], ctx->r1cs->coeff_values,
                            i, ctx->w);
            if (ctx->out[k])
                ctx->out[k][i] = v[k];
        }
        cuzk_fr_mul(&ab, &v[CUZK_R1CS_A], &v[CUZK_R1CS_B]);
        if (!cuzk_fr_eq(&ab, &v[CUZK_R1CS_C])) {
            lower_first_bad(ctx, i);
            return;
        }
    }
}

/* Every matrix with terms has one of the two coefficient forms (cuzk/r1cs.h). */
static bool coeffs_ok(const cuzk_r1cs *r1cs)
{
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++)
        if (r1cs->m[k].nnz && !r1cs->m[k].coeff &&
            !(r1cs->coeff_values && r1cs->coeff_index[k]))
            return false;
    return true;
}

static bool args_ok(const cuzk_r1cs *r1cs, const cuzk_witness *w)
{
    return r1cs && w && w->kind == CUZK_WITNESS_DENSE && w->values &&
           w->n_vars == r1cs->n_vars && r1cs->n_constraints <= SIZE_MAX && coeffs_ok(r1cs);
}

cuzk_status cuzk_r1cs_eval(const cuzk_r1cs *r1cs, const cuzk_witness *w, cuzk_fr *a_out,
                           cuzk_fr *b_out, cuzk_fr *c_out, cuzk_pool *pool)
{
    if (!args_ok(r1cs, w) || (c_out && r1cs->c_absent))
        return CUZK_ERR_INVALID_ARG;
    eval_ctx ctx = {.r1cs = r1cs, .w = w->values, .out = {a_out, b_out, c_out}};
    return cuzk_pool_for(pool, (size_t)r1cs->n_constraints, eval_rows, &ctx, EVAL_GRAIN);
}

cuzk_status cuzk_r1cs_eval_check(const cuzk_r1cs *r1cs, const cuzk_witness *w,
                                 cuzk_fr *a_out, cuzk_fr *b_out, cuzk_fr *c_out,
                                 uint64_t *first_failing_row, cuzk_pool *pool,
                                 cuzk_error *err)
{
    if (first_failing_row)
        *first_failing_row = UINT64_MAX;
    if (!r1cs || !w || !w->values || w->kind != CUZK_WITNESS_DENSE)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs check: NULL argument");
    if (w->n_vars != r1cs->n_vars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs check: witness has %u values, constraint system has %u "
                              "variables",
                              w->n_vars, r1cs->n_vars);
    if (r1cs->c_absent)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs check: this constraint system has no C matrix (A and B "
                              "of a .zkey); check the witness against the circuit's .r1cs");
    if (!coeffs_ok(r1cs))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs check: a matrix has terms but no coefficients");
    if (!args_ok(r1cs, w))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs check: too many constraints");
    if (!cuzk_fr_is_one(&w->values[0]))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "r1cs check: witness value 0 must be ONE (the constant 1)");
    eval_ctx ctx = {.r1cs = r1cs, .w = w->values, .out = {a_out, b_out, c_out}, .check = true};
    atomic_init(&ctx.first_bad, UINT64_MAX);
    cuzk_status st =
        cuzk_pool_for(pool, (size_t)r1cs->n_constraints, eval_rows, &ctx, EVAL_GRAIN);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "r1cs check: pool failure");
    uint64_t bad = atomic_load(&ctx.first_bad);
    if (bad != UINT64_MAX) {
        if (first_failing_row)
            *first_failing_row = bad;
        /* The row only: A.w, B.w and C.w are functions of the (secret) witness. */
        return cuzk_error_set(err, CUZK_ERR_UNSATISFIED, "constraint %llu unsatisfied",
                              (unsigned long long)bad);
    }
    cuzk_error_clear(err);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_check(const cuzk_r1cs *r1cs, const cuzk_witness *w,
                            uint64_t *first_failing_row, cuzk_error *err)
{
    return cuzk_r1cs_eval_check(r1cs, w, NULL, NULL, NULL, first_failing_row, NULL, err);
}
