/*
 * main.c — cuzkd, the proving daemon: a thin shell over the engine (cuzk/engine.h) and,
 * in builds with gRPC (nghttp2 + protobuf-c), the cuzk.v1 server (cuzk/server.h).
 *
 *   cuzkd [--config FILE] [--listen ADDR] [--log-level L] [--devices SPECS]
 *   cuzkd --print-config | --check-config [--config FILE] | --help | --version
 *
 * Start: options (defaults, then the file, then the command line), the state lock (one
 * daemon per state_dir: state_lock.h; a second one exits 1 naming the first's pid and
 * changes nothing), the engine (which resumes the journal), the server; SIGTERM / SIGINT
 * stop the server's calls, then the engine (jobs not finished stay in the journal; a key
 * being made stops at its next check), then close the listening sockets and remove the
 * socket files, last, so no second daemon can bind while this one still runs. Without a
 * gRPC build the daemon runs the engine alone (resuming journaled jobs) and says so.
 * Exit: 0 clean stop; 2 bad command line or configuration; 1 could not start.
 *
 * Threading: signals are blocked in every thread; one thread waits for them with
 * sigwait and stops the server (or, without one, wakes main). Log lines may come from
 * engine threads: one mutex keeps them whole.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/engine.h"
#ifdef CUZK_HAVE_CUDA
#include "cuzk/gpu.h"
#endif
#include "listen_dir.h"
#include "options.h"
#include "state_lock.h"
#ifdef CUZK_HAVE_SERVER
#include "cuzk/server.h"
#endif

static pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
static cuzk_log_level g_level = CUZK_LOG_INFO;

static void log_line(cuzk_log_level lvl, const char *msg)
{
    static const char *names[] = {"ERROR", "WARN", "INFO", "DEBUG"};
    if (lvl > g_level)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    pthread_mutex_lock(&g_log_mu);
    fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %-5s %s\n", tm.tm_year + 1900,
            tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000,
            names[lvl], msg);
    pthread_mutex_unlock(&g_log_mu);
}

static void engine_log(void *ctx, cuzk_log_level lvl, const char *msg)
{
    (void)ctx;
    log_line(lvl, msg);
}

static void dump_line(const char *line) { log_line(CUZK_LOG_INFO, line); }

#ifdef CUZK_HAVE_SERVER
/* The server's options from the configuration; false with a message on stderr. */
static bool server_opts(const cuzkd_config *cfg, cuzk_server_opts *so)
{
    memset(so, 0, sizeof *so);
    so->http_listen = cfg->status_listen[0] ? cfg->status_listen : NULL;
    so->log = engine_log;
    so->keepalive_ms = cfg->keepalive_s ? (int64_t)cfg->keepalive_s * 1000 : -1;
    so->keepalive_timeout_ms = (int64_t)cfg->keepalive_timeout_s * 1000;
    so->unix_mode = (unsigned)cfg->socket_mode;
    so->input_dirs = cfg->input_dirs[0] ? cfg->input_dirs : NULL;
    so->auth_token = cfg->auth_token[0] ? cfg->auth_token : NULL;
    if (so->unix_mode == 0) {
        fprintf(stderr, "cuzkd: daemon.socket_mode 0 would let nobody connect\n");
        return false;
    }
    if (cfg->socket_group[0]) {
        char *end;
        unsigned long g = strtoul(cfg->socket_group, &end, 10);
        if (!*end && end != cfg->socket_group) {
            so->unix_group = (gid_t)g;
        } else {
            struct group gr, *res = NULL;
            char buf[4096];
            if (getgrnam_r(cfg->socket_group, &gr, buf, sizeof buf, &res) != 0 || !res) {
                fprintf(stderr, "cuzkd: daemon.socket_group: no group '%s'\n", cfg->socket_group);
                return false;
            }
            so->unix_group = res->gr_gid;
        }
        so->unix_group_set = 1;
    }
    return true;
}
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cuzkd [--config FILE] [--listen unix:///path/cuzk.sock | HOST:PORT]\n"
            "             [--log-level error|warn|info|debug] [--devices cpu|gpu:N,...]\n"
            "       cuzkd --print-config      an annotated example configuration\n"
            "       cuzkd --check-config [--config FILE]   parse, report, exit\n"
            "The Groth16 proving daemon for Filecoin proofs: serves cuzk.v1.ProvingEngine\n"
            "(gRPC) on --listen; stops cleanly on SIGTERM or SIGINT (unfinished jobs are\n"
            "journaled and resume at the next start).\n\n");
    cuzkd_options_help(out);
}

typedef struct sigctx {
    sigset_t set;
#ifdef CUZK_HAVE_SERVER
    cuzk_server *server;
#endif
    int sig;
} sigctx;

#ifdef CUZK_HAVE_SERVER
static void *signal_main(void *arg)
{
    sigctx *s = arg;
    int sig = 0;
    sigwait(&s->set, &sig);
    s->sig = sig;
    if (sig != SIGUSR1) /* SIGUSR1: main asks this thread to end */
        cuzk_server_stop(s->server);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},  {"listen", required_argument, NULL, 'l'},
        {"log-level", required_argument, NULL, 'L'}, {"devices", required_argument, NULL, 'd'},
        {"print-config", no_argument, NULL, 'p'},  {"check-config", no_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},          {"version", no_argument, NULL, 'v'},
        {NULL, 0, NULL, 0}};
    const char *config = NULL, *listen = NULL, *level = NULL, *devices = NULL;
    bool check = false;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': config = optarg; break;
        case 'l': listen = optarg; break;
        case 'L': level = optarg; break;
        case 'd': devices = optarg; break;
        case 'k': check = true; break;
        case 'p': cuzkd_config_print_example(stdout); return 0;
        case 'h': usage(stdout); return 0;
        case 'v': printf("cuzkd 0.1.0\n"); return 0;
        default:
            fprintf(stderr, "cuzkd: unknown option or missing value: %s (try cuzkd --help)\n",
                    argv[optind - 1]);
            return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "cuzkd: unexpected argument %s (try cuzkd --help)\n", argv[optind]);
        return 2;
    }
    cuzkd_config cfg;
    cuzkd_config_defaults(&cfg);
    cuzk_error err = {0};
    if (config && cuzkd_config_load(&cfg, config, &err) != CUZK_OK) {
        fprintf(stderr, "cuzkd: %s\n", err.msg);
        return 2;
    }
    if (listen)
        snprintf(cfg.listen, sizeof cfg.listen, "%s", listen);
    if (devices)
        snprintf(cfg.devices, sizeof cfg.devices, "%s", devices);
    if (level)
        snprintf(cfg.log_level, sizeof cfg.log_level, "%s", level);
    bool ok;
    g_level = cuzkd_log_level(cfg.log_level, &ok);
    if (!ok) {
        fprintf(stderr, "cuzkd: --log-level must be error, warn, info or debug\n");
        return 2;
    }
    cuzk_engine_config ec;
    if (cuzkd_config_engine(&cfg, &ec, &err) != CUZK_OK) {
        fprintf(stderr, "cuzkd: %s\n", err.msg);
        return 2;
    }
#ifdef CUZK_HAVE_SERVER
    cuzk_server_opts so;
    if (!server_opts(&cfg, &so))
        return 2;
#endif
    if (check) {
        cuzkd_config_dump(&cfg, dump_line);
        printf("cuzkd: configuration OK\n");
        return 0;
    }
    ec.log = engine_log;

    /* every thread (engine, server) inherits the blocked set; one thread takes signals */
    sigctx sc = {0};
    sigemptyset(&sc.set);
    sigaddset(&sc.set, SIGTERM);
    sigaddset(&sc.set, SIGINT);
    sigaddset(&sc.set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &sc.set, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (ec.state_dir) {
        /* one daemon per state directory, before anything is touched: the engine loads the
         * journal and removes its temporaries, and the server replaces a stale socket; a
         * second daemon changes none of that and names the running one. Held until exit. */
        int lock_fd;
        char why[512 + 3 * CUZKD_STR];
        if (!cuzkd_state_lock(ec.state_dir, &lock_fd, why, sizeof why)) {
            fprintf(stderr, "cuzkd: %s\n", why);
            return 1;
        }
    }
    cuzkd_config_dump(&cfg, dump_line);
#ifdef CUZK_HAVE_SERVER
    /* before the engine (which resumes the journal's jobs): a socket that cannot be made
     * stops the start at once, saying what to do */
    char why[1024 + 3 * CUZKD_STR];
    if (!cuzkd_listen_dirs(cfg.listen, why, sizeof why)) {
        fprintf(stderr, "cuzkd: %s\n", why);
        return 1;
    }
#endif
    struct stat cst;
    if (config && cfg.auth_token[0] && stat(config, &cst) == 0 && (cst.st_mode & 077)) {
        char line[CUZKD_STR + 128];
        snprintf(line, sizeof line, "%s holds daemon.auth_token and is readable by others "
                 "(mode %04o): chmod 600 it", config, (unsigned)(cst.st_mode & 07777));
        log_line(CUZK_LOG_WARN, line);
    }
    cuzk_engine *engine;
    if (cuzk_engine_create(&engine, &ec, &err) != CUZK_OK) {
        fprintf(stderr, "cuzkd: cannot start the engine: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
#ifdef CUZK_HAVE_SERVER
    if (cuzk_server_create(engine, cfg.listen, &so, &sc.server, &err) != CUZK_OK) {
        fprintf(stderr, "cuzkd: cannot listen on %s: %s\n", cfg.listen, err.msg);
        cuzk_engine_destroy(engine);
        return 1;
    }
    pthread_t sig_thread;
    pthread_create(&sig_thread, NULL, signal_main, &sc);
    char line[CUZKD_STR + 64];
    snprintf(line, sizeof line, "cuzkd serving on %s", cfg.listen);
    log_line(CUZK_LOG_INFO, line);
    for (int i = 0; i < 8; i++) { /* cuzk_server_port is 0 past the last listener */
        int port = cuzk_server_port(sc.server, i);
        if (port) { /* the real port of "HOST:0", for scripts and operators */
            snprintf(line, sizeof line, "gRPC listener %d: TCP port %d", i, port);
            log_line(CUZK_LOG_INFO, line);
        }
    }
    if (cuzk_server_run(sc.server, &err) != CUZK_OK) {
        snprintf(line, sizeof line, "server stopped: %s", err.msg);
        log_line(CUZK_LOG_ERROR, line);
        rc = 1;
    }
    if (!sc.sig)
        pthread_kill(sig_thread, SIGUSR1);
    pthread_join(sig_thread, NULL);
    /* the server lets go of the engine (handlers, status port) but keeps its listening
     * sockets until the engine has stopped: a second cuzkd cannot take the address (nor,
     * by the state lock, the journal) while this one still winds its jobs down */
    cuzk_server_quiesce(sc.server);
#else
    log_line(CUZK_LOG_WARN, "this build has no gRPC server (nghttp2/protobuf-c not found): "
                            "running the engine alone (journaled jobs resume); stop with "
                            "SIGTERM");
    int sig = 0;
    sigwait(&sc.set, &sig);
    sc.sig = sig;
#endif
    log_line(CUZK_LOG_INFO, sc.sig == SIGINT ? "SIGINT: stopping" : "stopping");
#ifdef CUZK_HAVE_CUDA
    /* CUZK_GPU_PROFILE=1: the device time of each kernel phase over the daemon's life, to
     * stderr, before the engine (and its streams) go; the benches print theirs per run */
    cuzk_gpu_profile_report(stderr, "cuzkd: device phases since start (all partitions)", 1);
#endif
    cuzk_engine_destroy(engine);
#ifdef CUZK_HAVE_SERVER
    /* logged before the socket files go, so a watcher that finds the socket gone knows
     * the engine had stopped (tests/cuzkd/cuzkd_state.sh) */
    log_line(CUZK_LOG_INFO, "engine stopped; closing the listeners");
    cuzk_server_destroy(sc.server); /* the socket files go last */
#endif
    log_line(CUZK_LOG_INFO, "cuzkd stopped");
    return rc; /* the state lock goes with the process */
}
