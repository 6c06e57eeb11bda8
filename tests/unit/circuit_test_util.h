/*
 * circuit_test_util.h — runs one circuit function on every backend of cuzk/circuits.h and
 * checks them against each other: the counting backend's numbers equal the recorded
 * R1CS's (rows, inputs, aux, non-zeros, densities, distinct coefficients) and the recorded
 * map's bit count; the
 * compact assignment expands to the dense one; every marked variable is 0 or 1; the
 * recorded R1CS is satisfied by the witness-only backend's assignment.
 * Header-only (static functions) so each cmocka test links it without CMake changes.
 * Single-threaded (tests only).
 */
#ifndef CUZK_TEST_CIRCUIT_UTIL_H
#define CUZK_TEST_CIRCUIT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/circuits.h"
#include "cuzk/r1cs.h"

typedef struct ct_result {
    cuzk_r1cs *r1cs;
    cuzk_witness_map map;
    cuzk_fr *w; /* dense assignment, n_vars values */
    uint32_t n_vars;
    cuzk_circuit_counts counts;
} ct_result;

static inline void ct_free(ct_result *r)
{
    cuzk_r1cs_destroy(r->r1cs);
    cuzk_witness_map_free(&r->map);
    free(r->w);
    memset(r, 0, sizeof *r);
}

/* The value of aux variable j (0-based, bellperson's aux index). */
static inline const cuzk_fr *ct_aux(const ct_result *r, uint64_t j)
{
    return &r->w[1 + r->r1cs->n_public + j];
}

static inline bool ct_satisfied(const ct_result *r, uint64_t *bad_row)
{
    cuzk_witness w = cuzk_witness_dense(r->w, r->n_vars);
    cuzk_error e;
    return cuzk_r1cs_check(r->r1cs, &w, bad_row, &e) == CUZK_OK;
}

/* Runs fn on every backend (the dense witness last) and checks them against each other;
 * the recorded R1CS must be satisfied. */
static inline void ct_run(cuzk_circuit_fn fn, const void *ctx, ct_result *r)
{
    memset(r, 0, sizeof *r);
    cuzk_error e = {0};
    if (cuzk_circuit_record(fn, ctx, &r->r1cs, &r->map, &e) != CUZK_OK)
        fail_msg("record: %s", e.msg);
    if (cuzk_circuit_count(fn, ctx, &r->counts, &e) != CUZK_OK)
        fail_msg("count: %s", e.msg);
    cuzk_compact_assignment ca;
    if (cuzk_circuit_witness_compact(fn, ctx, &ca, &e) != CUZK_OK)
        fail_msg("compact witness: %s", e.msg);
    if (cuzk_circuit_witness_dense(fn, ctx, &r->w, &r->n_vars, &e) != CUZK_OK)
        fail_msg("dense witness: %s", e.msg);

    const cuzk_r1cs *m = r->r1cs;
    const cuzk_circuit_counts *c = &r->counts;
    uint32_t first_aux = 1 + m->n_public;
    assert_int_equal(c->n_constraints, m->n_constraints);
    assert_int_equal(c->n_public, m->n_public);
    assert_int_equal(c->n_aux, m->n_aux);
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++)
        assert_int_equal(c->nnz[k], m->m[k].nnz);
    assert_int_equal(c->a_aux_density, cuzk_r1cs_density_count(m, CUZK_R1CS_A, first_aux, m->n_vars));
    assert_int_equal(c->b_input_density, cuzk_r1cs_density_count(m, CUZK_R1CS_B, 0, first_aux));
    assert_int_equal(c->b_aux_density, cuzk_r1cs_density_count(m, CUZK_R1CS_B, first_aux, m->n_vars));
    assert_int_equal(c->n_bits, r->map.n_bits);
    {
        cuzk_fr *vals = NULL;
        uint32_t n_vals = 0, *idx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL};
        if (cuzk_r1cs_coeff_table(m, &vals, &n_vals, idx, &e) != CUZK_OK)
            fail_msg("coefficient table: %s", e.msg);
        assert_int_equal(c->n_coeff_values, n_vals);
        free(vals);
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++)
            free(idx[k]);
    }
    assert_int_equal(r->n_vars, m->n_vars);
    assert_int_equal(ca.n_vars, m->n_vars);
    assert_int_equal(ca.n_bits, r->map.n_bits);

    /* the compact assignment is the dense one, and the marked variables are bits */
    cuzk_fr *x = malloc((size_t)m->n_vars * sizeof *x);
    assert_non_null(x);
    cuzk_witness wc = cuzk_witness_compact(&r->map, ca.bits, ca.dense);
    assert_int_equal(cuzk_witness_expand(x, &wc, NULL), CUZK_OK);
    assert_memory_equal(x, r->w, (size_t)m->n_vars * sizeof *x);
    free(x);
    size_t nw = ((size_t)r->map.n_bits + 63) / 64;
    uint64_t *bits = calloc(nw ? nw : 1, sizeof *bits);
    cuzk_fr *dense = malloc(((size_t)m->n_vars - r->map.n_bits) * sizeof *dense);
    assert_non_null(bits);
    assert_non_null(dense);
    if (cuzk_witness_compress(bits, dense, &r->map, r->w, &e) != CUZK_OK)
        fail_msg("a marked variable is not a bit: %s", e.msg);
    free(bits);
    free(dense);
    cuzk_compact_assignment_free(&ca);

    uint64_t bad = 0;
    if (!ct_satisfied(r, &bad))
        fail_msg("recorded R1CS not satisfied by the witness backend's values: row %llu",
                 (unsigned long long)bad);
}

#endif
