/*
 * sizes.c — what keys, circuits and witnesses occupy in host memory (sizes.h), counted
 * from their shapes: the loaders charge a loaded key with it and the plan (plan.c)
 * predicts with the same formulas.
 * Threading: pure functions.
 */
#include "engine/sizes.h"

/* Per matrix: row_ptr, col, the coefficients (32-byte values, or 4-byte indices into the
 * table of distinct values: a mapped CSR cache, cuzk/r1cs.h "Coefficients"), the density
 * bitmap; then the table. */
uint64_t engine_r1cs_bytes_of(uint64_t rows, uint64_t n_vars, const uint64_t nnz[3],
                              bool values, uint64_t n_table)
{
    uint64_t b = sizeof(cuzk_r1cs) + n_table * sizeof(cuzk_fr);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        b += (rows + 1) * 8 + nnz[m] * (4 + (values ? sizeof(cuzk_fr) : 0) + (n_table ? 4 : 0)) +
             (n_vars + 63) / 64 * 8;
    return b;
}

uint64_t engine_r1cs_bytes(const cuzk_r1cs *r)
{
    const uint64_t nnz[3] = {r->m[0].nnz, r->m[1].nnz, r->m[2].nnz};
    bool values = false;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        values = values || r->m[m].coeff;
    return engine_r1cs_bytes_of(r->n_constraints, r->n_vars, nnz, values,
                                r->coeff_values ? r->n_coeff_values : 0);
}

uint64_t engine_wmap_bytes(uint64_t n_vars) { return (n_vars / 64 + 1) * 12; }

uint64_t engine_compact_witness_bytes(uint64_t n_vars, uint64_t n_bits)
{
    return (n_bits / 64 + 1) * 8 + (n_vars - n_bits) * sizeof(cuzk_fr);
}

uint64_t engine_pk_bytes_of(uint64_t n_ic, uint64_t n_h, uint64_t n_l, uint64_t n_a,
                            uint64_t n_b_g1, uint64_t n_b_g2)
{
    return sizeof(cuzk_groth16_pk) + n_ic * sizeof(cuzk_g1_affine) +
           (n_h + n_l + n_a + n_b_g1) * sizeof(cuzk_g1_affine) + n_b_g2 * sizeof(cuzk_g2_affine);
}

uint64_t engine_pk_bytes(const cuzk_groth16_pk *pk)
{
    return engine_pk_bytes_of(pk->vk.n_ic, pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2);
}
