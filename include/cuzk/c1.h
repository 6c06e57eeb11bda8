/*
 * cuzk/c1.h — PoRep C1 output (filecoin-proofs-api SealCommitPhase1Output) as C structs:
 * the registered proof and the shape it implies, the commitments, and per partition and
 * challenge the StackedDRG vanilla proof (rust-fil-proofs storage-proofs-porep
 * stacked::vanilla::Proof). Plus the checks that need no circuit: every Merkle path reaches
 * its root, comm_r = Poseidon-2(comm_c, comm_r_last), every label of the challenged node
 * equals SHA-256 of its parents' column values, and the replica leaf = last label + data.
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
 * Values: every 32-byte value is kept as the 32 bytes of the JSON array, which is the
 * little-endian Fr repr (Fr::from_repr); the parser has checked each is a canonical Fr
 * (< r), so cuzk_fr_from_bytes_le on any of them succeeds. Except seed and ticket: chain
 * randomness, any 32 bytes.
 *
 * Merkle paths are flattened: levels 0..n_levels-1 from the leaf up, base levels first,
 * then the sub level, then the top level; level l has arity[l] children, the path's node
 * sits at position index[l], and siblings hold the arity[l]-1 other children in order
 * (the node is inserted at index[l] to rebuild the level's preimage). The node index is
 * sum index[l] * prod_{k<l} arity[k].
 *
 * Threading: pure functions; a parsed cuzk_c1_output is immutable and may be shared.
 */
#ifndef CUZK_C1_H
#define CUZK_C1_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/pool.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_C1_DRG_PARENTS 6
#define CUZK_C1_EXP_PARENTS 8
#define CUZK_C1_TOTAL_PARENTS 37 /* parents hashed per label: the list repeated to 37 */
#define CUZK_C1_MAX_LEVELS 64

typedef enum cuzk_porep_variant {
    CUZK_POREP_V1 = 0,          /* StackedDrg<S>V1 */
    CUZK_POREP_V1_1 = 1,        /* StackedDrg<S>V1_1 */
    CUZK_POREP_SYNTHETIC = 2,   /* StackedDrg<S>V1_1_Feat_SyntheticPoRep */
    CUZK_POREP_NI = 3,          /* StackedDrg<S>V1_2_Feat_NonInteractivePoRep */
} cuzk_porep_variant;

/* What a registered seal proof fixes. */
typedef struct cuzk_porep_info {
    const char *name;          /* "StackedDrg32GiBV1_1" */
    const char *vanilla_name;  /* key of vanilla_proofs: always the V1 name */
    cuzk_porep_variant variant;
    uint64_t sector_size;      /* bytes */
    uint64_t nodes;            /* sector_size / 32 */
    uint32_t layers;           /* 2 or 11 */
    uint32_t partitions;
    uint32_t challenges;       /* per partition */
    uint32_t tree_d_levels;    /* binary SHA-256 tree D */
    uint32_t base_arity, sub_arity, top_arity; /* tree R/C: 8, 0|8, 0|2 */
    uint32_t base_levels;      /* levels of each base (sub-)tree */
} cuzk_porep_info;

/* Looks a registered proof name up (all 20 variants: 2 KiB, 8 MiB, 512 MiB, 32 GiB,
 * 64 GiB x V1, V1_1, synthetic, NI). Errors: INVALID_ARG (NULL), UNSUPPORTED (unknown). */
cuzk_status cuzk_porep_info_from_name(const char *name, cuzk_porep_info *out, cuzk_error *err);
/* The same by Go's abi.RegisteredSealProof number: 0-4 V1, 5-9 V1_1, 10-14 V1_1 synthetic,
 * 15-19 V1_2 NI, each run 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB (what Curio sends as
 * SubmitProofRequest.registered_proof). Errors: INVALID_ARG (NULL), UNSUPPORTED (> 19). */
cuzk_status cuzk_porep_info_from_abi(uint64_t abi, cuzk_porep_info *out, cuzk_error *err);

typedef struct cuzk_c1_merkle_proof {
    uint8_t root[32];
    uint8_t leaf[32];
    uint32_t n_levels;
    uint8_t arity[CUZK_C1_MAX_LEVELS];
    uint8_t index[CUZK_C1_MAX_LEVELS];
    uint8_t (*siblings)[32];   /* sum over levels of arity-1 values */
} cuzk_c1_merkle_proof;

typedef struct cuzk_c1_column_proof {
    uint32_t index;            /* node of the column */
    uint8_t (*rows)[32];       /* layers values: the node's label in each layer */
    cuzk_c1_merkle_proof proof; /* tree C: leaf = Poseidon_layers(rows) */
} cuzk_c1_column_proof;

typedef struct cuzk_c1_labeling_proof {
    uint32_t layer_index;      /* 1..layers */
    uint64_t node;
    uint32_t n_parents;        /* 37 */
    uint8_t (*parents)[32];
} cuzk_c1_labeling_proof;

typedef struct cuzk_c1_challenge_proof {
    cuzk_c1_merkle_proof comm_d_proof;       /* tree D (SHA-256), leaf = data node */
    cuzk_c1_merkle_proof comm_r_last_proof;  /* tree R (Poseidon), leaf = replica node */
    cuzk_c1_column_proof c_x;
    cuzk_c1_column_proof drg_parents[CUZK_C1_DRG_PARENTS];
    cuzk_c1_column_proof exp_parents[CUZK_C1_EXP_PARENTS];
    cuzk_c1_labeling_proof *labeling;        /* layers of them, layer 1 first */
    cuzk_c1_labeling_proof encoding;
} cuzk_c1_challenge_proof;

typedef struct cuzk_c1_output {
    cuzk_porep_info info;
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    /* proofs[p * info.challenges + i]: partition p, challenge i */
    cuzk_c1_challenge_proof *proofs;
    void *arena_; /* owns every array above */
} cuzk_c1_output;

/* The challenged node of a proof (labeling_proofs[0].node). */
static inline uint64_t cuzk_c1_challenge(const cuzk_c1_challenge_proof *p)
{
    return p->labeling[0].node;
}

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
 * (unknown registered proof; or built without jansson), NOMEM. */
cuzk_status cuzk_c1_parse(const char *json, size_t len, cuzk_c1_output **out,
                          cuzk_error *err);
void cuzk_c1_free(cuzk_c1_output *c1); /* NULL: no-op */

/* Writes c1 to path as filecoin-ffi's JSON (compact serde_json: fields in Rust order, the
 * form cuzk_c1_parse reads), so that parse(write(x)) == x. All or nothing: a temporary
 * beside path, renamed over it once complete (cuzk/outfiles.h). Works without jansson
 * (src/formats/c1_write.c). Errors: INVALID_ARG (NULL; partitions, challenges or layers
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
