/*
 * merkle_fixture.h — what the PoSt and SnapDeals vanilla-proof fixtures (post_fixture.h,
 * snap_fixture.h) share:
 *   trees (merkle_fixture.c): a registered proof's tree shape (Poseidon with base / sub /
 *     top arities, or binary SHA-256 pairs trimmed to 254 bits as tree D hashes them), built
 *     full (every leaf given) or sparse (only some leaves given, every other node of a level
 *     that level's default: a random leaf hashed up, so a 32 GiB sector costs only its
 *     levels), their paths in cuzk/c1.h's flattened MerkleProof form, and
 *     comm_r = Poseidon-2(comm_c, root_r);
 *   serde (merkle_serde.c): a MerkleProof as rust-fil-proofs' serde derive writes it in
 *     serde_json and in bincode 1 (u64 lengths, u32 enum variants, little-endian), and the
 *     base64 strings that carry bincode bytes inside a JSON job document.
 * Single-threaded (tests only); random values from test_rng; SHA-256 from OpenSSL.
 */
#ifndef CUZK_TEST_MERKLE_FIXTURE_H
#define CUZK_TEST_MERKLE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cuzk/c1.h"

#define MF_MAXL CUZK_C1_MAX_LEVELS

/* ---- trees ---------------------------------------------------------------------------- */

typedef struct mf_shape {
    uint32_t levels, arity[MF_MAXL];
    int sha;                                    /* binary SHA-256 pairs, else Poseidon */
    uint32_t base_levels, sub_arity, top_arity; /* the MerkleProof variant */
} mf_shape;

/* base_levels of base_arity, then a sub level (sub_arity != 0), then a top level
 * (top_arity != 0); Poseidon. */
mf_shape mf_shape_poseidon(uint32_t base_levels, uint32_t base_arity, uint32_t sub_arity,
                           uint32_t top_arity);
/* levels binary SHA-256 levels (a Single proof). */
mf_shape mf_shape_sha256(uint32_t levels);

/* A level holds its nodes in order of index: all of them (idx NULL: node i at i), or only
 * some (idx[i] the index of v[i]; any other node is dflt). */
typedef struct mf_level {
    uint64_t *idx;
    uint8_t (*v)[32];
    size_t len;
    uint8_t dflt[32];
} mf_level;

typedef struct mf_tree {
    mf_shape s;
    mf_level lv[MF_MAXL + 1];
} mf_tree;

/* Full tree over n leaves (n = the product of the arities); takes ownership of leaves
 * (malloc'd), also on failure. 0, or -1. */
int mf_tree_full(mf_tree *t, const mf_shape *s, uint8_t (*leaves)[32], size_t n);
/* Sparse tree: the n leaves at the indices given (repeats allowed: one value) random, the
 * rest the default leaf (random). 0, or -1. */
int mf_tree_sparse(mf_tree *t, const mf_shape *s, const uint64_t *leaves, size_t n);
const uint8_t *mf_tree_node(const mf_tree *t, uint32_t level, uint64_t idx);
const uint8_t *mf_tree_root(const mf_tree *t);
/* The path of leaf node; m->siblings malloc'd (the caller frees). 0, or -1. */
int mf_tree_proof(const mf_tree *t, uint64_t node, cuzk_c1_merkle_proof *m);
void mf_tree_free(mf_tree *t);

/* A random canonical field element, little-endian. */
void mf_rand_value(uint8_t out[32]);
/* Poseidon-2(comm_c, root) */
void mf_comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32]);

/* ---- serde ---------------------------------------------------------------------------- */

/* A 32-byte value as serde_json writes it: an array of 32 integers. */
json_t *mf_bytes32_json(const uint8_t b[32]);
/* MerkleProof {data: {Single|Sub|Top: ...}} of shape s. */
json_t *mf_merkle_json(const mf_shape *s, const cuzk_c1_merkle_proof *m);

typedef struct mf_buf {
    uint8_t *p;
    size_t n, cap;
} mf_buf;

void mf_put(mf_buf *b, const void *x, size_t n);
void mf_put_uint(mf_buf *b, uint64_t v, int bytes); /* little-endian, bytes <= 8 */
void mf_put_merkle(mf_buf *b, const mf_shape *s, const cuzk_c1_merkle_proof *m);
/* The JSON string of b's bytes in base64, with zeros zero bytes appended first (a
 * malformed input); frees b's bytes. */
json_t *mf_buf_b64_json(mf_buf *b, int zeros);

#endif
