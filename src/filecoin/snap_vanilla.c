/*
 * snap_vanilla.c — the SnapDeals job document of cuzk/snap.h: registered update proof,
 * comm_r_old / comm_r_new / comm_d_new, h, and one storage-proofs-update PartitionProof per
 * partition, each as serde_json writes it (comm_c, apex_leafs, challenge_proofs[{proof_r_old,
 * proof_d_new, proof_r_new}], MerkleProof as for C1) or as base64 of its bincode bytes (the
 * PartitionProofBytes filecoin-ffi's GenerateUpdateProofWithVanilla receives; the array and
 * its two forms: vanilla_doc.h).
 *
 * Strict like the C1 and PoSt parsers: every count is checked against the registered proof
 * before anything is allocated for it, so the arena is bounded by the input size. Then
 * cuzk_snap_partition_check runs on every partition: a path that misses its root, a
 * commitment that does not match, a path to a node the challenges do not name, or a new
 * replica leaf that is not old + data * rho is rejected naming partition and challenge.
 *
 * Threading: pure functions; no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/jw_arena.h"

#include "filecoin/vanilla_doc.h"

typedef struct sctx {
    jw_ctx j;
    const cuzk_snap_info *info;
    jw_tree_shape r, d;
} sctx;

static cuzk_status alloc_parts(sctx *c, cuzk_snap_partition_proof *pp)
{
    const cuzk_snap_info *in = c->info;
    pp->n_apex = in->apex_leaves;
    pp->n_challenges = in->challenges;
    pp->apex_leaves = jw_arena_alloc(c->j.arena, in->apex_leaves ? in->apex_leaves * 32u : 1u);
    pp->challenges = jw_arena_alloc(c->j.arena, in->challenges * sizeof *pp->challenges);
    if (!pp->apex_leaves || !pp->challenges)
        return jw_fail(&c->j, CUZK_ERR_NOMEM, "out of memory");
    return CUZK_OK;
}

static cuzk_status get_part_json(void *ctx, const jd_value *v, void *dst)
{
    sctx *c = ctx;
    cuzk_snap_partition_proof *pp = dst;
    jw_ctx *j = &c->j;
    const jd_value *apex = NULL, *cps = NULL;
    size_t o1 = 0;
    cuzk_status st;
    if ((st = jw_get_bytes_field(j, v, "comm_c", pp->comm_c, 1)))
        return st;
    if ((st = jw_field(j, v, "apex_leafs", &apex, &o1)) ||
        (st = jw_expect_array(j, apex, c->info->apex_leaves)) || (st = alloc_parts(c, pp)))
        return st;
    for (uint32_t i = 0; i < pp->n_apex; i++) {
        size_t o = jw_push(j, "[%u]", i);
        if ((st = jw_get_bytes32(j, jd_array_get(apex, i), pp->apex_leaves[i], 1)))
            return st;
        jw_pop(j, o);
    }
    jw_pop(j, o1);
    if ((st = jw_field(j, v, "challenge_proofs", &cps, &o1)) ||
        (st = jw_expect_array(j, cps, c->info->challenges)))
        return st;
    for (uint32_t i = 0; i < pp->n_challenges; i++) {
        size_t o = jw_push(j, "[%u]", i);
        const jd_value *cp = jd_array_get(cps, i);
        if (!jd_is_object(cp))
            return jw_fail(j, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(cp));
        cuzk_snap_challenge_proof *x = &pp->challenges[i];
        if ((st = jw_get_merkle(j, cp, "proof_r_old", &c->r, &x->r_old)) ||
            (st = jw_get_merkle(j, cp, "proof_d_new", &c->d, &x->d_new)) ||
            (st = jw_get_merkle(j, cp, "proof_r_new", &c->r, &x->r_new)))
            return st;
        jw_pop(j, o);
    }
    jw_pop(j, o1);
    return CUZK_OK;
}

static cuzk_status get_part_bincode(void *ctx, bw_reader *r, void *dst)
{
    sctx *c = ctx;
    cuzk_snap_partition_proof *pp = dst;
    cuzk_status st;
    if ((st = bw_fr(r, pp->comm_c)) || (st = bw_len(r, c->info->apex_leaves, "apex_leafs")) ||
        (st = alloc_parts(c, pp)))
        return st;
    for (uint32_t i = 0; i < pp->n_apex && !st; i++)
        st = bw_fr(r, pp->apex_leaves[i]);
    if (st || (st = bw_len(r, c->info->challenges, "challenge_proofs")))
        return st;
    for (uint32_t i = 0; i < pp->n_challenges && !st; i++) {
        cuzk_snap_challenge_proof *x = &pp->challenges[i];
        if (!(st = bw_merkle(r, &c->r, &x->r_old)) && !(st = bw_merkle(r, &c->d, &x->d_new)))
            st = bw_merkle(r, &c->r, &x->r_new);
    }
    return st;
}

static const vd_reader k_partition = {get_part_json, get_part_bincode,
                                      "trailing bytes after the partition proof"};

static cuzk_status lookup_info(const char *name, uint64_t abi, void *info)
{
    return name ? cuzk_snap_info_from_name(name, info, NULL)
                : cuzk_snap_info_from_abi(abi, info, NULL);
}

static cuzk_status parse_doc(jw_ctx *j, const jd_value *root, void *arg)
{
    sctx *c = (sctx *)j; /* j is its first member */
    cuzk_snap_job *o = arg;
    if (!jd_is_object(root))
        return jw_fail(j, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(root));
    cuzk_status st = jw_get_registered_proof(j, root, "update", lookup_info, &o->info);
    if (st || (st = jw_get_bytes_field(j, root, "comm_r_old", o->comm_r_old, 1)) ||
        (st = jw_get_bytes_field(j, root, "comm_r_new", o->comm_r_new, 1)) ||
        (st = jw_get_bytes_field(j, root, "comm_d_new", o->comm_d_new, 1)))
        return st;
    const cuzk_snap_info *in = c->info = &o->info;
    o->h = in->h;
    if (jd_object_get(root, "h")) {
        uint64_t h = 0;
        if ((st = jw_get_uint_field(j, root, "h", 64, &h)))
            return st;
        if (!cuzk_snap_h_select(in, (uint32_t)h)) {
            size_t old = jw_push(j, ".h");
            st = jw_fail(j, CUZK_ERR_FORMAT, "h = %llu is not one of %s's allowed values",
                         (unsigned long long)h, in->name);
            jw_pop(j, old);
            return st;
        }
        o->h = (uint32_t)h;
    }
    c->r = (jw_tree_shape){in->base_levels, in->base_arity, in->sub_arity, in->top_arity,
                           in->name};
    c->d = (jw_tree_shape){in->challenge_bits, 2, 0, 0, in->name};
    const jd_value *vps = NULL;
    size_t o1 = 0, n = 0;
    if ((st = vd_proofs(j, root, &vps, &n, &o1)))
        return st;
    if (n != in->partitions)
        return jw_fail(j, CUZK_ERR_LENGTH, "%s takes %u partition proofs, got %zu", in->name,
                       in->partitions, n);
    o->n_partitions = (uint32_t)n;
    o->partitions = jw_arena_alloc(j->arena, n * sizeof *o->partitions);
    if (!o->partitions)
        return jw_fail(j, CUZK_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        size_t o2 = jw_push(j, "[%zu]", k);
        if ((st = vd_proof(j, jd_array_get(vps, k), &k_partition, c, &o->partitions[k])))
            return st;
        cuzk_snap_partition p = cuzk_snap_job_partition(o, (uint32_t)k);
        cuzk_error e = {0};
        if ((st = cuzk_snap_partition_check(&p, &e)))
            return jw_fail(j, st, "%s", e.msg);
        jw_pop(j, o2);
    }
    jw_pop(j, o1);
    return CUZK_OK;
}

cuzk_status cuzk_snap_job_parse(const char *json, size_t len, cuzk_snap_job **out,
                                cuzk_error *err)
{
    if (!json || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals parse: NULL argument");
    *out = NULL;
    cuzk_snap_job *o = calloc(1, sizeof *o);
    if (!o)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals parse: out of memory");
    sctx c = {.j = {.err = err, .arena = &o->arena_, .what = "SnapDeals"}};
    cuzk_status st = jw_parse_text(&c.j, json, len, parse_doc, o);
    if (st) {
        cuzk_snap_job_free(o);
        return st;
    }
    *out = o;
    return CUZK_OK;
}

/* A parsed job or a generated one (cuzk/vanilla_synth.h): the arena owns every array. */
void cuzk_snap_job_free(cuzk_snap_job *job)
{
    if (!job)
        return;
    jw_arena_free(job->arena_);
    free(job);
}
