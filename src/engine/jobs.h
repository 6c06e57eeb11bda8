/*
 * jobs.h — a job (struct ejob) and the job table's internal calls (jobs.c): find, queue,
 * plan, finish, result, expiry. Internal to src/engine.
 * Threading: jobs are guarded by engine->mu; every call runs with mu held unless said
 * otherwise.
 */
#ifndef CUZK_ENGINE_JOBS_H
#define CUZK_ENGINE_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/kind.h"
#include "engine/request.h"

typedef struct ejob ejob;

typedef struct ewatch {
    uint64_t id;
    cuzk_job_watch_fn fn;
    void *ctx;
    struct ewatch *next;
} ewatch;

struct ejob {
    char id[CUZK_JOB_ID_SIZE];
    uint64_t seq;              /* submission order (FIFO within a priority; journal order) */
    ereq *req;                 /* owned, immutable after submit */
    const ekind *kind;
    ekind_plan plan;
    cuzk_priority prio;
    cuzk_job_state state;      /* QUEUED, RUNNING or a finished state */
    uint32_t next_part;        /* next partition to admit */
    uint32_t in_flight;        /* admitted partitions not yet returned */
    uint32_t parts_done;
    uint8_t *proof;            /* plan.partitions x 192 bytes, filled as partitions finish */
    bool benchmark_only;
    cuzk_status err_code;
    char err[CUZK_ERROR_MSG_MAX];
    volatile int cancel;       /* read by the prover between stages */
    double t_submit, t_first_admit, t_finish, t_collected; /* cuzk_prover_clock_ms */
    int64_t wall_finish;       /* time(NULL) at finish, for the journal's TTL */
    uint64_t srs_ms, synth_ms, dev_ms, fin_ms;
    bool collected;
    bool spooling;             /* being planned and journaled by submit: not yet
                                  schedulable, and not yet joinable (a submit of its
                                  request_id waits for the outcome: jobs.c) */
    bool spool_failed;         /* its planning or journaling failed: off the table, err
                                  and err_code say why, freed by the last waiter */
    unsigned spool_waiters;    /* submits of its request_id waiting for its spooling */
    uint8_t req_digest[32];    /* SHA-256 of its journaled request (its outcome record is
                                  bound to it: journal.h); zero without a journal */
    char device[64];
    ewatch *watches;
    ejob *next;                /* the job table (a list, newest first) */
};

/* A job is over once it is COMPLETED, FAILED or CANCELLED. */
static inline bool engine_job_over(const ejob *j)
{
    return j->state != CUZK_JOB_QUEUED && j->state != CUZK_JOB_RUNNING;
}

ejob *engine_job_find(cuzk_engine *e, const char *id);
/* Ends a job (state FAILED/CANCELLED/COMPLETED) once: counters, journal, watches. */
void engine_job_finish(cuzk_engine *e, ejob *j, cuzk_job_state st, cuzk_status code,
                       const char *msg);
void engine_jobs_free_all(cuzk_engine *e); /* destroy; no other thread left */
/* Fills r from j; with_proof copies the proof bytes (malloc'd). */
void engine_job_result(cuzk_engine *e, const ejob *j, cuzk_job_result *r, bool with_proof);
/* Plans j with its kind (mu NOT held: it may read file headers); sizes its proof. */
cuzk_status engine_job_plan(cuzk_engine *e, ejob *j, cuzk_error *err);
void engine_job_free(ejob *j); /* a job off the table, with its watches and plan */
/* reaper.c: drops expired results (mu held); the reaper thread (arg: the engine). */
void engine_jobs_reap(cuzk_engine *e);
void *engine_reaper_main(void *arg);
cuzk_status engine_job_enqueue(cuzk_engine *e, ereq *req, const char *id, uint64_t seq,
                               ejob **out, cuzk_error *err); /* takes req */

#endif
