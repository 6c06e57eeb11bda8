/*
 * c1_check.c — consistency checks of a parsed C1 output that need no circuit, run before
 * any proving work so that a bad input fails in milliseconds with what and where instead
 * of as an unsatisfied constraint system (or, worse, a proof that does not verify).
 *
 * Per partition p and challenge i, with c = labeling_proofs[0].node:
 *   tree D   comm_d_proofs proves node c, its SHA-256 path reaches its root, root = comm_d;
 *   tree R   comm_r_last_proof proves node c, its Poseidon-8 (8-8 / 8-8-2) path reaches its
 *            root, and that root is the same comm_r_last for every challenge;
 *   tree C   c_x and the 14 parent columns: column.index = the path's node (c_x: = c),
 *            leaf = Poseidon_layers(rows), path reaches the root, root = comm_c (one for all);
 *   comm_r   = Poseidon-2(comm_c, comm_r_last);
 *   labels   for layer l: SHA-256(replica_id || u32_be(l) || u64_be(c) || 20 zero bytes ||
 *            37 parents) truncated to 254 bits = c_x.rows[l-1], the parents being the
 *            DRG parents' layer-l values (then, for l > 1, the expander parents' layer l-1
 *            values) repeated to 37; labeling_proofs[l-1] = {l, c, those 37 parents};
 *   encoding encoding_proof = labeling_proofs[layers-1]; replica leaf = last label + data
 *            leaf (in Fr).
 * Hashing: tree D nodes are SHA-256(left || right) with the top two bits of byte 31
 * cleared (Sha256Domain::trim_to_fr32); tree R/C nodes are neptune Poseidon with the
 * Merkle domain tag (cuzk_poseidon_hash). Not checked: that parent indices follow the
 * DRG/expander graph (the verifier's job; the circuit takes them from the proof).
 *
 * cuzk_c1_check_challenges (separate, since the circuit does not need it but the verifier
 * does): challenge j = k * challenges + i of partition k is
 *   interactive (V1, V1_1): SHA-256(replica_id || seed || u32_le(j)),
 *   NI (V1_2): SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r
 *              || u32_le(j)),
 * read as a little-endian integer, mod (nodes - 1), + 1 (rust-fil-proofs
 * stacked/vanilla/challenges.rs: node 0 is never challenged).
 *
 * SHA-256 is OpenSSL's (libcrypto); without it (CUZK_HAVE_OPENSSL undefined) the check
 * returns CUZK_ERR_UNSUPPORTED.
 *
 * Threading: pure function of its input; no global state.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/c1.h"
#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>

typedef struct chk {
    const cuzk_c1_output *c1;
    cuzk_error *err;
    char where[96];
} chk;

static cuzk_status bad(chk *k, const char *part, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cuzk_status bad(chk *k, const char *part, const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_error_set(k->err, CUZK_ERR_INVALID_PROOF, "C1 %s%s: %s", k->where, part, what);
}

static int sha256(uint8_t out[32], const uint8_t *in, size_t n)
{
    unsigned int len = 0;
    return EVP_Digest(in, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32;
}

static void fr_of(cuzk_fr *f, const uint8_t b[32])
{
    /* The parser guaranteed canonical values; a hand-built struct that breaks that gets
     * zero, which then fails the hash comparisons instead of reading garbage. */
    if (cuzk_fr_from_bytes_le(f, b) != CUZK_OK)
        memset(f, 0, sizeof *f);
}

/* Rebuilds the root of m from its leaf; sha: binary SHA-256 tree D, else Poseidon. */
static cuzk_status merkle_root(chk *k, const cuzk_c1_merkle_proof *m, int sha, uint8_t root[32])
{
    uint8_t cur[32];
    memcpy(cur, m->leaf, 32);
    size_t sib = 0;
    if (m->n_levels > CUZK_C1_MAX_LEVELS || !m->siblings)
        return cuzk_error_set(k->err, CUZK_ERR_INVALID_ARG, "C1 check: malformed path struct");
    for (uint32_t l = 0; l < m->n_levels; l++) {
        unsigned arity = m->arity[l], pos = m->index[l];
        if ((arity != 2 && (sha || arity != 8)) || pos >= arity)
            return cuzk_error_set(k->err, CUZK_ERR_INVALID_ARG,
                                  "C1 check: path level of arity %u, position %u", arity, pos);
        if (sha) {
            uint8_t buf[64];
            memcpy(buf + (pos ? 32 : 0), cur, 32);
            memcpy(buf + (pos ? 0 : 32), m->siblings[sib], 32);
            if (!sha256(cur, buf, 64))
                return cuzk_error_set(k->err, CUZK_ERR_INTERNAL, "C1 check: SHA-256 failed");
            cur[31] &= 0x3f;
        } else {
            cuzk_fr in[16], h;
            for (unsigned j = 0, s = 0; j < arity; j++) {
                if (j == pos)
                    fr_of(&in[j], cur);
                else
                    fr_of(&in[j], m->siblings[sib + s++]);
            }
            cuzk_status st = cuzk_poseidon_hash(&h, in, arity, k->err);
            if (st)
                return st;
            cuzk_fr_to_bytes_le(cur, &h);
        }
        sib += arity - 1;
    }
    memcpy(root, cur, 32);
    return CUZK_OK;
}

/* Path reaches its stated root, proves `node`, and the root is `want` (NULL: any). */
static cuzk_status check_path(chk *k, const char *part, const cuzk_c1_merkle_proof *m, int sha,
                              uint64_t node, const uint8_t *want, const char *want_name)
{
    uint8_t root[32];
    cuzk_status st = merkle_root(k, m, sha, root);
    if (st)
        return st;
    uint64_t got = cuzk_c1_merkle_node(m);
    if (got != node)
        return bad(k, part, "path proves node %llu, expected node %llu",
                   (unsigned long long)got, (unsigned long long)node);
    if (memcmp(root, m->root, 32) != 0)
        return bad(k, part, "Merkle path does not reach its root");
    if (want && memcmp(m->root, want, 32) != 0)
        return bad(k, part, "root differs from %s", want_name);
    return CUZK_OK;
}

static cuzk_status check_column(chk *k, const char *part, const cuzk_c1_column_proof *col,
                                const uint8_t comm_c[32])
{
    uint32_t layers = k->c1->info.layers;
    cuzk_fr rows[16], h;
    for (uint32_t l = 0; l < layers; l++)
        fr_of(&rows[l], col->rows[l]);
    cuzk_status st = cuzk_poseidon_hash(&h, rows, layers, k->err);
    if (st)
        return st;
    uint8_t leaf[32];
    cuzk_fr_to_bytes_le(leaf, &h);
    if (memcmp(leaf, col->proof.leaf, 32) != 0)
        return bad(k, part, "tree C leaf is not the hash of the column rows");
    return check_path(k, part, &col->proof, 0, col->index, comm_c, "comm_c");
}

/* The 37 parents hashed for layer l (1-based) of the challenged node. */
static void label_parents(const cuzk_c1_challenge_proof *p, uint32_t l, uint8_t out[][32])
{
    uint8_t base[CUZK_C1_DRG_PARENTS + CUZK_C1_EXP_PARENTS][32];
    size_t n = 0;
    for (size_t j = 0; j < CUZK_C1_DRG_PARENTS; j++)
        memcpy(base[n++], p->drg_parents[j].rows[l - 1], 32);
    if (l > 1)
        for (size_t j = 0; j < CUZK_C1_EXP_PARENTS; j++)
            memcpy(base[n++], p->exp_parents[j].rows[l - 2], 32);
    for (size_t i = 0; i < CUZK_C1_TOTAL_PARENTS; i++)
        memcpy(out[i], base[i % n], 32);
}

static cuzk_status check_labels(chk *k, const cuzk_c1_challenge_proof *p, uint64_t c)
{
    const cuzk_c1_output *c1 = k->c1;
    uint32_t layers = c1->info.layers;
    uint8_t buf[64 + CUZK_C1_TOTAL_PARENTS * 32];
    char part[48];
    for (uint32_t l = 1; l <= layers; l++) {
        const cuzk_c1_labeling_proof *lp = &p->labeling[l - 1];
        snprintf(part, sizeof part, ".labeling_proofs[%u]", l - 1);
        if (lp->layer_index != l)
            return bad(k, part, "layer_index %u, expected %u", lp->layer_index, l);
        if (lp->node != c)
            return bad(k, part, "node %llu, expected the challenge %llu",
                       (unsigned long long)lp->node, (unsigned long long)c);
        memset(buf, 0, 64);
        memcpy(buf, c1->replica_id, 32);
        for (int b = 0; b < 4; b++)
            buf[32 + b] = (uint8_t)(l >> (24 - 8 * b));
        for (int b = 0; b < 8; b++)
            buf[36 + b] = (uint8_t)(c >> (56 - 8 * b));
        label_parents(p, l, (uint8_t(*)[32])(buf + 64));
        for (uint32_t i = 0; i < CUZK_C1_TOTAL_PARENTS; i++)
            if (memcmp(lp->parents[i], buf + 64 + 32 * i, 32) != 0)
                return bad(k, part, "parents[%u] differs from the parent columns' value", i);
        uint8_t label[32];
        if (!sha256(label, buf, sizeof buf))
            return cuzk_error_set(k->err, CUZK_ERR_INTERNAL, "C1 check: SHA-256 failed");
        label[31] &= 0x3f;
        if (memcmp(label, p->c_x.rows[l - 1], 32) != 0)
            return bad(k, part, "label of layer %u does not match its parents (c_x.rows[%u])",
                       l, l - 1);
    }
    const cuzk_c1_labeling_proof *e = &p->encoding, *last = &p->labeling[layers - 1];
    if (e->layer_index != layers || e->node != c)
        return bad(k, ".encoding_proof", "layer_index %u node %llu, expected %u and %llu",
                   e->layer_index, (unsigned long long)e->node, layers, (unsigned long long)c);
    for (uint32_t i = 0; i < CUZK_C1_TOTAL_PARENTS; i++)
        if (memcmp(e->parents[i], last->parents[i], 32) != 0)
            return bad(k, ".encoding_proof", "parents[%u] differs from the last layer's", i);
    cuzk_fr key, data, enc;
    fr_of(&key, p->c_x.rows[layers - 1]);
    fr_of(&data, p->comm_d_proof.leaf);
    cuzk_fr_add(&enc, &key, &data);
    uint8_t want[32];
    cuzk_fr_to_bytes_le(want, &enc);
    if (memcmp(want, p->comm_r_last_proof.leaf, 32) != 0)
        return bad(k, ".comm_r_last_proof", "replica leaf is not last label + data leaf");
    return CUZK_OK;
}

/* Challenge ci of partition pi: its paths, columns and labels. */
static cuzk_status check_one(chk *k, uint32_t pi, uint32_t ci, const uint8_t *comm_r_last,
                             const uint8_t *comm_c)
{
    const cuzk_c1_output *c1 = k->c1;
    const cuzk_c1_challenge_proof *p = &c1->proofs[(size_t)pi * c1->info.challenges + ci];
    snprintf(k->where, sizeof k->where, "vanilla_proofs[%u][%u]", pi, ci);
    uint64_t c = cuzk_c1_challenge(p);
    char part[48];
    cuzk_status st;
    if ((st = check_path(k, ".comm_d_proofs", &p->comm_d_proof, 1, c, c1->comm_d, "comm_d")) ||
        (st = check_path(k, ".comm_r_last_proof", &p->comm_r_last_proof, 0, c, comm_r_last,
                         "comm_r_last of vanilla_proofs[0][0]")))
        return st;
    if (p->c_x.index != c)
        return bad(k, ".replica_column_proofs.c_x", "column index %u, expected %llu",
                   p->c_x.index, (unsigned long long)c);
    if ((st = check_column(k, ".replica_column_proofs.c_x", &p->c_x, comm_c)))
        return st;
    for (int j = 0; j < CUZK_C1_DRG_PARENTS; j++) {
        snprintf(part, sizeof part, ".replica_column_proofs.drg_parents[%d]", j);
        if ((st = check_column(k, part, &p->drg_parents[j], comm_c)))
            return st;
    }
    for (int j = 0; j < CUZK_C1_EXP_PARENTS; j++) {
        snprintf(part, sizeof part, ".replica_column_proofs.exp_parents[%d]", j);
        if ((st = check_column(k, part, &p->exp_parents[j], comm_c)))
            return st;
    }
    return check_labels(k, p, c);
}

typedef struct one_ctx {
    const cuzk_c1_output *c1;
    const uint8_t *comm_r_last, *comm_c;
    _Atomic int failed;
} one_ctx;

static void check_range(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    one_ctx *o = arg;
    chk k = {.c1 = o->c1, .err = NULL};
    uint32_t per = o->c1->info.challenges;
    for (size_t i = begin; i < end && !o->failed; i++)
        if (check_one(&k, (uint32_t)(i / per), (uint32_t)(i % per), o->comm_r_last, o->comm_c))
            o->failed = 1;
}

cuzk_status cuzk_c1_check_pool(const cuzk_c1_output *c1, cuzk_pool *pool, cuzk_error *err)
{
    if (!c1 || !c1->proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 check: NULL argument");
    const cuzk_porep_info *in = &c1->info;
    if (in->layers < 2 || in->layers > 11)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 check: %u layers", in->layers);
    chk k = {.c1 = c1, .err = err};
    const uint8_t *comm_r_last = c1->proofs[0].comm_r_last_proof.root;
    const uint8_t *comm_c = c1->proofs[0].c_x.proof.root;
    cuzk_fr pair[2], h;
    fr_of(&pair[0], comm_c);
    fr_of(&pair[1], comm_r_last);
    cuzk_status st = cuzk_poseidon_hash(&h, pair, 2, err);
    if (st)
        return st;
    uint8_t comm_r[32];
    cuzk_fr_to_bytes_le(comm_r, &h);
    if (memcmp(comm_r, c1->comm_r, 32) != 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "C1 comm_r: not Poseidon(comm_c, comm_r_last) of the "
                              "roots in vanilla_proofs[0][0]");
    bool pool_failed = false;
    if (pool) {
        one_ctx o = {c1, comm_r_last, comm_c, 0};
        size_t n = (size_t)in->partitions * in->challenges;
        if (cuzk_pool_for(pool, n, check_range, &o, 1) == CUZK_OK) {
            if (!o.failed)
                return CUZK_OK;
            pool_failed = true;
        }
        /* one failed (or the pool could not run): the in-order pass below names the first
         * failing part, with the message the sequential check gives */
    }
    for (uint32_t pi = 0; pi < in->partitions; pi++)
        for (uint32_t ci = 0; ci < in->challenges; ci++)
            if ((st = check_one(&k, pi, ci, comm_r_last, comm_c)))
                return st;
    return pool_failed ? cuzk_error_set(err, CUZK_ERR_INTERNAL, "C1 check: a challenge "
                                        "failed over the pool, none in order")
                       : CUZK_OK;
}

cuzk_status cuzk_c1_check(const cuzk_c1_output *c1, cuzk_error *err)
{
    return cuzk_c1_check_pool(c1, NULL, err);
}

/* 256-bit little-endian integer mod m (m < 2^32), most significant byte first. */
static uint64_t mod_le256(const uint8_t h[32], uint64_t m)
{
    uint64_t r = 0;
    for (int i = 31; i >= 0; i--)
        r = (r * 256 + h[i]) % m;
    return r;
}

cuzk_status cuzk_c1_check_challenges(const cuzk_c1_output *c1, cuzk_error *err)
{
    if (!c1 || !c1->proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "C1 check: NULL argument");
    const cuzk_porep_info *in = &c1->info;
    if (in->variant == CUZK_POREP_SYNTHETIC)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "C1 check: synthetic PoRep challenges are not derived here");
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    uint8_t buf[sizeof tag - 1 + 32 + 32 + 4];
    size_t n = 0;
    if (in->variant == CUZK_POREP_NI) {
        memcpy(buf, tag, sizeof tag - 1);
        n = sizeof tag - 1;
        memcpy(buf + n, c1->replica_id, 32);
        memcpy(buf + n + 32, c1->comm_r, 32);
    } else {
        memcpy(buf, c1->replica_id, 32);
        memcpy(buf + 32, c1->seed, 32);
    }
    n += 64;
    for (uint32_t k = 0; k < in->partitions; k++) {
        for (uint32_t i = 0; i < in->challenges; i++) {
            uint32_t j = in->challenges * k + i;
            for (int b = 0; b < 4; b++)
                buf[n + (size_t)b] = (uint8_t)(j >> (8 * b));
            uint8_t h[32];
            if (!sha256(h, buf, n + 4))
                return cuzk_error_set(err, CUZK_ERR_INTERNAL, "C1 check: SHA-256 failed");
            uint64_t want = mod_le256(h, in->nodes - 1) + 1;
            uint64_t got = cuzk_c1_challenge(&c1->proofs[(size_t)k * in->challenges + i]);
            if (got != want)
                return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                                      "C1 vanilla_proofs[%u][%u]: challenge %llu, but %s "
                                      "derive %llu",
                                      k, i, (unsigned long long)got,
                                      in->variant == CUZK_POREP_NI ? "replica_id and comm_r"
                                                                   : "replica_id and seed",
                                      (unsigned long long)want);
        }
    }
    return CUZK_OK;
}

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_c1_check_pool(const cuzk_c1_output *c1, cuzk_pool *pool, cuzk_error *err)
{
    (void)pool;
    return cuzk_c1_check(c1, err);
}

cuzk_status cuzk_c1_check(const cuzk_c1_output *c1, cuzk_error *err)
{
    (void)c1;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "C1 check: built without OpenSSL");
}

cuzk_status cuzk_c1_check_challenges(const cuzk_c1_output *c1, cuzk_error *err)
{
    (void)c1;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "C1 check: built without OpenSSL");
}

#endif /* CUZK_HAVE_OPENSSL */
