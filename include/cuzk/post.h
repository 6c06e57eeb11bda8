/*
 * cuzk/post.h — Filecoin's Fallback PoSt (WindowPoSt and WinningPoSt): the registered
 * proofs and the shapes they fix, the circuit with bellperson's layout (rust-fil-proofs
 * storage-proofs-post fallback::FallbackPoStCircuit) on the backends of cuzk/circuits.h,
 * the leaf challenges and public inputs (fallback::FallbackPoStCompound), and the vanilla
 * proofs lotus/curio hand to GenerateWindowPoStWithVanilla / GenerateWinningPoStWithVanilla
 * (filecoin-proofs FallbackPoStSectorProof, one per sector).
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
 * Challenges (fallback::generate_leaf_challenge): SHA-256(randomness(32) || sector_id
 *   u64 LE || challenge_index u64 LE), its first 8 bytes read little-endian, mod nodes.
 *   challenge_index = n under API 1.2 (WindowPoSt V1_2, the version in use); under API 1.0
 *   (WinningPoSt, old WindowPoSt V1) it is sector_index * challenges + n, sector_index the
 *   sector's position over all partitions (WinningPoSt: 0, with its 66 challenges).
 *
 * Values: 32-byte values are the little-endian Fr repr (Fr::from_repr) as in cuzk/c1.h;
 *   randomness is any 32 bytes (filecoin-proofs checks it is a canonical Fr; lotus clears
 *   its top two bits). Merkle proofs use cuzk/c1.h's flattened form.
 *
 * Threading: pure functions on caller data; parsed proofs are immutable and shareable.
 */
#ifndef CUZK_POST_H
#define CUZK_POST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/c1.h"
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

/* ---------------------------------------------------------------------------------------
 * Challenges and public inputs (SHA-256: need OpenSSL, else UNSUPPORTED)
 * ------------------------------------------------------------------------------------- */

/* The leaf challenged by challenge_index (see the file comment). */
cuzk_status cuzk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                     uint64_t challenge_index, uint64_t nodes, uint64_t *leaf,
                                     cuzk_error *err);

/* The challenged leaves of sector proof `i` (0-based) of partition p, in vanilla order
 * (info.vanilla_challenges of them). */
cuzk_status cuzk_post_sector_challenges(const cuzk_post_partition *p, uint32_t i,
                                        const uint8_t randomness[32], uint64_t *leaves,
                                        cuzk_error *err);

/* The partition's public inputs from sector ids, comm_r and randomness only (what a
 * verifier has): n must be cuzk_post_info_n_inputs(&p->info). Montgomery Fr. */
cuzk_status cuzk_post_public_inputs(const cuzk_post_partition *p, const uint8_t randomness[32],
                                    cuzk_fr *out, size_t n, cuzk_error *err);

/* Everything a prover can check before proving: the shape, comm_r = Poseidon-2(comm_c,
 * comm_r_last), every path hashes its leaf to comm_r_last, and every path's leaf is the
 * challenge the randomness derives. Error INVALID_PROOF naming the sector (id and
 * position) and challenge. */
cuzk_status cuzk_post_partition_check(const cuzk_post_partition *p, const uint8_t randomness[32],
                                      cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Input documents
 * ------------------------------------------------------------------------------------- */

/*
 * A PoSt job as a JSON document (the request lotus/curio send, in JSON):
 *   {"registered_proof": "StackedDrgWindow2KiBV1_2",      (or the Go abi number)
 *    "randomness": [32 ints], "partition_index": k,         (optional, default 0)
 *    "vanilla_proofs": [FallbackPoStSectorProof, ...]}
 * each FallbackPoStSectorProof as filecoin-proofs' serde derive writes it with serde_json:
 *   {"sector_id": u64, "comm_r": [32],
 *    "vanilla_proof": {"sectors": [{"inclusion_proofs": [MerkleProof x challenges],
 *                                   "comm_c": [32], "comm_r_last": [32]}]}}
 * with MerkleProof as in cuzk/c1.h ({"data": {"Single"|"Sub"|"Top": ...}}). A vanilla
 * proof may also be given as a base64 string of its bincode bytes (the []byte lotus and
 * curio pass to filecoin-ffi, Go's JSON encoding): same struct, u64 LE integers and
 * lengths, the enum variant as a u32 LE, 32-byte values raw.
 * Parsed strictly: counts, shapes, canonical values, sector ids strictly increasing, the
 * partition's sector count within info.sectors (WinningPoSt: exactly 1 sector).
 */
typedef struct cuzk_post_job {
    cuzk_post_info info;
    uint8_t randomness[32];
    uint32_t partition_index;
    uint32_t n_sectors;
    cuzk_post_sector_proof *sectors;
    void *arena_;
} cuzk_post_job;

/* Errors (message "PoSt <json path>: <what>"): INVALID_ARG, FORMAT, LENGTH, NONCANONICAL,
 * UNSUPPORTED (unknown proof; built without jansson), NOMEM. *out is NULL on error. */
cuzk_status cuzk_post_job_parse(const char *json, size_t len, cuzk_post_job **out,
                                cuzk_error *err);
/* The same, with the paths' check (cuzk_post_job_check) spread over pool (NULL: the
 * calling thread): a 32 GiB WindowPoSt document (2,349 sectors) is checked in ~9 s on one
 * thread. */
cuzk_status cuzk_post_job_parse_pool(const char *json, size_t len, cuzk_pool *pool,
                                     cuzk_post_job **out, cuzk_error *err);
/* cuzk_post_partition_check of the job's partition, over the pool: WindowPoSt V1_2 and
 * WinningPoSt challenges do not depend on a sector's position, so slices of 32 sectors are
 * checked as partitions of their own; a failure is checked again whole, so the message
 * names the sector and challenge as the sequential check does. Other versions run whole. */
cuzk_status cuzk_post_job_check(const cuzk_post_job *job, cuzk_pool *pool, cuzk_error *err);
void cuzk_post_job_free(cuzk_post_job *job); /* NULL: no-op */

/* Writes job as the document above (the inverse of cuzk_post_job_parse: parse(write(j))
 * gives j's values), each vanilla proof in `form`; compact, one line. To a stream, or to
 * path all or nothing (a temporary beside it, renamed once complete: cuzk/outfiles.h).
 * Streamed with stdio: needs no jansson (src/formats/post_write.c). The job must have a
 * registered proof's name and pass cuzk_post_partition_check_shape (else INVALID_ARG,
 * UNSUPPORTED); write errors are IO. */
cuzk_status cuzk_post_job_write(const cuzk_post_job *job, cuzk_vanilla_form form, FILE *f,
                                cuzk_error *err);
cuzk_status cuzk_post_job_write_file(const cuzk_post_job *job, cuzk_vanilla_form form,
                                     const char *path, cuzk_error *err);

/* The job's partition (a view into job). */
static inline cuzk_post_partition cuzk_post_job_partition(const cuzk_post_job *job)
{
    cuzk_post_partition p = {job->info, job->partition_index, job->n_sectors, job->sectors};
    return p;
}

#ifdef __cplusplus
}
#endif

#endif /* CUZK_POST_H */
