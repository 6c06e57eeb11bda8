/*
 * poseidon.h — Poseidon over BLS12-381 Fr as neptune defines it (the hash Filecoin's
 * Poseidon trees, columns and comm_r use): parameters derived as neptune derives them,
 * the textbook permutation, neptune's optimized ("static") schedule, and the circuit.
 *
 * Parameters (neptune PoseidonConstants::new(), Strength::Standard, HashType::MerkleTree):
 *   width t = arity + 1; state[0] = domain tag 2^arity - 1, state[1..] = the preimage;
 *   RF = 8 full rounds, RP partial rounds from neptune's round_numbers (55 for t = 3, 56 for
 *   t = 4..7, 57 for t = 8..15); x^5 S-box;
 *   MDS: Cauchy matrix M[i][j] = 1 / (i + (t + j));
 *   round constants: Grain LFSR seeded with field = 1 (2 bits), sbox = 1 (4), field size
 *   255 (12), t (12), RF (10), RP (10), thirty ones; 160 warm-up clocks; bits in
 *   self-shrinking pairs; 255-bit big-endian candidates, those >= r rejected;
 *   the optimized schedule's compressed constants (8t + RP), pre-sparse matrix and RP
 *   sparse matrices (w_hat column, v_rest row), derived as neptune's preprocessing.rs and
 *   mds.rs do from the textbook ones.
 * The digest is state[1] after the permutation.
 *
 * Threading: pos_params_get derives each arity's tables once (pthread_once); they are
 * read-only afterwards and shared by every thread.
 */
#ifndef CUZK_CIRCUITS_POSEIDON_H
#define CUZK_CIRCUITS_POSEIDON_H

#include <stdbool.h>

#include "circuits/cs.h"
#include "cuzk/ff.h"

#define POS_MAX_T 12u  /* arity 11 */
#define POS_MAX_RP 57u
#define POS_RF 8u

typedef struct pos_params {
    unsigned arity, t, rf, rp;
    cuzk_fr tag;
    cuzk_fr rc[(POS_RF + POS_MAX_RP) * POS_MAX_T]; /* textbook: rc[r * t + i] */
    cuzk_fr mds[POS_MAX_T * POS_MAX_T];             /* M[i * t + j] */
    cuzk_fr mds_inv[POS_MAX_T * POS_MAX_T];
    cuzk_fr crc[POS_RF * POS_MAX_T + POS_MAX_RP];   /* compressed, 8t + RP */
    cuzk_fr pre_sparse[POS_MAX_T * POS_MAX_T];
    cuzk_fr w_hat[POS_MAX_RP][POS_MAX_T];           /* sparse round k: column 0 (t) */
    cuzk_fr v_rest[POS_MAX_RP][POS_MAX_T];          /* sparse round k: row 0 after [0] (t-1) */
} pos_params;

/* The parameters of an arity (2, 4, 8 or 11); NULL for another, or if deriving failed
 * (a singular matrix: impossible for these Cauchy matrices). */
const pos_params *pos_params_get(unsigned arity);

/* neptune's calc_round_numbers(t, security_margin = true): (RF, RP). */
void pos_round_numbers(unsigned t, unsigned *rf, unsigned *rp);
/* Grain LFSR round constants: n values for (t, RF, RP). */
void pos_grain_constants(cuzk_fr *out, unsigned n, unsigned t, unsigned rf, unsigned rp);

/* The permutation's digest for in[0..arity): textbook rounds / neptune's static schedule
 * (the schedule the circuit's witness follows). Equal for every input. */
void pos_hash_textbook(cuzk_fr *out, const pos_params *p, const cuzk_fr *in);
void pos_hash_optimized(cuzk_fr *out, const pos_params *p, const cuzk_fr *in);

/* neptune circuit::poseidon_hash (the "legacy" circuit Filecoin uses) over arity
 * allocated inputs: 3 rows per input in the first round, 4 per element in the other
 * full rounds and for element 0 in the partial rounds, 1 for the output
 * (3 arity + 28 t + 4 RP + 1 rows and as many aux; l^4 values only in B). */
gad_num gad_poseidon_hash(cuzk_cs *cs, const pos_params *p, const gad_num *in);

#endif
