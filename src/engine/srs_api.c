/*
 * srs_api.c — the key manager's public calls: preload a key by circuit id (loaded HOT as a
 * partition would load it) and evict one (HOT to WARM or COLD, refused while in use).
 * Threading: both take engine->mu; a load runs with it released (engine_srs_ensure), and
 * evicted keys are freed after it is dropped, before the call returns (engine_srs_bury_all).
 */
#include "engine/kind.h"
#include "engine/log.h"
#include "engine/srs.h"
#include "engine/state.h"

cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *id, bool *already_loaded,
                                uint64_t *load_ms, cuzk_error *err)
{
    return cuzk_engine_preload_fd(e, id, -1, already_loaded, load_ms, err);
}

cuzk_status cuzk_engine_preload_fd(cuzk_engine *e, const char *id, int fd,
                                   bool *already_loaded, uint64_t *load_ms, cuzk_error *err)
{
    if (!e || !id)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "preload: NULL argument");
    pthread_mutex_lock(&e->mu);
    srs_entry *s = engine_srs_get(e, id, NULL, NULL, false);
    const ekind *k = s ? s->kind : engine_kind_for_circuit(id);
    if (!k) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    }
    /* a key that cannot be had (a Filecoin key without its .params and no dev keys) is not
     * found, whatever its size */
    cuzk_status avail = !s && k->key_available ? k->key_available(e, id, err) : CUZK_OK;
    if (avail != CUZK_OK) {
        pthread_mutex_unlock(&e->mu);
        return avail;
    }
    if (!s && !(s = engine_srs_get(e, id, k, NULL, true))) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    bool was = s->tier == CUZK_SRS_HOT;
    double t0 = engine_now_ms();
    s->refs++;
    cuzk_status st = engine_srs_ensure(e, s, NULL, NULL, fd, NULL, NULL, err);
    engine_srs_unref(e, s);
    pthread_mutex_unlock(&e->mu);
    engine_srs_bury_all(e);
    if (already_loaded)
        *already_loaded = was;
    if (load_ms)
        *load_ms = (uint64_t)(engine_now_ms() - t0);
    return st;
}

cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *id, bool *was_loaded,
                              uint64_t *freed_bytes, cuzk_error *err)
{
    if (!e || !id)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "evict: NULL argument");
    if (was_loaded)
        *was_loaded = false;
    if (freed_bytes)
        *freed_bytes = 0;
    pthread_mutex_lock(&e->mu);
    srs_entry *s = engine_srs_get(e, id, NULL, NULL, false);
    if (s && (s->refs || s->loading)) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_UNAVAILABLE, "key %s is in use by %u partition(s)",
                              id, s->refs);
    }
    uint64_t freed = s && s->tier == CUZK_SRS_HOT ? engine_srs_evict_entry(e, s) : 0;
    pthread_mutex_unlock(&e->mu);
    engine_srs_bury_all(e);
    if (was_loaded)
        *was_loaded = freed > 0;
    if (freed_bytes)
        *freed_bytes = freed;
    return CUZK_OK;
}
