/*
 * sched.c — the engine's scheduler (the model is in sched.h): the stage queues in
 * (priority, job seq, partition) order, admission by class (synthesis slots, the latency
 * reserve), the bulk bound of the device queue, the key rule (pinned latency keys), the
 * end of a partition's road and the purge of a finished job, and the test event log.
 * Threading: every function runs with engine->mu held; part_end and purge release it
 * while a partition's memory is freed, resize while it waits for memory.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/budget.h"
#include "engine/engine_testing.h"
#include "engine/jobs.h"
#include "engine/log.h"
#include "engine/releaser.h"
#include "engine/sched.h"
#include "engine/srs.h"
#include "engine/state.h"

bool engine_sched_latency(const ejob *j) { return j->prio >= CUZK_PRIORITY_HIGH; }

static bool part_before(const epart *a, const epart *b)
{
    if (a->job->prio != b->job->prio)
        return a->job->prio > b->job->prio;
    if (a->job->seq != b->job->seq)
        return a->job->seq < b->job->seq;
    return a->idx < b->idx;
}

static void q_insert(epart **q, epart *p)
{
    while (*q && !part_before(p, *q))
        q = &(*q)->next;
    p->next = *q;
    *q = p;
}

/* The first partition of q a taker may have (latency_only: latency ones; dev >= 0: not
 * one that failed on that device while another is in service), unlinked. */
static epart *q_take(cuzk_engine *e, epart **q, bool latency_only, int dev)
{
    for (epart **pp = q; *pp; pp = &(*pp)->next) {
        epart *p = *pp;
        if (latency_only && !p->latency)
            return NULL; /* the queue is sorted: no latency partition behind a bulk one */
        if (dev >= 0 && p->exclude_device == dev && e->devs_in_service > 1)
            continue;
        *pp = p->next;
        p->next = NULL;
        return p;
    }
    return NULL;
}

/* ---- the test event log ------------------------------------------------------------------ */

void engine_sched_event(cuzk_engine *e, const epart *p, int stage, int device, double t_ms)
{
    if (!e->record_events)
        return;
    if (e->n_events == e->cap_events) {
        size_t cap = e->cap_events ? 2 * e->cap_events : 256;
        cuzk_engine_event *n = realloc(e->events, cap * sizeof *n);
        if (!n)
            return; /* a test hook: the log stops growing */
        e->events = n;
        e->cap_events = cap;
    }
    cuzk_engine_event *ev = &e->events[e->n_events++];
    memset(ev, 0, sizeof *ev);
    memcpy(ev->job, p->job->id, sizeof ev->job);
    ev->partition = p->idx;
    ev->stage = stage;
    ev->device = device;
    ev->priority = (int)p->job->prio;
    ev->t_ms = t_ms;
}

/* ---- admission ---------------------------------------------------------------------------- */

ejob *engine_sched_pick(cuzk_engine *e)
{
    if (e->paused)
        return NULL;
    ejob *best = NULL;
    for (ejob *j = e->jobs; j; j = j->next)
        if (!engine_job_over(j) && !j->spooling && j->next_part < j->plan.partitions &&
            (!best || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq)))
            best = j;
    if (!best)
        return NULL;
    /* the best job only: a bulk partition never overtakes a latency one waiting for room
     * (latency partitions have their own worker, so one more than the bulk slots) */
    unsigned slots = e->cfg.synthesis_workers;
    if (engine_sched_latency(best))
        return e->synth_lat < slots + 1 ? best : NULL;
    return e->synth_bulk < slots ? best : NULL;
}

/* The pinned keys' bytes (HOT), which a bulk request cannot count on. */
static uint64_t pinned_bytes(const cuzk_engine *e)
{
    uint64_t n = 0;
    for (const srs_entry *s = e->srs; s; s = s->next)
        if (s->pinned && s->tier == CUZK_SRS_HOT)
            n += s->charged;
    return n;
}

bool engine_sched_reserve(cuzk_engine *e, uint64_t n, bool latency)
{
    /* bulk leaves the part of the latency reserve that latency partitions do not hold */
    uint64_t keep = latency || e->lat_held >= e->lat_reserve ? 0 : e->lat_reserve - e->lat_held;
    if (keep > e->budget / 2)
        keep = e->budget / 2; /* a reserve never starves the bulk class outright */
    if (e->working_bytes == 0)
        keep = 0; /* nothing in flight would ever give memory back: a bulk partition that
                   * fits only with the reserve borrows it rather than wait for good */
    for (;;) {
        if (engine_budget_try_keep(e, n, keep))
            return true;
        /* the key rule: a pinned key goes for a latency request, when keeping keys is off,
         * or when the request could never fit beside the pinned keys */
        if (engine_srs_evict_one(e, n, false))
            continue; /* unpinned keys go first, for any class */
        uint64_t pinned = pinned_bytes(e);
        bool pinned_too = latency || !e->cfg.keep_latency_keys || n + keep + pinned > e->budget;
        if (!pinned_too || !engine_srs_evict_one(e, n, true))
            return false;
    }
}

void engine_sched_admitted(cuzk_engine *e, epart *p)
{
    ejob *j = p->job;
    p->latency = engine_sched_latency(j);
    if (p->latency) {
        e->synth_lat++;
        e->lat_held += p->bytes_held;
        if (p->bytes_held > e->lat_reserve)
            e->lat_reserve = p->bytes_held;
        if (e->cfg.keep_latency_keys && !p->srs->job_own)
            p->srs->pinned = true;
    } else {
        e->synth_bulk++;
    }
    q_insert(&e->synth_q, p);
    e->synth_q_len++;
    engine_sched_event(e, p, ENGINE_EV_ADMIT, -1, engine_now_ms());
    pthread_cond_broadcast(&e->synth_cv);
}

/* ---- synthesis ---------------------------------------------------------------------------- */

epart *engine_sched_synth_take(cuzk_engine *e, bool latency_only)
{
    epart *p = q_take(e, &e->synth_q, latency_only, -1);
    if (p)
        e->synth_q_len--;
    return p;
}

/* Moves d bytes of p's reservation in (grow) or out, keeping the class counts. */
static void held_add(cuzk_engine *e, epart *p, uint64_t d, bool grow)
{
    if (grow) {
        p->bytes_held += d;
        e->working_bytes += d;
        if (p->latency)
            e->lat_held += d;
    } else {
        p->bytes_held -= d;
        e->working_bytes -= d;
        if (p->latency)
            e->lat_held -= d;
    }
}

static void timed_wait(pthread_cond_t *cv, pthread_mutex_t *mu, unsigned ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(cv, mu, &ts);
}

bool engine_sched_resize(cuzk_engine *e, epart *p, uint64_t actual)
{
    if (actual <= p->bytes_held) {
        uint64_t d = p->bytes_held - actual;
        held_add(e, p, d, false);
        engine_budget_release(e, d);
        return true;
    }
    uint64_t d = actual - p->bytes_held;
    /* a correction of an admitted partition's estimate: it may use the latency reserve
     * (latency = true), so a partition alone never fails for the reserve */
    while (!engine_sched_reserve(e, d, true)) {
        if (e->working_bytes == p->bytes_held || e->stopping || engine_job_over(p->job))
            return false;
        timed_wait(&e->dispatch_cv, &e->mu, 500);
    }
    held_add(e, p, d, true);
    if (p->latency && p->bytes_held > e->lat_reserve)
        e->lat_reserve = p->bytes_held;
    return true;
}

bool engine_sched_room(const cuzk_engine *e, const epart *p)
{
    return p->latency || e->dev_q_bulk < e->cfg.device_queue_depth;
}

void engine_sched_synth_done(cuzk_engine *e, epart *p)
{
    if (p->latency)
        e->synth_lat--;
    else
        e->synth_bulk--;
    pthread_cond_broadcast(&e->dispatch_cv);
}

/* ---- devices ------------------------------------------------------------------------------ */

void engine_sched_dev_put(cuzk_engine *e, epart *p)
{
    q_insert(&e->dev_q, p);
    e->dev_q_len++;
    if (!p->latency)
        e->dev_q_bulk++;
    engine_sched_event(e, p, ENGINE_EV_READY, -1, engine_now_ms());
    pthread_cond_broadcast(&e->dev_cv);
}

static void dev_left(cuzk_engine *e, epart *p)
{
    e->dev_q_len--;
    if (p->wait_dev >= 0) {
        e->devs[p->wait_dev].drain--;
        p->wait_dev = -1;
    }
    if (!p->latency) {
        e->dev_q_bulk--;
        pthread_cond_broadcast(&e->room_cv);
    }
}

/* The first partition of the device queue waiting for device dev to empty (latency_only:
 * of the latency class), unlinked. */
static epart *q_take_waiting(cuzk_engine *e, int dev, bool latency_only)
{
    for (epart **pp = &e->dev_q; *pp; pp = &(*pp)->next)
        if ((*pp)->wait_dev == dev && (!latency_only || (*pp)->latency)) {
            epart *p = *pp;
            *pp = p->next;
            p->next = NULL;
            return p;
        }
    return NULL;
}

epart *engine_sched_dev_take(cuzk_engine *e, unsigned dev, bool latency_only)
{
    edevice *d = &e->devs[dev];
    epart *p = NULL;
    if (d->alone) {
        /* a partition that waited for the device has it to itself, but for a higher
         * priority (the queue is sorted: the head is the best) */
        if (!e->dev_q || (int)e->dev_q->job->prio <= d->alone_prio)
            return NULL;
        p = q_take(e, &e->dev_q, latency_only, (int)dev);
        if (p && (int)p->job->prio <= d->alone_prio) { /* skipped past the head */
            q_insert(&e->dev_q, p);
            return NULL;
        }
    } else if (d->drain) {
        if (d->busy_workers > 0)
            return NULL; /* nothing more joins the device until it is empty */
        if ((p = q_take_waiting(e, (int)dev, latency_only))) {
            d->alone = p;
            d->alone_prio = (int)p->job->prio;
        }
    }
    if (!p)
        p = q_take(e, &e->dev_q, latency_only, (int)dev);
    if (p) {
        dev_left(e, p);
        engine_sched_event(e, p, ENGINE_EV_TAKE, (int)dev, engine_now_ms());
    }
    return p;
}

bool engine_sched_dev_memory_wait(cuzk_engine *e, epart *p, unsigned dev)
{
    edevice *d = &e->devs[dev];
    if (d->busy_workers == 0 || p->mem_waits >= SCHED_MEMORY_WAITS)
        return false;
    p->mem_waits++;
    p->wait_dev = (int)dev;
    d->drain++;
    engine_sched_dev_put(e, p);
    return true;
}

void engine_sched_dev_done(cuzk_engine *e, const epart *p, unsigned dev)
{
    edevice *d = &e->devs[dev];
    if (d->alone == p)
        d->alone = NULL;
    if (d->drain || d->busy_workers == 0)
        pthread_cond_broadcast(&e->dev_cv); /* a wait for an empty device may be over */
}

epart *engine_sched_dev_pop(cuzk_engine *e)
{
    epart *p = q_take(e, &e->dev_q, false, -1);
    if (p)
        dev_left(e, p);
    return p;
}

/* ---- finalize ----------------------------------------------------------------------------- */

void engine_sched_fin_put(cuzk_engine *e, epart *p)
{
    q_insert(&e->fin_q, p);
    e->fin_q_len++;
    pthread_cond_broadcast(&e->fin_cv);
}

epart *engine_sched_fin_take(cuzk_engine *e, bool latency_only)
{
    epart *p = q_take(e, &e->fin_q, latency_only, -1);
    if (p)
        e->fin_q_len--;
    return p;
}

/* ---- a partition's end -------------------------------------------------------------------- */

/* A partition's memory (mu NOT held). */
static void part_free_data(cuzk_engine *e, epart *p)
{
    cuzk_prove_job_free(p->pj);
    p->pj = NULL;
    if (p->syn.r1cs_owned)
        for (unsigned d = 0; d < e->n_devs; d++)
            cuzk_prover_forget(e->devs[d].prover, NULL, p->syn.r1cs_owned);
    esynth_free(&p->syn);
}

void engine_parts_free(cuzk_engine *e, epart *list)
{
    while (list) {
        epart *next = list->next;
        part_free_data(e, list);
        engine_srs_early_drop(e, list->early); /* at destroy: no other thread is left */
        free(list);
        list = next;
    }
}

/* The accounting of a freed partition (mu held). */
static void part_account(cuzk_engine *e, epart *p)
{
    ejob *j = p->job;
    engine_budget_release(e, p->bytes_held);
    held_add(e, p, p->bytes_held, false);
    engine_srs_early_drop(e, p->early);
    engine_srs_unref(e, p->srs);
    j->in_flight--;
    pthread_cond_broadcast(&e->done_cv);
    free(p);
}

/* The releaser's callback: the memory first, then the budget it stood for. */
static void part_release_later(void *arg)
{
    epart *p = arg;
    cuzk_engine *e = p->e;
    part_free_data(e, p);
    pthread_mutex_lock(&e->mu);
    part_account(e, p);
    pthread_mutex_unlock(&e->mu);
}

/* Released while its data is freed, so the budget is given back only after the memory
 * is. Big ones are freed by the background releaser, so the caller goes on at once
 * (inline when the releaser is full). */
void engine_sched_part_end(cuzk_engine *e, epart *p)
{
    engine_sched_event(e, p, ENGINE_EV_DONE, p->device, engine_now_ms());
    if (p->bytes_held >= e->release_later_min &&
        ereleaser_submit(e->releaser, part_release_later, p, p->bytes_held))
        return;
    pthread_mutex_unlock(&e->mu);
    part_free_data(e, p);
    pthread_mutex_lock(&e->mu);
    part_account(e, p);
}

void engine_sched_purge(cuzk_engine *e, ejob *j)
{
    epart *mine = NULL;
    epart **qs[] = {&e->synth_q, &e->dev_q, &e->fin_q};
    for (int q = 0; q < 3; q++)
        for (epart **pp = qs[q]; *pp;) {
            if ((*pp)->job != j) {
                pp = &(*pp)->next;
                continue;
            }
            epart *p = *pp;
            *pp = p->next;
            if (q == 0) {
                e->synth_q_len--;
                engine_sched_synth_done(e, p);
            } else if (q == 1) {
                dev_left(e, p);
            } else {
                e->fin_q_len--;
            }
            p->next = mine;
            mine = p;
        }
    pthread_cond_broadcast(&e->room_cv);
    pthread_cond_broadcast(&e->dispatch_cv);
    while (mine) {
        epart *next = mine->next;
        engine_sched_part_end(e, mine);
        mine = next;
    }
}

/* Key residency, the other way: a load (a dev setup can take minutes) that no unfinished
 * job wants any more is told to stop; a preload's is left alone. */
void engine_sched_cancel_unwanted_loads(cuzk_engine *e)
{
    for (srs_entry *s = e->srs; s; s = s->next) {
        if (!s->loading || s->load_for_preload || s->load_cancel)
            continue;
        bool wanted = false;
        for (ejob *j = e->jobs; j && !wanted; j = j->next)
            wanted = !engine_job_over(j) && strcmp(j->plan.circuit_id, s->id) == 0;
        if (!wanted) {
            s->load_cancel = 1;
            engine_log(e, CUZK_LOG_INFO, "srs: %s: no job wants it any more: its load stops",
                       s->id);
        }
    }
}
