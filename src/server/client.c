/*
 * client.c — the blocking gRPC client (cuzk/client.h): one nghttp2 client session over a
 * socket, one unary call at a time, driven by poll() until the stream closes.
 *
 * Threading: a client belongs to one thread at a time; no global state.
 */
#define _GNU_SOURCE /* strndup */

#include <errno.h>
#include <fcntl.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "grpc_wire.h"
#include "client_raw.h"

#define CLIENT_STREAM_WINDOW (16 << 20)
#define CLIENT_CONN_WINDOW (1 << 30)

struct cuzk_client {
    int fd;
    int dead;
    char *authorization; /* "Bearer <token>", sent with every call; NULL = none */
    nghttp2_session *sess;
    /* the call in progress */
    int32_t stream_id;
    int closed;
    const cuzk_client_raw *req;
    size_t sent;
    cuzk_client_reply *reply;
    int have_status;
    uint8_t hdr[5];
    size_t hdr_got;
    uint32_t msg_len;
    size_t body_got;
    int nmsgs;
    const char *proto_error; /* a protocol violation by the server */
};

const char *cuzk_grpc_status_name(int code)
{
    return grpc_status_name(code);
}

static ssize_t on_send(nghttp2_session *s, const uint8_t *data, size_t len, int flags,
                       void *user)
{
    cuzk_client *c = user;
    ssize_t n = send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
                   ? NGHTTP2_ERR_WOULDBLOCK
                   : NGHTTP2_ERR_CALLBACK_FAILURE;
    return n;
}

static int on_header(nghttp2_session *s, const nghttp2_frame *f, const uint8_t *name,
                     size_t nl, const uint8_t *value, size_t vl, uint8_t flags, void *user)
{
    cuzk_client *c = user;
    if (f->hd.stream_id != c->stream_id || !c->reply)
        return 0;
    if (nl == 7 && memcmp(name, ":status", 7) == 0) {
        c->reply->http_status = atoi((const char *)value);
    } else if (nl == 11 && memcmp(name, "grpc-status", 11) == 0) {
        c->reply->grpc_status = atoi((const char *)value);
        c->have_status = 1;
    } else if (nl == 12 && memcmp(name, "grpc-message", 12) == 0) {
        free(c->reply->grpc_message);
        c->reply->grpc_message = grpc_message_decode((const char *)value, vl);
    }
    return 0;
}

static int on_data(nghttp2_session *s, uint8_t flags, int32_t id, const uint8_t *p,
                   size_t len, void *user)
{
    cuzk_client *c = user;
    if (id != c->stream_id || c->proto_error)
        return 0;
    cuzk_client_reply *r = c->reply;
    while (len) {
        if (c->hdr_got < 5) {
            size_t k = 5 - c->hdr_got < len ? 5 - c->hdr_got : len;
            memcpy(c->hdr + c->hdr_got, p, k);
            c->hdr_got += k;
            p += k;
            len -= k;
            if (c->hdr_got < 5)
                return 0;
            c->msg_len = (uint32_t)c->hdr[1] << 24 | (uint32_t)c->hdr[2] << 16 |
                         (uint32_t)c->hdr[3] << 8 | c->hdr[4];
            if (c->hdr[0] != 0 || c->nmsgs > 0 || c->msg_len > GRPC_DEFAULT_MAX_MESSAGE) {
                c->proto_error = c->hdr[0] ? "compressed response message"
                                 : c->nmsgs ? "more than one response message"
                                            : "response message over 256 MiB";
                return 0;
            }
            free(r->body);
            r->body = malloc(c->msg_len ? c->msg_len : 1);
            if (!r->body) {
                c->proto_error = "out of memory for the response";
                return 0;
            }
            c->body_got = 0;
        }
        size_t k = c->msg_len - c->body_got < len ? c->msg_len - c->body_got : len;
        memcpy(r->body + c->body_got, p, k);
        c->body_got += k;
        p += k;
        len -= k;
        if (c->body_got == c->msg_len) {
            r->len = c->msg_len;
            c->nmsgs++;
            c->hdr_got = 0;
        }
    }
    return 0;
}

static int on_close(nghttp2_session *s, int32_t id, uint32_t code, void *user)
{
    cuzk_client *c = user;
    if (id == c->stream_id)
        c->closed = 1;
    return 0;
}

static ssize_t read_req(nghttp2_session *s, int32_t id, uint8_t *buf, size_t length,
                        uint32_t *flags, nghttp2_data_source *src, void *user)
{
    cuzk_client *c = user;
    const cuzk_client_raw *q = c->req;
    size_t total = q->prefix_len + q->body_len, n = 0;
    while (n < length && c->sent < total) {
        size_t k;
        if (c->sent < q->prefix_len) {
            k = q->prefix_len - c->sent;
            if (k > length - n)
                k = length - n;
            memcpy(buf + n, q->prefix + c->sent, k);
        } else {
            size_t off = c->sent - q->prefix_len;
            k = q->body_len - off;
            if (k > length - n)
                k = length - n;
            memcpy(buf + n, q->body + off, k);
        }
        n += k;
        c->sent += k;
    }
    if (c->sent == total)
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

cuzk_status cuzk_client_connect(const char *addr, cuzk_client **out, cuzk_error *err)
{
    if (!addr || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_client_connect: NULL argument");
    *out = NULL;
    int fd;
    cuzk_status st = grpc_connect(addr, &fd, err);
    if (st != CUZK_OK)
        return st;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    cuzk_client *c = calloc(1, sizeof *c);
    nghttp2_session_callbacks *cb = NULL;
    if (!c || nghttp2_session_callbacks_new(&cb) != 0) {
        free(c);
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    c->fd = fd;
    nghttp2_session_callbacks_set_send_callback(cb, on_send);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_close);
    int rc = nghttp2_session_client_new(&c->sess, cb, c);
    nghttp2_session_callbacks_del(cb);
    nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, CLIENT_STREAM_WINDOW},
                                   {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    if (rc != 0 || nghttp2_submit_settings(c->sess, NGHTTP2_FLAG_NONE, iv, 2) != 0 ||
        nghttp2_session_set_local_window_size(c->sess, NGHTTP2_FLAG_NONE, 0,
                                              CLIENT_CONN_WINDOW) != 0) {
        cuzk_client_close(c);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "nghttp2 session setup failed");
    }
    *out = c;
    return CUZK_OK;
}

cuzk_status cuzk_client_set_token(cuzk_client *c, const char *token, cuzk_error *err)
{
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_client_set_token: NULL client");
    free(c->authorization);
    c->authorization = NULL;
    if (!token || !token[0])
        return CUZK_OK;
    for (const char *p = token; *p; p++)
        if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "the token must be printable ASCII without spaces");
    size_t n = strlen(token) + sizeof "Bearer ";
    if (!(c->authorization = malloc(n)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    snprintf(c->authorization, n, "Bearer %s", token);
    return CUZK_OK;
}

void cuzk_client_close(cuzk_client *c)
{
    if (!c)
        return;
    free(c->authorization);
    if (c->sess)
        nghttp2_session_del(c->sess);
    if (c->fd >= 0)
        close(c->fd);
    free(c);
}

void cuzk_client_reply_free(cuzk_client_reply *r)
{
    if (!r)
        return;
    free(r->body);
    free(r->grpc_message);
    memset(r, 0, sizeof *r);
}

/* One poll round: send what is queued, wait up to timeout_ms, read what arrived. */
static cuzk_status pump(cuzk_client *c, int timeout_ms, cuzk_error *err)
{
    if (nghttp2_session_send(c->sess) != 0) {
        c->dead = 1;
        return cuzk_error_set(err, CUZK_ERR_IO, "connection lost while sending");
    }
    struct pollfd pfd = {.fd = c->fd,
                         .events = POLLIN | (nghttp2_session_want_write(c->sess) ? POLLOUT : 0)};
    int n = poll(&pfd, 1, timeout_ms);
    if (n < 0 && errno != EINTR) {
        c->dead = 1;
        return cuzk_error_set(err, CUZK_ERR_IO, "poll: %s", strerror(errno));
    }
    if (n <= 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
        return CUZK_OK;
    uint8_t buf[64 << 10];
    for (;;) {
        ssize_t r = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            /* A server that answers and then closes (a stop) has delivered the call. */
            c->dead = 1;
            if (c->closed)
                return CUZK_OK;
            return cuzk_error_set(err, CUZK_ERR_IO, "connection closed by the server");
        }
        if (r < 0)
            return CUZK_OK;
        if (nghttp2_session_mem_recv(c->sess, buf, (size_t)r) < 0) {
            c->dead = 1;
            return cuzk_error_set(err, CUZK_ERR_IO, "HTTP/2 protocol error from the server");
        }
    }
}

cuzk_status cuzk_client_call_raw(cuzk_client *c, const cuzk_client_raw *q,
                                 cuzk_client_reply *reply, cuzk_error *err)
{
    if (!c || !q || !q->path || !reply)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_client_call: NULL argument");
    memset(reply, 0, sizeof *reply);
    if (c->dead)
        return cuzk_error_set(err, CUZK_ERR_IO, "connection already closed");
    char tmo[16] = "";
    if (q->grpc_timeout_ms > 0)
        grpc_timeout_format(q->grpc_timeout_ms * 1000000, tmo);
    const char *ct = q->content_type ? q->content_type : "application/grpc";
#define CNV(n, v) {(uint8_t *)(n), (uint8_t *)(v), strlen(n), strlen(v), NGHTTP2_NV_FLAG_NONE}
    nghttp2_nv nva[9] = {CNV(":method", "POST"), CNV(":scheme", "http"),
                         CNV(":path", q->path), CNV(":authority", "localhost"),
                         CNV("content-type", ct), CNV("te", "trailers"),
                         CNV("user-agent", "cuzk-client")};
    size_t nnv = 7;
    if (tmo[0]) {
        nghttp2_nv t = CNV("grpc-timeout", tmo);
        nva[nnv++] = t;
    }
    if (c->authorization) {
        /* NO_INDEX: the secret stays out of the HPACK dynamic table */
        nghttp2_nv a = {(uint8_t *)"authorization", (uint8_t *)c->authorization, 13,
                        strlen(c->authorization), NGHTTP2_NV_FLAG_NO_INDEX};
        nva[nnv++] = a;
    }
#undef CNV
    c->req = q;
    c->sent = 0;
    c->reply = reply;
    c->closed = c->have_status = 0;
    c->hdr_got = c->body_got = 0;
    c->nmsgs = 0;
    c->proto_error = NULL;
    nghttp2_data_provider prd = {.read_callback = read_req};
    c->stream_id = nghttp2_submit_request(c->sess, NULL, nva, nnv, &prd, NULL);
    if (c->stream_id < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot start a stream: %s",
                              nghttp2_strerror(c->stream_id));
    int64_t limit = q->local_timeout_ms > 0 ? grpc_now_ns() + q->local_timeout_ms * 1000000
                                            : INT64_MAX;
    cuzk_status st = CUZK_OK;
    while (!c->closed) {
        int64_t left = limit == INT64_MAX ? 1000 : (limit - grpc_now_ns()) / 1000000;
        if (left <= 0) {
            if (q->drop_connection) {
                c->dead = 1;
                shutdown(c->fd, SHUT_RDWR);
            } else {
                nghttp2_submit_rst_stream(c->sess, NGHTTP2_FLAG_NONE, c->stream_id,
                                          NGHTTP2_CANCEL);
                nghttp2_session_send(c->sess);
            }
            cuzk_client_reply_free(reply);
            reply->grpc_status = GRPC_DEADLINE_EXCEEDED;
            reply->grpc_message = strdup("local deadline passed");
            break;
        }
        st = pump(c, left > 1000 ? 1000 : (int)left, err);
        if (st != CUZK_OK)
            break;
    }
    c->req = NULL;
    c->reply = NULL;
    if (st != CUZK_OK) {
        cuzk_client_reply_free(reply);
        return st;
    }
    if (reply->grpc_status == GRPC_DEADLINE_EXCEEDED && !c->have_status)
        return CUZK_OK;
    if (c->proto_error || c->hdr_got) {
        const char *why = c->proto_error ? c->proto_error : "response ends inside a message";
        cuzk_client_reply_free(reply);
        reply->grpc_status = GRPC_INTERNAL;
        reply->grpc_message = strdup(why);
    } else if (!c->have_status) {
        /* gRPC's mapping of HTTP statuses for answers that are not gRPC at all. */
        int h = reply->http_status;
        reply->grpc_status = h == 400 ? GRPC_INTERNAL
                             : h == 404 ? GRPC_UNIMPLEMENTED
                             : (h == 429 || h == 502 || h == 503 || h == 504) ? GRPC_UNAVAILABLE
                                                                              : GRPC_UNKNOWN;
        if (!reply->grpc_message) {
            char m[64];
            snprintf(m, sizeof m, "HTTP status %d without grpc-status", h);
            reply->grpc_message = strdup(m);
        }
    } else if (reply->grpc_status == GRPC_OK && c->nmsgs != 1) {
        reply->grpc_status = GRPC_INTERNAL;
        reply->grpc_message = strdup("OK without a response message");
    }
    if (reply->grpc_status != GRPC_OK) {
        free(reply->body);
        reply->body = NULL;
        reply->len = 0;
    }
    return CUZK_OK;
}

cuzk_status cuzk_client_call(cuzk_client *c, const char *method, const uint8_t *req,
                             size_t len, int64_t timeout_ms, cuzk_client_reply *reply,
                             cuzk_error *err)
{
    if (!c || !method || (!req && len) || !reply)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_client_call: NULL argument");
    if (len > GRPC_DEFAULT_MAX_MESSAGE)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "request of %zu bytes exceeds the 256 MiB message limit", len);
    char path[160];
    if (method[0] == '/')
        snprintf(path, sizeof path, "%s", method);
    else
        snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
    uint8_t hdr[5];
    grpc_frame_header_put(hdr, 0, (uint32_t)len);
    cuzk_client_raw q = {.path = path, .prefix = hdr, .prefix_len = 5, .body = req,
                         .body_len = len, .grpc_timeout_ms = timeout_ms,
                         /* a little slack so the server's DEADLINE_EXCEEDED arrives first */
                         .local_timeout_ms = timeout_ms > 0 ? timeout_ms + 1000 : 0};
    return cuzk_client_call_raw(c, &q, reply, err);
}
