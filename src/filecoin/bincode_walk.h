/*
 * bincode_walk.h — reading bincode 1 (serde's default options, as filecoin-proofs-api
 * serialises vanilla proofs): fixed-width little-endian integers, u64 sequence lengths, u32
 * enum variants, 32-byte values raw; rust-fil-proofs MerkleProof in its Single / Sub / Top
 * shapes into cuzk/c1.h's flattened form. Errors go through the jw_ctx of json_walk.h
 * ("<what> <path>: (bincode) at byte N: ..."). Internal to the filecoin layer.
 *
 * Threading: a bw_reader belongs to one parse.
 */
#ifndef CUZK_FILECOIN_BINCODE_WALK_H
#define CUZK_FILECOIN_BINCODE_WALK_H

#include "filecoin/json_walk.h"

typedef struct bw_reader {
    jw_ctx *j;
    const uint8_t *p;
    size_t n, off;
} bw_reader;

cuzk_status bw_fail(bw_reader *r, cuzk_status code, const char *what);
cuzk_status bw_u64(bw_reader *r, uint64_t *v);
cuzk_status bw_u32(bw_reader *r, uint32_t *v);
/* 32 bytes that must be a canonical Fr (little-endian) */
cuzk_status bw_fr(bw_reader *r, uint8_t out[32]);
/* a u64 length that must equal want */
cuzk_status bw_len(bw_reader *r, uint64_t want, const char *what);
/* MerkleProof of shape s; siblings in the jw arena */
cuzk_status bw_merkle(bw_reader *r, const jw_tree_shape *s, cuzk_c1_merkle_proof *m);

#endif
