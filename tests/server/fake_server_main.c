/*
 * fake_server_main.c — cuzk_server on the fake engine (fake_engine.h), for the grpc-js
 * interop test: `cuzk_fake_server LISTEN` serves until SIGTERM/SIGINT, printing "ready"
 * on stdout once listening; $CUZK_FAKE_AUTH_TOKEN sets the TCP token (auth_token).
 * Single-threaded apart from the server's own threads.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/server.h"
#include "fake_engine.h"

static cuzk_server *g_server;

static void on_signal(int sig)
{
    cuzk_server_stop(g_server);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cuzk_fake_server LISTEN\n");
        return 2;
    }
    cuzk_engine *e = fake_engine_create();
    cuzk_error err = {0};
    cuzk_server_opts o = {.auth_token = getenv("CUZK_FAKE_AUTH_TOKEN")};
    if (cuzk_server_create(e, argv[1], &o, &g_server, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk_fake_server: %s\n", err.msg);
        fake_engine_destroy(e);
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    printf("ready %d\n", cuzk_server_port(g_server, 0));
    fflush(stdout);
    cuzk_status st = cuzk_server_run(g_server, &err);
    cuzk_server_destroy(g_server);
    fake_engine_destroy(e);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk_fake_server: %s\n", err.msg);
        return 1;
    }
    return 0;
}
