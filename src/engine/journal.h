/*
 * journal.h — accepted jobs on disk, so they survive a restart. In the state directory:
 *   <id>.req   the job: "CZJ1", u64 seq, then its request (request.h encoding), written to
 *              <id>.req.tmp, fsync'd, renamed, and the directory fsync'd, before submit
 *              returns: an accepted job is never lost;
 *   <id>.done  its outcome once finished (state, error, proof, timings, finish time),
 *              written the same way but not fsync'd: losing it in a crash only means the
 *              job is proved again.
 * Both go when the result is collected and expired.
 * Threading: one mutex; calls may come from any thread.
 */
#ifndef CUZK_ENGINE_JOURNAL_H
#define CUZK_ENGINE_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/request.h"

typedef struct ejournal ejournal;

typedef struct ejournal_done {
    cuzk_job_state state;
    cuzk_status code;
    bool benchmark_only;
    int64_t wall_finish;
    cuzk_job_timings t;
    uint32_t partitions_done;
    char error[CUZK_ERROR_MSG_MAX];
    char device[64];
    uint8_t *proof; /* malloc'd */
    size_t proof_len;
} ejournal_done;

typedef struct ejournal_rec {
    char id[CUZK_JOB_ID_SIZE];
    uint64_t seq;
    ereq *req;
    bool finished;
    ejournal_done done;
} ejournal_rec;

cuzk_status ejournal_open(ejournal **out, const char *dir, cuzk_error *err);
void ejournal_close(ejournal *j);

cuzk_status ejournal_add(ejournal *j, const char *id, uint64_t seq, const ereq *req,
                         cuzk_error *err);
void ejournal_finish(ejournal *j, const char *id, const ejournal_done *d);
void ejournal_remove(ejournal *j, const char *id);

/* Every job in the directory, sorted by seq (*recs malloc'd; ejournal_recs_free). Records
 * that cannot be read are reported through the warn callback and moved aside
 * (<id>.req.bad), never fatal. */
cuzk_status ejournal_load(ejournal *j, ejournal_rec **recs, size_t *n,
                          void (*warn)(void *ctx, const char *msg), void *ctx,
                          cuzk_error *err);
void ejournal_recs_free(ejournal_rec *recs, size_t n); /* frees the done proofs, not reqs */

#endif
