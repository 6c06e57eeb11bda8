/*
 * testing.c — the test hooks of engine_testing.h: fault injection, pausing admission,
 * holding key loads, the background releaser's threshold and drain.
 * Threading: each takes engine->mu (the releaser's drain waits on the releaser's lock).
 */
#include "engine/engine_testing.h"
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
