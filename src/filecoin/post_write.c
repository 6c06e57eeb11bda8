/*
 * post_write.c — writes a PoSt job (cuzk/post.h) as the job document cuzk_post_job_parse
 * reads: {"registered_proof", "randomness", "partition_index", "vanilla_proofs"}, each
 * FallbackPoStSectorProof as filecoin-proofs' serde derive writes it in serde_json, or as
 * base64 of its bincode bytes (the form lotus and curio hand to filecoin-ffi). Streamed with
 * stdio (filecoin/serde_out.h), so it needs no JSON library and a 32 GiB partition never
 * exists as a JSON tree.
 *
 * Threading: pure apart from the stream it writes; the job is only read.
 */
#include <inttypes.h>

#include "cuzk/post.h"
#include "filecoin/serde_out.h"

typedef struct wctx {
    const cuzk_post_job *job;
    cuzk_vanilla_form form;
} wctx;

static void put_sector_json(FILE *f, const so_shape *s, const cuzk_post_sector_proof *sp)
{
    fprintf(f, "{\"sector_id\":%" PRIu64 ",\"comm_r\":", sp->sector_id);
    so_dom(f, sp->comm_r);
    fputs(",\"vanilla_proof\":{\"sectors\":[{\"inclusion_proofs\":[", f);
    for (uint32_t c = 0; c < sp->n_proofs; c++) {
        if (c)
            fputc(',', f);
        so_merkle_json(f, s, &sp->proofs[c]);
    }
    fputs("],\"comm_c\":", f);
    so_dom(f, sp->comm_c);
    fputs(",\"comm_r_last\":", f);
    so_dom(f, sp->comm_r_last);
    fputs("}]}}", f);
}

static void put_sector_bincode(FILE *f, const so_shape *s, const cuzk_post_sector_proof *sp)
{
    so_b64 b = so_b64_begin(f);
    fputc('"', f);
    so_b64_u64(&b, sp->sector_id);
    so_b64_put(&b, sp->comm_r, 32);
    so_b64_u64(&b, 1); /* vanilla_proof.sectors */
    so_b64_u64(&b, sp->n_proofs);
    for (uint32_t c = 0; c < sp->n_proofs; c++)
        so_merkle_bincode(&b, s, &sp->proofs[c]);
    so_b64_put(&b, sp->comm_c, 32);
    so_b64_put(&b, sp->comm_r_last, 32);
    so_b64_end(&b);
    fputc('"', f);
}

static void put_doc(FILE *f, const void *arg)
{
    const wctx *w = arg;
    const cuzk_post_job *job = w->job;
    const cuzk_post_info *in = &job->info;
    so_shape s = so_shape_of(in->base_levels, in->sub_arity, in->top_arity);
    fprintf(f, "{\"registered_proof\":\"%s\",\"randomness\":", in->name);
    so_dom(f, job->randomness);
    fprintf(f, ",\"partition_index\":%u,\"vanilla_proofs\":[", job->partition_index);
    for (uint32_t i = 0; i < job->n_sectors; i++) {
        if (i)
            fputc(',', f);
        if (w->form == CUZK_VANILLA_BINCODE)
            put_sector_bincode(f, &s, &job->sectors[i]);
        else
            put_sector_json(f, &s, &job->sectors[i]);
    }
    fputs("]}\n", f);
}

/* Refuses what the parser would not read back as the same job. */
static cuzk_status check(const cuzk_post_job *job, cuzk_vanilla_form form, cuzk_error *err)
{
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt write: NULL job");
    if (form != CUZK_VANILLA_JSON && form != CUZK_VANILLA_BINCODE)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt write: unknown form %d", (int)form);
    cuzk_post_info want;
    if (!job->info.name || cuzk_post_info_from_name(job->info.name, &want, NULL) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoSt write: unknown registered proof");
    cuzk_post_partition p = cuzk_post_job_partition(job);
    cuzk_error e = {0};
    if (cuzk_post_partition_check_shape(&p, &e) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt write: %s", e.msg);
    return CUZK_OK;
}

cuzk_status cuzk_post_job_write(const cuzk_post_job *job, cuzk_vanilla_form form, FILE *f,
                                cuzk_error *err)
{
    cuzk_status st = check(job, form, err);
    if (st)
        return st;
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt write: NULL stream");
    wctx w = {job, form};
    return so_write_stream(f, put_doc, &w, err);
}

cuzk_status cuzk_post_job_write_file(const cuzk_post_job *job, cuzk_vanilla_form form,
                                     const char *path, cuzk_error *err)
{
    cuzk_status st = check(job, form, err);
    if (st)
        return st;
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt write: NULL path");
    wctx w = {job, form};
    return so_write_file(path, put_doc, &w, err);
}
