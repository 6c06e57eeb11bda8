/*
 * eval.c — sparse matrix × witness products (A·w, B·w, C·w) and the satisfaction check.
 *
 * eval is row-parallel: each pool chunk owns a disjoint range of rows and writes only those
 * outputs, so no synchronisation is needed beyond the pool's completion hand-off. check is
 * single-threaded and stops at the first failing row. Neither allocates.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/r1cs.h"

/* Rows per pool chunk: a row is a few multiplications, so hand-offs must cover
 * thousands of rows to be worth it. */
#define EVAL_GRAIN 4096

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

typedef struct eval_ctx {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *w;
    cuzk_fr *out[CUZK_R1CS_MATRICES];
} eval_ctx;

static void eval_rows(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    (void)worker_id;
    const eval_ctx *ctx = vctx;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        if (!ctx->out[m])
            continue;
        for (size_t i = begin; i < end; i++)
            row_dot(&ctx->out[m][i], &ctx->r1cs->m[m], i, ctx->w);
    }
}

cuzk_status cuzk_r1cs_eval(const cuzk_r1cs *r1cs, const cuzk_witness *w, cuzk_fr *a_out,
                           cuzk_fr *b_out, cuzk_fr *c_out, cuzk_pool *pool)
{
    if (!r1cs || !w || w->n_vars != r1cs->n_vars || w->kind != CUZK_WITNESS_DENSE ||
        !w->values || r1cs->n_constraints > SIZE_MAX)
        return CUZK_ERR_INVALID_ARG;
    eval_ctx ctx = {r1cs, w->values, {a_out, b_out, c_out}};
    return cuzk_pool_for(pool, (size_t)r1cs->n_constraints, eval_rows, &ctx, EVAL_GRAIN);
}

/* Canonical big-endian hex without leading zeros ("0" for zero); out >= 65 bytes. */
static void fr_hex(char out[65], const cuzk_fr *a)
{
    uint8_t be[CUZK_FR_BYTES];
    cuzk_fr_to_bytes_be(be, a);
    size_t i = 0;
    while (i < CUZK_FR_BYTES - 1 && be[i] == 0)
        i++;
    char *p = out;
    p += sprintf(p, "%x", be[i]);
    for (i++; i < CUZK_FR_BYTES; i++)
        p += sprintf(p, "%02x", be[i]);
}

cuzk_status cuzk_r1cs_check(const cuzk_r1cs *r1cs, const cuzk_witness *w,
                            uint64_t *first_failing_row, cuzk_error *err)
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
    if (!cuzk_fr_is_one(&w->values[0]))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "r1cs check: witness value 0 must be ONE (the constant 1)");
    for (uint64_t i = 0; i < r1cs->n_constraints; i++) {
        cuzk_fr a, b, c, ab;
        row_dot(&a, &r1cs->m[CUZK_R1CS_A], i, w->values);
        row_dot(&b, &r1cs->m[CUZK_R1CS_B], i, w->values);
        row_dot(&c, &r1cs->m[CUZK_R1CS_C], i, w->values);
        cuzk_fr_mul(&ab, &a, &b);
        if (!cuzk_fr_eq(&ab, &c)) {
            char ha[65], hb[65], hc[65];
            fr_hex(ha, &a);
            fr_hex(hb, &b);
            fr_hex(hc, &c);
            if (first_failing_row)
                *first_failing_row = i;
            return cuzk_error_set(err, CUZK_ERR_UNSATISFIED,
                                  "constraint %llu unsatisfied: A.w=0x%s B.w=0x%s C.w=0x%s",
                                  (unsigned long long)i, ha, hb, hc);
        }
    }
    cuzk_error_clear(err);
    return CUZK_OK;
}
