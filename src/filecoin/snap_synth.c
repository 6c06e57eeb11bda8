/*
 * snap_synth.c — TEST DATA: consistent SnapDeals jobs of any sector size
 * (cuzk/vanilla_synth.h). In order: per cell a random old replica value and data value;
 * trees D-new and R-old (complete cells trees, filecoin/merkle_synth.h) give comm_d_new and,
 * with a random comm_c, comm_r_old; phi = Poseidon_gen(comm_d_new, comm_r_old); per cell the
 * new replica value old + data * rho(cell's high bits); tree R-new gives comm_r_new; then
 * each partition's challenges (from comm_r_new, as the verifier derives them), their three
 * paths and the partition's apex leaves (tree D's nodes at the apex level).
 *
 * Threading: pure; the pool (the trees' levels) is borrowed. SHA-256 (tree D of the main
 * variant) needs OpenSSL.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"
#include "cuzk/vanilla_synth.h"
#include "filecoin/jw_arena.h"
#include "filecoin/merkle_synth.h"

/* what the PRF values are of (ms_prf's `what`) */
enum { W_OLD = 1, W_DATA = 2, W_COMM_C = 3 };

/* at most 2^12 cells: a few seconds of hashing at 32 GiB, and never wider than a rho
 * region (2^(challenge_bits - h) nodes, h <= 12 in every hs table) */
#define CELL_LOG2_MAX 12u

static cuzk_status fail(cuzk_error *err, cuzk_status st, const char *what)
{
    return cuzk_error_set(err, st, "SnapDeals synth: %s", what);
}

/* the three trees and the per-cell values they are built on */
typedef struct sector {
    uint32_t cell_bits;
    size_t cells;
    ms_dom *old, *data, *nw;
    ms_tree r_old, d_new, r_new;
} sector;

static void sector_free(sector *s)
{
    free(s->old);
    free(s->data);
    free(s->nw);
    ms_tree_free(&s->r_old);
    ms_tree_free(&s->d_new);
    ms_tree_free(&s->r_new);
}

static cuzk_status build(const cuzk_snap_info *in, uint32_t h, uint64_t seed, cuzk_pool *pool,
                         sector *s, cuzk_snap_job *job, cuzk_error *err)
{
    ms_shape rs = ms_shape_poseidon(in->base_levels, in->base_arity, in->sub_arity,
                                    in->top_arity);
    ms_shape ds = in->variant == CUZK_SNAP_MAIN ? ms_shape_sha256(in->challenge_bits) : rs;
    if (ms_shape_leaves(&rs) != in->nodes || ms_shape_leaves(&ds) != in->nodes ||
        rs.levels != cuzk_snap_info_r_levels(in) || ds.levels != cuzk_snap_info_d_levels(in))
        return fail(err, CUZK_ERR_INVALID_ARG, "an impossible shape");
    s->cell_bits = in->challenge_bits > CELL_LOG2_MAX ? in->challenge_bits - CELL_LOG2_MAX : 0;
    if (s->cell_bits > in->challenge_bits - h)
        return fail(err, CUZK_ERR_INVALID_ARG, "h too large for the cells");
    s->cells = (size_t)(in->nodes >> s->cell_bits);
    s->old = malloc(s->cells * sizeof(ms_dom));
    s->data = malloc(s->cells * sizeof(ms_dom));
    s->nw = malloc(s->cells * sizeof(ms_dom));
    if (!s->old || !s->data || !s->nw)
        return fail(err, CUZK_ERR_NOMEM, "out of memory");
    for (size_t c = 0; c < s->cells; c++) {
        ms_prf(s->old[c], seed, W_OLD, 0, c);
        ms_prf(s->data[c], seed, W_DATA, 0, c); /* < 2^254: the top two bits clear */
    }
    uint8_t comm_c[32];
    ms_prf(comm_c, seed, W_COMM_C, 0, 0);
    if (!ms_tree_cells(&s->d_new, &ds, s->cell_bits, s->data, pool) ||
        !ms_tree_cells(&s->r_old, &rs, s->cell_bits, s->old, pool))
        return fail(err, in->variant == CUZK_SNAP_MAIN ? CUZK_ERR_UNSUPPORTED : CUZK_ERR_NOMEM,
                    "building trees D-new and R-old failed (out of memory, or no SHA-256)");
    memcpy(job->comm_d_new, ms_tree_root(&s->d_new), 32);
    if (!ms_comm_r(job->comm_r_old, comm_c, ms_tree_root(&s->r_old)))
        return fail(err, CUZK_ERR_INTERNAL, "Poseidon failed");
    cuzk_fr phi, rho, o, d;
    cuzk_status st = cuzk_snap_phi(&phi, job->comm_d_new, job->comm_r_old, err);
    if (st)
        return st;
    uint32_t shr = in->challenge_bits - h;
    uint64_t last_high = UINT64_MAX;
    for (size_t c = 0; c < s->cells; c++) {
        uint64_t high = ((uint64_t)c << s->cell_bits) >> shr; /* the whole cell's */
        if (high != last_high)
            cuzk_snap_rho(&rho, &phi, last_high = high);
        cuzk_fr_from_bytes_le(&o, s->old[c]);
        cuzk_fr_from_bytes_le(&d, s->data[c]);
        cuzk_fr_mul(&d, &d, &rho);
        cuzk_fr_add(&o, &o, &d);
        cuzk_fr_to_bytes_le(s->nw[c], &o);
    }
    if (!ms_tree_cells(&s->r_new, &rs, s->cell_bits, s->nw, pool))
        return fail(err, CUZK_ERR_NOMEM, "building tree R-new failed");
    if (!ms_comm_r(job->comm_r_new, comm_c, ms_tree_root(&s->r_new)))
        return fail(err, CUZK_ERR_INTERNAL, "Poseidon failed");

    /* every partition's proof */
    uint32_t apex_level = in->challenge_bits - in->partition_bits - in->apex_bits;
    size_t nr = ms_shape_siblings(&rs), nd = ms_shape_siblings(&ds);
    uint64_t *ch = malloc(in->challenges * sizeof *ch);
    job->partitions = jw_arena_alloc(&job->arena_, in->partitions * sizeof *job->partitions);
    if (!ch || !job->partitions) {
        free(ch);
        return fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    job->n_partitions = in->partitions;
    for (uint32_t k = 0; k < in->partitions && !st; k++) {
        cuzk_snap_partition_proof *pp = &job->partitions[k];
        memcpy(pp->comm_c, comm_c, 32);
        pp->n_apex = in->apex_leaves;
        pp->n_challenges = in->challenges;
        pp->apex_leaves = jw_arena_alloc(&job->arena_, (size_t)in->apex_leaves * 32);
        pp->challenges = jw_arena_alloc(&job->arena_, in->challenges * sizeof *pp->challenges);
        ms_dom *sib = jw_arena_alloc(&job->arena_, in->challenges * (2 * nr + nd) * 32);
        if (!pp->apex_leaves || !pp->challenges || !sib) {
            st = fail(err, CUZK_ERR_NOMEM, "out of memory");
            break;
        }
        for (uint32_t i = 0; i < in->apex_leaves; i++)
            ms_tree_node(&s->d_new, apex_level, (uint64_t)k * in->apex_leaves + i,
                         pp->apex_leaves[i]);
        if ((st = cuzk_snap_challenges(in, job->comm_r_new, k, ch, err)))
            break;
        for (uint32_t c = 0; c < in->challenges; c++) {
            cuzk_snap_challenge_proof *cp = &pp->challenges[c];
            ms_tree_path(&s->r_old, ch[c], &cp->r_old, sib);
            ms_tree_path(&s->d_new, ch[c], &cp->d_new, sib + nr);
            ms_tree_path(&s->r_new, ch[c], &cp->r_new, sib + nr + nd);
            sib += 2 * nr + nd;
        }
    }
    free(ch);
    return st;
}

cuzk_status cuzk_snap_job_synth(const cuzk_snap_info *info, uint32_t h, uint64_t seed,
                                cuzk_pool *pool, cuzk_snap_job **out, cuzk_error *err)
{
    if (!out)
        return fail(err, CUZK_ERR_INVALID_ARG, "out is NULL");
    *out = NULL;
    if (!info || !info->name)
        return fail(err, CUZK_ERR_INVALID_ARG, "no registered proof");
    if (!h)
        h = info->h;
    if (!cuzk_snap_h_select(info, h) || h > info->challenge_bits)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals synth: h = %u is not allowed for %s", h, info->name);
    cuzk_snap_job *job = calloc(1, sizeof *job);
    if (!job)
        return fail(err, CUZK_ERR_NOMEM, "out of memory");
    job->info = *info;
    job->h = h;
    sector s = {0};
    cuzk_status st = build(info, h, seed, pool, &s, job, err);
    sector_free(&s);
    if (st != CUZK_OK) {
        cuzk_snap_job_free(job);
        return st;
    }
    *out = job;
    return CUZK_OK;
}
