/*
 * service.h — the cuzk.v1.ProvingEngine methods over an engine (cuzk/engine.h): unpack
 * the request (protobuf-c), call the engine, pack the reply, and map cuzk_status to gRPC
 * codes. Handlers run on the rpc server's workers and may block (AwaitProof, Prove) in
 * slices of RPC_WAIT_SLICE_MS so a cancelled call returns promptly.
 *
 * Threading: the handlers are reentrant; the context is read-only after setup.
 */
#ifndef CUZK_SERVICE_H
#define CUZK_SERVICE_H

#include <stddef.h>

#include "cuzk/engine.h"
#include "cuzk/v1/proving.pb-c.h"
#include "peer_files.h"
#include "rpc.h"

typedef struct cuzk_service {
    cuzk_engine *engine;
    rpc_server *rpc;  /* for the transport counters in metrics and status */
    peer_files files; /* which client-named paths are accepted */
} cuzk_service;

extern const rpc_method cuzk_service_methods[];
extern const size_t cuzk_service_nmethods;

/* The gRPC code for an engine status (INVALID_ARGUMENT for bad requests and input that
 * fails its checks, NOT_FOUND, UNAVAILABLE for stopping and the daemon's own I/O failures,
 * RESOURCE_EXHAUSTED for memory, UNIMPLEMENTED for kinds not built, INTERNAL for the
 * rest: bugs). */
int cuzk_service_grpc_code(cuzk_status st);

/* service_status.c: makes the snapshot's strings valid UTF-8 in place (device names and
 * reasons cut to fixed buffers, circuit ids that carry file names), for protobuf and JSON. */
void cuzk_service_status_scrub(cuzk_engine_status *st);

/* service_status.c: GetStatus reply from an engine snapshot (pointers into st, which
 * must outlive the packing; free with cuzk_service_status_release). */
cuzk_status cuzk_service_status_fill(const cuzk_engine_status *st,
                                     Cuzk__V1__GetStatusResponse *out);
void cuzk_service_status_release(Cuzk__V1__GetStatusResponse *out);

/* Prometheus text: the engine's metrics followed by the transport's. malloc'd. */
cuzk_status cuzk_service_metrics(const cuzk_service *svc, char **out, size_t *len,
                                 cuzk_error *err);

/* The GET /status JSON document. malloc'd, NUL-terminated. */
cuzk_status cuzk_service_status_json(const cuzk_service *svc, char **out, size_t *len,
                                     cuzk_error *err);

#endif
