/*
 * harness.c — the server tests' fixture and call helpers (see harness.h).
 */
#define _GNU_SOURCE /* mkdtemp, usleep */

#include "harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* The server's log lines, kept for harness_logged (one buffer for the process). */
static pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
static char *g_log;
static size_t g_log_len;

static void harness_log(void *ctx, cuzk_log_level level, const char *msg)
{
    (void)ctx;
    static const char *const names[] = {"ERROR", "WARN", "INFO", "DEBUG"};
    pthread_mutex_lock(&g_log_mu);
    size_t n = strlen(msg) + 16;
    char *nb = realloc(g_log, g_log_len + n + 1);
    if (nb) {
        g_log = nb;
        g_log_len += (size_t)sprintf(g_log + g_log_len, "%s %s\n",
                                     (unsigned)level < 4 ? names[level] : "?", msg);
    }
    pthread_mutex_unlock(&g_log_mu);
    if (getenv("CUZK_TEST_VERBOSE"))
        fprintf(stderr, "server log: %s\n", msg);
}

int harness_logged(const char *needle, ...)
{
    int found = 0;
    pthread_mutex_lock(&g_log_mu);
    for (char *line = g_log; line && *line && !found;) {
        char *end = strchr(line, '\n');
        *end = 0;
        found = 1;
        va_list ap;
        va_start(ap, needle);
        for (const char *n = needle; n && found; n = va_arg(ap, const char *))
            found = strstr(line, n) != NULL;
        va_end(ap);
        *end = '\n';
        line = end + 1;
    }
    pthread_mutex_unlock(&g_log_mu);
    return found;
}

void harness_log_clear(void)
{
    pthread_mutex_lock(&g_log_mu);
    free(g_log);
    g_log = NULL;
    g_log_len = 0;
    pthread_mutex_unlock(&g_log_mu);
}

static void *run_thread(void *arg)
{
    harness *h = arg;
    cuzk_error e = {0};
    h->run_rc = cuzk_server_run(h->server, &e);
    return NULL;
}

void harness_start(harness *h, const cuzk_server_opts *opts)
{
    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "/tmp/cuzk-srv-XXXXXX");
    assert_non_null(mkdtemp(h->dir));
    snprintf(h->addr, sizeof h->addr, "unix://%s/cuzk.sock", h->dir);
    h->engine = fake_engine_create();
    cuzk_server_opts o = opts ? *opts : (cuzk_server_opts){0};
    if (!o.http_listen)
        o.http_listen = "127.0.0.1:0";
    if (!o.log)
        o.log = harness_log;
    char listen[200];
    snprintf(listen, sizeof listen, "%s,127.0.0.1:0", h->addr);
    cuzk_error e = {0};
    cuzk_status st = cuzk_server_create(h->engine, listen, &o, &h->server, &e);
    if (st != CUZK_OK)
        fail_msg("cuzk_server_create: %s", e.msg);
    snprintf(h->tcp_addr, sizeof h->tcp_addr, "127.0.0.1:%d", cuzk_server_port(h->server, 1));
    h->http_port = cuzk_server_port(h->server, -1);
    assert_int_equal(pthread_create(&h->thread, NULL, run_thread, h), 0);
}

void harness_wait_idle(harness *h, unsigned max_conns)
{
    cuzk_server_stats s;
    for (int i = 0; i < 1000; i++) {
        cuzk_server_get_stats(h->server, &s);
        if (s.calls == 0 && s.streams == 0 && s.connections <= max_conns)
            return;
        usleep(10000);
    }
    fail_msg("server not idle: %u calls, %u streams, %u connections", s.calls, s.streams,
             s.connections);
}

void harness_stop(harness *h)
{
    cuzk_server_stop(h->server);
    pthread_join(h->thread, NULL);
    assert_int_equal(h->run_rc, CUZK_OK);
    cuzk_server_stats s;
    cuzk_server_get_stats(h->server, &s);
    assert_int_equal(s.connections, 0);
    assert_int_equal(s.streams, 0);
    assert_int_equal(s.calls, 0);
    cuzk_server_destroy(h->server);
    char sock[160];
    snprintf(sock, sizeof sock, "%s/cuzk.sock", h->dir);
    assert_int_not_equal(access(sock, F_OK), 0); /* the socket file is gone */
    rmdir(h->dir);
    fake_engine_destroy(h->engine);
}

cuzk_client *harness_client(const harness *h)
{
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    if (cuzk_client_connect(h->addr, &c, &e) != CUZK_OK)
        fail_msg("connect %s: %s", h->addr, e.msg);
    return c;
}

int call_pb(cuzk_client *c, const char *method, const ProtobufCMessage *m,
            const ProtobufCMessageDescriptor *desc, int64_t timeout_ms, void **out,
            char **msg)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    protobuf_c_message_pack(m, buf);
    cuzk_client_reply r;
    cuzk_error e = {0};
    cuzk_status st = cuzk_client_call(c, method, buf, n, timeout_ms, &r, &e);
    free(buf);
    if (st != CUZK_OK)
        fail_msg("%s: transport error: %s", method, e.msg);
    if (out) {
        *out = NULL;
        if (r.grpc_status == 0) {
            *out = protobuf_c_message_unpack(desc, NULL, r.len, r.body);
            assert_non_null(*out);
        }
    }
    if (msg)
        *msg = r.grpc_message ? strdup(r.grpc_message) : NULL;
    int code = r.grpc_status;
    cuzk_client_reply_free(&r);
    return code;
}

void synthetic_req(Cuzk__V1__SubmitProofRequest *r, uint32_t partitions, uint64_t ms)
{
    cuzk__v1__submit_proof_request__init(r);
    r->proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
    r->synthetic_log2n = 10;
    r->synthetic_partitions = partitions;
    r->synthetic_seed = ms;
}

void submit_job(cuzk_client *c, Cuzk__V1__SubmitProofRequest *r, char id[64])
{
    Cuzk__V1__SubmitProofResponse *resp;
    int code = call_pb(c, "SubmitProof", &r->base, &cuzk__v1__submit_proof_response__descriptor,
                       0, (void **)&resp, NULL);
    assert_int_equal(code, 0);
    assert_int_equal(strlen(resp->job_id), 36);
    snprintf(id, 64, "%s", resp->job_id);
    protobuf_c_message_free_unpacked(&resp->base, NULL);
}
