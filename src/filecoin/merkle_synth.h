/*
 * merkle_synth.h — Merkle trees of Filecoin's shapes for generated test data (c1_synth.c,
 * post_synth.c, snap_synth.c), built without ever holding a sector's whole tree. Two kinds:
 *
 *   sparse  only the paths of the touched leaves are hashed; every other node takes the
 *           pseudo-random value ms_prf(seed, what, level, position). Any value is
 *           consistent, since no path ever opens an untouched node (its children are never
 *           shown), so a 32 GiB path costs its 10 levels and its siblings look random.
 *   cells   the leaves come in aligned cells of 2^cell_bits equal leaves (cell_bits 0: a
 *           full tree of arbitrary leaves). A node inside one cell has one value per
 *           (level, cell); every node above the cells is hashed from its children. So the
 *           tree is complete (every node the hash of its children, every leaf defined) at
 *           the cost of about cells * levels hashes: for data whose every leaf must be
 *           fixed before anything is known about which leaves will be opened (SnapDeals:
 *           the challenges are derived from the root of the very tree they open).
 *
 * Hashes as Filecoin's trees: Poseidon of the arity's width (neptune, cuzk/circuits.h) on
 * canonical values, or binary SHA-256 of the two children with the top two bits of the
 * digest cleared (tree D). Paths come out in cuzk/c1.h's flattened MerkleProof form.
 * Internal to the filecoin layer. SHA-256 is OpenSSL's: without CUZK_HAVE_OPENSSL a SHA-256
 * tree fails to build.
 *
 * Threading: a tree is built by one call (a cells tree may use a pool), then read-only (any
 * number of readers).
 */
#ifndef CUZK_FILECOIN_MERKLE_SYNTH_H
#define CUZK_FILECOIN_MERKLE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/c1.h"
#include "cuzk/pool.h"

typedef uint8_t ms_dom[32];

/* levels, bottom up, each of its arity (2, 4 or 8; leaves = their product, <= 2^62) */
typedef struct ms_shape {
    uint32_t levels;
    uint8_t arity[CUZK_C1_MAX_LEVELS];
    bool sha; /* binary SHA-256 (tree D), else Poseidon */
} ms_shape;

/* base_levels of base_arity, then a sub level (sub_arity != 0), then a top level
 * (top_arity != 0); Poseidon. */
ms_shape ms_shape_poseidon(uint32_t base_levels, uint32_t base_arity, uint32_t sub_arity,
                           uint32_t top_arity);
/* levels binary SHA-256 levels */
ms_shape ms_shape_sha256(uint32_t levels);
uint64_t ms_shape_leaves(const ms_shape *s);
size_t ms_shape_siblings(const ms_shape *s); /* per path: sum of (arity - 1) */

/* splitmix64's finalizer: the generators' only source of randomness */
uint64_t ms_mix(uint64_t x);
/* A pseudo-random value of (seed, what, level, pos), below 2^254 (a canonical Fr repr). */
void ms_prf(ms_dom out, uint64_t seed, uint64_t what, uint64_t level, uint64_t pos);
/* The parent of arity children as the tree hashes them; false if a Poseidon input is not
 * canonical or SHA-256 is unavailable. */
bool ms_hash(ms_dom out, const ms_dom *children, unsigned arity, bool sha);
/* Poseidon-2(comm_c, root): comm_r */
bool ms_comm_r(ms_dom out, const ms_dom comm_c, const ms_dom root);

typedef struct ms_node {
    uint64_t pos;
    ms_dom v;
} ms_node;

typedef struct ms_tree {
    ms_shape s;
    uint64_t seed, what; /* sparse: untouched nodes are ms_prf(seed, what, level, pos) */
    bool cells;
    uint32_t cell_bits;
    uint8_t bits[CUZK_C1_MAX_LEVELS + 1]; /* log2 of a level-l node's leaves */
    /* sparse: the hashed nodes of each level, sorted by pos; cells: the levels above the
     * cells, dense (node i at i) */
    ms_node *lv[CUZK_C1_MAX_LEVELS + 1];
    size_t len[CUZK_C1_MAX_LEVELS + 1];
    ms_dom *uni[CUZK_C1_MAX_LEVELS + 1]; /* cells: uni[l][cell], levels inside one cell */
} ms_tree;

/* A sparse tree over the n touched leaves (any order; a position given twice must have
 * one value), copied. false on failure (memory, a hash): the tree is freed. */
bool ms_tree_sparse(ms_tree *t, const ms_shape *s, uint64_t seed, uint64_t what,
                    const ms_node *leaves, size_t n);
/* A complete tree whose leaves are cell_leaf[c] over cell c = [c << cell_bits,
 * (c + 1) << cell_bits); (leaves >> cell_bits) cells, cell_bits <= the tree's bits. Each
 * level's hashes are spread over the pool (NULL: the calling thread). false on failure:
 * the tree is freed. */
bool ms_tree_cells(ms_tree *t, const ms_shape *s, uint32_t cell_bits, const ms_dom *cell_leaf,
                   cuzk_pool *pool);
void ms_tree_free(ms_tree *t); /* zeroed after */

void ms_tree_node(const ms_tree *t, uint32_t level, uint64_t pos, ms_dom out);
const uint8_t *ms_tree_root(const ms_tree *t);
/* The path of leaf into m, its ms_shape_siblings siblings written to siblings (which m
 * then points at). For a sparse tree, leaf must be a touched one. */
void ms_tree_path(const ms_tree *t, uint64_t leaf, cuzk_c1_merkle_proof *m, ms_dom *siblings);

#endif
