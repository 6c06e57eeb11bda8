/*
 * fil_synth.c — shape-exact, value-random PoSt and SnapDeals partitions for benchmarks
 * (cuzk/fil_synth.h). Each partition's memory is three blocks: the top-level array, the
 * Merkle proofs, and every path's siblings in one run, so freeing needs no walk.
 * Threading: pure functions; no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/fil_synth.h"

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* a canonical Fr repr: below 2^254 < r */
static void value(rng *r, uint8_t out[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = next(r);
        memcpy(out + 8 * i, &v, 8);
    }
    out[31] &= 0x3f;
}

typedef struct tshape {
    uint32_t levels;
    uint8_t arity[CUZK_C1_MAX_LEVELS];
    uint32_t siblings; /* sum of arity - 1 */
} tshape;

static tshape r_shape(uint32_t base_arity, uint32_t base_levels, uint32_t sub, uint32_t top)
{
    tshape t = {0};
    for (uint32_t l = 0; l < base_levels && t.levels < CUZK_C1_MAX_LEVELS; l++)
        t.arity[t.levels++] = (uint8_t)base_arity;
    if (sub && t.levels < CUZK_C1_MAX_LEVELS)
        t.arity[t.levels++] = (uint8_t)sub;
    if (top && t.levels < CUZK_C1_MAX_LEVELS)
        t.arity[t.levels++] = (uint8_t)top;
    for (uint32_t l = 0; l < t.levels; l++)
        t.siblings += t.arity[l] - 1u;
    return t;
}

static tshape binary_shape(uint32_t levels)
{
    tshape t = {0};
    t.levels = levels < CUZK_C1_MAX_LEVELS ? levels : CUZK_C1_MAX_LEVELS;
    for (uint32_t l = 0; l < t.levels; l++)
        t.arity[l] = 2;
    t.siblings = t.levels;
    return t;
}

/* m's path of shape t, its siblings taken from *sib (advanced); root given */
static void path(rng *r, const tshape *t, cuzk_c1_merkle_proof *m, uint8_t (**sib)[32],
                 const uint8_t root[32])
{
    m->n_levels = t->levels;
    for (uint32_t l = 0; l < t->levels; l++) {
        m->arity[l] = t->arity[l];
        m->index[l] = (uint8_t)(next(r) % t->arity[l]);
    }
    m->siblings = *sib;
    for (uint32_t i = 0; i < t->siblings; i++)
        value(r, (*sib)[i]);
    *sib += t->siblings;
    value(r, m->leaf);
    memcpy(m->root, root, 32);
}

cuzk_status cuzk_post_synth(cuzk_post_kind kind, uint64_t sector_size, uint64_t seed,
                            cuzk_post_partition *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt synth: out is NULL");
    memset(out, 0, sizeof *out);
    cuzk_post_info in;
    cuzk_status st = cuzk_post_info_get(kind, sector_size, &in, err);
    if (st != CUZK_OK)
        return st;
    tshape t = r_shape(in.base_arity, in.base_levels, in.sub_arity, in.top_arity);
    if (t.levels != cuzk_post_info_levels(&in))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoSt synth: tree of %u levels",
                              cuzk_post_info_levels(&in));
    uint32_t n = kind == CUZK_POST_WINNING ? 1 : in.sectors;
    size_t n_proofs = (size_t)n * in.vanilla_challenges;
    cuzk_post_sector_proof *s = calloc(n, sizeof *s);
    cuzk_c1_merkle_proof *m = calloc(n_proofs, sizeof *m);
    uint8_t(*sib)[32] = malloc(n_proofs * t.siblings * 32 + 32);
    if (!s || !m || !sib) {
        free(s);
        free(m);
        free(sib);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt synth: out of memory");
    }
    rng r = {seed};
    uint8_t(*at)[32] = sib;
    for (uint32_t i = 0; i < n; i++) {
        s[i].sector_id = 1 + 7ull * i + next(&r) % 7;
        value(&r, s[i].comm_r);
        value(&r, s[i].comm_c);
        value(&r, s[i].comm_r_last);
        s[i].n_proofs = in.vanilla_challenges;
        s[i].proofs = m + (size_t)i * in.vanilla_challenges;
        for (uint32_t c = 0; c < in.vanilla_challenges; c++)
            path(&r, &t, &s[i].proofs[c], &at, s[i].comm_r_last);
    }
    out->info = in;
    out->k = 0;
    out->n_given = n;
    out->given = s;
    return CUZK_OK;
}

void cuzk_post_synth_free(cuzk_post_partition *p)
{
    if (!p)
        return;
    if (p->given) {
        free(p->given[0].proofs[0].siblings);
        free(p->given[0].proofs);
        free((void *)p->given);
    }
    memset(p, 0, sizeof *p);
}

cuzk_status cuzk_snap_synth(uint64_t sector_size, uint64_t seed, cuzk_snap_partition *out,
                            cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals synth: out is NULL");
    memset(out, 0, sizeof *out);
    cuzk_snap_info in;
    cuzk_status st = cuzk_snap_info_get(sector_size, CUZK_SNAP_MAIN, &in, err);
    if (st != CUZK_OK)
        return st;
    tshape tr = r_shape(in.base_arity, in.base_levels, in.sub_arity, in.top_arity);
    tshape td = binary_shape(cuzk_snap_info_d_levels(&in));
    if (tr.levels != cuzk_snap_info_r_levels(&in) || td.levels != cuzk_snap_info_d_levels(&in))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "SnapDeals synth: tree too deep");
    size_t per = 2u * tr.siblings + td.siblings;
    cuzk_snap_partition_proof *pp = calloc(1, sizeof *pp);
    cuzk_snap_challenge_proof *cp = calloc(in.challenges, sizeof *cp);
    uint8_t(*sib)[32] = malloc(((size_t)in.challenges * per + in.apex_leaves + 1) * 32);
    if (!pp || !cp || !sib) {
        free(pp);
        free(cp);
        free(sib);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals synth: out of memory");
    }
    rng r = {seed};
    out->info = in;
    out->k = 0;
    out->h = in.h;
    value(&r, out->comm_r_old);
    value(&r, out->comm_d_new);
    value(&r, out->comm_r_new);
    uint8_t root_old[32], root_new[32];
    value(&r, root_old);
    value(&r, root_new);
    value(&r, pp->comm_c);
    /* the apex leaves first in the block, so freeing the block frees them too */
    pp->n_apex = in.apex_leaves;
    pp->apex_leaves = sib;
    for (uint32_t i = 0; i < in.apex_leaves; i++)
        value(&r, pp->apex_leaves[i]);
    uint8_t(*at)[32] = sib + in.apex_leaves;
    pp->n_challenges = in.challenges;
    pp->challenges = cp;
    for (uint32_t c = 0; c < in.challenges; c++) {
        path(&r, &tr, &cp[c].r_old, &at, root_old);
        path(&r, &td, &cp[c].d_new, &at, out->comm_d_new);
        path(&r, &tr, &cp[c].r_new, &at, root_new);
    }
    out->proof = pp;
    return CUZK_OK;
}

void cuzk_snap_synth_free(cuzk_snap_partition *p)
{
    if (!p)
        return;
    if (p->proof) {
        free(p->proof->apex_leaves);
        free(p->proof->challenges);
        free((void *)p->proof);
    }
    memset(p, 0, sizeof *p);
}
