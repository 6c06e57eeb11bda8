/*
 * c1_output.c — the registered seal proof table and the strict parser of the PoRep C1
 * output JSON (shapes and field names in cuzk/c1.h; they follow rust-fil-proofs' serde
 * derives: MerkleProof{data: Single|Sub|Top}, InclusionPath{path}, PathElement{hashes,
 * index}, ColumnProof{column{index, rows, _h}, inclusion_proof}, LabelingProof and
 * EncodingProof{parents, layer_index, node}).
 *
 * json_dom builds the document tree; the parser then walks it against the shape the
 * registered proof implies and copies the values into one arena. Every count is compared
 * with the expected one before anything is allocated for it, and each stored 32-byte value
 * came from a JSON array of at least 65 bytes of input, so the arena is bounded by the
 * input size. Unknown object keys are ignored, as serde does.
 *
 * Threading: pure functions; no global state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/c1.h"
#include "cuzk/ff.h"
#include "filecoin/json_walk.h"

/* ---- registered proofs ------------------------------------------------------------- */

typedef struct size_row {
    const char *tag;         /* "2KiB" */
    uint64_t sector_size;
    uint32_t layers, partitions, ni_partitions, challenges;
    uint32_t sub_arity, top_arity;
} size_row;

/* Partitions and challenges per partition: filecoin-proofs' POREP_PARTITIONS and
 * POREP_MINIMUM_CHALLENGES (2 for test sizes, 176 -> ceil(176/10) = 18 for production);
 * NI-PoRep keeps the per-partition count and raises the partitions (26 / 2253 minimum). */
static const size_row k_sizes[] = {
    {"2KiB", 2048ull, 2, 1, 13, 2, 0, 0},
    {"8MiB", 8ull << 20, 2, 1, 13, 2, 0, 0},
    {"512MiB", 512ull << 20, 2, 1, 13, 2, 0, 0},
    {"32GiB", 32ull << 30, 11, 10, 126, 18, 8, 0},
    {"64GiB", 64ull << 30, 11, 10, 126, 18, 8, 2},
};

static const struct { const char *suffix; cuzk_porep_variant v; } k_variants[] = {
    {"V1", CUZK_POREP_V1},
    {"V1_1", CUZK_POREP_V1_1},
    {"V1_1_Feat_SyntheticPoRep", CUZK_POREP_SYNTHETIC},
    {"V1_2_Feat_NonInteractivePoRep", CUZK_POREP_NI},
};

static const char *const k_names[5][4] = {
    {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
     "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"},
    {"StackedDrg8MiBV1", "StackedDrg8MiBV1_1", "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
     "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep"},
    {"StackedDrg512MiBV1", "StackedDrg512MiBV1_1", "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
     "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep"},
    {"StackedDrg32GiBV1", "StackedDrg32GiBV1_1", "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
     "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"},
    {"StackedDrg64GiBV1", "StackedDrg64GiBV1_1", "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
     "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"},
};

static uint32_t log2_u64(uint64_t v)
{
    uint32_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

cuzk_status cuzk_porep_info_from_name(const char *name, cuzk_porep_info *out, cuzk_error *err)
{
    if (!name || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep info: NULL argument");
    for (size_t s = 0; s < 5; s++) {
        for (size_t v = 0; v < 4; v++) {
            if (strcmp(name, k_names[s][v]) != 0)
                continue;
            const size_row *r = &k_sizes[s];
            memset(out, 0, sizeof *out);
            out->name = k_names[s][v];
            out->vanilla_name = k_names[s][0];
            out->variant = k_variants[v].v;
            out->sector_size = r->sector_size;
            out->nodes = r->sector_size / 32;
            out->layers = r->layers;
            out->partitions = k_variants[v].v == CUZK_POREP_NI ? r->ni_partitions : r->partitions;
            out->challenges = r->challenges;
            out->tree_d_levels = log2_u64(out->nodes);
            out->base_arity = 8;
            out->sub_arity = r->sub_arity;
            out->top_arity = r->top_arity;
            uint64_t base_nodes = out->nodes;
            if (r->sub_arity)
                base_nodes /= r->sub_arity;
            if (r->top_arity)
                base_nodes /= r->top_arity;
            out->base_levels = log2_u64(base_nodes) / 3;
            return CUZK_OK;
        }
    }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "C1: unknown registered proof \"%.64s\"",
                          name);
}

cuzk_status cuzk_porep_info_from_abi(uint64_t abi, cuzk_porep_info *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep info: NULL argument");
    /* Go numbers the variants in runs of the five sizes, in k_names' orders */
    if (abi >= 5 * 4)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "unknown registered seal proof number %llu (Go's "
                              "abi.RegisteredSealProof: 0-19)",
                              (unsigned long long)abi);
    return cuzk_porep_info_from_name(k_names[abi % 5][abi / 5], out, err);
}

uint64_t cuzk_c1_merkle_node(const cuzk_c1_merkle_proof *m)
{
    uint64_t node = 0, scale = 1;
    for (uint32_t l = 0; l < m->n_levels && l < CUZK_C1_MAX_LEVELS; l++) {
        node += (uint64_t)m->index[l] * scale;
        scale *= m->arity[l];
    }
    return node;
}


/* ---- parse context: the shared JSON walk plus the registered proof ---------------------- */

typedef struct ctx {
    jw_ctx j;
    const cuzk_porep_info *info;
} ctx;

/* MerkleProof in tree D (sha = 1: binary, Single) or in tree R / C (Poseidon, shape of the
 * registered proof). */
static cuzk_status get_merkle(ctx *c, const jd_value *obj, const char *key, int sha,
                              cuzk_c1_merkle_proof *m)
{
    const cuzk_porep_info *in = c->info;
    jw_tree_shape s = {sha ? in->tree_d_levels : in->base_levels, sha ? 2 : in->base_arity,
                       sha ? 0 : in->sub_arity, sha ? 0 : in->top_arity, in->name};
    return jw_get_merkle(&c->j, obj, key, &s, m);
}

/* ---- vanilla proof parts ------------------------------------------------------------ */

static cuzk_status get_column(ctx *c, const jd_value *cp, cuzk_c1_column_proof *out)
{
    const jd_value *col = NULL, *rows = NULL;
    size_t o1 = 0, o2 = 0;
    uint64_t index = 0;
    cuzk_status st = jw_field(&c->j, cp, "column", &col, &o1);
    if (st || (st = jw_get_uint_field(&c->j, col, "index", c->info->nodes - 1, &index)))
        return st;
    out->index = (uint32_t)index;
    if ((st = jw_field(&c->j, col, "rows", &rows, &o2)) ||
        (st = jw_get_domains(&c->j, rows, c->info->layers, &out->rows)))
        return st;
    jw_pop(&c->j, o2);
    jw_pop(&c->j, o1);
    return get_merkle(c, cp, "inclusion_proof", 0, &out->proof);
}

static cuzk_status get_columns(ctx *c, const jd_value *rcp, const char *key, size_t n,
                               cuzk_c1_column_proof *out)
{
    const jd_value *arr = NULL;
    size_t o1 = 0;
    cuzk_status st = jw_field(&c->j, rcp, key, &arr, &o1);
    if (st || (st = jw_expect_array(&c->j, arr, n)))
        return st;
    for (size_t i = 0; i < n; i++) {
        size_t o2 = jw_push(&c->j, "[%zu]", i);
        if ((st = get_column(c, jd_array_get(arr, i), &out[i])))
            return st;
        jw_pop(&c->j, o2);
    }
    jw_pop(&c->j, o1);
    return CUZK_OK;
}

static cuzk_status get_labeling(ctx *c, const jd_value *lp, cuzk_c1_labeling_proof *out)
{
    const jd_value *parents = NULL;
    size_t o1 = 0;
    uint64_t layer = 0;
    cuzk_status st = jw_get_uint_field(&c->j, lp, "layer_index", c->info->layers, &layer);
    if (st || (st = jw_get_uint_field(&c->j, lp, "node", c->info->nodes - 1, &out->node)))
        return st;
    if (layer == 0)
        return jw_fail(&c->j, CUZK_ERR_FORMAT, "layer_index 0 (layers count from 1)");
    out->layer_index = (uint32_t)layer;
    if ((st = jw_field(&c->j, lp, "parents", &parents, &o1)) ||
        (st = jw_get_domains(&c->j, parents, CUZK_C1_TOTAL_PARENTS, &out->parents)))
        return st;
    out->n_parents = CUZK_C1_TOTAL_PARENTS;
    jw_pop(&c->j, o1);
    return CUZK_OK;
}

static cuzk_status get_challenge_proof(ctx *c, const jd_value *p, cuzk_c1_challenge_proof *out)
{
    const jd_value *rcp = NULL, *c_x = NULL, *labs = NULL, *enc = NULL;
    size_t o1 = 0, o2 = 0, o3 = 0;
    cuzk_status st;
    if ((st = get_merkle(c, p, "comm_d_proofs", 1, &out->comm_d_proof)) ||
        (st = get_merkle(c, p, "comm_r_last_proof", 0, &out->comm_r_last_proof)))
        return st;
    if ((st = jw_field(&c->j, p, "replica_column_proofs", &rcp, &o1)))
        return st;
    if ((st = jw_field(&c->j, rcp, "c_x", &c_x, &o2)) || (st = get_column(c, c_x, &out->c_x)))
        return st;
    jw_pop(&c->j, o2);
    if ((st = get_columns(c, rcp, "drg_parents", CUZK_C1_DRG_PARENTS, out->drg_parents)) ||
        (st = get_columns(c, rcp, "exp_parents", CUZK_C1_EXP_PARENTS, out->exp_parents)))
        return st;
    jw_pop(&c->j, o1);
    uint32_t layers = c->info->layers;
    if ((st = jw_field(&c->j, p, "labeling_proofs", &labs, &o1)) ||
        (st = jw_expect_array(&c->j, labs, layers)))
        return st;
    out->labeling = jw_arena_alloc(c->j.arena, layers * sizeof *out->labeling);
    if (!out->labeling)
        return jw_fail(&c->j, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; l < layers; l++) {
        o3 = jw_push(&c->j, "[%u]", l);
        if ((st = get_labeling(c, jd_array_get(labs, l), &out->labeling[l])))
            return st;
        jw_pop(&c->j, o3);
    }
    jw_pop(&c->j, o1);
    if ((st = jw_field(&c->j, p, "encoding_proof", &enc, &o1)) ||
        (st = get_labeling(c, enc, &out->encoding)))
        return st;
    jw_pop(&c->j, o1);
    return CUZK_OK;
}

static cuzk_status get_vanilla(ctx *c, const jd_value *root, cuzk_c1_output *o)
{
    const cuzk_porep_info *in = &o->info;
    const jd_value *vp = NULL, *parts = NULL;
    size_t o1 = 0, o2 = 0;
    cuzk_status st = jw_field(&c->j, root, "vanilla_proofs", &vp, &o1);
    if (st)
        return st;
    if (!jd_is_object(vp))
        return jw_fail(&c->j, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(vp));
    if (jd_object_size(vp) != 1 || !jd_object_get(vp, in->vanilla_name))
        return jw_fail(&c->j, CUZK_ERR_FORMAT, "expected exactly the key \"%s\" for %s",
                    in->vanilla_name, in->name);
    if ((st = jw_field(&c->j, vp, in->vanilla_name, &parts, &o2)) ||
        (st = jw_expect_array(&c->j, parts, in->partitions)))
        return st;
    for (uint32_t k = 0; k < in->partitions; k++) {
        size_t o3 = jw_push(&c->j, "[%u]", k);
        if ((st = jw_expect_array(&c->j, jd_array_get(parts, k), in->challenges)))
            return st;
        jw_pop(&c->j, o3);
    }
    size_t n = (size_t)in->partitions * in->challenges;
    o->proofs = jw_arena_alloc(c->j.arena, n * sizeof *o->proofs);
    if (!o->proofs)
        return jw_fail(&c->j, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < in->partitions; k++) {
        const jd_value *part = jd_array_get(parts, k);
        for (uint32_t i = 0; i < in->challenges; i++) {
            size_t o3 = jw_push(&c->j, "[%u][%u]", k, i);
            st = get_challenge_proof(c, jd_array_get(part, i),
                                     &o->proofs[(size_t)k * in->challenges + i]);
            if (st)
                return st;
            jw_pop(&c->j, o3);
        }
    }
    jw_pop(&c->j, o2);
    jw_pop(&c->j, o1);
    return CUZK_OK;
}

/* ---- top level ------------------------------------------------------------------------- */

static cuzk_status parse_doc(ctx *c, const char *json, size_t len, cuzk_c1_output *o, int depth)
{
    jd_error jerr;
    jd_doc *doc = jd_parse(json, len, &jerr);
    if (!doc)
        return jw_fail(&c->j, CUZK_ERR_FORMAT, "JSON error at line %d column %d: %.60s", jerr.line,
                    jerr.column, jerr.text);
    const jd_value *root = jd_root(doc);
    cuzk_status st = CUZK_OK;
    const jd_value *v = NULL;
    size_t old = 0;
    if (!jd_is_object(root)) {
        st = jw_fail(&c->j, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(root));
        goto out;
    }
    const jd_value *wrapped = jd_object_get(root, "Phase1Out");
    if (wrapped && depth == 0) {
        old = jw_push(&c->j, "Phase1Out(base64)");
        if (!jd_is_string(wrapped)) {
            st = jw_fail(&c->j, CUZK_ERR_FORMAT, "expected a base64 string, got %s",
                         jw_type_name(wrapped));
            goto out;
        }
        char *inner = NULL;
        size_t inner_len = 0;
        st = jw_b64_decode(&c->j, jd_string_value(wrapped), jd_string_length(wrapped), &inner,
                        &inner_len);
        if (!st) {
            st = parse_doc(c, inner, inner_len, o, 1);
            free(inner);
        }
        if (!st)
            jw_pop(&c->j, old);
        goto out;
    }
    if ((st = jw_field(&c->j, root, "registered_proof", &v, &old)))
        goto out;
    if (!jd_is_string(v)) {
        st = jw_fail(&c->j, CUZK_ERR_FORMAT, "expected a string, got %s", jw_type_name(v));
        goto out;
    }
    if ((st = cuzk_porep_info_from_name(jd_string_value(v), &o->info, NULL))) {
        st = jw_fail(&c->j, CUZK_ERR_UNSUPPORTED, "unknown registered proof \"%.64s\"",
                  jd_string_value(v));
        goto out;
    }
    jw_pop(&c->j, old);
    c->info = &o->info;
    if ((st = jw_get_bytes_field(&c->j, root, "comm_r", o->comm_r, 1)) ||
        (st = jw_get_bytes_field(&c->j, root, "comm_d", o->comm_d, 1)) ||
        (st = jw_get_bytes_field(&c->j, root, "replica_id", o->replica_id, 1)) ||
        (st = jw_get_bytes_field(&c->j, root, "seed", o->seed, 0)) ||
        (st = jw_get_bytes_field(&c->j, root, "ticket", o->ticket, 0)))
        goto out;
    st = get_vanilla(c, root, o);
out:
    jd_free(doc);
    return st;
}

cuzk_status cuzk_c1_parse(const char *json, size_t len, cuzk_c1_output **out, cuzk_error *err)
{
    if (!json || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 parse: NULL argument");
    *out = NULL;
    cuzk_c1_output *o = calloc(1, sizeof *o);
    if (!o)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "C1 parse: out of memory");
    ctx c = {.j = {.err = err, .arena = &o->arena_, .what = "C1"}};
    c.j.path[0] = '\0';
    cuzk_status st = parse_doc(&c, json, len, o, 0);
    if (st) {
        cuzk_c1_free(o);
        return st;
    }
    *out = o;
    return CUZK_OK;
}

void cuzk_c1_free(cuzk_c1_output *c1)
{
    if (!c1)
        return;
    jw_arena_free(c1->arena_);
    free(c1);
}
