/*
 * cmd_plan.c — `cuzk plan --kind K --sector-size S [--memory BYTES] [--devices cpu|gpu]
 * [--device-memory BYTES] [--json]`: whether a Filecoin job fits a machine, and what it
 * takes, from the circuit's exact counts (cuzk/plan.h): the key, the recorded circuit and
 * one partition on the host and on the device, the partitions the engine would hold at
 * once, and the reason (what it takes, or what is short).
 *
 * The machine defaults to this one: RAM from /proc/meminfo with the engine's budget rule
 * (RAM less the 5 GiB safety margin), a GPU when this build has CUDA and a device is
 * present (its memory measured), else the CPU (all of its threads, as cuzkd's default).
 * The circuit is planned as mapped from its CSR cache (cuzkd with a cache, dev key or
 * state directory).
 *
 * Exit: 0 the job fits, 1 it does not (the reason says what is short), 2 bad arguments.
 * Threading: single-threaded.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "cuzk/plan.h"
#include "progress.h"
#include "cli_args.h"

#define GIB 1073741824.0

static const struct {
    const char *name;
    cuzk_proof_kind kind;
} k_kinds[] = {
    {"porep", CUZK_PROOF_POREP_SEAL_COMMIT},
    {"window-post", CUZK_PROOF_WINDOW_POST_PARTITION},
    {"winning-post", CUZK_PROOF_WINNING_POST},
    {"snap", CUZK_PROOF_SNAP_DEALS_UPDATE},
};

void cmd_plan_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk plan --kind KIND --sector-size SIZE [--memory BYTES]\n"
            "                 [--devices cpu|gpu] [--device-memory BYTES] [--json]\n"
            "\n"
            "Whether a Filecoin job fits this machine (or the one described), from the\n"
            "circuit's exact counts: the proving key, the recorded circuit (as mapped from\n"
            "its CSR cache) and one partition on the host and on the device, the partitions\n"
            "the engine holds at once within its memory budget, and why it fits or what is\n"
            "short. Nothing is loaded.\n"
            "\n"
            "  --kind KIND            porep, window-post, winning-post or snap\n"
            "  --sector-size SIZE     2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or bytes)\n"
            "  --memory BYTES         host RAM, e.g. 128GiB (default: this machine's); the\n"
            "                         budget is the engine's rule: RAM less 5 GiB\n"
            "  --devices cpu|gpu      prove on the CPU or one GPU (default: a GPU when this\n"
            "                         build has CUDA and one is present, else the CPU)\n"
            "  --device-memory BYTES  the GPU's memory, e.g. 141GiB (default: measured)\n"
            "  --json                 one JSON object instead of the table\n"
            "\n"
            "Exit: 0 fits, 1 does not fit, 2 bad arguments.\n");
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_json(const char *kind, const cuzk_plan_machine *m, const cuzk_plan *p)
{
    const cuzk_fil_counts *c = &p->counts;
    printf("{\"kind\": \"%s\", \"sector_size\": %llu, \"fits\": %s, \"reason\": ", kind,
           (unsigned long long)c->sector_size, p->fits ? "true" : "false");
    json_str(p->reason);
    printf(",\n \"host_fits\": %s, \"device_fits\": %s, \"devices\": \"%s\", \"memory\": %llu, "
           "\"budget\": %llu, \"stage_host_bytes\": %llu, \"device_memory\": %llu,\n",
           p->host_fits ? "true" : "false", p->device_fits ? "true" : "false",
           m->gpu ? "gpu" : "cpu", (unsigned long long)m->memory, (unsigned long long)p->budget,
           (unsigned long long)p->stage_host_bytes,
           (unsigned long long)(m->gpu ? m->device_memory : 0));
    printf(" \"key_host_bytes\": %llu, \"key_device_bytes\": %llu, \"circuit_host_bytes\": %llu, "
           "\"circuit_recorded_bytes\": %llu, \"circuit_device_bytes\": %llu,\n"
           " \"partition_host_bytes\": %llu, \"partition_device_bytes\": %llu, "
           "\"witness_bytes\": %llu, \"partitions\": %u, \"partitions_in_flight\": %u,\n"
           " \"device_working_sets\": %u, \"key_streamed\": %s, \"circuit_streamed\": %s,\n",
           (unsigned long long)p->key_host_bytes, (unsigned long long)p->key_device_bytes,
           (unsigned long long)p->circuit_host_bytes,
           (unsigned long long)p->mem.circuit_recorded,
           (unsigned long long)p->circuit_device_bytes,
           (unsigned long long)p->partition_host_bytes,
           (unsigned long long)p->partition_device_bytes, (unsigned long long)p->mem.witness,
           p->partitions, p->partitions_in_flight, p->device_working_sets,
           p->key_streamed ? "true" : "false", p->circuit_streamed ? "true" : "false");
    printf(" \"counts\": {\"constraints\": %llu, \"inputs\": %llu, \"aux\": %llu, "
           "\"nnz_a\": %llu, \"nnz_b\": %llu, \"nnz_c\": %llu, \"a_aux\": %llu, "
           "\"b_inputs\": %llu, \"b_aux\": %llu, \"bits\": %llu, \"coeffs\": %llu, "
           "\"log2n\": %u}}\n",
           (unsigned long long)c->constraints, (unsigned long long)c->inputs,
           (unsigned long long)c->aux, (unsigned long long)c->nnz[0],
           (unsigned long long)c->nnz[1], (unsigned long long)c->nnz[2],
           (unsigned long long)c->a_aux, (unsigned long long)c->b_inputs,
           (unsigned long long)c->b_aux, (unsigned long long)c->bits,
           (unsigned long long)c->coeffs, c->log2n);
}

static void print_table(const char *kind, const cuzk_plan_machine *m, const cuzk_plan *p)
{
    const cuzk_fil_counts *c = &p->counts;
    printf("job:         %s, sector size %llu bytes, %u partition(s)\n", kind,
           (unsigned long long)c->sector_size, p->partitions);
    printf("machine:     memory %.2f GiB, budget %.2f GiB; %s", m->memory / GIB, p->budget / GIB,
           m->gpu ? "one GPU" : "the CPU");
    if (m->gpu)
        printf(" with %.2f GiB (%.2f GiB of pinned host staging off the budget)",
               m->device_memory / GIB, p->stage_host_bytes / GIB);
    printf("\n");
    printf("counts:      %llu constraints + %llu input rows (domain 2^%u), %llu aux, %llu bits\n",
           (unsigned long long)c->constraints, (unsigned long long)c->inputs, c->log2n,
           (unsigned long long)c->aux, (unsigned long long)c->bits);
    printf("             non-zeros A %llu, B %llu, C %llu; A-aux %llu, B %llu + %llu aux; "
           "%llu coefficients\n",
           (unsigned long long)c->nnz[0], (unsigned long long)c->nnz[1],
           (unsigned long long)c->nnz[2], (unsigned long long)c->a_aux,
           (unsigned long long)c->b_inputs, (unsigned long long)c->b_aux,
           (unsigned long long)c->coeffs);
    /* one row: the host column, and the device's on a GPU */
#define ROW(name, host_fmt, host, dev_fmt, dev, note)                                       \
    do {                                                                                  \
        printf("%-24s " host_fmt, name, host);                                            \
        if (m->gpu)                                                                       \
            printf(" " dev_fmt "%s", dev, note);                                          \
        printf("\n");                                                                     \
    } while (0)
    printf("\n%-24s %14s", "", "host GiB");
    printf(m->gpu ? " %14s\n" : "\n", "device GiB");
    ROW("proving key", "%14.2f", p->key_host_bytes / GIB, "%14.2f", p->key_device_bytes / GIB,
        p->key_streamed ? "  streamed" : "");
    ROW("circuit (CSR cache)", "%14.2f", p->circuit_host_bytes / GIB, "%14.2f",
        p->circuit_device_bytes / GIB, p->circuit_streamed ? "  streamed (tables only)" : "");
    ROW("partition", "%14.2f", p->partition_host_bytes / GIB, "%14.2f",
        p->partition_device_bytes / GIB, "  (working set)");
    ROW("at once", "%14u", p->partitions_in_flight, "%14u", p->device_working_sets, "");
#undef ROW
    printf("\n%s: %s\n", p->fits ? "fits" : "does not fit", p->reason);
}

int cmd_plan(int argc, char **argv)
{
    const char *kind = NULL, *size_arg = NULL, *mem_arg = NULL, *dev_arg = NULL,
               *dmem_arg = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
            continue;
        }
        const char **dst = strcmp(argv[i], "--kind") == 0            ? &kind
                           : strcmp(argv[i], "--sector-size") == 0   ? &size_arg
                           : strcmp(argv[i], "--memory") == 0        ? &mem_arg
                           : strcmp(argv[i], "--devices") == 0       ? &dev_arg
                           : strcmp(argv[i], "--device-memory") == 0 ? &dmem_arg
                                                                     : NULL;
        if (!dst) {
            fprintf(stderr, "cuzk plan: unknown option '%s' (try 'cuzk help plan')\n", argv[i]);
            return CUZK_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk plan: %s needs a value\n", argv[i]);
            return CUZK_EXIT_USAGE;
        }
        *dst = argv[++i];
    }
    if (!kind || !size_arg) {
        fprintf(stderr, "cuzk plan: missing %s (try 'cuzk help plan')\n",
                !kind ? "--kind" : "--sector-size");
        return CUZK_EXIT_USAGE;
    }
    size_t k = 0, n_kinds = sizeof k_kinds / sizeof *k_kinds;
    while (k < n_kinds && strcmp(k_kinds[k].name, kind) != 0)
        k++;
    if (k == n_kinds) {
        fprintf(stderr, "cuzk plan: unknown kind '%s' (kinds: porep, window-post, "
                "winning-post, snap)\n", kind);
        return CUZK_EXIT_USAGE;
    }
    uint64_t size = 0;
    if (!cli_parse_size(size_arg, &size) || !cuzk_fil_counts_get(k_kinds[k].kind, size)) {
        fprintf(stderr, "cuzk plan: bad sector size '%s' (2KiB, 8MiB, 512MiB, 32GiB, 64GiB "
                "or their bytes)\n", size_arg);
        return CUZK_EXIT_USAGE;
    }
    cuzk_plan_machine m;
    memset(&m, 0, sizeof m);
    if (mem_arg && !cli_parse_size(mem_arg, &m.memory)) {
        fprintf(stderr, "cuzk plan: bad --memory '%s' (bytes, or e.g. 128GiB)\n", mem_arg);
        return CUZK_EXIT_USAGE;
    }
    if (!mem_arg && !(m.memory = cuzk_plan_host_memory())) {
        fprintf(stderr, "cuzk plan: cannot read this machine's memory (/proc/meminfo); "
                "give --memory\n");
        return CUZK_EXIT_USAGE;
    }
    if (dev_arg && strcmp(dev_arg, "cpu") != 0 && strcmp(dev_arg, "gpu") != 0) {
        fprintf(stderr, "cuzk plan: bad --devices '%s' (cpu or gpu)\n", dev_arg);
        return CUZK_EXIT_USAGE;
    }
    bool have_gpu = cuzk_prover_gpu_count() > 0;
    m.gpu = dev_arg ? strcmp(dev_arg, "gpu") == 0 : have_gpu;
    if (dmem_arg && !cli_parse_size(dmem_arg, &m.device_memory)) {
        fprintf(stderr, "cuzk plan: bad --device-memory '%s' (bytes, or e.g. 141GiB)\n",
                dmem_arg);
        return CUZK_EXIT_USAGE;
    }
    if (dmem_arg && !m.gpu) {
        fprintf(stderr, "cuzk plan: --device-memory is for --devices gpu\n");
        return CUZK_EXIT_USAGE;
    }
    if (m.gpu && !dmem_arg && !(m.device_memory = cuzk_prover_gpu_memory(0))) {
        fprintf(stderr, "cuzk plan: no GPU here to measure; give --device-memory\n");
        return CUZK_EXIT_USAGE;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    m.cpu_threads = cpus > 0 ? (unsigned)cpus : 1;

    cuzk_plan p;
    cuzk_error e = {0};
    cuzk_status st = cuzk_plan_make(k_kinds[k].kind, size, &m, &p, &e);
    if (st != CUZK_OK)
        return cli_fail("plan", "", st, &e);
    if (json)
        print_json(k_kinds[k].name, &m, &p);
    else
        print_table(k_kinds[k].name, &m, &p);
    return p.fits ? CUZK_EXIT_OK : CUZK_EXIT_FAIL;
}
