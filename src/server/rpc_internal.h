/*
 * rpc_internal.h — the rpc server's objects, shared by its three files:
 *   rpc_server.c   the I/O thread's loop: listeners, epoll, completions, deadlines, stop
 *   rpc_conn.c     one HTTP/2 connection: the nghttp2 session and its streams
 *   rpc_workers.c  the worker pool that runs handlers
 *   rpc_peer.c     who a connection's peer is, and its socket options
 *
 * Ownership: a connection and its streams belong to the I/O thread. A call is created by
 * the I/O thread when a request is complete, handed to the pool, and comes back through
 * the completion queue; only then (on the I/O thread) is it freed. While the handler
 * runs the call may be detached from its stream (reset, deadline, disconnect, stop):
 * call->stream is NULL and call->cancelled is set; its reply is then dropped.
 */
#ifndef CUZK_RPC_INTERNAL_H
#define CUZK_RPC_INTERNAL_H

#include <nghttp2/nghttp2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rpc.h"

enum { RPC_EV_LISTENER = 1, RPC_EV_WAKE = 2, RPC_EV_CONN = 3 };

typedef struct rpc_stream rpc_stream;
typedef struct rpc_conn rpc_conn;

struct rpc_call {
    atomic_int cancelled;
    rpc_server *srv;
    int64_t deadline_ns; /* INT64_MAX: none */
    const rpc_method *method;
    uint8_t *req;
    size_t req_len;
    rpc_reply reply;
    rpc_peer peer;      /* a copy of the connection's (groups malloc'd) */
    rpc_stream *stream; /* I/O thread only */
    rpc_call *next;     /* pool queue, then completion queue */
};

typedef enum {
    RPC_ST_RECV,       /* reading the request */
    RPC_ST_DISPATCHED, /* handler owns the call */
    RPC_ST_DONE        /* a response has been submitted */
} rpc_stream_state;

struct rpc_stream {
    int32_t id;
    rpc_conn *conn;
    rpc_stream *prev, *next;
    rpc_stream_state state;
    char *path;
    int is_post;
    int content_type_ok;
    int64_t deadline_ns;
    uint8_t hdr[5];
    size_t hdr_got;
    uint32_t msg_len;
    int nmsgs;       /* complete messages received */
    int auth_ok;     /* an authorization header matched the token */
    uint8_t *body;
    size_t body_cap, body_got;
    rpc_call *call;
    /* Reply: the 5-byte frame header then out_body, sent by the data provider. */
    uint8_t out_hdr[5];
    uint8_t *out_body;
    size_t out_len, out_off;
};

struct rpc_conn {
    int kind; /* RPC_EV_CONN; first, so epoll's data.ptr can be told apart */
    int fd;
    uint32_t ev_mask;
    int dead;
    nghttp2_session *sess;
    rpc_server *srv;
    rpc_peer peer;
    int64_t last_recv_ns; /* the peer last sent a byte */
    int64_t ping_sent_ns; /* a keepalive PING awaits an answer since; 0 = none */
    rpc_conn *prev, *next;
    rpc_stream *streams;
};

typedef struct rpc_listener {
    int kind; /* RPC_EV_LISTENER */
    int fd;
    int is_unix;
    char *unix_path; /* to unlink on destroy */
} rpc_listener;

#define RPC_MAX_LISTENERS 8

struct rpc_server {
    rpc_server_opts opts;
    const rpc_method *methods;
    size_t nmethods;
    void *ctx;
    int epfd;
    int wakefd;        /* eventfd: completions and stop */
    int wake_kind;     /* RPC_EV_WAKE, epoll's data.ptr for wakefd */
    rpc_listener listeners[RPC_MAX_LISTENERS];
    int nlisteners;
    rpc_conn *conns;
    atomic_int stop_requested;
    int stopping;

    /* worker pool (rpc_workers.c) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rpc_call *q_head, *q_tail;
    pthread_t *threads;
    unsigned nthreads, idle, queued;
    int pool_stop;

    /* completion queue: workers push, the I/O thread drains */
    pthread_mutex_t cmu;
    rpc_call *c_head, *c_tail;

    atomic_uint n_conns, n_streams, n_calls;
    atomic_uint_fast64_t calls_total, conns_total, pings_total;
    atomic_uint_fast64_t req_bytes; /* request bytes of calls not yet dropped */
};

/* rpc_conn.c; the peer is moved into the connection */
rpc_conn *rpc_conn_new(rpc_server *srv, int fd, rpc_peer *peer);
void rpc_conn_on_readable(rpc_conn *c);
void rpc_conn_flush(rpc_conn *c); /* nghttp2 send; marks dead on error */
int rpc_conn_done(rpc_conn *c);   /* dead, or nothing left to read or write */
void rpc_conn_free(rpc_conn *c);  /* detaches calls (cancelling them) and closes */
void rpc_conn_check_deadlines(rpc_conn *c, int64_t now, int64_t *next);
/* Sends a keepalive PING when due, marks the connection dead when one went unanswered;
 * lowers *next to when it must be looked at again. */
void rpc_conn_check_keepalive(rpc_conn *c, int64_t now, int64_t *next);
void rpc_conn_shutdown(rpc_conn *c); /* GOAWAY + UNAVAILABLE to open streams */
void rpc_conn_complete(rpc_call *call); /* on the I/O thread: send the handler's reply */

/* rpc_workers.c */
cuzk_status rpc_workers_init(rpc_server *srv);
void rpc_workers_submit(rpc_server *srv, rpc_call *call);
void rpc_workers_fini(rpc_server *srv); /* stops and joins; the queue must be empty */

/* rpc_server.c: a worker hands a finished call back to the I/O thread */
void rpc_server_push_completion(rpc_server *srv, rpc_call *call);
void rpc_call_free(rpc_call *call);
/* rpc_peer.c */
void rpc_peer_identify(rpc_peer *p, int fd, int is_unix, const struct sockaddr_storage *sa);
void rpc_peer_clear(rpc_peer *p);              /* frees groups */
/* TCP: no Nagle delay (a unary reply is one small write after the headers), keepalive
 * probes after idle_s of silence. Unix sockets: nothing. */
void rpc_socket_tune(int fd, int is_unix, int idle_s);
int rpc_peer_copy(rpc_peer *dst, const rpc_peer *src); /* 0, or -1 out of memory */

#endif
