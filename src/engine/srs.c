/*
 * srs.c — the key (SRS) manager: one entry per circuit id, tiers HOT (decoded, charged to
 * the budget), WARM (the key's file mapped, pages in the page cache, not charged), COLD
 * (known, nothing in memory). Loaded on demand by the first partition (or a preload) that
 * needs it, reference-counted from admission to the partition's end, evicted least
 * recently used when idle and the budget is short (a latency job's key is pinned: the
 * scheduler, sched.h, says when it may go). Keys that belong to one job (given as
 * bytes) are dropped when their last partition leaves.
 *
 * Keys from files remember the identity of the file they were decoded from (the mapping's
 * mapped_file_id); each admission (engine_srs_get) compares it with what the path names
 * now, and a changed file is read again (an idle entry drops to COLD; one in use leaves
 * the table, keeping its key for the partitions holding it, and a fresh entry replaces
 * it). A failed load caches nothing: its mapping is closed and the next user loads again.
 * Mappings are mapped_file's, guarded against truncation (a lost page reads as zeros and
 * flags the mapping): a load from a mapping that changed fails with CUZK_ERR_IO, and a
 * WARM mapping that changed is reopened before it is reused.
 * A load is told to stop (its load_cancel, which a dev setup reads between its steps) when
 * the engine stops or when every job that wanted the key is over.
 *
 * Threading: entries are guarded by engine->mu. A load runs with mu released while the
 * entry is marked loading (other users wait on srs_cv). Evicted keys are not freed under
 * mu (a GPU backend's forget may wait for its device): they go to a graveyard that
 * engine_srs_bury empties after the caller has unlocked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/budget.h"
#include "engine/log.h"
#include "engine/srs.h"
#include "engine/state.h"
#include "formats/formats_export.h"

typedef struct srs_grave {
    srs_key *key; /* the object the provers saw (forgotten by &key->pk) */
    struct srs_grave *next;
} srs_grave;

uint64_t engine_key_estimate(const cuzk_engine *e, const ekind *k, const char *id,
                             uint64_t file_size)
{
    uint64_t b;
    if (k->key_bytes && k->key_bytes(e, id, &b))
        return b;
    return 2 * file_size + (1u << 20);
}

static void unlink_entry(cuzk_engine *e, srs_entry *s);
static void unmap(srs_entry *s);

uint64_t engine_srs_load_bytes(const cuzk_engine *e, srs_entry *s)
{
    if (s->job_own || !s->kind->key_make_bytes)
        return s->est_bytes;
    if (!s->make_known) {
        s->make_bytes = s->kind->key_make_bytes(e, s->id);
        s->make_known = true;
    }
    return s->est_bytes + s->make_bytes;
}

/* true when the file s's key (HOT) or mapping (WARM) came from is no longer what its path
 * names, or changed in place (its mapping lost pages, or size/mtime moved), or the
 * resident circuit's CSR cache file changed under its mapping */
static bool file_changed(const cuzk_engine *e, const srs_entry *s)
{
    if (s->job_own)
        return false;
    if (s->tier == CUZK_SRS_HOT && s->key && s->key->r1cs && cuzk_r1cs_cache_changed(s->key->r1cs))
        return true;
    if (!s->map)
        return false;
    char path[4096];
    mapped_file_id now;
    if (!s->kind->key_file(e, s->id, path, sizeof path) || !mapped_file_id_of_path(path, &now))
        return true; /* gone: the next load says why */
    return !mapped_file_id_equal(&now, &s->map->id) || mapped_file_changed(s->map);
}

srs_entry *engine_srs_get(cuzk_engine *e, const char *id, const ekind *k, const ereq *req,
                          bool create)
{
    for (srs_entry *s = e->srs; s; s = s->next) {
        if (strcmp(s->id, id) != 0)
            continue;
        if (s->loading || !file_changed(e, s))
            return s;
        engine_log(e, CUZK_LOG_INFO, "srs: the key file of %s changed since it was loaded: "
                   "reading it again", s->id);
        if (s->tier != CUZK_SRS_HOT || s->refs == 0) {
            /* no partition holds a decoded key (idle, or WARM/COLD: its partitions have not
             * loaded it yet and will load the new file): to COLD in place, the decoded key
             * to the graveyard and the mapping closed */
            engine_srs_evict_entry(e, s);
            unmap(s);
            s->tier = CUZK_SRS_COLD;
            s->make_known = false;
            return s;
        }
        /* HOT and in use: its partitions keep the old key (they hold the entry); new users
         * get a fresh entry, and the last unref frees this one */
        unlink_entry(e, s);
        s->detached = true;
        if (!k)
            k = s->kind;
        break;
    }
    if (!create || strlen(id) >= sizeof(((srs_entry *)0)->id))
        return NULL;
    srs_entry *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    strcpy(s->id, id);
    s->tier = CUZK_SRS_COLD;
    s->kind = k;
    s->job_own = strncmp(id, "job:", 4) == 0;
    s->req = req;
    char path[4096];
    struct stat sb;
    if (k->key_file(e, id, path, sizeof path) && stat(path, &sb) == 0)
        s->file_size = (uint64_t)sb.st_size;
    s->est_bytes = engine_key_estimate(e, k, id, s->file_size);
    if (s->job_own && req)
        s->est_bytes = 2 * (req->zkey.len + req->params.len) + (1u << 20);
    s->last_used_ms = engine_now_ms();
    s->next = e->srs;
    e->srs = s;
    return s;
}

static void unlink_entry(cuzk_engine *e, srs_entry *s)
{
    for (srs_entry **pp = &e->srs; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            return;
        }
}

static void unmap(srs_entry *s)
{
    mapped_file_close(s->map);
    free(s->map);
    s->map = NULL;
    s->map_len = 0;
}

/* HOT -> WARM (file keys keep their mapping) or COLD; the decoded key to the graveyard. */
uint64_t engine_srs_evict_entry(cuzk_engine *e, srs_entry *s)
{
    if (s->tier != CUZK_SRS_HOT || s->refs || s->loading)
        return 0;
    srs_grave *g = calloc(1, sizeof *g);
    if (!g)
        return 0; /* keep it: better resident than leaked */
    g->key = s->key;
    g->next = e->graveyard;
    e->graveyard = g;
    s->key = NULL;
    s->on_device_only = false; /* the graveyard's forget drops the device copy */
    e->device_only_bytes -= s->device_only_bytes;
    s->device_only_bytes = 0;
    uint64_t freed = s->charged;
    e->hot_bytes -= freed;
    s->charged = 0;
    s->tier = s->map ? CUZK_SRS_WARM : CUZK_SRS_COLD;
    e->metrics.srs_evictions++;
    engine_budget_release(e, freed);
    engine_log(e, CUZK_LOG_INFO, "srs: evicted %s (%.1f MiB), now %s", s->id,
               freed / 1048576.0, s->tier == CUZK_SRS_WARM ? "warm" : "cold");
    return freed;
}

bool engine_srs_evict_one(cuzk_engine *e, uint64_t need, bool pinned_too)
{
    (void)need;
    double now = engine_now_ms();
    srs_entry *best = NULL;
    for (srs_entry *s = e->srs; s; s = s->next)
        if (s->tier == CUZK_SRS_HOT && !s->refs && !s->loading && (pinned_too || !s->pinned) &&
            now - s->last_used_ms >= (double)e->cfg.eviction_min_idle_s * 1e3 &&
            (!best || s->last_used_ms < best->last_used_ms))
            best = s;
    return best && engine_srs_evict_entry(e, best) > 0;
}

void engine_srs_key_clear(srs_key *key)
{
    cuzk_groth16_pk_free(&key->pk);
    cuzk_r1cs_destroy(key->r1cs);
    cuzk_witness_map_free(key->wmap);
    free(key->wmap);
    free(key->wbits);
    free(key->wdense);
    memset(key, 0, sizeof *key);
}

void engine_srs_bury(cuzk_engine *e)
{
    pthread_mutex_lock(&e->mu);
    while (e->hold_bury && !e->stopping) /* engine_testing.h */
        pthread_cond_wait(&e->srs_cv, &e->mu);
    srs_grave *g = e->graveyard;
    e->graveyard = NULL;
    if (g)
        e->burying++;
    pthread_mutex_unlock(&e->mu);
    if (!g)
        return;
    while (g) {
        srs_grave *next = g->next;
        srs_key *k = g->key;
        for (unsigned d = 0; d < e->n_devs; d++)
            cuzk_prover_forget(e->devs[d].prover, &k->pk, k->r1cs);
        engine_srs_key_clear(k);
        free(k);
        free(g);
        g = next;
    }
    pthread_mutex_lock(&e->mu);
    e->burying--;
    pthread_cond_broadcast(&e->srs_cv);
    pthread_mutex_unlock(&e->mu);
}

void engine_srs_bury_all(cuzk_engine *e)
{
    engine_srs_bury(e);
    pthread_mutex_lock(&e->mu);
    while (e->graveyard || e->burying) {
        if (e->graveyard) { /* evicted since: this thread frees them too */
            pthread_mutex_unlock(&e->mu);
            engine_srs_bury(e);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        pthread_cond_wait(&e->srs_cv, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

/* n bytes of the budget for a key, evicting idle unpinned keys for them (a preload, or a
 * load that came out bigger than its estimate). */
static bool srs_reserve(cuzk_engine *e, uint64_t n)
{
    while (!engine_budget_try(e, n))
        if (!engine_srs_evict_one(e, n, false))
            return false;
    return true;
}

/* The graveyard frees an early circuit that no key adopted, off the lock (mu held). */
static void early_free(cuzk_engine *e, srs_early *o)
{
    if (!o->adopted && (o->r1cs || o->wmap)) {
        srs_grave *g = calloc(1, sizeof *g);
        srs_key *k = g ? calloc(1, sizeof *k) : NULL;
        if (!k) /* out of memory: leaked, better than freed under a user */
            free(g);
        else {
            k->r1cs = o->r1cs;
            k->wmap = o->wmap;
            g->key = k;
            g->next = e->graveyard;
            e->graveyard = g;
            pthread_cond_broadcast(&e->dispatch_cv); /* the dispatcher buries it */
        }
    }
    free(o);
}

void engine_srs_early_drop(cuzk_engine *e, srs_early *o)
{
    if (o && --o->users == 0 && o->detached)
        early_free(e, o);
}

cuzk_status engine_srs_await(cuzk_engine *e, srs_entry *s, const volatile int *cancel,
                             cuzk_error *err)
{
    while (s->loading) {
        if (e->stopping || (cancel && *cancel))
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, e->stopping ? "the engine is stopping"
                                                                       : "cancelled");
        pthread_cond_wait(&e->srs_cv, &e->mu);
    }
    if (s->tier == CUZK_SRS_HOT)
        return CUZK_OK;
    return cuzk_error_set(err, s->load_status != CUZK_OK ? s->load_status : CUZK_ERR_INTERNAL,
                          "%s", s->load_error[0] ? s->load_error : "the key was not loaded");
}

typedef struct publish_ctx {
    cuzk_engine *e;
    srs_entry *s;
    srs_early *o; /* allocated before the load, so publishing cannot fail */
    bool out;     /* published */
} publish_ctx;

/* The loader's srs_publish (mu NOT held): the circuit goes out to the synthesis workers
 * waiting in engine_srs_ensure. */
static void publish_circuit(void *ctx, cuzk_r1cs *r1cs, cuzk_witness_map *wmap)
{
    publish_ctx *x = ctx;
    cuzk_engine *e = x->e;
    pthread_mutex_lock(&e->mu);
    x->o->r1cs = r1cs;
    x->o->wmap = wmap;
    x->s->early = x->o;
    x->out = true;
    pthread_cond_broadcast(&e->srs_cv);
    /* engine_testing.h: a test holds the points here, as a slow decode or setup would */
    while (e->hold_points && !e->stopping && !x->s->load_cancel)
        pthread_cond_wait(&e->srs_cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

/* What a load carries from its start (engine_srs_ensure, mu held) to its end. */
typedef struct load_args {
    cuzk_engine *e;
    srs_entry *s;
    const ekind *k;
    const ereq *req;     /* s->req: a job-own key's bytes (alive while s is referenced) */
    char id[256];
    mapped_file *map;    /* the key file, mapped (NULL: none) */
    uint64_t charge;
    double tl;           /* when the load started */
    publish_ctx pub;
    cuzk_pool_scope scope; /* the asking thread's (its priority) */
    cuzk_error err;      /* a load on its own thread: its error */
} load_args;

/* The load proper: decode (mu NOT held), then the key into the table or the failure into
 * the entry (returns with mu held). st: the mapping's outcome. */
static cuzk_status load_run(load_args *a, cuzk_status st, cuzk_error *err)
{
    cuzk_engine *e = a->e;
    srs_entry *s = a->s;
    const ekind *k = a->k;
    const char *id = a->id;
    mapped_file *map = a->map;
    uint64_t charge = a->charge;
    double tl = a->tl;
    publish_ctx pub = a->pub;
    srs_publish publish = {publish_circuit, &pub};
    /* its own allocation: the object the provers will know it by (srs.h) */
    srs_key *key = st == CUZK_OK ? calloc(1, sizeof *key) : NULL;
    if (st == CUZK_OK && !key)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory for key %s", id);
    bool decoded = false;
    /* An eviction gives its budget back at once, but the memory only when the graveyard
     * frees the key (engine_srs_bury, off mu; a 44 GiB pinned PoRep key takes seconds to
     * unpin). A load allocates its GiBs in its first moments: it waits for the keys
     * evicted before it to be freed, or the two would sit side by side over the budget. */
    if (st == CUZK_OK)
        engine_srs_bury_all(e);
    if (st == CUZK_OK) {
        /* the pool's stoppable stages (recording, decoding) read load_cancel too, so a
         * stopping daemon or a key no job wants any more stops at its next chunk; the
         * priority stays the asking thread's (a WinningPoSt's key loads as CRITICAL) */
        cuzk_pool_scope scope = a->scope;
        scope.cancel = &s->load_cancel;
        cuzk_pool_scope prev = cuzk_pool_scope_enter(scope);
        st = k->load_key(e, id, a->req, map ? map->data : NULL, map ? map->len : 0, key,
                         &s->load_cancel, pub.o ? &publish : NULL, e->pool, err);
        cuzk_pool_scope_enter(prev);
        decoded = st == CUZK_OK;
        /* decoded from a file truncated or rewritten under the read: not this key (it goes
         * to the graveyard below), and a parse error is reported as the change it was */
        if (map)
            st = mapped_file_check(map, st, err);
    }
    if (st != CUZK_OK && map) {
        /* a failed load keeps no mapping: the next user maps the file afresh */
        mapped_file_close(map);
        free(map);
        map = NULL;
    }
    uint64_t load_ms = (uint64_t)(engine_now_ms() - tl);

    pthread_mutex_lock(&e->mu);
    s->map = map;
    s->map_len = map ? map->len : 0;
    if (map)
        s->file_size = map->id.size;
    s->refs--;
    s->loading = false;
    s->load_gen++;
    s->make_known = false;
    s->load_status = st;
    if (st == CUZK_OK && key->bytes > charge && !srs_reserve(e, key->bytes - charge))
        st = s->load_status =
            cuzk_error_set(err, CUZK_ERR_NOMEM, "key %s takes %.1f MiB, more than the budget allows",
                           id, key->bytes / 1048576.0);
    srs_early *o = pub.out ? pub.o : NULL;
    if (!pub.out)
        free(pub.o);
    s->early = NULL;
    if (o) {
        /* a key that is served adopts its circuit; otherwise the circuit stays with the
         * partitions synthesized from it, and the last of them frees it */
        o->adopted = st == CUZK_OK;
        o->detached = true;
        if (decoded && !o->adopted) {
            key->r1cs = NULL; /* the early circuit's, freed with it (below or later) */
            key->wmap = NULL;
        }
        if (o->users == 0)
            early_free(e, o);
    }
    if (st != CUZK_OK && decoded) {
        /* decoded, then found changed or too big: its memory is freed with the graveyard's */
        srs_grave *g = calloc(1, sizeof *g);
        if (g) {
            g->key = key;
            g->next = e->graveyard;
            e->graveyard = g;
        }
    } else if (st != CUZK_OK) {
        free(key); /* the loader freed what it had made; no prover saw it */
        key = NULL;
    } else {
        if (key->bytes < charge)
            engine_budget_release(e, charge - key->bytes);
        charge = key->bytes;
    }
    if (st == CUZK_OK) {
        s->key = key;
        s->charged = charge;
        e->hot_bytes += charge;
        s->tier = CUZK_SRS_HOT;
        s->est_bytes = charge; /* the next load knows better */
        s->load_ms_last = load_ms;
        s->last_used_ms = engine_now_ms();
        e->metrics.srs_loads++;
        ehist_observe(&e->metrics.h[EH_SRS_LOAD], load_ms / 1e3);
        engine_log(e, CUZK_LOG_INFO, "srs: loaded %s (%.1f MiB) in %llu ms%s", id,
                   charge / 1048576.0, (unsigned long long)load_ms,
                   key->benchmark_only ? " [random key: benchmark only]" : "");
        engine_srs_device_make_way(e, s);
    } else {
        engine_budget_release(e, charge);
        snprintf(s->load_error, sizeof s->load_error, "%s", err ? err->msg : "key load failed");
        engine_log(e, CUZK_LOG_WARN, "srs: cannot load %s: %s", id, s->load_error);
    }
    pthread_cond_broadcast(&e->srs_cv);
    return st;
}

/* A load on its own thread (a synthesis's: the worker goes back to synthesizing from the
 * circuit once it is out); the engine waits for these at destroy (loaders). */
static void *load_thread(void *arg)
{
    load_args *a = arg;
    cuzk_engine *e = a->e;
    (void)load_run(a, CUZK_OK, &a->err); /* returns with mu held */
    e->loaders--;
    pthread_cond_broadcast(&e->srs_cv);
    pthread_mutex_unlock(&e->mu);
    free(a);
    return NULL;
}

cuzk_status engine_srs_ensure(cuzk_engine *e, srs_entry *s, const volatile int *cancel,
                              const ereq *jreq, int key_fd, uint64_t *wait_ms,
                              srs_early **early, cuzk_error *err)
{
    double t0 = engine_now_ms();
    uint64_t gen = s->load_gen;
    if (early)
        *early = NULL;
wait:
    while (s->loading) {
        if (early && s->early) {
            /* its circuit is out: synthesize now, wait for the points before the device */
            s->early->users++;
            *early = s->early;
            s->last_used_ms = engine_now_ms();
            if (wait_ms)
                *wait_ms += (uint64_t)(engine_now_ms() - t0);
            return CUZK_OK;
        }
        /* another thread loads it (a 32 GiB PoRep key takes a minute): a cancelled job or
         * a stopping engine does not wait for that (the cancel and stop broadcast srs_cv) */
        if (e->stopping || (cancel && *cancel)) {
            if (wait_ms)
                *wait_ms += (uint64_t)(engine_now_ms() - t0);
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, e->stopping ? "the engine is stopping"
                                                                       : "cancelled");
        }
        pthread_cond_wait(&e->srs_cv, &e->mu);
        /* a load cancelled because its jobs were over: this user still wants the key, so
         * it loads it (the loop ends unless another user started first) */
        if (s->tier != CUZK_SRS_HOT && s->load_gen != gen &&
            s->load_status == CUZK_ERR_CANCELLED && !e->stopping &&
            !(cancel && *cancel)) {
            gen = s->load_gen;
            continue;
        }
        if (s->tier != CUZK_SRS_HOT && s->load_gen != gen && s->load_status != CUZK_OK) {
            if (wait_ms)
                *wait_ms += (uint64_t)(engine_now_ms() - t0);
            return cuzk_error_set(err, s->load_status, "%s", s->load_error);
        }
    }
    if (s->tier == CUZK_SRS_HOT) {
        s->last_used_ms = engine_now_ms();
        if (wait_ms)
            *wait_ms += (uint64_t)(engine_now_ms() - t0);
        return CUZK_OK;
    }
    uint64_t charge = s->pending_charge;
    s->pending_charge = 0;
    if (charge == 0) {
        uint64_t want = engine_srs_load_bytes(e, s);
        if (!srs_reserve(e, want))
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "key %s needs %.1f MiB; the budget has %.1f MiB free and "
                                  "nothing idle to evict",
                                  s->id, want / 1048576.0,
                                  (e->budget - e->used) / 1048576.0);
        charge = want;
    }
    s->loading = true;
    s->load_for_preload = cancel == NULL; /* only a preload asks with no job's flag */
    s->load_cancel = e->stopping;
    s->refs++; /* not evictable while we work on it unlocked */
    /* engine_testing.h: a test holds loads here to stand for a slow one (others wait) */
    while (e->hold_loads && !e->stopping)
        pthread_cond_wait(&e->srs_cv, &e->mu);
    const ekind *k = s->kind;
    const ereq *req = s->req;
    char id[256], path[4096];
    strcpy(id, s->id);
    bool has_file = k->key_file(e, id, path, sizeof path);
    /* the circuit may go out before the points (srs_early); no room for it: it does not */
    publish_ctx pub = {.e = e, .s = s, .o = calloc(1, sizeof(srs_early))};
    /* the loader owns the mapping until it is done (WARM's, or a new one) */
    mapped_file *map = s->map;
    s->map = NULL;
    s->map_len = 0;
    /* the job that asks holds the key file open since submit: read that, not the path */
    ereq_input kin = EREQ_ZKEY;
    bool via_req = has_file && jreq && k->key_input && k->key_input(id, jreq, &kin);
    /* a preload's caller opened the file likewise (the gRPC service, as its client) */
    bool via_fd = has_file && !via_req && key_fd >= 0;
    pthread_mutex_unlock(&e->mu);

    cuzk_status st = CUZK_OK;
    double tl = engine_now_ms();
    mapped_file_id now;
    if (map && (!has_file || !mapped_file_id_of_path(path, &now) ||
                !mapped_file_id_equal(&now, &map->id) || mapped_file_changed(map))) {
        /* the WARM mapping is of a file that changed (or left): map what the path names */
        mapped_file_close(map);
        free(map);
        map = NULL;
    }
    if (has_file && !map) {
        if (!(map = malloc(sizeof *map)))
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        else if ((st = (via_req  ? ereq_input_map(jreq, kin, map, err)
                        : via_fd ? mapped_file_open_fd(map, key_fd, path, err)
                                 : mapped_file_open(map, path, err))) != CUZK_OK) {
            free(map);
            map = NULL;
        }
    }
    load_args *la = calloc(1, sizeof *la);
    if (!la) {
        if (map) {
            mapped_file_close(map);
            free(map);
        }
        free(pub.o);
        pthread_mutex_lock(&e->mu);
        s->refs--;
        s->loading = false;
        s->load_gen++;
        s->make_known = false;
        s->load_status = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        snprintf(s->load_error, sizeof s->load_error, "out of memory");
        engine_budget_release(e, charge);
        pthread_cond_broadcast(&e->srs_cv);
        return CUZK_ERR_NOMEM;
    }
    *la = (load_args){.e = e, .s = s, .k = k, .req = req, .map = map, .charge = charge,
                      .tl = tl, .pub = pub, .scope = cuzk_pool_scope_get()};
    strcpy(la->id, id);
    /* a synthesis's load runs on its own thread, so the worker synthesizes from the circuit
     * as soon as the load hands it out (srs_early); a failed mapping needs no thread */
    if (st == CUZK_OK && early) {
        pthread_t th;
        pthread_attr_t at;
        bool started = false;
        pthread_mutex_lock(&e->mu);
        e->loaders++;
        if (pthread_attr_init(&at) == 0) {
            pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
            started = pthread_create(&th, &at, load_thread, la) == 0;
            pthread_attr_destroy(&at);
        }
        if (started)
            goto wait; /* mu held, as the loop wants */
        e->loaders--;
        pthread_mutex_unlock(&e->mu);
    }
    st = load_run(la, st, err);
    free(la);
    if (wait_ms)
        *wait_ms += (uint64_t)(engine_now_ms() - t0);
    return st;
}

void engine_srs_unref(cuzk_engine *e, srs_entry *s)
{
    if (s->refs)
        s->refs--;
    s->last_used_ms = engine_now_ms();
    if (s->refs == 0 && !s->loading && s->pending_charge) {
        /* admitted for a load that never happened (its partitions were purged) */
        engine_budget_release(e, s->pending_charge);
        s->pending_charge = 0;
    }
    if ((s->job_own || s->detached) && s->refs == 0 && !s->loading) {
        engine_srs_evict_entry(e, s);
        unmap(s);
        unlink_entry(e, s);
        free(s);
    }
}

/* Called at destroy, with no other thread left and mu not held. */
void engine_srs_free_all(cuzk_engine *e)
{
    while (e->srs) {
        srs_entry *s = e->srs;
        e->srs = s->next;
        if (s->tier == CUZK_SRS_HOT) {
            s->refs = 0;
            engine_srs_evict_entry(e, s);
        }
        unmap(s);
        free(s);
    }
    engine_srs_bury(e);
}
