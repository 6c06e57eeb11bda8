/*
 * cuzk/circuits.h — circuits built in C: the constraint-system backends every circuit runs
 * on, native hashes the circuits mirror, and the synthetic PoRep-shaped workload that
 * benchmarks and the GPU tests use. (The Filecoin circuits — PoRep StackedDRG, PoSt,
 * SnapDeals — come here too.)
 *
 * Circuits and backends
 *   A circuit is one C function (cuzk_circuit_fn) that makes bellperson's calls — alloc,
 *   alloc_input, enforce — through a cuzk_cs, whose internals and gadgets (boolean, uint32,
 *   multieq, sha256, multipack, num, poseidon, merkle paths) live in src/circuits/. The same
 *   function runs on three backends:
 *     record    builds the R1CS (CSR, the pre-compiled constraint evaluator) and the
 *               witness map (which aux variables are always bits);
 *     witness   computes only the assignment: no linear combination is built, values go
 *               straight into a dense array, or bits into the packed bitmap of a compact
 *               witness (cuzk/r1cs.h) and the rest into its dense array;
 *     count     counts rows, variables, non-zeros per matrix, density and bits, storing
 *               nothing per row (the only way to size a 32 GiB partition on a small host).
 *   Variables are numbered as bellperson numbers them: ONE is input 0, then the inputs in
 *   alloc_input order, then the aux variables in alloc order (the r1cs layer's order). The
 *   rows input_i * 0 = 0 that bellperson's prover appends are not part of the circuit (the
 *   groth16 layer adds them); cuzk_circuit_counts_rows_with_inputs adds them to a count.
 *   A circuit function must make the same calls whatever the witness values are (they
 *   are only computed by the witness backend).
 *
 * Threading: a cuzk_cs belongs to the one thread running the circuit; the runners below
 *   may run concurrently on different circuits. Poseidon constants are derived once per
 *   arity on first use (pthread_once) into static tables and are read-only afterwards.
 *
 * The synthetic circuit mimics the statistics of one Filecoin PoRep 32 GiB partition
 * (cuzk.md §5) at any size: about 97% of the 2^k domain filled with rows, about one new
 * aux variable per row, 98.7% of aux values equal to 0 or 1, almost every aux variable in
 * A (>99.8%), about a quarter of them in B, one public input. It is built from blocks of
 * 1000 rows shaped like the SHA-256 / Poseidon gadgets' bit logic:
 *   25%   boolean allocations     (1 - b) * b = 0
 *   ~74%  XOR / AND of two bits   (2x) * y = x + y - c   /   x * y = c
 *   1.3%  dense accumulations     (x + 2y + k) * 1 = d   (k one of 256 random constants)
 * and a last row binding the public input to the last dense value. The witness satisfies
 * it. Rows are generated directly in CSR form, block by block in parallel, so a 2^27
 * circuit takes seconds on 16 cores, not the row-by-row builder's minutes.
 * Term counts per row (A/B/C about 1.3/1/1.5) are below PoRep's (2.4/1/2.2); SpMV time
 * scales accordingly.
 *
 * Threading: generation runs on the given pool; the result is immutable.
 */
#ifndef CUZK_CIRCUITS_H
#define CUZK_CIRCUITS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_synthetic {
    cuzk_r1cs *r1cs;
    cuzk_fr *witness;      /* n_vars values (ONE, the public input, aux), malloc'd */
    uint64_t bits;         /* aux values that are 0 or 1 */
    /* The same witness in compact form (cuzk/r1cs.h): every variable a boolean or logic
     * row defines is marked as a bit in map; bit_values and dense hold the witness. */
    cuzk_witness_map map;
    uint64_t *bit_values;  /* ceil(map.n_bits / 64) words */
    cuzk_fr *dense;        /* n_vars - map.n_bits values */
} cuzk_synthetic;

/* The compact view of s's witness. */
cuzk_witness cuzk_synthetic_compact(const cuzk_synthetic *s);

/* Builds the circuit for a 2^log2n domain (2 <= log2n <= 28) and its witness; the same
 * seed gives the same circuit and witness. Errors: CUZK_ERR_UNSUPPORTED (size), NOMEM. */
cuzk_status cuzk_synthetic_porep(cuzk_synthetic *out, unsigned log2n, uint64_t seed,
                                 cuzk_pool *pool, cuzk_error *err);
void cuzk_synthetic_free(cuzk_synthetic *s); /* NULL or zeroed is a no-op */


/* ---------------------------------------------------------------------------------------
 * Constraint-system backends
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_cs cuzk_cs;

/* Synthesizes one circuit on cs. ctx is the circuit's data (witness values, sizes). A
 * failure found by the circuit (bad data) is returned with err filled; a failure of the
 * backend (out of memory, too many variables) is reported by the runner. */
typedef cuzk_status (*cuzk_circuit_fn)(cuzk_cs *cs, const void *ctx, cuzk_error *err);

typedef struct cuzk_circuit_counts {
    uint64_t n_constraints;                 /* circuit rows, without the input rows */
    uint64_t n_public;                      /* alloc_input calls (ONE excluded) */
    uint64_t n_aux;
    uint64_t nnz[CUZK_R1CS_MATRICES];       /* non-zero terms after merging, per matrix */
    uint64_t a_aux_density;                 /* aux variables with a term in A */
    uint64_t b_input_density;               /* inputs (ONE included) with a term in B */
    uint64_t b_aux_density;                 /* aux variables with a term in B */
    uint64_t n_bits;                        /* aux variables the circuit marks as bits */
    /* distinct coefficients, ONE included: the table of cuzk_r1cs_coeff_table (the CSR
     * cache and the GPU keep the coefficients as 4-byte indices into it) */
    uint64_t n_coeff_values;
} cuzk_circuit_counts;

/* Rows of the full constraint system bellperson proves: the circuit's rows plus one
 * input_i * 0 = 0 row per input, ONE included. */
static inline uint64_t cuzk_circuit_counts_rows_with_inputs(const cuzk_circuit_counts *c)
{
    return c->n_constraints + 1 + c->n_public;
}

/* Records the circuit: *r1cs (release with cuzk_r1cs_destroy) and, if map is non-NULL,
 * the witness map (release with cuzk_witness_map_free). Errors: the circuit's, NOMEM,
 * UNSUPPORTED (2^32 variables or more). */
cuzk_status cuzk_circuit_record(cuzk_circuit_fn fn, const void *ctx, cuzk_r1cs **r1cs,
                                cuzk_witness_map *map, cuzk_error *err);

/* Counts the circuit without storing it. */
cuzk_status cuzk_circuit_count(cuzk_circuit_fn fn, const void *ctx, cuzk_circuit_counts *out,
                               cuzk_error *err);

/* The assignment of every variable (ONE, inputs, aux), *n_vars values, malloc'd. */
cuzk_status cuzk_circuit_witness_dense(cuzk_circuit_fn fn, const void *ctx, cuzk_fr **values,
                                       uint32_t *n_vars, cuzk_error *err);

/* The assignment in compact form: bits[] holds the values of the variables the circuit
 * marks as bits (in variable order, ceil(n_bits/64) words), dense[] the n_vars - n_bits
 * others (dense[0] = ONE, then the inputs, then the unmarked aux). With the recorder's
 * map, cuzk_witness_compact(map, bits, dense) views it. */
typedef struct cuzk_compact_assignment {
    uint32_t n_vars;
    uint32_t n_bits;
    uint64_t *bits;
    cuzk_fr *dense;
} cuzk_compact_assignment;

cuzk_status cuzk_circuit_witness_compact(cuzk_circuit_fn fn, const void *ctx,
                                         cuzk_compact_assignment *out, cuzk_error *err);
void cuzk_compact_assignment_free(cuzk_compact_assignment *a); /* NULL or zeroed: no-op */

/* ---------------------------------------------------------------------------------------
 * Poseidon as Filecoin uses it (neptune, BLS12-381 Fr, x^5, Standard strength, Merkle-tree
 * domain tag 2^arity - 1): the hash of the Poseidon-8/2 trees R and C, of columns
 * (arity 11 or 2) and of comm_r = H(comm_c, comm_r_last).
 * ------------------------------------------------------------------------------------- */

/* true for the arities implemented: 2, 4, 8 and 11. */
bool cuzk_poseidon_arity_supported(unsigned arity);

/* out = Poseidon_arity(in[0..arity)). Errors: INVALID_ARG (NULL, arity unsupported). */
cuzk_status cuzk_poseidon_hash(cuzk_fr *out, const cuzk_fr *in, unsigned arity,
                               cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif
