/*
 * cuzk/client.h — a blocking gRPC client for cuzkd's cuzk.v1.ProvingEngine (unary calls
 * over HTTP/2 with prior knowledge, on nghttp2), used by the `cuzk submit|await|...`
 * commands and the tests.
 *
 * Model
 *   A client is one HTTP/2 connection to "unix:///path", "unix:path", "HOST:PORT" or
 *   "[V6]:PORT". cuzk_client_call sends one request message (protobuf bytes, framed here)
 *   to a method and waits for the status; calls on one client run one after another on
 *   the same connection. Message bodies are opaque bytes: pack and unpack them with the
 *   protobuf-c code generated from proto/cuzk/v1/proving.proto ("cuzk/v1/proving.pb-c.h").
 *   Messages up to 256 MiB are accepted both ways, as Curio's Go client does.
 *
 * Errors
 *   cuzk_client_call returns CUZK_OK when the server answered with a gRPC status — which
 *   may itself be an error (reply->grpc_status != 0, reply->grpc_message) — and
 *   CUZK_ERR_IO when the connection failed (the client is then unusable). A timeout_ms
 *   > 0 is sent as grpc-timeout and also bounds the local wait: when it passes the
 *   stream is reset and reply->grpc_status is DEADLINE_EXCEEDED (4).
 *
 * Threading: a client is used by one thread at a time; separate clients are independent.
 */
#ifndef CUZK_CLIENT_H
#define CUZK_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_client cuzk_client;

typedef struct cuzk_client_reply {
    int grpc_status;    /* 0 = OK; gRPC codes otherwise */
    char *grpc_message; /* decoded grpc-message, malloc'd, or NULL */
    int http_status;    /* :status of the response (200 for every gRPC answer) */
    uint8_t *body;      /* the response message (malloc'd; NULL when empty or on error) */
    size_t len;
} cuzk_client_reply;

cuzk_status cuzk_client_connect(const char *addr, cuzk_client **out, cuzk_error *err);

/*
 * method: "Prove" (a cuzk.v1.ProvingEngine method) or a full path "/pkg.Svc/Method".
 * reply is filled (and must be released with cuzk_client_reply_free) on CUZK_OK.
 * timeout_ms <= 0: no deadline.
 */
cuzk_status cuzk_client_call(cuzk_client *c, const char *method, const uint8_t *req,
                             size_t len, int64_t timeout_ms, cuzk_client_reply *reply,
                             cuzk_error *err);

void cuzk_client_reply_free(cuzk_client_reply *reply);

/* Sends "authorization: Bearer <token>" with every later call (what a cuzkd TCP listener
 * with daemon.auth_token asks for); NULL or "" stops sending it. CUZK_ERR_INVALID_ARG for
 * a token with spaces or control characters. */
cuzk_status cuzk_client_set_token(cuzk_client *c, const char *token, cuzk_error *err);

void cuzk_client_close(cuzk_client *c);

/* "OK", "CANCELLED", "INVALID_ARGUMENT", ...; "UNKNOWN" for codes it does not name. */
const char *cuzk_grpc_status_name(int code);

#ifdef __cplusplus
}
#endif

#endif
