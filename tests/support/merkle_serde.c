/*
 * merkle_serde.c — the serde half of merkle_fixture.h: MerkleProof in serde_json and
 * bincode as rust-fil-proofs writes it (Single: root, leaf, path; Sub / Top: base path,
 * sub path, top path, root, leaf; an InclusionPath is a list of {hashes, index}), and
 * base64 for bincode bytes inside JSON. Single-threaded (tests only).
 */
#include <stdlib.h>
#include <string.h>

#include "merkle_fixture.h"

json_t *mf_bytes32_json(const uint8_t b[32])
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(a, json_integer(b[i]));
    return a;
}

/* the first sibling of level from */
static size_t first_sibling(const cuzk_c1_merkle_proof *m, uint32_t from)
{
    size_t k = 0;
    for (uint32_t l = 0; l < from; l++)
        k += m->arity[l] - 1u;
    return k;
}

/* InclusionPath {path: [{hashes, index}]} of levels [from, to) */
static json_t *incl_path(const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to)
{
    json_t *path = json_array();
    size_t k = first_sibling(m, from);
    for (uint32_t l = from; l < to; l++) {
        json_t *h = json_array();
        for (uint32_t j = 0; j + 1 < m->arity[l]; j++)
            json_array_append_new(h, mf_bytes32_json(m->siblings[k++]));
        json_array_append_new(path, json_pack("{s:o,s:i}", "hashes", h, "index",
                                              (json_int_t)m->index[l]));
    }
    return json_pack("{s:o}", "path", path);
}

json_t *mf_merkle_json(const mf_shape *s, const cuzk_c1_merkle_proof *m)
{
    json_t *body = json_object();
    uint32_t b = s->base_levels;
    if (!s->sub_arity) {
        json_object_set_new(body, "root", mf_bytes32_json(m->root));
        json_object_set_new(body, "leaf", mf_bytes32_json(m->leaf));
        json_object_set_new(body, "path", incl_path(m, 0, b));
    } else {
        json_object_set_new(body, "base_proof", incl_path(m, 0, b));
        json_object_set_new(body, "sub_proof", incl_path(m, b, b + 1));
        if (s->top_arity)
            json_object_set_new(body, "top_proof", incl_path(m, b + 1, b + 2));
        json_object_set_new(body, "root", mf_bytes32_json(m->root));
        json_object_set_new(body, "leaf", mf_bytes32_json(m->leaf));
    }
    const char *v = !s->sub_arity ? "Single" : !s->top_arity ? "Sub" : "Top";
    return json_pack("{s:{s:o}}", "data", v, body);
}

void mf_put(mf_buf *b, const void *x, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

void mf_put_uint(mf_buf *b, uint64_t v, int bytes)
{
    uint8_t x[8];
    for (int i = 0; i < bytes; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    mf_put(b, x, (size_t)bytes);
}

static void bin_path(mf_buf *b, const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to)
{
    size_t k = first_sibling(m, from);
    mf_put_uint(b, to - from, 8);
    for (uint32_t l = from; l < to; l++) {
        mf_put_uint(b, m->arity[l] - 1u, 8);
        for (uint32_t j = 0; j + 1 < m->arity[l]; j++)
            mf_put(b, m->siblings[k++], 32);
        mf_put_uint(b, m->index[l], 8);
    }
}

void mf_put_merkle(mf_buf *b, const mf_shape *s, const cuzk_c1_merkle_proof *m)
{
    uint32_t bl = s->base_levels;
    if (!s->sub_arity) {
        mf_put_uint(b, 0, 4);
        mf_put(b, m->root, 32);
        mf_put(b, m->leaf, 32);
        bin_path(b, m, 0, bl);
    } else {
        mf_put_uint(b, s->top_arity ? 2 : 1, 4);
        bin_path(b, m, 0, bl);
        bin_path(b, m, bl, bl + 1);
        if (s->top_arity)
            bin_path(b, m, bl + 1, bl + 2);
        mf_put(b, m->root, 32);
        mf_put(b, m->leaf, 32);
    }
}

static char *base64(const uint8_t *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *w = o;
    if (!o)
        return NULL;
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

json_t *mf_buf_b64_json(mf_buf *b, int zeros)
{
    for (int z = 0; z < zeros; z++)
        mf_put(b, "", 1);
    char *t = base64(b->p, b->n);
    json_t *s = t ? json_string(t) : NULL;
    free(t);
    free(b->p);
    memset(b, 0, sizeof *b);
    return s;
}
