/*
 * journal.h — accepted jobs on disk, so they survive a restart. In the state directory:
 *   <id>.req   the job: "CZJ1", u64 seq, then its request (request.h encoding), written to
 *              <id>.req.tmp, fsync'd, renamed, and the directory fsync'd, before submit
 *              returns: an accepted job is never lost. When the job ends FAILED or
 *              CANCELLED it is rewritten without its payload (ejournal_strip): a 200 MB
 *              request that failed does not keep its bytes until it expires;
 *   <id>.done  its outcome once finished, written the same way but not fsync'd (losing it
 *              in a crash only means the job is proved again):
 *                "CZD3", 36 bytes job id, 32 bytes request digest (SHA-256 of the request
 *                encoding the job's <id>.req held when it was accepted: the bytes after
 *                its 12-byte header), u32 state, u32 status code, u32 benchmark_only,
 *                i64 finish time, 6 x u64 timings (cuzk_job_timings order), u32
 *                partitions done, u32 message length, 64 bytes device name, u32 proof
 *                length, u32 partitions, the message, the proof,
 *                32 bytes SHA-256 of every byte before it.
 *              The id and the digest bind the outcome to its job: a record copied from
 *              another job, or one whose request was replaced, is refused at load. The
 *              SHA-256 catches damage (any changed byte); it is no signature (anyone who
 *              can write the directory can recompute it), which is why a COMPLETED
 *              result is also verified against its job's key and public inputs before it
 *              is served after a restart (resume.c). Records of earlier versions ("CZD1",
 *              "CZD2": FNV checksum, no binding) are never served: they are refused at
 *              load like damaged ones, and the job is proved again. A build without
 *              OpenSSL has no SHA-256: it writes no digests and uses no outcome record.
 * Both go when the result is collected and expired, the request first. Temporary files
 * (*.tmp) left by a write that was interrupted (kill -9), and outcomes whose request is
 * gone (a removal interrupted), are removed at load; records that cannot be used
 * are renamed <name>.bad and kept for inspection.
 * Threading: one mutex; calls may come from any thread.
 */
#ifndef CUZK_ENGINE_JOURNAL_H
#define CUZK_ENGINE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/request.h"

typedef struct ejournal ejournal;

typedef struct ejournal_done {
    char id[CUZK_JOB_ID_SIZE]; /* the job it was written for (checked at load) */
    uint8_t req_digest[32];    /* its request's digest (ejournal_add's; checked at load) */
    uint32_t partitions;       /* the job's partitions */
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
    uint8_t req_digest[32]; /* SHA-256 of the request bytes as read (journal.h) */
    ejournal_done done;
    /* the .done record was there but unusable (damaged, truncated, bad checksum, another
     * job's or another request's, an earlier version's): why; it was renamed
     * <id>.done.bad, and finished is false */
    char done_bad[160];
} ejournal_rec;

cuzk_status ejournal_open(ejournal **out, const char *dir, cuzk_error *err);
void ejournal_close(ejournal *j);

/* Writes <id>.req; digest (optional) receives the request's digest, which the job's
 * outcome record carries (zero without OpenSSL). */
cuzk_status ejournal_add(ejournal *j, const char *id, uint64_t seq, const ereq *req,
                         uint8_t digest[32], cuzk_error *err);
/* Writes <id>.done, bound to job id and d->req_digest (d->id is not read) (CUZK_ERR_IO
 * with the path and errno text when it cannot; CUZK_ERR_UNSUPPORTED without OpenSSL). */
cuzk_status ejournal_finish(ejournal *j, const char *id, const ejournal_done *d,
                            cuzk_error *err);
/* Rewrites <id>.req as ereq_stripped_view(req) (the job ended and is never proved again:
 * its payload goes). Not fsync'd: a lost rewrite leaves the full request, which is only
 * larger. */
cuzk_status ejournal_strip(ejournal *j, const char *id, uint64_t seq, const ereq *req,
                           cuzk_error *err);
/* Removes <id>.req, then <id>.done: cut short between the two (kill -9), it leaves an
 * outcome without its request, which the next load removes; never a request without its
 * outcome, which would be proved again. */
void ejournal_remove(ejournal *j, const char *id);
/* Tests only: called by ejournal_remove between its two unlinks (the journal mutex held). */
extern void (*ejournal_between_unlinks)(const char *id);
/* Renames <id>.req and <id>.done to <name>.bad: a record the engine cannot use, kept for
 * inspection. */
void ejournal_set_aside(ejournal *j, const char *id);
/* Renames <id>.done only to <id>.done.bad: an outcome the engine will not serve (its
 * proofs do not verify), kept for inspection; the job is proved again. */
void ejournal_set_aside_done(ejournal *j, const char *id);

/* Every job in the directory, sorted by seq (*recs malloc'd; ejournal_recs_free). Records
 * that cannot be read are reported through the warn callback and moved aside
 * (<id>.req.bad; a damaged <id>.done, or one not bound to its job and request:
 * <id>.done.bad, reported in the record's done_bad), never fatal. Temporary files of interrupted writes (<id>.req.tmp, <id>.done.tmp) are
 * removed first, and reported. */
cuzk_status ejournal_load(ejournal *j, ejournal_rec **recs, size_t *n,
                          void (*warn)(void *ctx, const char *msg), void *ctx,
                          cuzk_error *err);
void ejournal_recs_free(ejournal_rec *recs, size_t n); /* frees the done proofs, not reqs */

/* SHA-256 of n bytes into out; false without OpenSSL (out zeroed). */
bool ejournal_sha256(const void *data, size_t n, uint8_t out[32]);

#endif
