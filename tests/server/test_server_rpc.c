/*
 * test_server_rpc.c — every cuzk.v1 method through the C client against cuzk_server on a
 * fake engine: answers, field mapping, and the gRPC codes for refused requests (malformed
 * protobuf, unknown kind, unknown job, kinds not built, unknown method, wrong
 * content-type), over the unix socket and TCP, plus the HTTP /metrics and /status port.
 */
#define _GNU_SOURCE

#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "test_rng.h"
#include "util/utf8.h"

static harness H;

static int setup(void **state)
{
    harness_start(&H, NULL);
    return 0;
}

static int teardown(void **state)
{
    harness_stop(&H);
    return 0;
}

#define AWAIT_DESC &cuzk__v1__await_proof_response__descriptor

static void test_submit_await(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 3, 50);
    char id[64];
    submit_job(c, &r, id);
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = id;
    Cuzk__V1__AwaitProofResponse *res;
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, AWAIT_DESC, 0, (void **)&res, NULL), 0);
    assert_string_equal(res->job_id, id);
    assert_int_equal(res->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    assert_int_equal(res->proof.len, 3 * 192);
    for (size_t i = 0; i < res->proof.len; i++)
        assert_int_equal(res->proof.data[i], (uint8_t)(i + 3));
    assert_int_equal(res->partitions, 3);
    assert_string_equal(res->device, "fake-cpu:0");
    assert_true(res->total_ms >= 50);
    protobuf_c_message_free_unpacked(&res->base, NULL);
    cuzk_client_close(c);
}

static void test_idempotent_submit(void **state)
{
    cuzk_client *c = harness_client(&H);
    char rid[40], id1[64], id2[64];
    snprintf(rid, sizeof rid, "req-%016llx", (unsigned long long)test_rng_u64());
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 10);
    r.request_id = rid;
    unsigned before = fake_engine_jobs(H.engine);
    submit_job(c, &r, id1);
    submit_job(c, &r, id2);
    assert_string_equal(id1, id2);
    assert_int_equal(fake_engine_jobs(H.engine), before + 1);
    cuzk_client_close(c);
}

static void test_prove_completed_and_failed(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 2, 30);
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &r;
    Cuzk__V1__ProveResponse *res;
    assert_int_equal(call_pb(c, "Prove", &p.base, &cuzk__v1__prove_response__descriptor, 0,
                             (void **)&res, NULL), 0);
    assert_non_null(res->result);
    assert_int_equal(res->result->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    assert_int_equal(res->result->proof.len, 384);
    protobuf_c_message_free_unpacked(&res->base, NULL);

    /* A failed proof is an answer, not a gRPC error (what Curio's client expects). */
    r.synthetic_log2n = 3;
    assert_int_equal(call_pb(c, "Prove", &p.base, &cuzk__v1__prove_response__descriptor, 0,
                             (void **)&res, NULL), 0);
    assert_int_equal(res->result->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
    assert_string_equal(res->result->error_message, "injected failure");
    assert_int_equal(res->result->proof.len, 0);
    protobuf_c_message_free_unpacked(&res->base, NULL);
    cuzk_client_close(c);
}

static void assert_utf8(const char *what, const char *s)
{
    if (!s || !cuzk_utf8_valid(s, strlen(s)))
        fail_msg("%s is not valid UTF-8: %s", what, s ? s : "(null)");
}

/* Every string a Go client unpacks must be valid UTF-8, or grpc-go fails the whole reply
 * with INTERNAL: a job error cut inside a character by a fixed buffer, request bytes
 * quoted back in grpc-message, circuit ids in GetStatus. */
static void test_utf8_on_the_wire(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 1);
    r.synthetic_log2n = 4; /* the fake's long failure, cut inside an 'é' */
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &r;
    Cuzk__V1__ProveResponse *res;
    assert_int_equal(call_pb(c, "Prove", &p.base, &cuzk__v1__prove_response__descriptor, 0,
                             (void **)&res, NULL), 0);
    assert_int_equal(res->result->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED);
    assert_utf8("error_message", res->result->error_message);
    assert_true(strncmp(res->result->error_message, "injected failure: \xc3\xa9", 20) == 0);
    assert_true(strlen(res->result->error_message) >= 250);
    protobuf_c_message_free_unpacked(&res->base, NULL);

    /* request bytes quoted in an error: a job id that is not UTF-8 */
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = "no-such-\xff\xfe-job-\xe2\x82";
    char *msg;
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, NULL, 0, NULL, &msg), 5);
    assert_utf8("grpc-message", msg);
    assert_non_null(strstr(msg, "no-such-"));
    free(msg);

    /* a circuit id with a byte that is not UTF-8, listed by GetStatus */
    Cuzk__V1__PreloadSrsRequest pr = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pr.circuit_id = "synthetic-3\xff";
    assert_int_equal(call_pb(c, "PreloadSRS", &pr.base, NULL, 0, NULL, NULL), 0);
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *st;
    assert_int_equal(call_pb(c, "GetStatus", &g.base, &cuzk__v1__get_status_response__descriptor,
                             0, (void **)&st, NULL), 0);
    int seen = 0;
    for (size_t i = 0; i < st->n_loaded_srs; i++) {
        assert_utf8("circuit_id", st->loaded_srs[i]->circuit_id);
        seen += strcmp(st->loaded_srs[i]->circuit_id, "synthetic-3?") == 0;
    }
    assert_int_equal(seen, 1);
    protobuf_c_message_free_unpacked(&st->base, NULL);
    Cuzk__V1__EvictSrsRequest ev = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    ev.circuit_id = "synthetic-3\xff";
    assert_int_equal(call_pb(c, "EvictSRS", &ev.base, NULL, 0, NULL, NULL), 0);
    cuzk_client_close(c);
}

static void test_await_timeout_and_cancel(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 60000);
    char id[64];
    submit_job(c, &r, id);
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = id;
    a.timeout_ms = 150;
    Cuzk__V1__AwaitProofResponse *res;
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, AWAIT_DESC, 0, (void **)&res, NULL), 0);
    assert_int_equal(res->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
    assert_string_equal(res->job_id, id);
    protobuf_c_message_free_unpacked(&res->base, NULL);

    Cuzk__V1__CancelProofRequest cr = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cr.job_id = id;
    Cuzk__V1__CancelProofResponse *cres;
    assert_int_equal(call_pb(c, "CancelProof", &cr.base,
                             &cuzk__v1__cancel_proof_response__descriptor, 0, (void **)&cres,
                             NULL), 0);
    assert_false(cres->was_running); /* still queued in the fake's timeline */
    protobuf_c_message_free_unpacked(&cres->base, NULL);

    a.timeout_ms = 0;
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, AWAIT_DESC, 0, (void **)&res, NULL), 0);
    assert_int_equal(res->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED);
    protobuf_c_message_free_unpacked(&res->base, NULL);

    /* A running job: the fake starts a job after a fifth of its time. */
    synthetic_req(&r, 1, 500);
    submit_job(c, &r, id);
    usleep(200 * 1000);
    cr.job_id = id;
    assert_int_equal(call_pb(c, "CancelProof", &cr.base,
                             &cuzk__v1__cancel_proof_response__descriptor, 0, (void **)&cres,
                             NULL), 0);
    assert_true(cres->was_running);
    protobuf_c_message_free_unpacked(&cres->base, NULL);
    cuzk_client_close(c);
}

static void test_not_found(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = "no-such-job";
    char *msg;
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, AWAIT_DESC, 0, NULL, &msg), 5);
    assert_non_null(strstr(msg, "no-such-job"));
    free(msg);
    Cuzk__V1__CancelProofRequest cr = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cr.job_id = "no-such-job";
    assert_int_equal(call_pb(c, "CancelProof", &cr.base, NULL, 0, NULL, NULL), 5);
    a.job_id = "";
    assert_int_equal(call_pb(c, "AwaitProof", &a.base, AWAIT_DESC, 0, NULL, NULL), 3);
    cuzk_client_close(c);
}

static void test_bad_requests(void **state)
{
    cuzk_client *c = harness_client(&H);
    char *msg;
    /* Unknown kind (an open enum value protobuf keeps). */
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 1);
    r.proof_kind = (Cuzk__V1__ProofKind)77;
    assert_int_equal(call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, &msg), 3);
    assert_string_equal(msg, "unknown proof kind 77");
    free(msg);
    /* Unknown priority. */
    synthetic_req(&r, 1, 1);
    r.priority = (Cuzk__V1__Priority)9;
    assert_int_equal(call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, NULL), 3);
    /* Rejected by the engine: out-of-range sizes, a kind whose circuit is not built. */
    synthetic_req(&r, 0, 1);
    assert_int_equal(call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, NULL), 3);
    synthetic_req(&r, 1, 1);
    r.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    assert_int_equal(call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, &msg), 12);
    assert_string_equal(msg, "PoRep circuit not built yet");
    free(msg);
    /* Input that fails its checks (a tampered C1) can never succeed: INVALID_ARGUMENT,
     * not INTERNAL, which clients retry; the daemon's full disk: UNAVAILABLE. Both logged
     * with the method and the peer. */
    harness_log_clear();
    synthetic_req(&r, 1, 1);
    r.synthetic_log2n = 6;
    assert_int_equal(call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, &msg), 3);
    assert_non_null(strstr(msg, "does not hash"));
    free(msg);
    r.synthetic_log2n = 5;
    Cuzk__V1__ProveRequest pv = CUZK__V1__PROVE_REQUEST__INIT;
    pv.submit = &r;
    assert_int_equal(call_pb(c, "Prove", &pv.base, NULL, 0, NULL, &msg), 14);
    assert_non_null(strstr(msg, "No space left on device"));
    free(msg);
    assert_true(harness_logged("WARN refused /cuzk.v1.ProvingEngine/SubmitProof from unix uid ",
                               "INVALID_ARGUMENT: C1 vanilla_proofs", NULL));
    assert_true(harness_logged("WARN refused /cuzk.v1.ProvingEngine/Prove", "UNAVAILABLE",
                               "No space left", NULL));
    /* ProveRequest without its submit. */
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    assert_int_equal(call_pb(c, "Prove", &p.base, NULL, 0, NULL, NULL), 3);

    /* Malformed protobuf, random and structured, on every method. */
    static const char *const methods[] = {"SubmitProof", "AwaitProof", "Prove", "CancelProof",
                                          "PreloadSRS", "EvictSRS"};
    uint8_t junk[64];
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        /* field 1, wire type 2, length 100 > what follows */
        static const uint8_t trunc[] = {0x0a, 0x64, 'x'};
        cuzk_client_reply rep;
        cuzk_error e = {0};
        assert_int_equal(cuzk_client_call(c, methods[m], trunc, sizeof trunc, 0, &rep, &e), 0);
        assert_int_equal(rep.grpc_status, 3);
        assert_non_null(strstr(rep.grpc_message, "malformed"));
        cuzk_client_reply_free(&rep);
        test_rng_bytes(junk, sizeof junk);
        junk[0] = 0x0a;
        junk[1] = 0x7f; /* a length past the end: never valid */
        assert_int_equal(cuzk_client_call(c, methods[m], junk, sizeof junk, 0, &rep, &e), 0);
        assert_int_equal(rep.grpc_status, 3);
        cuzk_client_reply_free(&rep);
    }
    cuzk_client_close(c);
}

static void test_transport_refusals(void **state)
{
    cuzk_client *c = harness_client(&H);
    cuzk_client_reply rep;
    cuzk_error e = {0};
    assert_int_equal(cuzk_client_call(c, "/cuzk.v1.ProvingEngine/Nope", NULL, 0, 0, &rep, &e),
                     0);
    assert_int_equal(rep.grpc_status, 12);
    assert_non_null(strstr(rep.grpc_message, "/cuzk.v1.ProvingEngine/Nope"));
    cuzk_client_reply_free(&rep);
    assert_true(harness_logged("refused /cuzk.v1.ProvingEngine/Nope", "UNIMPLEMENTED", NULL));

    uint8_t hdr[5] = {0};
    cuzk_client_raw q = {.path = "/cuzk.v1.ProvingEngine/GetStatus",
                         .content_type = "application/json", .prefix = hdr, .prefix_len = 5};
    assert_int_equal(cuzk_client_call_raw(c, &q, &rep, &e), 0);
    assert_int_equal(rep.http_status, 415);
    cuzk_client_reply_free(&rep);
    assert_true(harness_logged("refused /cuzk.v1.ProvingEngine/GetStatus", "HTTP: 415", NULL));

    /* Compressed flag without grpc-encoding support; two messages in a unary call; a
     * message cut short; no message at all. */
    static const uint8_t comp[5] = {1, 0, 0, 0, 0};
    static const uint8_t two[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t cut[7] = {0, 0, 0, 0, 9, 1, 2};
    struct {
        const uint8_t *p;
        size_t n;
        int code;
    } cases[] = {{comp, 5, 12}, {two, 10, 13}, {cut, 7, 13}, {NULL, 0, 13}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        q.content_type = "application/grpc+proto";
        q.prefix = cases[i].p;
        q.prefix_len = cases[i].n;
        assert_int_equal(cuzk_client_call_raw(c, &q, &rep, &e), 0);
        assert_int_equal(rep.grpc_status, cases[i].code);
        cuzk_client_reply_free(&rep);
    }
    /* The connection is still good. */
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    assert_int_equal(call_pb(c, "GetStatus", &g.base, NULL, 0, NULL, NULL), 0);
    cuzk_client_close(c);
}

static void test_status_metrics_srs(void **state)
{
    cuzk_client *c = harness_client(&H);
    Cuzk__V1__PreloadSrsRequest pr = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pr.circuit_id = "synthetic-12";
    Cuzk__V1__PreloadSrsResponse *pres;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(call_pb(c, "PreloadSRS", &pr.base,
                                 &cuzk__v1__preload_srs_response__descriptor, 0,
                                 (void **)&pres, NULL), 0);
        assert_int_equal(pres->already_loaded, i == 1);
        protobuf_c_message_free_unpacked(&pres->base, NULL);
    }
    pr.circuit_id = "porep-32g-unknown";
    assert_int_equal(call_pb(c, "PreloadSRS", &pr.base, NULL, 0, NULL, NULL), 5);

    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *st;
    assert_int_equal(call_pb(c, "GetStatus", &g.base, &cuzk__v1__get_status_response__descriptor,
                             0, (void **)&st, NULL), 0);
    assert_int_equal(st->n_gpus, 1);
    assert_string_equal(st->gpus[0]->name, "fake-cpu");
    assert_int_equal(st->n_loaded_srs, 1);
    assert_string_equal(st->loaded_srs[0]->circuit_id, "synthetic-12");
    assert_int_equal(st->loaded_srs[0]->size_bytes, 12u << 20);
    assert_int_equal(st->n_queues, 1);
    assert_string_equal(st->queues[0]->proof_kind, "synthetic");
    assert_int_equal(st->memory_budget_bytes, 8ULL << 30);
    protobuf_c_message_free_unpacked(&st->base, NULL);

    Cuzk__V1__EvictSrsRequest ev = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    ev.circuit_id = "synthetic-12";
    Cuzk__V1__EvictSrsResponse *eres;
    assert_int_equal(call_pb(c, "EvictSRS", &ev.base, &cuzk__v1__evict_srs_response__descriptor,
                             0, (void **)&eres, NULL), 0);
    assert_true(eres->was_loaded);
    assert_int_equal(eres->freed_bytes, 12u << 20);
    protobuf_c_message_free_unpacked(&eres->base, NULL);

    Cuzk__V1__GetMetricsRequest mr = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *mres;
    assert_int_equal(call_pb(c, "GetMetrics", &mr.base,
                             &cuzk__v1__get_metrics_response__descriptor, 0, (void **)&mres,
                             NULL), 0);
    assert_non_null(strstr(mres->prometheus_text, "cuzk_fake_jobs_total"));
    assert_non_null(strstr(mres->prometheus_text, "cuzk_rpc_calls_total"));
    protobuf_c_message_free_unpacked(&mres->base, NULL);
    cuzk_client_close(c);
}

static void test_tcp_listener(void **state)
{
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_client_connect(H.tcp_addr, &c, &e), CUZK_OK);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 1);
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &r;
    assert_int_equal(call_pb(c, "Prove", &p.base, NULL, 0, NULL, NULL), 0);
    cuzk_client_close(c);
}

/* GET path on the HTTP port; returns the whole response (malloc'd). */
static char *http_get(int port, const char *path)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char req[128];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    assert_int_equal(write(fd, req, (size_t)n), n);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t k;
    while ((k = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)k;
    buf[len] = 0;
    close(fd);
    return buf;
}

static void test_http_port(void **state)
{
    assert_true(H.http_port > 0);
    char *m = http_get(H.http_port, "/metrics");
    assert_non_null(strstr(m, "200 OK"));
    assert_non_null(strstr(m, "cuzk_rpc_connections"));
    free(m);
    m = http_get(H.http_port, "/status");
    assert_non_null(strstr(m, "application/json"));
    assert_non_null(strstr(m, "\"devices\":[{\"ordinal\":0,\"name\":\"fake-cpu\""));
    free(m);
    m = http_get(H.http_port, "/nope");
    assert_non_null(strstr(m, "404"));
    free(m);
}

int main(void)
{
    test_rng_init("test_server_rpc");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_await),
        cmocka_unit_test(test_idempotent_submit),
        cmocka_unit_test(test_prove_completed_and_failed),
        cmocka_unit_test(test_utf8_on_the_wire),
        cmocka_unit_test(test_await_timeout_and_cancel),
        cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_transport_refusals),
        cmocka_unit_test(test_status_metrics_srs),
        cmocka_unit_test(test_tcp_listener),
        cmocka_unit_test(test_http_port),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
