/*
 * cuzk/server.h — cuzkd's network face: the cuzk.v1.ProvingEngine gRPC service (HTTP/2
 * on nghttp2, protobuf-c), wire-compatible with Filecoin Curio's client, over an engine
 * (cuzk/engine.h); and an optional plain HTTP port with GET /metrics (Prometheus text)
 * and GET /status (JSON).
 *
 * Model
 *   cuzk_server_create binds the listeners ("unix:///path", "unix:path", "HOST:PORT",
 *   "[V6]:PORT"; port 0 picks a free one) and returns; cuzk_server_run serves on the
 *   calling thread (the I/O thread; handlers run on a worker pool it grows on demand)
 *   until cuzk_server_stop, then ends open calls with UNAVAILABLE, waits for handlers to
 *   return and closes every connection. Messages up to opts.max_message (256 MiB) in
 *   both directions. Deadlines (grpc-timeout) are honoured; a client that resets a
 *   stream or disconnects ends its call and frees its buffers (a Prove's job goes on and
 *   can be awaited or found again by request_id).
 *
 *   Status codes: INVALID_ARGUMENT (malformed protobuf, unknown kind or priority, a
 *   request the engine rejects, input that fails its checks such as a tampered C1
 *   output), NOT_FOUND (unknown job id or circuit), RESOURCE_EXHAUSTED (message over the
 *   limit, out of memory), DEADLINE_EXCEEDED, CANCELLED, UNAVAILABLE (stopping; the
 *   daemon's own storage failed, e.g. a full disk under the journal: worth retrying
 *   later), UNIMPLEMENTED (unknown method, a kind whose circuit is not built), INTERNAL
 *   (engine bugs, with the engine's message), PERMISSION_DENIED (a client that may not
 *   name files: see input_dirs); a named file the client may not read is NOT_FOUND, with
 *   the message of a missing one. A proof that fails is not a gRPC error:
 *   AwaitProofResponse.status = FAILED with error_message, as Curio expects. Every
 *   refusal is logged through opts.log with the method and the peer.
 *
 * Threading: create/run/destroy from one thread (run may be on another thread than
 * create, but only one run); cuzk_server_stop from any thread or a signal handler.
 * The engine must outlive the server, or at least its cuzk_server_quiesce.
 */
#ifndef CUZK_SERVER_H
#define CUZK_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cuzk/engine.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_server cuzk_server;

typedef struct cuzk_server_opts {
    /* Plain HTTP for GET /metrics and GET /status ("HOST:PORT" or a unix spec);
     * NULL or "" = none. Needs libmicrohttpd (CUZK_ERR_UNSUPPORTED without it). */
    const char *http_listen;
    size_t max_message;        /* 0 = 256 MiB */
    unsigned max_workers;      /* concurrent handler threads; 0 = 256 */
    unsigned max_connections;  /* 0 = 1024 */
    unsigned max_streams;      /* concurrent calls per connection; 0 = 128 */
    /* An HTTP/2 PING goes to a connection the peer has been silent on for keepalive_ms
     * (a Prove waiting 30 minutes is otherwise silent: firewalls and NATs drop such
     * connections without a word); unanswered for keepalive_timeout_ms, the connection
     * is closed. TCP connections also get TCP_NODELAY and keepalive probes after the same
     * idle time. 0 = 60 s / 20 s; keepalive_ms < 0 = no PINGs. */
    int64_t keepalive_ms;
    int64_t keepalive_timeout_ms;
    /* Who may connect to the unix sockets: permission bits (0 = 0660: the daemon's user
     * and group) and, with unix_group_set, the socket's group (clients of another user
     * are let in by putting them in that group). */
    unsigned unix_mode;
    int unix_group_set;
    gid_t unix_group;
    /* Files a client names (GROTH16 paths, PreloadSRS "zkey:<path>") are opened only when
     * that client may read them: a unix-socket peer is checked with its own credentials
     * (the daemon takes its file identity for the check when running as root); other
     * peers (TCP) may name only files under these directories, comma-separated absolute
     * paths, which then bind every peer. NULL or "" = none. */
    const char *input_dirs;
    /* A shared secret that TCP clients must send with every call as the gRPC metadata
     * "authorization: Bearer <token>" (UNAUTHENTICATED otherwise); unix-socket clients
     * are vouched for by the socket's mode and their credentials. NULL or "" = none; a
     * TCP listener without one is logged as a warning. */
    const char *auth_token;
    /* Where refusals and connection events are logged (any thread); NULL = nowhere. */
    void (*log)(void *ctx, cuzk_log_level level, const char *msg);
    void *log_ctx;
} cuzk_server_opts;

typedef struct cuzk_server_stats {
    unsigned connections, streams, calls, workers;
    uint64_t calls_total, connections_total, keepalive_pings_total;
    uint64_t request_bytes; /* request messages held for handlers that have not unpacked them */
} cuzk_server_stats;

/* listen: one spec, or several separated by commas. opts may be NULL (defaults). */
cuzk_status cuzk_server_create(cuzk_engine *engine, const char *listen,
                               const cuzk_server_opts *opts, cuzk_server **out,
                               cuzk_error *err);

/* The TCP port the i-th listener got (0 for unix sockets or a bad index); the HTTP
 * port with i = -1. */
int cuzk_server_port(const cuzk_server *s, int i);

cuzk_status cuzk_server_run(cuzk_server *s, cuzk_error *err);

/* Async-signal-safe. run returns soon after. */
void cuzk_server_stop(cuzk_server *s);

void cuzk_server_get_stats(cuzk_server *s, cuzk_server_stats *out);

/* After run has returned: stops the HTTP status port and joins the handler threads, so the
 * server no longer touches the engine, which may then be destroyed first; the listening
 * sockets stay bound (accepting nothing: clients wait in the backlog) until destroy, so
 * no other daemon can take the address meanwhile. Optional (destroy does it). */
void cuzk_server_quiesce(cuzk_server *s);
/* After run has returned (or if it never ran). Closes the listeners and removes the unix
 * socket files. */
void cuzk_server_destroy(cuzk_server *s);

#ifdef __cplusplus
}
#endif

#endif
