/*
 * cuzk/snap_circuit.h — the circuit of Filecoin's SnapDeals (EmptySectorUpdate) proof: the
 * shapes each sector size fixes (rust-fil-proofs storage-proofs-update constants.rs), the
 * partition proofs a partition takes, the circuit with bellperson's layout (circuit.rs
 * EmptySectorUpdateCircuit, and the single-partition "poseidon" variant of
 * poseidon/circuit.rs) on the backends of cuzk/circuits.h, and the native phi / rho /
 * challenges / public inputs it shares with the verifier (vanilla.rs, challenges.rs,
 * compound.rs; Poseidon only). Circuits layer; the prover-side check and the job documents
 * are cuzk/snap.h (filecoin layer).
 *
 * Shapes (sector of `nodes` = size / 32 leaves, challenge_bits = log2 nodes)
 *   partitions:  1 (<= 8 KiB), 2 (<= 32 KiB), 4 (<= 16 MiB), 16 (512 MiB, 32/64 GiB);
 *   challenges per partition: 10 (<= 16 MiB), 86 (larger); apex leaves per partition:
 *   8 (<= 8 KiB), 128 (larger); hs = [1 x 6] (<= 32 KiB) or [7..12], default h = hs[3].
 *   Tree R (old and new) Poseidon 8-s-t: 1K 8-4-0, 2K 8-0-0, 4K 8-2-0, 8K 8-4-0, 16K 8-8-0,
 *   32K 8-8-2, 8M 8-0-0, 16M 8-2-0, 512M 8-0-0, 32G 8-8-0, 64G 8-8-2. Tree D binary SHA-256
 *   (the poseidon variant: tree D has tree R's shape and hash). Registered sizes are
 *   2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB; the others are rust-fil-proofs' test sizes.
 *   The poseidon variant is one partition of partitions * challenges challenges, no apex.
 *
 * Public inputs (both variants, in order): [k | h_select << partition_bits (poseidon:
 *   h_select), comm_r_old, comm_d_new, comm_r_new], h_select = 2^i for h = hs[i].
 *
 * Circuit (main variant, in order): k_and_h_select alloc + inputize, its partition_bits + 6
 *   bits and (sum 2^i b_i) * ONE = it; partition = pack_bits(k bits); comm_r_old,
 *   comm_d_new, comm_r_new alloc + inputize; phi = Poseidon_gen(comm_d_new, comm_r_old);
 *   comm_c, root_r_old, root_r_new, apex leaves, partition-path siblings alloc;
 *   Poseidon-2(comm_c, root_r_old) * ONE = comm_r_old, same for new; the apex tree (SHA-256
 *   pairs) and its root's path to comm_d_new; the challenge bits: per digest j digest_index
 *   = k * digests + j, Poseidon_gen(comm_r_new, digest_index), its 255 bits; per challenge:
 *   c_high selected by h_select (6 pack_bits and products), rho = Poseidon_gen(phi,
 *   c_high), leaf_r_old, leaf_d_new, label_r_new = leaf_r_old + leaf_d_new * rho, the tree
 *   R-old and R-new paths (siblings allocated, then insert + hash per level), the apex leaf
 *   selected by the challenge's apex bits, the tree D path from leaf_d_new to that apex leaf.
 *   Poseidon_gen is neptune Poseidon-2 with domain tag 2^40 (HashType::Custom(Arbitrary(1))).
 *
 * Challenges (challenges.rs): challenge i of partition k has rand_bits = challenge_bits -
 *   partition_bits random low bits and k as its high bits; per_digest = 254 / rand_bits
 *   challenges are read from each digest Poseidon_gen(comm_r_new, k * digests + j), bit
 *   i * rand_bits onward (LSB first), digests = ceil(challenges / per_digest).
 *   rho = Poseidon_gen(phi, c >> (challenge_bits - h)); new label = old + data * rho.
 *
 * Values: 32-byte values are little-endian Fr reprs (as cuzk/c1_types.h); Merkle proofs
 *   use cuzk/c1_types.h's flattened form.
 *
 * Threading: pure functions on caller data; a partition is immutable and shareable.
 */
#ifndef CUZK_SNAP_CIRCUIT_H
#define CUZK_SNAP_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/c1_types.h"
#include "cuzk/circuits.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_snap_variant {
    CUZK_SNAP_MAIN = 0,     /* EmptySectorUpdateCircuit: partitions, tree D SHA-256 */
    CUZK_SNAP_POSEIDON = 1, /* EmptySectorUpdate-Poseidon: one partition, tree D Poseidon */
} cuzk_snap_variant;

#define CUZK_SNAP_HS 6u

typedef struct cuzk_snap_info {
    const char *name;            /* "StackedDrg2KiBV1" (test sizes: "StackedDrg1KiBTest") */
    cuzk_snap_variant variant;
    uint64_t sector_size, nodes;
    uint32_t challenge_bits;     /* log2 nodes */
    uint32_t partitions, partition_bits; /* poseidon: 1, 0 */
    uint32_t challenges;         /* per partition proof */
    uint32_t apex_leaves, apex_bits;     /* poseidon: 0, 0 */
    uint32_t hs[CUZK_SNAP_HS];
    uint32_t h;                  /* the default: hs[3] */
    uint32_t base_arity, base_levels, sub_arity, top_arity; /* tree R */
} cuzk_snap_info;

/* The shape of a sector size (the 11 sizes above). Errors: INVALID_ARG, UNSUPPORTED. */
cuzk_status cuzk_snap_info_get(uint64_t sector_size, cuzk_snap_variant variant,
                               cuzk_snap_info *out, cuzk_error *err);
/* Registered update proof by rust name (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1) or Go's
 * abi.RegisteredUpdateProof number (0..4 in that order). Main variant. */
cuzk_status cuzk_snap_info_from_name(const char *name, cuzk_snap_info *out, cuzk_error *err);
cuzk_status cuzk_snap_info_from_abi(uint64_t abi, cuzk_snap_info *out, cuzk_error *err);

/* Levels of a tree R path; of a tree D path (main: challenge_bits, poseidon: tree R's). */
uint32_t cuzk_snap_info_r_levels(const cuzk_snap_info *info);
uint32_t cuzk_snap_info_d_levels(const cuzk_snap_info *info);
/* h_select for h (2^i with hs[i] = h, the first such i); 0 if h is not allowed. */
uint64_t cuzk_snap_h_select(const cuzk_snap_info *info, uint32_t h);

/* ---------------------------------------------------------------------------------------
 * Vanilla proofs: one PartitionProof per partition
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_snap_challenge_proof {
    cuzk_c1_merkle_proof r_old; /* tree R-old: leaf = old replica node */
    cuzk_c1_merkle_proof d_new; /* tree D-new: leaf = new data node */
    cuzk_c1_merkle_proof r_new; /* tree R-new: leaf = new replica node */
} cuzk_snap_challenge_proof;

typedef struct cuzk_snap_partition_proof {
    uint8_t comm_c[32];
    uint32_t n_apex;                 /* info.apex_leaves */
    uint8_t (*apex_leaves)[32];
    uint32_t n_challenges;           /* info.challenges */
    cuzk_snap_challenge_proof *challenges;
} cuzk_snap_partition_proof;

/* One partition's circuit: its info, index k, h, the public commitments and (for the
 * witness) its partition proof. This is the circuit's ctx; proof == NULL makes the blank
 * circuit (record and count backends only). */
typedef struct cuzk_snap_partition {
    cuzk_snap_info info;
    uint32_t k;
    uint32_t h;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    const cuzk_snap_partition_proof *proof;
} cuzk_snap_partition;

/* The shape of p: k < partitions, h allowed, counts, every path's levels and arities, the
 * commitments canonical, each path's index digits in range. Error INVALID_ARG (NULL, k, h)
 * or FORMAT naming the challenge and tree. */
cuzk_status cuzk_snap_partition_check_shape(const cuzk_snap_partition *p, cuzk_error *err);

/* The circuit (ctx: const cuzk_snap_partition *); the variant is p->info.variant. The
 * witness backend needs p->proof and checks the shape first; the relations themselves are
 * only constraints (a bad proof gives an unsatisfied witness). */
cuzk_status cuzk_snap_circuit(cuzk_cs *cs, const void *ctx, cuzk_error *err);

/* The constraint system of p's circuit (no proof needed: a blank partition records), its
 * challenges recorded in parallel on the pool (NULL: the calling thread), each numbered
 * from challenge 0's counts after the common part: what cuzk_circuit_record on
 * cuzk_snap_circuit records, row for row and bit for bit. Results as cuzk_circuit_record's.
 * Errors: those of the circuit, NOMEM, INTERNAL, the pool's. */
cuzk_status cuzk_snap_record(const cuzk_snap_partition *p, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err);

/* Counts of one partition's circuit for a sector size (any of the 11) on the counting
 * backend. n_constraints excludes the input rows (cuzk_circuit_counts_rows_with_inputs
 * adds them): 2 KiB main = 1,705,039, as rust-fil-proofs' TestConstraintSystem counts. */
cuzk_status cuzk_snap_circuit_counts(uint64_t sector_size, cuzk_snap_variant variant,
                                     cuzk_circuit_counts *out, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Native derivations (Poseidon only; no OpenSSL needed)
 * ------------------------------------------------------------------------------------- */

/* phi = Poseidon_gen(comm_d_new, comm_r_old); rho = Poseidon_gen(phi, high). Errors:
 * INVALID_ARG (NULL), NONCANONICAL. */
cuzk_status cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32],
                          const uint8_t comm_r_old[32], cuzk_error *err);
void cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint64_t high);

/* The info.challenges challenged nodes of partition k (poseidon: k = 0), in order. */
cuzk_status cuzk_snap_challenges(const cuzk_snap_info *info, const uint8_t comm_r_new[32],
                                 uint32_t k, uint64_t *out, cuzk_error *err);

/* The 4 public inputs of p (Montgomery Fr), from k, h and the commitments only. */
cuzk_status cuzk_snap_public_inputs(const cuzk_snap_partition *p, cuzk_fr out[4],
                                    cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_SNAP_CIRCUIT_H */
