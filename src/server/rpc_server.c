/*
 * rpc_server.c — the rpc server's I/O thread: listeners, the epoll loop over
 * connections, the completion queue from the workers, deadlines, and the stop sequence
 * (see rpc.h for the model).
 *
 * Threading: rpc_server_run is the I/O thread. rpc_server_stop only stores a flag and
 * writes the eventfd, so it may be called from any thread or a signal handler.
 * rpc_server_push_completion is called by workers.
 */
#define _GNU_SOURCE /* accept4 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "grpc_wire.h"
#include "rpc_internal.h"

/* Keepalive defaults: a minute of silence is well inside the idle timeouts of common
 * firewalls and NATs (often 5 to 60 minutes; some cloud load balancers 4 minutes), and a
 * PING a minute costs nothing; 20 s covers a slow peer's answer. */
#define RPC_KEEPALIVE_MS 60000
#define RPC_KEEPALIVE_TIMEOUT_MS 20000

/* How long a stopping server keeps flushing replies to clients that do not read. */
#define RPC_STOP_GRACE_NS (5LL * 1000000000LL)

static void wake(rpc_server *srv)
{
    uint64_t one = 1;
    ssize_t rc = write(srv->wakefd, &one, sizeof one);
    (void)rc; /* a full counter already means "wake up" */
}

void rpc_call_drop_request(rpc_call *call)
{
    if (call->req) {
        atomic_fetch_sub(&call->srv->req_bytes, call->req_len);
        free(call->req);
        call->req = NULL;
    }
}

void rpc_call_free(rpc_call *call)
{
    rpc_call_drop_request(call);
    free(call->reply.body);
    free(call->reply.message);
    rpc_peer_clear(&call->peer);
    free(call);
}

const rpc_peer *rpc_call_peer(const rpc_call *call)
{
    return &call->peer;
}

const char *rpc_call_method(const rpc_call *call)
{
    return call->method->path;
}

void rpc_log(rpc_server *srv, int level, const char *fmt, ...)
{
    if (!srv->opts.log)
        return;
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* Messages quote what clients sent (paths, ids): one log line must stay one line. */
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    srv->opts.log(srv->opts.log_ctx, level, line);
}

void rpc_server_push_completion(rpc_server *srv, rpc_call *call)
{
    call->next = NULL;
    pthread_mutex_lock(&srv->cmu);
    if (srv->c_tail)
        srv->c_tail->next = call;
    else
        srv->c_head = call;
    srv->c_tail = call;
    pthread_mutex_unlock(&srv->cmu);
    wake(srv);
}

int rpc_call_cancelled(const rpc_call *call)
{
    return atomic_load(&((rpc_call *)call)->cancelled) ||
           (call->deadline_ns != INT64_MAX && call->deadline_ns <= grpc_now_ns());
}

int64_t rpc_call_remaining_ms(const rpc_call *call)
{
    if (call->deadline_ns == INT64_MAX)
        return INT64_MAX;
    return (call->deadline_ns - grpc_now_ns()) / 1000000;
}

cuzk_status rpc_server_create(const rpc_server_opts *opts, const rpc_method *methods,
                              size_t n, void *ctx, rpc_server **out, cuzk_error *err)
{
    if (!out || (!methods && n))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "rpc_server_create: NULL argument");
    *out = NULL;
    rpc_server *srv = calloc(1, sizeof *srv);
    if (!srv)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    if (opts)
        srv->opts = *opts;
    srv->opts.auth_token = NULL;
    if (opts && opts->auth_token && opts->auth_token[0] &&
        !(srv->opts.auth_token = strdup(opts->auth_token))) {
        free(srv);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    if (!srv->opts.max_message || srv->opts.max_message > 0xffffffffu)
        srv->opts.max_message = GRPC_DEFAULT_MAX_MESSAGE;
    if (!srv->opts.max_workers)
        srv->opts.max_workers = 256;
    if (!srv->opts.max_connections)
        srv->opts.max_connections = 1024;
    if (!srv->opts.max_streams)
        srv->opts.max_streams = 128;
    if (!srv->opts.keepalive_ms)
        srv->opts.keepalive_ms = RPC_KEEPALIVE_MS;
    if (srv->opts.keepalive_timeout_ms <= 0)
        srv->opts.keepalive_timeout_ms = RPC_KEEPALIVE_TIMEOUT_MS;
    srv->methods = methods;
    srv->nmethods = n;
    srv->ctx = ctx;
    srv->wake_kind = RPC_EV_WAKE;
    srv->epfd = epoll_create1(EPOLL_CLOEXEC);
    srv->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    pthread_mutex_init(&srv->mu, NULL);
    pthread_cond_init(&srv->cv, NULL);
    pthread_mutex_init(&srv->cmu, NULL);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &srv->wake_kind};
    if (srv->epfd < 0 || srv->wakefd < 0 ||
        epoll_ctl(srv->epfd, EPOLL_CTL_ADD, srv->wakefd, &ev) != 0 ||
        rpc_workers_init(srv) != CUZK_OK) {
        int e = errno;
        rpc_server_destroy(srv);
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc server setup: %s", strerror(e));
    }
    *out = srv;
    return CUZK_OK;
}

cuzk_status rpc_server_listen(rpc_server *srv, const char *spec, int *bound_port,
                              cuzk_error *err)
{
    if (!srv || !spec)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "rpc_server_listen: NULL argument");
    if (srv->nlisteners == RPC_MAX_LISTENERS)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "too many listeners");
    int fd;
    grpc_unix_perms perms = {.mode = srv->opts.unix_mode, .set_group = srv->opts.unix_group_set,
                             .group = srv->opts.unix_group};
    cuzk_status st = grpc_listen(spec, 512, &perms, &fd, bound_port, err);
    if (st != CUZK_OK)
        return st;
    rpc_listener *l = &srv->listeners[srv->nlisteners];
    l->kind = RPC_EV_LISTENER;
    l->fd = fd;
    char path[256];
    l->is_unix = grpc_addr_unix_path(spec, path, sizeof path);
    l->unix_path = l->is_unix ? strdup(path) : NULL;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = l};
    if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        int e = errno;
        close(fd);
        if (l->unix_path)
            unlink(l->unix_path);
        free(l->unix_path);
        l->unix_path = NULL;
        return cuzk_error_set(err, CUZK_ERR_IO, "epoll: %s", strerror(e));
    }
    srv->nlisteners++;
    return CUZK_OK;
}

void rpc_server_stop(rpc_server *srv)
{
    atomic_store(&srv->stop_requested, 1);
    wake(srv);
}

void rpc_server_get_stats(rpc_server *srv, rpc_server_stats *out)
{
    memset(out, 0, sizeof *out);
    out->connections = atomic_load(&srv->n_conns);
    out->streams = atomic_load(&srv->n_streams);
    out->calls = atomic_load(&srv->n_calls);
    pthread_mutex_lock(&srv->mu);
    out->workers = srv->nthreads;
    pthread_mutex_unlock(&srv->mu);
    out->calls_total = atomic_load(&srv->calls_total);
    out->conns_total = atomic_load(&srv->conns_total);
    out->pings_total = atomic_load(&srv->pings_total);
    out->request_bytes = atomic_load(&srv->req_bytes);
}

static void accept_all(rpc_server *srv, rpc_listener *l)
{
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t salen = sizeof sa;
        memset(&sa, 0, sizeof sa);
        int fd = accept4(l->fd, (struct sockaddr *)&sa, &salen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* EAGAIN, or a transient error (EMFILE...): retried on next event */
        rpc_peer peer;
        rpc_peer_identify(&peer, fd, l->is_unix, &sa);
        int64_t idle_s = srv->opts.keepalive_ms > 0 ? srv->opts.keepalive_ms / 1000 : 60;
        rpc_socket_tune(fd, l->is_unix, idle_s < 1 ? 1 : idle_s > 32767 ? 32767 : (int)idle_s);
        if (atomic_load(&srv->n_conns) >= srv->opts.max_connections) {
            rpc_log(srv, 1, "connection from %s refused: %u connections open (the limit)",
                    peer.desc, srv->opts.max_connections);
            rpc_peer_clear(&peer);
            close(fd);
            continue;
        }
        rpc_conn *c = rpc_conn_new(srv, fd, &peer);
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (!c || epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
            rpc_log(srv, 1, "connection from %s dropped: out of memory",
                    c ? c->peer.desc : peer.desc);
            if (c)
                rpc_conn_free(c);
            else
                close(fd);
            rpc_peer_clear(&peer);
            continue;
        }
        c->ev_mask = EPOLLIN;
        c->next = srv->conns;
        if (srv->conns)
            srv->conns->prev = c;
        srv->conns = c;
        atomic_fetch_add(&srv->n_conns, 1);
        atomic_fetch_add(&srv->conns_total, 1);
    }
}

static void conn_close(rpc_server *srv, rpc_conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    rpc_conn_free(c);
    atomic_fetch_sub(&srv->n_conns, 1);
}

static void drain_completions(rpc_server *srv)
{
    uint64_t v;
    ssize_t rc = read(srv->wakefd, &v, sizeof v);
    (void)rc;
    pthread_mutex_lock(&srv->cmu);
    rpc_call *list = srv->c_head;
    srv->c_head = srv->c_tail = NULL;
    pthread_mutex_unlock(&srv->cmu);
    while (list) {
        rpc_call *next = list->next;
        rpc_conn_complete(list);
        rpc_call_free(list);
        atomic_fetch_sub(&srv->n_calls, 1);
        list = next;
    }
}

static void begin_stop(rpc_server *srv)
{
    srv->stopping = 1;
    /* no more accepts, but the sockets stay bound and listening until destroy: a unix
     * socket nobody listens on counts as stale (grpc_listen), and a second daemon would
     * replace it while this one is still stopping its engine (cuzk_server_quiesce) */
    for (int i = 0; i < srv->nlisteners; i++)
        epoll_ctl(srv->epfd, EPOLL_CTL_DEL, srv->listeners[i].fd, NULL);
    for (rpc_conn *c = srv->conns; c; c = c->next)
        rpc_conn_shutdown(c);
}

/* Sends what nghttp2 has queued, then asks epoll for writability only while needed. */
static void service_conn(rpc_server *srv, rpc_conn *c)
{
    rpc_conn_flush(c);
    if (c->dead || rpc_conn_done(c) || (srv->stopping && !c->streams &&
                                        !nghttp2_session_want_write(c->sess))) {
        conn_close(srv, c);
        return;
    }
    uint32_t mask = EPOLLIN | (nghttp2_session_want_write(c->sess) ? EPOLLOUT : 0);
    if (mask != c->ev_mask) {
        struct epoll_event ev = {.events = mask, .data.ptr = c};
        epoll_ctl(srv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
        c->ev_mask = mask;
    }
}

cuzk_status rpc_server_run(rpc_server *srv, cuzk_error *err)
{
    if (!srv)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "rpc_server_run: NULL server");
    int64_t stop_deadline = 0;
    struct epoll_event evs[64];
    for (;;) {
        int64_t now = grpc_now_ns(), next = INT64_MAX;
        for (rpc_conn *c = srv->conns; c; c = c->next) {
            rpc_conn_check_deadlines(c, now, &next);
            rpc_conn_check_keepalive(c, now, &next);
        }
        int timeout = -1;
        if (srv->stopping)
            timeout = 20;
        if (next != INT64_MAX) {
            int64_t ms = (next - now) / 1000000 + 1;
            if (timeout < 0 || ms < timeout)
                timeout = ms > 60000 ? 60000 : (int)ms;
        }
        int n = epoll_wait(srv->epfd, evs, 64, timeout);
        if (n < 0 && errno != EINTR)
            return cuzk_error_set(err, CUZK_ERR_IO, "epoll_wait: %s", strerror(errno));
        for (int i = 0; i < n; i++) {
            int kind = *(int *)evs[i].data.ptr;
            if (kind == RPC_EV_LISTENER && !srv->stopping) {
                accept_all(srv, evs[i].data.ptr);
            } else if (kind == RPC_EV_CONN) {
                rpc_conn *c = evs[i].data.ptr;
                if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                    rpc_conn_on_readable(c);
            }
        }
        drain_completions(srv);
        if (atomic_load(&srv->stop_requested) && !srv->stopping) {
            begin_stop(srv);
            stop_deadline = grpc_now_ns() + RPC_STOP_GRACE_NS;
        }
        for (rpc_conn *c = srv->conns, *next_c; c; c = next_c) {
            next_c = c->next;
            service_conn(srv, c);
        }
        if (srv->stopping && atomic_load(&srv->n_calls) == 0 &&
            (!srv->conns || grpc_now_ns() > stop_deadline))
            break;
    }
    while (srv->conns)
        conn_close(srv, srv->conns);
    return CUZK_OK;
}

void rpc_server_quiesce(rpc_server *srv)
{
    if (!srv)
        return;
    /* Handlers have returned (run waits for them) or never ran; join the threads. Each
     * step is a no-op the second time. */
    rpc_workers_fini(srv);
    drain_completions(srv);
    while (srv->conns)
        conn_close(srv, srv->conns);
}

void rpc_server_destroy(rpc_server *srv)
{
    if (!srv)
        return;
    rpc_server_quiesce(srv);
    for (int i = 0; i < srv->nlisteners; i++) {
        if (srv->listeners[i].fd >= 0)
            close(srv->listeners[i].fd);
        if (srv->listeners[i].unix_path)
            unlink(srv->listeners[i].unix_path);
        free(srv->listeners[i].unix_path);
    }
    if (srv->epfd >= 0)
        close(srv->epfd);
    if (srv->wakefd >= 0)
        close(srv->wakefd);
    pthread_mutex_destroy(&srv->mu);
    pthread_cond_destroy(&srv->cv);
    pthread_mutex_destroy(&srv->cmu);
    free((char *)srv->opts.auth_token);
    free(srv);
}
