/*
 * rpc_conn.c — one HTTP/2 connection of the rpc server: the nghttp2 server session,
 * request streams (headers, message unframing, limits), dispatch to the worker pool,
 * and responses (data + trailers, or Trailers-Only for errors).
 *
 * Threading: everything here runs on the server's I/O thread, except that a dispatched
 * call's `cancelled` flag is read by its worker.
 */
#define _GNU_SOURCE /* strndup */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "grpc_wire.h"
#include "rpc_internal.h"
#include "util/util_export.h"

/* Stream windows large enough that a 256 MiB request is not throttled by round trips on
 * a fast link; the connection window covers several such requests at once. */
#define RPC_STREAM_WINDOW (16 << 20)
#define RPC_CONN_WINDOW (1 << 30)
#define RPC_MAX_FRAME (1 << 20)
#define RPC_READ_CHUNK (64 << 10)
/* Reads per readiness event, so one client pushing 256 MiB cannot starve the others. */
#define RPC_READS_PER_EVENT 16

#define NV(n, v)                                                                           \
    {(uint8_t *)(n), (uint8_t *)(v), sizeof(n) - 1, strlen(v), NGHTTP2_NV_FLAG_NONE}

static void stream_detach_call(rpc_stream *s)
{
    if (s->call) {
        atomic_store(&s->call->cancelled, 1);
        s->call->stream = NULL;
        s->call = NULL;
    }
}

/* Every refusal is logged: an operator must be able to tell why a client was turned
 * away. Deadlines and a stop are the client's or the operator's doing, not refusals. */
static void log_refusal(rpc_stream *s, int code, const char *what)
{
    int quiet = code == GRPC_DEADLINE_EXCEEDED || code == GRPC_CANCELLED ||
                (code == GRPC_UNAVAILABLE && s->conn->srv->stopping);
    rpc_log(s->conn->srv, quiet ? 2 : 1, "%s %s from %s: %s%s%s",
            quiet ? "ended" : "refused", s->path ? s->path : "(no path)", s->conn->peer.desc,
            code >= 0 ? grpc_status_name(code) : "HTTP", what ? ": " : "", what ? what : "");
}

/* A Trailers-Only response (HEADERS with END_STREAM) carrying a gRPC error. */
static void respond_error(rpc_stream *s, int code, const char *msg)
{
    if (s->state == RPC_ST_DONE)
        return;
    log_refusal(s, code, msg);
    stream_detach_call(s);
    s->state = RPC_ST_DONE;
    char codebuf[12];
    snprintf(codebuf, sizeof codebuf, "%d", code);
    /* grpc-message is the percent-encoding of UTF-8 text (the gRPC HTTP/2 spec); the
     * message may quote request bytes or have been cut in the middle of a character. */
    char *text = msg ? strdup(msg) : NULL;
    if (text)
        cuzk_utf8_scrub(text);
    char *enc = text ? grpc_message_encode(text) : NULL;
    free(text);
    nghttp2_nv nva[4] = {NV(":status", "200"), NV("content-type", "application/grpc"),
                         NV("grpc-status", codebuf)};
    size_t n = 3;
    if (enc) {
        nghttp2_nv m = NV("grpc-message", enc);
        nva[n++] = m;
    }
    nghttp2_submit_response(s->conn->sess, s->id, nva, n, NULL);
    free(enc);
}

static void respond_http(rpc_stream *s, const char *status)
{
    log_refusal(s, -1, status);
    stream_detach_call(s);
    s->state = RPC_ST_DONE;
    nghttp2_nv nva[] = {NV(":status", status)};
    nghttp2_submit_response(s->conn->sess, s->id, nva, 1, NULL);
}

static ssize_t read_reply(nghttp2_session *sess, int32_t id, uint8_t *buf, size_t length,
                          uint32_t *flags, nghttp2_data_source *src, void *user)
{
    rpc_stream *s = src->ptr;
    size_t total = GRPC_FRAME_HEADER + s->out_len, n = 0;
    while (n < length && s->out_off < total) {
        size_t chunk;
        if (s->out_off < GRPC_FRAME_HEADER) {
            chunk = GRPC_FRAME_HEADER - s->out_off;
            if (chunk > length - n)
                chunk = length - n;
            memcpy(buf + n, s->out_hdr + s->out_off, chunk);
        } else {
            size_t off = s->out_off - GRPC_FRAME_HEADER;
            chunk = s->out_len - off;
            if (chunk > length - n)
                chunk = length - n;
            memcpy(buf + n, s->out_body + off, chunk);
        }
        n += chunk;
        s->out_off += chunk;
    }
    if (s->out_off == total) {
        *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
        nghttp2_nv tr[] = {NV("grpc-status", "0")};
        if (nghttp2_submit_trailer(sess, id, tr, 1) != 0)
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    }
    return (ssize_t)n;
}

static void respond_ok(rpc_stream *s, uint8_t *body, size_t len)
{
    s->state = RPC_ST_DONE;
    s->out_body = body;
    s->out_len = len;
    s->out_off = 0;
    grpc_frame_header_put(s->out_hdr, 0, (uint32_t)len);
    nghttp2_nv nva[] = {NV(":status", "200"), NV("content-type", "application/grpc")};
    nghttp2_data_provider prd = {.source.ptr = s, .read_callback = read_reply};
    if (nghttp2_submit_response(s->conn->sess, s->id, nva, 2, &prd) != 0)
        nghttp2_submit_rst_stream(s->conn->sess, NGHTTP2_FLAG_NONE, s->id,
                                  NGHTTP2_INTERNAL_ERROR);
}

void rpc_conn_complete(rpc_call *call)
{
    rpc_stream *s = call->stream;
    if (!s || s->state != RPC_ST_DISPATCHED)
        return;
    s->call = NULL;
    call->stream = NULL;
    rpc_reply *r = &call->reply;
    if (r->code != GRPC_OK && call->deadline_ns != INT64_MAX &&
        call->deadline_ns <= grpc_now_ns()) {
        /* The handler gave up because the deadline passed (it sees that as cancelled)
         * before this thread got round to saying so itself. */
        respond_error(s, GRPC_DEADLINE_EXCEEDED, "deadline exceeded");
    } else if (r->code == GRPC_OK && r->len > s->conn->srv->opts.max_message) {
        respond_error(s, GRPC_RESOURCE_EXHAUSTED, "response larger than the message limit");
    } else if (r->code == GRPC_OK) {
        respond_ok(s, r->body, r->len);
        r->body = NULL;
    } else {
        respond_error(s, r->code, r->message ? r->message : grpc_status_name(r->code));
    }
}

static const rpc_method *find_method(rpc_server *srv, const char *path)
{
    for (size_t i = 0; i < srv->nmethods; i++)
        if (strcmp(srv->methods[i].path, path) == 0)
            return &srv->methods[i];
    return NULL;
}

/* Request headers complete: refuse what cannot be served before buffering any body. */
static void on_request_headers(rpc_stream *s)
{
    rpc_server *srv = s->conn->srv;
    if (srv->stopping) {
        respond_error(s, GRPC_UNAVAILABLE, "server is shutting down");
        return;
    }
    if (!s->is_post) {
        respond_http(s, "405");
        return;
    }
    if (!s->content_type_ok) {
        respond_http(s, "415");
        return;
    }
    if (srv->opts.auth_token && !s->conn->peer.is_unix && !s->auth_ok) {
        respond_error(s, GRPC_UNAUTHENTICATED,
                      "this TCP listener needs the shared token: send the metadata "
                      "'authorization: Bearer <token>' (daemon.auth_token)");
        return;
    }
    if (!s->path || !find_method(srv, s->path)) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown method %.120s", s->path ? s->path : "(none)");
        respond_error(s, GRPC_UNIMPLEMENTED, msg);
        return;
    }
    if (s->deadline_ns != INT64_MAX && s->deadline_ns <= grpc_now_ns())
        respond_error(s, GRPC_DEADLINE_EXCEEDED, "deadline exceeded");
}

static void on_request_end(rpc_stream *s)
{
    if (s->state != RPC_ST_RECV)
        return;
    if (s->hdr_got != 0) {
        respond_error(s, GRPC_INTERNAL, "request ends inside a message");
        return;
    }
    if (s->nmsgs != 1) {
        respond_error(s, GRPC_INTERNAL,
                      s->nmsgs ? "more than one request message in a unary call"
                               : "no request message");
        return;
    }
    rpc_call *call = calloc(1, sizeof *call);
    if (!call) {
        respond_error(s, GRPC_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    if (rpc_peer_copy(&call->peer, &s->conn->peer) != 0) {
        free(call);
        respond_error(s, GRPC_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    call->srv = s->conn->srv;
    call->deadline_ns = s->deadline_ns;
    call->method = find_method(s->conn->srv, s->path);
    call->req = s->body;
    call->req_len = s->body_got;
    atomic_fetch_add(&call->srv->req_bytes, call->req_len);
    s->body = NULL;
    s->body_cap = s->body_got = 0;
    call->stream = s;
    s->call = call;
    s->state = RPC_ST_DISPATCHED;
    rpc_workers_submit(s->conn->srv, call);
}

static int on_begin_headers(nghttp2_session *sess, const nghttp2_frame *f, void *user)
{
    rpc_conn *c = user;
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0;
    rpc_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets just this stream */
    s->id = f->hd.stream_id;
    s->conn = c;
    s->deadline_ns = INT64_MAX;
    s->next = c->streams;
    if (c->streams)
        c->streams->prev = s;
    c->streams = s;
    atomic_fetch_add(&c->srv->n_streams, 1);
    nghttp2_session_set_stream_user_data(sess, s->id, s);
    return 0;
}

static int header_is(const uint8_t *name, size_t len, const char *lit)
{
    return len == strlen(lit) && memcmp(name, lit, len) == 0;
}

/* "Bearer <token>", compared in time independent of where a guess goes wrong. */
static int token_matches(const char *token, const uint8_t *value, size_t len)
{
    static const char scheme[] = "Bearer ";
    size_t sl = sizeof scheme - 1, tl = strlen(token);
    if (len != sl + tl || strncasecmp((const char *)value, scheme, sl) != 0)
        return 0;
    unsigned diff = 0;
    for (size_t i = 0; i < tl; i++)
        diff |= (unsigned)(value[sl + i] ^ (uint8_t)token[i]);
    return diff == 0;
}

static int on_header(nghttp2_session *sess, const nghttp2_frame *f, const uint8_t *name,
                     size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags,
                     void *user)
{
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0; /* client trailers carry nothing we use */
    rpc_stream *s = nghttp2_session_get_stream_user_data(sess, f->hd.stream_id);
    if (!s)
        return 0;
    if (header_is(name, namelen, ":path")) {
        free(s->path);
        s->path = strndup((const char *)value, valuelen);
    } else if (header_is(name, namelen, ":method")) {
        s->is_post = valuelen == 4 && memcmp(value, "POST", 4) == 0;
    } else if (header_is(name, namelen, "content-type")) {
        /* application/grpc, application/grpc+proto, application/grpc;charset=... */
        static const char ct[] = "application/grpc";
        size_t l = sizeof ct - 1;
        s->content_type_ok = valuelen >= l && memcmp(value, ct, l) == 0 &&
                             (valuelen == l || value[l] == '+' || value[l] == ';');
    } else if (header_is(name, namelen, "authorization")) {
        const char *token = s->conn->srv->opts.auth_token;
        s->auth_ok = token && token_matches(token, value, valuelen);
    } else if (header_is(name, namelen, "grpc-timeout")) {
        int64_t ns;
        if (grpc_timeout_parse((const char *)value, valuelen, &ns) == 0) {
            int64_t now = grpc_now_ns();
            s->deadline_ns = ns > INT64_MAX - now ? INT64_MAX : now + ns;
        }
    }
    return 0;
}

/* Appends request bytes: the 5-byte header, then the message body, for each message. */
static void take_data(rpc_stream *s, const uint8_t *p, size_t len)
{
    size_t max = s->conn->srv->opts.max_message;
    while (len && s->state == RPC_ST_RECV) {
        if (s->hdr_got < GRPC_FRAME_HEADER) {
            size_t k = GRPC_FRAME_HEADER - s->hdr_got;
            if (k > len)
                k = len;
            memcpy(s->hdr + s->hdr_got, p, k);
            s->hdr_got += k;
            p += k;
            len -= k;
            if (s->hdr_got < GRPC_FRAME_HEADER)
                return;
            s->msg_len = (uint32_t)s->hdr[1] << 24 | (uint32_t)s->hdr[2] << 16 |
                         (uint32_t)s->hdr[3] << 8 | s->hdr[4];
            if (s->hdr[0] > 1) {
                respond_error(s, GRPC_INTERNAL, "bad message compression flag");
                return;
            }
            if (s->hdr[0] == 1) {
                respond_error(s, GRPC_UNIMPLEMENTED, "compressed messages are not supported");
                return;
            }
            if (s->nmsgs > 0) {
                respond_error(s, GRPC_INTERNAL, "more than one request message in a unary call");
                return;
            }
            if (s->msg_len > max) {
                char msg[128];
                snprintf(msg, sizeof msg,
                         "request message of %u bytes exceeds the limit of %zu bytes",
                         s->msg_len, max);
                respond_error(s, GRPC_RESOURCE_EXHAUSTED, msg);
                return;
            }
        }
        size_t want = s->msg_len - s->body_got;
        size_t k = want < len ? want : len;
        if (s->body_got + k > s->body_cap) {
            /* Grow with the data actually received, never by the declared length alone. */
            size_t cap = s->body_cap ? s->body_cap * 2 : 64 << 10;
            if (cap < s->body_got + k)
                cap = s->body_got + k;
            if (cap > s->msg_len)
                cap = s->msg_len;
            uint8_t *nb = realloc(s->body, cap);
            if (!nb) {
                respond_error(s, GRPC_RESOURCE_EXHAUSTED, "out of memory for the request");
                return;
            }
            s->body = nb;
            s->body_cap = cap;
        }
        if (k)
            memcpy(s->body + s->body_got, p, k);
        s->body_got += k;
        p += k;
        len -= k;
        if (s->body_got == s->msg_len) {
            s->nmsgs++;
            s->hdr_got = 0;
        }
    }
}

static int on_data_chunk(nghttp2_session *sess, uint8_t flags, int32_t id,
                         const uint8_t *data, size_t len, void *user)
{
    rpc_stream *s = nghttp2_session_get_stream_user_data(sess, id);
    if (s && s->state == RPC_ST_RECV)
        take_data(s, data, len);
    return 0;
}

static int on_frame_recv(nghttp2_session *sess, const nghttp2_frame *f, void *user)
{
    if (f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA)
        return 0;
    rpc_stream *s = nghttp2_session_get_stream_user_data(sess, f->hd.stream_id);
    if (!s)
        return 0;
    if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST &&
        s->state == RPC_ST_RECV)
        on_request_headers(s);
    if (f->hd.flags & NGHTTP2_FLAG_END_STREAM)
        on_request_end(s);
    return 0;
}

/* After our END_STREAM on a stream the client is still sending on (an early error),
 * RST_STREAM(NO_ERROR) tells it to stop, as the gRPC HTTP/2 spec asks. */
static int on_frame_send(nghttp2_session *sess, const nghttp2_frame *f, void *user)
{
    if ((f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA) &&
        (f->hd.flags & NGHTTP2_FLAG_END_STREAM) &&
        nghttp2_session_get_stream_remote_close(sess, f->hd.stream_id) == 0)
        nghttp2_submit_rst_stream(sess, NGHTTP2_FLAG_NONE, f->hd.stream_id,
                                  NGHTTP2_NO_ERROR);
    return 0;
}

static void stream_free(rpc_conn *c, rpc_stream *s)
{
    stream_detach_call(s);
    if (s->prev)
        s->prev->next = s->next;
    else
        c->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    free(s->path);
    free(s->body);
    free(s->out_body);
    free(s);
    atomic_fetch_sub(&c->srv->n_streams, 1);
}

static int on_stream_close(nghttp2_session *sess, int32_t id, uint32_t code, void *user)
{
    rpc_stream *s = nghttp2_session_get_stream_user_data(sess, id);
    if (s) {
        nghttp2_session_set_stream_user_data(sess, id, NULL);
        stream_free(user, s); /* a running handler sees its call cancelled */
    }
    return 0;
}

static ssize_t on_send(nghttp2_session *sess, const uint8_t *data, size_t len, int flags,
                       void *user)
{
    rpc_conn *c = user;
    ssize_t n = send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
                   ? NGHTTP2_ERR_WOULDBLOCK
                   : NGHTTP2_ERR_CALLBACK_FAILURE;
    return n;
}

rpc_conn *rpc_conn_new(rpc_server *srv, int fd, rpc_peer *peer)
{
    rpc_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = RPC_EV_CONN;
    c->fd = fd;
    c->srv = srv;
    nghttp2_session_callbacks *cb;
    if (nghttp2_session_callbacks_new(&cb) != 0) {
        free(c);
        return NULL;
    }
    nghttp2_session_callbacks_set_send_callback(cb, on_send);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
    int rc = nghttp2_session_server_new(&c->sess, cb, c);
    nghttp2_session_callbacks_del(cb);
    if (rc != 0) {
        free(c);
        return NULL;
    }
    nghttp2_settings_entry iv[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, srv->opts.max_streams},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, RPC_STREAM_WINDOW},
        {NGHTTP2_SETTINGS_MAX_FRAME_SIZE, RPC_MAX_FRAME},
    };
    if (nghttp2_submit_settings(c->sess, NGHTTP2_FLAG_NONE, iv, 3) != 0 ||
        nghttp2_session_set_local_window_size(c->sess, NGHTTP2_FLAG_NONE, 0,
                                              RPC_CONN_WINDOW) != 0) {
        nghttp2_session_del(c->sess);
        free(c);
        return NULL;
    }
    c->last_recv_ns = grpc_now_ns();
    c->peer = *peer; /* moved: the caller's copy no longer owns the groups */
    memset(peer, 0, sizeof *peer);
    return c;
}

void rpc_conn_on_readable(rpc_conn *c)
{
    uint8_t buf[RPC_READ_CHUNK];
    for (int i = 0; i < RPC_READS_PER_EVENT && !c->dead; i++) {
        ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n == 0) {
            c->dead = 1;
            return;
        }
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                c->dead = 1;
            return;
        }
        /* Any byte from the peer shows it is there: a PING's ACK, or a request. */
        c->last_recv_ns = grpc_now_ns();
        c->ping_sent_ns = 0;
        ssize_t rc = nghttp2_session_mem_recv(c->sess, buf, (size_t)n);
        if (rc < 0) {
            /* Not HTTP/2 (garbage, an HTTP/1 request) or a protocol error: nghttp2 has
             * queued a GOAWAY where it could; flush it and drop the connection. */
            rpc_log(c->srv, 1, "connection from %s dropped: %s (not HTTP/2, or a protocol "
                    "error)", c->peer.desc, nghttp2_strerror((int)rc));
            rpc_conn_flush(c);
            c->dead = 1;
        }
    }
}

void rpc_conn_flush(rpc_conn *c)
{
    if (!c->dead && nghttp2_session_send(c->sess) != 0)
        c->dead = 1;
}

int rpc_conn_done(rpc_conn *c)
{
    return c->dead ||
           (!nghttp2_session_want_read(c->sess) && !nghttp2_session_want_write(c->sess));
}

void rpc_conn_free(rpc_conn *c)
{
    while (c->streams) {
        nghttp2_session_set_stream_user_data(c->sess, c->streams->id, NULL);
        stream_free(c, c->streams);
    }
    nghttp2_session_del(c->sess);
    close(c->fd);
    rpc_peer_clear(&c->peer);
    free(c);
}

void rpc_conn_check_deadlines(rpc_conn *c, int64_t now, int64_t *next)
{
    for (rpc_stream *s = c->streams; s; s = s->next) {
        if (s->state == RPC_ST_DONE || s->deadline_ns == INT64_MAX)
            continue;
        if (s->deadline_ns <= now)
            respond_error(s, GRPC_DEADLINE_EXCEEDED, "deadline exceeded");
        else if (s->deadline_ns < *next)
            *next = s->deadline_ns;
    }
}

void rpc_conn_check_keepalive(rpc_conn *c, int64_t now, int64_t *next)
{
    rpc_server *srv = c->srv;
    if (srv->opts.keepalive_ms < 0 || c->dead)
        return;
    int64_t every = srv->opts.keepalive_ms * 1000000;
    int64_t grace = srv->opts.keepalive_timeout_ms * 1000000;
    int64_t due;
    if (c->ping_sent_ns) {
        if (now - c->ping_sent_ns >= grace) {
            rpc_log(srv, 1, "connection from %s closed: no answer to a keepalive PING in %lld ms",
                    c->peer.desc, (long long)srv->opts.keepalive_timeout_ms);
            c->dead = 1;
            *next = now; /* the loop closes dead connections after its wait: no wait */
            return;
        }
        due = c->ping_sent_ns + grace;
    } else if (now - c->last_recv_ns >= every) {
        if (nghttp2_submit_ping(c->sess, NGHTTP2_FLAG_NONE, NULL) == 0) {
            c->ping_sent_ns = now;
            atomic_fetch_add(&srv->pings_total, 1);
            rpc_conn_flush(c); /* now, not after the loop's next wait */
        }
        due = now + grace;
    } else {
        due = c->last_recv_ns + every;
    }
    if (due < *next)
        *next = due;
}

void rpc_conn_shutdown(rpc_conn *c)
{
    nghttp2_submit_goaway(c->sess, NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(c->sess), NGHTTP2_NO_ERROR,
                          NULL, 0);
    for (rpc_stream *s = c->streams; s; s = s->next)
        if (s->state != RPC_ST_DONE)
            respond_error(s, GRPC_UNAVAILABLE, "server is shutting down");
}
