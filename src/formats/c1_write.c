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
#include "cuzk/outfiles.h"

static void put_dom(FILE *f, const uint8_t d[32])
{
    fputc('[', f);
    for (int i = 0; i < 32; i++)
        fprintf(f, i ? ",%u" : "%u", d[i]);
    fputc(']', f);
}

static void put_doms(FILE *f, const uint8_t (*d)[32], size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        put_dom(f, d[i]);
    }
    fputc(']', f);
}

/* InclusionPath{path:[PathElement{hashes,index}]} over levels [from, to) of m; *sib walks
 * m->siblings. */
static void put_path(FILE *f, const char *key, const cuzk_c1_merkle_proof *m, uint32_t from,
                     uint32_t to, size_t *sib)
{
    fprintf(f, "\"%s\":{\"path\":[", key);
    for (uint32_t l = from; l < to; l++) {
        fputs(l > from ? ",{\"hashes\":" : "{\"hashes\":", f);
        put_doms(f, (const uint8_t(*)[32])m->siblings + *sib, m->arity[l] - 1u);
        *sib += m->arity[l] - 1u;
        fprintf(f, ",\"index\":%u}", m->index[l]);
    }
    fputs("]}", f);
}

/* MerkleProof{data:{Single{root,leaf,path} | Sub{base_proof,sub_proof,root,leaf} |
 * Top{base_proof,sub_proof,top_proof,root,leaf}}}; tree D is always Single. */
static void put_merkle(FILE *f, const char *key, const cuzk_c1_merkle_proof *m,
                       const cuzk_porep_info *in, int tree_d)
{
    size_t sib = 0;
    fprintf(f, "\"%s\":{\"data\":", key);
    if (tree_d || !in->sub_arity) {
        fputs("{\"Single\":{\"root\":", f);
        put_dom(f, m->root);
        fputs(",\"leaf\":", f);
        put_dom(f, m->leaf);
        fputc(',', f);
        put_path(f, "path", m, 0, m->n_levels, &sib);
        fputs("}}}", f);
        return;
    }
    uint32_t base = in->base_levels;
    fputs(in->top_arity ? "{\"Top\":{" : "{\"Sub\":{", f);
    put_path(f, "base_proof", m, 0, base, &sib);
    fputc(',', f);
    put_path(f, "sub_proof", m, base, base + 1, &sib);
    if (in->top_arity) {
        fputc(',', f);
        put_path(f, "top_proof", m, base + 1, base + 2, &sib);
    }
    fputs(",\"root\":", f);
    put_dom(f, m->root);
    fputs(",\"leaf\":", f);
    put_dom(f, m->leaf);
    fputs("}}}", f);
}

static void put_column(FILE *f, const cuzk_c1_column_proof *c, const cuzk_porep_info *in)
{
    fprintf(f, "{\"column\":{\"index\":%u,\"rows\":", c->index);
    put_doms(f, (const uint8_t(*)[32])c->rows, in->layers);
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
    put_doms(f, (const uint8_t(*)[32])l->parents, l->n_parents);
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
    put_dom(f, c1->comm_r);
    fputs(",\"comm_d\":", f);
    put_dom(f, c1->comm_d);
    fputs(",\"replica_id\":", f);
    put_dom(f, c1->replica_id);
    fputs(",\"seed\":", f);
    put_dom(f, c1->seed);
    fputs(",\"ticket\":", f);
    put_dom(f, c1->ticket);
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

cuzk_status cuzk_c1_write_json(const cuzk_c1_output *c1, const char *path, cuzk_error *err)
{
    if (!c1 || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 write: NULL argument");
    cuzk_status st = check_shape(c1, err);
    if (st)
        return st;
    cuzk_outfiles *set = NULL;
    size_t idx = 0;
    const char *tmp = NULL;
    if ((st = cuzk_outfiles_create(&set, err)) || (st = cuzk_outfiles_add(set, path, &idx, err)) ||
        (st = cuzk_outfiles_temp_path(set, idx, &tmp, err))) {
        cuzk_outfiles_destroy(set);
        return st;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
        cuzk_outfiles_destroy(set);
        return st;
    }
    put_doc(f, c1);
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(e));
    else
        st = cuzk_outfiles_commit(set, err);
    cuzk_outfiles_destroy(set);
    return st;
}
