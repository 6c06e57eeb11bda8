/*
 * merkle_synth.c — the generated trees of merkle_synth.h. A sparse tree keeps, per level,
 * the nodes on the touched leaves' paths (sorted by position), each hashed from its
 * children looked up (an untouched child: its ms_prf value). A cells tree keeps one value
 * per (level, cell) up to the cells' height and every node above it, dense.
 *
 * Threading: see the header; pure apart from the tree being built.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "filecoin/merkle_synth.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define MAXL CUZK_C1_MAX_LEVELS

ms_shape ms_shape_poseidon(uint32_t base_levels, uint32_t base_arity, uint32_t sub_arity,
                           uint32_t top_arity)
{
    ms_shape s = {0};
    for (uint32_t l = 0; l < base_levels && s.levels < MAXL; l++)
        s.arity[s.levels++] = (uint8_t)base_arity;
    if (sub_arity && s.levels < MAXL)
        s.arity[s.levels++] = (uint8_t)sub_arity;
    if (top_arity && s.levels < MAXL)
        s.arity[s.levels++] = (uint8_t)top_arity;
    return s;
}

ms_shape ms_shape_sha256(uint32_t levels)
{
    ms_shape s = {0};
    s.levels = levels < MAXL ? levels : MAXL;
    for (uint32_t l = 0; l < s.levels; l++)
        s.arity[l] = 2;
    s.sha = true;
    return s;
}

uint64_t ms_shape_leaves(const ms_shape *s)
{
    uint64_t n = 1;
    for (uint32_t l = 0; l < s->levels; l++)
        n *= s->arity[l];
    return n;
}

size_t ms_shape_siblings(const ms_shape *s)
{
    size_t n = 0;
    for (uint32_t l = 0; l < s->levels; l++)
        n += s->arity[l] - 1u;
    return n;
}

uint64_t ms_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void ms_prf(ms_dom out, uint64_t seed, uint64_t what, uint64_t level, uint64_t pos)
{
    uint64_t s = ms_mix(seed ^ ms_mix(what ^ ms_mix(level ^ ms_mix(pos))));
    for (int w = 0; w < 4; w++) {
        s = ms_mix(s + (uint64_t)w);
        for (int b = 0; b < 8; b++)
            out[8 * w + b] = (uint8_t)(s >> (8 * b));
    }
    out[31] &= 0x3f;
}

bool ms_hash(ms_dom out, const ms_dom *children, unsigned arity, bool sha)
{
    if (sha) {
#ifdef CUZK_HAVE_OPENSSL
        unsigned int len = 0;
        if (arity != 2 || EVP_Digest(children, 64, out, &len, EVP_sha256(), NULL) != 1 ||
            len != 32)
            return false;
        out[31] &= 0x3f; /* trim_to_fr32 */
        return true;
#else
        return false;
#endif
    }
    cuzk_fr x[8], h;
    if (arity > 8)
        return false;
    for (unsigned i = 0; i < arity; i++)
        if (cuzk_fr_from_bytes_le(&x[i], children[i]) != CUZK_OK)
            return false;
    if (cuzk_poseidon_hash(&h, x, arity, NULL) != CUZK_OK)
        return false;
    cuzk_fr_to_bytes_le(out, &h);
    return true;
}

bool ms_comm_r(ms_dom out, const ms_dom comm_c, const ms_dom root)
{
    ms_dom pair[2];
    memcpy(pair[0], comm_c, 32);
    memcpy(pair[1], root, 32);
    return ms_hash(out, (const ms_dom *)pair, 2, false);
}

/* ---- lookups ---------------------------------------------------------------------------- */

static bool cell_level(const ms_tree *t, uint32_t l)
{
    return t->cells && t->bits[l] <= t->cell_bits;
}

void ms_tree_node(const ms_tree *t, uint32_t l, uint64_t pos, ms_dom out)
{
    if (t->cells) {
        if (cell_level(t, l))
            memcpy(out, t->uni[l][pos >> (t->cell_bits - t->bits[l])], 32);
        else
            memcpy(out, t->lv[l][pos].v, 32);
        return;
    }
    size_t lo = 0, hi = t->len[l];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->lv[l][mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->len[l] && t->lv[l][lo].pos == pos)
        memcpy(out, t->lv[l][lo].v, 32);
    else
        ms_prf(out, t->seed, t->what, l, pos);
}

const uint8_t *ms_tree_root(const ms_tree *t)
{
    uint32_t l = t->s.levels;
    return cell_level(t, l) ? t->uni[l][0] : t->lv[l][0].v;
}

void ms_tree_free(ms_tree *t)
{
    for (uint32_t l = 0; l <= MAXL; l++) {
        free(t->lv[l]);
        free(t->uni[l]);
    }
    memset(t, 0, sizeof *t);
}

/* node `parent` of level l + 1, hashed from its children at level l */
static bool hash_up(const ms_tree *t, uint32_t l, uint64_t parent, ms_dom out)
{
    unsigned a = t->s.arity[l];
    ms_dom ch[8];
    for (unsigned j = 0; j < a; j++)
        ms_tree_node(t, l, parent * a + j, ch[j]);
    return ms_hash(out, (const ms_dom *)ch, a, t->s.sha);
}

static bool init(ms_tree *t, const ms_shape *s)
{
    memset(t, 0, sizeof *t);
    if (s->levels > MAXL)
        return false;
    t->s = *s;
    for (uint32_t l = 0; l < s->levels; l++) {
        unsigned a = s->arity[l], b = a == 2 ? 1 : a == 4 ? 2 : a == 8 ? 3 : 0;
        if (!b || (s->sha && a != 2) || t->bits[l] + b > 62)
            return false;
        t->bits[l + 1] = (uint8_t)(t->bits[l] + b);
    }
    return true;
}

/* ---- sparse ------------------------------------------------------------------------------ */

static int node_cmp(const void *x, const void *y)
{
    uint64_t a = ((const ms_node *)x)->pos, b = ((const ms_node *)y)->pos;
    return (a > b) - (a < b);
}

bool ms_tree_sparse(ms_tree *t, const ms_shape *s, uint64_t seed, uint64_t what,
                    const ms_node *leaves, size_t n)
{
    if (!init(t, s))
        return false;
    t->seed = seed;
    t->what = what;
    t->lv[0] = malloc((n ? n : 1) * sizeof(ms_node));
    if (!t->lv[0])
        goto fail;
    memcpy(t->lv[0], leaves, n * sizeof(ms_node));
    qsort(t->lv[0], n, sizeof(ms_node), node_cmp);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || t->lv[0][u - 1].pos != t->lv[0][i].pos)
            t->lv[0][u++] = t->lv[0][i];
    t->len[0] = u;
    for (uint32_t l = 0; l < s->levels; l++) {
        unsigned a = s->arity[l];
        t->lv[l + 1] = malloc((t->len[l] ? t->len[l] : 1) * sizeof(ms_node));
        if (!t->lv[l + 1])
            goto fail;
        size_t m = 0;
        for (size_t i = 0; i < t->len[l]; i++) {
            uint64_t parent = t->lv[l][i].pos / a;
            if (m && t->lv[l + 1][m - 1].pos == parent)
                continue; /* a sibling of a node already hashed up */
            ms_node *k = &t->lv[l + 1][m++];
            k->pos = parent;
            if (!hash_up(t, l, parent, k->v))
                goto fail;
        }
        t->len[l + 1] = m;
    }
    if (t->len[s->levels] == 1)
        return true;
    if (t->len[s->levels] == 0) { /* nothing touched: the root is untouched too */
        t->lv[s->levels][0].pos = 0;
        ms_prf(t->lv[s->levels][0].v, seed, what, s->levels, 0);
        t->len[s->levels] = 1;
        return true;
    }
fail:
    ms_tree_free(t);
    return false;
}

/* ---- cells ------------------------------------------------------------------------------- */

typedef struct level_job {
    ms_tree *t;
    uint32_t l;
    _Atomic int failed;
} level_job;

/* nodes [begin, end) of level l: a cell's value one level up, or a node above the cells */
static void level_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    level_job *j = ctx;
    ms_tree *t = j->t;
    uint32_t l = j->l;
    unsigned a = t->s.arity[l - 1];
    for (size_t i = begin; i < end && !j->failed; i++) {
        bool ok;
        if (cell_level(t, l)) {
            ms_dom ch[8];
            for (unsigned c = 0; c < a; c++)
                memcpy(ch[c], t->uni[l - 1][i], 32);
            ok = ms_hash(t->uni[l][i], (const ms_dom *)ch, a, t->s.sha);
        } else {
            t->lv[l][i].pos = i;
            ok = hash_up(t, l - 1, i, t->lv[l][i].v);
        }
        if (!ok)
            j->failed = 1;
    }
}

bool ms_tree_cells(ms_tree *t, const ms_shape *s, uint32_t cell_bits, const ms_dom *cell_leaf,
                   cuzk_pool *pool)
{
    if (!init(t, s) || cell_bits > t->bits[s->levels])
        return false;
    t->cells = true;
    t->cell_bits = cell_bits;
    uint32_t top = s->levels;
    size_t cells = (size_t)1 << (t->bits[top] - cell_bits);
    if (!(t->uni[0] = malloc(cells * sizeof(ms_dom))))
        goto fail;
    memcpy(t->uni[0], cell_leaf, cells * sizeof(ms_dom));
    for (uint32_t l = 1; l <= top; l++) {
        size_t n = cells;
        if (cell_level(t, l)) {
            if (!(t->uni[l] = malloc(cells * sizeof(ms_dom))))
                goto fail;
        } else {
            n = (size_t)1 << (t->bits[top] - t->bits[l]);
            if (!(t->lv[l] = malloc(n * sizeof(ms_node))))
                goto fail;
            t->len[l] = n;
        }
        level_job j = {t, l, 0};
        if (cuzk_pool_for(pool, n, level_range, &j, 64) != CUZK_OK || j.failed)
            goto fail;
    }
    return true;
fail:
    ms_tree_free(t);
    return false;
}

/* ---- paths ------------------------------------------------------------------------------- */

void ms_tree_path(const ms_tree *t, uint64_t leaf, cuzk_c1_merkle_proof *m, ms_dom *siblings)
{
    const ms_shape *s = &t->s;
    m->siblings = siblings;
    m->n_levels = s->levels;
    ms_tree_node(t, 0, leaf, m->leaf);
    memcpy(m->root, ms_tree_root(t), 32);
    uint64_t pos = leaf;
    size_t k = 0;
    for (uint32_t l = 0; l < s->levels; l++) {
        unsigned a = s->arity[l];
        m->arity[l] = (uint8_t)a;
        m->index[l] = (uint8_t)(pos % a);
        for (unsigned j = 0; j < a; j++)
            if (j != pos % a)
                ms_tree_node(t, l, pos / a * a + j, siblings[k++]);
        pos /= a;
    }
}
