/*
 * post_challenge.c — Fallback PoSt leaf challenges, public inputs and the prover-side
 * check of vanilla proofs (rust-fil-proofs storage-proofs-post fallback: vanilla.rs
 * generate_leaf_challenge_inner, utils.rs get_challenge_index, compound.rs
 * generate_public_inputs; filecoin-proofs post_util.rs generate_fallback_sector_challenges).
 *
 * Index of a challenge: WindowPoSt sector proof i of partition k is sector k * sectors + i
 * overall; API 1.2 uses challenge n as is, API 1.0 uses sector * challenges + n.
 * WinningPoSt's vanilla proof is sector 0 with challenges 0..65 (API 1.0, so n); its
 * circuit sector s is public sector s of 66 copies with 1 challenge: index s * 1 + 0. Both
 * name the same leaves.
 *
 * SHA-256 is OpenSSL's; without it (CUZK_HAVE_OPENSSL undefined) the derivations return
 * CUZK_ERR_UNSUPPORTED.
 *
 * Threading: pure functions.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/post.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>

static void put_u64_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

cuzk_status cuzk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                     uint64_t challenge_index, uint64_t nodes, uint64_t *leaf,
                                     cuzk_error *err)
{
    if (!randomness || !leaf || !nodes)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt challenge: bad argument");
    uint8_t buf[48], d[32];
    unsigned int dl = 0;
    memcpy(buf, randomness, 32);
    put_u64_le(buf + 32, sector_id);
    put_u64_le(buf + 40, challenge_index);
    if (EVP_Digest(buf, sizeof buf, d, &dl, EVP_sha256(), NULL) != 1 || dl != 32)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "PoSt challenge: SHA-256 failed");
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | d[i];
    *leaf = x % nodes;
    return CUZK_OK;
}

/* challenge_index of challenge n of the sector at overall position sector_index */
static uint64_t challenge_index(const cuzk_post_info *in, uint64_t sector_index,
                                uint64_t per_sector, uint64_t n)
{
    return in->api == CUZK_POST_API_1_2 ? n : sector_index * per_sector + n;
}

cuzk_status cuzk_post_sector_challenges(const cuzk_post_partition *p, uint32_t i,
                                        const uint8_t randomness[32], uint64_t *leaves,
                                        cuzk_error *err)
{
    if (!p || !p->given || !randomness || !leaves || i >= p->n_given)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt challenges: bad argument");
    const cuzk_post_info *in = &p->info;
    uint64_t sector_index = in->kind == CUZK_POST_WINNING
                                ? i
                                : (uint64_t)p->k * in->sectors + i;
    for (uint32_t n = 0; n < in->vanilla_challenges; n++) {
        uint64_t idx = challenge_index(in, sector_index, in->vanilla_challenges, n);
        cuzk_status st =
            cuzk_post_leaf_challenge(randomness, p->given[i].sector_id, idx, in->nodes,
                                     &leaves[n], err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status cuzk_post_public_inputs(const cuzk_post_partition *p, const uint8_t randomness[32],
                                    cuzk_fr *out, size_t n, cuzk_error *err)
{
    if (!p || !p->given || !p->n_given || !randomness || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt public inputs: bad argument");
    const cuzk_post_info *in = &p->info;
    if (n != cuzk_post_info_n_inputs(in))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt public inputs: %zu requested, the circuit has %zu", n,
                              cuzk_post_info_n_inputs(in));
    if (in->kind == CUZK_POST_WINNING ? p->n_given != 1 : p->n_given > in->sectors)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt public inputs: %u sectors for this partition", p->n_given);
    size_t w = 0;
    for (uint32_t s = 0; s < in->sectors; s++) {
        uint32_t i = in->kind == CUZK_POST_WINNING ? 0 : (s < p->n_given ? s : p->n_given - 1);
        const cuzk_post_sector_proof *sp = &p->given[i];
        /* WinningPoSt: the verifier's 66 public copies of the sector, each sector index s */
        uint64_t sector_index =
            in->kind == CUZK_POST_WINNING ? s : (uint64_t)p->k * in->sectors + i;
        if (cuzk_fr_from_bytes_le(&out[w++], sp->comm_r) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                  "PoSt public inputs: sector id %llu: comm_r is not a "
                                  "canonical field element",
                                  (unsigned long long)sp->sector_id);
        for (uint32_t c = 0; c < in->challenges; c++) {
            uint64_t leaf = 0;
            cuzk_status st = cuzk_post_leaf_challenge(
                randomness, sp->sector_id, challenge_index(in, sector_index, in->challenges, c),
                in->nodes, &leaf, err);
            if (st != CUZK_OK)
                return st;
            cuzk_fr_from_u64(&out[w++], leaf);
        }
    }
    return CUZK_OK;
}

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                     uint64_t challenge_index, uint64_t nodes, uint64_t *leaf,
                                     cuzk_error *err)
{
    (void)randomness, (void)sector_id, (void)challenge_index, (void)nodes, (void)leaf;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoSt challenge: built without OpenSSL");
}

cuzk_status cuzk_post_sector_challenges(const cuzk_post_partition *p, uint32_t i,
                                        const uint8_t randomness[32], uint64_t *leaves,
                                        cuzk_error *err)
{
    (void)p, (void)i, (void)randomness, (void)leaves;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoSt challenges: built without OpenSSL");
}

cuzk_status cuzk_post_public_inputs(const cuzk_post_partition *p, const uint8_t randomness[32],
                                    cuzk_fr *out, size_t n, cuzk_error *err)
{
    (void)p, (void)randomness, (void)out, (void)n;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "PoSt public inputs: built without OpenSSL");
}

#endif /* CUZK_HAVE_OPENSSL */

/* ---- the prover-side check ---------------------------------------------------------- */

static cuzk_status bad(cuzk_error *err, const cuzk_post_sector_proof *s, uint32_t i, uint32_t c,
                       const char *what)
{
    if (c == UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF, "PoSt: sector %u (id %llu): %s", i,
                              (unsigned long long)s->sector_id, what);
    return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF, "PoSt: sector %u (id %llu) challenge %u: %s",
                          i, (unsigned long long)s->sector_id, c, what);
}

/* The root the path computes from its leaf, into *root; false on a non-canonical value. */
static bool path_root(const cuzk_c1_merkle_proof *m, cuzk_fr *root)
{
    cuzk_fr cur, children[8];
    if (cuzk_fr_from_bytes_le(&cur, m->leaf) != CUZK_OK)
        return false;
    size_t k = 0;
    for (uint32_t l = 0; l < m->n_levels; l++) {
        unsigned a = m->arity[l];
        for (unsigned j = 0; j < a; j++) {
            if (j == m->index[l])
                children[j] = cur;
            else if (cuzk_fr_from_bytes_le(&children[j], m->siblings[k++]) != CUZK_OK)
                return false;
        }
        if (cuzk_poseidon_hash(&cur, children, a, NULL) != CUZK_OK)
            return false;
    }
    *root = cur;
    return true;
}

cuzk_status cuzk_post_partition_check(const cuzk_post_partition *p, const uint8_t randomness[32],
                                      cuzk_error *err)
{
    if (!randomness)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt check: no randomness");
    cuzk_status st = cuzk_post_partition_check_shape(p, err);
    if (st != CUZK_OK)
        return st;
    uint64_t leaves[66];
    for (uint32_t i = 0; i < p->n_given; i++) {
        const cuzk_post_sector_proof *s = &p->given[i];
        cuzk_fr pre[2], h, cr, rl, root;
        if (cuzk_fr_from_bytes_le(&pre[0], s->comm_c) != CUZK_OK ||
            cuzk_fr_from_bytes_le(&pre[1], s->comm_r_last) != CUZK_OK ||
            cuzk_fr_from_bytes_le(&cr, s->comm_r) != CUZK_OK)
            return bad(err, s, i, UINT32_MAX, "a commitment is not a canonical field element");
        rl = pre[1];
        if ((st = cuzk_poseidon_hash(&h, pre, 2, err)) != CUZK_OK)
            return st;
        if (!cuzk_fr_eq(&h, &cr))
            return bad(err, s, i, UINT32_MAX, "comm_r != Poseidon-2(comm_c, comm_r_last)");
        if (s->n_proofs > sizeof leaves / sizeof leaves[0])
            return bad(err, s, i, UINT32_MAX, "too many challenges");
        if ((st = cuzk_post_sector_challenges(p, i, randomness, leaves, err)) != CUZK_OK)
            return st;
        for (uint32_t c = 0; c < s->n_proofs; c++) {
            const cuzk_c1_merkle_proof *m = &s->proofs[c];
            if (!path_root(m, &root) || !cuzk_fr_eq(&root, &rl))
                return bad(err, s, i, c, "the inclusion path does not hash to comm_r_last");
            uint64_t node = cuzk_c1_merkle_node(m);
            if (node != leaves[c]) {
                char what[160];
                snprintf(what, sizeof what,
                         "the path proves leaf %llu but the randomness challenges leaf %llu",
                         (unsigned long long)node, (unsigned long long)leaves[c]);
                return bad(err, s, i, c, what);
            }
        }
    }
    return CUZK_OK;
}
