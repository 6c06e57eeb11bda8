/*
 * cuzk/snap.h — Filecoin's SnapDeals (EmptySectorUpdate) proof as a prover receives it: the
 * partition proofs lotus/curio hand to GenerateUpdateProofWithVanilla (vanilla.rs
 * PartitionProof, one per partition, bincode as filecoin-proofs-api PartitionProofBytes) as
 * job documents, and the check a prover runs on each partition before proving. Filecoin
 * layer, over the circuit of cuzk/snap_circuit.h (shapes, the circuit, and the native phi /
 * rho / challenges / public inputs).
 *
 * Values: 32-byte values are little-endian Fr reprs (as cuzk/c1_types.h); Merkle proofs
 *   use cuzk/c1_types.h's flattened form.
 *
 * Threading: pure functions on caller data; parsed jobs are immutable and shareable.
 */
#ifndef CUZK_SNAP_H
#define CUZK_SNAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/c1.h"
#include "cuzk/snap_circuit.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Prover-side check and input documents (src/filecoin; SHA-256 needs OpenSSL)
 * ------------------------------------------------------------------------------------- */

/* What EmptySectorUpdate::verify checks, and what the circuit will: the shape; comm_r_old
 * = Poseidon-2(comm_c, root_r_old) and comm_r_new likewise, with every R-old (R-new) path
 * on one root; each challenge's three paths prove the challenged node and hash to their
 * roots (tree D to comm_d_new); label_r_new = label_r_old + label_d_new * rho; the tree D
 * path's apex level is the partition's apex tree. Error INVALID_PROOF naming the
 * partition, challenge and tree; UNSUPPORTED without OpenSSL. */
cuzk_status cuzk_snap_partition_check(const cuzk_snap_partition *p, cuzk_error *err);

/*
 * A SnapDeals job as a JSON document (what lotus/curio pass to
 * GenerateUpdateProofWithVanilla, in JSON):
 *   {"registered_proof": "StackedDrg2KiBV1" (or the Go abi number),
 *    "comm_r_old": [32], "comm_r_new": [32], "comm_d_new": [32],
 *    "h": n (optional, default info.h),
 *    "vanilla_proofs": [PartitionProof x info.partitions]}
 * each PartitionProof as storage-proofs-update's serde derive writes it with serde_json:
 *   {"comm_c": [32], "apex_leafs": [[32] x apex], "challenge_proofs":
 *    [{"proof_r_old": MerkleProof, "proof_d_new": MerkleProof, "proof_r_new": MerkleProof}]}
 * (MerkleProof as cuzk/c1.h), or as a base64 string of its bincode bytes (the
 * PartitionProofBytes filecoin-ffi receives): same fields in order, u64 LE lengths, the
 * MerkleProof enum variant as u32 LE, 32-byte values raw.
 * Parsed strictly, then every partition goes through cuzk_snap_partition_check.
 */
typedef struct cuzk_snap_job {
    cuzk_snap_info info;
    uint32_t h;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    uint32_t n_partitions;
    cuzk_snap_partition_proof *partitions;
    void *arena_;
} cuzk_snap_job;

/* Errors (message "SnapDeals <json path>: <what>"): INVALID_ARG, FORMAT, LENGTH,
 * NONCANONICAL, INVALID_PROOF, UNSUPPORTED (unknown proof; without OpenSSL),
 * NOMEM. *out is NULL on error. */
cuzk_status cuzk_snap_job_parse(const char *json, size_t len, cuzk_snap_job **out,
                                cuzk_error *err);
void cuzk_snap_job_free(cuzk_snap_job *job); /* NULL: no-op */

/* Writes job as the document above (the inverse of cuzk_snap_job_parse), each partition
 * proof in `form`; compact, one line. To a stream, or to path all or nothing
 * (cuzk/outfiles.h). Needs no jansson (src/filecoin/snap_write.c). Every partition must pass
 * cuzk_snap_partition_check_shape and there must be info.partitions of them (else
 * INVALID_ARG); write errors are IO. */
cuzk_status cuzk_snap_job_write(const cuzk_snap_job *job, cuzk_vanilla_form form, FILE *f,
                                cuzk_error *err);
cuzk_status cuzk_snap_job_write_file(const cuzk_snap_job *job, cuzk_vanilla_form form,
                                     const char *path, cuzk_error *err);

/* Partition k of the job (a view into job). */
static inline cuzk_snap_partition cuzk_snap_job_partition(const cuzk_snap_job *job, uint32_t k)
{
    cuzk_snap_partition p;
    p.info = job->info;
    p.k = k;
    p.h = job->h;
    for (int i = 0; i < 32; i++) {
        p.comm_r_old[i] = job->comm_r_old[i];
        p.comm_d_new[i] = job->comm_d_new[i];
        p.comm_r_new[i] = job->comm_r_new[i];
    }
    p.proof = k < job->n_partitions ? &job->partitions[k] : 0;
    return p;
}

#ifdef __cplusplus
}
#endif

#endif /* CUZK_SNAP_H */
