/*
 * post_fixture.c — see post_fixture.h.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "post_fixture.h"
#include "test_rng.h"

#define MAXL CUZK_C1_MAX_LEVELS

typedef struct node {
    uint64_t idx;
    cuzk_fr v;
} node;

typedef struct level {
    node *n;
    size_t len;
} level;

static int node_cmp(const void *a, const void *b)
{
    uint64_t x = ((const node *)a)->idx, y = ((const node *)b)->idx;
    return (x > y) - (x < y);
}

static const cuzk_fr *lookup(const level *lv, uint64_t idx, const cuzk_fr *dflt)
{
    size_t lo = 0, hi = lv->len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (lv->n[mid].idx == idx)
            return &lv->n[mid].v;
        if (lv->n[mid].idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return dflt;
}

static uint32_t arity_at(const cuzk_post_info *in, uint32_t l)
{
    if (l < in->base_levels)
        return in->base_arity;
    if (l == in->base_levels && in->sub_arity)
        return in->sub_arity;
    return in->top_arity;
}

/* One sector's sparse tree over the challenged leaves; fills proofs and comm_r_last. */
static int build_sector(const cuzk_post_info *in, cuzk_post_sector_proof *sp,
                        const uint64_t *leaves)
{
    uint32_t L = cuzk_post_info_levels(in), nc = sp->n_proofs;
    level lv[MAXL + 1];
    cuzk_fr dflt[MAXL + 1];
    memset(lv, 0, sizeof lv);
    test_rand_fr(&dflt[0]);
    lv[0].n = calloc(nc, sizeof(node));
    if (!lv[0].n)
        return -1;
    for (uint32_t c = 0; c < nc; c++) {
        lv[0].n[c].idx = leaves[c];
        test_rand_fr(&lv[0].n[c].v);
    }
    qsort(lv[0].n, nc, sizeof(node), node_cmp);
    size_t u = 0; /* dedupe: a leaf challenged twice keeps one value */
    for (size_t i = 0; i < nc; i++)
        if (u == 0 || lv[0].n[u - 1].idx != lv[0].n[i].idx)
            lv[0].n[u++] = lv[0].n[i];
    lv[0].len = u;
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = arity_at(in, l);
        cuzk_fr ch[8];
        for (uint32_t j = 0; j < a; j++)
            ch[j] = dflt[l];
        cuzk_poseidon_hash(&dflt[l + 1], ch, a, NULL);
        lv[l + 1].n = calloc(lv[l].len, sizeof(node));
        if (!lv[l + 1].n)
            return -1;
        size_t m = 0;
        for (size_t i = 0; i < lv[l].len; i++) {
            uint64_t parent = lv[l].n[i].idx / a;
            if (m && lv[l + 1].n[m - 1].idx == parent)
                continue;
            for (uint32_t j = 0; j < a; j++)
                ch[j] = *lookup(&lv[l], parent * a + j, &dflt[l]);
            lv[l + 1].n[m].idx = parent;
            cuzk_poseidon_hash(&lv[l + 1].n[m].v, ch, a, NULL);
            m++;
        }
        lv[l + 1].len = m;
    }
    cuzk_fr_to_bytes_le(sp->comm_r_last, &lv[L].n[0].v);
    size_t nsib = 0;
    for (uint32_t l = 0; l < L; l++)
        nsib += arity_at(in, l) - 1;
    for (uint32_t c = 0; c < nc; c++) {
        cuzk_c1_merkle_proof *m = &sp->proofs[c];
        m->siblings = calloc(nsib, 32);
        if (!m->siblings)
            return -1;
        memcpy(m->root, sp->comm_r_last, 32);
        cuzk_fr_to_bytes_le(m->leaf, lookup(&lv[0], leaves[c], &dflt[0]));
        m->n_levels = L;
        uint64_t x = leaves[c];
        size_t k = 0;
        for (uint32_t l = 0; l < L; l++) {
            uint32_t a = arity_at(in, l);
            m->arity[l] = (uint8_t)a;
            m->index[l] = (uint8_t)(x % a);
            uint64_t base = x - x % a;
            for (uint32_t j = 0; j < a; j++)
                if (j != m->index[l])
                    cuzk_fr_to_bytes_le(m->siblings[k++], lookup(&lv[l], base + j, &dflt[l]));
            x /= a;
        }
    }
    for (uint32_t l = 0; l <= L; l++)
        free(lv[l].n);
    return 0;
}

int pf_make(pf_set *out, const cuzk_post_info *info, uint32_t k, uint32_t n, uint64_t first_id)
{
    memset(out, 0, sizeof *out);
    out->info = *info;
    out->k = k;
    out->n = n;
    test_rng_bytes(out->randomness, 32);
    out->randomness[31] &= 0x3f;
    out->sectors = calloc(n, sizeof *out->sectors);
    uint64_t *leaves = calloc(info->vanilla_challenges, sizeof *leaves);
    if (!out->sectors || !leaves)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        cuzk_post_sector_proof *sp = &out->sectors[i];
        sp->sector_id = first_id + 3ull * i;
        sp->n_proofs = info->vanilla_challenges;
        sp->proofs = calloc(sp->n_proofs, sizeof *sp->proofs);
        if (!sp->proofs)
            goto fail;
    }
    cuzk_post_partition p = pf_partition(out);
    for (uint32_t i = 0; i < n; i++) {
        cuzk_post_sector_proof *sp = &out->sectors[i];
        if (cuzk_post_sector_challenges(&p, i, out->randomness, leaves, NULL) != CUZK_OK ||
            build_sector(info, sp, leaves) != 0)
            goto fail;
        cuzk_fr pre[2], h;
        test_rand_fr(&pre[0]);
        cuzk_fr_to_bytes_le(sp->comm_c, &pre[0]);
        cuzk_fr_from_bytes_le(&pre[1], sp->comm_r_last);
        cuzk_poseidon_hash(&h, pre, 2, NULL);
        cuzk_fr_to_bytes_le(sp->comm_r, &h);
    }
    free(leaves);
    return 0;
fail:
    free(leaves);
    pf_free(out);
    return -1;
}

void pf_free(pf_set *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->sectors && i < s->n; i++) {
        for (uint32_t c = 0; s->sectors[i].proofs && c < s->sectors[i].n_proofs; c++)
            free(s->sectors[i].proofs[c].siblings);
        free(s->sectors[i].proofs);
    }
    free(s->sectors);
    memset(s, 0, sizeof *s);
}

/* ---- JSON (serde_json of filecoin-proofs' types) ---- */

static json_t *bytes32(const uint8_t b[32])
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(a, json_integer(b[i]));
    return a;
}

/* InclusionPath {path: [{hashes, index}]} of levels [from, to) */
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

static json_t *merkle_json(const cuzk_post_info *in, const cuzk_c1_merkle_proof *m)
{
    json_t *body = json_object();
    uint32_t b = in->base_levels;
    if (!in->sub_arity) {
        json_object_set_new(body, "root", bytes32(m->root));
        json_object_set_new(body, "leaf", bytes32(m->leaf));
        json_object_set_new(body, "path", incl_path(m, 0, b));
    } else {
        json_object_set_new(body, "base_proof", incl_path(m, 0, b));
        json_object_set_new(body, "sub_proof", incl_path(m, b, b + 1));
        if (in->top_arity)
            json_object_set_new(body, "top_proof", incl_path(m, b + 1, b + 2));
        json_object_set_new(body, "root", bytes32(m->root));
        json_object_set_new(body, "leaf", bytes32(m->leaf));
    }
    const char *v = !in->sub_arity ? "Single" : !in->top_arity ? "Sub" : "Top";
    return json_pack("{s:{s:o}}", "data", v, body);
}

/* ---- bincode of the same struct ---- */

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

static void put_u64(buf *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, 8);
}

static void put_u32(buf *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, 4);
}

static void bin_path(buf *b, const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to)
{
    size_t k = 0;
    for (uint32_t l = 0; l < from; l++)
        k += m->arity[l] - 1u;
    put_u64(b, to - from);
    for (uint32_t l = from; l < to; l++) {
        put_u64(b, m->arity[l] - 1u);
        for (uint32_t j = 0; j + 1 < m->arity[l]; j++)
            put(b, m->siblings[k++], 32);
        put_u64(b, m->index[l]);
    }
}

static void bin_merkle(buf *b, const cuzk_post_info *in, const cuzk_c1_merkle_proof *m)
{
    uint32_t bl = in->base_levels;
    if (!in->sub_arity) {
        put_u32(b, 0);
        put(b, m->root, 32);
        put(b, m->leaf, 32);
        bin_path(b, m, 0, bl);
    } else {
        put_u32(b, in->top_arity ? 2 : 1);
        bin_path(b, m, 0, bl);
        bin_path(b, m, bl, bl + 1);
        if (in->top_arity)
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

char *pf_job_json(const pf_set *s, int bincode)
{
    json_t *vps = json_array();
    for (uint32_t i = 0; i < s->n; i++) {
        const cuzk_post_sector_proof *sp = &s->sectors[i];
        if (bincode) {
            buf b = {0};
            put_u64(&b, sp->sector_id);
            put(&b, sp->comm_r, 32);
            put_u64(&b, 1); /* vanilla_proof.sectors */
            put_u64(&b, sp->n_proofs);
            for (uint32_t c = 0; c < sp->n_proofs; c++)
                bin_merkle(&b, &s->info, &sp->proofs[c]);
            put(&b, sp->comm_c, 32);
            put(&b, sp->comm_r_last, 32);
            for (int z = 1; i == 0 && z < bincode; z++)
                put(&b, "", 1);
            char *t = base64(b.p, b.n);
            json_array_append_new(vps, json_string(t));
            free(t);
            free(b.p);
            continue;
        }
        json_t *incl = json_array();
        for (uint32_t c = 0; c < sp->n_proofs; c++)
            json_array_append_new(incl, merkle_json(&s->info, &sp->proofs[c]));
        json_t *sec = json_pack("{s:o,s:o,s:o}", "inclusion_proofs", incl, "comm_c",
                                bytes32(sp->comm_c), "comm_r_last", bytes32(sp->comm_r_last));
        json_array_append_new(
            vps, json_pack("{s:I,s:o,s:{s:[o]}}", "sector_id", (json_int_t)sp->sector_id,
                           "comm_r", bytes32(sp->comm_r), "vanilla_proof", "sectors", sec));
    }
    json_t *doc = json_pack("{s:s,s:o,s:i,s:o}", "registered_proof", s->info.name, "randomness",
                            bytes32(s->randomness), "partition_index", (json_int_t)s->k,
                            "vanilla_proofs", vps);
    char *txt = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    return txt;
}
