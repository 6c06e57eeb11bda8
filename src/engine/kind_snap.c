/*
 * kind_snap.c — the SNAP_DEALS_UPDATE job kind (SnapDeals / EmptySectorUpdate, cuzk/snap.h,
 * main variant): every partition of one sector update. The inputs come either as the
 * SnapDeals job document of cuzk/snap.h in vanilla_proof, or as cuzk.v1's fields
 * (registered_proof as Go's abi.RegisteredUpdateProof number, comm_r_old, comm_r_new,
 * comm_d_new, vanilla_proofs: one PartitionProof per partition, the PartitionProofBytes
 * filecoin-ffi's GenerateUpdateProofWithVanilla takes (bincode) or serde JSON), which are
 * put into that document here so one strict parser and its messages serve both. Parsing
 * runs cuzk_snap_partition_check on every partition (paths reach their roots, comm_r_old /
 * comm_r_new = H(comm_c, root), tree D reaches comm_d_new through the apex leaves, the
 * paths are at the challenges comm_r_new derives, new = old + data * rho), all at submit,
 * before any proving work. Partition k is proved from its compact witness on the key's
 * recorded circuit; the public inputs [k | h_select << partition_bits, comm_r_old,
 * comm_d_new, comm_r_new] are the circuit's, in rust-fil-proofs' order. Proofs are
 * concatenated in partition order by the pipeline. Keys: kind_fil.h ("snap-<size>").
 * Threading: reentrant; the parsed job is immutable once planned and read by every
 * synthesis worker.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "engine/fil_doc.h"
#include "engine/kind_fil.h"

/* The cuzk.v1 fields as the job document of cuzk/snap.h (malloc'd). */
static cuzk_status request_doc(const ereq *q, char **out, size_t *len, cuzk_error *err)
{
    static const char *const names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    const ebuf *comms[3] = {&q->comm_r_old, &q->comm_r_new, &q->comm_d_new};
    for (int i = 0; i < 3; i++)
        if (comms[i]->len != 32)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "SnapDeals job: %s (32 bytes) is required", names[i]);
    if (!q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals job: vanilla_proofs (one per partition) or a job "
                              "document in vanilla_proof is required");
    fil_doc b = {0};
    char num[64];
    snprintf(num, sizeof num, "{\"registered_proof\": %" PRIu64, q->registered_proof);
    fil_doc_puts(&b, num);
    for (int i = 0; i < 3; i++) {
        fil_doc_puts(&b, ", \"");
        fil_doc_puts(&b, names[i]);
        fil_doc_puts(&b, "\": ");
        fil_doc_bytes(&b, comms[i]->data, 32);
    }
    fil_doc_puts(&b, ", \"vanilla_proofs\": [");
    for (size_t i = 0; i < q->n_vanilla_proofs; i++) {
        if (i)
            fil_doc_puts(&b, ",");
        fil_doc_vanilla(&b, &q->vanilla_proofs[i]);
    }
    fil_doc_puts(&b, "]}");
    if (b.oom) {
        free(b.d);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    *out = b.d;
    *len = b.len;
    return CUZK_OK;
}

/* Commitments given next to a job document must be the document's (the request's fields
 * are what the caller will verify against). */
static cuzk_status same_comms(const ereq *q, const cuzk_snap_job *job, cuzk_error *err)
{
    const struct {
        const ebuf *f;
        const uint8_t *doc;
        const char *name;
    } c[3] = {{&q->comm_r_old, job->comm_r_old, "comm_r_old"},
              {&q->comm_r_new, job->comm_r_new, "comm_r_new"},
              {&q->comm_d_new, job->comm_d_new, "comm_d_new"}};
    for (int i = 0; i < 3; i++)
        if (c[i].f->len && (c[i].f->len != 32 || memcmp(c[i].f->data, c[i].doc, 32) != 0))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "SnapDeals job: %s differs from the job document's",
                                  c[i].name);
    return CUZK_OK;
}

static cuzk_status snap_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p,
                             cuzk_error *err)
{
    char *doc = NULL;
    size_t len = 0;
    cuzk_status st;
    if (q->vanilla_proof.len && q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals job: give a job document (vanilla_proof) or "
                              "vanilla_proofs, not both");
    if (!q->vanilla_proof.len && (st = request_doc(q, &doc, &len, err)) != CUZK_OK)
        return st;
    cuzk_snap_job *job = NULL;
    st = doc ? cuzk_snap_job_parse(doc, len, &job, err)
             : cuzk_snap_job_parse((const char *)q->vanilla_proof.data, q->vanilla_proof.len,
                                   &job, err);
    bool fields = doc != NULL;
    free(doc);
    if (st != CUZK_OK)
        return st;
    if (!fields)
        st = same_comms(q, job, err);
    /* beside a job document, a registered_proof (0: "not given", proto3's default) must
     * name the document's update proof size */
    cuzk_snap_info rp;
    if (st == CUZK_OK && !fields && q->registered_proof &&
        (cuzk_snap_info_from_abi(q->registered_proof, &rp, NULL) != CUZK_OK ||
         rp.sector_size != job->info.sector_size))
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "SnapDeals job: registered_proof %llu is not the update proof for "
                            "%llu-byte sectors (the job document's %s)",
                            (unsigned long long)q->registered_proof,
                            (unsigned long long)job->info.sector_size, job->info.name);
    if (st == CUZK_OK && q->sector_size && q->sector_size != job->info.sector_size)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "SnapDeals job: sector_size %llu but %s is for %llu-byte sectors",
                            (unsigned long long)q->sector_size, job->info.name,
                            (unsigned long long)job->info.sector_size);
    if (st == CUZK_OK &&
        !fil_circuit_id(FIL_SNAP, job->info.sector_size, p->circuit_id, sizeof p->circuit_id))
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "SnapDeals job: sector size %llu",
                            (unsigned long long)job->info.sector_size);
    if (st == CUZK_OK)
        st = fil_key_available(e, p->circuit_id, err);
    if (st != CUZK_OK) {
        cuzk_snap_job_free(job);
        return st;
    }
    p->partitions = job->n_partitions;
    p->key_bytes = fil_key_bytes(e, FIL_SNAP, job->info.sector_size);
    p->partition_bytes = fil_partition_bytes(e, FIL_SNAP, job->info.sector_size);
    p->parsed = job;
    return CUZK_OK;
}

static void snap_plan_free(ekind_plan *p)
{
    cuzk_snap_job_free(p->parsed);
    p->parsed = NULL;
}

static cuzk_status snap_synthesize(const cuzk_engine *e, const ereq *q, const ekind_plan *plan,
                                   const srs_key *key, uint32_t part, cuzk_pool *pool,
                                   esynth *out, cuzk_error *err)
{
    (void)e;
    (void)q;
    (void)pool;
    const cuzk_snap_job *job = plan->parsed;
    if (part >= job->n_partitions)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "SnapDeals: partition %u of %u", part,
                              job->n_partitions);
    cuzk_snap_partition p = cuzk_snap_job_partition(job, part);
    return engine_fil_witness(key, cuzk_snap_circuit, &p, out, err);
}

const ekind engine_kind_snap = {
    .kind = CUZK_PROOF_SNAP_DEALS_UPDATE,
    .name = "snap_deals_update",
    .default_priority = CUZK_PRIORITY_NORMAL,
    .plan = snap_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .key_bytes = fil_key_estimate,
    .key_make_bytes = fil_key_make_bytes,
    .key_available = fil_key_available,
    .synthesize = snap_synthesize,
    .plan_free = snap_plan_free,
    .verify_result = fil_verify_result,
};
