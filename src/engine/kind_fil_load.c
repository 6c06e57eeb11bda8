/*
 * kind_fil_load.c — loading a key of the Filecoin kinds (kind_fil.h: fil_load_key).
 *
 * A key is the circuit recorded once per (kind, sector size) — the placeholder PoRep
 * partition or the blank PoSt partition on the recording backend, with its witness map so
 * partitions are proved from compact witnesses; cached on disk and mapped on later loads
 * (kind_fil_cache.c) — plus a proving key:
 *   - Filecoin's .params from param_dir, named as Filecoin names them (kind_fil_keys.c:
 *     v28-<prefix>-<sha256 of the public-params identifier>.params, parameters.json);
 *     checked against the recorded circuit (inputs, aux, domain, A/B densities) so a wrong
 *     file is an error, not invalid proofs. PoSt files of one size come in pairs (Window,
 *     Winning) that differ in their input count, so the file whose vk has the circuit's
 *     n_ic is taken. Before that, the file (and its .vk, when present, which must be the
 *     .params' own key) is checked against the digests of parameters.json in param_dir
 *     (cuzk/param_digest.h: hashed once, remembered); without parameters.json the load
 *     goes on and the log says the digests were not checked;
 *   - else, when dev_key_dir is set, a DEV key (cuzk's own setup, NOT Filecoin's trusted
 *     setup), loaded from dev_key_dir or made once and cached there (fil_dev_key).
 * Threading: reentrant; recording, setup and decoding use the pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/prover.h"
#include "cuzk/snap.h"
#include "engine/dev_setup.h"
#include "engine/kind_fil.h"
#include "engine/log.h"
#include "engine/sizes.h"
#include "engine/state.h"

/* ---- the dev key -------------------------------------------------------------------------- */

/* The one place a dev key comes from: cuzk_groth16_dev_key_cached (loaded from cache_path
 * when its note's R1CS digest matches this circuit, else made and written atomically with
 * its "NOT Filecoin's trusted setup" note); in memory only without a cache path, or when
 * the cache cannot be used at all (a build without OpenSSL has no digest), which is
 * logged. A key made but not written (a full disk, a directory gone) is used as it is
 * (save_err, logged): made once, never again by a fallback. cancel stops the setup. */
static cuzk_status fil_dev_key(const cuzk_engine *e, const char *id, const char *cache_path,
                               const cuzk_r1cs *r1cs, cuzk_groth16_pk *pk,
                               const volatile int *cancel, cuzk_pool *pool, cuzk_error *err)
{
    /* on the engine's GPU when it has one (the same bytes as on the CPU) */
    cuzk_groth16_setup_opts so;
    cuzk_groth16_fixed_base_hook *hook = NULL;
    engine_setup_opts(e, id, cancel, &so, &hook);
    double t0 = engine_now_ms();
    cuzk_status st = CUZK_ERR_UNSUPPORTED;
    bool made = true;
    if (cache_path) {
        cuzk_error ce = {0}, we = {0};
        cuzk_dev_key_opts ko = {CUZK_DEV_KEY_STORE_AUTO, 0, &so, &we};
        st = cuzk_groth16_dev_key_cached_ex(pk, NULL, r1cs, cache_path, pool, &ko, &made, &ce);
        if (st != CUZK_OK && st != CUZK_ERR_UNSUPPORTED) {
            if (err)
                *err = ce;
        } else if (st != CUZK_OK) {
            engine_log(e, CUZK_LOG_WARN, "dev key not cached at %s: %s", cache_path, ce.msg);
        } else if (we.code != CUZK_OK) {
            engine_log(e, CUZK_LOG_WARN, "dev key made but not cached at %s (kept in memory "
                       "for this run): %s", cache_path, we.msg);
        }
    }
    if (!cache_path || st == CUZK_ERR_UNSUPPORTED) {
        cache_path = NULL;
        st = cuzk_groth16_setup_dev_ex(pk, NULL, r1cs, CUZK_GROTH16_BELLPERSON, NULL, pool, &so,
                                       err);
    }
    if (st == CUZK_OK)
        engine_log(e, CUZK_LOG_INFO, "dev key %s %s in %.1f s (%s)",
                   cache_path ? cache_path : "(in memory)", made ? "made" : "loaded",
                   (engine_now_ms() - t0) / 1e3, hook ? hook->name : "CPU");
    cuzk_prover_fixed_base_hook_close(hook);
    return st;
}

/* ---- loading ------------------------------------------------------------------------------ */

static void log_check(const cuzk_engine *e, const char *path, const cuzk_param_check *pc)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (pc->verdict == CUZK_PARAM_NO_MANIFEST || pc->verdict == CUZK_PARAM_UNCHECKABLE)
        engine_log(e, CUZK_LOG_WARN, "params: %s: digest NOT checked: %s", name, pc->reason);
    else if (pc->verdict == CUZK_PARAM_MATCHED_CACHED)
        engine_log(e, CUZK_LOG_INFO,
                   "params: %s: digest %s matches parameters.json (remembered; file unchanged)",
                   name, pc->actual);
    else
        engine_log(e, CUZK_LOG_INFO,
                   "params: %s: digest %s matches parameters.json (%.2f GiB hashed in %.1f s%s)",
                   name, pc->actual, pc->bytes_hashed / 1073741824.0, pc->seconds,
                   pc->cache_written ? "" : "; directory not writable: remembered by this "
                                            "process only");
}

/* Filecoin's .params, and its .vk when one lies beside it, against parameters.json before
 * anything is decoded (cuzk/param_digest.h); the .vk must be the .params' own key, so the
 * verifier that reads the small .vk and the prover agree. */
static cuzk_status check_param_files(const cuzk_engine *e, const char *id, const uint8_t *map,
                                     size_t map_len, cuzk_error *err)
{
    char path[4096], vk[4096];
    if (!fil_key_file(e, id, path, sizeof path))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "%s: its .params left %s", id,
                              e->cfg.param_dir ? e->cfg.param_dir : "(no param_dir)");
    cuzk_param_check pc;
    cuzk_status st = cuzk_param_file_check(path, 0, &pc, err);
    if (st != CUZK_OK)
        return st;
    log_check(e, path, &pc);
    size_t n = strlen(path) - strlen(".params");
    snprintf(vk, sizeof vk, "%.*s.vk", (int)n, path);
    if (access(vk, F_OK) != 0)
        return CUZK_OK;
    if ((st = cuzk_param_file_check(vk, 0, &pc, err)) != CUZK_OK)
        return st;
    log_check(e, vk, &pc);
    return cuzk_param_vk_matches(map, map_len, path, vk, err);
}

/* Every kind records in parallel on the pool (a 32 GiB PoRep partition is ~2^27 rows:
 * minutes on one thread). */
static cuzk_status record(fil_circuit c, uint64_t size, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                          cuzk_pool *pool, cuzk_error *err)
{
    if (c == FIL_SNAP) {
        /* the R1CS does not depend on k, h or the commitments (inputs only) */
        cuzk_snap_partition blank;
        memset(&blank, 0, sizeof blank);
        cuzk_status st = cuzk_snap_info_get(size, CUZK_SNAP_MAIN, &blank.info, err);
        blank.h = blank.info.h;
        if (st == CUZK_OK)
            st = cuzk_snap_record(&blank, pool, r1cs, map, err);
        return st;
    }
    if (c == FIL_POREP)
        return cuzk_porep_record(size, pool, r1cs, map, err);
    cuzk_post_partition blank = {0};
    cuzk_status st = cuzk_post_info_get(c == FIL_WPOST ? CUZK_POST_WINDOW : CUZK_POST_WINNING,
                                        size, &blank.info, err);
    if (st == CUZK_OK)
        st = cuzk_post_record(&blank, pool, r1cs, map, err);
    return st;
}

typedef struct record_args {
    fil_circuit c;
    uint64_t size;
    cuzk_pool *pool;
} record_args;

static cuzk_status record_cb(void *ctx, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                             cuzk_error *err)
{
    const record_args *a = ctx;
    return record(a->c, a->size, r1cs, map, a->pool, err);
}

cuzk_status fil_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                         const uint8_t *map, size_t map_len, srs_key *key,
                         const volatile int *cancel, cuzk_pool *pool, cuzk_error *err)
{
    (void)req;
    fil_circuit c;
    uint64_t size;
    if (!fil_parse_id(id, &c, &size))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    memset(key, 0, sizeof *key);
    /* before recording: a 32 GiB circuit takes minutes and gigabytes to record (a file's
     * digest, once remembered, costs a stat) */
    cuzk_status st = map ? check_param_files(e, id, map, map_len, err)
                         : fil_key_available(e, id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_witness_map *wm = calloc(1, sizeof *wm);
    if (!wm)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_r1cs *r1cs = NULL;
    record_args ra = {c, size, pool};
    st = fil_circuit_cached(e, id, record_cb, &ra, &r1cs, wm, pool, err);
    if (st == CUZK_OK && cancel && *cancel)
        st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "%s: key load cancelled", id);
    if (st == CUZK_OK && map) {
        st = cuzk_groth16_pk_from_bellperson(&key->pk, map, map_len,
                                             CUZK_PARAMS_TRUSTED_ONCURVE, pool, err);
        if (st == CUZK_OK && (st = cuzk_groth16_pk_check_circuit(&key->pk, r1cs, err)) != CUZK_OK)
            cuzk_groth16_pk_free(&key->pk);
    } else if (st == CUZK_OK) {
        char path[4096];
        bool cached = fil_dev_key_path(e->cfg.dev_key_dir, id, path, sizeof path);
        engine_log(e, CUZK_LOG_WARN,
                   "srs: %s: using a DEV KEY (%s) — NOT Filecoin's trusted setup; its proofs "
                   "verify only against this dev key, never on chain",
                   id, cached ? path : "in memory");
        st = fil_dev_key(e, id, cached ? path : NULL, r1cs, &key->pk, cancel, pool, err);
    }
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(r1cs);
        cuzk_witness_map_free(wm);
        free(wm);
        return st;
    }
    key->r1cs = r1cs;
    key->wmap = wm;
    key->bytes = engine_pk_bytes(&key->pk) + engine_r1cs_bytes(r1cs) +
                 engine_wmap_bytes(r1cs->n_vars);
    return CUZK_OK;
}
