/*
 * cuzk/circuits.h — circuits built in C. Today: the synthetic PoRep-shaped workload that
 * benchmarks and the GPU tests use, so they never need a real Filecoin circuit. (The
 * Filecoin circuits themselves — PoRep StackedDRG, PoSt, SnapDeals — come here too.)
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

#ifdef __cplusplus
}
#endif

#endif
