/*
 * post_vanilla.c — the PoSt job document of cuzk/post.h: registered proof, randomness,
 * partition index and one filecoin-proofs FallbackPoStSectorProof per sector, each as
 * serde_json writes it (field names of the serde derives: sector_id, comm_r,
 * vanilla_proof{sectors[{inclusion_proofs, comm_c, comm_r_last}]}, MerkleProof as for C1)
 * or as base64 of its bincode bytes (the form filecoin-ffi's GenerateWindowPoStWithVanilla
 * and GenerateWinningPoStWithVanilla receive: bincode 1 defaults, fixed-width little-endian
 * integers, u64 lengths, u32 enum variants, 32-byte values raw; read with bincode_walk.h;
 * the array and its two forms: vanilla_doc.h).
 *
 * Strict like the C1 parser (json_walk.h): every count is checked against the registered
 * proof before anything is allocated for it, so the arena is bounded by the input size.
 * After parsing, cuzk_post_partition_check runs: a path that misses its root, comm_r that
 * is not H(comm_c, comm_r_last), or a path to a leaf the randomness does not challenge is
 * rejected naming the sector and challenge.
 *
 * Threading: pure functions; no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "filecoin/jw_arena.h"

#include "filecoin/vanilla_doc.h"

typedef struct pctx {
    jw_ctx j;
    const cuzk_post_info *info;
    jw_tree_shape shape;
    cuzk_pool *pool; /* the check's (cuzk_post_job_check) */
} pctx;

/* ---- JSON form ------------------------------------------------------------------------ */

static cuzk_status get_sector_json(void *ctx, const jd_value *v, void *dst)
{
    pctx *c = ctx;
    cuzk_post_sector_proof *out = dst;
    jw_ctx *j = &c->j;
    const jd_value *vp = NULL, *secs = NULL, *incl = NULL;
    size_t o1 = 0, o2 = 0, o3 = 0;
    cuzk_status st;
    if ((st = jw_get_uint_field(j, v, "sector_id", UINT64_MAX, &out->sector_id)) ||
        (st = jw_get_bytes_field(j, v, "comm_r", out->comm_r, 1)))
        return st;
    if ((st = jw_field(j, v, "vanilla_proof", &vp, &o1)) ||
        (st = jw_field(j, vp, "sectors", &secs, &o2)) || (st = jw_expect_array(j, secs, 1)))
        return st;
    const jd_value *sp = jd_array_get(secs, 0);
    size_t o4 = jw_push(j, "[0]");
    if ((st = jw_field(j, sp, "inclusion_proofs", &incl, &o3)) ||
        (st = jw_expect_array(j, incl, c->info->vanilla_challenges)))
        return st;
    out->n_proofs = c->info->vanilla_challenges;
    out->proofs = jw_arena_alloc(j->arena, out->n_proofs * sizeof *out->proofs);
    if (!out->proofs)
        return jw_fail(j, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < out->n_proofs; i++) {
        size_t o5 = jw_push(j, "[%u]", i);
        if ((st = jw_get_merkle(j, jd_array_get(incl, i), NULL, &c->shape, &out->proofs[i])))
            return st;
        jw_pop(j, o5);
    }
    jw_pop(j, o3);
    if ((st = jw_get_bytes_field(j, sp, "comm_c", out->comm_c, 1)) ||
        (st = jw_get_bytes_field(j, sp, "comm_r_last", out->comm_r_last, 1)))
        return st;
    jw_pop(j, o4);
    jw_pop(j, o2);
    jw_pop(j, o1);
    return CUZK_OK;
}

/* ---- bincode form --------------------------------------------------------------------- */

static cuzk_status get_sector_bincode(void *ctx, bw_reader *r, void *dst)
{
    pctx *c = ctx;
    cuzk_post_sector_proof *out = dst;
    uint32_t vc = c->info->vanilla_challenges;
    cuzk_status st;
    if ((st = bw_u64(r, &out->sector_id)) || (st = bw_fr(r, out->comm_r)) ||
        (st = bw_len(r, 1, "vanilla_proof.sectors")) || (st = bw_len(r, vc, "inclusion_proofs")))
        return st;
    out->n_proofs = vc;
    out->proofs = jw_arena_alloc(c->j.arena, vc * sizeof *out->proofs);
    if (!out->proofs)
        return jw_fail(&c->j, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < vc && !st; i++)
        st = bw_merkle(r, &c->shape, &out->proofs[i]);
    if (st || (st = bw_fr(r, out->comm_c)))
        return st;
    return bw_fr(r, out->comm_r_last);
}

static const vd_reader k_sector = {get_sector_json, get_sector_bincode,
                                   "trailing bytes after the sector proof"};

/* ---- document ------------------------------------------------------------------------- */

static cuzk_status lookup_info(const char *name, uint64_t abi, void *info)
{
    return name ? cuzk_post_info_from_name(name, info, NULL)
                : cuzk_post_info_from_abi(abi, info, NULL);
}

static cuzk_status parse_doc(jw_ctx *j, const jd_value *root, void *arg)
{
    pctx *c = (pctx *)j; /* j is its first member */
    cuzk_post_job *o = arg;
    if (!jd_is_object(root))
        return jw_fail(j, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(root));
    cuzk_status st = jw_get_registered_proof(j, root, "PoSt", lookup_info, &o->info);
    if (st || (st = jw_get_bytes_field(j, root, "randomness", o->randomness, 0)))
        return st;
    const cuzk_post_info *in = c->info = &o->info;
    c->shape = (jw_tree_shape){in->base_levels, in->base_arity, in->sub_arity, in->top_arity,
                               in->name};
    if (jd_object_get(root, "partition_index")) {
        uint64_t k = 0;
        uint64_t max = in->kind == CUZK_POST_WINNING ? 0 : UINT32_MAX;
        if ((st = jw_get_uint_field(j, root, "partition_index", max, &k)))
            return st;
        o->partition_index = (uint32_t)k;
    }
    const jd_value *vps = NULL;
    size_t o1 = 0, n = 0;
    if ((st = vd_proofs(j, root, &vps, &n, &o1)))
        return st;
    if (in->kind == CUZK_POST_WINNING && n != 1)
        return jw_fail(j, CUZK_ERR_LENGTH, "WinningPoSt takes 1 sector proof, got %zu", n);
    if (n < 1 || n > in->sectors)
        return jw_fail(j, CUZK_ERR_LENGTH, "a %s partition takes 1..%u sector proofs, got %zu",
                       in->name, in->sectors, n);
    o->n_sectors = (uint32_t)n;
    o->sectors = jw_arena_alloc(j->arena, n * sizeof *o->sectors);
    if (!o->sectors)
        return jw_fail(j, CUZK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        size_t o2 = jw_push(j, "[%zu]", i);
        if ((st = vd_proof(j, jd_array_get(vps, i), &k_sector, c, &o->sectors[i])))
            return st;
        if (i > 0 && o->sectors[i].sector_id <= o->sectors[i - 1].sector_id)
            return jw_fail(j, CUZK_ERR_FORMAT,
                           "sector id %llu out of order after %llu (ids must be strictly "
                           "increasing)",
                           (unsigned long long)o->sectors[i].sector_id,
                           (unsigned long long)o->sectors[i - 1].sector_id);
        jw_pop(j, o2);
    }
    /* roots, comm_r and challenges: messages name the sector and challenge */
    cuzk_error e = {0};
    if ((st = cuzk_post_job_check(o, c->pool, &e)))
        return jw_fail(j, st, "%s", e.msg);
    jw_pop(j, o1);
    return CUZK_OK;
}

cuzk_status cuzk_post_job_parse_pool(const char *json, size_t len, cuzk_pool *pool,
                                     cuzk_post_job **out, cuzk_error *err)
{
    if (!json || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt parse: NULL argument");
    *out = NULL;
    cuzk_post_job *o = calloc(1, sizeof *o);
    if (!o)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt parse: out of memory");
    pctx c = {.j = {.err = err, .arena = &o->arena_, .what = "PoSt"}, .pool = pool};
    cuzk_status st = jw_parse_text(&c.j, json, len, parse_doc, o);
    if (st) {
        cuzk_post_job_free(o);
        return st;
    }
    *out = o;
    return CUZK_OK;
}

cuzk_status cuzk_post_job_parse(const char *json, size_t len, cuzk_post_job **out,
                                cuzk_error *err)
{
    return cuzk_post_job_parse_pool(json, len, NULL, out, err);
}

/* A parsed job or a generated one (cuzk/vanilla_synth.h): the arena owns every array. */
void cuzk_post_job_free(cuzk_post_job *job)
{
    if (!job)
        return;
    jw_arena_free(job->arena_);
    free(job);
}
