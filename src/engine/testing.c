/*
 * testing.c — the test hooks of engine_testing.h: fault injection, pausing admission,
 * holding key loads, the background releaser's threshold and drain, and the dispatcher's
 * admission rule asked for a Filecoin kind and size without running anything.
 * Threading: each takes engine->mu (the releaser's drain waits on the releaser's lock).
 */
#include <stdio.h>

#include "engine/budget.h"
#include "engine/devices.h"
#include "engine/engine_testing.h"
#include "engine/kind_fil.h"
#include "engine/releaser.h"
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
