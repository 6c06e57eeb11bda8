/*
 * snap_internal.h — the SnapDeals pieces shared by the circuit and the native derivations
 * (internal to the circuits layer): the "gen randomness" Poseidon constants and the
 * storage-proofs-update gadgets (gadgets.rs, insertion.rs select) with their exact layout.
 *
 * Threading: snap_pos_gen derives its table once (pthread_once), read-only afterwards;
 * gadgets run as the cuzk_cs.
 */
#ifndef CUZK_CIRCUITS_SNAP_INTERNAL_H
#define CUZK_CIRCUITS_SNAP_INTERNAL_H

#include "circuits/gadgets/merkle.h"
#include "circuits/poseidon.h"
#include "cuzk/snap_circuit.h"

/* neptune Poseidon arity 2 with HashType::Custom(CType::Arbitrary(1)): the Merkle-tree
 * constants (they depend on the width only) with domain tag 1 * 2^40. NULL if the base
 * constants failed. */
const pos_params *snap_pos_gen(void);

/* allocated_num_to_allocated_bits: 255 AllocatedBits of the canonical value, LSB first,
 * then (sum 2^i b_i) * ONE = num (unlike to_bits_le's 0 * 0 row). */
void snap_num_to_bits(cuzk_cs *cs, const gad_num *num, gad_bool out[GAD_FR_NUM_BITS]);

/* gen_challenge_bits: out[i * bits_per + b], challenges * bits_per bits (caller array). */
void snap_gen_challenge_bits(cuzk_cs *cs, const gad_num *comm_r_new, const gad_num *partition,
                             uint32_t challenges, uint32_t bits_per, gad_bool *out);

/* get_challenge_high_bits over c_bits[0..n) (LSB first) and 6 h_select bits. */
gad_num snap_challenge_high(cuzk_cs *cs, const gad_bool *c_bits, uint32_t n,
                            const gad_bool *h_select_bits, const uint32_t *hs);

/* label_r_new: p = data * rho (alloc, row); alloc l; (old + p) * ONE = l. */
gad_num snap_label_r_new(cuzk_cs *cs, const gad_num *old, const gad_num *data,
                         const gad_num *rho);

/* insertion::select: from[2^nbits] by bits (LSB first), picks from the top bit down. */
gad_num snap_select(cuzk_cs *cs, const gad_num *from, const gad_bool *bits, uint32_t nbits);

/* apex_por: the apex tree over n = 2^apex_bits leaves (SHA-256 pairs, row by row), then the
 * root's binary path of pbits levels (partition bits, siblings path[]) to comm_d. */
void snap_apex_por(cuzk_cs *cs, const gad_num *leaves, uint32_t apex_bits,
                   const gad_bool *partition_bits, uint32_t pbits, const gad_num *path,
                   const gad_num *comm_d);

#endif
