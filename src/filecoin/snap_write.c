/*
 * snap_write.c — writes a SnapDeals job (cuzk/snap.h) as the job document
 * cuzk_snap_job_parse reads: {"registered_proof", "comm_r_old", "comm_r_new", "comm_d_new",
 * "h", "vanilla_proofs"}, each storage-proofs-update PartitionProof as its serde derive
 * writes it in serde_json (comm_c, apex_leafs, challenge_proofs [{proof_r_old, proof_d_new,
 * proof_r_new}]), or as base64 of its bincode bytes (the PartitionProofBytes filecoin-ffi
 * receives). Streamed with stdio (filecoin/serde_out.h); no JSON library needed.
 *
 * Threading: pure apart from the stream it writes; the job is only read.
 */
#include "cuzk/snap.h"
#include "filecoin/serde_out.h"

typedef struct wctx {
    const cuzk_snap_job *job;
    cuzk_vanilla_form form;
} wctx;

typedef struct shapes {
    so_shape r, d;
} shapes;

static void put_part_json(FILE *f, const shapes *s, const cuzk_snap_partition_proof *pp)
{
    fputs("{\"comm_c\":", f);
    so_dom(f, pp->comm_c);
    fputs(",\"apex_leafs\":", f);
    so_doms(f, (const uint8_t(*)[32])pp->apex_leaves, pp->n_apex);
    fputs(",\"challenge_proofs\":[", f);
    for (uint32_t c = 0; c < pp->n_challenges; c++) {
        const cuzk_snap_challenge_proof *cp = &pp->challenges[c];
        fputs(c ? ",{\"proof_r_old\":" : "{\"proof_r_old\":", f);
        so_merkle_json(f, &s->r, &cp->r_old);
        fputs(",\"proof_d_new\":", f);
        so_merkle_json(f, &s->d, &cp->d_new);
        fputs(",\"proof_r_new\":", f);
        so_merkle_json(f, &s->r, &cp->r_new);
        fputc('}', f);
    }
    fputs("]}", f);
}

static void put_part_bincode(FILE *f, const shapes *s, const cuzk_snap_partition_proof *pp)
{
    so_b64 b = so_b64_begin(f);
    fputc('"', f);
    so_b64_put(&b, pp->comm_c, 32);
    so_b64_u64(&b, pp->n_apex);
    if (pp->n_apex)
        so_b64_put(&b, pp->apex_leaves, (size_t)pp->n_apex * 32);
    so_b64_u64(&b, pp->n_challenges);
    for (uint32_t c = 0; c < pp->n_challenges; c++) {
        const cuzk_snap_challenge_proof *cp = &pp->challenges[c];
        so_merkle_bincode(&b, &s->r, &cp->r_old);
        so_merkle_bincode(&b, &s->d, &cp->d_new);
        so_merkle_bincode(&b, &s->r, &cp->r_new);
    }
    so_b64_end(&b);
    fputc('"', f);
}

static void put_doc(FILE *f, const void *arg)
{
    const wctx *w = arg;
    const cuzk_snap_job *job = w->job;
    const cuzk_snap_info *in = &job->info;
    shapes s;
    s.r = so_shape_of(in->base_levels, in->sub_arity, in->top_arity);
    s.d = in->variant == CUZK_SNAP_MAIN ? so_shape_single(in->challenge_bits) : s.r;
    fprintf(f, "{\"registered_proof\":\"%s\",\"comm_r_old\":", in->name);
    so_dom(f, job->comm_r_old);
    fputs(",\"comm_r_new\":", f);
    so_dom(f, job->comm_r_new);
    fputs(",\"comm_d_new\":", f);
    so_dom(f, job->comm_d_new);
    fprintf(f, ",\"h\":%u,\"vanilla_proofs\":[", job->h);
    for (uint32_t k = 0; k < job->n_partitions; k++) {
        if (k)
            fputc(',', f);
        if (w->form == CUZK_VANILLA_BINCODE)
            put_part_bincode(f, &s, &job->partitions[k]);
        else
            put_part_json(f, &s, &job->partitions[k]);
    }
    fputs("]}\n", f);
}

/* Refuses what the parser would not read back as the same job. */
static cuzk_status check(const cuzk_snap_job *job, cuzk_vanilla_form form, cuzk_error *err)
{
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals write: NULL job");
    if (form != CUZK_VANILLA_JSON && form != CUZK_VANILLA_BINCODE)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals write: unknown form %d",
                              (int)form);
    if (!job->info.name)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "SnapDeals write: unknown registered proof");
    if (job->n_partitions != job->info.partitions || !job->partitions)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals write: %u partition proofs, %s takes %u",
                              job->n_partitions, job->info.name, job->info.partitions);
    for (uint32_t k = 0; k < job->n_partitions; k++) {
        cuzk_snap_partition p = cuzk_snap_job_partition(job, k);
        cuzk_error e = {0};
        if (cuzk_snap_partition_check_shape(&p, &e) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals write: %s", e.msg);
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_job_write(const cuzk_snap_job *job, cuzk_vanilla_form form, FILE *f,
                                cuzk_error *err)
{
    cuzk_status st = check(job, form, err);
    if (st)
        return st;
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals write: NULL stream");
    wctx w = {job, form};
    return so_write_stream(f, put_doc, &w, err);
}

cuzk_status cuzk_snap_job_write_file(const cuzk_snap_job *job, cuzk_vanilla_form form,
                                     const char *path, cuzk_error *err)
{
    cuzk_status st = check(job, form, err);
    if (st)
        return st;
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals write: NULL path");
    wctx w = {job, form};
    return so_write_file(path, put_doc, &w, err);
}
