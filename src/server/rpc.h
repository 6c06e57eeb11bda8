/*
 * rpc.h — a unary gRPC server over HTTP/2 (nghttp2), independent of what it serves.
 *
 * Model
 *   The server owns one I/O thread (the caller of rpc_server_run) that accepts
 *   connections on its listeners, runs every nghttp2 session with non-blocking sockets
 *   and epoll, frames and unframes messages, and enforces deadlines; and a pool of worker
 *   threads that run method handlers. A handler receives the request message (protobuf
 *   bytes, no framing) and fills an rpc_reply; it may block for as long as it likes (an
 *   AwaitProof waits for a proof) without holding up other streams, because only
 *   workers wait. The pool grows on demand up to max_workers; calls beyond that queue.
 *
 *   A call ends early when the client resets the stream or disconnects (CANCELLED), its
 *   grpc-timeout passes (DEADLINE_EXCEEDED), or the server stops (UNAVAILABLE): the
 *   status goes out at once and rpc_call_cancelled() turns true, so a waiting handler
 *   should poll it (rpc_call_wait_slice_ms() gives a sensible wait quantum) and return;
 *   whatever it then replies is dropped. Every buffer of the call is freed when both
 *   the I/O thread and the handler are done with it.
 *
 *   Every refusal (a gRPC error status or an HTTP error sent to a client, a connection
 *   turned away or dropped for a protocol error) is logged with the method and the peer.
 *
 * Protocol
 *   h2c with prior knowledge (what grpc-go and grpc-js use for insecure channels);
 *   POST /<package.Service>/<Method> with content-type application/grpc[+proto|;...];
 *   exactly one uncompressed Length-Prefixed-Message per request. Errors before a reply
 *   use Trailers-Only responses. Unknown method: UNIMPLEMENTED; declared message length
 *   above max_message: RESOURCE_EXHAUSTED (without buffering it); framing violations:
 *   INTERNAL; wrong content-type: HTTP 415.
 *
 * Threading: rpc_server_create/destroy from one thread; rpc_server_run on the I/O thread;
 * rpc_server_stop from any thread or from a signal handler (it is async-signal-safe).
 */
#ifndef CUZK_RPC_H
#define CUZK_RPC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cuzk/status.h"

typedef struct rpc_server rpc_server;
typedef struct rpc_call rpc_call;

/* What a handler answers. body is malloc'd (ownership passes to the server) or NULL for
 * an empty message; message (malloc'd or NULL) is sent as grpc-message when code != 0. */
typedef struct rpc_reply {
    int code;
    char *message;
    uint8_t *body;
    size_t len;
} rpc_reply;

typedef void (*rpc_handler)(void *ctx, rpc_call *call, const uint8_t *req, size_t len,
                            rpc_reply *reply);

/* A log sink: level as cuzk_log_level (0 error, 1 warn, 2 info, 3 debug); msg is one line
 * with control characters already replaced. Called from the I/O thread and workers. */
typedef void (*rpc_log_fn)(void *ctx, int level, const char *msg);

/* Who is at the other end of a connection. */
typedef struct rpc_peer {
    int is_unix;        /* a unix-socket peer */
    int has_creds;      /* uid/gid/pid/groups are the kernel's (SO_PEERCRED) */
    uid_t uid;
    gid_t gid;
    pid_t pid;
    gid_t *groups;      /* supplementary groups at connect time (SO_PEERGROUPS); malloc'd */
    size_t ngroups;
    char desc[96];      /* for logs: "unix uid 1000 pid 4242", "tcp 10.0.0.5:41872" */
} rpc_peer;

typedef struct rpc_method {
    const char *path; /* "/cuzk.v1.ProvingEngine/Prove" */
    rpc_handler fn;
} rpc_method;

typedef struct rpc_server_opts {
    size_t max_message;        /* 0 = GRPC_DEFAULT_MAX_MESSAGE (256 MiB) */
    unsigned max_workers;      /* 0 = 256 */
    unsigned max_connections;  /* 0 = 1024 */
    unsigned max_streams;      /* per connection; 0 = 128 */
    /* HTTP/2 PING on a connection that has received nothing for keepalive_ms, so a call
     * that waits half an hour for its proof is not dropped as idle by a firewall or NAT;
     * no answer within keepalive_timeout_ms closes the connection (its calls end). TCP
     * keepalive probes start after the same idle time. 0 = 60 s / 20 s; < 0 = no PINGs. */
    int64_t keepalive_ms;
    int64_t keepalive_timeout_ms;
    /* TCP connections must send "authorization: Bearer <auth_token>" with every call, or
     * get UNAUTHENTICATED; unix sockets are guarded by their mode and the peer's
     * credentials instead. NULL or "" = no token (copied at create). */
    const char *auth_token;
    /* unix sockets: permission bits (0 = 0660) and, with unix_group_set, group */
    unsigned unix_mode;
    int unix_group_set;
    gid_t unix_group;
    rpc_log_fn log;            /* refusals and connection events; NULL = silent */
    void *log_ctx;
} rpc_server_opts;

/* Live counts, for tests and the status page. */
typedef struct rpc_server_stats {
    unsigned connections;
    unsigned streams;      /* HTTP/2 streams open */
    unsigned calls;        /* calls whose handler has not returned or whose reply is queued */
    unsigned workers;      /* worker threads alive */
    uint64_t calls_total;  /* handlers started */
    uint64_t conns_total;  /* connections accepted */
    uint64_t pings_total;  /* keepalive PINGs sent */
    uint64_t request_bytes; /* request messages held for handlers (dispatched, not dropped) */
} rpc_server_stats;

/* methods (n entries) and ctx must outlive the server. */
cuzk_status rpc_server_create(const rpc_server_opts *opts, const rpc_method *methods,
                              size_t n, void *ctx, rpc_server **out, cuzk_error *err);

/* Adds a listener (see grpc_listen for spec forms); *bound_port may be NULL. */
cuzk_status rpc_server_listen(rpc_server *srv, const char *spec, int *bound_port,
                              cuzk_error *err);

/* Serves until rpc_server_stop; then refuses new calls, ends open ones with UNAVAILABLE,
 * waits for handlers to return, closes every connection and returns. */
cuzk_status rpc_server_run(rpc_server *srv, cuzk_error *err);

void rpc_server_stop(rpc_server *srv);

void rpc_server_get_stats(rpc_server *srv, rpc_server_stats *out);

/* After run returned (or when it never ran). Removes unix socket files it created. */
/* After run has returned: joins the handler threads and closes the connections; the
 * listeners stay bound (and listening, accepting nothing) until destroy. */
void rpc_server_quiesce(rpc_server *srv);
void rpc_server_destroy(rpc_server *srv);

/* True once the call's result can no longer reach the client. Any thread. */
int rpc_call_cancelled(const rpc_call *call);

/* The connection's peer as it was when the call arrived (valid until the handler
 * returns). */
const rpc_peer *rpc_call_peer(const rpc_call *call);

/* The method path of the call ("/cuzk.v1.ProvingEngine/Prove"). */
const char *rpc_call_method(const rpc_call *call);

/* Logs through opts.log (printf-style; control characters in the text are replaced). */
void rpc_log(rpc_server *srv, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Frees the request bytes the handler was given; req must not be used afterwards. A
 * handler calls it once it has unpacked them: a Prove of a 256 MiB message would
 * otherwise hold them for its whole wait. */
void rpc_call_drop_request(rpc_call *call);

/* Milliseconds until the call's deadline (INT64_MAX without one; <= 0 when passed). */
int64_t rpc_call_remaining_ms(const rpc_call *call);

/* How long a handler should block at a time before rechecking rpc_call_cancelled. */
#define RPC_WAIT_SLICE_MS 100

#endif
