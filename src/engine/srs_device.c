/*
 * srs_device.c — a key whose points live on the GPU only (engine.h keys_on_device_only).
 * On a 128 GiB host with one H200, a 32 GiB PoRep key is 52.5 GiB in host memory (44 GiB
 * of points, 8.4 of circuit) and a WindowPoSt key 68 GiB: the budget (~111 GiB) holds one,
 * so a WindowPoSt arriving mid-stream evicted the PoRep key and the swap cost ~20 s in and
 * ~16 s back (docs/perf.md, session 18). Once the stream's key is resident on the device,
 * its host points serve nothing (a resident key is never read from the host again), so
 * they are freed and the budget they held goes to the WindowPoSt key, which streams from
 * host memory through the device when the device has no room for it.
 * Only with one device, a GPU: another device (or a retry on the CPU) would need the
 * points in host memory. Only NORMAL/LOW keys: a latency key must stay usable whichever
 * way the device is filled, and it is the one that streams.
 */
#include <stdlib.h>

#include "cuzk/prover.h"
#include "engine/budget.h"
#include "engine/log.h"
#include "engine/releaser.h"
#include "engine/sizes.h"
#include "engine/srs.h"
#include "engine/state.h"

typedef struct adopt_job {
    cuzk_engine *e;
    srs_entry *s;
    int d;
} adopt_job;

/* The part of the key's charge (engine_pk_bytes) its point vectors are. */
static uint64_t points_bytes(const cuzk_groth16_pk *pk)
{
    return engine_pk_bytes_of(0, pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2) -
           engine_pk_bytes_of(0, 0, 0, 0, 0, 0);
}

/* The releaser's callback: the adoption may wait for a self-check reading the points,
 * and freeing 44 GiB takes a while; neither belongs on a partition's way to its job. */
static void adopt_run(void *arg)
{
    adopt_job *a = arg;
    cuzk_engine *e = a->e;
    srs_entry *s = a->s;
    cuzk_error err = {0};
    /* the reference taken below keeps s HOT and its key in place (no eviction, no reload) */
    cuzk_status st = cuzk_prover_key_adopt(e->devs[a->d].prover, &s->key->pk, &err);
    void *v[5] = {NULL, NULL, NULL, NULL, NULL};
    uint64_t freed = 0;
    pthread_mutex_lock(&e->mu);
    if (st == CUZK_OK) {
        cuzk_groth16_pk *pk = &s->key->pk;
        freed = points_bytes(pk);
        v[0] = pk->h, v[1] = pk->l, v[2] = pk->a, v[3] = pk->b_g1, v[4] = pk->b_g2;
        pk->h = pk->l = pk->a = pk->b_g1 = NULL;
        pk->b_g2 = NULL;
    }
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < 5; i++)
        free(v[i]);
    pthread_mutex_lock(&e->mu);
    s->adopting = false;
    if (st == CUZK_OK) {
        if (freed > s->charged)
            freed = s->charged;
        s->on_device_only = true;
        s->device_only_bytes = freed;
        e->device_only_bytes += freed;
        s->charged -= freed;
        s->key->bytes = s->key->bytes > freed ? s->key->bytes - freed : 0;
        e->hot_bytes -= freed;
        engine_budget_release(e, freed);
        engine_log(e, CUZK_LOG_INFO,
                   "srs: %s's points live on %s only: %.2f GiB of host memory given back "
                   "(it stays hot with its circuit, %.2f GiB)", s->id,
                   cuzk_prover_describe(e->devs[a->d].prover), freed / 1073741824.0,
                   s->charged / 1073741824.0);
    } else {
        if (st == CUZK_ERR_NOT_FOUND && s->adopt_gen == s->load_gen + 1) {
            s->adopt_gen = 0; /* tried again after adopt_retry_ms (srs.h) */
            s->adopt_after_ms = engine_now_ms() + (double)e->adopt_retry_ms;
        }
        if (s->adopt_failed_gen != s->load_gen + 1) /* once a load: not each retry */
            engine_log(e, CUZK_LOG_INFO, "srs: %s keeps its host copy: %s", s->id, err.msg);
        s->adopt_failed_gen = s->load_gen + 1;
    }
    engine_srs_unref(e, s);
    pthread_cond_broadcast(&e->dispatch_cv); /* the budget has room again */
    pthread_mutex_unlock(&e->mu);
    free(a);
}

static bool one_gpu(const cuzk_engine *e)
{
    return e->cfg.keys_on_device_only && e->n_devs == 1 &&
           cuzk_prover_kind(e->devs[0].prover) == CUZK_BACKEND_CUDA;
}

/* Only a key idle for eviction_min_idle gives its place: one that leaves the device is
 * read from its file again when next wanted (15-50 s for a 32 GiB PoRep key), while a
 * newcomer that finds no room streams from host memory (a second or two a partition) or,
 * on a big enough device, is uploaded beside it (the H200 holds the 32 GiB PoRep and
 * SnapDeals keys together). So a SnapDeals job arriving mid-PoRep-stream leaves the
 * stream's key alone, and a box that has gone over from sealing to SnapDeals for good
 * gives the PoRep key's place up once it has sat unused that long. */
void engine_srs_device_make_way(cuzk_engine *e, srs_entry *s)
{
    if (!one_gpu(e) || s->pinned || s->job_own)
        return;
    double now = engine_now_ms();
    for (srs_entry *o = e->srs; o; o = o->next)
        if (o != s && o->on_device_only && !o->refs && !o->loading && !o->adopting &&
            now - o->last_used_ms >= (double)e->cfg.eviction_min_idle_s * 1e3) {
            engine_log(e, CUZK_LOG_INFO, "srs: %s leaves the device for %s", o->id, s->id);
            engine_srs_evict_entry(e, o);
            pthread_cond_broadcast(&e->dispatch_cv); /* the dispatcher buries it */
        }
}

void engine_srs_offer_device(cuzk_engine *e, srs_entry *s, int d, bool latency)
{
    if (!one_gpu(e) || d != 0)
        return;
    if (latency || s->pinned || s->job_own || s->detached || s->tier != CUZK_SRS_HOT ||
        s->loading || s->on_device_only || s->adopting || s->adopt_gen == s->load_gen + 1 ||
        engine_now_ms() < s->adopt_after_ms)
        return;
    adopt_job *a = malloc(sizeof *a);
    if (!a)
        return;
    *a = (adopt_job){.e = e, .s = s, .d = d};
    s->adopting = true;
    s->adopt_gen = s->load_gen + 1; /* once a load */
    s->refs++;
    if (!ereleaser_submit(e->releaser, adopt_run, a, 0)) {
        s->adopting = false;
        s->adopt_gen = 0; /* the releaser was full: the next partition tries again */
        s->refs--;
        free(a);
    }
}
