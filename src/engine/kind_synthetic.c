/*
 * kind_synthetic.c — the SYNTHETIC job kind: the circuit is cuzk_synthetic_porep(log2n,
 * seed); its key (circuit id "synthetic-<log2n>", or "synthetic-<log2n>-<seed>" for a seed
 * other than 0) holds the circuit and a dev setup (verifiable) up to
 * synthetic_setup_max_log2n, a random key (benchmark only) above. The dev setup's toxic
 * waste is derived from the circuit id (a dev key is insecure anyway), so a key made
 * again after a restart is the same key, and a journaled result can be verified against
 * it (synthetic_verify_result) before it is served. Every partition proves
 * the key's own witness (see srs_key), so the benchmark measures the engine and the
 * prover, not the generator.
 * Threading: every function is reentrant; generation runs on the given pool.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "engine/dev_setup.h"
#include "engine/devices.h"
#include "engine/kind.h"
#include "engine/sizes.h"
#include "engine/state.h"

/* The synthetic key's host bytes before it is loaded (srs.c charges the budget with it):
 * see synthetic_plan for the shape behind 600 n. */
static uint64_t synthetic_key_bytes(unsigned log2n)
{
    return 600 * (1ull << log2n) + (4u << 20);
}

static void synthetic_id(char *out, size_t cap, unsigned log2n, uint64_t seed)
{
    if (seed)
        snprintf(out, cap, "synthetic-%u-%" PRIu64, log2n, seed);
    else
        snprintf(out, cap, "synthetic-%u", log2n);
}

static bool synthetic_parse_id(const char *id, unsigned *log2n, uint64_t *seed)
{
    unsigned k;
    uint64_t s = 0;
    int used = 0;
    if (sscanf(id, "synthetic-%u%n", &k, &used) != 1)
        return false;
    if (id[used] == '-') {
        int used2 = 0;
        if (sscanf(id + used + 1, "%" SCNu64 "%n", &s, &used2) != 1 || s == 0)
            return false;
        used += 1 + used2;
    }
    char canon[64];
    synthetic_id(canon, sizeof canon, k, s);
    if (id[used] != 0 || strcmp(canon, id) != 0 || k < 2 || k > 28)
        return false;
    *log2n = k;
    *seed = s;
    return true;
}

static bool synthetic_owns(const char *id)
{
    unsigned k;
    uint64_t s;
    return synthetic_parse_id(id, &k, &s);
}

static cuzk_status synthetic_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p,
                                  cuzk_error *err)
{
    cuzk_status st = engine_no_filecoin_proof(q, "synthetic", err);
    if (st != CUZK_OK)
        return st;
    if (q->log2n < 2 || q->log2n > 28)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "synthetic job: log2n must be 2..28, not %u", q->log2n);
    if (q->partitions < 1 || q->partitions > 64)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "synthetic job: partitions must be 1..64, not %u", q->partitions);
    uint64_t n = 1ull << q->log2n;
    p->partitions = q->partitions;
    synthetic_id(p->circuit_id, sizeof p->circuit_id, q->log2n, q->seed);
    /* Upper bounds with margin, from the generator's shape (cuzk/circuits.h: ~0.97 n rows,
     * ~3.8 terms a row at 36 bytes, 3 row-pointer arrays): the circuit takes ~170 n bytes,
     * the key's point vectors (A, L, H of ~n G1 points, B of ~n/4 in G1 and G2) ~390 n,
     * the compact witness the key keeps ~0.6 n (measured at 2^27: 69.9 GiB peak RSS for
     * key, circuit and a dense witness, 520 n). A partition holds no witness of its own
     * (synthetic_synthesize); its host memory is the prover's scratch: on a CPU device
     * ~10 field elements a domain point plus MSM buckets per thread (900 n), on a GPU the
     * pinned staging and results only, the working set being on the device. */
    bool cpu = engine_has_cpu_device(e);
    p->key_bytes = synthetic_key_bytes(q->log2n);
    p->partition_bytes = (cpu ? 900 * n : 16 * n) + (64u << 20);
    return CUZK_OK;
}

static cuzk_status synthetic_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                                      const uint8_t *map, size_t map_len, srs_key *key,
                                      const volatile int *cancel,
                                      const srs_publish *publish, cuzk_pool *pool,
                                      cuzk_error *err)
{
    (void)publish; /* its partitions are views of the witness made with the key */
    (void)req;
    (void)map;
    (void)map_len;
    unsigned k;
    uint64_t seed;
    if (!synthetic_parse_id(id, &k, &seed))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    cuzk_synthetic syn = {0};
    cuzk_status st = cuzk_synthetic_porep(&syn, k, seed, pool, err);
    if (st != CUZK_OK) {
        cuzk_synthetic_free(&syn);
        return st;
    }
    /* the key keeps the circuit and the compact witness; the dense witness goes now */
    memset(key, 0, sizeof *key);
    key->wmap = malloc(sizeof *key->wmap);
    if (!key->wmap) {
        cuzk_synthetic_free(&syn);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "synthetic key: out of memory");
    }
    *key->wmap = syn.map;
    key->wbits = syn.bit_values;
    key->wdense = syn.dense;
    memset(&syn.map, 0, sizeof syn.map);
    syn.bit_values = NULL;
    syn.dense = NULL;
    cuzk_r1cs *r1cs = syn.r1cs;
    syn.r1cs = NULL;
    cuzk_synthetic_free(&syn);
    syn.r1cs = r1cs;
    if (k <= e->cfg.synthetic_setup_max_log2n) {
        cuzk_groth16_setup_opts so;
        cuzk_groth16_fixed_base_hook *hook = NULL;
        engine_setup_opts(e, id, cancel, &so, &hook);
        /* the same key in every life of the daemon (the file comment says why) */
        uint8_t dseed[32] = "cuzk synthetic dev key";
        for (int i = 0; i < 4; i++)
            dseed[24 + i] = (uint8_t)(k >> (8 * i));
        for (int i = 0; i < 4; i++)
            dseed[28 + i] = (uint8_t)((seed >> (8 * i)) ^ (seed >> (32 + 8 * i)));
        st = cuzk_groth16_setup_dev_ex(&key->pk, NULL, syn.r1cs, CUZK_GROTH16_BELLPERSON, dseed,
                                       pool, &so, err);
        cuzk_prover_fixed_base_hook_close(hook);
    } else {
        st = cuzk_groth16_pk_random(&key->pk, syn.r1cs, CUZK_GROTH16_BELLPERSON, seed ^ k,
                                    pool, err);
        key->benchmark_only = true;
    }
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(syn.r1cs);
        cuzk_witness_map_free(key->wmap);
        free(key->wmap);
        free(key->wbits);
        free(key->wdense);
        memset(key, 0, sizeof *key);
        return st;
    }
    key->r1cs = syn.r1cs;
    uint64_t n_bits = key->wmap->n_bits;
    key->bytes = engine_pk_bytes(&key->pk) + engine_r1cs_bytes(syn.r1cs) +
                 (n_bits + 63) / 64 * 8 + (syn.r1cs->n_vars - n_bits) * sizeof(cuzk_fr) +
                 (uint64_t)syn.r1cs->n_vars / 4; /* the map: bit flags and ranks */
    return CUZK_OK;
}

/* ekind.key_bytes: the seed does not change the key's size, so any "synthetic-<log2n>"
 * prefix will do. */
static bool synthetic_key_estimate(const cuzk_engine *e, const char *id, uint64_t *bytes)
{
    (void)e;
    unsigned k;
    if (sscanf(id, "synthetic-%u", &k) != 1 || k < 2 || k > 28)
        return false;
    *bytes = synthetic_key_bytes(k);
    return true;
}

static bool no_key_file(const cuzk_engine *e, const char *id, char *path, size_t cap)
{
    (void)e;
    (void)id;
    (void)path;
    (void)cap;
    return false;
}

static cuzk_status synthetic_synthesize(const cuzk_engine *e, const ereq *q,
                                        const ekind_plan *plan, const srs_key *key,
                                        uint32_t part, cuzk_pool *pool, esynth *out,
                                        cuzk_error *err)
{
    (void)e;
    (void)q;
    (void)plan;
    (void)part;
    (void)pool;
    /* the key's witness (see srs_key): the partition holds the key while it runs */
    if (!key->r1cs || key->r1cs->n_vars == 0 || !key->wmap || !key->wdense)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "synthetic key has no circuit");
    out->w = cuzk_witness_compact(key->wmap, key->wbits, key->wdense);
    out->bytes = 0;
    return CUZK_OK;
}

/* ekind.verify_result: the key is made again (the same key: a dev setup from the circuit
 * id; a few seconds at the largest verifiable size, 2^synthetic_setup_max_log2n), and
 * every partition proves the key's own witness, so its public inputs are that witness's
 * variables 1 .. n_ic - 1. A random key's proofs never verify: such a result is
 * benchmark_only and holds no proof to serve. */
static cuzk_status synthetic_verify_result(const cuzk_engine *e, const ereq *req,
                                           const ekind_plan *plan, const uint8_t *proofs,
                                           uint32_t partitions, cuzk_pool *pool,
                                           cuzk_error *err)
{
    srs_key key;
    cuzk_status st = synthetic_load_key(e, plan->circuit_id, req, NULL, 0, &key, NULL, NULL,
                                          pool, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fr *in = NULL;
    size_t n = key.pk.vk.n_ic ? key.pk.vk.n_ic - 1 : 0;
    if (key.benchmark_only)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                            "a random (benchmark) key's proofs cannot verify");
    else if (!key.wmap || !key.wdense || !key.r1cs || n + 1 > key.r1cs->n_vars)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "synthetic key has no witness");
    else if (!(in = malloc((n ? n : 1) * sizeof *in)))
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "synthetic key: out of memory");
    if (st == CUZK_OK) {
        cuzk_witness w = cuzk_witness_compact(key.wmap, key.wbits, key.wdense);
        for (size_t i = 0; i < n; i++)
            cuzk_witness_value(&in[i], &w, (uint32_t)(i + 1));
        st = engine_verify_partitions(&key.pk.vk, in, 0, proofs, partitions, pool, err);
    }
    free(in);
    engine_srs_key_clear(&key);
    return st;
}

const ekind engine_kind_synthetic = {
    .kind = CUZK_PROOF_SYNTHETIC,
    .name = "synthetic",
    .default_priority = CUZK_PRIORITY_NORMAL,
    .plan = synthetic_plan,
    .owns_circuit = synthetic_owns,
    .load_key = synthetic_load_key,
    .key_file = no_key_file,
    .key_bytes = synthetic_key_estimate,
    .synthesize = synthetic_synthesize,
    .verify_result = synthetic_verify_result,
};
