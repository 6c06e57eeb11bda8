/*
 * c1_gen.h — a generator of valid (or deliberately flawed) 2 KiB PoRep C1 outputs, as
 * filecoin-ffi's JSON, for the C1 parser/check tests and the PoRep circuit tests. It
 * follows filecoin.md §5: random data and random columns for every node, random parents
 * (never the challenged nodes), the challenged nodes' labels computed from their parents
 * with SHA-256 as the labeling proof defines it, replica = last label + data, trees D
 * (SHA-256, binary), C and R (Poseidon-8) over the 64 nodes, comm_r = Poseidon-2(comm_c,
 * comm_r_last); challenges as the interactive verifier derives them. The tree hashing is
 * written from the definitions (whole trees, level by level), independently of the
 * checker's path walk. Header-only (static inline) so tests include it without CMake
 * changes; needs jansson, OpenSSL and cmocka (asserts). Single-threaded (one static gen).
 */
#ifndef CUZK_TEST_C1_GEN_H
#define CUZK_TEST_C1_GEN_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <openssl/evp.h>

#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "test_rng.h"

/* Reference: the digest as four LE 64-bit limbs, reduced by 128-bit Horner steps. */
static inline uint64_t ref_challenge(const uint8_t *pre, size_t n, uint32_t j, uint64_t nodes)
{
    uint8_t buf[128], h[32];
    memcpy(buf, pre, n);
    for (int b = 0; b < 4; b++)
        buf[n + (size_t)b] = (uint8_t)(j >> (8 * b));
    unsigned int len = 0;
    assert_int_equal(EVP_Digest(buf, n + 4, h, &len, EVP_sha256(), NULL), 1);
    unsigned __int128 r = 0;
    for (int w = 3; w >= 0; w--) {
        uint64_t limb = 0;
        for (int b = 7; b >= 0; b--)
            limb = limb << 8 | h[8 * w + b];
        r = ((r << 64) | limb) % (nodes - 1);
    }
    return (uint64_t)r + 1;
}

#define NODES 64
#define LAYERS 2
#define CHALS 2
#define D_LEVELS 6
#define R_LEVELS 2

typedef uint8_t dom[32];

/* Inconsistencies the generator can build in (consistently hashed trees). */
enum { GEN_OK = 0, GEN_BAD_LABEL = 1, GEN_BAD_REPLICA = 2 };

typedef struct gen {
    dom data[NODES], cols[NODES][LAYERS], replica[NODES];
    dom treed[D_LEVELS + 1][NODES];  /* level 0 = leaves */
    dom treer[R_LEVELS + 1][NODES], treec[R_LEVELS + 1][NODES];
    dom replica_id, seed, ticket, comm_r;
    uint32_t chal[CHALS];
    uint32_t drg[CHALS][6], exp[CHALS][8];
    dom parents[CHALS][LAYERS][37];
} gen;

static inline void sha(dom out, const uint8_t *in, size_t n)
{
    unsigned int len = 0;
    assert_int_equal(EVP_Digest(in, n, out, &len, EVP_sha256(), NULL), 1);
    out[31] &= 0x3f;
}

static inline void rand_dom(dom d)
{
    test_rng_bytes(d, 32);
    d[31] &= 0x3f; /* < 2^254 < r, like every fr32-padded or SHA-256-derived value */
}

static inline void fr_in(cuzk_fr *f, const dom d)
{
    assert_int_equal(cuzk_fr_from_bytes_le(f, d), CUZK_OK);
}

static inline void poseidon(dom out, const dom *in, unsigned arity)
{
    cuzk_fr x[11], h;
    for (unsigned i = 0; i < arity; i++)
        fr_in(&x[i], in[i]);
    assert_int_equal(cuzk_poseidon_hash(&h, x, arity, NULL), CUZK_OK);
    cuzk_fr_to_bytes_le(out, &h);
}

static inline int is_chal(const gen *g, uint32_t n)
{
    for (int i = 0; i < CHALS; i++)
        if (g->chal[i] == n)
            return 1;
    return 0;
}

static inline void make_gen(gen *g, int flaw)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < NODES; i++) {
        rand_dom(g->data[i]);
        for (int l = 0; l < LAYERS; l++)
            rand_dom(g->cols[i][l]);
    }
    rand_dom(g->replica_id);
    test_rng_bytes(g->ticket, 32);
    g->ticket[31] |= 0xc0; /* >= r as an integer: a ticket is bytes, not a field element */
    /* Interactive challenges as the verifier derives them; a seed giving two distinct
     * nodes, so that each flaw below shows at the challenge it was put in. */
    do {
        test_rng_bytes(g->seed, 32); /* chain randomness: any 32 bytes */
        uint8_t pre[64];
        memcpy(pre, g->replica_id, 32);
        memcpy(pre + 32, g->seed, 32);
        for (int c = 0; c < CHALS; c++)
            g->chal[c] = (uint32_t)ref_challenge(pre, 64, (uint32_t)c, NODES);
    } while (g->chal[0] == g->chal[1]);
    for (int c = 0; c < CHALS; c++) {
        for (int j = 0; j < 14; j++) {
            uint32_t p;
            do
                p = (uint32_t)(test_rng_u64() % NODES);
            while (is_chal(g, p));
            if (j < 6)
                g->drg[c][j] = p;
            else
                g->exp[c][j - 6] = p;
        }
        /* Labels: SHA-256(replica_id || u32 BE layer || u64 BE node || 20 zeros || 37 parents). */
        for (int l = 1; l <= LAYERS; l++) {
            dom base[14];
            int n = 0;
            for (int j = 0; j < 6; j++)
                memcpy(base[n++], g->cols[g->drg[c][j]][l - 1], 32);
            if (l > 1)
                for (int j = 0; j < 8; j++)
                    memcpy(base[n++], g->cols[g->exp[c][j]][l - 2], 32);
            uint8_t buf[64 + 37 * 32] = {0};
            memcpy(buf, g->replica_id, 32);
            buf[35] = (uint8_t)l;
            buf[42] = (uint8_t)(g->chal[c] >> 8);
            buf[43] = (uint8_t)g->chal[c];
            for (int i = 0; i < 37; i++) {
                memcpy(g->parents[c][l - 1][i], base[i % n], 32);
                memcpy(buf + 64 + 32 * i, base[i % n], 32);
            }
            sha(g->cols[g->chal[c]][l - 1], buf, sizeof buf);
        }
    }
    if (flaw == GEN_BAD_LABEL)
        g->cols[g->chal[0]][LAYERS - 1][0] ^= 1;
    for (int i = 0; i < NODES; i++) {
        cuzk_fr a, b;
        fr_in(&a, g->cols[i][LAYERS - 1]);
        fr_in(&b, g->data[i]);
        cuzk_fr_add(&a, &a, &b);
        cuzk_fr_to_bytes_le(g->replica[i], &a);
    }
    if (flaw == GEN_BAD_REPLICA)
        g->replica[g->chal[1]][0] ^= 1;
    for (int i = 0; i < NODES; i++) {
        memcpy(g->treed[0][i], g->data[i], 32);
        memcpy(g->treer[0][i], g->replica[i], 32);
        poseidon(g->treec[0][i], (const dom *)g->cols[i], LAYERS);
    }
    for (int l = 1, w = NODES / 2; l <= D_LEVELS; l++, w /= 2)
        for (int i = 0; i < w; i++)
            sha(g->treed[l][i], g->treed[l - 1][2 * i], 64);
    for (int l = 1, w = NODES / 8; l <= R_LEVELS; l++, w /= 8)
        for (int i = 0; i < w; i++) {
            poseidon(g->treer[l][i], (const dom *)g->treer[l - 1][8 * i], 8);
            poseidon(g->treec[l][i], (const dom *)g->treec[l - 1][8 * i], 8);
        }
    dom pair[2];
    memcpy(pair[0], g->treec[R_LEVELS][0], 32);
    memcpy(pair[1], g->treer[R_LEVELS][0], 32);
    poseidon(g->comm_r, (const dom *)pair, 2);
}

/* ---- JSON as serde_json writes it ------------------------------------------------------ */

static inline json_t *jdom(const dom d)
{
    json_t *a = json_array();
    for (int i = 0; i < 32; i++)
        json_array_append_new(a, json_integer(d[i]));
    return a;
}

static inline json_t *jmerkle(dom tree[][NODES], int levels, int arity, uint32_t node)
{
    json_t *path = json_array();
    uint32_t idx = node;
    for (int l = 0; l < levels; l++) {
        json_t *hashes = json_array();
        uint32_t first = idx / arity * arity;
        for (uint32_t j = first; j < first + (uint32_t)arity; j++)
            if (j != idx)
                json_array_append_new(hashes, jdom(tree[l][j]));
        json_array_append_new(path, json_pack("{s:o,s:i}", "hashes", hashes, "index",
                                              (int)(idx % arity)));
        idx /= arity;
    }
    json_t *single = json_pack("{s:o,s:o,s:{s:o}}", "root", jdom(tree[levels][0]), "leaf",
                               jdom(tree[0][node]), "path", "path", path);
    return json_pack("{s:{s:o}}", "data", "Single", single);
}

static inline json_t *jcolumn(gen *g, uint32_t node)
{
    json_t *rows = json_array();
    for (int l = 0; l < LAYERS; l++)
        json_array_append_new(rows, jdom(g->cols[node][l]));
    return json_pack("{s:{s:i,s:o,s:n},s:o}", "column", "index", (int)node, "rows", rows, "_h",
                     "inclusion_proof", jmerkle(g->treec, R_LEVELS, 8, node));
}

static inline json_t *jlabeling(gen *g, int c, int l)
{
    json_t *parents = json_array();
    for (int i = 0; i < 37; i++)
        json_array_append_new(parents, jdom(g->parents[c][l - 1][i]));
    return json_pack("{s:o,s:i,s:i}", "parents", parents, "layer_index", l, "node",
                     (int)g->chal[c]);
}

static inline json_t *gen_json(gen *g)
{
    json_t *part = json_array();
    for (int c = 0; c < CHALS; c++) {
        uint32_t x = g->chal[c];
        json_t *drg = json_array(), *exp = json_array(), *labs = json_array();
        for (int j = 0; j < 6; j++)
            json_array_append_new(drg, jcolumn(g, g->drg[c][j]));
        for (int j = 0; j < 8; j++)
            json_array_append_new(exp, jcolumn(g, g->exp[c][j]));
        for (int l = 1; l <= LAYERS; l++)
            json_array_append_new(labs, jlabeling(g, c, l));
        json_t *p = json_pack("{s:o,s:o,s:{s:o,s:o,s:o},s:o,s:o}", "comm_d_proofs",
                              jmerkle(g->treed, D_LEVELS, 2, x), "comm_r_last_proof",
                              jmerkle(g->treer, R_LEVELS, 8, x), "replica_column_proofs",
                              "c_x", jcolumn(g, x), "drg_parents", drg, "exp_parents", exp,
                              "labeling_proofs", labs, "encoding_proof",
                              jlabeling(g, c, LAYERS));
        json_array_append_new(part, p);
    }
    json_t *parts = json_array();
    json_array_append_new(parts, part);
    return json_pack("{s:s,s:{s:o},s:o,s:o,s:o,s:o,s:o}", "registered_proof",
                     "StackedDrg2KiBV1_1", "vanilla_proofs", "StackedDrg2KiBV1", parts,
                     "comm_r", jdom(g->comm_r), "comm_d", jdom(g->treed[D_LEVELS][0]),
                     "replica_id", jdom(g->replica_id), "seed", jdom(g->seed), "ticket",
                     jdom(g->ticket));
}

#endif
