/*
 * json_walk.h — the strict JSON walk the Filecoin input parsers share (C1 output, PoSt and
 * SnapDeals vanilla proofs): a context that tracks the JSON path of the value being read for
 * error messages ("<what> <path>: <problem>"), typed getters that check type, range and
 * count, 32-byte values as serde writes them (arrays of 32 integers), an arena that owns the
 * parsed arrays, rust-fil-proofs MerkleProof in its Single / Sub / Top shapes (flattened as
 * cuzk/c1.h describes), the document load and its registered proof, and strict base64.
 * Internal to the filecoin layer.
 *
 * Threading: a jw_ctx belongs to one parse; no global state.
 */
#ifndef CUZK_FILECOIN_JSON_WALK_H
#define CUZK_FILECOIN_JSON_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "formats/formats_export.h" /* json_dom.h */

#include "cuzk/c1.h"
#include "cuzk/status.h"
#include "filecoin/jw_arena.h" /* the arena that owns the parsed arrays */

typedef struct jw_ctx {
    char path[200];
    size_t plen;
    cuzk_error *err;
    void **arena;
    const char *what; /* message prefix: "C1", "PoSt" */
} jw_ctx;

/* Appends to the path; returns the old length for jw_pop. */
size_t jw_push(jw_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jw_pop(jw_ctx *c, size_t old);
cuzk_status jw_fail(jw_ctx *c, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *jw_type_name(const jd_value *v);

/* obj[key], which must exist; the path is extended by ".key" on success (caller pops). */
cuzk_status jw_field(jw_ctx *c, const jd_value *obj, const char *key, const jd_value **out,
                     size_t *old);
cuzk_status jw_expect_array(jw_ctx *c, const jd_value *v, size_t want);
cuzk_status jw_get_uint(jw_ctx *c, const jd_value *v, uint64_t max, uint64_t *out);
cuzk_status jw_get_uint_field(jw_ctx *c, const jd_value *obj, const char *key, uint64_t max,
                              uint64_t *out);
/* 32 integers 0..255; canonical: also the LE repr of a canonical Fr. */
cuzk_status jw_get_bytes32(jw_ctx *c, const jd_value *v, uint8_t out[32], int canonical);
cuzk_status jw_get_bytes_field(jw_ctx *c, const jd_value *obj, const char *key, uint8_t out[32],
                               int canonical);
/* An array of `want` canonical values into a fresh arena array. */
cuzk_status jw_get_domains(jw_ctx *c, const jd_value *v, size_t want, uint8_t (**out)[32]);

/* The tree a MerkleProof must have: base levels of base_arity, then a sub level
 * (sub_arity != 0), then a top level (top_arity != 0); Single without sub level, Sub with a
 * sub level, Top with both. name: the registered proof, for messages. */
typedef struct jw_tree_shape {
    uint32_t base_levels, base_arity, sub_arity, top_arity;
    const char *name;
} jw_tree_shape;

/* obj[key] (key NULL: obj itself) = MerkleProof {data: {Single|Sub|Top: ...}} into m
 * (siblings in the arena). */
cuzk_status jw_get_merkle(jw_ctx *c, const jd_value *obj, const char *key, const jw_tree_shape *s,
                          cuzk_c1_merkle_proof *m);

/* Loads text as one JSON document (duplicate keys rejected; a syntax error is FORMAT
 * "JSON error at line L column C: ...") and returns parse(c, root, arg). */
typedef cuzk_status (*jw_doc_fn)(jw_ctx *c, const jd_value *root, void *arg);
cuzk_status jw_parse_text(jw_ctx *c, const char *text, size_t len, jw_doc_fn parse, void *arg);

/* root.registered_proof, a name or an abi number, resolved into info by lookup (name NULL:
 * by abi; CUZK_OK when it knows the proof). Unknown: UNSUPPORTED "unknown registered <kind>
 * proof ...". */
typedef cuzk_status (*jw_proof_lookup_fn)(const char *name, uint64_t abi, void *info);
cuzk_status jw_get_registered_proof(jw_ctx *c, const jd_value *root, const char *kind,
                                    jw_proof_lookup_fn lookup, void *info);

/* Strict standard base64 with padding (Go's encoding/json form of []byte); *out malloc'd. */
cuzk_status jw_b64_decode(jw_ctx *c, const char *s, size_t n, char **out, size_t *out_len);

#endif
