/*
 * test_groth16_circuits.h — small circuits with satisfying witnesses for the Groth16 and
 * bellperson-format tests (header-only, static functions; tests only).
 *
 * Each builder returns a frozen r1cs and a malloc'd dense witness (ONE, public, aux).
 * Threading: single-threaded tests.
 */
#ifndef CUZK_TEST_GROTH16_CIRCUITS_H
#define CUZK_TEST_GROTH16_CIRCUITS_H

#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"

typedef struct tc_circuit {
    cuzk_r1cs *r1cs;
    cuzk_fr *w; /* n_vars values */
} tc_circuit;

static inline void tc_free(tc_circuit *c)
{
    cuzk_r1cs_destroy(c->r1cs);
    free(c->w);
    c->r1cs = NULL;
    c->w = NULL;
}

static inline cuzk_fr tc_u(uint64_t v)
{
    cuzk_fr r;
    cuzk_fr_from_u64(&r, v);
    return r;
}

/* Adds one row (sum ca_i * va_i) * (sum cb_i * vb_i) = (sum cc_i * vc_i); lists end with
 * coefficient 0 marked by n. */
typedef struct tc_term { cuzk_r1cs_var v; uint64_t c; } tc_term;

static inline int tc_row(cuzk_r1cs_builder *b, const tc_term *ta, size_t na, const tc_term *tb,
                         size_t nb, const tc_term *tcc, size_t nc)
{
    if (cuzk_r1cs_builder_begin_row(b, NULL) != CUZK_OK)
        return -1;
    const tc_term *t[3] = {ta, tb, tcc};
    size_t nn[3] = {na, nb, nc};
    for (int m = 0; m < 3; m++)
        for (size_t i = 0; i < nn[m]; i++) {
            cuzk_fr c = tc_u(t[m][i].c);
            if (cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)m, t[m][i].v, &c, NULL) !=
                CUZK_OK)
                return -1;
        }
    return 0;
}

#define TC_ONE CUZK_R1CS_VAR_ONE
#define TC_P(i) CUZK_R1CS_VAR_PUBLIC(i)
#define TC_X(j) CUZK_R1CS_VAR_AUX(j)

/* x^3 + x + 5 = out; public out; aux x, x2, x3. */
static inline int tc_xcube(tc_circuit *c, uint64_t x)
{
    cuzk_r1cs_builder *b;
    if (cuzk_r1cs_builder_create(&b, NULL) != CUZK_OK)
        return -1;
    cuzk_r1cs_builder_alloc_public(b, 1, NULL, NULL);
    cuzk_r1cs_builder_alloc_aux(b, 3, NULL, NULL);
    tc_term x1[] = {{TC_X(0), 1}}, x2[] = {{TC_X(1), 1}}, x3[] = {{TC_X(2), 1}};
    tc_term sum[] = {{TC_X(2), 1}, {TC_X(0), 1}, {TC_ONE, 5}}, one[] = {{TC_ONE, 1}},
            out[] = {{TC_P(0), 1}};
    if (tc_row(b, x1, 1, x1, 1, x2, 1) || tc_row(b, x2, 1, x1, 1, x3, 1) ||
        tc_row(b, sum, 3, one, 1, out, 1) || cuzk_r1cs_builder_finish(b, &c->r1cs, NULL))
        return -1;
    c->w = calloc(5, sizeof(cuzk_fr));
    uint64_t vals[5] = {1, x * x * x + x + 5, x, x * x, x * x * x};
    for (int i = 0; i < 5; i++)
        c->w[i] = tc_u(vals[i]);
    return 0;
}

/*
 * A mixed circuit: n_pub public inputs p_i, k multiplication chain links, n_bits boolean
 * aux variables (b*b = b, most witness values 0/1, summed into a public-free check), one
 * aux used only in C (absent from A and B density) and one used only in B.
 * Variables: publics p_0..p_{n_pub-1}; aux: chain y_0..y_k, bits, c_only, b_only.
 *   y_0 = p_0 + ... + p_{n_pub-1} + 1     (row: (sum p + ONE) * ONE = y_0)
 *   y_{i+1} = y_i * y_i                   (k rows)
 *   b_j * b_j = b_j                      (n_bits rows)
 *   (sum_j b_j) * ONE = c_only            (c_only appears only in C)
 *   y_0 * b_only = yb                     (b_only only in B, yb only in C)
 */
static inline int tc_mixed(tc_circuit *c, uint32_t n_pub, uint32_t k, uint32_t n_bits,
                           uint64_t seed)
{
    cuzk_r1cs_builder *b;
    if (cuzk_r1cs_builder_create(&b, NULL) != CUZK_OK)
        return -1;
    uint32_t n_aux = (k + 1) + n_bits + 3;
    cuzk_r1cs_builder_alloc_public(b, n_pub, NULL, NULL);
    cuzk_r1cs_builder_alloc_aux(b, n_aux, NULL, NULL);
    uint32_t nv = 1 + n_pub + n_aux;
    c->w = calloc(nv, sizeof(cuzk_fr));
    cuzk_fr *pub = c->w + 1, *aux = c->w + 1 + n_pub;
    c->w[0] = tc_u(1);
    tc_term *ts = calloc(n_pub + n_bits + 1, sizeof(tc_term));
    tc_term one[] = {{TC_ONE, 1}};
    cuzk_fr y0 = tc_u(1);
    for (uint32_t i = 0; i < n_pub; i++) {
        pub[i] = tc_u(seed * 31 + i * 7 + 2);
        cuzk_fr_add(&y0, &y0, &pub[i]);
        ts[i] = (tc_term){TC_P(i), 1};
    }
    ts[n_pub] = (tc_term){TC_ONE, 1};
    aux[0] = y0;
    tc_term y0t[] = {{TC_X(0), 1}};
    int bad = tc_row(b, ts, n_pub + 1, one, 1, y0t, 1);
    for (uint32_t i = 0; i < k && !bad; i++) {
        tc_term yi[] = {{TC_X(i), 1}}, yn[] = {{TC_X(i + 1), 1}};
        cuzk_fr_sqr(&aux[i + 1], &aux[i]);
        bad = tc_row(b, yi, 1, yi, 1, yn, 1);
    }
    uint32_t b0 = k + 1;
    cuzk_fr bitsum = tc_u(0);
    for (uint32_t j = 0; j < n_bits && !bad; j++) {
        uint64_t h = (seed + j) * 0x9e3779b97f4a7c15ull;
        bool bit = (h >> 40) & 1;
        aux[b0 + j] = tc_u(bit);
        cuzk_fr_add(&bitsum, &bitsum, &aux[b0 + j]);
        tc_term bj[] = {{TC_X(b0 + j), 1}};
        bad = tc_row(b, bj, 1, bj, 1, bj, 1);
        ts[j] = (tc_term){TC_X(b0 + j), 1};
    }
    uint32_t c_only = b0 + n_bits, b_only = c_only + 1, yb = c_only + 2;
    aux[c_only] = bitsum;
    tc_term ct[] = {{TC_X(c_only), 1}};
    if (!bad)
        bad = tc_row(b, ts, n_bits, one, 1, ct, 1);
    aux[b_only] = tc_u(seed | 1);
    cuzk_fr_mul(&aux[yb], &aux[0], &aux[b_only]);
    tc_term bo[] = {{TC_X(b_only), 1}}, ybt[] = {{TC_X(yb), 1}};
    if (!bad)
        bad = tc_row(b, y0t, 1, bo, 1, ybt, 1);
    free(ts);
    if (bad) {
        cuzk_r1cs_builder_destroy(b);
        return -1;
    }
    return cuzk_r1cs_builder_finish(b, &c->r1cs, NULL) == CUZK_OK ? 0 : -1;
}

#endif
