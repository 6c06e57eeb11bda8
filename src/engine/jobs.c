/*
 * jobs.c — the job table and the job API: submit (validate, plan, journal, queue), the
 * request_id rule (request_id_match: join a live job of the same request, return a
 * completed one, never replay a failure), await with timeout, non-blocking info, cancel,
 * watches, drain, and the end of a job (counters, journal, watches, purge). Results
 * expire in reaper.c.
 * Threading: the table is guarded by engine->mu; submit plans and journals with mu
 * released while the new job is marked spooling (listed, so a concurrent duplicate finds
 * it, but neither schedulable nor joinable: the duplicate waits until the job is planned
 * and journaled, then joins it, or, when that failed, gets the same error; a caller is
 * never handed an id that then answers NOT_FOUND).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cuzk/formats.h"
#include "engine/engine_testing.h"
#include "engine/jobs.h"
#include "engine/journal.h"
#include "engine/log.h"
#include "engine/sched.h"
#include "engine/state.h"

const char *cuzk_job_state_name(cuzk_job_state s)
{
    switch (s) {
    case CUZK_JOB_COMPLETED: return "completed";
    case CUZK_JOB_FAILED: return "failed";
    case CUZK_JOB_CANCELLED: return "cancelled";
    case CUZK_JOB_TIMEOUT: return "timeout";
    case CUZK_JOB_QUEUED: return "queued";
    case CUZK_JOB_RUNNING: return "running";
    default: return "unknown";
    }
}

static void uuid4(char out[CUZK_JOB_ID_SIZE])
{
    uint8_t b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r > 0)
            got += (size_t)r;
        else if (errno != EINTR) {
            /* no entropy source: still unique within this process and time */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            static unsigned long ctr;
            uint64_t v = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (++ctr << 52);
            memcpy(b, &v, 8);
            memcpy(b + 8, &ctr, sizeof ctr < 8 ? sizeof ctr : 8);
            break;
        }
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    snprintf(out, CUZK_JOB_ID_SIZE,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
}

ejob *engine_job_find(cuzk_engine *e, const char *id)
{
    if (!id)
        return NULL;
    for (ejob *j = e->jobs; j; j = j->next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

void engine_job_free(ejob *j)
{
    while (j->watches) {
        ewatch *w = j->watches;
        j->watches = w->next;
        free(w);
    }
    if (j->kind && j->kind->plan_free)
        j->kind->plan_free(&j->plan);
    ereq_free(j->req);
    free(j->proof);
    free(j);
}

static void job_unlink(cuzk_engine *e, ejob *j)
{
    for (ejob **pp = &e->jobs; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            return;
        }
}

cuzk_status engine_job_enqueue(cuzk_engine *e, ereq *req, const char *id, uint64_t seq,
                               ejob **out, cuzk_error *err)
{
    ejob *j = calloc(1, sizeof *j);
    if (!j) {
        ereq_free(req);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    j->req = req;
    j->kind = engine_kind_find(req->kind);
    snprintf(j->id, sizeof j->id, "%s", id);
    j->seq = seq;
    j->prio = req->priority ? req->priority : j->kind->default_priority;
    j->state = CUZK_JOB_QUEUED;
    j->t_submit = engine_now_ms();
    j->next = e->jobs;
    e->jobs = j;
    e->n_unfinished++;
    *out = j;
    return CUZK_OK;
}

cuzk_status engine_job_plan(cuzk_engine *e, ejob *j, cuzk_error *err)
{
    cuzk_status st = j->kind->plan(e, j->req, &j->plan, err);
    if (st != CUZK_OK)
        return st;
    if (j->plan.job_own_key)
        snprintf(j->plan.circuit_id, sizeof j->plan.circuit_id, "job:%s", j->id);
    if (!(j->proof = calloc(j->plan.partitions, CUZK_GROTH16_PROOF_BYTES)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    return CUZK_OK;
}

static uint32_t queue_position(cuzk_engine *e, const ejob *j)
{
    uint32_t n = 0;
    for (ejob *o = e->jobs; o; o = o->next)
        if (o != j && o->state == CUZK_JOB_QUEUED &&
            (o->prio > j->prio || (o->prio == j->prio && o->seq < j->seq)))
            n++;
    return n;
}

/* The request_id rule (mu held). Curio reuses ids (porep-<miner>-<sector>, WindowPoSt ids
 * from miner, partition and randomness) and retries with them, so an id says which request
 * a client means, not that its result may be replayed:
 *   - a job of the id still spooling (being planned by another submit) is returned in
 *     *join whatever its request: the caller waits for it to be planned or refused, then
 *     asks again (its id is not handed out before);
 *   - a job of the id that is queued or running is joined (*join) when the request is the
 *     same (ereq_same), else the submit is refused: the id is in use by another request;
 *   - a COMPLETED job is returned (*join) only for the same request;
 *   - FAILED and CANCELLED jobs are never replayed: the retry is a new job (*join NULL;
 *     earlier[] names the newest finished job passed over, *what says why).
 * Several finished jobs may carry one id; at most one unfinished job does. */
static cuzk_status request_id_match(cuzk_engine *e, const ereq *q, ejob **join,
                                    char earlier[CUZK_JOB_ID_SIZE], const char **what,
                                    cuzk_error *err)
{
    ejob *done = NULL;
    *join = NULL;
    for (ejob *o = e->jobs; o; o = o->next) {
        if (strcmp(o->req->request_id, q->request_id) != 0)
            continue;
        if (o->spooling) {
            *join = o;
            return CUZK_OK;
        }
        bool same = ereq_same(o->req, q);
        if (!engine_job_over(o)) {
            if (!same)
                return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                      "request_id %s is in use by a different request (job %s, "
                                      "%s): wait for it or cancel it, or use another id",
                                      q->request_id, o->id, cuzk_job_state_name(o->state));
            *join = o;
            return CUZK_OK;
        }
        if (o->state == CUZK_JOB_COMPLETED && same) {
            if (!done)
                done = o; /* the list is newest first */
        } else if (!earlier[0]) {
            snprintf(earlier, CUZK_JOB_ID_SIZE, "%s", o->id);
            *what = o->state == CUZK_JOB_FAILED      ? "failed"
                    : o->state == CUZK_JOB_CANCELLED ? "was cancelled"
                                                     : "completed for other inputs";
        }
    }
    *join = done;
    if (done)
        earlier[0] = 0;
    return CUZK_OK;
}

void (*cuzk_engine_spooled_hook)(const char *request_id);

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *r, cuzk_job_ticket *t,
                               cuzk_error *err)
{
    if (!e || !r || !t)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "submit: NULL argument");
    memset(t, 0, sizeof *t);
    const ekind *k = engine_kind_find(r->kind);
    if (!k)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "unknown proof kind %d", (int)r->kind);
    if ((int)r->priority < 0 || r->priority > CUZK_PRIORITY_CRITICAL)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "unknown priority %d",
                              (int)r->priority);
    ereq *q;
    cuzk_status st = ereq_from_request(&q, r, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        ereq_free(q);
        return cuzk_error_set(err, CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
    }
    /* a finished job of this request_id that is not replayed (named in the log) */
    char earlier[CUZK_JOB_ID_SIZE] = "";
    const char *earlier_what = "";
    while (q->request_id[0]) {
        ejob *o = NULL;
        earlier[0] = 0;
        st = request_id_match(e, q, &o, earlier, &earlier_what, err);
        if (st == CUZK_OK && o && o->spooling) {
            /* not joinable yet: it may still be refused at planning, and then its id
             * never existed. Wait for the outcome, then ask again (the table changed). */
            o->spool_waiters++;
            while (o->spooling)
                pthread_cond_wait(&e->done_cv, &e->mu);
            o->spool_waiters--;
            if (!o->spool_failed)
                continue;
            /* refused: the same request is refused the same way (its planning would say
             * the same); another request of the id tries for itself */
            bool same = ereq_same(o->req, q);
            if (same)
                st = cuzk_error_set(err, o->err_code, "%s", o->err);
            if (o->spool_waiters == 0)
                engine_job_free(o); /* off the table: the last one to look frees it */
            if (!same)
                continue;
            pthread_mutex_unlock(&e->mu);
            ereq_free(q);
            return st;
        }
        if (st != CUZK_OK || o) {
            if (o) {
                snprintf(t->job_id, sizeof t->job_id, "%s", o->id);
                t->duplicate = true;
                t->queue_position = o->state == CUZK_JOB_QUEUED ? queue_position(e, o) : 0;
                snprintf(t->assigned_gpu, sizeof t->assigned_gpu, "%s", o->device);
            }
            pthread_mutex_unlock(&e->mu);
            ereq_free(q);
            return st;
        }
        break;
    }
    if (e->stopping) { /* it began while this submit waited for a spooling job */
        pthread_mutex_unlock(&e->mu);
        ereq_free(q);
        return cuzk_error_set(err, CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
    }
    char id[CUZK_JOB_ID_SIZE];
    uuid4(id);
    ejob *j;
    if ((st = engine_job_enqueue(e, q, id, e->next_seq++, &j, err)) != CUZK_OK) {
        pthread_mutex_unlock(&e->mu);
        return st;
    }
    j->spooling = true;
    pthread_mutex_unlock(&e->mu);

    /* its own error record: submits of the same request_id waiting for this one are
     * given the same message (err may be NULL) */
    cuzk_error se = {0};
    st = engine_job_plan(e, j, &se);
    if (st == CUZK_OK && e->journal)
        st = ejournal_add(e->journal, j->id, j->seq, j->req, j->req_digest, &se);
    if (st != CUZK_OK && err)
        *err = se;
    if (cuzk_engine_spooled_hook)
        cuzk_engine_spooled_hook(j->req->request_id);

    pthread_mutex_lock(&e->mu);
    j->spooling = false;
    if (st != CUZK_OK) {
        job_unlink(e, j);
        e->n_unfinished--;
        j->spool_failed = true;
        j->err_code = st;
        snprintf(j->err, sizeof j->err, "%s", se.msg);
        bool waited_on = j->spool_waiters > 0; /* then the last waiter frees it */
        pthread_cond_broadcast(&e->done_cv);
        pthread_mutex_unlock(&e->mu);
        if (!waited_on)
            engine_job_free(j);
        return st;
    }
    snprintf(t->job_id, sizeof t->job_id, "%s", j->id);
    t->queue_position = queue_position(e, j);
    if (earlier[0])
        engine_log(e, CUZK_LOG_INFO, "request_id %s: job %s %s; proving it as job %s",
                   j->req->request_id, earlier, earlier_what, j->id);
    engine_log(e, CUZK_LOG_DEBUG, "job %s: %s, %u partition(s), priority %d, key %s", j->id,
               j->kind->name, j->plan.partitions, (int)j->prio, j->plan.circuit_id);
    pthread_cond_broadcast(&e->dispatch_cv);
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

/* The journal's part of a job's end (mu held; small writes): its outcome record, and for
 * a failed or cancelled job its request rewritten without the payload (a retry is a new
 * job, so the bytes have no use). A write that fails is logged with what it means. */
static void journal_outcome(cuzk_engine *e, ejob *j, cuzk_job_state st, cuzk_status code)
{
    cuzk_job_result r;
    ejournal_done d = {.state = st, .code = code, .benchmark_only = j->benchmark_only,
                       .wall_finish = j->wall_finish, .partitions_done = j->parts_done,
                       .partitions = j->plan.partitions};
    memcpy(d.req_digest, j->req_digest, sizeof d.req_digest);
    engine_job_result(e, j, &r, false);
    d.t = r.t;
    snprintf(d.error, sizeof d.error, "%s", j->err);
    snprintf(d.device, sizeof d.device, "%s", j->device);
    if (st == CUZK_JOB_COMPLETED && !j->benchmark_only) {
        d.proof = j->proof;
        d.proof_len = (size_t)j->plan.partitions * CUZK_GROTH16_PROOF_BYTES;
    }
    cuzk_error err = {0};
    if (ejournal_finish(e->journal, j->id, &d, &err) != CUZK_OK)
        engine_log(e, CUZK_LOG_WARN, "%s; the job's outcome (%s) is served until this daemon "
                   "stops, not after a restart%s", err.msg, cuzk_job_state_name(st),
                   st == CUZK_JOB_COMPLETED ? " (then the job is proved again)" : "");
    if (st != CUZK_JOB_COMPLETED && ereq_payload_bytes(j->req) &&
        ejournal_strip(e->journal, j->id, j->seq, j->req, &err) != CUZK_OK)
        engine_log(e, CUZK_LOG_WARN, "%s; its request keeps its payload until it expires",
                   err.msg);
}

void engine_job_finish(cuzk_engine *e, ejob *j, cuzk_job_state st, cuzk_status code,
                       const char *msg)
{
    if (engine_job_over(j))
        return;
    j->state = st;
    j->err_code = code;
    snprintf(j->err, sizeof j->err, "%s", msg ? msg : "");
    j->t_finish = engine_now_ms();
    j->wall_finish = (int64_t)time(NULL);
    e->n_unfinished--;
    unsigned slot = engine_kind_slot(j->kind->kind);
    if (st == CUZK_JOB_COMPLETED) {
        e->completed++;
        e->metrics.completed_by_kind[slot]++;
        ehist_observe(&e->metrics.h[EH_JOB_TOTAL], (j->t_finish - j->t_submit) / 1e3);
    } else if (st == CUZK_JOB_CANCELLED) {
        e->cancelled++;
    } else {
        e->failed++;
        e->metrics.failed_by_kind[slot]++;
    }
    engine_log(e, st == CUZK_JOB_FAILED ? CUZK_LOG_WARN : CUZK_LOG_INFO,
               "job %s %s (%s, %u partition(s), %.0f ms)%s%s", j->id, cuzk_job_state_name(st),
               j->kind->name, j->plan.partitions, j->t_finish - j->t_submit,
               j->err[0] ? ": " : "", j->err);
    if (e->journal)
        journal_outcome(e, j, st, code);
    for (ewatch *w = j->watches; w; w = w->next)
        w->fn(w->ctx, j->id, st);
    while (j->watches) {
        ewatch *w = j->watches;
        j->watches = w->next;
        free(w);
    }
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->dispatch_cv);
    pthread_cond_broadcast(&e->srs_cv); /* its partitions waiting for a key load stop */
    if (st != CUZK_JOB_COMPLETED) {
        j->cancel = 1;
        engine_sched_purge(e, j);
        engine_sched_cancel_unwanted_loads(e); /* its key's setup, when no one else wants it */
    }
}

void engine_job_result(cuzk_engine *e, const ejob *j, cuzk_job_result *r,
                                 bool with_proof)
{
    (void)e;
    memset(r, 0, sizeof *r);
    snprintf(r->job_id, sizeof r->job_id, "%s", j->id);
    r->state = j->state;
    r->kind = j->kind->kind;
    r->priority = j->prio;
    r->partitions = j->plan.partitions;
    r->partitions_done = j->parts_done;
    r->benchmark_only = j->benchmark_only;
    r->error_code = j->err_code;
    snprintf(r->error, sizeof r->error, "%s", j->err);
    snprintf(r->device, sizeof r->device, "%s", j->device);
    double now = engine_now_ms();
    double end = engine_job_over(j) ? j->t_finish : now;
    double admit = j->t_first_admit > 0 ? j->t_first_admit : end;
    r->t.queue_wait_ms = (uint64_t)(admit - j->t_submit);
    r->t.srs_load_ms = j->srs_ms;
    r->t.synthesis_ms = j->synth_ms;
    r->t.gpu_compute_ms = j->dev_ms;
    r->t.finalize_ms = j->fin_ms;
    r->t.total_ms = (uint64_t)(end - j->t_submit);
    if (with_proof && j->state == CUZK_JOB_COMPLETED && !j->benchmark_only && j->proof) {
        size_t n = (size_t)j->plan.partitions * CUZK_GROTH16_PROOF_BYTES;
        if ((r->proof = malloc(n))) {
            memcpy(r->proof, j->proof, n);
            r->proof_len = n;
        }
    }
}

void cuzk_job_result_free(cuzk_job_result *r)
{
    if (!r)
        return;
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

cuzk_status cuzk_engine_job_info(cuzk_engine *e, const char *job_id, cuzk_job_result *out,
                                 cuzk_error *err)
{
    if (!e || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "job info: NULL argument");
    pthread_mutex_lock(&e->mu);
    ejob *j = engine_job_find(e, job_id);
    if (!j || j->spooling) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", job_id ? job_id : "(null)");
    }
    engine_job_result(e, j, out, true);
    pthread_mutex_unlock(&e->mu);
    if (out->state == CUZK_JOB_COMPLETED && !out->benchmark_only && !out->proof)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory copying the proof");
    return CUZK_OK;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_job_result *out, cuzk_error *err)
{
    if (!e || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "await: NULL argument");
    memset(out, 0, sizeof *out);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)(timeout_ms / 1000);
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&e->mu);
    ejob *j = engine_job_find(e, job_id);
    bool timed_out = false;
    while (j && !engine_job_over(j) && !e->stopping && !timed_out) {
        int rc = timeout_ms ? pthread_cond_timedwait(&e->done_cv, &e->mu, &dl)
                            : pthread_cond_wait(&e->done_cv, &e->mu);
        timed_out = rc == ETIMEDOUT;
        j = engine_job_find(e, job_id);
    }
    if (!j || j->spooling) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", job_id ? job_id : "(null)");
    }
    if (!engine_job_over(j) && e->stopping) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
    }
    engine_job_result(e, j, out, true);
    if (engine_job_over(j)) {
        if (!j->collected) {
            j->collected = true;
            j->t_collected = engine_now_ms();
        }
    } else {
        out->state = CUZK_JOB_TIMEOUT;
    }
    pthread_mutex_unlock(&e->mu);
    if (out->state == CUZK_JOB_COMPLETED && !out->benchmark_only && !out->proof)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory copying the proof");
    return CUZK_OK;
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

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running,
                               cuzk_error *err)
{
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cancel: NULL engine");
    if (was_running)
        *was_running = false;
    pthread_mutex_lock(&e->mu);
    ejob *j = engine_job_find(e, job_id);
    if (!j || j->spooling) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", job_id ? job_id : "(null)");
    }
    if (!engine_job_over(j)) {
        if (was_running)
            *was_running = j->state == CUZK_JOB_RUNNING;
        engine_job_finish(e, j, CUZK_JOB_CANCELLED, CUZK_ERR_CANCELLED, "cancelled");
    }
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_watch(cuzk_engine *e, const char *job_id, cuzk_job_watch_fn fn,
                              void *ctx, uint64_t *watch_id, cuzk_error *err)
{
    if (!e || !fn)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "watch: NULL argument");
    if (watch_id)
        *watch_id = 0;
    pthread_mutex_lock(&e->mu);
    ejob *j = engine_job_find(e, job_id);
    if (!j || j->spooling) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", job_id ? job_id : "(null)");
    }
    if (engine_job_over(j)) {
        cuzk_job_state st = j->state;
        char id[CUZK_JOB_ID_SIZE];
        snprintf(id, sizeof id, "%s", j->id);
        pthread_mutex_unlock(&e->mu);
        fn(ctx, id, st);
        return CUZK_OK;
    }
    ewatch *w = calloc(1, sizeof *w);
    if (!w) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    w->id = ++e->next_watch;
    w->fn = fn;
    w->ctx = ctx;
    w->next = j->watches;
    j->watches = w;
    if (watch_id)
        *watch_id = w->id;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

void cuzk_engine_unwatch(cuzk_engine *e, uint64_t watch_id)
{
    if (!e || !watch_id)
        return;
    pthread_mutex_lock(&e->mu);
    for (ejob *j = e->jobs; j; j = j->next)
        for (ewatch **pp = &j->watches; *pp; pp = &(*pp)->next)
            if ((*pp)->id == watch_id) {
                ewatch *w = *pp;
                *pp = w->next;
                free(w);
                pthread_mutex_unlock(&e->mu);
                return;
            }
    pthread_mutex_unlock(&e->mu);
}

void engine_jobs_free_all(cuzk_engine *e)
{
    while (e->jobs) {
        ejob *j = e->jobs;
        e->jobs = j->next;
        engine_job_free(j);
    }
}
