/*
 * snap_check.c — the prover-side check of a SnapDeals partition proof (what
 * storage-proofs-update vanilla.rs EmptySectorUpdate::verify checks, plus the apex-tree
 * consistency the circuit relies on): see cuzk_snap_partition_check in cuzk/snap.h. A proof
 * that passes gives a satisfied circuit witness; one that fails is named by partition,
 * challenge and tree before any proving time is spent.
 *
 * Tree D hashes with OpenSSL's SHA-256 (sha256(left || right), top two bits cleared);
 * without OpenSSL the check returns CUZK_ERR_UNSUPPORTED.
 *
 * Threading: pure functions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/snap.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>

/* 16 partitions x 86: the poseidon variant at 512 MiB and up */
#define MAX_CHALLENGES 1376u

static cuzk_status bad(cuzk_error *err, const cuzk_snap_partition *p, int c, const char *fmt,
                       ...) __attribute__((format(printf, 4, 5)));
static cuzk_status bad(cuzk_error *err, const cuzk_snap_partition *p, int c, const char *fmt,
                       ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c < 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF, "SnapDeals partition %u: %s", p->k,
                              what);
    return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF, "SnapDeals partition %u challenge %d: %s",
                          p->k, c, what);
}

static void hash_children(uint8_t out[32], uint8_t (*ch)[32], unsigned a, int sha)
{
    if (sha) {
        unsigned int len = 0;
        if (EVP_Digest(ch, 64, out, &len, EVP_sha256(), NULL) != 1 || len != 32)
            memset(out, 0xff, 32); /* not a canonical value: every comparison fails */
        else
            out[31] &= 0x3f;
        return;
    }
    cuzk_fr in[8], h;
    for (unsigned j = 0; j < a; j++)
        cuzk_fr_from_bytes_le(&in[j], ch[j]); /* the shape check made them canonical */
    cuzk_poseidon_hash(&h, in, a, NULL);
    cuzk_fr_to_bytes_le(out, &h);
}

/* nodes[l] = the path's node at height l (nodes[0] = leaf, nodes[n_levels] = root) */
static void path_nodes(const cuzk_c1_merkle_proof *m, int sha, uint8_t (*nodes)[32])
{
    uint8_t ch[8][32];
    size_t k = 0;
    memcpy(nodes[0], m->leaf, 32);
    for (uint32_t l = 0; l < m->n_levels; l++) {
        unsigned a = m->arity[l];
        for (unsigned j = 0; j < a; j++)
            memcpy(ch[j], j == m->index[l] ? nodes[l] : m->siblings[k++], 32);
        hash_children(nodes[l + 1], ch, a, sha);
    }
}

static uint64_t path_node(const cuzk_c1_merkle_proof *m)
{
    uint64_t node = 0, scale = 1;
    for (uint32_t l = 0; l < m->n_levels; l++) {
        node += scale * m->index[l];
        scale *= m->arity[l];
    }
    return node;
}

static cuzk_status check_tree(cuzk_error *err, const cuzk_snap_partition *p, int c,
                              const char *tree, const cuzk_c1_merkle_proof *m, int sha,
                              uint64_t node, const uint8_t *root, const char *root_name,
                              uint8_t (*nodes)[32])
{
    if (path_node(m) != node)
        return bad(err, p, c, "tree %s path proves node %llu, challenged node is %llu", tree,
                   (unsigned long long)path_node(m), (unsigned long long)node);
    path_nodes(m, sha, nodes);
    if (memcmp(nodes[m->n_levels], m->root, 32))
        return bad(err, p, c, "tree %s path does not reach its root", tree);
    if (memcmp(m->root, root, 32))
        return bad(err, p, c, "tree %s root differs from %s", tree, root_name);
    return CUZK_OK;
}

static void comm_r_of(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32])
{
    uint8_t ch[2][32];
    memcpy(ch[0], comm_c, 32);
    memcpy(ch[1], root, 32);
    hash_children(out, ch, 2, 0);
}

cuzk_status cuzk_snap_partition_check(const cuzk_snap_partition *p, cuzk_error *err)
{
    cuzk_status st = cuzk_snap_partition_check_shape(p, err);
    if (st)
        return st;
    const cuzk_snap_info *in = &p->info;
    const cuzk_snap_partition_proof *pp = p->proof;
    int d_sha = in->variant == CUZK_SNAP_MAIN;
    const uint8_t *root_old = pp->challenges[0].r_old.root, *root_new = pp->challenges[0].r_new.root;
    uint8_t calc[32];
    comm_r_of(calc, pp->comm_c, root_old);
    if (memcmp(calc, p->comm_r_old, 32))
        return bad(err, p, -1, "comm_r_old is not Poseidon-2(comm_c, root of tree R-old)");
    comm_r_of(calc, pp->comm_c, root_new);
    if (memcmp(calc, p->comm_r_new, 32))
        return bad(err, p, -1, "comm_r_new is not Poseidon-2(comm_c, root of tree R-new)");

    /* the apex tree's root */
    uint8_t apex[128][32];
    uint32_t na = in->apex_leaves;
    if (na > 128)
        return bad(err, p, -1, "more than 128 apex leaves");
    memcpy(apex, pp->apex_leaves, (size_t)na * 32);
    for (uint32_t n = na; n > 1; n /= 2)
        for (uint32_t i = 0; i < n / 2; i++)
            hash_children(apex[i], &apex[2 * i], 2, 1);

    cuzk_fr phi;
    if ((st = cuzk_snap_phi(&phi, p->comm_d_new, p->comm_r_old, err)))
        return st;
    uint64_t ch[MAX_CHALLENGES];
    if (in->challenges > MAX_CHALLENGES)
        return bad(err, p, -1, "too many challenges");
    if ((st = cuzk_snap_challenges(in, p->comm_r_new, p->k, ch, err)))
        return st;
    uint32_t shr = in->challenge_bits - p->h;
    uint32_t apex_level = in->challenge_bits - in->partition_bits - in->apex_bits;
    uint8_t nodes[CUZK_C1_MAX_LEVELS + 1][32];
    for (uint32_t c = 0; c < in->challenges; c++) {
        const cuzk_snap_challenge_proof *cp = &pp->challenges[c];
        int ci = (int)c;
        if ((st = check_tree(err, p, ci, "R-old", &cp->r_old, 0, ch[c], root_old,
                             "challenge 0's", nodes)) ||
            (st = check_tree(err, p, ci, "R-new", &cp->r_new, 0, ch[c], root_new,
                             "challenge 0's", nodes)) ||
            (st = check_tree(err, p, ci, "D-new", &cp->d_new, d_sha, ch[c], p->comm_d_new,
                             "comm_d_new", nodes)))
            return st;
        if (d_sha) {
            uint64_t at = (ch[c] >> apex_level) & (na - 1);
            if (memcmp(nodes[apex_level], pp->apex_leaves[at], 32))
                return bad(err, p, ci, "tree D-new path misses apex leaf %llu",
                           (unsigned long long)at);
            if (c == 0 && memcmp(nodes[apex_level + in->apex_bits], apex[0], 32))
                return bad(err, p, ci, "the apex leaves do not hash to the path's apex root");
        }
        cuzk_fr o, d, n, rho;
        cuzk_fr_from_bytes_le(&o, cp->r_old.leaf);
        cuzk_fr_from_bytes_le(&d, cp->d_new.leaf);
        cuzk_fr_from_bytes_le(&n, cp->r_new.leaf);
        cuzk_snap_rho(&rho, &phi, ch[c] >> shr);
        cuzk_fr_mul(&d, &d, &rho);
        cuzk_fr_add(&o, &o, &d);
        if (!cuzk_fr_eq(&o, &n))
            return bad(err, p, ci, "new replica leaf is not old leaf + data leaf * rho");
    }
    return CUZK_OK;
}

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_snap_partition_check(const cuzk_snap_partition *p, cuzk_error *err)
{
    (void)p;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "SnapDeals check: built without OpenSSL");
}

#endif
