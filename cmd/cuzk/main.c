/*
 * main.c — `cuzk <command> [args]`: the command table, global options (--help, --version)
 * and `cuzk help <command>`.
 *
 * `cuzk COMMAND --help` (or -h anywhere among its arguments) is `cuzk help COMMAND`.
 *
 * Exit status: 0 success, 1 failure inside a command, 2 a bad command line (unknown
 * command or option; the message goes to stderr). Threading: single-threaded dispatch; a
 * command may start its own threads.
 */
#define _POSIX_C_SOURCE 200809L /* signal */

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cuzk/ff.h"

/* CMake's project(VERSION) is the source of truth; the fallback keeps a build that does
 * not pass it (e.g. a bare compiler call) working. */
#ifndef CUZK_VERSION
#define CUZK_VERSION "0.1.0"
#endif

static const cuzk_command k_commands[] = {
    {"prove", "make a Groth16 proof (snarkjs .zkey or bellperson .params)", cmd_prove,
     cmd_prove_usage},
    {"verify", "check a Groth16 proof (prints OK or INVALID)", cmd_verify, cmd_verify_usage},
    {"setup", "development setup for an .r1cs or a Filecoin circuit (tests only)", cmd_setup,
     cmd_setup_usage},
    {"inspect", "describe a .zkey/.r1cs/.wtns/.params/.vk from its headers", cmd_inspect,
     cmd_inspect_usage},
    {"seal-commit", "PoRep C2 from a C1 output, locally (Filecoin .params or a dev key)",
     cmd_seal_commit, cmd_seal_commit_usage},
    {"verify-seal", "check a PoRep C2 proof against its C1 output and a key",
     cmd_verify_seal, cmd_verify_seal_usage},
    {"porep-prove", "alias of seal-commit", cmd_seal_commit, cmd_seal_commit_usage},
    {"verify-porep", "alias of verify-seal", cmd_verify_seal, cmd_verify_seal_usage},
    {"gen-c1", "SYNTHETIC TEST DATA: a consistent PoRep C1 output (not a sealed sector)",
     cmd_gen_c1, cmd_gen_c1_usage},
    {"gen-vanilla", "SYNTHETIC TEST DATA: a consistent PoSt / SnapDeals job (no stored sector)",
     cmd_gen_vanilla, cmd_gen_vanilla_usage},
    {"window-post", "WindowPoSt partition from vanilla proofs, locally", cmd_window_post,
     cmd_window_post_usage},
    {"winning-post", "WinningPoSt from vanilla proofs, locally", cmd_winning_post,
     cmd_winning_post_usage},
    {"snap-prove", "SnapDeals (sector update) proof from vanilla partition proofs, locally",
     cmd_snap_prove, cmd_snap_prove_usage},
    {"plan", "whether a Filecoin job fits this machine's memory (host and GPU), and why",
     cmd_plan, cmd_plan_usage},
    {"bench", "time field, curve and pairing operations", cmd_bench, cmd_bench_usage},
    {"submit", "send a proof job to cuzkd (prints its id)", cmd_submit, cmd_submit_usage},
    {"await", "wait for a cuzkd job and fetch its proof", cmd_await, cmd_await_usage},
    {"remote-prove", "prove on cuzkd (submit + await in one call)", cmd_remote_prove,
     cmd_remote_prove_usage},
    {"cancel", "cancel a cuzkd job", cmd_cancel, cmd_cancel_usage},
    {"status", "cuzkd's devices, keys, queues and memory", cmd_status, cmd_status_usage},
    {"metrics", "cuzkd's Prometheus metrics", cmd_metrics, cmd_metrics_usage},
};
#define NCOMMANDS (sizeof k_commands / sizeof k_commands[0])

static const cuzk_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(k_commands[i].name, name) == 0)
            return &k_commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk <command> [args]\n"
            "       cuzk help <command>\n"
            "       cuzk --help | --version\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-13s %s\n", k_commands[i].name, k_commands[i].summary);
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "cuzk: unknown command '%s' (try 'cuzk --help')\n", name);
    return CUZK_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CUZK_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CUZK_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("cuzk %s (field backend: %s)\n", CUZK_VERSION, cuzk_ff_backend());
        return CUZK_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return CUZK_EXIT_OK;
        }
        if (argc > 3) {
            fprintf(stderr, "cuzk: 'help' takes one command name\n");
            return CUZK_EXIT_USAGE;
        }
        const cuzk_command *c = find_command(argv[2]);
        if (!c)
            return unknown_command(argv[2]);
        c->usage(stdout);
        return CUZK_EXIT_OK;
    }
    if (cmd[0] == '-') {
        fprintf(stderr, "cuzk: unknown option '%s' (try 'cuzk --help')\n", cmd);
        return CUZK_EXIT_USAGE;
    }
    const cuzk_command *c = find_command(cmd);
    if (!c)
        return unknown_command(cmd);
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            c->usage(stdout);
            return CUZK_EXIT_OK;
        }
    /* A file-size limit (ulimit -f) must fail the write with EFBIG, not kill the process
     * before it can remove its temporaries. */
    signal(SIGXFSZ, SIG_IGN);
    return c->run(argc - 1, argv + 1);
}
