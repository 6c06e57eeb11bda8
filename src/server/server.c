/*
 * server.c — cuzk/server.h: the rpc transport (rpc.h) serving the cuzk.v1 methods
 * (service.h), plus the optional HTTP status port (http_status.h).
 *
 * Shutdown order: stop (no more accepts), run returns once the calls are done, quiesce
 * (the status port and the handler threads, the last users of the engine), and only at
 * destroy the listening sockets and the socket files: the daemon keeps its address while
 * its engine stops.
 * Threading: see cuzk/server.h; stop only forwards to rpc_server_stop, which is
 * async-signal-safe.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, strdup */

#include "cuzk/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_status.h"
#include "rpc.h"
#include "service.h"

#define SERVER_MAX_LISTENERS 8

struct cuzk_server {
    cuzk_service svc;
    void (*log)(void *ctx, cuzk_log_level level, const char *msg);
    void *log_ctx;
    rpc_server *rpc;
    http_status *http;
    int ports[SERVER_MAX_LISTENERS];
    int nports;
    int http_port;
};

static void log_to_opts(void *ctx, int level, const char *msg)
{
    cuzk_server *s = ctx;
    s->log(s->log_ctx, (cuzk_log_level)level, msg);
}

cuzk_status cuzk_server_create(cuzk_engine *engine, const char *listen,
                               const cuzk_server_opts *opts, cuzk_server **out,
                               cuzk_error *err)
{
    if (!engine || !listen || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_server_create: NULL argument");
    *out = NULL;
    cuzk_server *s = calloc(1, sizeof *s);
    char *specs = strdup(listen);
    if (!s || !specs) {
        free(s);
        free(specs);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    s->svc.engine = engine;
    rpc_server_opts ro = {0};
    if (opts) {
        ro.max_message = opts->max_message;
        ro.max_workers = opts->max_workers;
        ro.max_connections = opts->max_connections;
        ro.max_streams = opts->max_streams;
        ro.keepalive_ms = opts->keepalive_ms;
        ro.keepalive_timeout_ms = opts->keepalive_timeout_ms;
        ro.unix_mode = opts->unix_mode;
        ro.unix_group_set = opts->unix_group_set;
        ro.unix_group = opts->unix_group;
        ro.auth_token = opts->auth_token;
        if (opts->log) {
            s->log = opts->log;
            s->log_ctx = opts->log_ctx;
            ro.log = log_to_opts;
            ro.log_ctx = s;
        }
    }
    cuzk_status st = peer_files_init(&s->svc.files, opts ? opts->input_dirs : NULL, err);
    if (st != CUZK_OK) {
        free(s);
        free(specs);
        return st;
    }
    st = rpc_server_create(&ro, cuzk_service_methods, cuzk_service_nmethods, &s->svc, &s->rpc,
                           err);
    s->svc.rpc = s->rpc;
    char *save = NULL;
    for (char *tok = strtok_r(specs, ",", &save); st == CUZK_OK && tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (s->nports == SERVER_MAX_LISTENERS) {
            st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "more than %d listen addresses",
                                SERVER_MAX_LISTENERS);
            break;
        }
        st = rpc_server_listen(s->rpc, tok, &s->ports[s->nports], err);
        s->nports++;
        if (st == CUZK_OK && strncmp(tok, "unix:", 5) != 0 && s->log) {
            char line[512];
            int token = opts->auth_token && opts->auth_token[0];
            snprintf(line, sizeof line,
                     token ? "gRPC on TCP %.200s: clients must send the shared token "
                             "(daemon.auth_token)"
                           : "gRPC on TCP %.200s without a token: anyone who can reach this port "
                             "can submit jobs, cancel them and read their results; set "
                             "daemon.auth_token, or listen on a unix socket only",
                     tok);
            s->log(s->log_ctx, token ? CUZK_LOG_INFO : CUZK_LOG_WARN, line);
        }
    }
    free(specs);
    if (st == CUZK_OK && s->nports == 0)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "no listen address");
    if (st == CUZK_OK && opts && opts->http_listen && opts->http_listen[0])
        st = http_status_start(&s->svc, opts->http_listen, &s->http, &s->http_port, err);
    if (st != CUZK_OK) {
        cuzk_server_destroy(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

int cuzk_server_port(const cuzk_server *s, int i)
{
    if (!s)
        return 0;
    if (i == -1)
        return s->http_port;
    return i >= 0 && i < s->nports ? s->ports[i] : 0;
}

cuzk_status cuzk_server_run(cuzk_server *s, cuzk_error *err)
{
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_server_run: NULL server");
    return rpc_server_run(s->rpc, err);
}

void cuzk_server_stop(cuzk_server *s)
{
    if (s)
        rpc_server_stop(s->rpc);
}

void cuzk_server_get_stats(cuzk_server *s, cuzk_server_stats *out)
{
    rpc_server_stats rs;
    rpc_server_get_stats(s->rpc, &rs);
    out->connections = rs.connections;
    out->streams = rs.streams;
    out->calls = rs.calls;
    out->workers = rs.workers;
    out->calls_total = rs.calls_total;
    out->connections_total = rs.conns_total;
    out->keepalive_pings_total = rs.pings_total;
    out->request_bytes = rs.request_bytes;
}

void cuzk_server_quiesce(cuzk_server *s)
{
    if (!s)
        return;
    http_status_stop(s->http); /* its handlers read the engine */
    s->http = NULL;
    rpc_server_quiesce(s->rpc);
}

void cuzk_server_destroy(cuzk_server *s)
{
    if (!s)
        return;
    cuzk_server_quiesce(s);
    rpc_server_destroy(s->rpc); /* closes the listeners, removes the socket files */
    peer_files_fini(&s->svc.files);
    free(s);
}
