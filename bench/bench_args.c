/*
 * bench_args.c — the options of `cuzk bench` (bench_args.h): defaults, parsing, usage
 * lines and error messages.
 * Threading: no state of its own.
 */
#include "bench_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/pool.h"
#include "util/util_export.h"

void bench_args_complain(const char *what, const char *arg)
{
    fprintf(stderr, "cuzk bench: %s%s%s (try 'cuzk help bench')\n", what, arg ? ": " : "",
            arg ? arg : "");
}

void bench_args_init(bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->item.min_time_s = BENCH_ARGS_MIN_TIME;
    bench_sized_opts *o = &a->sized;
    o->runs = 3;
    /* Filecoin circuits are dominated by bit variables (SHA-256, boolean decompositions):
     * nine scalars in ten being 0 or 1 is typical of a PoRep witness. */
    o->ones = 0.9;
    o->flavour = BENCH_FLAVOUR_BELLPERSON;
    o->min_time_s = BENCH_ARGS_MIN_TIME;
}

void bench_args_usage(FILE *out)
{
    fprintf(out,
            "\n"
            "msm, ntt and prove time whole operations of 2^k elements (best and median of\n"
            "at least --runs wall-clock runs after one warm-up):\n"
            "  --log2 K[,K...]     sizes (defaults: msm 16, ntt 16, prove 14)\n"
            "  --threads T[,T...]  pool sizes (default: 1 and the number of CPUs; prove:\n"
            "                      the number of CPUs)\n"
            "  --runs N            minimum timed runs per measurement (default 3)\n"
            "  --g2                msm: also G2\n"
            "  --ones F            msm: fraction of 0/1 scalars in the mixed MSM (default 0.9)\n"
            "  --flavour bellperson|snarkjs\n"
            "                      prove: key flavour (default bellperson)\n"
            "  --no-cache          prove: always run the dev setup (default: the bellperson\n"
            "                      key is cached in /tmp/cuzk-bench-prove-v*-<k>.params)\n"
            "  --backend B         prove: through the prover backend interface (cpu, gpu,\n"
            "                      gpu:N, auto; finalize then includes the self-check);\n"
            "                      default: the CPU groth16 prover called directly\n"
            "  --kind K            synth: the circuit: porep (default), window-post,\n"
            "                      winning-post or snap\n"
            "  --sector-size S[,S...]\n"
            "                      synth: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes\n"
            "                      (default 2KiB); one partition of generated test data\n"
            "  --witness-only      synth: skip the record and A.w/B.w/C.w (large sizes)\n"
            "  --devices SPEC      pipeline: the engine on several devices (all = every GPU;\n"
            "                      gpu:0,gpu:1; cpu,cpu); the bare loop runs on the first\n"
            "  --dense-witness     gpu-prove: every witness value a random field element (the\n"
            "                      scalar mix of a PoSt partition; random key, benchmark only)\n");
}

/* A whole number as strtoull reads it with base 0 (decimal, 0x hex, 0 octal), no sign. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Seconds, 0 to 3600. */
static bool parse_seconds(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* An hour per item is already far past any sensible run; it also rejects inf/nan. */
    if (errno || *end || !(v >= 0 && v <= 3600))
        return false;
    *out = v;
    return true;
}

/* "16,20" -> {16, 20}; every value in [lo, hi]. */
static bool parse_list(const char *s, unsigned *out, size_t *n, unsigned lo, unsigned hi)
{
    if (!s || !*s)
        return false;
    *n = 0;
    while (*s) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || end == s || v < lo || v > hi || *n == BENCH_SIZED_MAX_LIST)
            return false;
        out[(*n)++] = (unsigned)v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return false;
    }
    return *n > 0;
}

/* "2KiB,512MiB" -> {2048, 536870912}: sizes in the syntax of every command (util/size.h),
 * separated by commas; each at least 1 and at most 1 TiB. */
static bool parse_sizes(const char *s, uint64_t *out, size_t *n)
{
    if (!s || !*s)
        return false;
    *n = 0;
    while (*s) {
        char one[64];
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof one || *n == BENCH_SIZED_MAX_LIST)
            return false;
        memcpy(one, s, len);
        one[len] = 0;
        uint64_t v;
        if (!cuzk_parse_size(one, &v) || v == 0 || v > (1ull << 40))
            return false;
        out[(*n)++] = v;
        s += len;
        if (*s == ',' && !*++s)
            return false;
    }
    return *n > 0;
}

int bench_args_parse(bench_args *args, int argc, char **argv, int *i)
{
    bench_sized_opts *o = &args->sized;
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;   /* an option's value */
    if (strcmp(a, "--json") == 0) {
        args->json = o->json = true;
        return 1;
    }
    if (strcmp(a, "--g2") == 0) {
        o->g2 = true;
        return 1;
    }
    if (strcmp(a, "--no-cache") == 0) {
        o->no_cache = true;
        return 1;
    }
    if (strcmp(a, "--witness-only") == 0) {
        o->witness_only = true;
        return 1;
    }
    if (strcmp(a, "--dense-witness") == 0) {
        o->dense_witness = true;
        return 1;
    }
    const char *err = NULL;
    if (strcmp(a, "--iters") == 0) {
        if (!parse_u64(val, &args->item.iters) || args->item.iters == 0)
            err = "--iters needs a positive integer";
    } else if (strcmp(a, "--min-time") == 0) {
        if (!parse_seconds(val, &args->item.min_time_s))
            err = "--min-time needs seconds between 0 and 3600";
        else
            o->min_time_s = args->item.min_time_s;
    } else if (strcmp(a, "--seed") == 0) {
        if (!parse_u64(val, &args->seed))
            err = "--seed needs a non-negative integer";
        else
            args->seeded = true;
    } else if (strcmp(a, "--log2") == 0) {
        if (!parse_list(val, o->log2, &o->nlog2, 1, BENCH_SIZED_MAX_LOG2))
            err = "--log2 needs sizes 1..28 separated by commas";
    } else if (strcmp(a, "--threads") == 0) {
        if (!parse_list(val, o->threads, &o->nthreads, 1, CUZK_POOL_MAX_THREADS))
            err = "--threads needs thread counts >= 1 separated by commas";
    } else if (strcmp(a, "--runs") == 0) {
        size_t n = 0;
        unsigned v[BENCH_SIZED_MAX_LIST];
        if (!parse_list(val, v, &n, 1, BENCH_SIZED_MAX_RUNS) || n != 1)
            err = "--runs needs a count between 1 and 1000";
        else
            o->runs = v[0];
    } else if (strcmp(a, "--ones") == 0) {
        char *end;
        errno = 0;
        double f = val ? strtod(val, &end) : -1;
        if (!val || errno || *end || !(f >= 0 && f <= 1))
            err = "--ones needs a fraction between 0 and 1";
        else
            o->ones = f;
    } else if (strcmp(a, "--backend") == 0) {
        if (!val || !*val)
            err = "--backend needs cpu, gpu, gpu:N or auto";
        else
            o->backend = val;
    } else if (strcmp(a, "--devices") == 0) {
        if (!val || !*val)
            err = "--devices needs all or a device list (gpu:0,gpu:1 / cpu,cpu)";
        else
            o->devices = val;
    } else if (strcmp(a, "--kind") == 0) {
        if (val && (strcmp(val, "porep") == 0 || strcmp(val, "window-post") == 0 ||
                    strcmp(val, "winning-post") == 0 || strcmp(val, "snap") == 0))
            o->kind = val;
        else
            err = "--kind needs porep, window-post, winning-post or snap";
    } else if (strcmp(a, "--sector-size") == 0) {
        if (!parse_sizes(val, o->sector_size, &o->nsector))
            err = "--sector-size needs sizes (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes) "
                  "separated by commas";
    } else if (strcmp(a, "--flavour") == 0) {
        if (val && strcmp(val, "bellperson") == 0)
            o->flavour = BENCH_FLAVOUR_BELLPERSON;
        else if (val && strcmp(val, "snarkjs") == 0)
            o->flavour = BENCH_FLAVOUR_SNARKJS;
        else
            err = "--flavour needs bellperson or snarkjs";
    } else {
        return 0;
    }
    if (err) {
        bench_args_complain(err, val);
        return -1;
    }
    (*i)++;
    return 1;
}

