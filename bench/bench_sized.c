/*
 * bench_sized.c — the harness of the size-parameterised bench groups (msm, ntt, prove):
 * the option lists with their defaults, the run-timing protocol of bench_sized.h, the
 * result list and its text and JSON output, and the inputs and memory probes the groups
 * share. The options are parsed in bench_args.c.
 *
 * Threading: single-threaded (the groups parallelise inside the timed operation only).
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, sysconf */

#include "bench_sized.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define MAX_RESULTS 256

static bench_sized_result g_res[MAX_RESULTS + 1];   /* the last slot absorbs overflow */
static size_t g_nres;

size_t bench_sized_log2s(const bench_sized_opts *o, unsigned *out, unsigned def)
{
    if (o->nlog2 == 0) {
        out[0] = def;
        return 1;
    }
    memcpy(out, o->log2, o->nlog2 * sizeof *out);
    return o->nlog2;
}

size_t bench_sized_sectors(const bench_sized_opts *o, uint64_t *out, uint64_t def)
{
    if (o->nsector == 0) {
        out[0] = def;
        return 1;
    }
    memcpy(out, o->sector_size, o->nsector * sizeof *out);
    return o->nsector;
}

size_t bench_sized_threads(const bench_sized_opts *o, unsigned *out)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned cpus = ncpu > 0 && ncpu <= (long)CUZK_POOL_MAX_THREADS ? (unsigned)ncpu : 1;
    unsigned tmp[BENCH_SIZED_MAX_LIST];
    size_t n;
    if (o->nthreads) {
        memcpy(tmp, o->threads, o->nthreads * sizeof *tmp);
        n = o->nthreads;
    } else {
        tmp[0] = 1;
        tmp[1] = cpus;
        n = 2;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned t = tmp[i] ? tmp[i] : cpus;
        bool dup = false;
        for (size_t j = 0; j < m; j++)
            dup |= out[j] == t;
        if (!dup)
            out[m++] = t;
    }
    return m;
}

bench_sized_result *bench_sized_add(const char *group, const char *name, unsigned log2,
                                    unsigned threads, uint64_t n)
{
    bench_sized_result *r = &g_res[g_nres < MAX_RESULTS ? g_nres++ : MAX_RESULTS];
    memset(r, 0, sizeof *r);
    r->group = group;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->log2 = log2;
    r->threads = threads;
    r->n = n;
    return r;
}

static bool g_header_printed;

void bench_sized_done(const bench_sized_opts *o, bench_sized_result *r)
{
    if (o->json)
        return;
    if (!g_header_printed) {
        printf("\n%-6s  %-34s  %4s  %3s  %11s  %11s  %10s  %s\n", "group", "operation",
               "log2", "thr", "best ms", "median ms", "ns/elem", "notes");
        g_header_printed = true;
    }
    if (r->failed) {
        printf("%-6s  %-34s  %4u  %3u  %11s  %11s  %10s  %s\n", r->group, r->name, r->log2,
               r->threads, "failed", "", "", r->note);
    } else {
        double per = r->n ? r->best_ms * 1e6 / (double)r->n : 0;
        printf("%-6s  %-34s  %4u  %3u  %11.3f  %11.3f  %10.1f  %s", r->group, r->name,
               r->log2, r->threads, r->best_ms, r->median_ms, per, r->note);
        for (int k = 0; k < BENCH_SIZED_EXTRAS; k++)
            if (r->extra_name[k])
                printf("%s%s %.4g", r->note[0] || k ? ", " : "", r->extra_name[k],
                       r->extra[k]);
        printf("\n");
    }
    fflush(stdout);
}

void bench_sized_fail(const bench_sized_opts *o, bench_sized_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note, sizeof r->note, fmt, ap);
    va_end(ap);
    r->failed = true;
    bench_sized_done(o, r);
}

bool bench_sized_time(const bench_sized_opts *o, bench_sized_result *r, bool (*fn)(void *),
                      void *ctx)
{
    static double t[BENCH_SIZED_MAX_RUNS];
    unsigned n = 0;
    double t0 = bench_now_ns();
    if (!fn(ctx))
        return false;
    double warm = (bench_now_ns() - t0) * 1e-9;
    /* A warm-up longer than 2 s (2^20 MSMs) already dwarfs its page faults; it counts as
     * a run rather than costing another one. */
    if (warm >= 2.0)
        t[n++] = warm;
    double spent = 0;
    while (n < BENCH_SIZED_MAX_RUNS && (n < o->runs || spent < o->min_time_s)) {
        double s = bench_now_ns();
        if (!fn(ctx))
            return false;
        double d = (bench_now_ns() - s) * 1e-9;
        t[n++] = d;
        spent += d;
    }
    qsort(t, n, sizeof t[0], bench_cmp_double);
    r->runs = n;
    r->best_ms = t[0] * 1e3;
    r->median_ms = (n & 1 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2])) * 1e3;
    return true;
}

static void json_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void bench_sized_json(FILE *out, bool first_in_array)
{
    for (size_t i = 0; i < g_nres; i++) {
        const bench_sized_result *r = &g_res[i];
        fprintf(out, "%s\n  {\"group\": \"%s\", \"name\": ", first_in_array && i == 0 ? "" : ",",
                r->group);
        json_text(out, r->name);
        fprintf(out, ", \"log2\": %u, \"threads\": %u, \"n\": %llu", r->log2, r->threads,
                (unsigned long long)r->n);
        if (r->failed) {
            fprintf(out, ", \"ns_per_op\": null, \"iters\": 0, \"error\": ");
            json_text(out, r->note);
            fprintf(out, "}");
            continue;
        }
        /* ns_per_op and iters keep the item results' shape: cost per element, runs. */
        fprintf(out, ", \"ns_per_op\": %.3f, \"iters\": %u, \"best_ms\": %.4f, "
                     "\"median_ms\": %.4f",
                r->n ? r->best_ms * 1e6 / (double)r->n : 0.0, r->runs, r->best_ms,
                r->median_ms);
        for (int k = 0; k < BENCH_SIZED_EXTRAS; k++)
            if (r->extra_name[k])
                fprintf(out, ", \"%s\": %.6g", r->extra_name[k],
                        isfinite(r->extra[k]) ? r->extra[k] : 0.0);
        if (r->note[0]) {
            fprintf(out, ", \"note\": ");
            json_text(out, r->note);
        }
        fprintf(out, "}");
    }
}

bool bench_sized_pool(cuzk_pool **pool, unsigned t)
{
    *pool = NULL;
    if (t <= 1)
        return true;
    return cuzk_pool_create(pool, t) == CUZK_OK;
}

#define NQ 16        /* step points; a power of two */
#define CHUNK 1024   /* points normalised per batch inversion */

bool bench_sized_g1_points(cuzk_g1_affine *pts, size_t n)
{
    cuzk_g1_jac q[NQ], acc;
    cuzk_g1_jac *jac = malloc(CHUNK * sizeof *jac);
    cuzk_fp *scr = malloc(CHUNK * sizeof *scr);
    if (!jac || !scr) {
        free(jac);
        free(scr);
        return false;
    }
    for (int i = 0; i < NQ; i++)
        bench_rand_g1(&q[i]);
    acc = q[0];
    uint64_t pick = 0;
    for (size_t base = 0; base < n; base += CHUNK) {
        size_t m = n - base < CHUNK ? n - base : CHUNK;
        for (size_t i = 0; i < m; i++) {
            cuzk_fr k;   /* a cheap source of varied step indices */
            if ((i & 15) == 0) {
                bench_rand_fr(&k);
                pick = k.l[0];
            }
            cuzk_g1_jac_add(&acc, &acc, &q[(pick >> (4 * (i & 15))) & (NQ - 1)]);
            jac[i] = acc;
        }
        cuzk_g1s_jac_to_affine(pts + base, jac, m, scr);
    }
    free(jac);
    free(scr);
    return true;
}

bool bench_sized_g2_points(cuzk_g2_affine *pts, size_t n)
{
    cuzk_g2_jac q[NQ], acc;
    cuzk_g2_jac *jac = malloc(CHUNK * sizeof *jac);
    cuzk_fp2 *scr = malloc(CHUNK * sizeof *scr);
    if (!jac || !scr) {
        free(jac);
        free(scr);
        return false;
    }
    for (int i = 0; i < NQ; i++)
        bench_rand_g2(&q[i]);
    acc = q[0];
    uint64_t pick = 0;
    for (size_t base = 0; base < n; base += CHUNK) {
        size_t m = n - base < CHUNK ? n - base : CHUNK;
        for (size_t i = 0; i < m; i++) {
            cuzk_fr k;
            if ((i & 15) == 0) {
                bench_rand_fr(&k);
                pick = k.l[0];
            }
            cuzk_g2_jac_add(&acc, &acc, &q[(pick >> (4 * (i & 15))) & (NQ - 1)]);
            jac[i] = acc;
        }
        cuzk_g2s_jac_to_affine(pts + base, jac, m, scr);
    }
    free(jac);
    free(scr);
    return true;
}

/* One "Key:   1234 kB" line of /proc/self/status, in bytes (0 if absent). */
static uint64_t proc_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    size_t kl = strlen(key);
    uint64_t v = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtoull(line + kl + 1, NULL, 10) * 1024u;
            break;
        }
    }
    fclose(f);
    return v;
}

uint64_t bench_sized_peak_rss(void) { return proc_status_kb("VmHWM"); }
uint64_t bench_sized_rss(void) { return proc_status_kb("VmRSS"); }

bool bench_sized_reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}
