/*
 * post_fixture.c — see post_fixture.h. Trees, paths and the MerkleProof serde forms come
 * from merkle_fixture.h.
 */
#include <stdlib.h>
#include <string.h>

#include "merkle_fixture.h"
#include "post_fixture.h"
#include "test_rng.h"

static mf_shape r_shape(const cuzk_post_info *in)
{
    return mf_shape_poseidon(in->base_levels, in->base_arity, in->sub_arity, in->top_arity);
}

/* One sector's sparse tree over the challenged leaves; fills proofs and comm_r_last. */
static int build_sector(const cuzk_post_info *in, cuzk_post_sector_proof *sp,
                        const uint64_t *leaves)
{
    mf_shape s = r_shape(in);
    mf_tree t;
    if (mf_tree_sparse(&t, &s, leaves, sp->n_proofs))
        return -1;
    memcpy(sp->comm_r_last, mf_tree_root(&t), 32);
    int rc = 0;
    for (uint32_t c = 0; c < sp->n_proofs && !rc; c++)
        rc = mf_tree_proof(&t, leaves[c], &sp->proofs[c]);
    mf_tree_free(&t);
    return rc;
}

int pf_make(pf_set *out, const cuzk_post_info *info, uint32_t k, uint32_t n, uint64_t first_id)
{
    memset(out, 0, sizeof *out);
    out->info = *info;
    out->k = k;
    out->n = n;
    test_rng_bytes(out->randomness, 32);
    out->randomness[31] &= 0x3f;
    out->sectors = calloc(n, sizeof *out->sectors);
    uint64_t *leaves = calloc(info->vanilla_challenges, sizeof *leaves);
    if (!out->sectors || !leaves)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        cuzk_post_sector_proof *sp = &out->sectors[i];
        sp->sector_id = first_id + 3ull * i;
        sp->n_proofs = info->vanilla_challenges;
        sp->proofs = calloc(sp->n_proofs, sizeof *sp->proofs);
        if (!sp->proofs)
            goto fail;
    }
    cuzk_post_partition p = pf_partition(out);
    for (uint32_t i = 0; i < n; i++) {
        cuzk_post_sector_proof *sp = &out->sectors[i];
        if (cuzk_post_sector_challenges(&p, i, out->randomness, leaves, NULL) != CUZK_OK ||
            build_sector(info, sp, leaves) != 0)
            goto fail;
        mf_rand_value(sp->comm_c);
        mf_comm_r(sp->comm_r, sp->comm_c, sp->comm_r_last);
    }
    free(leaves);
    return 0;
fail:
    free(leaves);
    pf_free(out);
    return -1;
}

void pf_free(pf_set *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->sectors && i < s->n; i++) {
        for (uint32_t c = 0; s->sectors[i].proofs && c < s->sectors[i].n_proofs; c++)
            free(s->sectors[i].proofs[c].siblings);
        free(s->sectors[i].proofs);
    }
    free(s->sectors);
    memset(s, 0, sizeof *s);
}

/* ---- the job document: serde_json of filecoin-proofs' types, or their bincode ---- */

char *pf_job_json(const pf_set *s, int bincode)
{
    mf_shape rs = r_shape(&s->info);
    json_t *vps = json_array();
    for (uint32_t i = 0; i < s->n; i++) {
        const cuzk_post_sector_proof *sp = &s->sectors[i];
        if (bincode) {
            mf_buf b = {0};
            mf_put_uint(&b, sp->sector_id, 8);
            mf_put(&b, sp->comm_r, 32);
            mf_put_uint(&b, 1, 8); /* vanilla_proof.sectors */
            mf_put_uint(&b, sp->n_proofs, 8);
            for (uint32_t c = 0; c < sp->n_proofs; c++)
                mf_put_merkle(&b, &rs, &sp->proofs[c]);
            mf_put(&b, sp->comm_c, 32);
            mf_put(&b, sp->comm_r_last, 32);
            json_array_append_new(vps, mf_buf_b64_json(&b, i == 0 ? bincode - 1 : 0));
            continue;
        }
        json_t *incl = json_array();
        for (uint32_t c = 0; c < sp->n_proofs; c++)
            json_array_append_new(incl, mf_merkle_json(&rs, &sp->proofs[c]));
        json_t *sec = json_pack("{s:o,s:o,s:o}", "inclusion_proofs", incl, "comm_c",
                                mf_bytes32_json(sp->comm_c), "comm_r_last",
                                mf_bytes32_json(sp->comm_r_last));
        json_array_append_new(
            vps, json_pack("{s:I,s:o,s:{s:[o]}}", "sector_id", (json_int_t)sp->sector_id,
                           "comm_r", mf_bytes32_json(sp->comm_r), "vanilla_proof", "sectors",
                           sec));
    }
    json_t *doc = json_pack("{s:s,s:o,s:i,s:o}", "registered_proof", s->info.name, "randomness",
                            mf_bytes32_json(s->randomness), "partition_index", (json_int_t)s->k,
                            "vanilla_proofs", vps);
    char *txt = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    return txt;
}
