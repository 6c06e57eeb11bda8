/*
 * commands.h — the `cuzk` subcommands. main.c keeps them in one table (name, one-line
 * summary, handler, usage printer); adding a command means one handler file and one table
 * row.
 *
 * Handlers get argv with argv[0] = the command name and return the process exit status:
 * 0 success, 1 the work failed, CUZK_EXIT_USAGE (2) a bad command line (message already on
 * stderr). Threading: called once from main's thread.
 */
#ifndef CUZK_CMD_COMMANDS_H
#define CUZK_CMD_COMMANDS_H

#include <stdio.h>

#define CUZK_EXIT_OK 0
#define CUZK_EXIT_FAIL 1
#define CUZK_EXIT_USAGE 2

typedef struct cuzk_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *out);
} cuzk_command;

int cmd_bench(int argc, char **argv);
void cmd_bench_usage(FILE *out);
int cmd_prove(int argc, char **argv);
void cmd_prove_usage(FILE *out);
int cmd_verify(int argc, char **argv);
void cmd_verify_usage(FILE *out);
int cmd_setup(int argc, char **argv);
int cmd_setup_fil(int argc, char **argv); /* cmd_setup_fil.c: setup --circuit */
void cmd_setup_usage(FILE *out);
int cmd_inspect(int argc, char **argv);
void cmd_inspect_usage(FILE *out);
/* `cuzk inspect circuit ...` (cmd_inspect_circuit.c), reached through cmd_inspect */
int cmd_inspect_circuit(int argc, char **argv);
void cmd_inspect_circuit_usage(FILE *out);
/* local Filecoin proving through the engine (cmd_fil_prove.c) */
int cmd_seal_commit(int argc, char **argv); /* also `porep-prove` */
void cmd_seal_commit_usage(FILE *out);
/* PoRep commands (cmd_porep_dev.c): synthetic C1 test data, the C2 proof check */
int cmd_gen_c1(int argc, char **argv);
void cmd_gen_c1_usage(FILE *out);
int cmd_verify_seal(int argc, char **argv); /* also `verify-porep` */
void cmd_verify_seal_usage(FILE *out);
/* synthetic PoSt / SnapDeals job documents (cmd_gen_vanilla.c) */
int cmd_gen_vanilla(int argc, char **argv);
void cmd_gen_vanilla_usage(FILE *out);
int cmd_window_post(int argc, char **argv);
void cmd_window_post_usage(FILE *out);
int cmd_winning_post(int argc, char **argv);
void cmd_winning_post_usage(FILE *out);
int cmd_snap_prove(int argc, char **argv);
void cmd_snap_prove_usage(FILE *out);
/* the memory plan of a Filecoin job (cmd_plan.c) */
int cmd_plan(int argc, char **argv);
void cmd_plan_usage(FILE *out);
/* cuzkd client commands (cmd_client_*.c) */
int cmd_submit(int argc, char **argv);
void cmd_submit_usage(FILE *out);
int cmd_await(int argc, char **argv);
void cmd_await_usage(FILE *out);
int cmd_remote_prove(int argc, char **argv);
void cmd_remote_prove_usage(FILE *out);
int cmd_cancel(int argc, char **argv);
void cmd_cancel_usage(FILE *out);
int cmd_status(int argc, char **argv);
void cmd_status_usage(FILE *out);
int cmd_metrics(int argc, char **argv);
void cmd_metrics_usage(FILE *out);

#endif
