/*
 * kind_post.c — the WINDOW_POST_PARTITION and WINNING_POST job kinds (Fallback PoSt,
 * cuzk/post.h), one partition each. The inputs come either as the PoSt job document of
 * cuzk/post.h in vanilla_proof, or as cuzk.v1's fields (registered_proof as Go's abi
 * number, randomness, partition_index, vanilla_proofs: one FallbackPoStSectorProof per
 * sector, bincode bytes as filecoin-ffi takes them or serde JSON), which are put into that
 * document here, so one strict parser (and its messages) serves both. Parsing runs
 * cuzk_post_partition_check: paths reach comm_r_last, comm_r = H(comm_c, comm_r_last), the
 * leaves are the challenges the randomness derives. All at submit, before proving work.
 * Keys: kind_fil.h ("wpost-<size>", "winning-<size>").
 * Threading: reentrant; the parsed job is immutable once planned.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "engine/fil_doc.h"
#include "engine/kind_fil.h"
#include "engine/state.h"

/* The cuzk.v1 fields as the job document of cuzk/post.h (malloc'd). */
static cuzk_status request_doc(const ereq *q, char **out, size_t *len, cuzk_error *err)
{
    if (q->randomness.len != 32)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt job: randomness (32 bytes) is required");
    if (!q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt job: vanilla_proofs (one per sector) or a job document in "
                              "vanilla_proof is required");
    fil_doc b = {0};
    char num[64];
    snprintf(num, sizeof num, "{\"registered_proof\": %" PRIu64 ", \"partition_index\": %u",
             q->registered_proof, q->partition_index);
    fil_doc_puts(&b, num);
    fil_doc_puts(&b, ", \"randomness\": ");
    fil_doc_bytes(&b, q->randomness.data, 32);
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

static cuzk_status post_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p,
                             cuzk_error *err)
{
    bool winning = q->kind == CUZK_PROOF_WINNING_POST;
    const char *what = winning ? "WinningPoSt" : "WindowPoSt";
    char *doc = NULL;
    size_t len = 0;
    cuzk_status st;
    if (q->vanilla_proof.len && q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "%s job: give a job document (vanilla_proof) or vanilla_proofs, "
                              "not both",
                              what);
    if (!q->vanilla_proof.len && (st = request_doc(q, &doc, &len, err)) != CUZK_OK)
        return st;
    cuzk_post_job *job = NULL;
    /* the paths' check over the pool: ~9 s on one thread for a 32 GiB WindowPoSt */
    const char *text = doc ? doc : (const char *)q->vanilla_proof.data;
    st = cuzk_post_job_parse_pool(text, doc ? len : q->vanilla_proof.len, e->pool, &job, err);
    bool fields = doc != NULL; /* the document was made from the request's fields */
    free(doc);
    if (st != CUZK_OK)
        return st;
    /* With a job document the document names the proof; a registered_proof beside it (0
     * is "not given", proto3's default) must name a proof of the same kind and size. */
    cuzk_post_info rp;
    if (!fields && q->registered_proof &&
        (cuzk_post_info_from_abi(q->registered_proof, &rp, NULL) != CUZK_OK ||
         rp.kind != job->info.kind || rp.sector_size != job->info.sector_size))
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "%s job: registered_proof %llu is not a %s proof for %llu-byte "
                            "sectors (the job document's %s)",
                            what, (unsigned long long)q->registered_proof,
                            winning ? "WinningPoSt" : "WindowPoSt",
                            (unsigned long long)job->info.sector_size, job->info.name);
    else if ((job->info.kind == CUZK_POST_WINNING) != winning)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s job: %s is a %s proof", what,
                            job->info.name, winning ? "WindowPoSt" : "WinningPoSt");
    else if (q->sector_size && q->sector_size != job->info.sector_size)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "%s job: sector_size %llu but %s is for %llu-byte sectors", what,
                            (unsigned long long)q->sector_size, job->info.name,
                            (unsigned long long)job->info.sector_size);
    fil_circuit c = winning ? FIL_WINNING : FIL_WPOST;
    if (st == CUZK_OK && !fil_circuit_id(c, job->info.sector_size, p->circuit_id,
                                         sizeof p->circuit_id))
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s job: sector size %llu", what,
                            (unsigned long long)job->info.sector_size);
    if (st == CUZK_OK)
        st = fil_key_available(e, p->circuit_id, err);
    if (st != CUZK_OK) {
        cuzk_post_job_free(job);
        return st;
    }
    p->partitions = 1;
    p->key_bytes = fil_key_bytes(e, c, job->info.sector_size);
    p->partition_bytes = fil_partition_bytes(e, c, job->info.sector_size);
    p->parsed = job;
    return CUZK_OK;
}

static void post_plan_free(ekind_plan *p)
{
    cuzk_post_job_free(p->parsed);
    p->parsed = NULL;
}

static cuzk_status post_synthesize(const cuzk_engine *e, const ereq *q, const ekind_plan *plan,
                                   const srs_key *key, uint32_t part, cuzk_pool *pool,
                                   esynth *out, cuzk_error *err)
{
    (void)e;
    (void)q;
    (void)part;
    cuzk_post_partition p = cuzk_post_job_partition(plan->parsed);
    /* sectors over the pool: a 32 GiB WindowPoSt partition has 2349 of them */
    cuzk_compact_assignment ca = {0};
    cuzk_status st = cuzk_post_witness_compact(&p, pool, &ca, err);
    if (st != CUZK_OK) {
        cuzk_compact_assignment_free(&ca);
        return st;
    }
    return engine_fil_witness_adopt(key, &ca, out, err);
}

const ekind engine_kind_window_post = {
    .kind = CUZK_PROOF_WINDOW_POST_PARTITION,
    .name = "window_post_partition",
    .default_priority = CUZK_PRIORITY_HIGH,
    .plan = post_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .key_bytes = fil_key_estimate,
    .key_make_bytes = fil_key_make_bytes,
    .key_available = fil_key_available,
    .synthesize = post_synthesize,
    .plan_free = post_plan_free,
    .verify_result = fil_verify_result,
};

const ekind engine_kind_winning_post = {
    .kind = CUZK_PROOF_WINNING_POST,
    .name = "winning_post",
    .default_priority = CUZK_PRIORITY_CRITICAL,
    .plan = post_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .key_bytes = fil_key_estimate,
    .key_make_bytes = fil_key_make_bytes,
    .key_available = fil_key_available,
    .synthesize = post_synthesize,
    .plan_free = post_plan_free,
    .verify_result = fil_verify_result,
};
