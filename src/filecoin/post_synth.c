/*
 * post_synth.c — TEST DATA: consistent PoSt jobs of any sector size (cuzk/vanilla_synth.h).
 * The sector proofs' arrays come from the job's arena, allocated up front on the calling
 * thread; then each sector (its challenges, sparse tree R, paths and commitments) is one
 * item of a pool loop writing only its own proofs.
 *
 * Threading: pure; the pool is borrowed. SHA-256 (the challenges) needs OpenSSL.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/vanilla_synth.h"
#include "filecoin/jw_arena.h"
#include "filecoin/merkle_synth.h"

/* what the PRF values are of (ms_prf's `what`) */
enum { W_RANDOMNESS = 1, W_SECTOR = 2, W_TREE_R = 3, W_LEAF = 4, W_COMM_C = 5 };

typedef struct gen {
    cuzk_post_job *job;
    uint64_t seed;
    ms_shape shape;
    _Atomic int failed;
    cuzk_status st; /* of the first failure (written once, under failed) */
    cuzk_error err;
} gen;

static void fail(gen *g, cuzk_status st, const cuzk_error *e)
{
    int expect = 0;
    if (atomic_compare_exchange_strong(&g->failed, &expect, 1)) {
        g->st = st;
        if (e)
            g->err = *e;
        else
            cuzk_error_set(&g->err, st, "PoSt synth: out of memory or a hash failed");
    }
}

static void sector(gen *g, uint32_t i)
{
    cuzk_post_job *job = g->job;
    cuzk_post_sector_proof *sp = &job->sectors[i];
    cuzk_post_partition p = cuzk_post_job_partition(job);
    uint64_t leaves[66];
    cuzk_error e = {0};
    cuzk_status st = cuzk_post_sector_challenges(&p, i, job->randomness, leaves, &e);
    if (st != CUZK_OK) {
        fail(g, st, &e);
        return;
    }
    /* each sector's values are a function of (seed, sector id) */
    uint64_t s = ms_mix(g->seed ^ ms_mix(W_SECTOR ^ ms_mix(sp->sector_id)));
    ms_node touched[66];
    for (uint32_t c = 0; c < sp->n_proofs; c++) {
        touched[c].pos = leaves[c];
        ms_prf(touched[c].v, s, W_LEAF, 0, leaves[c]);
    }
    ms_tree t;
    if (!ms_tree_sparse(&t, &g->shape, s, W_TREE_R, touched, sp->n_proofs)) {
        fail(g, CUZK_ERR_NOMEM, NULL);
        return;
    }
    size_t nsib = ms_shape_siblings(&g->shape);
    ms_dom *sib = sp->proofs[0].siblings; /* the sector's block, allocated with it */
    for (uint32_t c = 0; c < sp->n_proofs; c++)
        ms_tree_path(&t, leaves[c], &sp->proofs[c], sib + c * nsib);
    memcpy(sp->comm_r_last, ms_tree_root(&t), 32);
    ms_tree_free(&t);
    ms_prf(sp->comm_c, s, W_COMM_C, 0, 0);
    if (!ms_comm_r(sp->comm_r, sp->comm_c, sp->comm_r_last))
        fail(g, CUZK_ERR_INTERNAL, NULL);
}

static void sectors(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    gen *g = ctx;
    for (size_t i = begin; i < end && !g->failed; i++)
        sector(g, (uint32_t)i);
}

cuzk_status cuzk_post_job_synth(const cuzk_post_info *info, const cuzk_post_synth_opts *opts,
                                uint64_t seed, cuzk_pool *pool, cuzk_post_job **out,
                                cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt synth: out is NULL");
    *out = NULL;
    if (!info || !info->name)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt synth: no registered proof");
    cuzk_post_synth_opts o = {0, 0, 1, 1};
    if (opts)
        o = *opts;
    if (!o.sector_id_step)
        o.sector_id_step = 1;
    bool winning = info->kind == CUZK_POST_WINNING;
    uint32_t max = winning ? 1 : info->sectors;
    if (!o.n_sectors)
        o.n_sectors = max;
    ms_shape shape = ms_shape_poseidon(info->base_levels, info->base_arity, info->sub_arity,
                                       info->top_arity);
    if (o.n_sectors > max || (winning && o.partition_index) ||
        info->vanilla_challenges > 66 || !info->vanilla_challenges ||
        shape.levels != cuzk_post_info_levels(info) || ms_shape_leaves(&shape) != info->nodes)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt synth: %u sectors of partition %u for %s (1..%u, an "
                              "impossible shape, or a WinningPoSt partition other than 0)",
                              o.n_sectors, o.partition_index, info->name, max);
    if ((o.n_sectors - 1) > (UINT64_MAX - o.first_sector_id) / o.sector_id_step)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt synth: sector ids overflow");

    cuzk_post_job *job = calloc(1, sizeof *job);
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt synth: out of memory");
    job->info = *info;
    job->partition_index = o.partition_index;
    job->n_sectors = o.n_sectors;
    ms_prf(job->randomness, seed, W_RANDOMNESS, 0, 0);
    size_t nsib = ms_shape_siblings(&shape), vc = info->vanilla_challenges;
    job->sectors = jw_arena_alloc(&job->arena_, o.n_sectors * sizeof *job->sectors);
    for (uint32_t i = 0; job->sectors && i < o.n_sectors; i++) {
        cuzk_post_sector_proof *sp = &job->sectors[i];
        sp->sector_id = o.first_sector_id + i * o.sector_id_step;
        sp->n_proofs = (uint32_t)vc;
        sp->proofs = jw_arena_alloc(&job->arena_, vc * sizeof *sp->proofs);
        ms_dom *sib = jw_arena_alloc(&job->arena_, vc * nsib * sizeof(ms_dom));
        if (!sp->proofs || !sib) {
            job->sectors = NULL;
            break;
        }
        sp->proofs[0].siblings = sib; /* the sector's block: path c takes its c-th part */
    }
    if (!job->sectors) {
        cuzk_post_job_free(job);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt synth: out of memory");
    }
    gen g = {.job = job, .seed = seed, .shape = shape};
    cuzk_status st = cuzk_pool_for(pool, o.n_sectors, sectors, &g, 1);
    if (st == CUZK_OK && g.failed) {
        st = g.st;
        if (err)
            *err = g.err;
    }
    if (st != CUZK_OK) {
        cuzk_post_job_free(job);
        return st;
    }
    *out = job;
    return CUZK_OK;
}
