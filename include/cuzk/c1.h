/*
 * cuzk/c1.h — the PoRep C1 output document (filecoin-proofs-api SealCommitPhase1Output):
 * the registered-proof table, the strict parser and the writer of the JSON, and the checks
 * that need no circuit: every Merkle path reaches its root, comm_r = Poseidon-2(comm_c,
 * comm_r_last), every label of the challenged node equals SHA-256 of its parents' column
 * values, and the replica leaf = last label + data. Filecoin layer; the structs it fills
 * (and the PoRep circuit reads) are cuzk/c1_types.h.
 *
 * Input: the JSON filecoin-ffi writes with serde_json:
 *   {"registered_proof": "StackedDrg2KiBV1_1",
 *    "vanilla_proofs": {"StackedDrg2KiBV1": [[Proof x challenges] x partitions]},
 *    "comm_r", "comm_d", "replica_id", "seed", "ticket": [32 integers]}
 * or the same bytes base64-encoded in curio/cuzk's wrapper
 *   {"SectorNum": n, "Phase1Out": "<base64>", "SectorSize": s}.
 * A Proof is {comm_d_proofs, comm_r_last_proof, replica_column_proofs{c_x, drg_parents[6],
 * exp_parents[8]}, labeling_proofs[layers], encoding_proof}; a MerkleProof is
 * {"data": {"Single"|"Sub"|"Top": {...}}} with paths of {"hashes": [arity-1], "index"}.
 *
 * Values and the flattened Merkle paths: cuzk/c1_types.h.
 *
 * Threading: pure functions; a parsed cuzk_c1_output is immutable and may be shared.
 */
#ifndef CUZK_C1_H
#define CUZK_C1_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/c1_types.h"
#include "cuzk/pool.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Looks a registered proof name up (all 20 variants: 2 KiB, 8 MiB, 512 MiB, 32 GiB,
 * 64 GiB x V1, V1_1, synthetic, NI). Errors: INVALID_ARG (NULL), UNSUPPORTED (unknown). */
cuzk_status cuzk_porep_info_from_name(const char *name, cuzk_porep_info *out, cuzk_error *err);
/* The same by Go's abi.RegisteredSealProof number: 0-4 V1, 5-9 V1_1, 10-14 V1_1 synthetic,
 * 15-19 V1_2 NI, each run 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB (what Curio sends as
 * SubmitProofRequest.registered_proof). Errors: INVALID_ARG (NULL), UNSUPPORTED (> 19). */
cuzk_status cuzk_porep_info_from_abi(uint64_t abi, cuzk_porep_info *out, cuzk_error *err);

/* Node index a flattened path proves. */
uint64_t cuzk_c1_merkle_node(const cuzk_c1_merkle_proof *m);

/* How the PoSt and SnapDeals job documents (cuzk/post.h, cuzk/snap.h) carry each vanilla
 * proof when cuzk writes them: the JSON object serde_json writes, or a base64 string of its
 * bincode bytes (the []byte lotus and curio pass to filecoin-ffi; ~2.5x smaller, and much
 * cheaper to parse). The parsers read both. */
typedef enum cuzk_vanilla_form {
    CUZK_VANILLA_JSON = 0,
    CUZK_VANILLA_BINCODE = 1,
} cuzk_vanilla_form;

/* Parses the C1 JSON (or the base64 wrapper) strictly: every field present with the right
 * type, every count as the registered proof implies, every value a canonical Fr, every
 * index in range. Allocation is bounded by the input size. *out is NULL on error.
 * Errors (message: "C1 <json path>: <what>"): INVALID_ARG, FORMAT (syntax, type, missing
 * field, bad base64), LENGTH (wrong count or byte length), NONCANONICAL, UNSUPPORTED
 * (unknown registered proof), NOMEM. The JSON is read by the formats layer's own reader
 * (src/formats/json_dom.c), with or without jansson. */
cuzk_status cuzk_c1_parse(const char *json, size_t len, cuzk_c1_output **out,
                          cuzk_error *err);
void cuzk_c1_free(cuzk_c1_output *c1); /* NULL: no-op */

/* Writes c1 to path as filecoin-ffi's JSON (compact serde_json: fields in Rust order, the
 * form cuzk_c1_parse reads), so that parse(write(x)) == x. All or nothing: a temporary
 * beside path, renamed over it once complete (cuzk/outfiles.h). Works without jansson
 * (src/filecoin/c1_write.c). Errors: INVALID_ARG (NULL; partitions, challenges or layers
 * other than the registered proof's, e.g. a one-partition cuzk_c1_synth of 32 GiB),
 * UNSUPPORTED (unknown registered proof), IO. */
cuzk_status cuzk_c1_write_json(const cuzk_c1_output *c1, const char *path, cuzk_error *err);

/* The consistency checks (see the file comment). Error INVALID_PROOF naming the partition,
 * challenge and proof part that fails; UNSUPPORTED when built without OpenSSL. */
cuzk_status cuzk_c1_check(const cuzk_c1_output *c1, cuzk_error *err);
/* The same over the pool (NULL: on the calling thread), its challenges in parallel; on a
 * failure the first failing part in order is named, as cuzk_c1_check names it. A 32 GiB
 * C1 output's 180 challenges take ~2.9 s on one thread. */
cuzk_status cuzk_c1_check_pool(const cuzk_c1_output *c1, cuzk_pool *pool, cuzk_error *err);

/* The challenged nodes are the ones the verifier derives: interactive (V1, V1_1) from
 * replica_id and seed, NI from replica_id and comm_r (formulas in c1_check.c). Error
 * INVALID_PROOF naming the partition and challenge; UNSUPPORTED for synthetic PoRep (its
 * ChaCha20 challenge set is not derived here) or without OpenSSL. */
cuzk_status cuzk_c1_check_challenges(const cuzk_c1_output *c1, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_C1_H */
