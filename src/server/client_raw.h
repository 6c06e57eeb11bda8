/*
 * client_raw.h — the client's request core, exposed to tests so they can send what a
 * well-behaved client never would: a hand-made frame (wrong length, compressed flag),
 * another content-type, a request without grpc-timeout that the client abandons after a
 * local timeout by resetting the stream or by dropping the whole connection.
 *
 * Threading: as cuzk/client.h.
 */
#ifndef CUZK_CLIENT_RAW_H
#define CUZK_CLIENT_RAW_H

#include "cuzk/client.h"

typedef struct cuzk_client_raw {
    const char *path;          /* full :path */
    const char *content_type;  /* NULL: application/grpc */
    const uint8_t *prefix;     /* sent first, as-is (normally the 5-byte header) */
    size_t prefix_len;
    const uint8_t *body;       /* then these bytes */
    size_t body_len;
    int64_t grpc_timeout_ms;   /* > 0: sent as grpc-timeout */
    int64_t local_timeout_ms;  /* > 0: give up waiting after this long */
    int drop_connection;       /* on local timeout: 1 closes the socket, 0 resets the stream */
} cuzk_client_raw;

/* CUZK_OK with reply filled when a status arrived or the local timeout fired (then
 * grpc_status = DEADLINE_EXCEEDED and, with drop_connection, the client is unusable). */
cuzk_status cuzk_client_call_raw(cuzk_client *c, const cuzk_client_raw *req,
                                 cuzk_client_reply *reply, cuzk_error *err);

#endif
