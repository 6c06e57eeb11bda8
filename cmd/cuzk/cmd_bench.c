/*
 * cmd_bench.c — `cuzk bench [field|curve|pairing|msm|ntt|prove ...] [--json] [--iters N]
 * [--min-time SEC] [--seed N] [sized options]`: runs the item tables of bench/ under the
 * protocol of bench_timing.h, then the size-parameterised groups (bench_sized.h), and
 * prints aligned tables or one JSON object.
 *
 * An item whose setup rejects its inputs (e.g. the 4-pair check does not accept a product
 * that is 1) is listed as failed and not timed: its number would mean nothing.
 * Threading: the item groups are single-threaded (single-core latencies); the sized groups
 * run their operations on pools of the sizes given by --threads.
 * The options are parsed by bench/bench_args.c; this file owns --help and the group names.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, gmtime_r, sysconf */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_args.h"
#include "bench_sized.h"
#include "commands.h"

#define MAX_ITEMS 64

static const bench_group *const k_groups[] = {&bench_group_field, &bench_group_curve,
                                              &bench_group_pairing};
#define NGROUPS (sizeof k_groups / sizeof k_groups[0])
static const bench_sized_group *const k_sized[] = {&bench_group_msm, &bench_group_ntt,
                                                   &bench_group_prove, &bench_group_pipeline,
                                                   &bench_group_synth, &bench_group_csr,
#ifdef CUZK_HAVE_CUDA
                                                   &bench_group_gpu_ntt, &bench_group_gpu_msm,
                                                   &bench_group_gpu_prove,
                                                   &bench_group_gpu_fixed_base,
                                                   &bench_group_gpu_setup,
#endif
};
#define NSIZED (sizeof k_sized / sizeof k_sized[0])

typedef enum { ITEM_OK, ITEM_SETUP_FAILED } item_state;

typedef struct result {
    const char *group, *name;
    item_state state;
    bench_measure m;
} result;

void cmd_bench_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk bench [GROUP...] [--json] [--iters N] [--min-time SEC] [--seed N]\n"
            "                  [--log2 K,..] [--threads T,..] [--runs N] [--g2] [--ones F]\n"
            "                  [--flavour bellperson|snarkjs] [--no-cache]\n"
            "\n"
            "Times single-core field, curve and pairing operations, then whole MSMs, NTTs\n"
            "and proofs. GROUP is field, curve, pairing, msm, ntt or prove; none means all\n"
            "six, in that order. pipeline (N synthetic jobs through the engine against a\n"
            "bare prover loop: s/proof, overhead, stage busy ratios, peak RSS) and, in CUDA\n"
            "builds, gpu-ntt, gpu-msm, gpu-prove, gpu-fixed-base (the dev setup's point\n"
            "multiplications, G1 and G2 points/s) and gpu-setup (a whole dev setup of the\n"
            "synthetic PoRep-shaped circuit on the GPU; --backend cpu: on the CPU) run only\n"
            "when named (CUZK_TRACE=PREFIX writes gpu-prove's two-worker timeline and the\n"
            "pipeline's engine timeline).\n"
            "synth (a Filecoin circuit's record, plain and fast witness, A.w/B.w/C.w and\n"
            "peak memory per partition: --kind porep|window-post|winning-post|snap\n"
            "--sector-size S) and csr (a PoRep partition's CSR cache: record, write, load at\n"
            "each check level; --sector-size S) run only when named.\n"
            "\n"
            "  --json          print one JSON object instead of the table\n"
            "  --iters N       operations per timed batch (default: calibrated so ~10\n"
            "                  batches fill the minimum time)\n"
            "  --min-time SEC  time spent measuring each item after warm-up (default %.1f)\n"
            "  --seed N        seed of the random inputs (default: from the clock; printed)\n"
            "\n"
            "Each item is warmed up, then run in batches until the minimum time has passed\n"
            "and at least %d batches ran; ns/op is the median over batches. Chains such as\n"
            "r = r*a measure latency, not throughput.\n",
            BENCH_ARGS_MIN_TIME, BENCH_MIN_BATCHES);
    bench_args_usage(out);
}

static int bad_arg(const char *what, const char *arg)
{
    bench_args_complain(what, arg);
    return CUZK_EXIT_USAGE;
}

/* "model name" line of /proc/cpuinfo (x86), or "unknown". */
static void cpu_model(char *out, size_t n)
{
    snprintf(out, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = 0;
        snprintf(out, n, "%s", v);
        break;
    }
    fclose(f);
}

static void json_str(FILE *out, const char *s)
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

static item_state run_item(const bench_item *it, const bench_opts *o, bench_measure *m)
{
    if (!it->setup())
        return ITEM_SETUP_FAILED;
    bench_measure_run(m, o, it->run, NULL);
    /* A step of a batched item does ops_per_step operations. */
    m->ns_per_op /= it->ops_per_step;
    m->ns_min /= it->ops_per_step;
    m->iters *= it->ops_per_step;
    return ITEM_OK;
}

static void print_header(uint64_t seed, const bench_opts *o, const char *cpu, bool items)
{
    printf("cuzk bench: %s, backend %s, seed 0x%016llx, min-time %.2f s/item", cpu,
           cuzk_ff_backend(), (unsigned long long)seed, o->min_time_s);
    if (o->iters)
        printf(", %llu ops/batch", (unsigned long long)o->iters);
    if (!items) {   /* only sized groups: they print their own table */
        printf("\n");
        return;
    }
    printf("\n\n%-8s  %-32s  %12s  %14s  %12s\n", "group", "operation", "ns/op", "ops/s",
           "iters");
    fflush(stdout);
}

static void print_row(const result *r)
{
    if (r->state != ITEM_OK) {
        printf("%-8s  %-32s  %12s\n", r->group, r->name, "setup failed");
    } else {
        double ops = r->m.ns_per_op > 0 ? 1e9 / r->m.ns_per_op : 0;
        printf("%-8s  %-32s  %12.1f  %14.0f  %12llu\n", r->group, r->name, r->m.ns_per_op,
               ops, (unsigned long long)r->m.iters);
    }
    fflush(stdout);
}

static void print_json(const result *res, size_t n, uint64_t seed, const bench_opts *o,
                       const char *cpu)
{
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    printf("{\"machine\": {\"cpu\": ");
    json_str(stdout, cpu);
    printf(", \"logical_cpus\": %ld, \"backend\": ", sysconf(_SC_NPROCESSORS_ONLN));
    json_str(stdout, cuzk_ff_backend());
    printf(", \"compiler\": ");
#if defined(__GNUC__) && !defined(__clang__)
    json_str(stdout, "gcc " __VERSION__);
#elif defined(__VERSION__)
    json_str(stdout, __VERSION__);
#else
    json_str(stdout, "unknown");
#endif
    printf(", \"date\": \"%s\"},\n \"seed\": %llu, \"min_time_s\": %g,\n \"results\": [", date,
           (unsigned long long)seed, o->min_time_s);
    for (size_t i = 0; i < n; i++) {
        printf("%s\n  {\"group\": \"%s\", \"name\": ", i ? "," : "", res[i].group);
        json_str(stdout, res[i].name);
        if (res[i].state == ITEM_OK)
            printf(", \"ns_per_op\": %.3f, \"iters\": %llu}", res[i].m.ns_per_op,
                   (unsigned long long)res[i].m.iters);
        else
            printf(", \"ns_per_op\": null, \"iters\": 0, \"error\": \"setup failed\"}");
    }
    bench_sized_json(stdout, n == 0);
    printf("\n]}\n");
}

int cmd_bench(int argc, char **argv)
{
    bench_args args;
    bench_args_init(&args);
    bool want[NGROUPS] = {false}, want_sized[NSIZED] = {false};
    size_t nwant = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cmd_bench_usage(stdout);
            return CUZK_EXIT_OK;
        } else if (a[0] == '-') {
            int r = bench_args_parse(&args, argc, argv, &i);
            if (r < 0)
                return CUZK_EXIT_USAGE;
            if (r == 0)
                return bad_arg("unknown option", a);
        } else {
            size_t g = 0, sg = 0;
            while (g < NGROUPS && strcmp(k_groups[g]->name, a) != 0)
                g++;
            while (sg < NSIZED && strcmp(k_sized[sg]->name, a) != 0)
                sg++;
            if (g == NGROUPS && sg == NSIZED)
                return bad_arg("unknown group (groups: field, curve, pairing, msm, ntt, prove)",
                               a);
            if (g < NGROUPS ? !want[g] : !want_sized[sg])
                nwant++;
            if (g < NGROUPS)
                want[g] = true;
            else
                want_sized[sg] = true;
        }
    }
    if (nwant == 0) {
        for (size_t g = 0; g < NGROUPS; g++)
            want[g] = true;
        for (size_t g = 0; g < NSIZED; g++)
            want_sized[g] = !k_sized[g]->explicit_only;
    }
    bool items = false;
    for (size_t g = 0; g < NGROUPS; g++)
        items |= want[g];

    const bench_opts o = args.item;
    const bool json = args.json;
    uint64_t seed = args.seed;
    if (!args.seeded) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    }
    bench_rng_seed(seed);

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    if (!json)
        print_header(seed, &o, cpu, items);

    result res[MAX_ITEMS];
    size_t n = 0;
    for (size_t g = 0; g < NGROUPS; g++) {
        if (!want[g])
            continue;
        const bench_group *grp = k_groups[g];
        for (size_t i = 0; i < grp->count && n < MAX_ITEMS; i++) {
            result *r = &res[n++];
            r->group = grp->name;
            r->name = grp->items[i].name;
            memset(&r->m, 0, sizeof r->m);
            r->state = run_item(&grp->items[i], &o, &r->m);
            if (!json)
                print_row(r);
        }
    }
    for (size_t g = 0; g < NSIZED; g++)
        if (want_sized[g])
            k_sized[g]->run(&args.sized);
    if (json)
        print_json(res, n, seed, &o, cpu);
    return CUZK_EXIT_OK;
}
