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
 *     goes on and the log says the digests were not checked. The trust policy (see
 *     "the trust policy" below) lets a big .params whose digest is not remembered yet
 *     serve before its digest is known, when its .vk is pinned;
 *   - else, when dev_key_dir is set, a DEV key (cuzk's own setup, NOT Filecoin's trusted
 *     setup), loaded from dev_key_dir or made once and cached there (fil_dev_key).
 * Threading: reentrant; recording, setup and decoding use the pool. A deferred digest runs
 * on a thread of its own (cuzk_param_file_check_start), listed in e->fil_bg under e->mu
 * and joined by fil_bg_stop at engine destroy.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
#include "util/util_export.h"

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

/* ---- the trust policy ------------------------------------------------------------------ */

/* What is checked before a Filecoin .params serves, and what after.
 *
 * On the critical path, always: the .vk's digest against parameters.json (a few kB to
 * 2.5 MB: milliseconds), the .vk equal byte for byte to the .params' vk block, the vk
 * decoded fully (on curve, in the subgroup: cuzk_groth16_pk_from_bellperson always does),
 * the .params' structure (every count against the bytes that remain, trailing bytes), each
 * point of the big vectors decoded and on its curve (CUZK_PARAMS_TRUSTED_ONCURVE, spread
 * over the pool: an off-curve point would make the prover's formulas compute garbage), and
 * the key against the recorded circuit (inputs, aux, domain, densities).
 *
 * Deferred: the .params' own BLAKE2b digest, when (a) the file is bigger than
 * CUZK_PARAM_DIGEST_DEFER_ABOVE (bytes, suffixes K/M/G; default 1 GiB: below it hashing
 * costs about a second and is simply done first), (b) no digest is remembered for the file
 * as it is now (a remembered one, right or wrong, is judged at once by a stat), and (c) the
 * .vk beside it matched its digest as above. Then the digest runs on a thread of its own
 * while the key serves (one core; ~75 s for the 32 GiB PoRep's 47 GB at 680 MB/s, against a
 * 60 s budget for the first proof), and is remembered as usual when it ends.
 *
 * Never, by default: the subgroup check of the big vectors (one ~64-bit scalar
 * multiplication a point: docs/perf.md "trust policy" has the cost, hours of CPU for the
 * 32 GiB PoRep key). The digest pins the bytes the ceremony published, whose points the
 * ceremony checked; the self-check (cuzk_groth16_proof_selfcheck) checks a failing
 * proof's key for points outside the subgroup, and names the first.
 *
 * Why serving before the digest is safe: every proof is verified against the vk before it
 * leaves the engine, its three points checked to be in their subgroups, and that vk is the
 * one whose bytes parameters.json pins (the .vk's digest, checked first, and the .vk equal
 * to the .params' vk block). A proof that passes is one the chain's verifier accepts for
 * this circuit's published key, whatever the rest of the .params holds; a corrupt point can
 * only make proofs fail (the job fails, the caller retries), never serve a wrong one.
 * When the deferred digest differs, the log says so at ERROR and the key is evicted as soon
 * as no partition uses it; the next load meets the remembered wrong digest and fails at
 * once, naming both digests, until the file is replaced. Without a .vk beside the .params
 * nothing pins the vk apart from the whole file, so the digest is checked first, as before.
 */

#define DEFER_ABOVE_DEFAULT ((uint64_t)1 << 30)

static uint64_t defer_above(void)
{
    uint64_t v = DEFER_ABOVE_DEFAULT;
    const char *s = getenv("CUZK_PARAM_DIGEST_DEFER_ABOVE");
    if (s && *s && !cuzk_parse_size(s, &v))
        v = DEFER_ABOVE_DEFAULT;
    return v;
}

/* One deferred digest. */
typedef struct fil_bg {
    struct fil_bg *next;
    cuzk_engine *e;
    char id[64];
    char path[4096];
    cuzk_param_bgcheck *check;
    atomic_bool stop;
} fil_bg;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* On the digest's thread when it ends. */
static void bg_done(void *ctx, cuzk_status st, const cuzk_param_check *pc,
                    const cuzk_error *err)
{
    fil_bg *b = ctx;
    if (st == CUZK_ERR_CANCELLED)
        return;
    if (st == CUZK_OK) {
        log_check(b->e, b->path, pc);
        return;
    }
    engine_log(b->e, CUZK_LOG_ERROR,
               "params: DEFERRED DIGEST FAILED for key %s, which was already serving: %s. "
               "Proofs made with it were each verified against its digest-pinned .vk before "
               "leaving, so none served was wrong; evicting the key, and its loads fail until "
               "the file is replaced",
               b->id, err->msg);
    /* a partition using it holds it: retry until none does (or the engine stops) */
    for (;;) {
        bool was = false;
        cuzk_error ee = {0};
        if (cuzk_engine_evict(b->e, b->id, &was, NULL, &ee) == CUZK_OK) {
            engine_log(b->e, CUZK_LOG_ERROR, "params: key %s evicted after its failed digest%s",
                       b->id, was ? "" : " (it was not loaded)");
            return;
        }
        if (atomic_load(&b->stop))
            return;
        sleep_ms(100);
    }
}

/* Joins and frees the finished ones (all of them with stop). mu not held. */
static void bg_reap(cuzk_engine *e, bool stop)
{
    pthread_mutex_lock(&e->mu);
    fil_bg **pp = &e->fil_bg, *done = NULL;
    while (*pp) {
        fil_bg *b = *pp;
        if (stop || cuzk_param_file_check_finished(b->check)) {
            *pp = b->next;
            b->next = done;
            done = b;
            if (stop)
                atomic_store(&b->stop, true);
        } else {
            pp = &b->next;
        }
    }
    pthread_mutex_unlock(&e->mu);
    while (done) {
        fil_bg *b = done;
        done = b->next;
        cuzk_param_file_check_join(b->check, stop);
        free(b);
    }
}

void fil_bg_stop(cuzk_engine *e) { bg_reap(e, true); }

/* Starts the deferred digest of path for key id, unless one runs for it already. The
 * engine is const to the kinds' loaders; the list and the eviction are the engine's own
 * bookkeeping, under its mutex. */
static void bg_start(const cuzk_engine *ce, const char *id, const char *path)
{
    cuzk_engine *e = (cuzk_engine *)ce;
    bg_reap(e, false);
    fil_bg *b = calloc(1, sizeof *b);
    if (!b) {
        engine_log(e, CUZK_LOG_ERROR, "params: %s: out of memory: its digest is NOT checked", id);
        return;
    }
    b->e = e;
    snprintf(b->id, sizeof b->id, "%s", id);
    snprintf(b->path, sizeof b->path, "%s", path);
    atomic_init(&b->stop, false);
    pthread_mutex_lock(&e->mu);
    bool running = false;
    for (fil_bg *o = e->fil_bg; o; o = o->next)
        running = running || strcmp(o->path, path) == 0;
    cuzk_error err = {0};
    if (!running && cuzk_param_file_check_start(path, 0, bg_done, b, &b->check, &err) == CUZK_OK) {
        b->next = e->fil_bg;
        e->fil_bg = b;
        b = NULL;
    }
    pthread_mutex_unlock(&e->mu);
    if (b && !running)
        engine_log(e, CUZK_LOG_ERROR, "params: %s: cannot start its digest: %s", id, err.msg);
    free(b);
}

/* Filecoin's .params, and its .vk when one lies beside it, against parameters.json before
 * anything is decoded (cuzk/param_digest.h); the .vk must be the .params' own key, so the
 * verifier that reads the small .vk and the prover agree. *defer (out): the .params' digest
 * is left to the background (the trust policy above); path (cap 4096) gets its path. */
static cuzk_status check_param_files(const cuzk_engine *e, const char *id, const uint8_t *map,
                                     size_t map_len, bool *defer, char *path,
                                     cuzk_error *err)
{
    char vk[4096];
    *defer = false;
    if (!fil_key_file(e, id, path, 4096))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "%s: its .params left %s", id,
                              e->cfg.param_dir ? e->cfg.param_dir : "(no param_dir)");
    size_t n = strlen(path) - strlen(".params");
    snprintf(vk, sizeof vk, "%.*s.vk", (int)n, path);
    bool have_vk = access(vk, F_OK) == 0;
    cuzk_param_check pc;
    cuzk_status st;
    bool big = (uint64_t)map_len > defer_above();
    if (big && have_vk) {
        if ((st = cuzk_param_file_check(path, CUZK_PARAM_CACHED_ONLY, &pc, err)) != CUZK_OK)
            return st;
        *defer = pc.verdict == CUZK_PARAM_NOT_HASHED;
    }
    if (!*defer) {
        if ((st = cuzk_param_file_check(path, 0, &pc, err)) != CUZK_OK)
            return st;
        log_check(e, path, &pc);
    }
    if (!have_vk)
        return CUZK_OK;
    if ((st = cuzk_param_file_check(vk, 0, &pc, err)) != CUZK_OK)
        return st;
    log_check(e, vk, &pc);
    if (*defer && pc.verdict != CUZK_PARAM_MATCHED && pc.verdict != CUZK_PARAM_MATCHED_CACHED) {
        /* the .vk is not pinned (no manifest): nothing to defer to, check it all now */
        *defer = false;
        if ((st = cuzk_param_file_check(path, 0, &pc, err)) != CUZK_OK)
            return st;
        log_check(e, path, &pc);
    }
    if ((st = cuzk_param_vk_matches(map, map_len, path, vk, err)) != CUZK_OK)
        return st;
    if (*defer)
        engine_log(e, CUZK_LOG_INFO,
                   "params: %s: %.2f GiB; its .vk matched parameters.json, so its own digest "
                   "is checked in the background while it serves (trust policy: "
                   "kind_fil_load.c)",
                   strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
                   map_len / 1073741824.0);
    return CUZK_OK;
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
                         const volatile int *cancel, const srs_publish *publish,
                         cuzk_pool *pool, cuzk_error *err)
{
    (void)req;
    fil_circuit c;
    uint64_t size;
    if (!fil_parse_id(id, &c, &size))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    memset(key, 0, sizeof *key);
    /* before recording: a 32 GiB circuit takes minutes and gigabytes to record (a file's
     * digest, once remembered, costs a stat) */
    bool defer = false;
    char ppath[4096];
    cuzk_status st = map ? check_param_files(e, id, map, map_len, &defer, ppath, err)
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
    /* synthesis needs only the circuit and its map: the jobs' partitions are synthesized
     * while the points decode (or a dev key is made); from here the SRS manager owns them */
    bool published = st == CUZK_OK && publish;
    if (published)
        publish->circuit(publish->ctx, r1cs, wm);
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
        if (!published) {
            cuzk_r1cs_destroy(r1cs);
            cuzk_witness_map_free(wm);
            free(wm);
        }
        return st;
    }
    if (defer)
        bg_start(e, id, ppath);
    key->r1cs = r1cs;
    key->wmap = wm;
    key->bytes = engine_pk_bytes(&key->pk) + engine_r1cs_bytes(r1cs) +
                 engine_wmap_bytes(r1cs->n_vars);
    return CUZK_OK;
}

/* ---- writing a key as Filecoin ships it ---------------------------------------------------- */

cuzk_status cuzk_engine_write_fil_params(cuzk_engine *e, const char *id, const uint8_t seed[32],
                                         const char *dir, cuzk_fil_params_written *out,
                                         cuzk_error *err)
{
    if (!e || !id || !seed || !dir || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "write params: NULL argument");
    memset(out, 0, sizeof *out);
    fil_circuit c;
    uint64_t size;
    char base[256];
    if (!fil_parse_id(id, &c, &size) || !fil_official_base(id, base, sizeof base))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    cuzk_witness_map wm = {0};
    cuzk_r1cs *r1cs = NULL;
    record_args ra = {c, size, e->pool};
    double t0 = engine_now_ms();
    cuzk_status st = fil_circuit_cached(e, id, record_cb, &ra, &r1cs, &wm, e->pool, err);
    out->record_s = (engine_now_ms() - t0) / 1e3;
    cuzk_witness_map_free(&wm);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_setup_opts so;
    cuzk_groth16_fixed_base_hook *hook = NULL;
    engine_setup_opts(e, id, NULL, &so, &hook); /* a CLI write: no engine stop to heed */
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    t0 = engine_now_ms();
    st = cuzk_groth16_setup_dev_ex(&pk, NULL, r1cs, CUZK_GROTH16_BELLPERSON, seed, e->pool, &so,
                                   err);
    out->setup_s = (engine_now_ms() - t0) / 1e3;
    cuzk_prover_fixed_base_hook_close(hook);
    cuzk_r1cs_destroy(r1cs);
    if (st != CUZK_OK)
        return st;
    cuzk_param_written w;
    t0 = engine_now_ms();
    st = cuzk_param_files_write(&pk, dir, base, size, e->pool, &w, err);
    out->write_s = (engine_now_ms() - t0) / 1e3;
    cuzk_groth16_pk_free(&pk);
    if (st != CUZK_OK)
        return st;
    snprintf(out->params_path, sizeof out->params_path, "%s/%s.params", dir, base);
    memcpy(out->params_digest, w.params_digest, sizeof out->params_digest);
    memcpy(out->vk_digest, w.vk_digest, sizeof out->vk_digest);
    out->params_bytes = w.params_bytes;
    out->vk_bytes = w.vk_bytes;
    engine_log(e, CUZK_LOG_WARN,
               "params: wrote %s (%.2f GiB, digest %s; record %.1f s, setup %.1f s, write+hash "
               "%.1f s) -- a DEV key from a seed, NOT Filecoin's trusted setup",
               out->params_path, w.params_bytes / 1073741824.0, w.params_digest, out->record_s,
               out->setup_s, out->write_s);
    return CUZK_OK;
}
