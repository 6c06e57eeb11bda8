/*
 * cuzk/post_circuit.h — the circuit of Filecoin's Fallback PoSt (WindowPoSt and
 * WinningPoSt): the registered proofs and the shapes they fix, the sector proofs a partition
 * takes, and the circuit with bellperson's layout (rust-fil-proofs storage-proofs-post
 * fallback::FallbackPoStCircuit) on the backends of cuzk/circuits.h. Circuits layer; the
 * challenges, public inputs, checks and job documents are cuzk/post.h (filecoin layer).
 *
 * Shapes
 *   A partition's circuit has `sectors` sectors of `challenges` challenges each:
 *     WindowPoSt   2349 (32 GiB), 2300 (64 GiB), 2 (2 KiB, 8 MiB, 512 MiB) sectors x 10;
 *     WinningPoSt  66 x 1: the one sector's 66 inclusion proofs, each laid out as a sector
 *                  of its own (filecoin-proofs single_partition_vanilla_proofs).
 *   A WindowPoSt partition with fewer sector proofs is padded by repeating its last one.
 *   Tree R is Poseidon 8-0-0 (2 KiB, 8 MiB, 512 MiB), 8-8-0 (32 GiB), 8-8-2 (64 GiB).
 *
 * Circuit (per sector, in order): alloc comm_r_last, comm_c, comm_r; inputize comm_r;
 *   h = Poseidon-2(comm_c, comm_r_last); comm_r * ONE = h; then per challenge: alloc the
 *   leaf; its inclusion path in tree R with comm_r_last as private root (PoRCircuit: index
 *   bits, siblings, insert, hash per level; the index bits packed into one input).
 *   Rows per sector: 313 + challenges * (path + 2), the path 530 rows a level of arity 8
 *   and 314 for the top level of arity 2 (64 GiB): levels * 530 below 64 GiB.
 * Public inputs (rust-fil-proofs order): per circuit sector [comm_r, node_0, .., node_{c-1}],
 *   node_i the challenged leaf as an Fr.
 *
 * Values: 32-byte values are the little-endian Fr repr (Fr::from_repr) as in
 *   cuzk/c1_types.h; Merkle proofs use its flattened form.
 *
 * Threading: pure functions on caller data; a partition is immutable and shareable.
 */
#ifndef CUZK_POST_CIRCUIT_H
#define CUZK_POST_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/c1_types.h"
#include "cuzk/circuits.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_post_kind {
    CUZK_POST_WINNING = 0,
    CUZK_POST_WINDOW = 1,
} cuzk_post_kind;

typedef enum cuzk_post_api {
    CUZK_POST_API_1_0 = 0, /* WinningPoSt, WindowPoSt V1 */
    CUZK_POST_API_1_2 = 2, /* WindowPoSt V1_2 (Go's abi name: V1_1) */
} cuzk_post_api;

/* What a registered PoSt proof fixes. */
typedef struct cuzk_post_info {
    const char *name;          /* "StackedDrgWindow32GiBV1_2" */
    cuzk_post_kind kind;
    cuzk_post_api api;
    uint64_t sector_size;      /* bytes */
    uint64_t nodes;            /* sector_size / 32: tree R leaves */
    uint32_t sectors;          /* circuit sectors per partition */
    uint32_t challenges;       /* circuit challenges per sector */
    uint32_t vanilla_challenges; /* inclusion proofs in one sector's vanilla proof: 10 | 66 */
    uint32_t base_arity, base_levels, sub_arity, top_arity; /* tree R: 8, n, 0|8, 0|2 */
} cuzk_post_info;

/* Registered proof by rust name (StackedDrgWinning<S>V1, StackedDrgWindow<S>V1,
 * StackedDrgWindow<S>V1_2; S = 2KiB, 8MiB, 512MiB, 32GiB, 64GiB). Errors: INVALID_ARG
 * (NULL), UNSUPPORTED (unknown). */
cuzk_status cuzk_post_info_from_name(const char *name, cuzk_post_info *out, cuzk_error *err);
/* Registered proof by Go's abi.RegisteredPoStProof number (0-4 Winning, 5-9 Window V1,
 * 10-14 Window V1_1 = rust V1_2; each run 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB). */
cuzk_status cuzk_post_info_from_abi(uint64_t abi, cuzk_post_info *out, cuzk_error *err);
/* The proof in use for a kind and sector size: Winning V1, Window V1_2. */
cuzk_status cuzk_post_info_get(cuzk_post_kind kind, uint64_t sector_size, cuzk_post_info *out,
                               cuzk_error *err);

/* Levels of a tree R path (base levels, then sub, then top). */
uint32_t cuzk_post_info_levels(const cuzk_post_info *info);
/* Public inputs of one partition: sectors * (1 + challenges). */
static inline size_t cuzk_post_info_n_inputs(const cuzk_post_info *info)
{
    return (size_t)info->sectors * (1 + info->challenges);
}

/* ---------------------------------------------------------------------------------------
 * Vanilla proofs: one FallbackPoStSectorProof per sector
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_post_sector_proof {
    uint64_t sector_id;
    uint8_t comm_r[32];
    uint8_t comm_c[32];
    uint8_t comm_r_last[32];
    uint32_t n_proofs;              /* info.vanilla_challenges */
    cuzk_c1_merkle_proof *proofs;   /* tree R inclusion proofs, challenge order */
} cuzk_post_sector_proof;

/* One partition: the sector proofs it covers (WindowPoSt: 1..info.sectors of them, sector
 * ids strictly increasing, the partition's slice of the sorted sector list; WinningPoSt:
 * exactly one) and its index k. This is the circuit's ctx. given == NULL makes the blank
 * circuit (record and count backends only). */
typedef struct cuzk_post_partition {
    cuzk_post_info info;
    uint32_t k;
    uint32_t n_given;
    const cuzk_post_sector_proof *given;
} cuzk_post_partition;

/* Partitions for n sectors: WindowPoSt ceil(n / info.sectors), WinningPoSt 1. */
uint32_t cuzk_post_partition_count(const cuzk_post_info *info, uint64_t n_sectors);

/* The shape of p's proofs against its info: counts, every path's levels and arities,
 * index digits in range, each proof's root = comm_r_last, sector ids strictly increasing.
 * Error INVALID_ARG (NULL, counts) or FORMAT naming sector and challenge. */
cuzk_status cuzk_post_partition_check_shape(const cuzk_post_partition *p, cuzk_error *err);

/* The circuit (ctx: const cuzk_post_partition *). The witness backend needs p->given and
 * checks the shape first; the circuit itself checks comm_r = H(comm_c, comm_r_last) and
 * the paths only as constraints (a bad proof gives an unsatisfied witness). */
cuzk_status cuzk_post_circuit(cuzk_cs *cs, const void *ctx, cuzk_error *err);

/* The compact witness of partition p (which needs p->given), its sectors spread over the
 * pool (NULL: the calling thread): the same assignment as cuzk_circuit_witness_compact on
 * cuzk_post_circuit, bit for bit. Release with cuzk_compact_assignment_free. Errors: those
 * of the circuit (the shape check), NOMEM. */
cuzk_status cuzk_post_witness_compact(const cuzk_post_partition *p, cuzk_pool *pool,
                                      cuzk_compact_assignment *out, cuzk_error *err);

/* The constraint system of p's circuit (no values needed: a blank partition records),
 * its sectors recorded in parallel on the pool (NULL: the calling thread), each numbered
 * from sector 0's counts (sectors share no variable): what cuzk_circuit_record on
 * cuzk_post_circuit records, row for row and bit for bit. A 32 GiB WindowPoSt partition
 * (2,349 sectors) is ~2^27 rows. Results as cuzk_circuit_record's. Errors: those of the
 * circuit, NOMEM, INTERNAL, the pool's. */
cuzk_status cuzk_post_record(const cuzk_post_partition *p, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err);

/* Counts of one partition's circuit of `kind` for a sector size (2 KiB, 8 MiB, 512 MiB,
 * 32 GiB, 64 GiB) on the counting backend; sectors / challenges 0 take Filecoin's values
 * (others: the rust tests' custom shapes, e.g. 3 x 5 over 2 KiB = 16,869 rows).
 * n_constraints excludes the input rows (cuzk_circuit_counts_rows_with_inputs adds them). */
cuzk_status cuzk_post_circuit_counts(cuzk_post_kind kind, uint64_t sector_size,
                                     uint32_t sectors, uint32_t challenges,
                                     cuzk_circuit_counts *out, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_POST_CIRCUIT_H */
