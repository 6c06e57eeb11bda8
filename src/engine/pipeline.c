/*
 * pipeline.c — the per-partition pipeline: the dispatcher (admission by priority and
 * memory), synthesis workers, device workers (cuzk_prover_start, several per device) and
 * finalizers (cuzk_prover_finalize: assembly + self-check), and what happens to a
 * partition at the end of its road (done, retried once on another device, or failing its
 * job, whose queued partitions are then purged).
 *
 * Order: every decision of which partition goes next, and what is kept free for the
 * latency classes (CRITICAL, HIGH), is the scheduler's (sched.h); the stages ask it. Each
 * stage has one extra thread that takes latency partitions only (worker_arg.latency_only).
 * Threading: see state.h; all queue and job state is under engine->mu, which
 * every stage releases around its real work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "engine/budget.h"
#include "engine/devices.h"
#include "engine/engine_testing.h"
#include "engine/jobs.h"
#include "engine/log.h"
#include "engine/pipeline.h"
#include "engine/sched.h"
#include "engine/srs.h"
#include "engine/state.h"

static bool take_fault(cuzk_engine *e, int stage, int dev)
{
    if (e->fault_count == 0 || e->fault_stage != stage ||
        (e->fault_device >= 0 && e->fault_device != dev))
        return false;
    e->fault_count--;
    return true;
}

static void part_fail(cuzk_engine *e, epart *p, cuzk_status st, const char *msg)
{
    ejob *j = p->job;
    /* at shutdown a partition stopped by the cancel flag is not the job's failure: the job
     * stays unfinished in the journal and resumes at the next start */
    if (!engine_job_over(j) && !e->stopping) {
        char m[CUZK_ERROR_MSG_MAX];
        int k = j->plan.partitions > 1 ? snprintf(m, sizeof m, "partition %u: ", p->idx) : 0;
        engine_strcpy(m + k, sizeof m - (size_t)k, msg);
        engine_job_finish(e, j, st == CUZK_ERR_CANCELLED ? CUZK_JOB_CANCELLED : CUZK_JOB_FAILED,
                          st, m);
    }
    engine_sched_part_end(e, p);
}

/* Into the device queue, or failed when no device is left in service. */
static void dev_q_put(cuzk_engine *e, epart *p)
{
    if (e->devs_in_service == 0) {
        part_fail(e, p, CUZK_ERR_UNAVAILABLE, "no device is in service (all were taken out of "
                                              "rotation; see the log)");
        return;
    }
    engine_sched_dev_put(e, p);
}

/* A device error or a proof that failed its check: once more (elsewhere when possible). */
static void part_retry_or_fail(cuzk_engine *e, epart *p, int dev, cuzk_status st,
                               const char *msg)
{
    bool retryable = st != CUZK_ERR_CANCELLED && st != CUZK_ERR_UNSATISFIED &&
                     st != CUZK_ERR_INVALID_ARG && st != CUZK_ERR_FORMAT;
    if (retryable && p->attempts == 0 && !engine_job_over(p->job) && !e->stopping) {
        p->attempts++;
        p->exclude_device = e->n_devs > 1 ? dev : -1;
        e->metrics.partitions_retried++;
        engine_log(e, CUZK_LOG_WARN, "job %s partition %u failed on device %d (%s); retrying%s",
                   p->job->id, p->idx, dev, msg, e->n_devs > 1 ? " on another device" : "");
        dev_q_put(e, p);
        return;
    }
    part_fail(e, p, st, msg);
}

/* ---- dispatcher ------------------------------------------------------------------------- */

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

void *engine_dispatcher_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stopping) {
        if (e->graveyard) {
            pthread_mutex_unlock(&e->mu);
            engine_srs_bury(e);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        ejob *j = engine_sched_pick(e);
        if (!j) {
            pthread_cond_wait(&e->dispatch_cv, &e->mu);
            continue;
        }
        srs_entry *s = engine_srs_get(e, j->plan.circuit_id, j->kind, j->req, true);
        if (!s) {
            engine_job_finish(e, j, CUZK_JOB_FAILED, CUZK_ERR_NOMEM,
                              "out of memory for the key table");
            continue;
        }
        uint64_t part = j->plan.partition_bytes;
        uint64_t key = s->tier != CUZK_SRS_HOT && !s->loading && !s->pending_charge
                           ? engine_srs_load_bytes(e, s) : 0;
        char m[CUZK_ERROR_MSG_MAX];
        if (!engine_budget_fits(e, j->plan.circuit_id, part, key, m, sizeof m)) {
            if (s->refs == 0 && s->job_own) {
                s->refs++;
                engine_srs_unref(e, s);
            }
            engine_job_finish(e, j, CUZK_JOB_FAILED, CUZK_ERR_NOMEM, m);
            continue;
        }
        bool latency = engine_sched_latency(j);
        if (!engine_sched_reserve(e, part + key, latency)) {
            /* wait for memory (or for an idle key to age past eviction_min_idle) */
            timed_wait(&e->dispatch_cv, &e->mu, 500);
            continue;
        }
        epart *p = calloc(1, sizeof *p);
        if (!p) {
            engine_budget_release(e, part + key);
            engine_job_finish(e, j, CUZK_JOB_FAILED, CUZK_ERR_NOMEM, "out of memory");
            continue;
        }
        s->pending_charge += key;
        s->refs++;
        p->e = e;
        p->job = j;
        p->idx = j->next_part++;
        p->srs = s;
        p->bytes_held = part;
        p->device = p->exclude_device = p->wait_dev = -1;
        p->t_admit = engine_now_ms();
        e->working_bytes += part;
        j->in_flight++;
        engine_sched_admitted(e, p);
        if (j->state == CUZK_JOB_QUEUED) {
            j->state = CUZK_JOB_RUNNING;
            j->t_first_admit = p->t_admit;
            ehist_observe(&e->metrics.h[EH_QUEUE_WAIT], (p->t_admit - j->t_submit) / 1e3);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- synthesis ---------------------------------------------------------------------------- */

/* On the CPU backend a partition also holds the prover's scratch and, for a compact
 * witness, its dense expansion (backend_cpu.c); on a GPU they are device memory, not the
 * budget's (an engine with both is charged as the CPU). */
static uint64_t cpu_scratch(const cuzk_engine *e, const epart *p, const srs_key *key)
{
    const cuzk_r1cs *circuit = p->syn.r1cs_owned ? p->syn.r1cs_owned : key->r1cs;
    if (!circuit || !engine_has_cpu_device(e))
        return 0;
    uint64_t scratch =
        cuzk_groth16_prove_scratch_size(&key->pk, circuit, cuzk_pool_nthreads(e->pool));
    if (p->syn.w.kind == CUZK_WITNESS_COMPACT)
        scratch += (uint64_t)circuit->n_vars * sizeof(cuzk_fr);
    return scratch;
}

void *engine_synth_main(void *arg)
{
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        epart *p = NULL;
        while (!e->stopping && !(p = engine_sched_synth_take(e, wa->latency_only)))
            pthread_cond_wait(&e->synth_cv, &e->mu);
        if (e->stopping)
            break;
        e->synth_busy++;
        ejob *j = p->job;
        cuzk_error err = {0};
        cuzk_status st = CUZK_OK;
        if (!engine_job_over(j)) {
            /* partitions of one job wait for its key side by side: the job waited as long
             * as its longest wait, not their sum */
            uint64_t wait = 0;
            cuzk_pool_scope prev =
                cuzk_pool_scope_enter((cuzk_pool_scope){.priority = (int)j->prio});
            /* a key still loading whose circuit is out: synthesize from that now */
            st = engine_srs_ensure(e, p->srs, &j->cancel, j->req, -1, &wait, &p->early, &err);
            cuzk_pool_scope_enter(prev);
            if (wait > j->srs_ms)
                j->srs_ms = wait;
        }
        if (engine_job_over(j) || st != CUZK_OK) {
            e->synth_busy--;
            engine_sched_synth_done(e, p);
            if (st != CUZK_OK)
                part_fail(e, p, st, err.msg);
            else
                engine_sched_part_end(e, p);
            continue;
        }
        srs_key view;
        const srs_key *key = p->srs->key;
        if (p->early) {
            memset(&view, 0, sizeof view);
            view.r1cs = p->early->r1cs;
            view.wmap = p->early->wmap;
            key = &view;
        }
        bool fault = take_fault(e, ENGINE_FAULT_SYNTH, -1);
        pthread_mutex_unlock(&e->mu);

        p->t_synth0 = engine_now_ms();
        /* the shared pool gives its workers to the job of the highest priority first, so a
         * WinningPoSt's synthesis has every core after one chunk of a PoRep's (pool.h) */
        cuzk_pool_scope prev = cuzk_pool_scope_enter(
            (cuzk_pool_scope){.priority = (int)j->prio, .cancel = &j->cancel});
        st = fault ? cuzk_error_set(&err, CUZK_ERR_INTERNAL, "injected synthesis fault")
                   : j->kind->synthesize(e, j->req, &j->plan, key, p->idx, e->pool, &p->syn, &err);
        cuzk_pool_scope_enter(prev);
        p->t_synth1 = engine_now_ms();
        /* the CPU prover's scratch is sized from the key's points: from an early circuit,
         * charged at the device stage once the key is loaded */
        uint64_t scratch = 0;
        p->scratch_later = st == CUZK_OK && p->early && engine_has_cpu_device(e);
        if (st == CUZK_OK && !p->early)
            scratch = cpu_scratch(e, p, key);
        etimeline_event(e->timeline, wa->track, "synthesize", p->t_synth0, p->t_synth1, j->id,
                        (int)p->idx);

        pthread_mutex_lock(&e->mu);
        j->synth_ms += (uint64_t)(p->t_synth1 - p->t_synth0);
        ehist_observe(&e->metrics.h[EH_SYNTHESIS], (p->t_synth1 - p->t_synth0) / 1e3);
        if (st == CUZK_OK && !engine_job_over(j) &&
            !engine_sched_resize(e, p, p->syn.bytes + scratch + (1u << 20)))
            st = cuzk_error_set(&err, CUZK_ERR_NOMEM,
                                "the partition takes %.1f MiB, more than the budget allows",
                                (p->syn.bytes + scratch) / 1048576.0);
        /* a bulk partition waits for room holding its synthesis slot (the look-ahead is
         * bounded); a latency one never waits */
        while (st == CUZK_OK && !engine_job_over(j) && !e->stopping && !engine_sched_room(e, p))
            pthread_cond_wait(&e->room_cv, &e->mu);
        e->synth_busy--;
        engine_sched_synth_done(e, p);
        if (st != CUZK_OK) {
            part_fail(e, p, st, err.msg);
        } else if (engine_job_over(j) || e->stopping) {
            engine_sched_part_end(e, p);
        } else {
            dev_q_put(e, p);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- devices ------------------------------------------------------------------------------ */

/* A device whose prover is out of service stops taking work for good (mu held); when it
 * was the last one, what waits for a device fails instead of waiting forever. */
static void take_out_of_rotation(cuzk_engine *e, edevice *d, const char *why)
{
    d->out_of_service = true;
    engine_strcpy(d->out_why, sizeof d->out_why, why);
    e->devs_in_service--;
    engine_log(e, CUZK_LOG_ERROR, "device %s taken out of rotation (%u of %u left): %s", d->name,
               e->devs_in_service, e->n_devs, why);
    if (e->devs_in_service == 0)
        for (epart *p; (p = engine_sched_dev_pop(e));)
            part_fail(e, p, CUZK_ERR_UNAVAILABLE,
                      "no device is in service (all were taken out of rotation; see the log)");
    pthread_cond_broadcast(&e->dev_cv);
    pthread_cond_broadcast(&e->room_cv);
}

/* A partition synthesized while its key was loading (p->early) waits here for the whole
 * key, then is charged its CPU scratch if that waited for the key (mu held, released while
 * waiting). false: p is not to be proved now: failed or ended, or (the engine stopping or
 * d out of rotation meanwhile) put back in the device queue. */
static bool key_ready(cuzk_engine *e, edevice *d, epart *p)
{
    ejob *j = p->job;
    cuzk_error err = {0};
    cuzk_status st = engine_srs_await(e, p->srs, &j->cancel, &err);
    if (st == CUZK_OK && p->scratch_later) {
        uint64_t scratch = cpu_scratch(e, p, p->srs->key);
        p->scratch_later = false;
        if (!engine_sched_resize(e, p, p->syn.bytes + scratch + (1u << 20)))
            st = cuzk_error_set(&err, CUZK_ERR_NOMEM,
                                "the partition takes %.1f MiB, more than the budget allows",
                                (p->syn.bytes + scratch) / 1048576.0);
    }
    if (e->stopping) {
        engine_sched_dev_put(e, p);
        return false;
    }
    if (engine_job_over(j)) {
        engine_sched_part_end(e, p);
        return false;
    }
    if (st != CUZK_OK) {
        part_fail(e, p, st, err.msg);
        return false;
    }
    if (d->out_of_service) {
        dev_q_put(e, p);
        return false;
    }
    return true;
}

void *engine_device_main(void *arg)
{
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    edevice *d = &e->devs[wa->dev];
    pthread_mutex_lock(&e->mu);
    for (;;) {
        epart *p = NULL;
        while (!e->stopping && !d->out_of_service &&
               (e->hold_devices || !(p = engine_sched_dev_take(e, wa->dev, wa->latency_only))))
            pthread_cond_wait(&e->dev_cv, &e->mu);
        /* a taken partition that will not start here gives the device back if it had it
         * alone (engine_sched_dev_done) */
        if (d->out_of_service && !e->stopping) {
            if (p) {
                engine_sched_dev_done(e, p, wa->dev);
                dev_q_put(e, p);
            }
            break; /* this worker is done: its device is out of rotation */
        }
        if (e->stopping) {
            if (p) {
                engine_sched_dev_done(e, p, wa->dev);
                engine_sched_dev_put(e, p);
            }
            break;
        }
        ejob *j = p->job;
        if (engine_job_over(j)) {
            engine_sched_dev_done(e, p, wa->dev);
            engine_sched_part_end(e, p);
            continue;
        }
        if (p->early && !key_ready(e, d, p)) {
            engine_sched_dev_done(e, p, wa->dev); /* p's address only: it may be gone */
            if (e->stopping || d->out_of_service)
                break; /* p went back to the queue */
            continue;
        }
        e->dev_busy++;
        d->busy_workers++;
        snprintf(d->current_job, sizeof d->current_job, "%s", j->id);
        d->current_kind = j->kind->kind;
        engine_strcpy(j->device, sizeof j->device, d->name);
        const srs_key *key = p->srs->key;
        const cuzk_r1cs *circuit = p->syn.r1cs_owned ? p->syn.r1cs_owned : key->r1cs;
        bool fault = take_fault(e, ENGINE_FAULT_DEVICE, (int)wa->dev);
        bool short_mem = d->busy_workers > 1 && take_fault(e, ENGINE_FAULT_DEVICE_MEMORY,
                                                           (int)wa->dev);
        pthread_mutex_unlock(&e->mu);

        cuzk_error err = {0};
        p->t_dev0 = engine_now_ms();
        /* the device mutex goes to the waiter of the highest priority (prio_gate.h) */
        cuzk_prove_opts po = {.cancel = &j->cancel, .priority = (int)j->prio};
        /* the CPU backend's NTTs and MSMs run on the shared pool: by priority too */
        cuzk_pool_scope prev = cuzk_pool_scope_enter((cuzk_pool_scope){.priority = (int)j->prio});
        cuzk_status st = cuzk_prover_start_opts(d->prover, &key->pk, circuit, &p->syn.w, 1, &po,
                                                &p->pj, &err);
        cuzk_pool_scope_enter(prev);
        p->t_dev1 = engine_now_ms();
        double t_gate = p->pj ? cuzk_prove_job_timings(p->pj)->device_begin_ms : p->t_dev0;
        if (fault || short_mem) {
            cuzk_prove_job_free(p->pj);
            p->pj = NULL;
            st = fault ? cuzk_error_set(&err, CUZK_ERR_CUDA, "injected device fault")
                       : cuzk_error_set(&err, CUZK_ERR_NOMEM, "injected: the device's memory "
                                        "is held by its other partitions");
        }
        etimeline_event(e->timeline, wa->track, "prove_start", p->t_dev0, p->t_dev1, j->id,
                        (int)p->idx);

        pthread_mutex_lock(&e->mu);
        e->dev_busy--;
        if (--d->busy_workers == 0)
            d->current_job[0] = 0;
        j->dev_ms += (uint64_t)(p->t_dev1 - p->t_dev0);
        ehist_observe(&e->metrics.h[EH_DEVICE], (p->t_dev1 - p->t_dev0) / 1e3);
        engine_sched_event(e, p, ENGINE_EV_DEVICE, (int)wa->dev, t_gate);
        engine_sched_dev_done(e, p, wa->dev);
        if (st == CUZK_OK) {
            p->device = (int)wa->dev;
            engine_sched_fin_put(e, p);
        } else {
            d->failed++;
            char why[CUZK_ERROR_MSG_MAX - 64];
            if (!d->out_of_service && !cuzk_prover_in_service(d->prover, why, sizeof why))
                take_out_of_rotation(e, d, why);
            if (engine_job_over(j))
                engine_sched_part_end(e, p);
            else if (d->out_of_service)
                dev_q_put(e, p); /* not the partition's fault: no attempt counted */
            else if (st == CUZK_ERR_NOMEM && engine_sched_dev_memory_wait(e, p, wa->dev))
                engine_log(e, CUZK_LOG_WARN, "job %s partition %u: device %u's memory is held "
                           "by its other partitions (%s): it starts again alone once they are "
                           "done (not counted as an attempt)", j->id, p->idx, wa->dev, err.msg);
            else
                part_retry_or_fail(e, p, (int)wa->dev, st, err.msg);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- finalizers --------------------------------------------------------------------------- */

void *engine_finalizer_main(void *arg)
{
    worker_arg *wa = arg;
    cuzk_engine *e = wa->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        epart *p = NULL;
        while (!e->stopping && !(p = engine_sched_fin_take(e, wa->latency_only)))
            pthread_cond_wait(&e->fin_cv, &e->mu);
        if (e->stopping)
            break;
        ejob *j = p->job;
        if (engine_job_over(j)) {
            engine_sched_part_end(e, p);
            continue;
        }
        e->fin_busy++;
        bool bench = p->srs->key->benchmark_only;
        bool fault = take_fault(e, ENGINE_FAULT_VERIFY, p->device);
        pthread_mutex_unlock(&e->mu);

        cuzk_error err = {0};
        cuzk_groth16_proof proof;
        cuzk_prove_timings pt = {0};
        double t0 = engine_now_ms();
        cuzk_pool_scope prev = cuzk_pool_scope_enter((cuzk_pool_scope){.priority = (int)j->prio});
        cuzk_status st = cuzk_prover_finalize(p->pj, NULL, NULL, &proof, &pt, &err);
        cuzk_pool_scope_enter(prev);
        p->pj = NULL;
        double t1 = engine_now_ms();
        if (fault && st == CUZK_OK)
            st = cuzk_error_set(&err, CUZK_ERR_INVALID_PROOF, "injected self-check failure");
        /* a random key's proofs cannot verify: that failure is the expected outcome, and
         * the proof is thrown away (benchmark_only) */
        if (bench && !fault && st == CUZK_ERR_INVALID_PROOF)
            st = CUZK_OK;
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        if (st == CUZK_OK && !bench)
            cuzk_groth16_proof_to_bellperson(bytes, &proof);
        etimeline_event(e->timeline, wa->track, "finalize", t0, t1, j->id, (int)p->idx);
        if (pt.device_end_ms > pt.device_begin_ms && p->device >= 0)
            etimeline_event(e->timeline, e->devs[p->device].track, "device", pt.device_begin_ms,
                            pt.device_end_ms, j->id, (int)p->idx);

        pthread_mutex_lock(&e->mu);
        e->fin_busy--;
        j->fin_ms += (uint64_t)(t1 - t0);
        ehist_observe(&e->metrics.h[EH_FINALIZE], (t1 - t0) / 1e3);
        edevice *d = &e->devs[p->device];
        if (pt.device_end_ms > pt.device_begin_ms)
            d->busy_ms += pt.device_end_ms - pt.device_begin_ms;
        if (st != CUZK_OK) {
            d->failed++;
            if (engine_job_over(j))
                engine_sched_part_end(e, p);
            else
                part_retry_or_fail(e, p, p->device, st, err.msg);
            continue;
        }
        d->done++;
        if (p->srs)
            engine_srs_offer_device(e, p->srs, p->device, p->latency);
        bool complete = false;
        if (!engine_job_over(j)) {
            if (bench)
                j->benchmark_only = true;
            else
                memcpy(j->proof + (size_t)p->idx * CUZK_GROTH16_PROOF_BYTES, bytes,
                       sizeof bytes);
            complete = ++j->parts_done == j->plan.partitions;
        }
        /* this partition's memory goes back before the job is reported done when it is
         * freed inline; a big one goes to the releaser, and a partition finalized on
         * another thread may still be freeing its data, so the budget may lag the report
         * by that free (j stays: an unfinished job is never reaped) */
        engine_sched_part_end(e, p);
        if (complete)
            engine_job_finish(e, j, CUZK_JOB_COMPLETED, CUZK_OK, "");
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
