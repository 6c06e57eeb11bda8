/*
 * c1_synth.c — TEST DATA: consistent C1 outputs of any sector size (cuzk/c1_synth.h) with
 * sparse Merkle trees. A tree is kept as its touched nodes per level (sorted by position);
 * every other node is a pseudo-random value of (seed, tree, level, position), so hashing
 * the touched leaves' paths bottom-up yields one root that every generated path reaches.
 *
 * Threading: pure; each call owns its scratch. SHA-256 is OpenSSL's (libcrypto): without it
 * (CUZK_HAVE_OPENSSL undefined) the generator returns UNSUPPORTED.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/c1_synth.h"
#include "cuzk/circuits.h"
#include "cuzk/ff.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>

typedef uint8_t dom[32];

/* Owns every array of the result: a growable list of calloc'd blocks. */
typedef struct arena {
    void **blk;
    size_t n, cap;
    bool failed;
} arena;

static void *arena_alloc(arena *a, size_t bytes)
{
    if (a->failed)
        return NULL;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        void **b = realloc(a->blk, cap * sizeof *b);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        a->blk = b;
        a->cap = cap;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        a->failed = true;
        return NULL;
    }
    a->blk[a->n++] = p;
    return p;
}

static void arena_free(arena *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->blk[i]);
    free(a->blk);
    free(a);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A pseudo-random node value of (seed, what, level, pos), < 2^254 < r. */
static void prf(dom out, uint64_t seed, uint64_t what, uint64_t level, uint64_t pos)
{
    uint64_t s = mix(seed ^ mix(what ^ mix(level ^ mix(pos))));
    for (int w = 0; w < 4; w++) {
        s = mix(s + (uint64_t)w);
        for (int b = 0; b < 8; b++)
            out[8 * w + b] = (uint8_t)(s >> (8 * b));
    }
    out[31] &= 0x3f;
}

enum { W_DATA = 1, W_COL = 2, W_TREE_D = 3, W_TREE_R = 4, W_TREE_C = 5, W_ID = 6 };

static bool sha(dom out, const uint8_t *in, size_t n)
{
    unsigned int len = 0;
    return EVP_Digest(in, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32;
}

static bool poseidon(dom out, const dom *in, unsigned arity)
{
    cuzk_fr x[11], h;
    for (unsigned i = 0; i < arity; i++)
        if (cuzk_fr_from_bytes_le(&x[i], in[i]) != CUZK_OK)
            return false;
    if (cuzk_poseidon_hash(&h, x, arity, NULL) != CUZK_OK)
        return false;
    cuzk_fr_to_bytes_le(out, &h);
    return true;
}

/* ---- sparse trees ---- */
typedef struct knode {
    uint64_t pos;
    dom v;
} knode;

typedef struct stree {
    unsigned levels, arity[CUZK_C1_MAX_LEVELS];
    bool sha; /* tree D */
    uint64_t what;
    knode *lv[CUZK_C1_MAX_LEVELS + 1];
    size_t len[CUZK_C1_MAX_LEVELS + 1];
} stree;

static int knode_cmp(const void *x, const void *y)
{
    uint64_t a = ((const knode *)x)->pos, b = ((const knode *)y)->pos;
    return (a > b) - (a < b);
}

static void node_at(const stree *t, uint64_t seed, unsigned l, uint64_t pos, dom out)
{
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
        prf(out, seed, t->what, l, pos);
}

/* Hashes the touched leaves (t->lv[0], t->len[0], any order, duplicates equal) up. */
static bool stree_build(stree *t, uint64_t seed)
{
    qsort(t->lv[0], t->len[0], sizeof(knode), knode_cmp);
    size_t u = 0;
    for (size_t i = 0; i < t->len[0]; i++)
        if (u == 0 || t->lv[0][u - 1].pos != t->lv[0][i].pos)
            t->lv[0][u++] = t->lv[0][i];
    t->len[0] = u;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned ar = t->arity[l];
        t->lv[l + 1] = malloc((t->len[l] ? t->len[l] : 1) * sizeof(knode));
        if (!t->lv[l + 1])
            return false;
        size_t n = 0;
        for (size_t i = 0; i < t->len[l]; i++) {
            uint64_t parent = t->lv[l][i].pos / ar;
            if (n && t->lv[l + 1][n - 1].pos == parent)
                continue;
            dom ch[8];
            for (unsigned j = 0; j < ar; j++)
                node_at(t, seed, l, parent * ar + j, ch[j]);
            knode *k = &t->lv[l + 1][n++];
            k->pos = parent;
            if (t->sha) {
                if (!sha(k->v, ch[0], 64))
                    return false;
                k->v[31] &= 0x3f;
            } else if (!poseidon(k->v, (const dom *)ch, ar)) {
                return false;
            }
        }
        t->len[l + 1] = n;
    }
    return true;
}

static void stree_free(stree *t)
{
    for (unsigned l = 0; l <= t->levels; l++)
        free(t->lv[l]);
}

static bool stree_path(const stree *t, uint64_t seed, uint64_t leaf, cuzk_c1_merkle_proof *m,
                       arena *a)
{
    size_t nsib = 0;
    for (unsigned l = 0; l < t->levels; l++)
        nsib += t->arity[l] - 1;
    m->siblings = arena_alloc(a, nsib * 32);
    if (!m->siblings)
        return false;
    m->n_levels = t->levels;
    node_at(t, seed, 0, leaf, m->leaf);
    memcpy(m->root, t->lv[t->levels][0].v, 32);
    uint64_t pos = leaf;
    size_t k = 0;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned ar = t->arity[l];
        m->arity[l] = (uint8_t)ar;
        m->index[l] = (uint8_t)(pos % ar);
        for (unsigned j = 0; j < ar; j++)
            if (j != pos % ar)
                node_at(t, seed, l, pos / ar * ar + j, m->siblings[k++]);
        pos /= ar;
    }
    return true;
}

/* ---- the sector ---- */
typedef struct gen {
    const cuzk_porep_info *in;
    uint64_t seed;
    size_t n_chal;       /* partitions * challenges */
    uint64_t *chal;      /* challenged nodes */
    uint32_t (*par)[14]; /* per challenge: 6 DRG then 8 expander parents */
    dom (*labels)[11];   /* per challenge: its label in each layer */
    const uint8_t *replica_id;
} gen;

static bool is_chal(const gen *g, uint64_t node)
{
    for (size_t i = 0; i < g->n_chal; i++)
        if (g->chal[i] == node)
            return true;
    return false;
}

/* Layer l (0-based) value of node's column. */
static void col(const gen *g, uint64_t node, unsigned l, dom out)
{
    for (size_t i = 0; i < g->n_chal; i++)
        if (g->chal[i] == node) {
            memcpy(out, g->labels[i][l], 32);
            return;
        }
    prf(out, g->seed, W_COL, l, node);
}

static void fr_add_dom(dom out, const dom x, const dom y)
{
    cuzk_fr a, b;
    if (cuzk_fr_from_bytes_le(&a, x) != CUZK_OK)
        a = CUZK_FR_ZERO;
    if (cuzk_fr_from_bytes_le(&b, y) != CUZK_OK)
        b = CUZK_FR_ZERO;
    cuzk_fr_add(&a, &a, &b);
    cuzk_fr_to_bytes_le(out, &a);
}

/* The 37 parents of challenge c's label in layer l (1-based), as labeling hashes them. */
static void label_parents(const gen *g, size_t c, unsigned l, dom out[37])
{
    dom base[14];
    unsigned n = 0;
    for (unsigned j = 0; j < 6; j++)
        col(g, g->par[c][j], l - 1, base[n++]);
    if (l > 1)
        for (unsigned j = 6; j < 14; j++)
            col(g, g->par[c][j], l - 2, base[n++]);
    for (unsigned i = 0; i < 37; i++)
        memcpy(out[i], base[i % n], 32);
}

static bool make_labels(gen *g)
{
    uint8_t buf[64 + 37 * 32];
    for (size_t c = 0; c < g->n_chal; c++)
        for (unsigned l = 1; l <= g->in->layers; l++) {
            memset(buf, 0, 64);
            memcpy(buf, g->replica_id, 32);
            buf[35] = (uint8_t)l; /* u32 BE layer */
            for (int b = 0; b < 8; b++)
                buf[36 + b] = (uint8_t)(g->chal[c] >> (8 * (7 - b)));
            label_parents(g, c, l, (dom *)(buf + 64));
            if (!sha(g->labels[c][l - 1], buf, sizeof buf))
                return false;
            g->labels[c][l - 1][31] &= 0x3f;
        }
    return true;
}

static uint64_t mod_le256(const uint8_t h[32], uint64_t m)
{
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--)
        r = (r * 256 + h[i]) % m;
    return (uint64_t)r;
}

static bool derive_challenges(gen *g, cuzk_c1_output *o)
{
    for (uint64_t attempt = 0; attempt < 1000; attempt++) {
        prf(o->seed, g->seed, W_ID, 1, attempt);
        uint8_t buf[68];
        memcpy(buf, o->replica_id, 32);
        memcpy(buf + 32, o->seed, 32);
        bool distinct = true;
        for (size_t j = 0; j < g->n_chal && distinct; j++) {
            for (int b = 0; b < 4; b++)
                buf[64 + b] = (uint8_t)(j >> (8 * b));
            uint8_t h[32];
            if (!sha(h, buf, sizeof buf))
                return false;
            g->chal[j] = mod_le256(h, g->in->nodes - 1) + 1;
            for (size_t i = 0; i < j; i++)
                distinct &= g->chal[i] != g->chal[j];
        }
        if (distinct)
            return true;
    }
    return false;
}

static void tree_shape(stree *t, const cuzk_porep_info *in, bool d, uint64_t what)
{
    memset(t, 0, sizeof *t);
    t->what = what;
    t->sha = d;
    if (d) {
        t->levels = in->tree_d_levels;
        for (unsigned l = 0; l < t->levels; l++)
            t->arity[l] = 2;
        return;
    }
    for (unsigned l = 0; l < in->base_levels; l++)
        t->arity[t->levels++] = in->base_arity;
    if (in->sub_arity)
        t->arity[t->levels++] = in->sub_arity;
    if (in->top_arity)
        t->arity[t->levels++] = in->top_arity;
}

static bool column_proof(const gen *g, const stree *tc, uint64_t node, cuzk_c1_column_proof *cp,
                         arena *a)
{
    cp->index = (uint32_t)node;
    cp->rows = arena_alloc(a, (size_t)g->in->layers * 32);
    if (!cp->rows)
        return false;
    for (unsigned l = 0; l < g->in->layers; l++)
        col(g, node, l, cp->rows[l]);
    return stree_path(tc, g->seed, node, &cp->proof, a);
}

static cuzk_status build(gen *g, cuzk_c1_output *o, arena *a, cuzk_error *err)
{
    const cuzk_porep_info *in = g->in;
    const unsigned layers = in->layers;
    if (!derive_challenges(g, o))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: no seed gives distinct challenges");
    uint64_t s = mix(g->seed ^ 0x5eed);
    for (size_t c = 0; c < g->n_chal; c++)
        for (unsigned j = 0; j < 14; j++) {
            uint64_t p;
            do {
                s = mix(s);
                p = s % in->nodes;
            } while (is_chal(g, p));
            g->par[c][j] = (uint32_t)p;
        }
    if (!make_labels(g))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: SHA-256 failed");

    stree td, tr, tc;
    tree_shape(&td, in, true, W_TREE_D);
    tree_shape(&tr, in, false, W_TREE_R);
    tree_shape(&tc, in, false, W_TREE_C);
    cuzk_status st = CUZK_OK;
    size_t ncol = g->n_chal * 15;
    td.lv[0] = malloc(g->n_chal * sizeof(knode));
    tr.lv[0] = malloc(g->n_chal * sizeof(knode));
    tc.lv[0] = malloc(ncol * sizeof(knode));
    if (!td.lv[0] || !tr.lv[0] || !tc.lv[0]) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: out of memory");
        goto out;
    }
    for (size_t c = 0; c < g->n_chal; c++) {
        uint64_t x = g->chal[c];
        dom data;
        prf(data, g->seed, W_DATA, 0, x);
        td.lv[0][c].pos = tr.lv[0][c].pos = x;
        memcpy(td.lv[0][c].v, data, 32);
        fr_add_dom(tr.lv[0][c].v, g->labels[c][layers - 1], data);
        for (unsigned j = 0; j < 15; j++) {
            uint64_t node = j == 0 ? x : g->par[c][j - 1];
            dom rows[11];
            for (unsigned l = 0; l < layers; l++)
                col(g, node, l, rows[l]);
            knode *k = &tc.lv[0][c * 15 + j];
            k->pos = node;
            if (!poseidon(k->v, (const dom *)rows, layers)) {
                st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: Poseidon failed");
                goto out;
            }
        }
    }
    td.len[0] = tr.len[0] = g->n_chal;
    tc.len[0] = ncol;
    if (!stree_build(&td, g->seed) || !stree_build(&tr, g->seed) || !stree_build(&tc, g->seed)) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: tree building failed");
        goto out;
    }
    memcpy(o->comm_d, td.lv[td.levels][0].v, 32);
    dom pair[2];
    memcpy(pair[0], tc.lv[tc.levels][0].v, 32);
    memcpy(pair[1], tr.lv[tr.levels][0].v, 32);
    if (!poseidon(o->comm_r, (const dom *)pair, 2)) {
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: Poseidon failed");
        goto out;
    }
    o->proofs = arena_alloc(a, g->n_chal * sizeof *o->proofs);
    for (size_t c = 0; c < g->n_chal && o->proofs; c++) {
        cuzk_c1_challenge_proof *p = &o->proofs[c];
        uint64_t x = g->chal[c];
        bool ok = stree_path(&td, g->seed, x, &p->comm_d_proof, a) &&
                  stree_path(&tr, g->seed, x, &p->comm_r_last_proof, a) &&
                  column_proof(g, &tc, x, &p->c_x, a);
        for (unsigned j = 0; j < 6 && ok; j++)
            ok = column_proof(g, &tc, g->par[c][j], &p->drg_parents[j], a);
        for (unsigned j = 0; j < 8 && ok; j++)
            ok = column_proof(g, &tc, g->par[c][6 + j], &p->exp_parents[j], a);
        p->labeling = ok ? arena_alloc(a, layers * sizeof *p->labeling) : NULL;
        for (unsigned l = 1; l <= layers && p->labeling; l++) {
            cuzk_c1_labeling_proof *lp = &p->labeling[l - 1];
            lp->layer_index = l;
            lp->node = x;
            lp->n_parents = 37;
            lp->parents = arena_alloc(a, 37 * 32);
            if (!lp->parents)
                break;
            label_parents(g, c, l, lp->parents);
        }
        if (p->labeling)
            p->encoding = p->labeling[layers - 1];
    }
    if (a->failed || !o->proofs)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: out of memory");
out:
    stree_free(&td);
    stree_free(&tr);
    stree_free(&tc);
    return st;
}

cuzk_status cuzk_c1_synth(uint64_t sector_size, unsigned partitions, uint64_t seed,
                          cuzk_c1_output **out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "c1 synth: out is NULL");
    *out = NULL;
    static const char *const names[][2] = {
        {"2048", "StackedDrg2KiBV1_1"},         {"8388608", "StackedDrg8MiBV1_1"},
        {"536870912", "StackedDrg512MiBV1_1"},  {"34359738368", "StackedDrg32GiBV1_1"},
        {"68719476736", "StackedDrg64GiBV1_1"},
    };
    const char *name = NULL;
    char sz[24];
    snprintf(sz, sizeof sz, "%llu", (unsigned long long)sector_size);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(sz, names[i][0]) == 0)
            name = names[i][1];
    if (!name)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "c1 synth: no PoRep for sector size %s bytes", sz);
    cuzk_c1_output *o = calloc(1, sizeof *o);
    arena *a = calloc(1, sizeof *a);
    gen g = {0};
    cuzk_status st = CUZK_OK;
    if (!o || !a) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: out of memory");
        goto fail;
    }
    if ((st = cuzk_porep_info_from_name(name, &o->info, err)))
        goto fail;
    if (partitions == 0 || partitions > o->info.partitions) {
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "c1 synth: %u partitions (1..%u for %s)", partitions,
                            o->info.partitions, name);
        goto fail;
    }
    o->info.partitions = partitions;
    o->arena_ = a;
    g.in = &o->info;
    g.seed = seed;
    g.n_chal = (size_t)partitions * o->info.challenges;
    g.chal = calloc(g.n_chal, sizeof *g.chal);
    g.par = calloc(g.n_chal, sizeof *g.par);
    g.labels = calloc(g.n_chal, sizeof *g.labels);
    if (!g.chal || !g.par || !g.labels) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: out of memory");
        goto fail;
    }
    prf(o->replica_id, seed, W_ID, 2, 0);
    prf(o->ticket, seed, W_ID, 3, 0);
    g.replica_id = o->replica_id;
    if ((st = build(&g, o, a, err)))
        goto fail;
    free(g.chal);
    free(g.par);
    free(g.labels);
    *out = o;
    return CUZK_OK;
fail:
    free(g.chal);
    free(g.par);
    free(g.labels);
    if (o && o->arena_ == a)
        o->arena_ = NULL;
    arena_free(a);
    free(o);
    return st;
}

void cuzk_c1_synth_free(cuzk_c1_output *c1)
{
    if (!c1)
        return;
    arena_free(c1->arena_);
    free(c1);
}

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_c1_synth(uint64_t sector_size, unsigned partitions, uint64_t seed,
                          cuzk_c1_output **out, cuzk_error *err)
{
    (void)sector_size;
    (void)partitions;
    (void)seed;
    if (out)
        *out = NULL;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "c1 synth: built without OpenSSL");
}

void cuzk_c1_synth_free(cuzk_c1_output *c1)
{
    (void)c1;
}

#endif
