/*
 * fake_engine.c — the engine.h functions the service uses, faked (see fake_engine.h).
 * Job state is derived from the clock; await sleeps on one condition variable.
 * Thread-safe: every entry point takes the fake's mutex.
 */
#define _POSIX_C_SOURCE 200809L

#include "fake_engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#define FAKE_MAX_JOBS 4096
#define FAKE_MAX_KEYS 16

typedef struct fake_job {
    char id[CUZK_JOB_ID_SIZE];
    char request_id[CUZK_REQUEST_ID_MAX + 1];
    cuzk_proof_kind kind;
    int64_t submitted_ms, start_ms, done_ms;
    int fail, cancelled;
    uint32_t partitions;
    uint8_t proof_head[16];
} fake_job;

struct cuzk_engine {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fake_job *jobs;
    unsigned njobs, waiters;
    char keys[FAKE_MAX_KEYS][64];
    unsigned nkeys;
    uint64_t completed, failed, cancelled_n;
    char last_wtns_path[4096];
    char last_wtns_head[64]; /* the first bytes read through the descriptor given */
    char last_key_head[64];  /* the same for the last preload's key file */
    int64_t created_ms;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t fake_fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

cuzk_engine *fake_engine_create(void)
{
    cuzk_engine *e = calloc(1, sizeof *e);
    e->jobs = calloc(FAKE_MAX_JOBS, sizeof *e->jobs);
    pthread_mutex_init(&e->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->cv, &ca);
    pthread_condattr_destroy(&ca);
    e->created_ms = now_ms();
    return e;
}

void fake_engine_destroy(cuzk_engine *e)
{
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    free(e->jobs);
    free(e);
}

unsigned fake_engine_jobs(cuzk_engine *e)
{
    pthread_mutex_lock(&e->mu);
    unsigned n = e->njobs;
    pthread_mutex_unlock(&e->mu);
    return n;
}

unsigned fake_engine_waiters(cuzk_engine *e)
{
    pthread_mutex_lock(&e->mu);
    unsigned n = e->waiters;
    pthread_mutex_unlock(&e->mu);
    return n;
}

const char *cuzk_proof_kind_name(cuzk_proof_kind k)
{
    switch (k) {
    case CUZK_PROOF_POREP_SEAL_COMMIT: return "porep_seal_commit";
    case CUZK_PROOF_GROTH16: return "groth16";
    case CUZK_PROOF_SYNTHETIC: return "synthetic";
    default: return "unknown";
    }
}

void cuzk_job_result_free(cuzk_job_result *r)
{
    if (r) {
        free(r->proof);
        r->proof = NULL;
        r->proof_len = 0;
    }
}

static fake_job *find(cuzk_engine *e, const char *id)
{
    for (unsigned i = 0; i < e->njobs; i++)
        if (strcmp(e->jobs[i].id, id) == 0)
            return &e->jobs[i];
    return NULL;
}

static cuzk_job_state state_of(const fake_job *j, int64_t now)
{
    if (j->cancelled)
        return CUZK_JOB_CANCELLED;
    if (now >= j->done_ms)
        return j->fail ? CUZK_JOB_FAILED : CUZK_JOB_COMPLETED;
    return now >= j->start_ms ? CUZK_JOB_RUNNING : CUZK_JOB_QUEUED;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *q,
                               cuzk_job_ticket *t, cuzk_error *err)
{
    memset(t, 0, sizeof *t);
    uint32_t parts = 1;
    int64_t run_ms = 0;
    int fail = 0;
    uint8_t head[16] = {0};
    switch (q->kind) {
    case CUZK_PROOF_SYNTHETIC:
        if (q->synthetic.log2n < 2 || q->synthetic.log2n > 28 || q->synthetic.partitions < 1 ||
            q->synthetic.partitions > 64)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "synthetic size out of range");
        /* refusals the real engine makes: a full disk under the journal, input that
         * fails its checks */
        if (q->synthetic.log2n == 5)
            return cuzk_error_set(err, CUZK_ERR_IO, "journal: cannot write /state/x.req: %s",
                                  "No space left on device");
        if (q->synthetic.log2n == 6)
            return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                                  "C1 vanilla_proofs[0][0]: comm_d path does not hash to "
                                  "comm_d");
        parts = q->synthetic.partitions;
        run_ms = (int64_t)q->synthetic.seed;
        fail = q->synthetic.log2n == 3 ? 1 : q->synthetic.log2n == 4 ? 2 : 0;
        break;
    case CUZK_PROOF_GROTH16: {
        if (!q->groth16.wtns.len && !q->groth16.wtns_path)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "GROTH16 job without a witness");
        pthread_mutex_lock(&e->mu);
        snprintf(e->last_wtns_path, sizeof e->last_wtns_path, "%s",
                 q->groth16.wtns_path ? q->groth16.wtns_path : "");
        /* what the real engine would read: the file behind the descriptor, never the path */
        memset(e->last_wtns_head, 0, sizeof e->last_wtns_head);
        if (q->groth16.wtns_path && q->groth16.has_fds && q->groth16.wtns_fd >= 0 &&
            pread(q->groth16.wtns_fd, e->last_wtns_head, sizeof e->last_wtns_head - 1, 0) < 0)
            e->last_wtns_head[0] = 0;
        pthread_mutex_unlock(&e->mu);
        uint64_t h = fake_fnv1a(q->groth16.wtns.data, q->groth16.wtns.len);
        uint64_t n = q->groth16.wtns.len;
        for (int i = 0; i < 8; i++) {
            head[i] = (uint8_t)(h >> (8 * i));
            head[8 + i] = (uint8_t)(n >> (8 * i));
        }
        break;
    }
    case CUZK_PROOF_POREP_SEAL_COMMIT:
    case CUZK_PROOF_SNAP_DEALS_UPDATE:
    case CUZK_PROOF_WINDOW_POST_PARTITION:
    case CUZK_PROOF_WINNING_POST:
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoRep circuit not built yet");
    default:
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "unknown proof kind %d", q->kind);
    }
    pthread_mutex_lock(&e->mu);
    if (q->request_id && q->request_id[0])
        for (unsigned i = 0; i < e->njobs; i++)
            if (strcmp(e->jobs[i].request_id, q->request_id) == 0) {
                snprintf(t->job_id, sizeof t->job_id, "%s", e->jobs[i].id);
                t->duplicate = true;
                pthread_mutex_unlock(&e->mu);
                return CUZK_OK;
            }
    if (e->njobs == FAKE_MAX_JOBS) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fake engine full");
    }
    fake_job *j = &e->jobs[e->njobs];
    snprintf(j->id, sizeof j->id, "00000000-0000-4000-8000-%012u", e->njobs + 1);
    snprintf(j->request_id, sizeof j->request_id, "%s", q->request_id ? q->request_id : "");
    j->kind = q->kind;
    j->submitted_ms = now_ms();
    j->start_ms = j->submitted_ms + run_ms / 5;
    j->done_ms = j->submitted_ms + run_ms;
    j->fail = fail;
    j->partitions = parts;
    memcpy(j->proof_head, head, sizeof head);
    t->queue_position = 0;
    snprintf(t->job_id, sizeof t->job_id, "%s", j->id);
    e->njobs++;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

static cuzk_status fill_result(cuzk_engine *e, fake_job *j, cuzk_job_state s,
                               cuzk_job_result *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->state = s;
    out->kind = j->kind;
    out->partitions = j->partitions;
    out->t.total_ms = (uint64_t)(now_ms() - j->submitted_ms);
    out->t.synthesis_ms = 1;
    snprintf(out->device, sizeof out->device, "fake-cpu:0");
    if (s == CUZK_JOB_FAILED && j->fail == 2) {
        /* 18 + 2k bytes cut at 255: the last 'é' loses its second byte, as an engine that
         * copies a message into a fixed buffer with snprintf would leave it. */
        char long_msg[512] = "injected failure: ";
        for (int i = 0; i < 200; i++)
            strcat(long_msg, "\xc3\xa9");
        out->error_code = CUZK_ERR_INTERNAL;
        snprintf(out->error, sizeof out->error, "%s", long_msg);
    } else if (s == CUZK_JOB_FAILED) {
        out->error_code = CUZK_ERR_INTERNAL;
        snprintf(out->error, sizeof out->error, "injected failure");
    } else if (s == CUZK_JOB_CANCELLED) {
        out->error_code = CUZK_ERR_CANCELLED;
        snprintf(out->error, sizeof out->error, "cancelled");
    } else if (s == CUZK_JOB_COMPLETED) {
        out->proof_len = (size_t)j->partitions * 192;
        out->proof = malloc(out->proof_len);
        if (!out->proof)
            return CUZK_ERR_NOMEM;
        for (size_t i = 0; i < out->proof_len; i++)
            out->proof[i] = (uint8_t)(i + j->partitions);
        if (j->kind == CUZK_PROOF_GROTH16)
            memcpy(out->proof, j->proof_head, sizeof j->proof_head);
    }
    return CUZK_OK;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *id, uint64_t timeout_ms,
                              cuzk_job_result *out, cuzk_error *err)
{
    pthread_mutex_lock(&e->mu);
    fake_job *j = find(e, id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", id);
    }
    int64_t limit = timeout_ms ? now_ms() + (int64_t)timeout_ms : INT64_MAX;
    e->waiters++;
    for (;;) {
        int64_t now = now_ms();
        cuzk_job_state s = state_of(j, now);
        if (s == CUZK_JOB_COMPLETED || s == CUZK_JOB_FAILED || s == CUZK_JOB_CANCELLED ||
            now >= limit) {
            if (s == CUZK_JOB_QUEUED || s == CUZK_JOB_RUNNING)
                s = CUZK_JOB_TIMEOUT;
            cuzk_status st = fill_result(e, j, s, out);
            e->waiters--;
            pthread_mutex_unlock(&e->mu);
            return st;
        }
        int64_t wake = j->done_ms < limit ? j->done_ms : limit;
        struct timespec ts = {.tv_sec = wake / 1000, .tv_nsec = (wake % 1000) * 1000000};
        pthread_cond_timedwait(&e->cv, &e->mu, &ts);
    }
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *id, bool *was_running,
                               cuzk_error *err)
{
    pthread_mutex_lock(&e->mu);
    fake_job *j = find(e, id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        st = cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "no job %s", id);
    } else {
        cuzk_job_state s = state_of(j, now_ms());
        if (was_running)
            *was_running = s == CUZK_JOB_RUNNING;
        if (s == CUZK_JOB_QUEUED || s == CUZK_JOB_RUNNING) {
            j->cancelled = 1;
            e->cancelled_n++;
        }
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

static int key_index(cuzk_engine *e, const char *id)
{
    for (unsigned i = 0; i < e->nkeys; i++)
        if (strcmp(e->keys[i], id) == 0)
            return (int)i;
    return -1;
}

static uint64_t key_size(const char *id)
{
    if (strncmp(id, "zkey:/", 6) == 0)
        return 1u << 20;
    return (uint64_t)strtoul(id + strlen("synthetic-"), NULL, 10) << 20;
}

void fake_engine_last_wtns_head(cuzk_engine *e, char *out, size_t n)
{
    pthread_mutex_lock(&e->mu);
    snprintf(out, n, "%s", e->last_wtns_head);
    pthread_mutex_unlock(&e->mu);
}

void fake_engine_last_wtns_path(cuzk_engine *e, char *out, size_t n)
{
    pthread_mutex_lock(&e->mu);
    snprintf(out, n, "%s", e->last_wtns_path);
    pthread_mutex_unlock(&e->mu);
}

void fake_engine_last_key_head(cuzk_engine *e, char *out, size_t n)
{
    pthread_mutex_lock(&e->mu);
    snprintf(out, n, "%s", e->last_key_head);
    pthread_mutex_unlock(&e->mu);
}

cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *id, bool *already, uint64_t *ms,
                                cuzk_error *err)
{
    return cuzk_engine_preload_fd(e, id, -1, already, ms, err);
}

cuzk_status cuzk_engine_preload_fd(cuzk_engine *e, const char *id, int fd, bool *already,
                                   uint64_t *ms, cuzk_error *err)
{
    if ((strncmp(id, "synthetic-", 10) != 0 && strncmp(id, "zkey:/", 6) != 0) || !key_size(id))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit '%s'", id);
    pthread_mutex_lock(&e->mu);
    /* what the real engine would load: the file behind the descriptor, never the path */
    memset(e->last_key_head, 0, sizeof e->last_key_head);
    if (fd >= 0 && pread(fd, e->last_key_head, sizeof e->last_key_head - 1, 0) < 0)
        e->last_key_head[0] = 0;
    *already = key_index(e, id) >= 0;
    if (!*already && e->nkeys < FAKE_MAX_KEYS)
        snprintf(e->keys[e->nkeys++], sizeof e->keys[0], "%s", id);
    pthread_mutex_unlock(&e->mu);
    *ms = *already ? 0 : 3;
    return CUZK_OK;
}

cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *id, bool *was, uint64_t *freed,
                              cuzk_error *err)
{
    pthread_mutex_lock(&e->mu);
    int i = key_index(e, id);
    *was = i >= 0;
    *freed = i >= 0 ? key_size(id) : 0;
    if (i >= 0)
        memmove(e->keys[i], e->keys[i + 1], (e->nkeys - (unsigned)i - 1) * sizeof e->keys[0]);
    e->nkeys -= i >= 0;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&e->mu);
    out->devices = calloc(1, sizeof *out->devices);
    out->srs = calloc(e->nkeys ? e->nkeys : 1, sizeof *out->srs);
    out->queues = calloc(1, sizeof *out->queues);
    if (!out->devices || !out->srs || !out->queues) {
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_status_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    out->n_devices = 1;
    snprintf(out->devices[0].name, sizeof out->devices[0].name, "fake-cpu");
    out->n_srs = e->nkeys;
    for (unsigned i = 0; i < e->nkeys; i++) {
        snprintf(out->srs[i].circuit_id, sizeof out->srs[i].circuit_id, "%s", e->keys[i]);
        out->srs[i].size_bytes = key_size(e->keys[i]);
    }
    int64_t now = now_ms();
    out->n_queues = 1;
    out->queues[0].kind = CUZK_PROOF_SYNTHETIC;
    for (unsigned i = 0; i < e->njobs; i++) {
        cuzk_job_state s = state_of(&e->jobs[i], now);
        out->jobs_completed += s == CUZK_JOB_COMPLETED;
        out->jobs_failed += s == CUZK_JOB_FAILED;
        out->queues[0].pending += s == CUZK_JOB_QUEUED;
        out->queues[0].in_progress += s == CUZK_JOB_RUNNING;
    }
    out->jobs_cancelled = e->cancelled_n;
    out->uptime_s = (uint64_t)(now - e->created_ms) / 1000;
    out->memory_budget_bytes = 8ULL << 30;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

void cuzk_engine_status_free(cuzk_engine_status *s)
{
    free(s->devices);
    free(s->srs);
    free(s->queues);
    memset(s, 0, sizeof *s);
}

cuzk_status cuzk_engine_metrics_text(cuzk_engine *e, char **out, size_t *len, cuzk_error *err)
{
    char buf[128];
    int n = snprintf(buf, sizeof buf, "# TYPE cuzk_fake_jobs_total counter\n"
                                      "cuzk_fake_jobs_total %u\n", fake_engine_jobs(e));
    *out = strdup(buf);
    if (!*out)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    *len = (size_t)n;
    return CUZK_OK;
}
