/*
 * cmd_inspect_circuit.c — `cuzk inspect circuit --kind K --sector-size S`: the shape of one
 * partition of a circuit cuzk builds, from the counting backend (nothing is stored per
 * row, so a 32 GiB or 64 GiB PoRep partition counts in a few hundred MiB of memory):
 * constraints including bellperson's input rows, aux and input variables, non-zeros of
 * A, B, C, the aux variables in A and in B (the a / b_g1 query sizes less the inputs),
 * the NTT domain, the share of aux variables that are bits and the distinct coefficients.
 *
 * Kinds are rows of k_kinds: a name, a description, and a function that counts one
 * partition for a sector size and describes it (porep, window-post, winning-post, snap,
 * snap-poseidon).
 *
 * Exit: 0 printed, 2 bad command line / unknown kind / unsupported size.
 * Threading: single-threaded.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_args.h"
#include "commands.h"
#include "cuzk/circuits.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "progress.h"
#include "util/util_export.h"

/* Counts one partition of the kind for the sector size; desc gets one line about it. */
typedef cuzk_status (*count_fn)(uint64_t sector_size, cuzk_circuit_counts *out, char *desc,
                                size_t desc_len, cuzk_error *err);

static cuzk_status count_porep(uint64_t sector_size, cuzk_circuit_counts *out, char *desc,
                               size_t desc_len, cuzk_error *err)
{
    cuzk_porep_circuit *c = NULL;
    cuzk_status st = cuzk_porep_circuit_placeholder(sector_size, &c, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_porep_shape *s = cuzk_porep_circuit_shape(c);
    snprintf(desc, desc_len,
             "StackedDRG PoRep C2, %u layers, %u challenges per partition, tree D %u levels, "
             "trees R/C %u-%u-%u (%u base levels)",
             s->layers, s->challenges, s->tree_d_levels, s->base_arity, s->sub_arity,
             s->top_arity, s->base_levels);
    st = cuzk_circuit_count(cuzk_porep_circuit_synthesize, c, out, err);
    cuzk_porep_circuit_free(c);
    return st;
}

/* The counts of a PoSt partition of `sectors` sectors. A full 32 GiB WindowPoSt partition
 * (2349 sectors, 125 M rows) takes minutes to count row by row, but its sectors are
 * identical, independent blocks, so every count is affine in the sector count: 1, 2 and 3
 * sectors are counted, the affinity checked (else the whole partition is counted), and
 * the line extended to `sectors` exactly. */
static cuzk_status count_post(cuzk_post_kind kind, uint64_t sector_size,
                              cuzk_circuit_counts *out, char *desc, size_t desc_len,
                              cuzk_error *err)
{
    cuzk_post_info in;
    cuzk_status st = cuzk_post_info_get(kind, sector_size, &in, err);
    if (st != CUZK_OK)
        return st;
    int n = snprintf(desc, desc_len,
                     "%s: %u sector(s) x %u challenge(s), tree R %u-%u-%u (%u base levels)",
                     in.name, in.sectors, in.challenges, in.base_arity, in.sub_arity,
                     in.top_arity, in.base_levels);
    if (in.sectors <= 3)
        return cuzk_post_circuit_counts(kind, sector_size, 0, 0, out, err);
    cuzk_circuit_counts c[3];
    for (uint32_t k = 0; k < 3; k++)
        if ((st = cuzk_post_circuit_counts(kind, sector_size, k + 1, 0, &c[k], err)) != CUZK_OK)
            return st;
    uint64_t *f[3] = {(uint64_t *)&c[0], (uint64_t *)&c[1], (uint64_t *)&c[2]};
    uint64_t *o = (uint64_t *)out;
    size_t nf = sizeof *out / sizeof(uint64_t);
    _Static_assert(sizeof(cuzk_circuit_counts) % sizeof(uint64_t) == 0, "counts are u64s");
    for (size_t i = 0; i < nf; i++)
        if (f[2][i] - f[1][i] != f[1][i] - f[0][i]) {
            snprintf(desc + n, desc_len - (size_t)n, "; counted in full");
            return cuzk_post_circuit_counts(kind, sector_size, 0, 0, out, err);
        }
    for (size_t i = 0; i < nf; i++)
        o[i] = f[0][i] + (uint64_t)(in.sectors - 1) * (f[1][i] - f[0][i]);
    snprintf(desc + n, desc_len - (size_t)n,
             "; 1, 2 and 3 sectors counted, every count affine in the sector count, extended "
             "exactly to %u",
             in.sectors);
    return CUZK_OK;
}

static cuzk_status count_wpost(uint64_t sector_size, cuzk_circuit_counts *out, char *desc,
                               size_t desc_len, cuzk_error *err)
{
    return count_post(CUZK_POST_WINDOW, sector_size, out, desc, desc_len, err);
}

static cuzk_status count_winning(uint64_t sector_size, cuzk_circuit_counts *out, char *desc,
                                 size_t desc_len, cuzk_error *err)
{
    return count_post(CUZK_POST_WINNING, sector_size, out, desc, desc_len, err);
}

static cuzk_status count_snap_variant(cuzk_snap_variant v, uint64_t sector_size,
                                      cuzk_circuit_counts *out, char *desc, size_t desc_len,
                                      cuzk_error *err)
{
    cuzk_snap_info in;
    cuzk_status st = cuzk_snap_info_get(sector_size, v, &in, err);
    if (st != CUZK_OK)
        return st;
    snprintf(desc, desc_len,
             "%s%s: %u partition(s) x %u challenge(s), tree R %u-%u-%u (%u base levels)",
             in.name, v == CUZK_SNAP_POSEIDON ? " (poseidon variant)" : "", in.partitions,
             in.challenges, in.base_arity, in.sub_arity, in.top_arity, in.base_levels);
    return cuzk_snap_circuit_counts(sector_size, v, out, err);
}

static cuzk_status count_snap(uint64_t sector_size, cuzk_circuit_counts *out, char *desc,
                              size_t desc_len, cuzk_error *err)
{
    return count_snap_variant(CUZK_SNAP_MAIN, sector_size, out, desc, desc_len, err);
}

static cuzk_status count_snap_poseidon(uint64_t sector_size, cuzk_circuit_counts *out,
                                       char *desc, size_t desc_len, cuzk_error *err)
{
    return count_snap_variant(CUZK_SNAP_POSEIDON, sector_size, out, desc, desc_len, err);
}

static const struct {
    const char *name;
    const char *summary;
    count_fn count;
} k_kinds[] = {
    {"porep", "PoRep C2 (StackedDRG), one partition", count_porep},
    {"window-post", "WindowPoSt (Fallback PoSt), one partition", count_wpost},
    {"winning-post", "WinningPoSt (Fallback PoSt, 66 challenges)", count_winning},
    {"snap", "SnapDeals (EmptySectorUpdate), one partition", count_snap},
    {"snap-poseidon", "SnapDeals, the single-partition Poseidon variant", count_snap_poseidon},
};

void cmd_inspect_circuit_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk inspect circuit --kind KIND --sector-size SIZE\n"
            "\n"
            "Counts one partition of a circuit cuzk builds (no witness, nothing stored per\n"
            "row) and prints constraints (with the input rows), aux and input variables,\n"
            "non-zeros of A/B/C, aux variables in A and B, the NTT domain, the share of\n"
            "aux variables that are bits and the distinct coefficients. SIZE: 2KiB, 8MiB,\n"
            "512MiB, 32GiB, 64GiB or bytes.\n"
            "Kinds:\n");
    for (size_t i = 0; i < sizeof k_kinds / sizeof *k_kinds; i++)
        fprintf(out, "  %-12s %s\n", k_kinds[i].name, k_kinds[i].summary);
}


static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (k < 63 && ((uint64_t)1 << k) < n)
        k++;
    return k;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

int cmd_inspect_circuit(int argc, char **argv)
{
    const char *kind = NULL, *size_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char **dst = strcmp(argv[i], "--kind") == 0          ? &kind
                           : strcmp(argv[i], "--sector-size") == 0 ? &size_arg
                                                                   : NULL;
        if (!dst) {
            fprintf(stderr, "cuzk inspect circuit: unknown option '%s' (try 'cuzk help inspect')\n",
                    argv[i]);
            return CUZK_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk inspect circuit: %s needs a value\n", argv[i]);
            return CUZK_EXIT_USAGE;
        }
        *dst = argv[++i];
    }
    if (!kind || !size_arg) {
        fprintf(stderr, "cuzk inspect circuit: missing %s (try 'cuzk help inspect')\n",
                !kind ? "--kind" : "--sector-size");
        return CUZK_EXIT_USAGE;
    }
    size_t k = 0, n_kinds = sizeof k_kinds / sizeof *k_kinds;
    while (k < n_kinds && strcmp(k_kinds[k].name, kind) != 0)
        k++;
    if (k == n_kinds) {
        fprintf(stderr, "cuzk inspect circuit: unknown kind '%s' (kinds:", kind);
        for (size_t i = 0; i < n_kinds; i++)
            fprintf(stderr, " %s", k_kinds[i].name);
        fprintf(stderr, ")\n");
        return CUZK_EXIT_USAGE;
    }
    uint64_t size;
    if (!cuzk_parse_size(size_arg, &size) || size == 0) {
        fprintf(stderr, "cuzk inspect circuit: bad sector size '%s' (e.g. 2KiB, 32GiB or bytes)\n",
                size_arg);
        return CUZK_EXIT_USAGE;
    }

    cuzk_circuit_counts c;
    char desc[512] = "";
    cuzk_error e = {0};
    double t0 = now();
    cuzk_status st = k_kinds[k].count(size, &c, desc, sizeof desc, &e);
    double t = now() - t0;
    if (st != CUZK_OK)
        return cli_fail("inspect circuit", "", st, &e);
    uint64_t rows = cuzk_circuit_counts_rows_with_inputs(&c);
    printf("circuit:     %s, sector size %llu bytes\n", k_kinds[k].name,
           (unsigned long long)size);
    printf("shape:       %s\n", desc);
    printf("constraints: %llu (%llu circuit rows + %llu input rows)\n", (unsigned long long)rows,
           (unsigned long long)c.n_constraints, (unsigned long long)(c.n_public + 1));
    printf("aux:         %llu\n", (unsigned long long)c.n_aux);
    printf("inputs:      %llu (ONE + %llu public)\n", (unsigned long long)(c.n_public + 1),
           (unsigned long long)c.n_public);
    printf("non-zeros:   A %llu, B %llu, C %llu (circuit rows)\n", (unsigned long long)c.nnz[0],
           (unsigned long long)c.nnz[1], (unsigned long long)c.nnz[2]);
    printf("A-aux:       %llu (%.2f%% of aux)\n", (unsigned long long)c.a_aux_density,
           pct(c.a_aux_density, c.n_aux));
    printf("B-aux:       %llu (%.2f%% of aux); B-inputs %llu\n",
           (unsigned long long)c.b_aux_density, pct(c.b_aux_density, c.n_aux),
           (unsigned long long)c.b_input_density);
    printf("domain:      2^%u\n", log2_ceil(rows));
    printf("bits:        %llu aux are bits (%.2f%%)\n", (unsigned long long)c.n_bits,
           pct(c.n_bits, c.n_aux));
    printf("coeffs:      %llu distinct (ONE included)\n",
           (unsigned long long)c.n_coeff_values);
    printf("counted in:  %.2f s\n", t);
    return CUZK_EXIT_OK;
}
