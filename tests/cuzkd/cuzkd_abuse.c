/*
 * cuzkd_abuse.c — what tests/server/test_server_abuse.c does to the server on a fake
 * engine, done to a real cuzkd (its engine proving on the CPU): garbage and HTTP/1 bytes on
 * the socket, a valid preface followed by a garbage frame, a connection that leaves
 * without a byte; clients that drop the connection or reset the stream
 * in the middle of a Prove and of an AwaitProof on a real running job. After each the
 * daemon must answer, and at the end a new job must complete with its proof.
 *   usage: cuzkd_abuse unix:///path/cuzk.sock     (run by cuzkd_abuse.sh, which starts the
 *          daemon, counts its open descriptors before and after, and stops it: exit 0, and
 *          under ASan no leak)
 * Threading: one thread. Seeds: test_rng (printed; CUZK_TEST_SEED replays).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/client.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/client_raw.h"
#include "server/grpc_wire.h"
#include "test_rng.h"

static const char *g_addr;
static uint64_t g_seed;

static cuzk_client *client(void)
{
    cuzk_client *c;
    cuzk_error e = {0};
    if (cuzk_client_connect(g_addr, &c, &e) != CUZK_OK)
        fail_msg("connect %s: %s", g_addr, e.msg);
    return c;
}

/* Packs m, calls method; unpacks an OK reply with desc into *out. Returns the gRPC code. */
static int call(cuzk_client *c, const char *method, const ProtobufCMessage *m,
                const ProtobufCMessageDescriptor *desc, void **out)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    protobuf_c_message_pack(m, buf);
    cuzk_client_reply r;
    cuzk_error e = {0};
    cuzk_status st = cuzk_client_call(c, method, buf, n, 0, &r, &e);
    free(buf);
    if (st != CUZK_OK)
        fail_msg("%s: transport error: %s", method, e.msg);
    if (out) {
        *out = NULL;
        if (r.grpc_status == 0)
            assert_non_null(*out = protobuf_c_message_unpack(desc, NULL, r.len, r.body));
    }
    int code = r.grpc_status;
    if (code)
        printf("  %s: %s %s\n", method, cuzk_grpc_status_name(code),
               r.grpc_message ? r.grpc_message : "");
    cuzk_client_reply_free(&r);
    return code;
}

static void status_ok(void)
{
    cuzk_client *c = client();
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    assert_int_equal(call(c, "GetStatus", &g.base, NULL, NULL), 0);
    cuzk_client_close(c);
}

/* partitions of the jobs that must still be running when their calls are abandoned */
#define RUNNING_PARTS 16

static void synthetic(Cuzk__V1__SubmitProofRequest *r, uint32_t log2n, uint32_t parts)
{
    cuzk__v1__submit_proof_request__init(r);
    r->proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
    r->synthetic_log2n = log2n;
    r->synthetic_partitions = parts;
    r->synthetic_seed = g_seed + test_rng_u64() % 1000;
}

static int raw_connect(void)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    const char *path = g_addr + strlen("unix://");
    assert_true(strlen(path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* Sends bytes and expects the daemon to drop the connection (within 10 s). */
static void expect_dropped(const uint8_t *p, size_t n)
{
    int fd = raw_connect();
    assert_int_equal(send(fd, p, n, MSG_NOSIGNAL), (ssize_t)n);
    struct timeval tv = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    uint8_t buf[4096];
    ssize_t k;
    while ((k = recv(fd, buf, sizeof buf, 0)) > 0) {
    }
    assert_true(k == 0 || (k < 0 && errno != EAGAIN)); /* closed, not timed out */
    close(fd);
}

static void test_garbage(void **state)
{
    (void)state;
    uint8_t junk[4096];
    for (size_t i = 0, n = test_iters(8); i < n; i++) {
        test_rng_bytes(junk, sizeof junk);
        junk[0] = 'X'; /* never the preface's 'P' */
        expect_dropped(junk, 1 + test_rng_u64() % sizeof junk);
    }
    static const char http1[] = "GET /status HTTP/1.1\r\nHost: x\r\n\r\n";
    expect_dropped((const uint8_t *)http1, sizeof http1 - 1);
    static const char pre[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    memcpy(junk, pre, sizeof pre - 1);
    memset(junk + sizeof pre - 1, 0xff, 64);
    expect_dropped(junk, sizeof pre - 1 + 64);
    close(raw_connect()); /* a client that leaves without a byte */
    status_ok();
}

/* A raw call abandoned after 300 ms by dropping the connection or resetting the stream. */
static void abandon(const char *path, const ProtobufCMessage *m, int drop)
{
    cuzk_client *c = client();
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n);
    assert_non_null(buf);
    protobuf_c_message_pack(m, buf);
    uint8_t hdr[5];
    grpc_frame_header_put(hdr, 0, (uint32_t)n);
    cuzk_client_raw q = {.path = path, .prefix = hdr, .prefix_len = 5, .body = buf,
                         .body_len = n, .local_timeout_ms = 300,
                         .drop_connection = drop};
    cuzk_client_reply rep;
    cuzk_error e = {0};
    assert_int_equal(cuzk_client_call_raw(c, &q, &rep, &e), CUZK_OK);
    assert_int_equal(rep.grpc_status, 4); /* the local give-up, not a daemon answer */
    cuzk_client_reply_free(&rep);
    free(buf);
    if (!drop) {
        /* a reset stream leaves the connection usable */
        Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
        assert_int_equal(call(c, "GetStatus", &g.base, NULL, NULL), 0);
    }
    cuzk_client_close(c);
}

static void test_disconnect_mid_call(void **state)
{
    (void)state;
    /* Prove runs a real job that outlives the client: the job goes on in the engine (its
     * request_id finds it afterwards: then it is cancelled), the call's resources go.
     * 2^13 with RUNNING_PARTS partitions lasts seconds even on an idle machine (2 parts
     * once finished inside the 600 ms the AwaitProof case below abandons twice); every
     * such job is cancelled, so its size costs no test time. */
    for (int drop = 1; drop >= 0; drop--) {
        char rid[64];
        snprintf(rid, sizeof rid, "abuse-%d-%llu", drop, (unsigned long long)g_seed);
        Cuzk__V1__SubmitProofRequest r;
        synthetic(&r, 13, RUNNING_PARTS);
        r.request_id = rid;
        Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
        p.submit = &r;
        abandon("/cuzk.v1.ProvingEngine/Prove", &p.base, drop);
        cuzk_client *c = client();
        Cuzk__V1__SubmitProofResponse *sr;
        assert_int_equal(call(c, "SubmitProof", &r.base,
                              &cuzk__v1__submit_proof_response__descriptor, (void **)&sr), 0);
        /* the abandoned call's job goes on: neither finished nor cancelled by the drop */
        Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        a.job_id = sr->job_id;
        a.timeout_ms = 1;
        Cuzk__V1__AwaitProofResponse *ar;
        assert_int_equal(call(c, "AwaitProof", &a.base,
                              &cuzk__v1__await_proof_response__descriptor, (void **)&ar), 0);
        assert_int_equal(ar->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
        protobuf_c_message_free_unpacked(&ar->base, NULL);
        Cuzk__V1__CancelProofRequest cq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        cq.job_id = sr->job_id;
        assert_int_equal(call(c, "CancelProof", &cq.base, NULL, NULL), 0);
        protobuf_c_message_free_unpacked(&sr->base, NULL);
        cuzk_client_close(c);
    }
    status_ok();

    /* AwaitProof on a running job, abandoned both ways; the job is then cancelled */
    Cuzk__V1__SubmitProofRequest r;
    synthetic(&r, 13, RUNNING_PARTS);
    cuzk_client *c = client();
    Cuzk__V1__SubmitProofResponse *sr;
    assert_int_equal(call(c, "SubmitProof", &r.base, &cuzk__v1__submit_proof_response__descriptor,
                          (void **)&sr), 0);
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = sr->job_id;
    abandon("/cuzk.v1.ProvingEngine/AwaitProof", &a.base, 1);
    abandon("/cuzk.v1.ProvingEngine/AwaitProof", &a.base, 0);
    Cuzk__V1__CancelProofRequest cq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cq.job_id = sr->job_id;
    assert_int_equal(call(c, "CancelProof", &cq.base, NULL, NULL), 0);
    protobuf_c_message_free_unpacked(&sr->base, NULL);
    cuzk_client_close(c);
}

/* After all of it: a job submitted now completes with its proof bytes. */
static void test_following_job(void **state)
{
    (void)state;
    cuzk_client *c = client();
    Cuzk__V1__SubmitProofRequest r;
    synthetic(&r, 8, 2);
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &r;
    Cuzk__V1__ProveResponse *res;
    assert_int_equal(call(c, "Prove", &p.base, &cuzk__v1__prove_response__descriptor,
                          (void **)&res), 0);
    assert_non_null(res->result);
    assert_int_equal(res->result->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    assert_int_equal(res->result->proof.len, 2 * 192);
    protobuf_c_message_free_unpacked(&res->base, NULL);
    cuzk_client_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 2 || strncmp(argv[1], "unix://", 7) != 0) {
        fprintf(stderr, "usage: cuzkd_abuse unix:///path/cuzk.sock\n");
        return 2;
    }
    g_addr = argv[1];
    g_seed = test_rng_init("cuzkd_abuse");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_disconnect_mid_call),
        cmocka_unit_test(test_following_job),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
