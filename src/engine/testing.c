/*
 * testing.c — the test hooks of engine_testing.h: fault injection, pausing admission,
 * holding key loads, the background releaser's threshold and drain, and the dispatcher's
 * admission rule asked for a Filecoin kind and size without running anything, the
 * scheduler's event log and counts.
 * Threading: each takes engine->mu (the releaser's drain waits on the releaser's lock).
 */
#include <stdio.h>
#include <string.h>

#include "engine/budget.h"
#include "engine/devices.h"
#include "engine/engine_testing.h"
#include "engine/kind_fil.h"
#include "engine/releaser.h"
#include "engine/srs.h"
#include "engine/state.h"

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

void cuzk_engine_set_adopt_retry_ms(cuzk_engine *e, uint64_t ms)
{
    pthread_mutex_lock(&e->mu);
    e->adopt_retry_ms = ms;
    pthread_mutex_unlock(&e->mu);
}

cuzk_prover *cuzk_engine_device_prover(cuzk_engine *e, int d)
{
    return d >= 0 && (unsigned)d < e->n_devs ? e->devs[d].prover : NULL;
}

void cuzk_engine_release_drain(cuzk_engine *e)
{
    ereleaser_drain(e->releaser);
}

size_t cuzk_engine_prover_held(cuzk_engine *e)
{
    cuzk_engine_release_drain(e); /* partitions freed in the background forget theirs */
    engine_srs_bury_all(e);
    size_t n = 0;
    for (unsigned d = 0; d < e->n_devs; d++)
        n += cuzk_prover_held(e->devs[d].prover);
    return n;
}

/* A hold flag set under mu, its waiters woken on cv. */
static void set_hold(cuzk_engine *e, bool *flag, bool hold, pthread_cond_t *cv)
{
    pthread_mutex_lock(&e->mu);
    *flag = hold;
    pthread_cond_broadcast(cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_hold_loads(cuzk_engine *e, bool hold)
{
    set_hold(e, &e->hold_loads, hold, &e->srs_cv);
}

void cuzk_engine_hold_points(cuzk_engine *e, bool hold)
{
    set_hold(e, &e->hold_points, hold, &e->srs_cv);
}

void cuzk_engine_hold_bury(cuzk_engine *e, bool hold)
{
    set_hold(e, &e->hold_bury, hold, &e->srs_cv);
}

void cuzk_engine_hold_devices(cuzk_engine *e, bool hold)
{
    set_hold(e, &e->hold_devices, hold, &e->dev_cv);
}

void cuzk_engine_set_budget(cuzk_engine *e, uint64_t bytes)
{
    pthread_mutex_lock(&e->mu);
    e->budget = bytes;
    pthread_cond_broadcast(&e->dispatch_cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_events_record(cuzk_engine *e, bool on)
{
    pthread_mutex_lock(&e->mu);
    e->record_events = on;
    if (on)
        e->n_events = 0;
    pthread_mutex_unlock(&e->mu);
}

size_t cuzk_engine_events(cuzk_engine *e, cuzk_engine_event *out, size_t cap)
{
    pthread_mutex_lock(&e->mu);
    size_t n = e->n_events;
    if (out && n && cap) /* none recorded yet: events may be NULL */
        memcpy(out, e->events, (n < cap ? n : cap) * sizeof *out);
    pthread_mutex_unlock(&e->mu);
    return n;
}

void cuzk_engine_sched_counts_get(cuzk_engine *e, cuzk_engine_sched_counts *out)
{
    pthread_mutex_lock(&e->mu);
    out->synth_bulk = e->synth_bulk;
    out->synth_latency = e->synth_lat;
    out->dev_q_bulk = e->dev_q_bulk;
    out->dev_q_len = e->dev_q_len;
    out->dev_busy = e->dev_busy;
    out->bulk_room = e->cfg.device_queue_depth;
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_pause(cuzk_engine *e, bool paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused;
    pthread_cond_broadcast(&e->dispatch_cv);
    pthread_mutex_unlock(&e->mu);
}

bool cuzk_engine_admission_check(cuzk_engine *e, cuzk_proof_kind kind, uint64_t sector_size,
                                 int devices, char *why, size_t cap)
{
    fil_circuit c;
    char id[64];
    if (!fil_circuit_of(kind, &c) || !fil_circuit_id(c, sector_size, id, sizeof id)) {
        snprintf(why, cap, "not a Filecoin kind and size");
        return false;
    }
    pthread_mutex_lock(&e->mu);
    bool gpu = devices < 0 ? !engine_has_cpu_device(e) : devices == 1;
    uint64_t part = fil_partition_bytes_on(e, c, sector_size, gpu);
    uint64_t key = fil_key_bytes(e, c, sector_size);
    bool ok = engine_budget_fits(e, id, part, key, why, cap);
    if (ok)
        snprintf(why, cap, "%s: key and circuit %.1f MiB + a partition %.1f MiB in %.1f MiB",
                 id, key / 1048576.0, part / 1048576.0, e->budget / 1048576.0);
    pthread_mutex_unlock(&e->mu);
    return ok;
}
