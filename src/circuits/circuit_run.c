/*
 * circuit_run.c — the runners of cuzk/circuits.h: run a circuit function on one backend
 * and turn what the backend gathered into its result (CSR + witness map, counts, dense or
 * compact assignment). Inputs come before aux in the final numbering, so every result is
 * assembled here, once the number of inputs is known.
 *
 * Threading: each runner uses its own cuzk_cs; runners may run concurrently.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/cs.h"

static uint64_t popcount_words(const uint64_t *w, size_t n)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += (uint64_t)__builtin_popcountll(w[i]);
    return c;
}

cuzk_status cs_record_finish(cuzk_cs *cs, cuzk_r1cs **out, cuzk_witness_map *map)
{
    uint64_t rows = cs->n_rows, n_pub = cs->n_public;
    uint32_t n_vars = (uint32_t)(1 + n_pub + cs->n_aux);
    cuzk_csr m[CUZK_R1CS_MATRICES];
    memset(m, 0, sizeof m);
    cuzk_status st = CUZK_OK;
    for (int k = 0; k < CUZK_R1CS_MATRICES && st == CUZK_OK; k++) {
        uint64_t nnz = cs->mat[k].len;
        m[k].nnz = nnz;
        m[k].row_ptr = rows ? cs->row_ptr[k] : calloc(1, sizeof(uint64_t));
        cs->row_ptr[k] = NULL;
        m[k].col = malloc((nnz ? nnz : 1) * sizeof(uint32_t));
        m[k].coeff = cs->mat[k].coeff ? cs->mat[k].coeff : malloc(sizeof(cuzk_fr));
        cs->mat[k].coeff = NULL;
        if (!m[k].row_ptr || !m[k].col || !m[k].coeff) {
            st = cuzk_error_set(&cs->err, CUZK_ERR_NOMEM, "circuit: out of memory");
            break;
        }
        for (uint64_t i = 0; i < nnz; i++) {
            cs_var v = cs->mat[k].var[i];
            uint32_t idx = (uint32_t)v;
            m[k].col[i] = (v >> 32) == 0 ? 0
                          : (v >> 32) == 1 ? 1 + idx
                                           : (uint32_t)(1 + n_pub + idx);
        }
        free(cs->mat[k].var);
        cs->mat[k].var = NULL;
    }
    if (st != CUZK_OK) {
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            free(m[k].row_ptr);
            free(m[k].col);
            free(m[k].coeff);
        }
        return st;
    }
    st = cuzk_r1cs_from_csr(out, rows, (uint32_t)n_pub, (uint32_t)cs->n_aux, m, NULL, &cs->err);
    if (st != CUZK_OK || !map)
        return st;
    size_t nw = ((size_t)n_vars + 63) / 64;
    uint64_t *is_bit = calloc(nw ? nw : 1, sizeof *is_bit);
    if (!is_bit) {
        cuzk_r1cs_destroy(*out);
        *out = NULL;
        return cuzk_error_set(&cs->err, CUZK_ERR_NOMEM, "circuit: out of memory");
    }
    for (size_t w = 0; w < cs->aux_is_bit.cap; w++) {
        for (uint64_t x = cs->aux_is_bit.w[w]; x; x &= x - 1) {
            uint64_t v = 1 + n_pub + w * 64 + (uint64_t)__builtin_ctzll(x);
            is_bit[v >> 6] |= (uint64_t)1 << (v & 63);
        }
    }
    st = cuzk_witness_map_init(map, is_bit, n_vars, &cs->err);
    free(is_bit);
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(*out);
        *out = NULL;
    }
    return st;
}

void cs_count_finish(cuzk_cs *cs, cuzk_circuit_counts *out)
{
    memset(out, 0, sizeof *out);
    out->n_constraints = cs->n_rows;
    out->n_public = cs->n_public;
    out->n_aux = cs->n_aux;
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++)
        out->nnz[k] = cs->nnz[k];
    out->a_aux_density = popcount_words(cs->dens_aux[CUZK_R1CS_A].w, cs->dens_aux[CUZK_R1CS_A].cap);
    out->b_input_density = popcount_words(cs->dens_in[CUZK_R1CS_B].w, cs->dens_in[CUZK_R1CS_B].cap);
    out->b_aux_density = popcount_words(cs->dens_aux[CUZK_R1CS_B].w, cs->dens_aux[CUZK_R1CS_B].cap);
    out->n_bits = cs->n_bits;
    out->n_coeff_values = 1 + cs->coeff_n;
}

/* dst = [ONE, inputs...] */
static void put_inputs(cuzk_cs *cs, cuzk_fr *dst)
{
    dst[0] = cs->one;
    if (cs->n_public)
        memcpy(dst + 1, cs->in_val + 1, (size_t)cs->n_public * sizeof(cuzk_fr));
}

cuzk_status cs_witness_finish_dense(cuzk_cs *cs, cuzk_fr **values, uint32_t *n_vars)
{
    uint64_t n = 1 + cs->n_public + cs->n_aux;
    cuzk_fr *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return cuzk_error_set(&cs->err, CUZK_ERR_NOMEM, "circuit: out of memory");
    put_inputs(cs, v);
    if (cs->n_aux)
        memcpy(v + 1 + cs->n_public, cs->aux_val, (size_t)cs->n_aux * sizeof *v);
    *values = v;
    *n_vars = (uint32_t)n;
    return CUZK_OK;
}

cuzk_status cs_witness_finish_compact(cuzk_cs *cs, cuzk_compact_assignment *out)
{
    uint64_t n = 1 + cs->n_public + cs->n_aux, nd = n - cs->n_bits;
    size_t nw = (size_t)((cs->n_bits + 63) / 64);
    out->dense = malloc((size_t)nd * sizeof(cuzk_fr));
    out->bits = calloc(nw ? nw : 1, sizeof(uint64_t));
    if (!out->dense || !out->bits) {
        cuzk_compact_assignment_free(out);
        return cuzk_error_set(&cs->err, CUZK_ERR_NOMEM, "circuit: out of memory");
    }
    put_inputs(cs, out->dense);
    if (cs->aux_len)
        memcpy(out->dense + 1 + cs->n_public, cs->aux_val, (size_t)cs->aux_len * sizeof(cuzk_fr));
    size_t have = cs->aux_bits.cap < nw ? cs->aux_bits.cap : nw;
    if (have)
        memcpy(out->bits, cs->aux_bits.w, have * sizeof(uint64_t));
    out->n_vars = (uint32_t)n;
    out->n_bits = (uint32_t)cs->n_bits;
    return CUZK_OK;
}

void cuzk_compact_assignment_free(cuzk_compact_assignment *a)
{
    if (!a)
        return;
    free(a->bits);
    free(a->dense);
    memset(a, 0, sizeof *a);
}

/* Runs fn on a fresh cs of the given backend; the cs is left for the caller to finish. */
static cuzk_status run(cuzk_cs **csp, cs_backend backend, bool compact, cuzk_circuit_fn fn,
                       const void *ctx, cuzk_error *err)
{
    *csp = NULL;
    if (!fn)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "circuit: no circuit function");
    cuzk_cs *cs = malloc(sizeof *cs);
    if (!cs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory");
    cs_init(cs, backend, compact);
    *csp = cs;
    cuzk_status st = fn(cs, ctx, err);
    if (st != CUZK_OK)
        return st;
    if (cs->status != CUZK_OK) {
        if (err)
            *err = cs->err;
        return cs->status;
    }
    return CUZK_OK;
}

static cuzk_status done(cuzk_cs *cs, cuzk_status st, cuzk_error *err)
{
    if (cs) {
        if (st != CUZK_OK && cs->err.code == st && err)
            *err = cs->err;
        cs_release(cs);
        free(cs);
    }
    return st;
}

cuzk_status cuzk_circuit_record(cuzk_circuit_fn fn, const void *ctx, cuzk_r1cs **r1cs,
                                cuzk_witness_map *map, cuzk_error *err)
{
    if (!r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "circuit: r1cs is NULL");
    *r1cs = NULL;
    if (map)
        memset(map, 0, sizeof *map);
    cuzk_cs *cs;
    cuzk_status st = run(&cs, CS_RECORD, false, fn, ctx, err);
    if (st == CUZK_OK)
        st = cs_record_finish(cs, r1cs, map);
    return done(cs, st, err);
}

cuzk_status cuzk_circuit_count(cuzk_circuit_fn fn, const void *ctx, cuzk_circuit_counts *out,
                               cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "circuit: out is NULL");
    cuzk_cs *cs;
    cuzk_status st = run(&cs, CS_COUNT, false, fn, ctx, err);
    if (st == CUZK_OK)
        cs_count_finish(cs, out);
    return done(cs, st, err);
}

cuzk_status cuzk_circuit_witness_dense(cuzk_circuit_fn fn, const void *ctx, cuzk_fr **values,
                                       uint32_t *n_vars, cuzk_error *err)
{
    if (!values || !n_vars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "circuit: NULL output");
    *values = NULL;
    *n_vars = 0;
    cuzk_cs *cs;
    cuzk_status st = run(&cs, CS_WITNESS, false, fn, ctx, err);
    if (st == CUZK_OK)
        st = cs_witness_finish_dense(cs, values, n_vars);
    return done(cs, st, err);
}

cuzk_status cuzk_circuit_witness_compact(cuzk_circuit_fn fn, const void *ctx,
                                         cuzk_compact_assignment *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "circuit: out is NULL");
    memset(out, 0, sizeof *out);
    cuzk_cs *cs;
    cuzk_status st = run(&cs, CS_WITNESS, true, fn, ctx, err);
    if (st == CUZK_OK)
        st = cs_witness_finish_compact(cs, out);
    return done(cs, st, err);
}
