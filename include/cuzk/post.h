/*
 * cuzk/post.h — Filecoin's Fallback PoSt (WindowPoSt and WinningPoSt): the leaf
 * challenges and public inputs (fallback::FallbackPoStCompound), the checks a prover runs
 * before proving, and the vanilla proofs lotus/curio hand to GenerateWindowPoStWithVanilla /
 * GenerateWinningPoStWithVanilla (filecoin-proofs FallbackPoStSectorProof, one per sector)
 * as job documents. Filecoin layer, over the circuit of cuzk/post_circuit.h (registered
 * proofs, shapes, the circuit and its public-input layout).
 *
 * Challenges (fallback::generate_leaf_challenge): SHA-256(randomness(32) || sector_id
 *   u64 LE || challenge_index u64 LE), its first 8 bytes read little-endian, mod nodes.
 *   challenge_index = n under API 1.2 (WindowPoSt V1_2, the version in use); under API 1.0
 *   (WinningPoSt, old WindowPoSt V1) it is sector_index * challenges + n, sector_index the
 *   sector's position over all partitions (WinningPoSt: 0, with its 66 challenges).
 *
 * Values: 32-byte values are the little-endian Fr repr (Fr::from_repr) as in
 *   cuzk/c1_types.h; randomness is any 32 bytes (filecoin-proofs checks it is a canonical
 *   Fr; lotus clears its top two bits). Merkle proofs use cuzk/c1_types.h's flattened form.
 *
 * Threading: pure functions on caller data; parsed proofs are immutable and shareable.
 */
#ifndef CUZK_POST_H
#define CUZK_POST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/c1.h"
#include "cuzk/post_circuit.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * UNSUPPORTED (unknown proof; built without OpenSSL, whose SHA-256 the challenge check
 * needs), NOMEM. *out is NULL on error. */
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
 * Streamed with stdio: needs no jansson (src/filecoin/post_write.c). The job must have a
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
