/*
 * resume.c — the engine's start on its journal (engine_resume, resume.h): the jobs of the
 * last life come back, finished ones as results, the others queued again. A COMPLETED
 * result is served only once its proofs verify again, against the job's own key and
 * public inputs: its record's SHA-256 and its binding to the job (journal.h) catch
 * damage and a record copied from another job, but anyone who can write the state
 * directory can recompute them, so they are no proof that the bytes verify.
 * Threading: runs in create, before any engine thread exists (mu is taken nowhere).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuzk/formats.h"
#include "engine/jobs.h"
#include "engine/journal.h"
#include "engine/kind.h"
#include "engine/log.h"
#include "engine/request.h"
#include "engine/resume.h"
#include "engine/state.h"

static void journal_warn(void *ctx, const char *msg)
{
    engine_log(ctx, CUZK_LOG_WARN, "%s", msg);
}

/* Why a finished record's result cannot be served as it is (NULL: it can). A COMPLETED
 * result (the journal checked its record's SHA-256, job id and request digest) is served
 * only when it holds every partition's proof and every proof verifies against the job's
 * key and public inputs (the kind's verify_result; j planned here for it, its parsed
 * inputs released after); otherwise the job is proved again, never answered with a proof
 * nobody checked. why: room for the verifier's message. */
static const char *unservable(cuzk_engine *e, ejob *j, const ejournal_done *d,
                              uint32_t partitions, char *why, size_t cap)
{
    if (d->state != CUZK_JOB_COMPLETED || d->benchmark_only)
        return NULL;
    if (partitions == 0 || d->proof_len != (size_t)partitions * CUZK_GROTH16_PROOF_BYTES)
        return "its COMPLETED record holds no proof for every partition";
    if (!j->kind->verify_result)
        return "this build cannot verify a journaled result of this kind without proving "
               "it";
    cuzk_error pe = {0};
    cuzk_status st = engine_job_plan(e, j, &pe);
    if (st == CUZK_OK && j->plan.partitions != partitions)
        st = cuzk_error_set(&pe, CUZK_ERR_INVALID_PROOF,
                            "it holds %u partition(s), the job has %u", partitions,
                            j->plan.partitions);
    if (st == CUZK_OK)
        st = j->kind->verify_result(e, j->req, &j->plan, d->proof, partitions, e->pool, &pe);
    if (j->plan.parsed && j->kind->plan_free)
        j->kind->plan_free(&j->plan); /* a result needs no inputs: they can be large */
    if (st == CUZK_OK)
        return NULL;
    snprintf(why, cap, "its proof was not verified: %s", pe.msg);
    return why;
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

/* Re-creates the journal's jobs: finished ones as results (a COMPLETED one planned again
 * only to verify its proofs, its parsed inputs released after), the others queued again,
 * and finished ones whose result cannot be served (a damaged record, another job's or an
 * earlier version's, proofs that do not verify: unservable) proved again. Records of a
 * kind this build does not know are set aside (renamed .bad) with a log line. */
cuzk_status engine_resume(cuzk_engine *e, cuzk_error *err)
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
        memcpy(j->req_digest, r->req_digest, sizeof j->req_digest);
        const char *why = r->done_bad[0] ? r->done_bad : NULL;
        uint32_t parts = r->finished ? r->done.partitions : 0;
        char vwhy[CUZK_ERROR_MSG_MAX + 64];
        if (r->finished && !(why = unservable(e, j, &r->done, parts, vwhy, sizeof vwhy))) {
            restore_finished(e, j, &r->done, parts);
            kept++;
            continue;
        }
        if (r->finished) /* refused here, not by the journal: kept for inspection too */
            ejournal_set_aside_done(e->journal, r->id);
        if (why)
            engine_log(e, CUZK_LOG_WARN,
                       "journal: the outcome of job %s cannot be used (%s; kept as "
                       "%s.done.bad)%s",
                       r->id, why, r->id, r->req->stripped ? "" : "; the job is proved again");
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
        if (j->plan.parsed && j->kind->plan_free)
            j->kind->plan_free(&j->plan); /* planned to verify a result that failed */
        free(j->proof);
        j->proof = NULL;
        memset(&j->plan, 0, sizeof j->plan);
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

