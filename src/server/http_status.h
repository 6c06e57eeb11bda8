/*
 * http_status.h — the optional plain-HTTP port: GET /metrics (Prometheus text) and
 * GET /status (JSON) from the service, on libmicrohttpd's own thread.
 *
 * Threading: start/stop from the owner's thread; requests are served on MHD's thread.
 */
#ifndef CUZK_HTTP_STATUS_H
#define CUZK_HTTP_STATUS_H

#include "service.h"

typedef struct http_status http_status;

/* CUZK_ERR_UNSUPPORTED when built without libmicrohttpd. */
cuzk_status http_status_start(const cuzk_service *svc, const char *spec, http_status **out,
                              int *bound_port, cuzk_error *err);
void http_status_stop(http_status *h); /* NULL is a no-op */

#endif
