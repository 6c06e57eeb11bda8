/*
 * client_common.h — what the `cuzk` client commands (submit, await, remote-prove,
 * cancel, status, metrics) share: the --addr/--timeout options, one-call helpers over
 * the C client (cuzk/client.h), the job-spec options that build a SubmitProofRequest,
 * and the printing of a proof result.
 *
 * The daemon address is --addr, else $CUZK_ADDR, else CLI_DEFAULT_ADDR. Exit codes:
 * 0 success, 1 the call or the job failed (message on stderr), 2 a bad command line.
 *
 * Threading: main thread only.
 */
#ifndef CUZK_CMD_CLIENT_COMMON_H
#define CUZK_CMD_CLIENT_COMMON_H

#ifdef CUZK_HAVE_GRPC

#include <stdint.h>

#include "cuzk/client.h"
#include "cuzk/v1/proving.pb-c.h"

#define CLI_DEFAULT_ADDR "unix:///run/curio/cuzk.sock"

typedef struct cli_conn_opts {
    const char *addr;
    int64_t timeout_ms; /* 0 = none */
    const char *token;  /* --token, else $CUZK_TOKEN; NULL = none */
} cli_conn_opts;

/* The connection options of every client command, for getopt_long and the usage text. */
#define CLI_CONN_OPTIONS                                                                   \
    {"addr", required_argument, NULL, 'a'}, {"timeout", required_argument, NULL, 'T'},    \
    {"token", required_argument, NULL, 'K'}
#define CLI_CONN_USAGE                                                                     \
    "  --addr unix:///PATH | HOST:PORT   the daemon (default $CUZK_ADDR, else "           \
    CLI_DEFAULT_ADDR ")\n"                                                                 \
    "  --timeout MS                      gRPC deadline of the call (default none)\n"        \
    "  --token T                         the daemon's shared token, sent as 'authorization:\n" \
    "                                    Bearer T' (default $CUZK_TOKEN, which ps does not\n" \
    "                                    show; TCP listeners with daemon.auth_token need it)\n"

/* Handles --addr, --timeout and --token (returns 1 when opt was one of them, 0 if not,
 * -1 bad). */
int cli_conn_opt(cli_conn_opts *o, int opt, const char *arg);
void cli_conn_opts_init(cli_conn_opts *o);

/* Connects, calls method with m, unpacks the reply with desc into *out. Returns
 * CUZK_EXIT_OK or prints "cuzk CMD: ..." and returns CUZK_EXIT_FAIL. */
int cli_call(const char *cmd, const cli_conn_opts *o, const char *method,
             const ProtobufCMessage *m, const ProtobufCMessageDescriptor *desc, void **out);

/* Job spec options: --synthetic LOG2N --partitions N --seed S | --zkey/--params/--r1cs/
 * --wtns FILE [--send-files] | --kind K --vanilla FILE ...; --priority P --request-id ID.
 * Long-option ids start at 1000; cli_job_opts lists them for getopt_long. */
typedef struct cli_job {
    Cuzk__V1__SubmitProofRequest req;
    const char *zkey, *params, *r1cs, *wtns, *vanilla;
    int send_files;
    int has_synthetic;
    uint8_t *buffers[5]; /* file contents read for --send-files / --vanilla */
} cli_job;

#define CLI_JOB_OPTIONS                                                                    \
    {"synthetic", required_argument, NULL, 1000}, {"partitions", required_argument, NULL, 1001}, \
    {"seed", required_argument, NULL, 1002},       {"zkey", required_argument, NULL, 1003},     \
    {"params", required_argument, NULL, 1004},     {"r1cs", required_argument, NULL, 1005},     \
    {"wtns", required_argument, NULL, 1006},       {"send-files", no_argument, NULL, 1007},     \
    {"kind", required_argument, NULL, 1008},       {"vanilla", required_argument, NULL, 1009},  \
    {"priority", required_argument, NULL, 1010},   {"request-id", required_argument, NULL, 1011}, \
    {"sector-size", required_argument, NULL, 1012}, {"registered-proof", required_argument, NULL, 1013}, \
    {"sector-number", required_argument, NULL, 1014}, {"miner-id", required_argument, NULL, 1015}

#define CLI_JOB_USAGE                                                                      \
    "job (one of):\n"                                                                      \
    "  --synthetic LOG2N [--partitions N] [--seed S]   synthetic PoRep-shaped circuit\n"  \
    "  --zkey F --wtns F [--r1cs F]                    snarkjs circuit\n"                 \
    "  --params F --r1cs F --wtns F                    bellperson circuit\n"              \
    "      (paths are read by the daemon; --send-files sends the bytes instead)\n"        \
    "  --kind porep|window-post|winning-post|snap --vanilla F [--sector-size S]\n"        \
    "      [--registered-proof N] [--sector-number N] [--miner-id N]   Filecoin proofs\n" \
    "      (porep: the C1 output; PoSt: the job document of cuzk/post.h; S: 32GiB,\n"     \
    "      2KiB or bytes; N: Go's abi number, e.g. 8 = StackedDrg32GiBV1_1)\n"           \
    "  --priority low|normal|high|critical\n"                                           \
    "  --request-id ID   a retry's key: joins the running job of the same request, gets\n" \
    "      a completed one back; a failed or cancelled one is proved again\n"

void cli_job_init(cli_job *j);
/* Returns 1 when opt was a job option, 0 if not, -1 on a bad value (message printed). */
int cli_job_opt(const char *cmd, cli_job *j, int opt, const char *arg);
/* Checks the combination and reads the files it must send. CUZK_EXIT_* */
int cli_job_finish(const char *cmd, cli_job *j);
void cli_job_free(cli_job *j);

/* Prints a result (status, timings) and writes the proof to out_path when given.
 * Returns CUZK_EXIT_OK for COMPLETED, CUZK_EXIT_FAIL otherwise. */
int cli_print_result(const char *cmd, const Cuzk__V1__AwaitProofResponse *r,
                     const char *out_path);

#endif
#endif
