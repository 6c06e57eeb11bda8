/*
 * http_status.c — GET /metrics and GET /status on a plain HTTP/1.1 port through
 * libmicrohttpd (see http_status.h). Other paths: 404; other methods: 405.
 *
 * Threading: MHD serves requests on its internal polling thread; the service calls it
 * makes (engine status and metrics) are thread-safe.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "http_status.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grpc_wire.h"

#ifdef CUZK_HAVE_MHD
#include <microhttpd.h>

struct http_status {
    struct MHD_Daemon *d;
    const cuzk_service *svc;
};

static enum MHD_Result send_text(struct MHD_Connection *conn, unsigned code,
                                 const char *type, char *body, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result rc = MHD_queue_response(conn, code, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **state)
{
    http_status *h = cls;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_text(conn, 405, "text/plain", strdup("method not allowed\n"), 19);
    char *body = NULL;
    size_t len = 0;
    cuzk_error e = {0};
    if (strcmp(url, "/metrics") == 0) {
        if (cuzk_service_metrics(h->svc, &body, &len, &e) == CUZK_OK)
            return send_text(conn, 200, "text/plain; version=0.0.4", body, len);
    } else if (strcmp(url, "/status") == 0) {
        if (cuzk_service_status_json(h->svc, &body, &len, &e) == CUZK_OK)
            return send_text(conn, 200, "application/json", body, len);
    } else {
        return send_text(conn, 404, "text/plain", strdup("not found\n"), 10);
    }
    char *msg = strdup(e.msg[0] ? e.msg : "internal error");
    return send_text(conn, 500, "text/plain", msg, msg ? strlen(msg) : 0);
}

cuzk_status http_status_start(const cuzk_service *svc, const char *spec, http_status **out,
                              int *bound_port, cuzk_error *err)
{
    *out = NULL;
    int fd;
    cuzk_status st = grpc_listen(spec, 64, NULL, &fd, bound_port, err);
    if (st != CUZK_OK)
        return st;
    http_status *h = calloc(1, sizeof *h);
    if (!h) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    h->svc = svc;
    h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
                            NULL, on_request, h, MHD_OPTION_LISTEN_SOCKET, fd,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    if (!h->d) {
        close(fd);
        free(h);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot start the HTTP server on '%s'", spec);
    }
    *out = h;
    return CUZK_OK;
}

void http_status_stop(http_status *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d); /* closes the listening socket too */
    free(h);
}

#else

struct http_status {
    int unused;
};

cuzk_status http_status_start(const cuzk_service *svc, const char *spec, http_status **out,
                              int *bound_port, cuzk_error *err)
{
    *out = NULL;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "the HTTP status port needs libmicrohttpd, not in this build");
}

void http_status_stop(http_status *h)
{
}

#endif
