/*
 * engine.c — the engine's life: configuration defaults, create (pool, devices, timeline,
 * dev_key_dir made, journal and the jobs it holds, threads) and destroy (stop: jobs and
 * key loads told to stop; join, free).
 * Threading: create and destroy run alone; the threads they start and stop take
 * engine->mu.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/budget.h"
#include "engine/devices.h"
#include "engine/jobs.h"
#include "engine/journal.h"
#include "engine/log.h"
#include "engine/pipeline.h"
#include "engine/releaser.h"
#include "engine/resume.h"
#include "engine/sched.h"
#include "engine/srs.h"
#include "engine/kind_fil.h"
#include "engine/state.h"

void cuzk_engine_config_default(cuzk_engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->log_level = CUZK_LOG_INFO;
    cfg->keep_latency_keys = true;
    cfg->keys_on_device_only = true;
}

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

/* dev_key_dir at start: made (mkdir -p, 0700: a dev key's holder can forge its proofs)
 * when missing, else refused here with a clear error, rather than a key made and then not
 * cached at the first load. */
static cuzk_status make_dev_key_dir(const char *dir, cuzk_error *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "dev_key_dir: path too long");
    for (char *p = tmp + 1;; p++) {
        bool end = *p == 0;
        if (*p != '/' && !end)
            continue;
        *p = 0;
        struct stat sb;
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return cuzk_error_set(err, CUZK_ERR_IO, "dev_key_dir %s: cannot make %s: %s", dir,
                                  tmp, strerror(errno));
        if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return cuzk_error_set(err, CUZK_ERR_IO, "dev_key_dir %s: %s is not a directory",
                                  dir, tmp);
        if (end)
            break;
        *p = '/';
    }
    if (access(dir, W_OK | X_OK) != 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "dev_key_dir %s: not writable: %s", dir,
                              strerror(errno));
    return CUZK_OK;
}

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

static cuzk_status start_threads(cuzk_engine *e, cuzk_error *err)
{
    /* each stage gets one thread more than configured that serves the latency classes
     * only (sched.h): a free place for a CRITICAL or HIGH partition at every stage */
    unsigned wpd = e->cfg.workers_per_device + 1;
    unsigned ns = e->cfg.synthesis_workers + 1, nd = e->n_devs * wpd,
             nf = e->cfg.finalizers + 1;
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
            a->latency_only = i == ns - 1;
            snprintf(name, sizeof name, "synthesis %u%s", i, a->latency_only ? " (latency)" : "");
            fn = engine_synth_main;
        } else if (i < ns + nd) {
            a->dev = (i - ns) / wpd;
            a->idx = (i - ns) % wpd;
            a->latency_only = a->idx == wpd - 1;
            snprintf(name, sizeof name, "device %u worker %u%s", a->dev, a->idx,
                     a->latency_only ? " (latency)" : "");
            fn = engine_device_main;
        } else {
            a->idx = i - ns - nd;
            a->latency_only = i == ns + nd + nf - 1;
            snprintf(name, sizeof name, "finalize %u%s", a->idx,
                     a->latency_only ? " (latency)" : "");
            fn = engine_finalizer_main;
        }
        a->track = etimeline_track(e->timeline, name);
        if (pthread_create(&e->threads[i], NULL, fn, a) != 0)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
        e->n_threads++;
    }
    if (pthread_create(&e->dispatcher, NULL, engine_dispatcher_main, e) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
    if (pthread_create(&e->reaper, NULL, engine_reaper_main, e) != 0) {
        pthread_mutex_lock(&e->mu);
        e->stopping = true;
        pthread_cond_broadcast(&e->dispatch_cv);
        pthread_mutex_unlock(&e->mu);
        pthread_join(e->dispatcher, NULL);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start engine threads");
    }
    return CUZK_OK;
}

static void engine_free(cuzk_engine *e, bool threads_started)
{
    if (threads_started) {
        pthread_mutex_lock(&e->mu);
        e->stopping = true;
        for (ejob *j = e->jobs; j; j = j->next)
            j->cancel = 1; /* a device stage stops at its next check */
        /* a key being made (a dev setup: minutes on CPUs) stops at its next check, so the
         * joins below wait seconds, not the setup; it leaves no key file */
        for (srs_entry *s = e->srs; s; s = s->next)
            if (s->loading)
                s->load_cancel = 1;
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
    /* key loads on their own threads (srs.c) were told to stop above: they end at their
     * next check; their partitions' workers are gone, so nothing waits for them but this */
    pthread_mutex_lock(&e->mu);
    while (e->loaders)
        pthread_cond_wait(&e->srs_cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
    fil_bg_stop(e); /* before the keys go: a failed digest evicts through the key table */
    ereleaser_stop(e->releaser); /* its callbacks account into the SRS entries and jobs */
    e->releaser = NULL;
    engine_parts_free(e, e->synth_q);
    engine_parts_free(e, e->dev_q);
    engine_parts_free(e, e->fin_q);
    engine_srs_free_all(e);
    engine_jobs_free_all(e);
    engine_devices_close(e);
    cuzk_pool_destroy(e->pool);
    etimeline_destroy(e->timeline);
    ejournal_close(e->journal);
    free(e->threads);
    free(e->args);
    free(e->events);
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
    /* a streamed key is uploaded whole by the device once it fits: a minute's wait is a few
     * partitions, and a retry costs a lookup */
    e->adopt_retry_ms = 60000;
    e->budget = e->cfg.memory_budget ? e->cfg.memory_budget
                                     : engine_budget_auto(e->cfg.memory_safety_margin);
    cuzk_status st = CUZK_OK;
    if (e->cfg.threads > CUZK_POOL_MAX_THREADS)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "threads: at most %u",
                            CUZK_POOL_MAX_THREADS);
    else if (cuzk_pool_create(&e->pool, e->cfg.threads) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot create the CPU pool");
    if (st == CUZK_OK)
        st = engine_devices_open(e, err);
    if (st == CUZK_OK) {
        /* the GPU provers' pinned staging is host memory the budget's own charges never
         * see (cuzk_prover_pinned_host): it comes off the budget up front */
        for (unsigned d = 0; d < e->n_devs; d++)
            e->pinned += cuzk_prover_pinned_host(e->devs[d].prover);
        if (e->pinned && e->pinned > e->budget / 2)
            st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                "the GPUs' pinned staging (%.2f GiB, CUZK_GPU_STAGE) is more "
                                "than half the memory budget (%.2f GiB): lower one or raise "
                                "the other", e->pinned / 1073741824.0, e->budget / 1073741824.0);
        else
            e->budget -= e->pinned;
    }
    /* the bulk classes' look-ahead (sched.h): one synthesized partition per device worker */
    if (st == CUZK_OK && e->cfg.device_queue_depth == 0)
        e->cfg.device_queue_depth = e->n_devs * e->cfg.workers_per_device;
    if (st == CUZK_OK)
        st = etimeline_create(&e->timeline, e->cfg.timeline_events, e->cfg.timeline_path,
                              e->cfg.timeline_rotate_bytes, err);
    if (st == CUZK_OK && e->cfg.dev_key_dir)
        st = make_dev_key_dir(e->cfg.dev_key_dir, err);
    if (st == CUZK_OK && e->cfg.state_dir)
        st = ejournal_open(&e->journal, e->cfg.state_dir, err);
    if (st == CUZK_OK && e->journal)
        st = engine_resume(e, err);
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
               "budget %.1f GiB (%.1f GiB of pinned GPU staging taken off), journal %s",
               e->n_devs, e->cfg.synthesis_workers, e->cfg.workers_per_device,
               e->budget / 1073741824.0, e->pinned / 1073741824.0,
               e->cfg.state_dir ? e->cfg.state_dir : "off");
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

