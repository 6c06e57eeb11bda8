/*
 * resume.c — the engine's start on its journal (engine_resume, resume.h): the jobs of the
 * last life come back, finished ones as results, the others queued again.
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

