/*
 * reaper.c — result expiry: a finished job's result is kept result_ttl_s after it
 * finished, or collected_ttl_s after it was collected (awaited), then dropped from the
 * table and the journal; the reaper thread looks once a second.
 * Threading: engine_jobs_reap runs with engine->mu held; the reaper sleeps on reap_cv,
 * which stop broadcasts.
 */
#include <time.h>

#include "engine/jobs.h"
#include "engine/journal.h"
#include "engine/log.h"
#include "engine/state.h"

void engine_jobs_reap(cuzk_engine *e)
{
    double now = engine_now_ms();
    for (ejob **pp = &e->jobs; *pp;) {
        ejob *j = *pp;
        bool expired = engine_job_over(j) && j->in_flight == 0 &&
                       ((j->collected &&
                         now - j->t_collected >= (double)e->cfg.collected_ttl_s * 1e3) ||
                        now - j->t_finish >= (double)e->cfg.result_ttl_s * 1e3);
        if (!expired) {
            /* a failed or cancelled job is never proved again: once no partition reads its
             * request, its payload goes (as it went from the journal at its end) */
            if (engine_job_over(j) && j->state != CUZK_JOB_COMPLETED && j->in_flight == 0 &&
                !j->req->stripped)
                ereq_strip(j->req);
            /* nor are its input files read again (its result, if any, is kept) */
            if (engine_job_over(j) && j->in_flight == 0)
                ereq_close_files(j->req);
            pp = &j->next;
            continue;
        }
        *pp = j->next;
        if (e->journal)
            ejournal_remove(e->journal, j->id);
        engine_job_free(j);
    }
}

void *engine_reaper_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stopping) {
        engine_jobs_reap(e);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&e->reap_cv, &e->mu, &ts);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
