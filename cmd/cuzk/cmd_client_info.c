/*
 * cmd_client_info.c — the read-only commands of the cuzkd client:
 *   cuzk status  [--addr A]   GetStatus, printed as text (devices, keys, queues, memory)
 *   cuzk metrics [--addr A]   GetMetrics: the Prometheus text as the daemon serves it
 * Threading: main thread only.
 */
#include <getopt.h>
#include <stdio.h>

#include "commands.h"

#ifdef CUZK_HAVE_GRPC
#include "client_common.h"

static int parse(const char *cmd, int argc, char **argv, cli_conn_opts *co)
{
    static const struct option opts[] = {CLI_CONN_OPTIONS, {NULL, 0, NULL, 0}};
    cli_conn_opts_init(co);
    opterr = 0;
    optind = 1;
    int c, r;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        if ((r = cli_conn_opt(co, c, optarg)) <= 0) {
            if (r == 0)
                fprintf(stderr, "cuzk %s: unknown option or missing value: %s\n", cmd,
                        argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    if (optind != argc) {
        fprintf(stderr, "cuzk %s: unexpected argument %s\n", cmd, argv[optind]);
        return CUZK_EXIT_USAGE;
    }
    return CUZK_EXIT_OK;
}

static double gib(uint64_t b)
{
    return (double)b / (double)(1ULL << 30);
}

void cmd_status_usage(FILE *out)
{
    fprintf(out, "usage: cuzk status [--addr unix:///PATH | HOST:PORT] [--timeout MS] [--token T]\n"
                 "prints cuzkd's devices, keys, queues, memory and counters\n\n" CLI_CONN_USAGE);
}

int cmd_status(int argc, char **argv)
{
    cli_conn_opts co;
    int rc = parse("status", argc, argv, &co);
    if (rc != CUZK_EXIT_OK)
        return rc;
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *s;
    rc = cli_call("status", &co, "GetStatus", &q.base,
                  &cuzk__v1__get_status_response__descriptor, (void **)&s);
    if (rc != CUZK_EXIT_OK)
        return rc;
    printf("uptime %llus  proofs completed %llu  failed %llu  cancelled %llu\n",
           (unsigned long long)s->uptime_seconds, (unsigned long long)s->total_proofs_completed,
           (unsigned long long)s->total_proofs_failed,
           (unsigned long long)s->total_proofs_cancelled);
    printf("memory: budget %.2f GiB  used %.2f  peak %.2f  (keys hot %.2f, warm %.2f; "
           "working %.2f; pinned %.2f)\n",
           gib(s->memory_budget_bytes), gib(s->memory_used_bytes), gib(s->memory_peak_bytes),
           gib(s->memory_hot_bytes), gib(s->memory_warm_bytes), gib(s->memory_working_bytes),
           gib(s->pinned_memory_bytes));
    printf("partitions: synthesizing %u  waiting for a device %u  on a device %u  "
           "finalizing %u\n",
           s->partitions_synthesizing, s->partitions_queued_device, s->partitions_on_device,
           s->partitions_finalizing);
    for (size_t i = 0; i < s->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = s->gpus[i];
        printf("device %u: %s%s  done %llu failed %llu  busy %.1f%%", g->ordinal, g->name,
               g->is_gpu ? "" : " (cpu)", (unsigned long long)g->partitions_done,
               (unsigned long long)g->partitions_failed, 100.0 * g->busy_ratio);
        if (g->vram_total_bytes)
            printf("  vram %.1f/%.1f GiB free", gib(g->vram_free_bytes),
                   gib(g->vram_total_bytes));
        if (g->current_job_id[0])
            printf("  job %s (%s)", g->current_job_id, g->current_proof_kind);
        if (g->out_of_service)
            printf("  OUT OF SERVICE: %s", g->out_of_service_reason);
        printf("\n");
    }
    static const char *const tiers[] = {"hot", "warm", "cold"};
    for (size_t i = 0; i < s->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *k = s->loaded_srs[i];
        printf("key %s: %s  %.2f GiB  in use by %u  idle %llums\n", k->circuit_id,
               (unsigned)k->tier < 3 ? tiers[k->tier] : "?", gib(k->size_bytes), k->ref_count,
               (unsigned long long)k->idle_ms);
    }
    for (size_t i = 0; i < s->n_queues; i++)
        printf("queue %s: pending %u  in progress %u\n", s->queues[i]->proof_kind,
               s->queues[i]->pending, s->queues[i]->in_progress);
    protobuf_c_message_free_unpacked(&s->base, NULL);
    return CUZK_EXIT_OK;
}

void cmd_metrics_usage(FILE *out)
{
    fprintf(out, "usage: cuzk metrics [--addr unix:///PATH | HOST:PORT] [--timeout MS] [--token T]\n"
                 "prints cuzkd's metrics (Prometheus text exposition)\n\n" CLI_CONN_USAGE);
}

int cmd_metrics(int argc, char **argv)
{
    cli_conn_opts co;
    int rc = parse("metrics", argc, argv, &co);
    if (rc != CUZK_EXIT_OK)
        return rc;
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *m;
    rc = cli_call("metrics", &co, "GetMetrics", &q.base,
                  &cuzk__v1__get_metrics_response__descriptor, (void **)&m);
    if (rc == CUZK_EXIT_OK) {
        fputs(m->prometheus_text, stdout);
        protobuf_c_message_free_unpacked(&m->base, NULL);
    }
    return rc;
}

#else /* built without nghttp2 + protobuf-c */

#define STUB(name)                                                                         \
    void cmd_##name##_usage(FILE *out)                                                     \
    {                                                                                      \
        fprintf(out, "usage: cuzk " #name " ... (not in this build: needs nghttp2 and "    \
                     "protobuf-c)\n");                                                     \
    }                                                                                      \
    int cmd_##name(int argc, char **argv)                                                  \
    {                                                                                      \
        fprintf(stderr, "cuzk " #name ": this build has no gRPC client (needs nghttp2 and " \
                        "protobuf-c)\n");                                                  \
        return CUZK_EXIT_FAIL;                                                             \
    }
STUB(status)
STUB(metrics)

#endif
