/*
 * harness.h — the server tests' fixture: a fake engine (fake_engine.h) served by
 * cuzk_server on a fresh unix socket (and a TCP port and an HTTP port on 127.0.0.1),
 * run on its own thread; plus typed helpers that pack a request, call it with the C
 * client and unpack the reply.
 *
 * Threading: a harness is set up and torn down by one thread; the helpers may be called
 * from several threads with separate clients.
 */
#ifndef CUZK_TEST_HARNESS_H
#define CUZK_TEST_HARNESS_H

#include <pthread.h>

#include "server/client_raw.h"
#include "cuzk/client.h"
#include "cuzk/server.h"
#include "cuzk/v1/proving.pb-c.h"
#include "fake_engine.h"

typedef struct harness {
    cuzk_engine *engine;
    cuzk_server *server;
    pthread_t thread;
    char dir[64];
    char addr[128];     /* unix:///tmp/.../cuzk.sock */
    char tcp_addr[64];  /* 127.0.0.1:PORT */
    int http_port;
    int run_rc;
} harness;

/* The server logs into the harness (opts.log is set unless the caller set it). */
void harness_start(harness *h, const cuzk_server_opts *opts);
/* True when one line the server logged (since the last clear) contains every needle
 * given; the list ends with NULL. Lines start with the level: "WARN refused ...". */
int harness_logged(const char *needle, ...);
void harness_log_clear(void);
/* Stops the server, joins its thread, checks nothing is left open, frees everything. */
void harness_stop(harness *h);
/* Waits (up to 10 s) until the server has no call in flight and at most max_conns
 * connections; fails the test otherwise. */
void harness_wait_idle(harness *h, unsigned max_conns);

cuzk_client *harness_client(const harness *h);

/* Calls method with m packed; on OK unpacks the reply with desc into *out (caller frees
 * with protobuf_c_message_free_unpacked). Returns the gRPC status; *msg (optional)
 * receives grpc-message (malloc'd or NULL). */
int call_pb(cuzk_client *c, const char *method, const ProtobufCMessage *m,
            const ProtobufCMessageDescriptor *desc, int64_t timeout_ms, void **out,
            char **msg);

/* A SYNTHETIC request that runs ms milliseconds in the fake engine. */
void synthetic_req(Cuzk__V1__SubmitProofRequest *r, uint32_t partitions, uint64_t ms);

/* Submits and returns the job id (static buffer per call site is the caller's). */
void submit_job(cuzk_client *c, Cuzk__V1__SubmitProofRequest *r, char id[64]);

#endif
