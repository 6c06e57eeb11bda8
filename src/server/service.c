/*
 * service.c — the eight cuzk.v1.ProvingEngine handlers over cuzk/engine.h (see
 * service.h). Requests Curio sends are mapped field by field; proof failures are
 * answers (AwaitProofResponse.status FAILED with the message, gRPC OK), as Curio's
 * client expects, while requests the engine refuses are gRPC errors.
 *
 * Files a client names are opened once, as the client (peer_files.h), and reach the engine
 * as descriptors with their canonical paths.
 *
 * A Prove whose client goes away does not cancel its job: a retry with the same
 * request_id then finds the job (the engine's idempotency) instead of starting over.
 *
 * Threading: handlers run concurrently on rpc workers; no state of their own.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "service.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grpc_wire.h"
#include "util/util_export.h"

int cuzk_service_grpc_code(cuzk_status st)
{
    switch (st) {
    case CUZK_OK: return GRPC_OK;
    case CUZK_ERR_INVALID_ARG:
    case CUZK_ERR_LENGTH:
    case CUZK_ERR_NONCANONICAL:
    case CUZK_ERR_BAD_FLAGS:
    case CUZK_ERR_BAD_INFINITY:
    case CUZK_ERR_NOT_ON_CURVE:
    case CUZK_ERR_NOT_IN_SUBGROUP:
    case CUZK_ERR_NOT_SQUARE:
    case CUZK_ERR_FORMAT:
    case CUZK_ERR_TRUNCATED:
    case CUZK_ERR_UNSATISFIED:
    case CUZK_ERR_NOT_INVERTIBLE:
    /* input that fails its checks (a tampered C1 output: a Merkle path or label that does
     * not hash to its root): the same request can never succeed, so not INTERNAL, which
     * clients retry */
    case CUZK_ERR_INVALID_PROOF: return GRPC_INVALID_ARGUMENT;
    /* the daemon's own storage failed (the journal on a full disk, a key file it cannot
     * read): the request is fine and may succeed later or on another daemon */
    case CUZK_ERR_IO: return GRPC_UNAVAILABLE;
    case CUZK_ERR_NOT_FOUND: return GRPC_NOT_FOUND;
    case CUZK_ERR_UNAVAILABLE: return GRPC_UNAVAILABLE;
    case CUZK_ERR_NOMEM: return GRPC_RESOURCE_EXHAUSTED;
    case CUZK_ERR_UNSUPPORTED: return GRPC_UNIMPLEMENTED;
    case CUZK_ERR_CANCELLED: return GRPC_CANCELLED;
    default: return GRPC_INTERNAL;
    }
}

static void reply_error(rpc_reply *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void reply_error(rpc_reply *r, int code, const char *fmt, ...)
{
    char buf[CUZK_ERROR_MSG_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof buf)
        buf[cuzk_utf8_cut(buf, sizeof buf - 1)] = 0;
    cuzk_utf8_scrub(buf); /* engine messages quote request fields and file names */
    r->code = code;
    free(r->message);
    r->message = strdup(buf);
}

static void reply_status(rpc_reply *r, cuzk_status st, const cuzk_error *e)
{
    reply_error(r, cuzk_service_grpc_code(st), "%s",
                e->code != CUZK_OK && e->msg[0] ? e->msg : cuzk_status_str(st));
}

static void reply_message(rpc_reply *r, const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        reply_error(r, GRPC_RESOURCE_EXHAUSTED, "out of memory for the reply");
        return;
    }
    protobuf_c_message_pack(m, buf);
    r->code = GRPC_OK;
    r->body = buf;
    r->len = n;
}

/* Declares m, the unpacked request, or answers INVALID_ARGUMENT and returns. Either way
 * the request's bytes are freed at once: the unpacked copy is all a handler needs. */
#define UNPACK(type, fn, call, req, len, r)                                                \
    type *m = fn(NULL, len, req);                                                          \
    rpc_call_drop_request(call);                                                           \
    if (!m) {                                                                              \
        reply_error(r, GRPC_INVALID_ARGUMENT, "malformed %s message", &(#type)[10]);      \
        return;                                                                            \
    }

static const char *str_or_null(const char *s)
{
    return s && s[0] ? s : NULL;
}

static cuzk_bytes pb_bytes(ProtobufCBinaryData b)
{
    return (cuzk_bytes){b.data, b.len};
}

/* Maps a SubmitProofRequest; *vps receives an array the caller frees. */
static int request_from_pb(const Cuzk__V1__SubmitProofRequest *m, cuzk_job_request *q,
                           cuzk_bytes **vps, rpc_reply *r)
{
    switch ((int)m->proof_kind) {
    case CUZK_PROOF_POREP_SEAL_COMMIT:
    case CUZK_PROOF_SNAP_DEALS_UPDATE:
    case CUZK_PROOF_WINDOW_POST_PARTITION:
    case CUZK_PROOF_WINNING_POST:
    case CUZK_PROOF_GROTH16:
    case CUZK_PROOF_SYNTHETIC: break;
    default:
        reply_error(r, GRPC_INVALID_ARGUMENT, "unknown proof kind %d", (int)m->proof_kind);
        return -1;
    }
    if ((unsigned)m->priority > CUZK_PRIORITY_CRITICAL) {
        reply_error(r, GRPC_INVALID_ARGUMENT, "unknown priority %d", (int)m->priority);
        return -1;
    }
    memset(q, 0, sizeof *q);
    q->request_id = str_or_null(m->request_id);
    q->kind = (cuzk_proof_kind)m->proof_kind;
    q->priority = (cuzk_priority)m->priority;
    q->sector_size = m->sector_size;
    q->registered_proof = m->registered_proof;
    q->vanilla_proof = pb_bytes(m->vanilla_proof);
    *vps = NULL;
    if (m->n_vanilla_proofs) {
        *vps = calloc(m->n_vanilla_proofs, sizeof **vps);
        if (!*vps) {
            reply_error(r, GRPC_RESOURCE_EXHAUSTED, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < m->n_vanilla_proofs; i++)
            (*vps)[i] = pb_bytes(m->vanilla_proofs[i]);
    }
    q->vanilla_proofs = *vps;
    q->n_vanilla_proofs = m->n_vanilla_proofs;
    q->sector_number = m->sector_number;
    q->miner_id = m->miner_id;
    q->randomness = pb_bytes(m->randomness);
    q->partition_index = m->partition_index;
    q->comm_r_old = pb_bytes(m->comm_r_old);
    q->comm_r_new = pb_bytes(m->comm_r_new);
    q->comm_d_new = pb_bytes(m->comm_d_new);
    q->groth16.zkey_path = str_or_null(m->zkey_path);
    q->groth16.params_path = str_or_null(m->params_path);
    q->groth16.r1cs_path = str_or_null(m->r1cs_path);
    q->groth16.wtns_path = str_or_null(m->wtns_path);
    q->groth16.zkey = pb_bytes(m->zkey);
    q->groth16.params = pb_bytes(m->params);
    q->groth16.r1cs = pb_bytes(m->r1cs);
    q->groth16.wtns = pb_bytes(m->wtns);
    q->synthetic.log2n = m->synthetic_log2n;
    q->synthetic.partitions = m->synthetic_partitions;
    q->synthetic.seed = m->synthetic_seed;
    return 0;
}

/* Opens a path the client names, as the client (peer_files.h); *canon (malloc'd) replaces
 * the path and *fd is the file (fd NULL: closed again). -1 with r filled. */
static int open_path(cuzk_service *svc, rpc_call *call, const char *field, const char *path,
                     char **canon, int *fd, rpc_reply *r)
{
    const rpc_peer *peer = rpc_call_peer(call);
    if (!peer_files_may_name(&svc->files, peer)) {
        reply_error(r, GRPC_PERMISSION_DENIED,
                    "%s: this client may not name files on the daemon's machine (a TCP "
                    "client, or another user than the daemon's when it is not root): send "
                    "the bytes instead, or see daemon.input_dirs", field);
        return -1;
    }
    cuzk_error e = {0};
    cuzk_status st = fd ? peer_files_open(&svc->files, peer, field, path, canon, fd, &e)
                        : peer_files_check(&svc->files, peer, field, path, canon, &e);
    if (st != CUZK_OK) {
        reply_status(r, st, &e);
        return -1;
    }
    return 0;
}

static int submit(cuzk_service *svc, rpc_call *call, const Cuzk__V1__SubmitProofRequest *m,
                  cuzk_job_ticket *t, rpc_reply *r)
{
    cuzk_job_request q;
    cuzk_bytes *vps;
    if (request_from_pb(m, &q, &vps, r) != 0)
        return -1;
    const char **paths[4] = {&q.groth16.zkey_path, &q.groth16.params_path,
                             &q.groth16.r1cs_path, &q.groth16.wtns_path};
    int *fds[4] = {&q.groth16.zkey_fd, &q.groth16.params_fd, &q.groth16.r1cs_fd,
                   &q.groth16.wtns_fd};
    static const char *const fields[4] = {"zkey_path", "params_path", "r1cs_path", "wtns_path"};
    char *canon[4] = {NULL, NULL, NULL, NULL};
    /* Each file is opened here, once, as the client, and the engine reads it through that
     * descriptor (a duplicate of it): a path swapped after this open reaches nothing. */
    q.groth16.has_fds = true;
    for (int i = 0; i < 4; i++)
        *fds[i] = -1;
    int rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++)
        if (*paths[i] &&
            (rc = open_path(svc, call, fields[i], *paths[i], &canon[i], fds[i], r)) == 0)
            *paths[i] = canon[i];
    cuzk_error e = {0};
    cuzk_status st = rc == 0 ? cuzk_engine_submit(svc->engine, &q, t, &e) : CUZK_OK;
    free(vps);
    for (int i = 0; i < 4; i++) {
        free(canon[i]);
        if (*fds[i] >= 0)
            close(*fds[i]);
    }
    if (rc != 0)
        return -1;
    if (st != CUZK_OK) {
        reply_status(r, st, &e);
        return -1;
    }
    return 0;
}

static void h_submit(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                     rpc_reply *r)
{
    UNPACK(Cuzk__V1__SubmitProofRequest, cuzk__v1__submit_proof_request__unpack, call, req,
           len, r);
    cuzk_job_ticket t;
    if (submit(ctx, call, m, &t, r) == 0) {
        Cuzk__V1__SubmitProofResponse out = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        out.job_id = t.job_id;
        out.queue_position = t.queue_position;
        out.assigned_gpu = t.assigned_gpu;
        reply_message(r, &out.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
}

/*
 * Waits for a job in slices so a cancelled call (reset, disconnect, deadline, server
 * stop) returns within a slice. timeout_ms 0 = no limit but the call's. Returns 0 with
 * *res filled (state TIMEOUT when timeout_ms passed first), -1 with r filled.
 */
static int await_job(cuzk_service *svc, rpc_call *call, const char *job_id,
                     uint64_t timeout_ms, cuzk_job_result *res, rpc_reply *r)
{
    int64_t end = timeout_ms ? grpc_now_ns() + (int64_t)(timeout_ms > INT64_MAX / 2000000
                                                             ? INT64_MAX / 2
                                                             : timeout_ms * 1000000)
                             : INT64_MAX;
    for (;;) {
        if (rpc_call_cancelled(call)) {
            reply_error(r, GRPC_CANCELLED, "call ended while waiting for the proof");
            return -1;
        }
        int64_t slice = RPC_WAIT_SLICE_MS;
        if (end != INT64_MAX) {
            int64_t left = (end - grpc_now_ns()) / 1000000;
            if (left < slice)
                slice = left < 1 ? 1 : left;
        }
        cuzk_error e = {0};
        memset(res, 0, sizeof *res);
        cuzk_status st = cuzk_engine_await(svc->engine, job_id, (uint64_t)slice, res, &e);
        if (st != CUZK_OK) {
            reply_status(r, st, &e);
            return -1;
        }
        if (res->state != CUZK_JOB_TIMEOUT)
            return 0;
        if (end != INT64_MAX && grpc_now_ns() >= end)
            return 0;
        cuzk_job_result_free(res);
    }
}

/* res's strings are scrubbed in place: the engine keeps job errors in fixed buffers that
 * may have cut a character in two, and a Go client refuses a reply whose string fields
 * are not valid UTF-8. */
static void result_to_pb(cuzk_job_result *res, Cuzk__V1__AwaitProofResponse *out)
{
    cuzk_utf8_scrub(res->error);
    cuzk_utf8_scrub(res->device);
    cuzk_utf8_scrub(res->job_id);
    cuzk__v1__await_proof_response__init(out);
    out->job_id = (char *)res->job_id;
    out->status = res->state <= CUZK_JOB_TIMEOUT ? (Cuzk__V1__AwaitProofResponse__Status)res->state
                                                 : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
    out->proof.data = res->proof;
    out->proof.len = res->proof_len;
    out->error_message = (char *)res->error;
    out->queue_wait_ms = res->t.queue_wait_ms;
    out->srs_load_ms = res->t.srs_load_ms;
    out->synthesis_ms = res->t.synthesis_ms;
    out->gpu_compute_ms = res->t.gpu_compute_ms;
    out->total_ms = res->t.total_ms;
    out->finalize_ms = res->t.finalize_ms;
    out->partitions = res->partitions;
    out->benchmark_only = res->benchmark_only;
    out->device = (char *)res->device;
}

static void h_await(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                    rpc_reply *r)
{
    UNPACK(Cuzk__V1__AwaitProofRequest, cuzk__v1__await_proof_request__unpack, call, req,
           len, r);
    cuzk_job_result res;
    if (!m->job_id[0]) {
        reply_error(r, GRPC_INVALID_ARGUMENT, "AwaitProofRequest without job_id");
    } else if (await_job(ctx, call, m->job_id, m->timeout_ms, &res, r) == 0) {
        Cuzk__V1__AwaitProofResponse out;
        result_to_pb(&res, &out);
        if (res.state == CUZK_JOB_TIMEOUT)
            out.job_id = m->job_id;
        reply_message(r, &out.base);
        cuzk_job_result_free(&res);
    }
    cuzk__v1__await_proof_request__free_unpacked(m, NULL);
}

static void h_prove(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                    rpc_reply *r)
{
    UNPACK(Cuzk__V1__ProveRequest, cuzk__v1__prove_request__unpack, call, req,
           len, r);
    cuzk_job_ticket t;
    cuzk_job_result res;
    int submitted = 0;
    if (!m->submit)
        reply_error(r, GRPC_INVALID_ARGUMENT, "ProveRequest without submit");
    else
        submitted = submit(ctx, call, m->submit, &t, r) == 0;
    /* The engine keeps its own copy of what it needs: the request (up to 256 MiB) goes
     * before the wait for the proof, which can take half an hour. */
    cuzk__v1__prove_request__free_unpacked(m, NULL);
    if (submitted && await_job(ctx, call, t.job_id, 0, &res, r) == 0) {
        Cuzk__V1__AwaitProofResponse result;
        result_to_pb(&res, &result);
        Cuzk__V1__ProveResponse out = CUZK__V1__PROVE_RESPONSE__INIT;
        out.result = &result;
        reply_message(r, &out.base);
        cuzk_job_result_free(&res);
    }
}

static void h_cancel(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                     rpc_reply *r)
{
    cuzk_service *svc = ctx;
    UNPACK(Cuzk__V1__CancelProofRequest, cuzk__v1__cancel_proof_request__unpack, call, req,
           len, r);
    bool was_running = false;
    cuzk_error e = {0};
    cuzk_status st;
    if (!m->job_id[0])
        reply_error(r, GRPC_INVALID_ARGUMENT, "CancelProofRequest without job_id");
    else if ((st = cuzk_engine_cancel(svc->engine, m->job_id, &was_running, &e)) != CUZK_OK)
        reply_status(r, st, &e);
    else {
        Cuzk__V1__CancelProofResponse out = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        out.was_running = was_running;
        reply_message(r, &out.base);
    }
    cuzk__v1__cancel_proof_request__free_unpacked(m, NULL);
}

static void h_status(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                     rpc_reply *r)
{
    cuzk_service *svc = ctx;
    UNPACK(Cuzk__V1__GetStatusRequest, cuzk__v1__get_status_request__unpack, call, req,
           len, r);
    cuzk__v1__get_status_request__free_unpacked(m, NULL);
    cuzk_engine_status st;
    cuzk_error e = {0};
    cuzk_status rc = cuzk_engine_get_status(svc->engine, &st, &e);
    if (rc != CUZK_OK) {
        reply_status(r, rc, &e);
        return;
    }
    cuzk_service_status_scrub(&st);
    Cuzk__V1__GetStatusResponse out;
    if (cuzk_service_status_fill(&st, &out) != CUZK_OK)
        reply_error(r, GRPC_RESOURCE_EXHAUSTED, "out of memory");
    else
        reply_message(r, &out.base);
    cuzk_service_status_release(&out);
    cuzk_engine_status_free(&st);
}

static void h_metrics(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                      rpc_reply *r)
{
    UNPACK(Cuzk__V1__GetMetricsRequest, cuzk__v1__get_metrics_request__unpack, call, req,
           len, r);
    cuzk__v1__get_metrics_request__free_unpacked(m, NULL);
    char *text;
    size_t n;
    cuzk_error e = {0};
    cuzk_status st = cuzk_service_metrics(ctx, &text, &n, &e);
    if (st != CUZK_OK) {
        reply_status(r, st, &e);
        return;
    }
    cuzk_utf8_scrub(text); /* labels carry circuit ids, which carry file names */
    Cuzk__V1__GetMetricsResponse out = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    out.prometheus_text = text;
    reply_message(r, &out.base);
    free(text);
}

static void h_preload(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                      rpc_reply *r)
{
    cuzk_service *svc = ctx;
    UNPACK(Cuzk__V1__PreloadSrsRequest, cuzk__v1__preload_srs_request__unpack, call, req,
           len, r);
    bool already = false;
    uint64_t ms = 0;
    cuzk_error e = {0};
    cuzk_status st;
    /* "zkey:<path>" and "params:<path>" name a key file the engine would load */
    const char *colon = strchr(m->circuit_id, ':');
    char *canon = NULL, *id = NULL;
    /* the key file is opened here, as the client, and the engine loads it through that
     * descriptor: a path swapped after this open reaches nothing the client could not */
    int fd = -1;
    if (colon && (strncmp(m->circuit_id, "zkey:", 5) == 0 ||
                  strncmp(m->circuit_id, "params:", 7) == 0)) {
        if (open_path(svc, call, "circuit_id", colon + 1, &canon, &fd, r) != 0) {
            cuzk__v1__preload_srs_request__free_unpacked(m, NULL);
            return;
        }
        size_t n = (size_t)(colon + 1 - m->circuit_id);
        if ((id = malloc(n + strlen(canon) + 1)) != NULL) {
            memcpy(id, m->circuit_id, n);
            strcpy(id + n, canon);
        }
        free(canon);
        if (!id) {
            close(fd);
            reply_error(r, GRPC_RESOURCE_EXHAUSTED, "out of memory");
            cuzk__v1__preload_srs_request__free_unpacked(m, NULL);
            return;
        }
    }
    if (!m->circuit_id[0])
        reply_error(r, GRPC_INVALID_ARGUMENT, "PreloadSrsRequest without circuit_id");
    else if ((st = cuzk_engine_preload_fd(svc->engine, id ? id : m->circuit_id, fd, &already,
                                          &ms, &e)) != CUZK_OK)
        reply_status(r, st, &e);
    else {
        Cuzk__V1__PreloadSrsResponse out = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        out.already_loaded = already;
        out.load_time_ms = ms;
        reply_message(r, &out.base);
    }
    if (fd >= 0)
        close(fd);
    free(id);
    cuzk__v1__preload_srs_request__free_unpacked(m, NULL);
}

static void h_evict(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                    rpc_reply *r)
{
    cuzk_service *svc = ctx;
    UNPACK(Cuzk__V1__EvictSrsRequest, cuzk__v1__evict_srs_request__unpack, call, req,
           len, r);
    bool was = false;
    uint64_t freed = 0;
    cuzk_error e = {0};
    cuzk_status st;
    if (!m->circuit_id[0])
        reply_error(r, GRPC_INVALID_ARGUMENT, "EvictSrsRequest without circuit_id");
    else if ((st = cuzk_engine_evict(svc->engine, m->circuit_id, &was, &freed, &e)) !=
             CUZK_OK)
        reply_status(r, st, &e);
    else {
        Cuzk__V1__EvictSrsResponse out = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        out.was_loaded = was;
        out.freed_bytes = freed;
        reply_message(r, &out.base);
    }
    cuzk__v1__evict_srs_request__free_unpacked(m, NULL);
}

const rpc_method cuzk_service_methods[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", h_submit},
    {"/cuzk.v1.ProvingEngine/AwaitProof", h_await},
    {"/cuzk.v1.ProvingEngine/Prove", h_prove},
    {"/cuzk.v1.ProvingEngine/CancelProof", h_cancel},
    {"/cuzk.v1.ProvingEngine/GetStatus", h_status},
    {"/cuzk.v1.ProvingEngine/GetMetrics", h_metrics},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", h_preload},
    {"/cuzk.v1.ProvingEngine/EvictSRS", h_evict},
};
const size_t cuzk_service_nmethods = sizeof cuzk_service_methods / sizeof cuzk_service_methods[0];
