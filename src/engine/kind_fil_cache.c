/*
 * kind_fil_cache.c — the Filecoin kinds' recorded circuits, cached on disk (kind_fil.h,
 * cuzk/r1cs_cache.h): <dir>/<circuit id>.csr is mapped when it is there and sound, else the
 * circuit is recorded, written there, and mapped back (so the heap copy is released and the
 * file is checked in full once, right after it was written, which stamps it).
 *   dir = cfg.csr_cache_dir, else cfg.dev_key_dir, else cfg.state_dir, else no cache.
 * A cache that is not sound (truncated, corrupt, another version or circuit) is logged and
 * replaced; the engine never proves from it. Loads use CHECK_ONCE: every section's checksum
 * the first time a file is mapped (right after it is written, here), then only the bounds
 * while <file>.ok still names the same unchanged file — a FULL check of a 32 GiB
 * partition on every start would cost more than the load target. Failing to write a cache only costs the next
 * start another recording, so it is a warning, not an error; the recorded circuit is then
 * kept in the cache's compact form, the size the key was charged for.
 * Threading: reentrant; checks run on the given pool; concurrent writers of one file
 * (two engines) each rename a complete temporary, so the file stays whole.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cuzk/r1cs_cache.h"
#include "engine/kind_fil.h"
#include "engine/log.h"
#include "engine/state.h"

/* Revision of the Filecoin circuits' recorded constraint systems, written into each
 * cache's circuit id ("porep-32g/r1"): bump it with any change to a gadget or circuit
 * that changes what is recorded (rows, order, coefficients), so caches recorded by an
 * older cuzk are refused and re-recorded instead of proving a stale circuit. */
#define FIL_CIRCUIT_REV 2

static const char *cache_dir(const cuzk_engine *e)
{
    const char *dir = e->cfg.csr_cache_dir  ? e->cfg.csr_cache_dir
                      : e->cfg.dev_key_dir ? e->cfg.dev_key_dir
                                           : e->cfg.state_dir;
    return dir && *dir ? dir : NULL;
}

bool fil_csr_cache_path(const cuzk_engine *e, const char *id, char *path, size_t cap)
{
    const char *dir = cache_dir(e);
    return dir && snprintf(path, cap, "%s/%s.csr", dir, id) < (int)cap;
}

bool fil_csr_cached(const cuzk_engine *e) { return cache_dir(e) != NULL; }

/* A recorded circuit the cache did not take stays in memory in the cache's own form: the
 * key was admitted and charged for a mapped circuit (fil_key_bytes), and the recorded one
 * is 36 bytes a term against 8 (WindowPoSt 32 GiB: 41.3 GiB against 11.4; kept whole, it
 * took a 128 GiB box past its memory next to the key's setup, and the kernel killed the
 * daemon). Failing that, the load fails: better one job than the daemon. */
static cuzk_status keep_recorded(const cuzk_engine *e, const char *id, cuzk_r1cs **r1cs,
                                 cuzk_error *err)
{
    double t0 = engine_now_ms();
    cuzk_status st = cuzk_r1cs_compact(*r1cs, err);
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(*r1cs);
        *r1cs = NULL;
    }
    malloc_trim(0); /* the 32-byte coefficients and the recording's pieces, back to the OS */
    if (st != CUZK_OK)
        return st;
    engine_log(e, CUZK_LOG_INFO, "srs: %s circuit kept in memory in the cache's form (%u "
               "distinct coefficients) in %.1f s", id, (*r1cs)->n_coeff_values,
               (engine_now_ms() - t0) / 1e3);
    return CUZK_OK;
}

cuzk_status fil_circuit_cached(const cuzk_engine *e, const char *id, fil_record_fn rec,
                               void *ctx, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                               cuzk_pool *pool, cuzk_error *err)
{
    char path[4096], tag[96];
    bool cached = fil_csr_cache_path(e, id, path, sizeof path) &&
                  snprintf(tag, sizeof tag, "%s/r%d", id, FIL_CIRCUIT_REV) < (int)sizeof tag;
    cuzk_error ce = {0};
    double t0 = engine_now_ms();
    if (cached) {
        cuzk_status st =
            cuzk_r1cs_cache_open(path, tag, CUZK_R1CS_CACHE_CHECK_ONCE, r1cs, map, pool, &ce);
        if (st == CUZK_OK) {
            engine_log(e, CUZK_LOG_INFO, "srs: %s circuit mapped from %s in %.3f s", id, path,
                       (engine_now_ms() - t0) / 1e3);
            return CUZK_OK;
        }
        if (st != CUZK_ERR_NOT_FOUND)
            engine_log(e, CUZK_LOG_WARN, "srs: %s: ignoring the circuit cache: %s; recording "
                       "again", id, ce.msg);
    }
    /* minutes at 32 GiB: said before, so an operator (and cuzkd_state.sh) can tell */
    engine_log(e, CUZK_LOG_INFO, "srs: %s: recording its circuit", id);
    cuzk_status st = rec(ctx, r1cs, map, err);
    if (st != CUZK_OK)
        return st;
    engine_log(e, CUZK_LOG_INFO, "srs: %s circuit recorded (%u variables) in %.1f s", id,
               (*r1cs)->n_vars, (engine_now_ms() - t0) / 1e3);
    if (!cached)
        return CUZK_OK;
    double t1 = engine_now_ms();
    if (e->cfg.csr_cache_dir && mkdir(e->cfg.csr_cache_dir, 0755) != 0 && errno != EEXIST)
        engine_log(e, CUZK_LOG_WARN, "srs: cannot create %s", e->cfg.csr_cache_dir);
    if (cuzk_r1cs_cache_write(path, tag, *r1cs, map, pool, &ce) != CUZK_OK) {
        engine_log(e, CUZK_LOG_WARN, "srs: %s circuit not cached: %s", id, ce.msg);
        return keep_recorded(e, id, r1cs, err);
    }
    double t2 = engine_now_ms();
    cuzk_r1cs *mapped = NULL;
    cuzk_witness_map mmap_wm;
    st = cuzk_r1cs_cache_open(path, tag, CUZK_R1CS_CACHE_CHECK_ONCE, &mapped,
                              map ? &mmap_wm : NULL, pool, &ce);
    if (st != CUZK_OK) { /* keep the recorded copy; the next load re-records */
        engine_log(e, CUZK_LOG_WARN, "srs: %s: the cache just written does not read back: %s",
                   id, ce.msg);
        return keep_recorded(e, id, r1cs, err);
    }
    cuzk_r1cs_destroy(*r1cs);
    *r1cs = mapped;
    if (map) {
        cuzk_witness_map_free(map);
        *map = mmap_wm;
    }
    malloc_trim(0); /* the recording's freed pieces */
    engine_log(e, CUZK_LOG_INFO, "srs: %s circuit cached in %s (written in %.1f s, checked "
               "in %.1f s)", id, path, (t2 - t1) / 1e3, (engine_now_ms() - t2) / 1e3);
    return CUZK_OK;
}
