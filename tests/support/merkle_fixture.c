/*
 * merkle_fixture.c — the trees of merkle_fixture.h. A full tree and a sparse one are built
 * by one loop: a level's parents are those of its present nodes, each hashed from its
 * children looked up (absent ones: the level's default); over a full level that is every
 * parent. Single-threaded (tests only).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "merkle_fixture.h"
#include "test_rng.h"

mf_shape mf_shape_poseidon(uint32_t base_levels, uint32_t base_arity, uint32_t sub_arity,
                           uint32_t top_arity)
{
    mf_shape s = {0};
    s.base_levels = base_levels;
    s.sub_arity = sub_arity;
    s.top_arity = top_arity;
    for (uint32_t l = 0; l < base_levels && s.levels < MF_MAXL; l++)
        s.arity[s.levels++] = base_arity;
    if (sub_arity && s.levels < MF_MAXL)
        s.arity[s.levels++] = sub_arity;
    if (top_arity && s.levels < MF_MAXL)
        s.arity[s.levels++] = top_arity;
    return s;
}

mf_shape mf_shape_sha256(uint32_t levels)
{
    mf_shape s = {0};
    s.levels = s.base_levels = levels < MF_MAXL ? levels : MF_MAXL;
    for (uint32_t l = 0; l < s.levels; l++)
        s.arity[l] = 2;
    s.sha = 1;
    return s;
}

static void hash_children(const mf_shape *s, uint32_t a, const uint8_t (*in)[32],
                          uint8_t out[32])
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

const uint8_t *mf_tree_node(const mf_tree *t, uint32_t level, uint64_t idx)
{
    const mf_level *lv = &t->lv[level];
    if (!lv->idx)
        return idx < lv->len ? lv->v[idx] : lv->dflt;
    size_t lo = 0, hi = lv->len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (lv->idx[mid] == idx)
            return lv->v[mid];
        if (lv->idx[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lv->dflt;
}

const uint8_t *mf_tree_root(const mf_tree *t)
{
    return mf_tree_node(t, t->s.levels, 0);
}

void mf_tree_free(mf_tree *t)
{
    for (uint32_t l = 0; l <= MF_MAXL; l++) {
        free(t->lv[l].idx);
        free(t->lv[l].v);
    }
    memset(t, 0, sizeof *t);
}

/* Levels 1..levels from level 0. */
static int build_up(mf_tree *t)
{
    const mf_shape *s = &t->s;
    for (uint32_t l = 0; l < s->levels; l++) {
        const mf_level *cur = &t->lv[l];
        mf_level *up = &t->lv[l + 1];
        uint32_t a = s->arity[l];
        uint8_t ch[8][32];
        for (uint32_t j = 0; j < a; j++)
            memcpy(ch[j], cur->dflt, 32);
        hash_children(s, a, (const uint8_t(*)[32])ch, up->dflt);
        size_t cap = cur->idx ? cur->len : cur->len / a;
        up->v = malloc(cap ? cap * 32 : 1);
        if (!up->v || (cur->idx && !(up->idx = malloc(cap ? cap * sizeof *up->idx : 1))))
            return -1;
        size_t m = 0;
        for (size_t i = 0; i < cur->len; i++) {
            uint64_t parent = (cur->idx ? cur->idx[i] : i) / a;
            if (m && (up->idx ? up->idx[m - 1] : m - 1) == parent)
                continue; /* a sibling of a node already hashed up */
            if (m == cap)
                break; /* a full level's remainder (no whole parent): caught by the caller */
            for (uint32_t j = 0; j < a; j++)
                memcpy(ch[j], mf_tree_node(t, l, parent * a + j), 32);
            hash_children(s, a, (const uint8_t(*)[32])ch, up->v[m]);
            if (up->idx)
                up->idx[m] = parent;
            m++;
        }
        up->len = m;
    }
    return 0;
}

int mf_tree_full(mf_tree *t, const mf_shape *s, uint8_t (*leaves)[32], size_t n)
{
    memset(t, 0, sizeof *t);
    t->s = *s;
    t->lv[0].v = leaves;
    t->lv[0].len = n;
    if (build_up(t) || t->lv[s->levels].len != 1) {
        mf_tree_free(t);
        return -1;
    }
    return 0;
}

typedef struct leaf {
    uint64_t idx;
    uint8_t v[32];
} leaf;

static int leaf_cmp(const void *a, const void *b)
{
    uint64_t x = ((const leaf *)a)->idx, y = ((const leaf *)b)->idx;
    return (x > y) - (x < y);
}

int mf_tree_sparse(mf_tree *t, const mf_shape *s, const uint64_t *leaves, size_t n)
{
    memset(t, 0, sizeof *t);
    t->s = *s;
    mf_level *lv = &t->lv[0];
    mf_rand_value(lv->dflt);
    leaf *tmp = calloc(n ? n : 1, sizeof *tmp);
    lv->idx = malloc(n ? n * sizeof *lv->idx : 1);
    lv->v = malloc(n ? n * 32 : 1);
    if (!tmp || !lv->idx || !lv->v)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        tmp[i].idx = leaves[i];
        mf_rand_value(tmp[i].v);
    }
    qsort(tmp, n, sizeof *tmp, leaf_cmp);
    for (size_t i = 0; i < n; i++) { /* a leaf named twice keeps one value */
        if (lv->len && lv->idx[lv->len - 1] == tmp[i].idx)
            continue;
        lv->idx[lv->len] = tmp[i].idx;
        memcpy(lv->v[lv->len++], tmp[i].v, 32);
    }
    free(tmp);
    tmp = NULL;
    if (build_up(t) == 0)
        return 0;
fail:
    free(tmp);
    mf_tree_free(t);
    return -1;
}

int mf_tree_proof(const mf_tree *t, uint64_t node, cuzk_c1_merkle_proof *m)
{
    const mf_shape *s = &t->s;
    size_t n_sib = 0;
    for (uint32_t l = 0; l < s->levels; l++)
        n_sib += s->arity[l] - 1;
    m->siblings = malloc(n_sib ? n_sib * 32 : 1);
    if (!m->siblings)
        return -1;
    memcpy(m->leaf, mf_tree_node(t, 0, node), 32);
    memcpy(m->root, mf_tree_root(t), 32);
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
                memcpy(m->siblings[k++], mf_tree_node(t, l, first + j), 32);
        pos /= a;
    }
    return 0;
}

void mf_rand_value(uint8_t out[32])
{
    cuzk_fr f;
    test_rand_fr(&f);
    cuzk_fr_to_bytes_le(out, &f);
}

void mf_comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32])
{
    cuzk_fr pre[2], h;
    cuzk_fr_from_bytes_le(&pre[0], comm_c);
    cuzk_fr_from_bytes_le(&pre[1], root);
    cuzk_poseidon_hash(&h, pre, 2, NULL);
    cuzk_fr_to_bytes_le(out, &h);
}
