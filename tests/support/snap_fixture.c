/*
 * snap_fixture.c — see snap_fixture.h. Trees, paths and the MerkleProof serde forms come
 * from merkle_fixture.h.
 */
#include <stdlib.h>
#include <string.h>

#include "merkle_fixture.h"
#include "snap_fixture.h"
#include "test_rng.h"

#define MAX_NODES (1u << 16)

static mf_shape r_shape(const cuzk_snap_info *in)
{
    return mf_shape_poseidon(in->base_levels, in->base_arity, in->sub_arity, in->top_arity);
}

static mf_shape d_shape(const cuzk_snap_info *in)
{
    return in->variant == CUZK_SNAP_POSEIDON ? r_shape(in) : mf_shape_sha256(in->challenge_bits);
}

int sf_make(sf_set *out, const cuzk_snap_info *in)
{
    memset(out, 0, sizeof *out);
    if (in->nodes > MAX_NODES)
        return -1;
    out->info = *in;
    out->h = in->h;
    out->n = in->partitions;
    size_t n = (size_t)in->nodes;
    mf_shape rs = r_shape(in), ds = d_shape(in);
    mf_tree t_old = {0}, t_d = {0}, t_new = {0};
    uint8_t(*old)[32] = malloc(n * 32), (*data)[32] = malloc(n * 32), (*nw)[32] = malloc(n * 32);
    uint64_t *ch = malloc(in->challenges * sizeof *ch);
    out->parts = calloc(out->n, sizeof *out->parts);
    if (!old || !data || !nw || !ch || !out->parts) {
        free(old), free(data), free(nw);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        mf_rand_value(old[i]);
        /* data as sealed pieces are: any bytes with the top two bits clear */
        test_rng_bytes(data[i], 32);
        data[i][31] &= 0x3f;
    }
    if (mf_tree_full(&t_old, &rs, old, n) || mf_tree_full(&t_d, &ds, data, n))
        goto fail_nw;
    uint8_t comm_c[32];
    mf_rand_value(comm_c);
    mf_comm_r(out->comm_r_old, comm_c, mf_tree_root(&t_old));
    memcpy(out->comm_d_new, mf_tree_root(&t_d), 32);
    cuzk_fr phi;
    if (cuzk_snap_phi(&phi, out->comm_d_new, out->comm_r_old, NULL) != CUZK_OK)
        goto fail_nw;
    uint32_t shr = in->challenge_bits - out->h;
    for (size_t i = 0; i < n; i++) {
        cuzk_fr o, d, rho;
        cuzk_fr_from_bytes_le(&o, old[i]);
        cuzk_fr_from_bytes_le(&d, data[i]);
        cuzk_snap_rho(&rho, &phi, (uint64_t)i >> shr);
        cuzk_fr_mul(&d, &d, &rho);
        cuzk_fr_add(&o, &o, &d);
        cuzk_fr_to_bytes_le(nw[i], &o);
    }
    if (mf_tree_full(&t_new, &rs, nw, n))
        goto fail_trees;
    mf_comm_r(out->comm_r_new, comm_c, mf_tree_root(&t_new));
    uint32_t apex_level = in->challenge_bits - in->partition_bits - in->apex_bits;
    for (uint32_t k = 0; k < out->n; k++) {
        cuzk_snap_partition_proof *pp = &out->parts[k];
        memcpy(pp->comm_c, comm_c, 32);
        pp->n_apex = in->apex_leaves;
        pp->n_challenges = in->challenges;
        pp->apex_leaves = malloc(in->apex_leaves ? in->apex_leaves * 32 : 1);
        pp->challenges = calloc(in->challenges, sizeof *pp->challenges);
        if (!pp->apex_leaves || !pp->challenges)
            goto fail_trees;
        if (in->apex_leaves)
            memcpy(pp->apex_leaves, t_d.lv[apex_level].v[(size_t)k * in->apex_leaves],
                   (size_t)in->apex_leaves * 32);
        if (cuzk_snap_challenges(in, out->comm_r_new, k, ch, NULL) != CUZK_OK)
            goto fail_trees;
        for (uint32_t c = 0; c < in->challenges; c++) {
            cuzk_snap_challenge_proof *cp = &pp->challenges[c];
            if (mf_tree_proof(&t_old, ch[c], &cp->r_old) ||
                mf_tree_proof(&t_d, ch[c], &cp->d_new) ||
                mf_tree_proof(&t_new, ch[c], &cp->r_new))
                goto fail_trees;
        }
    }
    mf_tree_free(&t_old), mf_tree_free(&t_d), mf_tree_free(&t_new);
    free(ch);
    return 0;
fail_nw:
    free(nw);
fail_trees:
    mf_tree_free(&t_old), mf_tree_free(&t_d), mf_tree_free(&t_new);
fail:
    free(ch);
    sf_free(out);
    return -1;
}

void sf_free(sf_set *s)
{
    if (!s)
        return;
    for (uint32_t k = 0; s->parts && k < s->n; k++) {
        cuzk_snap_partition_proof *pp = &s->parts[k];
        for (uint32_t c = 0; pp->challenges && c < pp->n_challenges; c++) {
            free(pp->challenges[c].r_old.siblings);
            free(pp->challenges[c].d_new.siblings);
            free(pp->challenges[c].r_new.siblings);
        }
        free(pp->challenges);
        free(pp->apex_leaves);
    }
    free(s->parts);
    memset(s, 0, sizeof *s);
}

/* ---- the job document: serde_json of storage-proofs-update's types, or their bincode ---- */

char *sf_job_json(const sf_set *s, int bincode)
{
    mf_shape rs = r_shape(&s->info), ds = d_shape(&s->info);
    json_t *vps = json_array();
    for (uint32_t k = 0; k < s->n; k++) {
        const cuzk_snap_partition_proof *pp = &s->parts[k];
        if (bincode) {
            mf_buf b = {0};
            mf_put(&b, pp->comm_c, 32);
            mf_put_uint(&b, pp->n_apex, 8);
            for (uint32_t i = 0; i < pp->n_apex; i++)
                mf_put(&b, pp->apex_leaves[i], 32);
            mf_put_uint(&b, pp->n_challenges, 8);
            for (uint32_t c = 0; c < pp->n_challenges; c++) {
                mf_put_merkle(&b, &rs, &pp->challenges[c].r_old);
                mf_put_merkle(&b, &ds, &pp->challenges[c].d_new);
                mf_put_merkle(&b, &rs, &pp->challenges[c].r_new);
            }
            json_array_append_new(vps, mf_buf_b64_json(&b, k == 0 ? bincode - 1 : 0));
            continue;
        }
        json_t *apex = json_array(), *cps = json_array();
        for (uint32_t i = 0; i < pp->n_apex; i++)
            json_array_append_new(apex, mf_bytes32_json(pp->apex_leaves[i]));
        for (uint32_t c = 0; c < pp->n_challenges; c++)
            json_array_append_new(
                cps, json_pack("{s:o,s:o,s:o}", "proof_r_old",
                               mf_merkle_json(&rs, &pp->challenges[c].r_old), "proof_d_new",
                               mf_merkle_json(&ds, &pp->challenges[c].d_new), "proof_r_new",
                               mf_merkle_json(&rs, &pp->challenges[c].r_new)));
        json_array_append_new(vps, json_pack("{s:o,s:o,s:o}", "comm_c",
                                             mf_bytes32_json(pp->comm_c), "apex_leafs", apex,
                                             "challenge_proofs", cps));
    }
    json_t *doc = json_pack("{s:s,s:o,s:o,s:o,s:i,s:o}", "registered_proof", s->info.name,
                            "comm_r_old", mf_bytes32_json(s->comm_r_old), "comm_r_new",
                            mf_bytes32_json(s->comm_r_new), "comm_d_new",
                            mf_bytes32_json(s->comm_d_new), "h", (json_int_t)s->h,
                            "vanilla_proofs", vps);
    char *t = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    return t;
}
