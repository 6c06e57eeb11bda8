/*
 * cuzk/c1_types.h — the PoRep C1 output (filecoin-proofs-api SealCommitPhase1Output) as C
 * structs, the input of the PoRep circuit (cuzk/porep.h): the registered proof and the shape
 * it implies, the commitments, and per partition and challenge the StackedDRG vanilla proof
 * (rust-fil-proofs storage-proofs-porep stacked::vanilla::Proof); and the flattened Merkle
 * proof that the PoSt and SnapDeals circuits take too. Circuits layer: the types only. The
 * document itself (parse, write, checks, the registered-proof table) is cuzk/c1.h, in the
 * filecoin layer above.
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
 * Threading: plain data; a parsed cuzk_c1_output is immutable and may be shared.
 */
#ifndef CUZK_C1_TYPES_H
#define CUZK_C1_TYPES_H

#include <stdint.h>

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

#ifdef __cplusplus
}
#endif

#endif /* CUZK_C1_TYPES_H */
