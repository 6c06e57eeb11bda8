/*
 * snap_fixture.c — see snap_fixture.h.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "snap_fixture.h"
#include "test_rng.h"

#define MAXL CUZK_C1_MAX_LEVELS
#define MAX_NODES (1u << 16)

/* tree shape: per level arity; sha: binary SHA-256 pairs */
typedef struct shape {
    uint32_t levels, arity[MAXL];
    int sha;
    uint32_t base_levels, sub_arity, top_arity; /* for the MerkleProof variant */
} shape;

typedef struct tree {
    uint32_t levels;
    uint8_t (*lv[MAXL + 1])[32];
    size_t len[MAXL + 1];
} tree;

static shape r_shape(const cuzk_snap_info *in)
{
    shape s = {0};
    s.levels = cuzk_snap_info_r_levels(in);
    for (uint32_t l = 0; l < s.levels; l++)
        s.arity[l] = l < in->base_levels ? in->base_arity
                     : (l == in->base_levels && in->sub_arity) ? in->sub_arity
                                                                : in->top_arity;
    s.base_levels = in->base_levels;
    s.sub_arity = in->sub_arity;
    s.top_arity = in->top_arity;
    return s;
}

static shape d_shape(const cuzk_snap_info *in)
{
    if (in->variant == CUZK_SNAP_POSEIDON)
        return r_shape(in);
    shape s = {0};
    s.levels = s.base_levels = in->challenge_bits;
    for (uint32_t l = 0; l < s.levels; l++)
        s.arity[l] = 2;
    s.sha = 1;
    return s;
}

static void hash_children(const shape *s, uint32_t a, uint8_t (*in)[32], uint8_t out[32])
{
    if (s->sha) {
        unsigned int dl = 0;
        EVP_Digest(in, 64, out, &dl, EVP_sha256(), NULL);
        out[31] &= 0x3f; /* trim_to_fr32 */
        return;
    }
    cuzk_fr f[8], h;
    for (uint32_t i = 0; i < a; i++)
        cuzk_fr_from_bytes_le(&f[i], in[i]);
    cuzk_poseidon_hash(&h, f, a, NULL);
    cuzk_fr_to_bytes_le(out, &h);
}

static void tree_free(tree *t)
{
    for (uint32_t l = 0; l <= t->levels; l++)
        free(t->lv[l]);
    memset(t, 0, sizeof *t);
}

/* takes ownership of leaves */
static int tree_build(tree *t, const shape *s, uint8_t (*leaves)[32], size_t n)
{
    memset(t, 0, sizeof *t);
    t->levels = s->levels;
    t->lv[0] = leaves;
    t->len[0] = n;
    for (uint32_t l = 0; l < s->levels; l++) {
        size_t m = t->len[l] / s->arity[l];
        t->lv[l + 1] = malloc(m * 32);
        if (!t->lv[l + 1])
            return -1;
        t->len[l + 1] = m;
        for (size_t i = 0; i < m; i++)
            hash_children(s, s->arity[l], &t->lv[l][i * s->arity[l]], t->lv[l + 1][i]);
    }
    return t->len[s->levels] == 1 ? 0 : -1;
}

static int tree_proof(const tree *t, const shape *s, uint64_t node, cuzk_c1_merkle_proof *m)
{
    size_t n_sib = 0;
    for (uint32_t l = 0; l < s->levels; l++)
        n_sib += s->arity[l] - 1;
    m->siblings = malloc(n_sib ? n_sib * 32 : 1);
    if (!m->siblings)
        return -1;
    memcpy(m->leaf, t->lv[0][node], 32);
    memcpy(m->root, t->lv[s->levels][0], 32);
    m->n_levels = s->levels;
    size_t k = 0;
    uint64_t pos = node;
    for (uint32_t l = 0; l < s->levels; l++) {
        uint32_t a = s->arity[l];
        m->arity[l] = (uint8_t)a;
        m->index[l] = (uint8_t)(pos % a);
        uint64_t first = pos - pos % a;
        for (uint32_t j = 0; j < a; j++)
            if (first + j != pos)
                memcpy(m->siblings[k++], t->lv[l][first + j], 32);
        pos /= a;
    }
    return 0;
}

static void rand_value(uint8_t out[32])
{
    cuzk_fr f;
    test_rand_fr(&f);
    cuzk_fr_to_bytes_le(out, &f);
}

static void comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32])
{
    cuzk_fr pre[2], h;
    cuzk_fr_from_bytes_le(&pre[0], comm_c);
    cuzk_fr_from_bytes_le(&pre[1], root);
    cuzk_poseidon_hash(&h, pre, 2, NULL);
    cuzk_fr_to_bytes_le(out, &h);
}

int sf_make(sf_set *out, const cuzk_snap_info *in)
{
    memset(out, 0, sizeof *out);
    if (in->nodes > MAX_NODES)
        return -1;
    out->info = *in;
    out->h = in->h;
    out->n = in->partitions;
    size_t n = (size_t)in->nodes;
    shape rs = r_shape(in), ds = d_shape(in);
    tree t_old = {0}, t_d = {0}, t_new = {0};
    uint8_t(*old)[32] = malloc(n * 32), (*data)[32] = malloc(n * 32), (*nw)[32] = malloc(n * 32);
    uint64_t *ch = malloc(in->challenges * sizeof *ch);
    out->parts = calloc(out->n, sizeof *out->parts);
    if (!old || !data || !nw || !ch || !out->parts) {
        free(old), free(data), free(nw);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        rand_value(old[i]);
        /* data as sealed pieces are: any bytes with the top two bits clear */
        test_rng_bytes(data[i], 32);
        data[i][31] &= 0x3f;
    }
    if (tree_build(&t_old, &rs, old, n) || tree_build(&t_d, &ds, data, n))
        goto fail_nw;
    uint8_t comm_c[32];
    rand_value(comm_c);
    comm_r(out->comm_r_old, comm_c, t_old.lv[rs.levels][0]);
    memcpy(out->comm_d_new, t_d.lv[ds.levels][0], 32);
    cuzk_fr phi;
    if (cuzk_snap_phi(&phi, out->comm_d_new, out->comm_r_old, NULL) != CUZK_OK)
        goto fail_nw;
    uint32_t shr = in->challenge_bits - out->h;
    for (size_t i = 0; i < n; i++) {
        cuzk_fr o, d, rho;
        cuzk_fr_from_bytes_le(&o, old[i]);
        cuzk_fr_from_bytes_le(&d, data[i]);
        cuzk_snap_rho(&rho, &phi, (uint64_t)i >> shr);
        cuzk_fr_mul(&d, &d, &rho);
        cuzk_fr_add(&o, &o, &d);
        cuzk_fr_to_bytes_le(nw[i], &o);
    }
    if (tree_build(&t_new, &rs, nw, n))
        goto fail_trees;
    comm_r(out->comm_r_new, comm_c, t_new.lv[rs.levels][0]);
    uint32_t apex_level = in->challenge_bits - in->partition_bits - in->apex_bits;
    for (uint32_t k = 0; k < out->n; k++) {
        cuzk_snap_partition_proof *pp = &out->parts[k];
        memcpy(pp->comm_c, comm_c, 32);
        pp->n_apex = in->apex_leaves;
        pp->n_challenges = in->challenges;
        pp->apex_leaves = malloc(in->apex_leaves ? in->apex_leaves * 32 : 1);
        pp->challenges = calloc(in->challenges, sizeof *pp->challenges);
        if (!pp->apex_leaves || !pp->challenges)
            goto fail_trees;
        if (in->apex_leaves)
            memcpy(pp->apex_leaves, t_d.lv[apex_level][(size_t)k * in->apex_leaves],
                   (size_t)in->apex_leaves * 32);
        if (cuzk_snap_challenges(in, out->comm_r_new, k, ch, NULL) != CUZK_OK)
            goto fail_trees;
        for (uint32_t c = 0; c < in->challenges; c++) {
            cuzk_snap_challenge_proof *cp = &pp->challenges[c];
            if (tree_proof(&t_old, &rs, ch[c], &cp->r_old) ||
                tree_proof(&t_d, &ds, ch[c], &cp->d_new) ||
                tree_proof(&t_new, &rs, ch[c], &cp->r_new))
                goto fail_trees;
        }
    }
    tree_free(&t_old), tree_free(&t_d), tree_free(&t_new);
    free(ch);
    return 0;
fail_nw:
    free(nw);
fail_trees:
    tree_free(&t_old), tree_free(&t_d), tree_free(&t_new);
fail:
    free(ch);
    sf_free(out);
    return -1;
}

void sf_free(sf_set *s)
{
    if (!s)
        return;
    for (uint32_t k = 0; s->parts && k < s->n; k++) {
        cuzk_snap_partition_proof *pp = &s->parts[k];
        for (uint32_t c = 0; pp->challenges && c < pp->n_challenges; c++) {
            free(pp->challenges[c].r_old.siblings);
            free(pp->challenges[c].d_new.siblings);
            free(pp->challenges[c].r_new.siblings);
        }
        free(pp->challenges);
        free(pp->apex_leaves);
    }
    free(s->parts);
    memset(s, 0, sizeof *s);
}

/* ---- JSON (serde_json of storage-proofs-update's types) ---- */

static json_t *bytes32(const uint8_t b[32])
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(a, json_integer(b[i]));
    return a;
}

static json_t *incl_path(const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to)
{
    json_t *path = json_array();
    size_t k = 0;
    for (uint32_t l = 0; l < from; l++)
        k += m->arity[l] - 1u;
    for (uint32_t l = from; l < to; l++) {
        json_t *h = json_array();
        for (uint32_t j = 0; j + 1 < m->arity[l]; j++)
            json_array_append_new(h, bytes32(m->siblings[k++]));
        json_array_append_new(path, json_pack("{s:o,s:i}", "hashes", h, "index",
                                              (json_int_t)m->index[l]));
    }
    return json_pack("{s:o}", "path", path);
}

static json_t *merkle_json(const shape *s, const cuzk_c1_merkle_proof *m)
{
    json_t *body = json_object();
    uint32_t b = s->base_levels;
    if (!s->sub_arity) {
        json_object_set_new(body, "root", bytes32(m->root));
        json_object_set_new(body, "leaf", bytes32(m->leaf));
        json_object_set_new(body, "path", incl_path(m, 0, b));
    } else {
        json_object_set_new(body, "base_proof", incl_path(m, 0, b));
        json_object_set_new(body, "sub_proof", incl_path(m, b, b + 1));
        if (s->top_arity)
            json_object_set_new(body, "top_proof", incl_path(m, b + 1, b + 2));
        json_object_set_new(body, "root", bytes32(m->root));
        json_object_set_new(body, "leaf", bytes32(m->leaf));
    }
    const char *v = !s->sub_arity ? "Single" : !s->top_arity ? "Sub" : "Top";
    return json_pack("{s:{s:o}}", "data", v, body);
}

/* ---- bincode of the same structs ---- */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *x, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

static void put_uint(buf *b, uint64_t v, int bytes)
{
    uint8_t x[8];
    for (int i = 0; i < bytes; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, (size_t)bytes);
}

static void bin_path(buf *b, const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to)
{
    size_t k = 0;
    for (uint32_t l = 0; l < from; l++)
        k += m->arity[l] - 1u;
    put_uint(b, to - from, 8);
    for (uint32_t l = from; l < to; l++) {
        put_uint(b, m->arity[l] - 1u, 8);
        for (uint32_t j = 0; j + 1 < m->arity[l]; j++)
            put(b, m->siblings[k++], 32);
        put_uint(b, m->index[l], 8);
    }
}

static void bin_merkle(buf *b, const shape *s, const cuzk_c1_merkle_proof *m)
{
    uint32_t bl = s->base_levels;
    if (!s->sub_arity) {
        put_uint(b, 0, 4);
        put(b, m->root, 32);
        put(b, m->leaf, 32);
        bin_path(b, m, 0, bl);
    } else {
        put_uint(b, s->top_arity ? 2 : 1, 4);
        bin_path(b, m, 0, bl);
        bin_path(b, m, bl, bl + 1);
        if (s->top_arity)
            bin_path(b, m, bl + 1, bl + 2);
        put(b, m->root, 32);
        put(b, m->leaf, 32);
    }
}

static char *base64(const uint8_t *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *w = o;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *w++ = t[v >> 18 & 63];
        *w++ = t[v >> 12 & 63];
        *w++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *w++ = i + 2 < n ? t[v & 63] : '=';
    }
    *w = '\0';
    return o;
}

char *sf_job_json(const sf_set *s, int bincode)
{
    shape rs = r_shape(&s->info), ds = d_shape(&s->info);
    json_t *vps = json_array();
    for (uint32_t k = 0; k < s->n; k++) {
        const cuzk_snap_partition_proof *pp = &s->parts[k];
        if (bincode) {
            buf b = {0};
            put(&b, pp->comm_c, 32);
            put_uint(&b, pp->n_apex, 8);
            for (uint32_t i = 0; i < pp->n_apex; i++)
                put(&b, pp->apex_leaves[i], 32);
            put_uint(&b, pp->n_challenges, 8);
            for (uint32_t c = 0; c < pp->n_challenges; c++) {
                bin_merkle(&b, &rs, &pp->challenges[c].r_old);
                bin_merkle(&b, &ds, &pp->challenges[c].d_new);
                bin_merkle(&b, &rs, &pp->challenges[c].r_new);
            }
            for (int z = 1; k == 0 && z < bincode; z++)
                put(&b, "", 1);
            char *t = base64(b.p, b.n);
            json_array_append_new(vps, json_string(t));
            free(t);
            free(b.p);
            continue;
        }
        json_t *apex = json_array(), *cps = json_array();
        for (uint32_t i = 0; i < pp->n_apex; i++)
            json_array_append_new(apex, bytes32(pp->apex_leaves[i]));
        for (uint32_t c = 0; c < pp->n_challenges; c++)
            json_array_append_new(
                cps, json_pack("{s:o,s:o,s:o}", "proof_r_old",
                               merkle_json(&rs, &pp->challenges[c].r_old), "proof_d_new",
                               merkle_json(&ds, &pp->challenges[c].d_new), "proof_r_new",
                               merkle_json(&rs, &pp->challenges[c].r_new)));
        json_array_append_new(vps, json_pack("{s:o,s:o,s:o}", "comm_c", bytes32(pp->comm_c),
                                             "apex_leafs", apex, "challenge_proofs", cps));
    }
    json_t *doc = json_pack("{s:s,s:o,s:o,s:o,s:i,s:o}", "registered_proof", s->info.name,
                            "comm_r_old", bytes32(s->comm_r_old), "comm_r_new",
                            bytes32(s->comm_r_new), "comm_d_new", bytes32(s->comm_d_new), "h",
                            (json_int_t)s->h, "vanilla_proofs", vps);
    char *t = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    return t;
}
