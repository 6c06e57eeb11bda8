/*
 * sizes.h — what keys, circuits and witnesses occupy in host memory: the one rule for the
 * budget's charges (srs_key.bytes, esynth.bytes) and for the plans made before anything
 * is loaded (cuzk/plan.h), so a plan and a run count the same bytes. Internal to
 * src/engine.
 * Threading: pure functions.
 */
#ifndef CUZK_ENGINE_SIZES_H
#define CUZK_ENGINE_SIZES_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

uint64_t engine_pk_bytes(const cuzk_groth16_pk *pk);
uint64_t engine_pk_bytes_of(uint64_t n_ic, uint64_t n_h, uint64_t n_l, uint64_t n_a,
                            uint64_t n_b_g1, uint64_t n_b_g2);
uint64_t engine_r1cs_bytes(const cuzk_r1cs *r);
/* values: 32-byte coefficients per term (a recorded circuit); n_table: the table of
 * distinct coefficients with a 4-byte index per term (a mapped CSR cache), else 0 */
uint64_t engine_r1cs_bytes_of(uint64_t rows, uint64_t n_vars, const uint64_t nnz[3],
                              bool values, uint64_t n_table);
uint64_t engine_wmap_bytes(uint64_t n_vars); /* a compact-witness map: is_bit + rank */
/* A compact witness: the bits' bitmap and the other variables' dense values. */
uint64_t engine_compact_witness_bytes(uint64_t n_vars, uint64_t n_bits);

#endif
