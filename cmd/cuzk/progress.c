/*
 * progress.c — the CLI progress bar, exit-code mapping and --threads parsing (see
 * progress.h). The bar redraws in place with '\r' at most once per 0.1% step, so even a
 * reader that reports every chunk costs nothing measurable.
 * Threading: a bar is used from the thread that created it.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "progress.h"

#define BAR_WIDTH 30

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_init(cli_progress *p, const char *label)
{
    p->label = label;
    p->enabled = isatty(STDERR_FILENO) == 1;
    p->drawn = false;
    p->last_permille = -1;
    p->t0 = now_s();
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
    cli_progress *p = ctx;
    if (!p || !p->enabled)
        return;
    int pm = total ? (int)(done >= total ? 1000 : done * 1000 / total) : 1000;
    if (pm == p->last_permille)
        return;
    p->last_permille = pm;
    char bar[BAR_WIDTH + 1];
    int fill = pm * BAR_WIDTH / 1000;
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : ' ';
    bar[BAR_WIDTH] = 0;
    fprintf(stderr, "\r%-16s [%s] %5.1f%% %6.1fs", p->label, bar, pm / 10.0, now_s() - p->t0);
    fflush(stderr);
    p->drawn = true;
}

void cli_progress_done(cli_progress *p)
{
    if (p && p->enabled && p->drawn) {
        fputc('\n', stderr);
        p->drawn = false;
    }
}

int cli_fail(const char *cmd, const char *what, cuzk_status st, const cuzk_error *err)
{
    const char *msg = err && err->msg[0] ? err->msg : cuzk_status_name(st);
    /* the library's messages usually name the file already: print each path once */
    if (!what || !*what || strstr(msg, what))
        fprintf(stderr, "cuzk %s: %s\n", cmd, msg);
    else
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, what, msg);
    switch (st) {
    case CUZK_ERR_INVALID_PROOF:
    case CUZK_ERR_NOMEM:
    case CUZK_ERR_INTERNAL:
    case CUZK_ERR_CUDA:
        return CUZK_EXIT_FAIL;
    default:
        return CUZK_EXIT_USAGE;
    }
}

bool cli_parse_threads(const char *s, unsigned *out)
{
    char *end;
    if (!s || !*s)
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || s[0] == '-' || v > CUZK_POOL_MAX_THREADS)
        return false;
    *out = (unsigned)v;
    return true;
}

bool cli_pool_create(const char *cmd, unsigned nthreads, cuzk_pool **pool)
{
    cuzk_status st = cuzk_pool_create(pool, nthreads);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk %s: cannot start %u worker threads: %s\n", cmd, nthreads,
                cuzk_status_name(st));
        return false;
    }
    return true;
}

bool cli_looks_json(const void *d, size_t n, const char *opens)
{
    const unsigned char *b = (const unsigned char *)d;
    size_t i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    if (i == n || !b[i] || !strchr(opens, b[i]))
        return false;
    for (; i < n; i++)
        if (b[i] < 0x20 && b[i] != '\t' && b[i] != '\r' && b[i] != '\n')
            return false;
    return true;
}
