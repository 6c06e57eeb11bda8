/*
 * kind_groth16.c — the GROTH16 job kind: a circuit given as files or bytes, one partition.
 *   snarkjs form:    zkey + wtns (+ r1cs: the witness is checked against it first, so a
 *                    bad witness names its failing constraint);
 *   bellperson form: params + r1cs + wtns.
 * Keys given by path are shared through the SRS table ("zkey:<path>", "params:<path>");
 * keys given as bytes belong to their job ("job:<job id>"). The prover never gets a
 * witness that does not fit its circuit: counts are checked here. Input files are read
 * through the descriptors the request holds since submit (request.h), not by path. A
 * journaled result is verified after a restart against the key's verifying key (the
 * .zkey's or the .params' head, nothing else decoded) with the witness's public inputs, as
 * the self-check does (g16_verify_result).
 * Threading: reentrant; key decoding runs on the given pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "cuzk/msm.h"
#include "engine/kind.h"
#include "engine/sizes.h"
#include "engine/state.h"
#include "formats/formats_export.h"


static bool given(const char *path, const ebuf *b) { return (path && *path) || b->len; }

/* The size of an input: its bytes, or the size its file had when it was opened at submit
 * (request.h: files are never looked up by path again). */
static uint64_t input_size(const ebuf *b, const efile_id *id)
{
    return b->len ? b->len : id->size;
}

/* Reads the domain size of a key (zkey header, or n_h + 1 of a .params) without decoding
 * its points. */
static cuzk_status key_domain(const uint8_t *d, size_t len, bool zkey, uint64_t *domain,
                              cuzk_error *err)
{
    if (zkey) {
        cuzk_snarkjs_zkey_header h;
        cuzk_status st = cuzk_snarkjs_zkey_header_read(&h, d, len, err);
        if (st == CUZK_OK)
            *domain = h.domain_size;
        return st;
    }
    size_t off = CUZK_BELLPERSON_VK_FIXED_BYTES;
    if (len < off + 4)
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED, "params: file ends inside the vk");
    uint64_t n_ic = (uint64_t)d[off] << 24 | (uint64_t)d[off + 1] << 16 |
                    (uint64_t)d[off + 2] << 8 | d[off + 3];
    off += 4;
    if (n_ic > (len - off) / 96 || len - off - n_ic * 96 < 4)
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED, "params: file ends inside the vk");
    off += n_ic * 96;
    *domain = ((uint64_t)d[off] << 24 | (uint64_t)d[off + 1] << 16 |
               (uint64_t)d[off + 2] << 8 | d[off + 3]) + 1;
    return CUZK_OK;
}

static cuzk_status g16_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p, cuzk_error *err)
{
    cuzk_status st0 = engine_no_filecoin_proof(q, "groth16", err);
    if (st0 != CUZK_OK)
        return st0;
    bool zk = given(q->zkey_path, &q->zkey), pa = given(q->params_path, &q->params);
    const char *dup = (q->zkey_path && q->zkey.len)       ? "zkey"
                      : (q->params_path && q->params.len) ? "params"
                      : (q->r1cs_path && q->r1cs.len)     ? "r1cs"
                      : (q->wtns_path && q->wtns.len)     ? "wtns"
                                                          : NULL;
    if (dup)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 job: %s given both as a path and as bytes", dup);
    if (zk == pa)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 job: give a zkey (snarkjs) or params (bellperson), "
                              "exactly one");
    if (!given(q->wtns_path, &q->wtns))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 job: the wtns is required");
    if (pa && !given(q->r1cs_path, &q->r1cs))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "groth16 job: the r1cs is required with params");
    const char *kpath = zk ? q->zkey_path : q->params_path;
    const ebuf *kbuf = zk ? &q->zkey : &q->params;
    uint64_t domain = 0;
    cuzk_status st;
    if (kbuf->len) {
        st = key_domain(kbuf->data, kbuf->len, zk, &domain, err);
        p->job_own_key = true;
        p->circuit_id[0] = 0; /* the engine names it after the job */
    } else {
        mapped_file mf;
        if ((st = ereq_input_map(q, zk ? EREQ_ZKEY : EREQ_PARAMS, &mf, err)) != CUZK_OK)
            return st;
        st = key_domain(mf.data, mf.len, zk, &domain, err);
        st = mapped_file_check(&mf, st, err); /* truncated under the read: say so */
        mapped_file_close(&mf);
        if (snprintf(p->circuit_id, sizeof p->circuit_id, "%s:%s", zk ? "zkey" : "params",
                     kpath) >= (int)sizeof p->circuit_id)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 job: key path too long");
    }
    if (st != CUZK_OK)
        return st;
    if (domain == 0 || domain > (1ull << 28))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "groth16 job: domain of %llu points",
                              (unsigned long long)domain);
    p->partitions = 1;
    /* A decoded key is its file's size and then some (structs, the .zkey's A/B matrices as
     * CSR); the witness is 32 bytes a variable (as in the .wtns), the circuit ~3x its file,
     * the prover's scratch ~10 field elements a domain point plus the MSMs' buckets and
     * per-thread states. Those are sized here as the prover sizes them (cuzk/msm.h) for
     * vectors of at most max(domain, variables) points on the engine's threads, instead of
     * a fixed 64 MiB: a 15-constraint circuit's scratch is ~0.3 MiB a thread, and the
     * fixed figure alone did not fit the smallest budget cuzkd takes (64 MiB). After
     * synthesis the reservation becomes the exact figure (engine_sched_resize, sched.c). */
    uint64_t wtns = input_size(&q->wtns, &q->wtns_id);
    size_t m = (size_t)(domain > wtns / 32 ? domain : wtns / 32);
    size_t t = cuzk_pool_nthreads(e->pool);
    size_t msm = cuzk_g1s_msm_scratch_size(m, t);
    size_t more[] = {cuzk_g1s_sum_bitmap_scratch_size(m, t), cuzk_g2s_msm_scratch_size(m, t),
                     cuzk_g2s_sum_bitmap_scratch_size(m, t)};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        msm = more[i] > msm ? more[i] : msm;
    size_t split = cuzk_g1s_msm_auto_split_size(m) > cuzk_g2s_msm_auto_split_size(m)
                       ? cuzk_g1s_msm_auto_split_size(m)
                       : cuzk_g2s_msm_auto_split_size(m);
    p->key_bytes = 2 * input_size(kbuf, zk ? &q->zkey_id : &q->params_id) + (1u << 20);
    p->partition_bytes = 2 * wtns + 3 * input_size(&q->r1cs, &q->r1cs_id) + 640 * domain +
                         (uint64_t)msm + (uint64_t)split + (1u << 20);
    return CUZK_OK;
}

static bool g16_owns(const char *id)
{
    return (strncmp(id, "zkey:/", 6) == 0 && id[6]) || (strncmp(id, "params:/", 8) == 0 && id[8]);
}

static bool g16_key_file(const cuzk_engine *e, const char *id, char *path, size_t cap)
{
    (void)e;
    const char *p = strncmp(id, "zkey:", 5) == 0     ? id + 5
                    : strncmp(id, "params:", 7) == 0 ? id + 7
                                                     : NULL;
    if (!p || strlen(p) >= cap)
        return false;
    strcpy(path, p);
    return true;
}

static bool g16_key_input(const char *id, const ereq *req, ereq_input *in)
{
    if (strncmp(id, "zkey:", 5) == 0 && req->zkey_path && strcmp(id + 5, req->zkey_path) == 0)
        *in = EREQ_ZKEY;
    else if (strncmp(id, "params:", 7) == 0 && req->params_path &&
             strcmp(id + 7, req->params_path) == 0)
        *in = EREQ_PARAMS;
    else
        return false;
    return true;
}

static cuzk_status g16_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                                const uint8_t *map, size_t map_len, srs_key *key,
                                const volatile int *cancel, const srs_publish *publish,
                                cuzk_pool *pool, cuzk_error *err)
{
    (void)e;
    (void)publish; /* its synthesis may read the key's own circuit only once loaded */
    (void)cancel; /* decoding only: bounded by the file, makes nothing */
    bool zkey;
    const uint8_t *d = map;
    size_t len = map_len;
    if (strncmp(id, "job:", 4) == 0) {
        if (!req)
            return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
        zkey = req->zkey.len != 0;
        d = zkey ? req->zkey.data : req->params.data;
        len = zkey ? req->zkey.len : req->params.len;
    } else {
        zkey = strncmp(id, "zkey:", 5) == 0;
        if (!map)
            return cuzk_error_set(err, CUZK_ERR_IO, "key file of %s is not mapped", id);
    }
    memset(key, 0, sizeof *key);
    cuzk_status st;
    if (zkey)
        st = cuzk_groth16_pk_from_snarkjs_zkey(&key->pk, &key->r1cs, NULL, d, len,
                                               CUZK_PARAMS_TRUSTED_ONCURVE, pool, NULL, NULL,
                                               err);
    else
        st = cuzk_groth16_pk_from_bellperson(&key->pk, d, len, CUZK_PARAMS_TRUSTED_ONCURVE,
                                             pool, err);
    if (st != CUZK_OK)
        return st;
    key->bytes = engine_pk_bytes(&key->pk) + (key->r1cs ? engine_r1cs_bytes(key->r1cs) : 0);
    return CUZK_OK;
}

/* The r1cs and the witness, from their bytes or through the files the request holds open
 * since submit (ereq_input_map), never by path. */
static cuzk_status load_r1cs(const ereq *q, cuzk_r1cs **out, cuzk_error *err)
{
    if (q->r1cs.len)
        return cuzk_r1cs_from_snarkjs(out, NULL, q->r1cs.data, q->r1cs.len, err);
    mapped_file mf;
    cuzk_status st = ereq_input_map(q, EREQ_R1CS, &mf, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_r1cs_from_snarkjs(out, NULL, mf.data, mf.len, err);
    mapped_file_close(&mf);
    return st;
}

static cuzk_status load_wtns(const ereq *q, cuzk_fr **w, uint32_t *n, cuzk_error *err)
{
    mapped_file mf = {0};
    cuzk_status st = CUZK_OK;
    if (!q->wtns.len && (st = ereq_input_map(q, EREQ_WTNS, &mf, err)) != CUZK_OK)
        return st;
    const uint8_t *d = q->wtns.len ? q->wtns.data : mf.data;
    size_t len = q->wtns.len ? q->wtns.len : mf.len;
    if ((st = cuzk_snarkjs_wtns_count(d, len, n, err)) == CUZK_OK &&
        !(*w = malloc((size_t)(*n ? *n : 1) * sizeof(cuzk_fr))))
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory for the witness");
    else if (st == CUZK_OK && (st = cuzk_frs_from_snarkjs_wtns(*w, *n, d, len, err)) != CUZK_OK) {
        free(*w);
        *w = NULL;
    }
    if (!q->wtns.len && (st = mapped_file_check(&mf, st, err)) != CUZK_OK) {
        free(*w); /* read from a file truncated or rewritten under the read */
        *w = NULL;
    }
    mapped_file_close(&mf);
    return st;
}

static cuzk_status g16_synthesize(const cuzk_engine *e, const ereq *q, const ekind_plan *plan,
                                  const srs_key *key, uint32_t part, cuzk_pool *pool,
                                  esynth *out, cuzk_error *err)
{
    (void)e;
    (void)plan;
    (void)part;
    (void)pool;
    cuzk_fr *w = NULL;
    uint32_t n = 0;
    cuzk_r1cs *r1cs = NULL;
    cuzk_status st = load_wtns(q, &w, &n, err);
    if (st == CUZK_OK && given(q->r1cs_path, &q->r1cs))
        st = load_r1cs(q, &r1cs, err);
    const cuzk_r1cs *circuit = key->r1cs ? key->r1cs : r1cs;
    if (st == CUZK_OK && r1cs && r1cs->n_vars != n)
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "the witness has %u values but the r1cs has %u variables", n,
                            r1cs->n_vars);
    if (st == CUZK_OK && circuit->n_vars != n)
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "the witness has %u values but the key's circuit has %u "
                            "variables",
                            n, circuit->n_vars);
    cuzk_witness wv = cuzk_witness_dense(w, n);
    if (st == CUZK_OK && r1cs && key->r1cs) {
        /* snarkjs form with an .r1cs: the key brings the circuit the prover uses; the
         * .r1cs only names a failing constraint early. */
        st = cuzk_r1cs_check(r1cs, &wv, NULL, err);
        cuzk_r1cs_destroy(r1cs);
        r1cs = NULL;
    }
    if (st != CUZK_OK) {
        free(w);
        cuzk_r1cs_destroy(r1cs);
        return st;
    }
    out->w_owned = w;
    out->w = wv;
    out->r1cs_owned = r1cs;
    out->bytes = (uint64_t)n * sizeof(cuzk_fr) + (r1cs ? engine_r1cs_bytes(r1cs) : 0);
    return CUZK_OK;
}

/* ekind.verify_result: partition 0's proof against the key's vk, the public inputs being
 * the witness's variables 1 .. n_ic - 1 (the self-check's rule, cuzk/groth16.h). The key
 * file (or bytes) and the witness must still be there: a result whose inputs are gone
 * cannot be checked, and is proved again (where its planning then fails). */
static cuzk_status g16_verify_result(const cuzk_engine *e, const ereq *q,
                                     const ekind_plan *plan, const uint8_t *proofs,
                                     uint32_t partitions, cuzk_pool *pool, cuzk_error *err)
{
    (void)e;
    (void)plan;
    bool zk = given(q->zkey_path, &q->zkey);
    const ebuf *kbuf = zk ? &q->zkey : &q->params;
    mapped_file mf = {0};
    const uint8_t *d = kbuf->data;
    size_t len = kbuf->len;
    cuzk_status st = CUZK_OK;
    if (!len) {
        /* the file the job was submitted with (its recorded identity), as the plan read it */
        if ((st = ereq_input_map(q, zk ? EREQ_ZKEY : EREQ_PARAMS, &mf, err)) != CUZK_OK)
            return st;
        d = mf.data;
        len = mf.len;
    }
    cuzk_groth16_vk vk = {0};
    size_t used = 0;
    st = zk ? cuzk_groth16_vk_from_snarkjs_zkey(&vk, d, len, err)
            : cuzk_groth16_vk_from_bellperson(&vk, d, len, &used, err);
    if (!kbuf->len) {
        st = mapped_file_check(&mf, st, err);
        mapped_file_close(&mf);
    }
    if (st != CUZK_OK) {
        cuzk_groth16_vk_free(&vk);
        return st;
    }
    cuzk_fr *w = NULL;
    uint32_t n = 0;
    if (partitions != 1)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "a groth16 job of %u partitions",
                            partitions);
    else if ((st = load_wtns(q, &w, &n, err)) == CUZK_OK && (vk.n_ic == 0 || n < vk.n_ic))
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "the witness has %u values, fewer than the key's %zu inputs", n,
                            vk.n_ic);
    if (st == CUZK_OK)
        st = engine_verify_partitions(&vk, w + 1, 0, proofs, 1, pool, err);
    free(w);
    cuzk_groth16_vk_free(&vk);
    return st;
}

const ekind engine_kind_groth16 = {
    .kind = CUZK_PROOF_GROTH16,
    .name = "groth16",
    .default_priority = CUZK_PRIORITY_NORMAL,
    .plan = g16_plan,
    .owns_circuit = g16_owns,
    .load_key = g16_load_key,
    .key_file = g16_key_file,
    .key_input = g16_key_input,
    .synthesize = g16_synthesize,
    .verify_result = g16_verify_result,
};
