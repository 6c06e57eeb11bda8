/*
 * fault.c — the prover's fault-injection hook, for testing what drives it (the engine's
 * retry and verify-before-return paths, through the real daemon). Always compiled in and
 * inert unless the environment sets
 *
 *   CUZK_PROVER_FAULT=POINT[:COUNT][@LOG2N]
 *     POINT  start        cuzk_prover_start fails (CUZK_ERR_INTERNAL) before the backend
 *                         runs, as a device error would;
 *            finalize     cuzk_prover_finalize fails (CUZK_ERR_INTERNAL) without a proof;
 *            wrong-proof  finalize corrupts the assembled proof (C negated) before its
 *                         self-check, which must then reject it (CUZK_ERR_INVALID_PROOF);
 *            lost         start fails (CUZK_ERR_CUDA) and the prover goes out of service
 *                         for good, as when a GPU falls off the bus (cuzk_prover_in_service);
 *     COUNT  how many calls fault (default 1), or "all";
 *     LOG2N  only calls whose key has the domain 2^LOG2N count (aims at one job size).
 *
 * The variable is read once per process, when the first prover is opened; a
 * malformed value is reported on stderr once and ignored. An armed hook says so on stderr
 * once, so a production log shows it. Backend independent: it sits in prover.c's common
 * start and finalize, so it works the same on the CPU and CUDA backends.
 * Threading: safe from any thread (pthread_once for the parse, an atomic count).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prover/prover_internal.h"

static const char *const k_points[] = {
    [CUZK_FAULT_START] = "start",
    [CUZK_FAULT_FINALIZE] = "finalize",
    [CUZK_FAULT_WRONG_PROOF] = "wrong-proof",
    [CUZK_FAULT_LOST] = "lost",
};

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_point = -1;        /* -1: inert */
static int g_log2n = -1;        /* -1: any size */
static atomic_llong g_left;     /* faults left; < 0 with g_all */
static bool g_all;

/* Parses "POINT[:COUNT][@LOG2N]"; false on anything else. */
static bool parse(const char *s, int *point, long long *count, bool *all, int *log2n)
{
    size_t n = strcspn(s, ":@");
    *point = -1;
    for (int i = 0; i < (int)(sizeof k_points / sizeof *k_points); i++)
        if (strlen(k_points[i]) == n && !strncmp(s, k_points[i], n))
            *point = i;
    if (*point < 0)
        return false;
    s += n;
    *count = 1;
    *all = false;
    *log2n = -1;
    if (*s == ':') {
        s++;
        if (!strncmp(s, "all", 3)) {
            *all = true;
            s += 3;
        } else {
            char *end;
            long long v = strtoll(s, &end, 10);
            if (end == s || v < 1 || v > 1000000)
                return false;
            *count = v;
            s = end;
        }
    }
    if (*s == '@') {
        char *end;
        long v = strtol(s + 1, &end, 10);
        if (end == s + 1 || v < 0 || v > 40)
            return false;
        *log2n = (int)v;
        s = end;
    }
    return *s == 0;
}

static void read_env(void)
{
    const char *s = getenv("CUZK_PROVER_FAULT");
    if (!s || !*s)
        return;
    int point, log2n;
    long long count;
    bool all;
    if (!parse(s, &point, &count, &all, &log2n)) {
        fprintf(stderr, "cuzk: ignoring CUZK_PROVER_FAULT=%s (want start|finalize|wrong-proof|lost"
                        "[:COUNT|:all][@LOG2N])\n", s);
        return;
    }
    g_all = all;
    atomic_store(&g_left, count);
    g_log2n = log2n;
    g_point = point;
    fprintf(stderr, "cuzk: CUZK_PROVER_FAULT=%s armed: injected prover faults ahead\n", s);
}

void cuzk_prover_fault_arm(void) { pthread_once(&g_once, read_env); }

bool cuzk_prover_fault_take(cuzk_prover_fault_point at, unsigned log2n)
{
    pthread_once(&g_once, read_env);
    if (g_point != (int)at || (g_log2n >= 0 && (unsigned)g_log2n != log2n))
        return false;
    if (g_all)
        return true;
    long long left = atomic_load(&g_left);
    while (left > 0)
        if (atomic_compare_exchange_weak(&g_left, &left, left - 1))
            return true;
    return false;
}

const char *cuzk_prover_fault_name(cuzk_prover_fault_point at)
{
    return (unsigned)at < sizeof k_points / sizeof *k_points ? k_points[at] : "?";
}
