/*
 * engine.c — the engine's life: configuration defaults, create (pool, devices, timeline,
 * journal and the jobs it holds, threads), destroy, drain, logging, key preload/evict,
 * the timeline dump and the fault-injection hook.
 * Threading: create and destroy run alone; everything else takes engine->mu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/formats.h"
#include "engine/budget.h"
#include "engine/engine_testing.h"
#include "engine/fil_keys.h"
#include "engine/jobs.h"
#include "engine/journal.h"
#include "engine/log.h"
#include "engine/pipeline.h"
#include "engine/releaser.h"
#include "engine/srs.h"
#include "engine/state.h"

void cuzk_engine_config_default(cuzk_engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->log_level = CUZK_LOG_INFO;
}

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

static void apply_defaults(cuzk_engine_config *c)
{
    if (!c->memory_safety_margin)
        c->memory_safety_margin = 5ull << 30;
    if (!c->synthesis_workers)
        c->synthesis_workers = 2;
    if (!c->workers_per_device)
        c->workers_per_device = 2;
    if (!c->finalizers)
        c->finalizers = 2;
    if (!c->result_ttl_s)
        c->result_ttl_s = 3600;
    if (!c->collected_ttl_s)
        c->collected_ttl_s = 300;
    if (!c->synthetic_setup_max_log2n)
        c->synthetic_setup_max_log2n = 12;
    if (!c->timeline_rotate_bytes)
        c->timeline_rotate_bytes = 64ull << 20;
    if (!c->timeline_events)
        c->timeline_events = 65536;
}

/* The backends' reports (a key streamed from host memory, ...) in the engine's log. */
static void prover_log(void *ctx, bool warn, const char *msg)
{
    engine_log((const cuzk_engine *)ctx, warn ? CUZK_LOG_WARN : CUZK_LOG_INFO, "%s", msg);
}

static cuzk_status open_devices(cuzk_engine *e, cuzk_error *err)
{
    const char *spec = e->cfg.devices ? e->cfg.devices : "auto";
    char all[1024];
    if (strcmp(spec, "all") == 0) { /* every GPU, else the CPU */
        unsigned g = cuzk_prover_gpu_count();
        size_t k = 0;
        all[0] = 0;
        for (unsigned i = 0; i < g && k + 16 < sizeof all; i++)
            k += (size_t)snprintf(all + k, sizeof all - k, "%sgpu:%u", i ? "," : "", i);
        spec = g ? all : "cpu";
    }
    char *copy = strdup(spec);
    if (!copy)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    unsigned n = 1;
    for (const char *c = copy; *c; c++)
        n += *c == ',';
    if (!(e->devs = calloc(n, sizeof *e->devs))) {
        free(copy);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    cuzk_status st = CUZK_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && st == CUZK_OK;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        edevice *d = &e->devs[e->n_devs];
        if ((st = cuzk_prover_open(&d->prover, tok, e->pool, err)) != CUZK_OK)
            break;
        cuzk_prover_set_log(d->prover, prover_log, e);
        d->ordinal = (int)e->n_devs;
        d->is_gpu = cuzk_prover_kind(d->prover) == CUZK_BACKEND_CUDA;
        snprintf(d->name, sizeof d->name, "%s", cuzk_prover_describe(d->prover));
        e->n_devs++;
        e->devs_in_service++;
    }
    free(copy);
    if (st == CUZK_OK && e->n_devs == 0)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "devices: no device in \"%s\"", spec);
    return st;
}

static void journal_warn(void *ctx, const char *msg)
{
    engine_log(ctx, CUZK_LOG_WARN, "%s", msg);
}

/* Why a finished record's result cannot be served as it is (NULL: it can). A COMPLETED
 * result is served only when its record passed its checksum and holds every partition's
 * proof; otherwise the job is proved again, never answered with a proof nobody checked. */
static const char *unservable(const ejournal_done *d, uint32_t partitions)
{
    if (d->state != CUZK_JOB_COMPLETED || d->benchmark_only)
        return NULL;
    if (!d->checked)
        return "its result was written before results carried a checksum";
    if (partitions == 0 || d->proof_len != (size_t)partitions * CUZK_GROTH16_PROOF_BYTES)
        return "its COMPLETED record holds no proof for every partition";
    return NULL;
}

/* A finished record's outcome restored into j (queued by engine_job_enqueue). */
static void restore_finished(cuzk_engine *e, ejob *j, ejournal_done *d, uint32_t partitions)
{
    j->state = d->state;
    j->err_code = d->code;
    snprintf(j->err, sizeof j->err, "%s", d->error);
    snprintf(j->device, sizeof j->device, "%s", d->device);
    j->benchmark_only = d->benchmark_only;
    j->parts_done = d->partitions_done;
    j->plan.partitions = partitions;
    j->wall_finish = d->wall_finish;
    double age_ms = ((double)time(NULL) - (double)d->wall_finish) * 1e3;
    j->t_finish = engine_now_ms() - (age_ms > 0 ? age_ms : 0);
    j->t_submit = j->t_finish - (double)d->t.total_ms;
    j->t_first_admit = j->t_submit + (double)d->t.queue_wait_ms;
    j->srs_ms = d->t.srs_load_ms;
    j->synth_ms = d->t.synthesis_ms;
    j->dev_ms = d->t.gpu_compute_ms;
    j->fin_ms = d->t.finalize_ms;
    free(j->proof);
    j->proof = d->proof;
    d->proof = NULL;
    e->n_unfinished--;
}

/* Re-creates the journal's jobs: finished ones as results (not planned again: their
 * inputs may be gone, and parsing a 32 GiB C1 per kept result would slow the start), the
 * others queued again, and finished ones whose result cannot be served (a damaged or
 * unchecked record: unservable) proved again. Records of a kind this build does not know
 * are set aside (renamed .bad) with a log line. */
static cuzk_status resume(cuzk_engine *e, cuzk_error *err)
{
    ejournal_rec *recs;
    size_t n;
    cuzk_status st = ejournal_load(e->journal, &recs, &n, journal_warn, e, err);
    if (st != CUZK_OK)
        return st;
    size_t requeued = 0, kept = 0, again = 0;
    for (size_t i = 0; i < n; i++) {
        ejournal_rec *r = &recs[i];
        if (r->seq >= e->next_seq)
            e->next_seq = r->seq + 1;
        if (!engine_kind_find(r->req->kind)) {
            engine_log(e, CUZK_LOG_WARN,
                       "journal: job %s is of kind %d, which this build does not know; its "
                       "records are set aside as %s.req.bad",
                       r->id, (int)r->req->kind, r->id);
            ereq_free(r->req);
            ejournal_set_aside(e->journal, r->id);
            continue;
        }
        ejob *j;
        if (engine_job_enqueue(e, r->req, r->id, r->seq, &j, err) != CUZK_OK)
            continue;
        const char *why = r->done_bad[0] ? r->done_bad : NULL;
        uint32_t parts = r->finished ? (r->done.partitions ? r->done.partitions
                                                            : r->done.partitions_done)
                                     : 0;
        if (r->finished && !(why = unservable(&r->done, parts))) {
            restore_finished(e, j, &r->done, parts);
            kept++;
            continue;
        }
        if (why)
            engine_log(e, CUZK_LOG_WARN,
                       "journal: the outcome of job %s cannot be used (%s%s%s%s)%s", r->id, why,
                       r->done_bad[0] ? "; kept as " : "", r->done_bad[0] ? r->id : "",
                       r->done_bad[0] ? ".done.bad" : "",
                       r->req->stripped ? "" : "; the job is proved again");
        if (r->req->stripped) {
            /* it ended FAILED or CANCELLED (the payload goes then), but what it ended with
             * is lost: it cannot be proved again from nothing */
            cuzk_error pe = {0};
            cuzk_error_set(&pe, CUZK_ERR_IO, "the job ended before a restart, its outcome "
                                            "record is lost and its inputs were dropped: "
                                            "submit it again");
            j->plan.partitions = parts;
            engine_job_finish(e, j, CUZK_JOB_FAILED, pe.code, pe.msg);
            continue;
        }
        cuzk_error pe = {0};
        cuzk_status ps = engine_job_plan(e, j, &pe);
        if (ps != CUZK_OK) {
            engine_job_finish(e, j, CUZK_JOB_FAILED, ps, pe.msg);
        } else if (why) {
            again++;
        } else {
            requeued++;
        }
    }
    ejournal_recs_free(recs, n);
    if (n)
        engine_log(e, CUZK_LOG_INFO,
                   "journal: resumed %zu job(s), %zu finished result(s), %zu job(s) to prove "
                   "again",
                   requeued, kept, again);
    return CUZK_OK;
}

static void *reaper_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stopping) {
        engine_jobs_reap(e);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&e->reap_cv, &e->mu, &ts);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

static cuzk_status start_threads(cuzk_engine *e, cuzk_error *err)
{
    unsigned ns = e->cfg.synthesis_workers, nd = e->n_devs * e->cfg.workers_per_device,
             nf = e->cfg.finalizers;
    e->threads = calloc(ns + nd + nf, sizeof *e->threads);
    e->args = calloc(ns + nd + nf, sizeof *e->args);
    if (!e->threads || !e->args)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    /* up to a quarter of the budget may wait to be freed (it stays charged meanwhile) */
    cuzk_status st = ereleaser_start(&e->releaser, 16,
                                     e->budget / 4 > (1ull << 30) ? e->budget / 4 : 1ull << 30,
                                     err);
    if (st != CUZK_OK)
        return st;
    char name[160];
    for (unsigned d = 0; d < e->n_devs; d++) {
        snprintf(name, sizeof name, "device %u: %s", d, e->devs[d].name);
        e->devs[d].track = etimeline_track(e->timeline, name);
    }
    for (unsigned i = 0; i < ns + nd + nf; i++) {
        worker_arg *a = &e->args[i];
        a->e = e;
        void *(*fn)(void *);
        if (i < ns) {
            a->idx = i;
            snprintf(name, sizeof name, "synthesis %u", i);
            fn = engine_synth_main;
        } else if (i < ns + nd) {
            a->dev = (i - ns) / e->cfg.workers_per_device;
            a->idx = (i - ns) % e->cfg.workers_per_device;
            snprintf(name, sizeof name, "device %u worker %u", a->dev, a->idx);
            fn = engine_device_main;
        } else {
            a->idx = i - ns - nd;
            snprintf(name, sizeof name, "finalize %u", a->idx);
            fn = engine_finalizer_main;
        }
        a->track = etimeline_track(e->timeline, name);
        if (pthread_create(&e->threads[i], NULL, fn, a) != 0)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
        e->n_threads++;
    }
    if (pthread_create(&e->dispatcher, NULL, engine_dispatcher_main, e) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
    if (pthread_create(&e->reaper, NULL, reaper_main, e) != 0) {
        pthread_mutex_lock(&e->mu);
        e->stopping = true;
        pthread_cond_broadcast(&e->dispatch_cv);
        pthread_mutex_unlock(&e->mu);
        pthread_join(e->dispatcher, NULL);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
    }
    return CUZK_OK;
}

static void free_queue(cuzk_engine *e, epart *p)
{
    while (p) {
        epart *next = p->next;
        cuzk_prove_job_free(p->pj);
        if (p->syn.r1cs_owned)
            for (unsigned d = 0; d < e->n_devs; d++)
                cuzk_prover_forget(e->devs[d].prover, NULL, p->syn.r1cs_owned);
        esynth_free(&p->syn);
        free(p);
        p = next;
    }
}

static void engine_free(cuzk_engine *e, bool threads_started)
{
    if (threads_started) {
        pthread_mutex_lock(&e->mu);
        e->stopping = true;
        for (ejob *j = e->jobs; j; j = j->next)
            j->cancel = 1; /* a device stage stops at its next check */
        pthread_cond_t *cvs[] = {&e->dispatch_cv, &e->synth_cv, &e->dev_cv, &e->room_cv,
                                 &e->fin_cv, &e->done_cv, &e->srs_cv, &e->reap_cv};
        for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
            pthread_cond_broadcast(cvs[i]);
        pthread_mutex_unlock(&e->mu);
        pthread_join(e->dispatcher, NULL);
        pthread_join(e->reaper, NULL);
    }
    for (unsigned i = 0; i < e->n_threads; i++)
        pthread_join(e->threads[i], NULL);
    ereleaser_stop(e->releaser); /* its callbacks account into the SRS entries and jobs */
    e->releaser = NULL;
    free_queue(e, e->synth_q);
    free_queue(e, e->dev_q);
    free_queue(e, e->fin_q);
    engine_srs_free_all(e);
    engine_jobs_free_all(e);
    for (unsigned d = 0; d < e->n_devs; d++)
        cuzk_prover_close(e->devs[d].prover);
    free(e->devs);
    cuzk_pool_destroy(e->pool);
    etimeline_destroy(e->timeline);
    ejournal_close(e->journal);
    free(e->threads);
    free(e->args);
    free(e->devices_s);
    free(e->state_dir_s);
    free(e->dev_key_dir_s);
    free(e->csr_cache_dir_s);
    free(e->param_dir_s);
    free(e->timeline_s);
    pthread_cond_t *cvs[] = {&e->dispatch_cv, &e->synth_cv, &e->dev_cv, &e->room_cv,
                             &e->fin_cv, &e->done_cv, &e->srs_cv, &e->reap_cv};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
        pthread_cond_destroy(cvs[i]);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg,
                               cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "engine create: out is NULL");
    *out = NULL;
    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    if (cfg)
        e->cfg = *cfg;
    else
        cuzk_engine_config_default(&e->cfg);
    apply_defaults(&e->cfg);
    e->cfg.devices = e->devices_s = dup_or_null(e->cfg.devices);
    e->cfg.state_dir = e->state_dir_s = dup_or_null(e->cfg.state_dir);
    e->cfg.param_dir = e->param_dir_s = dup_or_null(e->cfg.param_dir);
    e->cfg.dev_key_dir = e->dev_key_dir_s = dup_or_null(e->cfg.dev_key_dir);
    e->cfg.csr_cache_dir = e->csr_cache_dir_s = dup_or_null(e->cfg.csr_cache_dir);
    e->cfg.timeline_path = e->timeline_s = dup_or_null(e->cfg.timeline_path);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_t *cvs[] = {&e->dispatch_cv, &e->synth_cv, &e->dev_cv, &e->room_cv,
                             &e->fin_cv, &e->done_cv, &e->srs_cv, &e->reap_cv};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
        pthread_cond_init(cvs[i], NULL);
    e->fault_device = -1;
    e->next_seq = 1;
    e->t_start = engine_now_ms();
    /* below this an inline free costs less than handing it over */
    e->release_later_min = (uint64_t)256 << 20;
    e->budget = e->cfg.memory_budget ? e->cfg.memory_budget
                                     : engine_budget_auto(e->cfg.memory_safety_margin);
    cuzk_status st = CUZK_OK;
    if (e->cfg.threads > CUZK_POOL_MAX_THREADS)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "threads: at most %u",
                            CUZK_POOL_MAX_THREADS);
    else if (cuzk_pool_create(&e->pool, e->cfg.threads) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot create the CPU pool");
    if (st == CUZK_OK)
        st = open_devices(e, err);
    if (st == CUZK_OK && e->cfg.device_queue_depth == 0)
        e->cfg.device_queue_depth = 2 * e->n_devs * e->cfg.workers_per_device;
    if (st == CUZK_OK)
        st = etimeline_create(&e->timeline, e->cfg.timeline_events, e->cfg.timeline_path,
                              e->cfg.timeline_rotate_bytes, err);
    if (st == CUZK_OK && e->cfg.state_dir)
        st = ejournal_open(&e->journal, e->cfg.state_dir, err);
    if (st == CUZK_OK && e->journal)
        st = resume(e, err);
    if (st == CUZK_OK)
        st = start_threads(e, err);
    if (st != CUZK_OK) {
        /* workers that did start exit once stopping is set; engine_free joins them (the
         * dispatcher and reaper are either not started or already joined) */
        pthread_mutex_lock(&e->mu);
        e->stopping = true;
        pthread_cond_broadcast(&e->synth_cv);
        pthread_cond_broadcast(&e->dev_cv);
        pthread_cond_broadcast(&e->fin_cv);
        pthread_mutex_unlock(&e->mu);
        engine_free(e, false);
        return st;
    }
    engine_log(e, CUZK_LOG_INFO,
               "engine up: %u device(s), %u synthesis worker(s), %u worker(s) per device, "
               "budget %.1f GiB, journal %s",
               e->n_devs, e->cfg.synthesis_workers, e->cfg.workers_per_device,
               e->budget / 1073741824.0, e->cfg.state_dir ? e->cfg.state_dir : "off");
    *out = e;
    return CUZK_OK;
}

void cuzk_engine_destroy(cuzk_engine *e)
{
    if (!e)
        return;
    engine_log(e, CUZK_LOG_INFO, "engine stopping");
    engine_free(e, true);
}

cuzk_status cuzk_engine_drain(cuzk_engine *e, uint64_t timeout_ms)
{
    if (!e)
        return CUZK_ERR_INVALID_ARG;
    double end = engine_now_ms() + (double)timeout_ms;
    pthread_mutex_lock(&e->mu);
    while (e->n_unfinished && !e->stopping) {
        if (timeout_ms && engine_now_ms() >= end)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&e->done_cv, &e->mu, &ts);
    }
    bool idle = e->n_unfinished == 0;
    pthread_mutex_unlock(&e->mu);
    return idle ? CUZK_OK : CUZK_ERR_UNAVAILABLE;
}

cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *id, bool *already_loaded,
                                uint64_t *load_ms, cuzk_error *err)
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
    /* a Filecoin key without its .params (and no dev keys) is not found, whatever its size */
    cuzk_status avail = !s && fil_owns(id) ? fil_key_available(e, id, err) : CUZK_OK;
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
    cuzk_status st = engine_srs_ensure(e, s, NULL, NULL, err);
    engine_srs_unref(e, s);
    pthread_mutex_unlock(&e->mu);
    engine_srs_bury(e);
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
    engine_srs_bury(e);
    if (was_loaded)
        *was_loaded = freed > 0;
    if (freed_bytes)
        *freed_bytes = freed;
    return CUZK_OK;
}

cuzk_status cuzk_engine_timeline_write(cuzk_engine *e, const char *path, cuzk_error *err)
{
    if (!e || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "timeline: NULL argument");
    return etimeline_write(e->timeline, path, err);
}

void cuzk_engine_inject_fault(cuzk_engine *e, int stage, unsigned count, int device)
{
    pthread_mutex_lock(&e->mu);
    e->fault_stage = stage;
    e->fault_count = count;
    e->fault_device = device;
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_set_release_later_min(cuzk_engine *e, uint64_t bytes)
{
    pthread_mutex_lock(&e->mu);
    e->release_later_min = bytes;
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_release_drain(cuzk_engine *e)
{
    ereleaser_drain(e->releaser);
}

void cuzk_engine_hold_loads(cuzk_engine *e, bool hold)
{
    pthread_mutex_lock(&e->mu);
    e->hold_loads = hold;
    pthread_cond_broadcast(&e->srs_cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_pause(cuzk_engine *e, bool paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused;
    pthread_cond_broadcast(&e->dispatch_cv);
    pthread_mutex_unlock(&e->mu);
}
