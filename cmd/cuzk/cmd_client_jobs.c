/*
 * cmd_client_jobs.c — the job commands of the cuzkd client:
 *   cuzk submit [--addr A] JOB...         SubmitProof; prints the job id
 *   cuzk await JOB_ID [--wait-ms N] [--out F]   AwaitProof; prints the result
 *   cuzk remote-prove [--addr A] JOB... [--out F]   Prove (submit + await in one call)
 *   cuzk cancel JOB_ID                    CancelProof
 * (`cuzk prove` is the local prover; the daemon's Prove is `remote-prove`.)
 * Threading: main thread only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

#ifdef CUZK_HAVE_GRPC
#include "client_common.h"

#define CONN_OPTIONS CLI_CONN_OPTIONS
#define CONN_USAGE CLI_CONN_USAGE

static int bad_option(const char *cmd, char **argv)
{
    fprintf(stderr, "cuzk %s: unknown option or missing value: %s (try 'cuzk help %s')\n", cmd,
            argv[optind - 1], cmd);
    return CUZK_EXIT_USAGE;
}

/* Parses the options of submit / remote-prove. */
static int parse_job_args(const char *cmd, int argc, char **argv, cli_conn_opts *co,
                          cli_job *job, const char **out)
{
    static const struct option opts[] = {CONN_OPTIONS, CLI_JOB_OPTIONS,
                                         {"out", required_argument, NULL, 'o'},
                                         {NULL, 0, NULL, 0}};
    cli_conn_opts_init(co);
    cli_job_init(job);
    opterr = 0;
    optind = 1;
    int c, r;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'o' && out) {
            *out = optarg;
            continue;
        }
        if ((r = cli_conn_opt(co, c, optarg)) == 0)
            r = cli_job_opt(cmd, job, c, optarg);
        if (r < 0)
            return CUZK_EXIT_USAGE;
        if (r == 0)
            return bad_option(cmd, argv);
    }
    if (optind != argc) {
        fprintf(stderr, "cuzk %s: unexpected argument %s\n", cmd, argv[optind]);
        return CUZK_EXIT_USAGE;
    }
    return cli_job_finish(cmd, job);
}

void cmd_submit_usage(FILE *out)
{
    fprintf(out, "usage: cuzk submit [--addr A] [--timeout MS] [--token T] JOB\n"
                 "submits a proof job to cuzkd and prints its id (then: cuzk await ID)\n"
                 "\n" CONN_USAGE CLI_JOB_USAGE);
}

int cmd_submit(int argc, char **argv)
{
    cli_conn_opts co;
    cli_job job;
    int rc = parse_job_args("submit", argc, argv, &co, &job, NULL);
    if (rc == CUZK_EXIT_OK) {
        Cuzk__V1__SubmitProofResponse *res;
        rc = cli_call("submit", &co, "SubmitProof", &job.req.base,
                      &cuzk__v1__submit_proof_response__descriptor, (void **)&res);
        if (rc == CUZK_EXIT_OK) {
            printf("%s\n", res->job_id);
            fprintf(stderr, "queue position %u\n", res->queue_position);
            protobuf_c_message_free_unpacked(&res->base, NULL);
        }
    }
    cli_job_free(&job);
    return rc;
}

void cmd_remote_prove_usage(FILE *out)
{
    fprintf(out, "usage: cuzk remote-prove [--addr A] [--timeout MS] [--token T] JOB [--out FILE]\n"
                 "proves on cuzkd (its Prove call: submit and wait), prints the result and\n"
                 "writes the proof bytes (192 per partition) to FILE\n"
                 "\n" CONN_USAGE CLI_JOB_USAGE);
}

int cmd_remote_prove(int argc, char **argv)
{
    cli_conn_opts co;
    cli_job job;
    const char *out = NULL;
    int rc = parse_job_args("remote-prove", argc, argv, &co, &job, &out);
    if (rc == CUZK_EXIT_OK) {
        Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
        p.submit = &job.req;
        Cuzk__V1__ProveResponse *res;
        rc = cli_call("remote-prove", &co, "Prove", &p.base,
                      &cuzk__v1__prove_response__descriptor, (void **)&res);
        if (rc == CUZK_EXIT_OK) {
            rc = res->result ? cli_print_result("remote-prove", res->result, out)
                             : CUZK_EXIT_FAIL;
            protobuf_c_message_free_unpacked(&res->base, NULL);
        }
    }
    cli_job_free(&job);
    return rc;
}

/* Parses `CMD JOB_ID [conn options] [--wait-ms N] [--out F]`. */
static int parse_id_args(const char *cmd, int argc, char **argv, cli_conn_opts *co,
                         const char **id, uint64_t *wait_ms, const char **out)
{
    static const struct option opts[] = {CONN_OPTIONS,
                                         {"wait-ms", required_argument, NULL, 'w'},
                                         {"out", required_argument, NULL, 'o'},
                                         {NULL, 0, NULL, 0}};
    cli_conn_opts_init(co);
    opterr = 0;
    optind = 1;
    int c, r;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'w' && wait_ms) {
            char *end;
            *wait_ms = strtoull(optarg, &end, 10);
            if (!optarg[0] || *end || optarg[0] == '-') {
                fprintf(stderr, "cuzk %s: --wait-ms needs milliseconds\n", cmd);
                return CUZK_EXIT_USAGE;
            }
        } else if (c == 'o' && out) {
            *out = optarg;
        } else if ((r = cli_conn_opt(co, c, optarg)) <= 0) {
            return r < 0 ? CUZK_EXIT_USAGE : bad_option(cmd, argv);
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "cuzk %s: needs exactly one JOB_ID (try 'cuzk help %s')\n", cmd, cmd);
        return CUZK_EXIT_USAGE;
    }
    *id = argv[optind];
    return CUZK_EXIT_OK;
}

void cmd_await_usage(FILE *out)
{
    fprintf(out, "usage: cuzk await JOB_ID [--addr A] [--timeout MS] [--token T] [--wait-ms N]\n"
                 "                  [--out FILE]\n"
                 "waits for a job (at most N ms with --wait-ms; default until it ends), prints\n"
                 "the result and writes the proof bytes to FILE; exit 0 only when COMPLETED\n"
                 "\n" CONN_USAGE);
}

int cmd_await(int argc, char **argv)
{
    cli_conn_opts co;
    const char *id = NULL, *out = NULL;
    uint64_t wait_ms = 0;
    int rc = parse_id_args("await", argc, argv, &co, &id, &wait_ms, &out);
    if (rc != CUZK_EXIT_OK)
        return rc;
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = (char *)id;
    a.timeout_ms = wait_ms;
    Cuzk__V1__AwaitProofResponse *res;
    rc = cli_call("await", &co, "AwaitProof", &a.base,
                  &cuzk__v1__await_proof_response__descriptor, (void **)&res);
    if (rc == CUZK_EXIT_OK) {
        rc = cli_print_result("await", res, out);
        protobuf_c_message_free_unpacked(&res->base, NULL);
    }
    return rc;
}

void cmd_cancel_usage(FILE *out)
{
    fprintf(out, "usage: cuzk cancel JOB_ID [--addr A] [--timeout MS] [--token T]\n"
                 "cancels a queued or running job\n\n" CONN_USAGE);
}

int cmd_cancel(int argc, char **argv)
{
    cli_conn_opts co;
    const char *id = NULL;
    int rc = parse_id_args("cancel", argc, argv, &co, &id, NULL, NULL);
    if (rc != CUZK_EXIT_OK)
        return rc;
    Cuzk__V1__CancelProofRequest cr = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cr.job_id = (char *)id;
    Cuzk__V1__CancelProofResponse *res;
    rc = cli_call("cancel", &co, "CancelProof", &cr.base,
                  &cuzk__v1__cancel_proof_response__descriptor, (void **)&res);
    if (rc == CUZK_EXIT_OK) {
        printf("cancelled %s (%s)\n", id, res->was_running ? "was running" : "was not running");
        protobuf_c_message_free_unpacked(&res->base, NULL);
    }
    return rc;
}

#else /* built without nghttp2 + protobuf-c */

static int not_built(const char *cmd)
{
    fprintf(stderr, "cuzk %s: this build has no gRPC client (needs nghttp2 and protobuf-c)\n",
            cmd);
    return CUZK_EXIT_FAIL;
}

#define STUB(name, cmdname)                                                                \
    void cmd_##name##_usage(FILE *out)                                                     \
    {                                                                                      \
        fprintf(out, "usage: cuzk " cmdname " ... (not in this build: needs nghttp2 and "  \
                     "protobuf-c)\n");                                                     \
    }                                                                                      \
    int cmd_##name(int argc, char **argv)                                                  \
    {                                                                                      \
        return not_built(cmdname);                                                         \
    }
STUB(submit, "submit")
STUB(remote_prove, "remote-prove")
STUB(await, "await")
STUB(cancel, "cancel")

#endif
