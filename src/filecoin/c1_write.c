/*
 * c1_write.c — writes a cuzk_c1_output as the JSON filecoin-ffi's serde_json writes for
 * SealCommitPhase1Output (the shape cuzk_c1_parse reads; see cuzk/c1.h and c1_output.c):
 * compact (no spaces), struct fields in their Rust declaration order, every 32-byte value
 * as an array of 32 integers, Column's PhantomData as "_h":null, LabelingProof's skipped.
 *
 * The document is streamed with stdio rather than built as a jansson tree: a 32 GiB C1
 * output has millions of integers, and the writer needs no JSON library. It goes to a
 * temporary beside the destination (cuzk/outfiles.h) and is renamed over it only once
 * complete, so a reader never sees half a file.
 *
 * Threading: pure apart from the file it writes; c1 is only read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/c1.h"
#include "filecoin/serde_out.h"

/* "key":MerkleProof; tree D is always Single */
static void put_merkle(FILE *f, const char *key, const cuzk_c1_merkle_proof *m,
                       const cuzk_porep_info *in, int tree_d)
{
    so_shape s = tree_d ? so_shape_single(m->n_levels)
                        : so_shape_of(in->base_levels, in->sub_arity, in->top_arity);
    fprintf(f, "\"%s\":", key);
    so_merkle_json(f, &s, m);
}

static void put_column(FILE *f, const cuzk_c1_column_proof *c, const cuzk_porep_info *in)
{
    fprintf(f, "{\"column\":{\"index\":%u,\"rows\":", c->index);
    so_doms(f, (const uint8_t(*)[32])c->rows, in->layers);
    fputs(",\"_h\":null},", f);
    put_merkle(f, "inclusion_proof", &c->proof, in, 0);
    fputc('}', f);
}

static void put_columns(FILE *f, const char *key, const cuzk_c1_column_proof *c, size_t n,
                        const cuzk_porep_info *in)
{
    fprintf(f, "\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        put_column(f, &c[i], in);
    }
    fputc(']', f);
}

static void put_labeling(FILE *f, const cuzk_c1_labeling_proof *l)
{
    fputs("{\"parents\":", f);
    so_doms(f, (const uint8_t(*)[32])l->parents, l->n_parents);
    fprintf(f, ",\"layer_index\":%u,\"node\":%" PRIu64 "}", l->layer_index, l->node);
}

static void put_challenge(FILE *f, const cuzk_c1_challenge_proof *p, const cuzk_porep_info *in)
{
    fputc('{', f);
    put_merkle(f, "comm_d_proofs", &p->comm_d_proof, in, 1);
    fputc(',', f);
    put_merkle(f, "comm_r_last_proof", &p->comm_r_last_proof, in, 0);
    fputs(",\"replica_column_proofs\":{\"c_x\":", f);
    put_column(f, &p->c_x, in);
    fputc(',', f);
    put_columns(f, "drg_parents", p->drg_parents, CUZK_C1_DRG_PARENTS, in);
    fputc(',', f);
    put_columns(f, "exp_parents", p->exp_parents, CUZK_C1_EXP_PARENTS, in);
    fputs("},\"labeling_proofs\":[", f);
    for (uint32_t l = 0; l < in->layers; l++) {
        if (l)
            fputc(',', f);
        put_labeling(f, &p->labeling[l]);
    }
    fputs("],\"encoding_proof\":", f);
    put_labeling(f, &p->encoding);
    fputc('}', f);
}

static void put_doc(FILE *f, const cuzk_c1_output *c1)
{
    const cuzk_porep_info *in = &c1->info;
    fprintf(f, "{\"registered_proof\":\"%s\",\"vanilla_proofs\":{\"%s\":[", in->name,
            in->vanilla_name);
    for (uint32_t k = 0; k < in->partitions; k++) {
        fputs(k ? ",[" : "[", f);
        for (uint32_t i = 0; i < in->challenges; i++) {
            if (i)
                fputc(',', f);
            put_challenge(f, &c1->proofs[(size_t)k * in->challenges + i], in);
        }
        fputc(']', f);
    }
    fputs("]},\"comm_r\":", f);
    so_dom(f, c1->comm_r);
    fputs(",\"comm_d\":", f);
    so_dom(f, c1->comm_d);
    fputs(",\"replica_id\":", f);
    so_dom(f, c1->replica_id);
    fputs(",\"seed\":", f);
    so_dom(f, c1->seed);
    fputs(",\"ticket\":", f);
    so_dom(f, c1->ticket);
    fputs("}\n", f);
}

/* The parser reads back only what the registered proof implies: refuse anything else
 * here rather than write a file it would reject. */
static cuzk_status check_shape(const cuzk_c1_output *c1, cuzk_error *err)
{
    cuzk_porep_info want;
    if (!c1->info.name || cuzk_porep_info_from_name(c1->info.name, &want, NULL) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "C1 write: unknown registered proof");
    const cuzk_porep_info *in = &c1->info;
    if (in->partitions != want.partitions || in->challenges != want.challenges ||
        in->layers != want.layers)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "C1 write: %u partition(s) x %u challenges x %u layers, but %s "
                              "has %u x %u x %u",
                              in->partitions, in->challenges, in->layers, want.name,
                              want.partitions, want.challenges, want.layers);
    if (!c1->proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 write: no proofs");
    return CUZK_OK;
}

static void put_doc_fn(FILE *f, const void *c1)
{
    put_doc(f, c1);
}

cuzk_status cuzk_c1_write_json(const cuzk_c1_output *c1, const char *path, cuzk_error *err)
{
    if (!c1 || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 write: NULL argument");
    cuzk_status st = check_shape(c1, err);
    if (st)
        return st;
    return so_write_file(path, put_doc_fn, c1, err);
}
