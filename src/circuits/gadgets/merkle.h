/*
 * merkle.h — Filecoin's hasher circuits (filecoin-hashers: Sha256Function and
 * PoseidonFunction hash_multi_leaf_circuit) and Merkle inclusion paths (rust-fil-proofs
 * storage-proofs-core gadgets/por.rs, PoRCircuit with leaf and root already allocated
 * and a private root, as StackedCircuit's enforce_inclusion uses it).
 *
 * Shapes: a binary SHA-256 tree (tree D), Poseidon-8 trees (R and C) with an optional
 * sub-tree level of arity 8 (32 GiB: 8-8-0) and top level of arity 2 (64 GiB: 8-8-2).
 * Levels run leaf to root: base levels, then the sub level, then the top level.
 *
 * Threading: as the cuzk_cs.
 */
#ifndef CUZK_CIRCUITS_GADGETS_MERKLE_H
#define CUZK_CIRCUITS_GADGETS_MERKLE_H

#include "circuits/gadgets/num.h"

typedef enum gad_hasher { GAD_HASH_SHA256 = 0, GAD_HASH_POSEIDON = 1 } gad_hasher;

/* hash_multi_leaf_circuit over n leaves.
 * SHA-256: each leaf to_bits_le (255 bits) padded with a constant false to 256, bits
 *   reversed within each byte (the leaf's 32-byte little-endian encoding, MSB first),
 *   sha256 of the concatenation, the digest's bits reversed within each byte, the first
 *   254 packed (pack_bits): the digest read little-endian with its top two bits cleared.
 * Poseidon: poseidon_hash with the arity-n Merkle-tree constants (n = 2, 4, 8 or 11). */
gad_num gad_hash_leaves(cuzk_cs *cs, gad_hasher h, const gad_num *leaves, unsigned n);

typedef struct gad_merkle_shape {
    gad_hasher hasher;
    unsigned base_arity;  /* 2 (SHA-256) or 8 (Poseidon); a power of two */
    unsigned base_levels;
    unsigned sub_arity;   /* 0: no sub-tree level */
    unsigned top_arity;   /* 0: no top level (needs a sub level) */
} gad_merkle_shape;

unsigned gad_merkle_levels(const gad_merkle_shape *s);
unsigned gad_merkle_level_arity(const gad_merkle_shape *s, unsigned level);
/* Index bits over all levels (log2 of each level's arity, summed): the path input's width. */
unsigned gad_merkle_index_bits(const gad_merkle_shape *s);

/* PoRCircuit::synthesize(leaf = Root::Var, root = Root::Var, private = true).
 * Per level: log2(arity) index bits (AllocatedBit, LSB first, from index[level]), arity - 1
 * sibling numbers (allocated, values siblings[...] level by level), insert (insert_2 /
 * insert_8), hash of the arity children. Then pack_into_inputs of every index bit (one
 * input: the leaf's node index) and computed_root * ONE = root.
 * index[level] < arity and siblings (sum of arity - 1 over levels values) are read only
 * by the witness backend. */
void gad_por(cuzk_cs *cs, const gad_merkle_shape *s, const gad_num *leaf, const gad_num *root,
             const unsigned *index, const cuzk_fr *siblings);

/* por_no_challenge_input (storage-proofs-core por.rs, as storage-proofs-update uses it):
 * the index bits (gad_merkle_index_bits(s) of them, LSB first, allocated by the caller)
 * and the siblings (path[], level by level, allocated by the caller) are given; per level
 * insert and hash; then computed_root * ONE = root. No input. */
void gad_por_bits(cuzk_cs *cs, const gad_merkle_shape *s, const gad_bool *bits,
                  const gad_num *leaf, const gad_num *path, const gad_num *root);

#endif
