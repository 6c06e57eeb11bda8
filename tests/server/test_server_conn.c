/*
 * test_server_conn.c — what cuzk_server does to connections, each case on a harness of
 * its own options: TCP sockets get TCP_NODELAY and keepalive probes; a peer silent for
 * the keepalive interval gets an HTTP/2 PING, a call that waits longer than that (a Prove
 * on a quiet connection) completes, and a peer that never answers is disconnected; unix
 * sockets get mode 0660 whatever the umask (the configured mode and group when given); a
 * TCP listener is logged as open to anyone, or, with a token, refuses calls without it.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "server/grpc_wire.h"
#include "test_rng.h"

static void status_ok(cuzk_client *c)
{
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    assert_int_equal(call_pb(c, "GetStatus", &g.base, NULL, 0, NULL, NULL), 0);
}

/* The server runs in this process: its accepted TCP socket is one of our descriptors, the
 * one whose local port is the listener's and that is not listening. */
static int accepted_tcp_fd(int port)
{
    for (int fd = 3; fd < 4096; fd++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int listening = 0;
        socklen_t il = sizeof listening;
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 || ss.ss_family != AF_INET ||
            ntohs(((struct sockaddr_in *)&ss)->sin_port) != port)
            continue;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &il) == 0 && !listening)
            return fd;
    }
    return -1;
}

static int sockopt(int fd, int level, int name)
{
    int v = -1;
    socklen_t l = sizeof v;
    assert_int_equal(getsockopt(fd, level, name, &v, &l), 0);
    return v;
}

static void test_tcp_socket_options(void **state)
{
    harness h;
    cuzk_server_opts o = {.keepalive_ms = 7000};
    harness_start(&h, &o);
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_client_connect(h.tcp_addr, &c, &e), CUZK_OK);
    status_ok(c);
    int fd = accepted_tcp_fd(cuzk_server_port(h.server, 1));
    assert_true(fd >= 0);
    assert_int_equal(sockopt(fd, IPPROTO_TCP, TCP_NODELAY), 1);
    assert_int_equal(sockopt(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
    assert_int_equal(sockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE), 7);
    cuzk_client_close(c);
    harness_wait_idle(&h, 0);
    harness_stop(&h);
}

static int raw_unix(const harness *h)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    const char *path = h->addr + strlen("unix://");
    memcpy(sa.sun_path, path, strlen(path) + 1);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

static void test_keepalive(void **state)
{
    harness h;
    cuzk_server_opts o = {.keepalive_ms = 100, .keepalive_timeout_ms = 300};
    harness_start(&h, &o);
    harness_log_clear();

    /* A Prove that waits 800 ms on a connection with nothing else on it: PINGed while it
     * waits, answered by the client, and completed. */
    cuzk_client *c = harness_client(&h);
    Cuzk__V1__SubmitProofRequest r;
    synthetic_req(&r, 1, 800);
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &r;
    assert_int_equal(call_pb(c, "Prove", &p.base, NULL, 0, NULL, NULL), 0);
    cuzk_server_stats st;
    cuzk_server_get_stats(h.server, &st);
    assert_true(st.keepalive_pings_total >= 2);
    assert_int_equal(st.connections, 1);
    cuzk_client_close(c);
    harness_wait_idle(&h, 0);

    /* A peer that says hello and then never answers: disconnected after the interval and
     * the timeout, not kept forever. */
    int fd = raw_unix(&h);
    static const char hello[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
                                "\x00\x00\x00\x04\x00\x00\x00\x00\x00"; /* empty SETTINGS */
    assert_int_equal(send(fd, hello, sizeof hello - 1, MSG_NOSIGNAL), (ssize_t)sizeof hello - 1);
    struct timeval tv = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int64_t t0 = grpc_now_ns();
    uint8_t buf[4096];
    ssize_t k;
    size_t got = 0;
    while ((k = recv(fd, buf, sizeof buf, 0)) > 0)
        got += (size_t)k; /* SETTINGS, then the PING; never answered */
    if (!(k == 0 || (k < 0 && errno != EAGAIN))) /* closed by the server, not timed out */
        fail_msg("recv: %zd %s after %lld ms", k, strerror(errno), (long long)((grpc_now_ns() - t0) / 1000000));
    assert_true(got > 0);
    assert_true((grpc_now_ns() - t0) / 1000000 >= 300);
    close(fd);
    harness_wait_idle(&h, 0);
    assert_true(harness_logged("closed: no answer to a keepalive PING in 300 ms", NULL));
    harness_stop(&h);
}

static void socket_mode(const harness *h, unsigned *mode, gid_t *gid)
{
    struct stat st;
    assert_int_equal(stat(h->addr + strlen("unix://"), &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    *mode = st.st_mode & 07777;
    *gid = st.st_gid;
}

/* Under umask 0 a socket bound by the daemon was 0777: anyone on the machine could submit
 * jobs and name files for a root daemon to read. */
static void test_unix_socket_mode(void **state)
{
    mode_t old = umask(0);
    harness h;
    unsigned mode;
    gid_t gid;
    harness_start(&h, NULL);
    socket_mode(&h, &mode, &gid);
    assert_int_equal(mode, 0660);
    assert_int_equal(gid, getegid());
    harness_stop(&h);
    if (geteuid() == 0) { /* only root may give its files to any group */
        cuzk_server_opts o = {.unix_mode = 0620, .unix_group_set = 1, .unix_group = 65534};
        harness_start(&h, &o);
        socket_mode(&h, &mode, &gid);
        assert_int_equal(mode, 0620);
        assert_int_equal(gid, 65534);
        harness_stop(&h);
    }
    umask(old);
}

static int status_code(cuzk_client *c)
{
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    return call_pb(c, "GetStatus", &g.base, NULL, 0, NULL, NULL);
}

static void test_tcp_token(void **state)
{
    harness h;
    harness_log_clear();
    harness_start(&h, NULL); /* a TCP listener without a token: said loudly */
    assert_true(harness_logged("WARN gRPC on TCP 127.0.0.1:0 without a token", NULL));
    harness_stop(&h);

    static const char token[] = "s3cr3t-t0ken-0123456789";
    cuzk_server_opts o = {.auth_token = token};
    harness_log_clear();
    harness_start(&h, &o);
    assert_true(harness_logged("INFO gRPC on TCP 127.0.0.1:0: clients must send the shared token",
                               NULL));
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_client_connect(h.tcp_addr, &c, &e), CUZK_OK);
    assert_int_equal(status_code(c), 16); /* no token: UNAUTHENTICATED */
    assert_int_equal(cuzk_client_set_token(c, "s3cr3t-t0ken-0123456788", &e), CUZK_OK);
    assert_int_equal(status_code(c), 16); /* one character off */
    assert_int_equal(cuzk_client_set_token(c, "s3cr3t-t0ken-012345678", &e), CUZK_OK);
    assert_int_equal(status_code(c), 16); /* a prefix */
    assert_int_equal(cuzk_client_set_token(c, token, &e), CUZK_OK);
    assert_int_equal(status_code(c), 0);
    assert_int_equal(cuzk_client_set_token(c, "with space", &e), CUZK_ERR_INVALID_ARG);
    cuzk_client_close(c);
    assert_true(harness_logged("WARN refused /cuzk.v1.ProvingEngine/GetStatus from tcp 127.0.0.1:",
                               "UNAUTHENTICATED", NULL));
    /* the unix socket is guarded by its mode and the peer's credentials instead */
    c = harness_client(&h);
    assert_int_equal(status_code(c), 0);
    cuzk_client_close(c);
    harness_stop(&h);
}

int main(void)
{
    test_rng_init("test_server_conn");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tcp_socket_options),
        cmocka_unit_test(test_keepalive),
        cmocka_unit_test(test_unix_socket_mode),
        cmocka_unit_test(test_tcp_token),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
