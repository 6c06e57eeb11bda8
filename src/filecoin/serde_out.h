/*
 * serde_out.h — writing rust-fil-proofs' types as their serde derives write them, streamed
 * to stdio (no JSON library): the generic pieces of the Filecoin document writers (C1
 * output, PoSt and SnapDeals job documents), the inverse of json_walk.h / bincode_walk.h.
 *   serde_json  a 32-byte value as an array of 32 integers; MerkleProof {"data": {Single
 *               {root, leaf, path} | Sub {base_proof, sub_proof, root, leaf} | Top
 *               {base_proof, sub_proof, top_proof, root, leaf}}}, an InclusionPath as
 *               {"path": [{"hashes": [...], "index": i}]}; compact, fields in declaration
 *               order;
 *   bincode 1   fixed-width little-endian integers, u64 lengths, u32 enum variants, 32-byte
 *               values raw; here always inside a JSON string as standard base64 with
 *               padding (Go's encoding/json form of []byte), encoded as it is written.
 * Write errors are left in the FILE (the caller checks ferror once). Internal to the
 * filecoin layer.
 *
 * Threading: a writer and its FILE belong to one thread.
 */
#ifndef CUZK_FILECOIN_SERDE_OUT_H
#define CUZK_FILECOIN_SERDE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/c1.h"
#include "cuzk/status.h"

/* Which MerkleProof variant a tree's proofs take: Single (no sub level; its path covers
 * every level), Sub (base levels + one sub level) or Top (+ one top level). */
typedef struct so_shape {
    uint32_t base_levels;
    bool sub, top;
} so_shape;

static inline so_shape so_shape_single(uint32_t levels)
{
    so_shape s = {levels, false, false};
    return s;
}
static inline so_shape so_shape_of(uint32_t base_levels, uint32_t sub_arity, uint32_t top_arity)
{
    so_shape s = {base_levels, sub_arity != 0, sub_arity != 0 && top_arity != 0};
    return s;
}

/* ---- serde_json ---- */
void so_dom(FILE *f, const uint8_t d[32]);
void so_doms(FILE *f, const uint8_t (*d)[32], size_t n);
/* MerkleProof m (no key) */
void so_merkle_json(FILE *f, const so_shape *s, const cuzk_c1_merkle_proof *m);

/* ---- bincode in base64 ---- */
typedef struct so_b64 {
    FILE *f;
    uint8_t pend[3];
    unsigned n;
} so_b64;

static inline so_b64 so_b64_begin(FILE *f)
{
    so_b64 b = {f, {0, 0, 0}, 0};
    return b;
}
void so_b64_put(so_b64 *b, const void *p, size_t n);
void so_b64_end(so_b64 *b); /* the last group, padded */
void so_b64_u64(so_b64 *b, uint64_t v);
void so_b64_u32(so_b64 *b, uint32_t v);
void so_merkle_bincode(so_b64 *b, const so_shape *s, const cuzk_c1_merkle_proof *m);

/* ---- files ---- */
/* Writes a document to path all or nothing (cuzk/outfiles.h: a temporary beside it,
 * renamed once complete): write(f, ctx) streams it, then write errors are checked. */
typedef void (*so_doc_fn)(FILE *f, const void *ctx);
cuzk_status so_write_file(const char *path, so_doc_fn write, const void *ctx, cuzk_error *err);
/* The same into FILE f; CUZK_ERR_IO when f reports a write error. */
cuzk_status so_write_stream(FILE *f, so_doc_fn write, const void *ctx, cuzk_error *err);

#endif
