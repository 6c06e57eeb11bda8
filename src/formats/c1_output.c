/*
 * c1_output.c — the registered seal proof table and the strict parser of the PoRep C1
 * output JSON (shapes and field names in cuzk/c1.h; they follow rust-fil-proofs' serde
 * derives: MerkleProof{data: Single|Sub|Top}, InclusionPath{path}, PathElement{hashes,
 * index}, ColumnProof{column{index, rows, _h}, inclusion_proof}, LabelingProof and
 * EncodingProof{parents, layer_index, node}).
 *
 * jansson builds the document tree; the parser then walks it against the shape the
 * registered proof implies and copies the values into one arena. Every count is compared
 * with the expected one before anything is allocated for it, and each stored 32-byte value
 * came from a JSON array of at least 65 bytes of input, so the arena is bounded by the
 * input size. Unknown object keys are ignored, as serde does.
 *
 * Without jansson (CUZK_HAVE_JANSSON undefined, the GPU machine) cuzk_c1_parse returns
 * CUZK_ERR_UNSUPPORTED; the table lookups still work.
 *
 * Threading: pure functions; no global state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/c1.h"
#include "cuzk/ff.h"

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

uint64_t cuzk_c1_merkle_node(const cuzk_c1_merkle_proof *m)
{
    uint64_t node = 0, scale = 1;
    for (uint32_t l = 0; l < m->n_levels && l < CUZK_C1_MAX_LEVELS; l++) {
        node += (uint64_t)m->index[l] * scale;
        scale *= m->arity[l];
    }
    return node;
}

#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>

/* ---- arena: chunks freed together ------------------------------------------------------ */

typedef struct chunk { struct chunk *next; max_align_t data[]; } chunk;

static void *arena_alloc(void **arena, size_t n)
{
    chunk *c = malloc(sizeof(chunk) + (n ? n : 1));
    if (!c)
        return NULL;
    c->next = *arena;
    *arena = c;
    memset(c->data, 0, n);
    return c->data;
}

static void arena_free(void *arena)
{
    for (chunk *c = arena; c;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
}

/* ---- parse context: the JSON path of the value being read ------------------------------ */

typedef struct ctx {
    char path[200];
    size_t plen;
    cuzk_error *err;
    void **arena;
    const cuzk_porep_info *info;
} ctx;

static size_t push(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t push(ctx *c, const char *fmt, ...)
{
    size_t old = c->plen;
    if (c->plen < sizeof c->path - 1) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(c->path + c->plen, sizeof c->path - c->plen, fmt, ap);
        va_end(ap);
        if (n > 0)
            c->plen += (size_t)n;
        if (c->plen > sizeof c->path - 1)
            c->plen = sizeof c->path - 1;
    }
    return old;
}

static void pop(ctx *c, size_t old)
{
    c->plen = old;
    c->path[old] = '\0';
}

static cuzk_status fail(ctx *c, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cuzk_status fail(ctx *c, cuzk_status code, const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_error_set(c->err, code, "C1 %s: %s", c->plen ? c->path : "(top)", what);
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* obj[key], which must exist; the path is extended by ".key" on success (caller pops). */
static cuzk_status field(ctx *c, const json_t *obj, const char *key, json_t **out, size_t *old)
{
    if (!json_is_object(obj))
        return fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", type_name(obj));
    *out = json_object_get(obj, key);
    if (!*out)
        return fail(c, CUZK_ERR_FORMAT, "missing field \"%s\"", key);
    *old = push(c, ".%s", key);
    return CUZK_OK;
}

static cuzk_status expect_array(ctx *c, const json_t *v, size_t want)
{
    if (!json_is_array(v))
        return fail(c, CUZK_ERR_FORMAT, "expected an array, got %s", type_name(v));
    if (json_array_size(v) != want)
        return fail(c, CUZK_ERR_LENGTH, "expected %zu elements, got %zu", want,
                    json_array_size(v));
    return CUZK_OK;
}

static cuzk_status get_uint(ctx *c, const json_t *v, uint64_t max, uint64_t *out)
{
    if (!json_is_integer(v))
        return fail(c, CUZK_ERR_FORMAT, "expected an integer, got %s", type_name(v));
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x > max)
        return fail(c, CUZK_ERR_FORMAT, "integer %lld out of range 0..%llu", (long long)x,
                    (unsigned long long)max);
    *out = (uint64_t)x;
    return CUZK_OK;
}

/* 32 integers 0..255: raw bytes (seed, ticket), or with canonical set a domain value, the
 * LE repr of a canonical Fr. */
static cuzk_status get_bytes32(ctx *c, const json_t *v, uint8_t out[32], int canonical)
{
    cuzk_status st = expect_array(c, v, 32);
    if (st)
        return st;
    for (size_t i = 0; i < 32; i++) {
        uint64_t b = 0;
        size_t old = push(c, "[%zu]", i);
        st = get_uint(c, json_array_get(v, i), 255, &b);
        pop(c, old);
        if (st)
            return st;
        out[i] = (uint8_t)b;
    }
    cuzk_fr f;
    if (canonical && cuzk_fr_from_bytes_le(&f, out) != CUZK_OK)
        return fail(c, CUZK_ERR_NONCANONICAL, "value is not a canonical field element (>= r)");
    return CUZK_OK;
}

static cuzk_status get_domain(ctx *c, const json_t *v, uint8_t out[32])
{
    return get_bytes32(c, v, out, 1);
}

static cuzk_status get_bytes_field(ctx *c, const json_t *obj, const char *key, uint8_t out[32],
                                   int canonical)
{
    json_t *v = NULL;
    size_t old = 0;
    cuzk_status st = field(c, obj, key, &v, &old);
    if (st)
        return st;
    st = get_bytes32(c, v, out, canonical);
    pop(c, old);
    return st;
}

static cuzk_status get_domain_field(ctx *c, const json_t *obj, const char *key, uint8_t out[32])
{
    return get_bytes_field(c, obj, key, out, 1);
}

static cuzk_status get_uint_field(ctx *c, const json_t *obj, const char *key, uint64_t max,
                                  uint64_t *out)
{
    json_t *v = NULL;
    size_t old = 0;
    cuzk_status st = field(c, obj, key, &v, &old);
    if (st)
        return st;
    st = get_uint(c, v, max, out);
    pop(c, old);
    return st;
}

/* An array of `want` domain values into a fresh arena array. */
static cuzk_status get_domains(ctx *c, const json_t *v, size_t want, uint8_t (**out)[32])
{
    cuzk_status st = expect_array(c, v, want);
    if (st)
        return st;
    *out = arena_alloc(c->arena, want * 32);
    if (!*out)
        return fail(c, CUZK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < want; i++) {
        size_t old = push(c, "[%zu]", i);
        st = get_domain(c, json_array_get(v, i), (*out)[i]);
        pop(c, old);
        if (st)
            return st;
    }
    return CUZK_OK;
}

/* ---- Merkle proofs ---------------------------------------------------------------------- */

/* InclusionPath {path: [PathElement{hashes, index}]} of `levels` levels of `arity`,
 * appended to m at level m->n_levels, siblings at *sib. */
static cuzk_status get_inclusion_path(ctx *c, const json_t *obj, const char *key,
                                      uint32_t levels, uint32_t arity,
                                      cuzk_c1_merkle_proof *m, size_t *sib)
{
    json_t *ip = NULL, *path = NULL;
    size_t o1 = 0, o2 = 0;
    cuzk_status st = field(c, obj, key, &ip, &o1);
    if (st)
        return st;
    if ((st = field(c, ip, "path", &path, &o2)) || (st = expect_array(c, path, levels)))
        return st;
    for (uint32_t l = 0; l < levels; l++) {
        json_t *el = json_array_get(path, l);
        size_t o3 = push(c, "[%u]", l), o4 = 0;
        uint64_t index = 0;
        json_t *hashes = NULL;
        if ((st = get_uint_field(c, el, "index", arity - 1, &index)))
            return st;
        if ((st = field(c, el, "hashes", &hashes, &o4)) ||
            (st = expect_array(c, hashes, arity - 1)))
            return st;
        for (uint32_t h = 0; h < arity - 1; h++) {
            size_t o5 = push(c, "[%u]", h);
            st = get_domain(c, json_array_get(hashes, h), m->siblings[*sib + h]);
            pop(c, o5);
            if (st)
                return st;
        }
        *sib += arity - 1;
        m->arity[m->n_levels] = (uint8_t)arity;
        m->index[m->n_levels] = (uint8_t)index;
        m->n_levels++;
        pop(c, o4);
        pop(c, o3);
    }
    pop(c, o2);
    pop(c, o1);
    return CUZK_OK;
}

/* MerkleProof {data: {Single|Sub|Top: ...}} in tree D (sha = 1: binary, Single) or in
 * tree R / C (Poseidon, shape of the registered proof). */
static cuzk_status get_merkle(ctx *c, const json_t *obj, const char *key, int sha,
                              cuzk_c1_merkle_proof *m)
{
    const cuzk_porep_info *in = c->info;
    const char *want = sha || !in->sub_arity ? "Single" : !in->top_arity ? "Sub" : "Top";
    json_t *mp = NULL, *data = NULL, *body = NULL;
    size_t o1 = 0, o2 = 0, o3 = 0;
    cuzk_status st = field(c, obj, key, &mp, &o1);
    if (st || (st = field(c, mp, "data", &data, &o2)))
        return st;
    if (!json_is_object(data))
        return fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", type_name(data));
    if (json_object_size(data) != 1 || !json_object_get(data, want)) {
        const char *got = json_object_size(data) ? json_object_iter_key(json_object_iter(data))
                                                 : "nothing";
        return fail(c, CUZK_ERR_FORMAT, "expected one \"%s\" proof for %s, got \"%.32s\"%s",
                    want, in->name, got, json_object_size(data) > 1 ? " and more" : "");
    }
    if ((st = field(c, data, want, &body, &o3)))
        return st;
    uint32_t base_levels = sha ? in->tree_d_levels : in->base_levels;
    uint32_t base_arity = sha ? 2 : in->base_arity;
    size_t n_sib = (size_t)base_levels * (base_arity - 1);
    if (!sha && in->sub_arity)
        n_sib += in->sub_arity - 1;
    if (!sha && in->top_arity)
        n_sib += in->top_arity - 1;
    m->siblings = arena_alloc(c->arena, n_sib * 32);
    if (!m->siblings)
        return fail(c, CUZK_ERR_NOMEM, "out of memory");
    m->n_levels = 0;
    size_t sib = 0;
    if ((st = get_domain_field(c, body, "root", m->root)) ||
        (st = get_domain_field(c, body, "leaf", m->leaf)))
        return st;
    if (strcmp(want, "Single") == 0) {
        st = get_inclusion_path(c, body, "path", base_levels, base_arity, m, &sib);
    } else {
        st = get_inclusion_path(c, body, "base_proof", base_levels, base_arity, m, &sib);
        if (!st)
            st = get_inclusion_path(c, body, "sub_proof", 1, in->sub_arity, m, &sib);
        if (!st && in->top_arity)
            st = get_inclusion_path(c, body, "top_proof", 1, in->top_arity, m, &sib);
    }
    if (st)
        return st;
    pop(c, o3);
    pop(c, o2);
    pop(c, o1);
    return CUZK_OK;
}

/* ---- vanilla proof parts ------------------------------------------------------------ */

static cuzk_status get_column(ctx *c, const json_t *cp, cuzk_c1_column_proof *out)
{
    json_t *col = NULL, *rows = NULL;
    size_t o1 = 0, o2 = 0;
    uint64_t index = 0;
    cuzk_status st = field(c, cp, "column", &col, &o1);
    if (st || (st = get_uint_field(c, col, "index", c->info->nodes - 1, &index)))
        return st;
    out->index = (uint32_t)index;
    if ((st = field(c, col, "rows", &rows, &o2)) ||
        (st = get_domains(c, rows, c->info->layers, &out->rows)))
        return st;
    pop(c, o2);
    pop(c, o1);
    return get_merkle(c, cp, "inclusion_proof", 0, &out->proof);
}

static cuzk_status get_columns(ctx *c, const json_t *rcp, const char *key, size_t n,
                               cuzk_c1_column_proof *out)
{
    json_t *arr = NULL;
    size_t o1 = 0;
    cuzk_status st = field(c, rcp, key, &arr, &o1);
    if (st || (st = expect_array(c, arr, n)))
        return st;
    for (size_t i = 0; i < n; i++) {
        size_t o2 = push(c, "[%zu]", i);
        if ((st = get_column(c, json_array_get(arr, i), &out[i])))
            return st;
        pop(c, o2);
    }
    pop(c, o1);
    return CUZK_OK;
}

static cuzk_status get_labeling(ctx *c, const json_t *lp, cuzk_c1_labeling_proof *out)
{
    json_t *parents = NULL;
    size_t o1 = 0;
    uint64_t layer = 0;
    cuzk_status st = get_uint_field(c, lp, "layer_index", c->info->layers, &layer);
    if (st || (st = get_uint_field(c, lp, "node", c->info->nodes - 1, &out->node)))
        return st;
    if (layer == 0)
        return fail(c, CUZK_ERR_FORMAT, "layer_index 0 (layers count from 1)");
    out->layer_index = (uint32_t)layer;
    if ((st = field(c, lp, "parents", &parents, &o1)) ||
        (st = get_domains(c, parents, CUZK_C1_TOTAL_PARENTS, &out->parents)))
        return st;
    out->n_parents = CUZK_C1_TOTAL_PARENTS;
    pop(c, o1);
    return CUZK_OK;
}

static cuzk_status get_challenge_proof(ctx *c, const json_t *p, cuzk_c1_challenge_proof *out)
{
    json_t *rcp = NULL, *c_x = NULL, *labs = NULL, *enc = NULL;
    size_t o1 = 0, o2 = 0, o3 = 0;
    cuzk_status st;
    if ((st = get_merkle(c, p, "comm_d_proofs", 1, &out->comm_d_proof)) ||
        (st = get_merkle(c, p, "comm_r_last_proof", 0, &out->comm_r_last_proof)))
        return st;
    if ((st = field(c, p, "replica_column_proofs", &rcp, &o1)))
        return st;
    if ((st = field(c, rcp, "c_x", &c_x, &o2)) || (st = get_column(c, c_x, &out->c_x)))
        return st;
    pop(c, o2);
    if ((st = get_columns(c, rcp, "drg_parents", CUZK_C1_DRG_PARENTS, out->drg_parents)) ||
        (st = get_columns(c, rcp, "exp_parents", CUZK_C1_EXP_PARENTS, out->exp_parents)))
        return st;
    pop(c, o1);
    uint32_t layers = c->info->layers;
    if ((st = field(c, p, "labeling_proofs", &labs, &o1)) ||
        (st = expect_array(c, labs, layers)))
        return st;
    out->labeling = arena_alloc(c->arena, layers * sizeof *out->labeling);
    if (!out->labeling)
        return fail(c, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t l = 0; l < layers; l++) {
        o3 = push(c, "[%u]", l);
        if ((st = get_labeling(c, json_array_get(labs, l), &out->labeling[l])))
            return st;
        pop(c, o3);
    }
    pop(c, o1);
    if ((st = field(c, p, "encoding_proof", &enc, &o1)) ||
        (st = get_labeling(c, enc, &out->encoding)))
        return st;
    pop(c, o1);
    return CUZK_OK;
}

static cuzk_status get_vanilla(ctx *c, const json_t *root, cuzk_c1_output *o)
{
    const cuzk_porep_info *in = &o->info;
    json_t *vp = NULL, *parts = NULL;
    size_t o1 = 0, o2 = 0;
    cuzk_status st = field(c, root, "vanilla_proofs", &vp, &o1);
    if (st)
        return st;
    if (!json_is_object(vp))
        return fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", type_name(vp));
    if (json_object_size(vp) != 1 || !json_object_get(vp, in->vanilla_name))
        return fail(c, CUZK_ERR_FORMAT, "expected exactly the key \"%s\" for %s",
                    in->vanilla_name, in->name);
    if ((st = field(c, vp, in->vanilla_name, &parts, &o2)) ||
        (st = expect_array(c, parts, in->partitions)))
        return st;
    for (uint32_t k = 0; k < in->partitions; k++) {
        size_t o3 = push(c, "[%u]", k);
        if ((st = expect_array(c, json_array_get(parts, k), in->challenges)))
            return st;
        pop(c, o3);
    }
    size_t n = (size_t)in->partitions * in->challenges;
    o->proofs = arena_alloc(c->arena, n * sizeof *o->proofs);
    if (!o->proofs)
        return fail(c, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < in->partitions; k++) {
        const json_t *part = json_array_get(parts, k);
        for (uint32_t i = 0; i < in->challenges; i++) {
            size_t o3 = push(c, "[%u][%u]", k, i);
            st = get_challenge_proof(c, json_array_get(part, i),
                                     &o->proofs[(size_t)k * in->challenges + i]);
            if (st)
                return st;
            pop(c, o3);
        }
    }
    pop(c, o2);
    pop(c, o1);
    return CUZK_OK;
}

/* ---- base64 wrapper -------------------------------------------------------------------- */

static int b64_val(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Strict standard base64 with padding (Go's encoding/json form of []byte). */
static cuzk_status b64_decode(ctx *c, const char *s, size_t n, char **out, size_t *out_len)
{
    if (n % 4)
        return fail(c, CUZK_ERR_FORMAT, "base64 length %zu is not a multiple of 4", n);
    size_t pad = 0;
    if (n && s[n - 1] == '=')
        pad = n >= 2 && s[n - 2] == '=' ? 2 : 1;
    char *buf = malloc(n / 4 * 3 + 1);
    if (!buf)
        return fail(c, CUZK_ERR_NOMEM, "out of memory");
    size_t w = 0;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t acc = 0;
        for (size_t j = 0; j < 4; j++) {
            int v = (i + j >= n - pad) ? 0 : b64_val((unsigned char)s[i + j]);
            if (v < 0) {
                free(buf);
                return fail(c, CUZK_ERR_FORMAT, "bad base64 character at offset %zu", i + j);
            }
            acc = acc << 6 | (uint32_t)v;
        }
        buf[w++] = (char)(acc >> 16);
        buf[w++] = (char)(acc >> 8);
        buf[w++] = (char)acc;
    }
    w -= pad;
    if (pad && (s[n - pad - 1] && (b64_val((unsigned char)s[n - pad - 1]) &
                                   (pad == 2 ? 0x0f : 0x03)))) {
        free(buf);
        return fail(c, CUZK_ERR_FORMAT, "non-canonical base64 padding bits");
    }
    *out = buf;
    *out_len = w;
    return CUZK_OK;
}

/* ---- top level ------------------------------------------------------------------------- */

static cuzk_status parse_doc(ctx *c, const char *json, size_t len, cuzk_c1_output *o, int depth)
{
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return fail(c, CUZK_ERR_FORMAT, "JSON error at line %d column %d: %.60s", jerr.line,
                    jerr.column, jerr.text);
    cuzk_status st = CUZK_OK;
    json_t *v = NULL;
    size_t old = 0;
    if (!json_is_object(root)) {
        st = fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", type_name(root));
        goto out;
    }
    json_t *wrapped = json_object_get(root, "Phase1Out");
    if (wrapped && depth == 0) {
        old = push(c, "Phase1Out(base64)");
        if (!json_is_string(wrapped)) {
            st = fail(c, CUZK_ERR_FORMAT, "expected a base64 string, got %s", type_name(wrapped));
            goto out;
        }
        char *inner = NULL;
        size_t inner_len = 0;
        st = b64_decode(c, json_string_value(wrapped), json_string_length(wrapped), &inner,
                        &inner_len);
        if (!st) {
            st = parse_doc(c, inner, inner_len, o, 1);
            free(inner);
        }
        if (!st)
            pop(c, old);
        goto out;
    }
    if ((st = field(c, root, "registered_proof", &v, &old)))
        goto out;
    if (!json_is_string(v)) {
        st = fail(c, CUZK_ERR_FORMAT, "expected a string, got %s", type_name(v));
        goto out;
    }
    if ((st = cuzk_porep_info_from_name(json_string_value(v), &o->info, NULL))) {
        st = fail(c, CUZK_ERR_UNSUPPORTED, "unknown registered proof \"%.64s\"",
                  json_string_value(v));
        goto out;
    }
    pop(c, old);
    c->info = &o->info;
    if ((st = get_domain_field(c, root, "comm_r", o->comm_r)) ||
        (st = get_domain_field(c, root, "comm_d", o->comm_d)) ||
        (st = get_domain_field(c, root, "replica_id", o->replica_id)) ||
        (st = get_bytes_field(c, root, "seed", o->seed, 0)) ||
        (st = get_bytes_field(c, root, "ticket", o->ticket, 0)))
        goto out;
    st = get_vanilla(c, root, o);
out:
    json_decref(root);
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
    ctx c = {.err = err, .arena = &o->arena_};
    c.path[0] = '\0';
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
    arena_free(c1->arena_);
    free(c1);
}

#else /* !CUZK_HAVE_JANSSON */

cuzk_status cuzk_c1_parse(const char *json, size_t len, cuzk_c1_output **out, cuzk_error *err)
{
    (void)json;
    (void)len;
    if (out)
        *out = NULL;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "C1 parse: built without jansson");
}

void cuzk_c1_free(cuzk_c1_output *c1)
{
    (void)c1;
}

#endif /* CUZK_HAVE_JANSSON */
