/*
 * progress.h — what the long CLI commands (prove, setup, inspect, verify) share: a progress
 * bar on stderr, shown only when stderr is a terminal (scripts and CI logs get nothing),
 * the mapping from a cuzk_status to the CLI's exit codes, and the --threads option.
 *
 * Exit codes (the contract other tools script against): 0 success; 1 a proof that does not
 * verify, or a failure of the machine (out of memory, internal error); 2 bad input: a bad
 * command line, a missing, malformed, truncated or wrong-curve file, a witness that does
 * not fit or satisfy the circuit.
 *
 * Threading: a progress bar is driven by one thread (the one that owns it).
 */
#ifndef CUZK_CMD_PROGRESS_H
#define CUZK_CMD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/pool.h"
#include "cuzk/status.h"

typedef struct cli_progress {
    const char *label;
    bool enabled;   /* stderr is a terminal */
    bool drawn;     /* something is on the line */
    int last_permille;
    double t0;      /* seconds, monotonic */
} cli_progress;

void cli_progress_init(cli_progress *p, const char *label);
/* Redraws "label [#####     ]  42%  3.1s" when the shown value changes; the signature is
 * cuzk_progress_fn's, so it can be handed to the readers directly (ctx = the bar). */
void cli_progress_update(void *ctx, uint64_t done, uint64_t total);
/* Ends the line (no-op when nothing was drawn). */
void cli_progress_done(cli_progress *p);

/* Prints "cuzk <cmd>: <what>: <message>" to stderr and returns the exit code for st; just
 * "cuzk <cmd>: <message>" when what is empty or already in the message (a path is printed
 * once). */
int cli_fail(const char *cmd, const char *what, cuzk_status st, const cuzk_error *err);

/* Whether n bytes at d are JSON text rather than a binary file (a bellperson .vk, proof,
 * .params): the first byte after optional whitespace is one of `opens` ("{" or "{["), and
 * no byte is a control character other than JSON's four whitespace ones, which JSON text
 * never holds raw. The first alone misread binary: a .vk begins with an uncompressed
 * point whose first byte (0x00-0x1f) may be a tab, CR or LF, and then a '{' (CI, s25). */
bool cli_looks_json(const void *d, size_t n, const char *opens);

/* Parses a --threads value: 1..CUZK_POOL_MAX_THREADS, or 0 = all CPUs. */
bool cli_parse_threads(const char *s, unsigned *out);

/* Creates the worker pool for nthreads (0 = all CPUs); prints and returns false on error. */
bool cli_pool_create(const char *cmd, unsigned nthreads, cuzk_pool **pool);

#endif
