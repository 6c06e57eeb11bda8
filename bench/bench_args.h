/*
 * bench_args.h — the options of `cuzk bench`, parsed in one place: those of the item
 * tables (--json, --iters, --min-time, --seed: bench_timing.h's protocol) and those of the
 * size-parameterised groups (--log2, --threads, --runs, --g2, --ones, --flavour,
 * --no-cache, --backend, --devices, --kind, --sector-size, --witness-only,
 * --dense-witness: bench_sized_opts), with their defaults, their usage lines and their
 * error messages ("cuzk bench: WHAT: VALUE (try 'cuzk help bench')" on stderr).
 * cmd_bench (cmd/cuzk/cmd_bench.c) owns the rest of the command line: --help and the group
 * names.
 * Threading: pure parsing into the caller's struct; the usage and the messages go to the
 * given stream / stderr.
 */
#ifndef CUZK_BENCH_ARGS_H
#define CUZK_BENCH_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_sized.h"
#include "bench_timing.h"

#define BENCH_ARGS_MIN_TIME 0.5 /* --min-time's default, seconds per item / measurement */

typedef struct bench_args {
    bench_opts item;        /* --min-time, --iters: the item tables' protocol */
    bool json;              /* --json (also in sized.json) */
    bool seeded;            /* --seed was given */
    uint64_t seed;
    bench_sized_opts sized; /* the sized groups' options; --min-time also sets its
                               min_time_s, --json its json */
} bench_args;

/* Defaults: min-time 0.5 s, iterations calibrated, text output, no seed; the sized
 * options' defaults: runs 3, ones 0.9, flavour bellperson, no sizes/threads (the groups'
 * defaults). */
void bench_args_init(bench_args *a);

/* Parses the option argv[*i] (advancing *i past its value): 1 consumed, 0 not an option
 * of `cuzk bench` (the caller reports it), -1 bad value (message already on stderr). */
int bench_args_parse(bench_args *a, int argc, char **argv, int *i);

/* Usage lines for the sized groups' options, printed after cmd_bench_usage's own. */
void bench_args_usage(FILE *out);

/* "cuzk bench: WHAT[: ARG] (try 'cuzk help bench')" on stderr. */
void bench_args_complain(const char *what, const char *arg);

#endif
