/*
 * c1_synth.c — TEST DATA: consistent C1 outputs of any sector size (cuzk/c1_synth.h) with
 * sparse Merkle trees (filecoin/merkle_synth.h): only the touched leaves' paths are hashed,
 * every other node is a pseudo-random value of (seed, tree, level, position), so every
 * generated path reaches its tree's one root.
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
#include "filecoin/merkle_synth.h"

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
    ms_prf(out, g->seed, W_COL, l, node);
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
        ms_prf(o->seed, g->seed, W_ID, 1, attempt);
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

static ms_shape tree_shape(const cuzk_porep_info *in, bool d)
{
    return d ? ms_shape_sha256(in->tree_d_levels)
             : ms_shape_poseidon(in->base_levels, in->base_arity, in->sub_arity, in->top_arity);
}

/* m's path in t, its siblings in the arena */
static bool tree_path(const ms_tree *t, uint64_t leaf, cuzk_c1_merkle_proof *m, arena *a)
{
    ms_dom *sib = arena_alloc(a, ms_shape_siblings(&t->s) * 32);
    if (!sib)
        return false;
    ms_tree_path(t, leaf, m, sib);
    return true;
}

static bool column_proof(const gen *g, const ms_tree *tc, uint64_t node, cuzk_c1_column_proof *cp,
                         arena *a)
{
    cp->index = (uint32_t)node;
    cp->rows = arena_alloc(a, (size_t)g->in->layers * 32);
    if (!cp->rows)
        return false;
    for (unsigned l = 0; l < g->in->layers; l++)
        col(g, node, l, cp->rows[l]);
    return tree_path(tc, node, &cp->proof, a);
}

static cuzk_status build(gen *g, cuzk_c1_output *o, arena *a, cuzk_error *err)
{
    const cuzk_porep_info *in = g->in;
    const unsigned layers = in->layers;
    if (!derive_challenges(g, o))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: no seed gives distinct challenges");
    uint64_t s = ms_mix(g->seed ^ 0x5eed);
    for (size_t c = 0; c < g->n_chal; c++)
        for (unsigned j = 0; j < 14; j++) {
            uint64_t p;
            do {
                s = ms_mix(s);
                p = s % in->nodes;
            } while (is_chal(g, p));
            g->par[c][j] = (uint32_t)p;
        }
    if (!make_labels(g))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: SHA-256 failed");

    ms_tree td = {0}, tr = {0}, tc = {0};
    ms_shape sd = tree_shape(in, true), sr = tree_shape(in, false);
    cuzk_status st = CUZK_OK;
    size_t ncol = g->n_chal * 15;
    ms_node *ld = malloc(g->n_chal * sizeof *ld), *lr = malloc(g->n_chal * sizeof *lr);
    ms_node *lc = malloc(ncol * sizeof *lc);
    if (!ld || !lr || !lc) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: out of memory");
        goto out;
    }
    for (size_t c = 0; c < g->n_chal; c++) {
        uint64_t x = g->chal[c];
        dom data;
        ms_prf(data, g->seed, W_DATA, 0, x);
        ld[c].pos = lr[c].pos = x;
        memcpy(ld[c].v, data, 32);
        fr_add_dom(lr[c].v, g->labels[c][layers - 1], data);
        for (unsigned j = 0; j < 15; j++) {
            uint64_t node = j == 0 ? x : g->par[c][j - 1];
            dom rows[11];
            for (unsigned l = 0; l < layers; l++)
                col(g, node, l, rows[l]);
            ms_node *k = &lc[c * 15 + j];
            k->pos = node;
            if (!poseidon(k->v, (const dom *)rows, layers)) {
                st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: Poseidon failed");
                goto out;
            }
        }
    }
    if (!ms_tree_sparse(&td, &sd, g->seed, W_TREE_D, ld, g->n_chal) ||
        !ms_tree_sparse(&tr, &sr, g->seed, W_TREE_R, lr, g->n_chal) ||
        !ms_tree_sparse(&tc, &sr, g->seed, W_TREE_C, lc, ncol)) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "c1 synth: tree building failed");
        goto out;
    }
    memcpy(o->comm_d, ms_tree_root(&td), 32);
    if (!ms_comm_r(o->comm_r, ms_tree_root(&tc), ms_tree_root(&tr))) {
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "c1 synth: Poseidon failed");
        goto out;
    }
    o->proofs = arena_alloc(a, g->n_chal * sizeof *o->proofs);
    for (size_t c = 0; c < g->n_chal && o->proofs; c++) {
        cuzk_c1_challenge_proof *p = &o->proofs[c];
        uint64_t x = g->chal[c];
        bool ok = tree_path(&td, x, &p->comm_d_proof, a) &&
                  tree_path(&tr, x, &p->comm_r_last_proof, a) &&
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
    free(ld);
    free(lr);
    free(lc);
    ms_tree_free(&td);
    ms_tree_free(&tr);
    ms_tree_free(&tc);
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
    ms_prf(o->replica_id, seed, W_ID, 2, 0);
    ms_prf(o->ticket, seed, W_ID, 3, 0);
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
