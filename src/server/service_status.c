/*
 * service_status.c — engine status and metrics in the service's three shapes: the
 * GetStatus protobuf reply, the GET /status JSON document, and Prometheus text (the
 * engine's metrics plus the transport's counters).
 *
 * Threading: reentrant; every function works on its arguments only.
 */
#define _GNU_SOURCE /* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service.h"
#include "util/util_export.h"

void cuzk_service_status_scrub(cuzk_engine_status *st)
{
    for (size_t i = 0; i < st->n_devices; i++) {
        cuzk_utf8_scrub(st->devices[i].name);
        cuzk_utf8_scrub(st->devices[i].current_job_id);
        cuzk_utf8_scrub(st->devices[i].out_reason);
    }
    for (size_t i = 0; i < st->n_srs; i++)
        cuzk_utf8_scrub(st->srs[i].circuit_id);
}

cuzk_status cuzk_service_status_fill(const cuzk_engine_status *st,
                                     Cuzk__V1__GetStatusResponse *out)
{
    cuzk__v1__get_status_response__init(out);
    out->total_proofs_completed = st->jobs_completed;
    out->total_proofs_failed = st->jobs_failed;
    out->total_proofs_cancelled = st->jobs_cancelled;
    out->uptime_seconds = st->uptime_s;
    out->pinned_memory_bytes = st->pinned_bytes;
    /* Curio reads pinned_memory_limit_bytes as the memory the daemon may use. */
    out->pinned_memory_limit_bytes = st->memory_budget_bytes;
    out->memory_budget_bytes = st->memory_budget_bytes;
    out->memory_used_bytes = st->memory_used_bytes;
    out->memory_peak_bytes = st->memory_peak_bytes;
    out->memory_hot_bytes = st->memory_hot_bytes;
    out->memory_warm_bytes = st->memory_warm_bytes;
    out->memory_working_bytes = st->memory_working_bytes;
    out->partitions_synthesizing = st->partitions_synthesizing;
    out->partitions_queued_device = st->partitions_queued_device;
    out->partitions_on_device = st->partitions_on_device;
    out->partitions_finalizing = st->partitions_finalizing;

    size_t nd = st->n_devices, ns = st->n_srs, nq = st->n_queues;
    Cuzk__V1__GPUStatus *g = calloc(nd ? nd : 1, sizeof *g);
    Cuzk__V1__GPUStatus **gp = calloc(nd ? nd : 1, sizeof *gp);
    Cuzk__V1__SRSStatus *s = calloc(ns ? ns : 1, sizeof *s);
    Cuzk__V1__SRSStatus **sp = calloc(ns ? ns : 1, sizeof *sp);
    Cuzk__V1__QueueStatus *q = calloc(nq ? nq : 1, sizeof *q);
    Cuzk__V1__QueueStatus **qp = calloc(nq ? nq : 1, sizeof *qp);
    out->gpus = gp;
    out->loaded_srs = sp;
    out->queues = qp;
    if (!g || !gp || !s || !sp || !q || !qp) {
        /* release() frees the arrays through the pointer arrays' first element */
        free(g);
        free(s);
        free(q);
        free(gp);
        free(sp);
        free(qp);
        out->gpus = NULL;
        out->loaded_srs = NULL;
        out->queues = NULL;
        return CUZK_ERR_NOMEM;
    }
    for (size_t i = 0; i < nd; i++) {
        const cuzk_device_status *d = &st->devices[i];
        cuzk__v1__gpustatus__init(&g[i]);
        g[i].ordinal = d->ordinal;
        g[i].name = (char *)d->name;
        g[i].vram_total_bytes = d->vram_total_bytes;
        g[i].vram_free_bytes = d->vram_free_bytes;
        g[i].current_job_id = (char *)d->current_job_id;
        g[i].current_proof_kind =
            (char *)(d->current_job_id[0] ? cuzk_proof_kind_name(d->current_kind) : "");
        g[i].is_gpu = d->is_gpu;
        g[i].partitions_done = d->partitions_done;
        g[i].partitions_failed = d->partitions_failed;
        g[i].busy_ratio = d->busy_ratio;
        g[i].out_of_service = !d->in_service;
        g[i].out_of_service_reason = (char *)d->out_reason;
        gp[i] = &g[i];
    }
    for (size_t i = 0; i < ns; i++) {
        const cuzk_srs_status *k = &st->srs[i];
        cuzk__v1__srsstatus__init(&s[i]);
        s[i].circuit_id = (char *)k->circuit_id;
        s[i].tier = (Cuzk__V1__SRSStatus__Tier)k->tier;
        s[i].size_bytes = k->size_bytes;
        s[i].ref_count = k->ref_count;
        s[i].idle_ms = k->idle_ms;
        sp[i] = &s[i];
    }
    for (size_t i = 0; i < nq; i++) {
        cuzk__v1__queue_status__init(&q[i]);
        q[i].proof_kind = (char *)cuzk_proof_kind_name(st->queues[i].kind);
        q[i].pending = st->queues[i].pending;
        q[i].in_progress = st->queues[i].in_progress;
        qp[i] = &q[i];
    }
    out->n_gpus = nd;
    out->n_loaded_srs = ns;
    out->n_queues = nq;
    /* Keep the element arrays reachable for release() even when the counts are 0. */
    gp[0] = gp[0] ? gp[0] : g;
    sp[0] = sp[0] ? sp[0] : s;
    qp[0] = qp[0] ? qp[0] : q;
    return CUZK_OK;
}

void cuzk_service_status_release(Cuzk__V1__GetStatusResponse *out)
{
    if (out->gpus) {
        free(out->gpus[0]);
        free(out->gpus);
    }
    if (out->loaded_srs) {
        free(out->loaded_srs[0]);
        free(out->loaded_srs);
    }
    if (out->queues) {
        free(out->queues[0]);
        free(out->queues);
    }
    out->gpus = NULL;
    out->loaded_srs = NULL;
    out->queues = NULL;
}

cuzk_status cuzk_service_metrics(const cuzk_service *svc, char **out, size_t *len,
                                 cuzk_error *err)
{
    char *eng;
    size_t elen;
    cuzk_status st = cuzk_engine_metrics_text(svc->engine, &eng, &elen, err);
    if (st != CUZK_OK)
        return st;
    rpc_server_stats rs = {0};
    if (svc->rpc)
        rpc_server_get_stats(svc->rpc, &rs);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) {
        free(eng);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    fwrite(eng, 1, elen, f);
    free(eng);
    fprintf(f,
            "# HELP cuzk_rpc_connections Open gRPC connections.\n"
            "# TYPE cuzk_rpc_connections gauge\n"
            "cuzk_rpc_connections %u\n"
            "# HELP cuzk_rpc_calls_in_flight gRPC calls being handled.\n"
            "# TYPE cuzk_rpc_calls_in_flight gauge\n"
            "cuzk_rpc_calls_in_flight %u\n"
            "# HELP cuzk_rpc_calls_total gRPC calls handled since start.\n"
            "# TYPE cuzk_rpc_calls_total counter\n"
            "cuzk_rpc_calls_total %llu\n"
            "# HELP cuzk_rpc_connections_total gRPC connections accepted since start.\n"
            "# TYPE cuzk_rpc_connections_total counter\n"
            "cuzk_rpc_connections_total %llu\n"
            "# HELP cuzk_rpc_keepalive_pings_total HTTP/2 keepalive PINGs sent to silent peers.\n"
            "# TYPE cuzk_rpc_keepalive_pings_total counter\n"
            "cuzk_rpc_keepalive_pings_total %llu\n",
            rs.connections, rs.calls, (unsigned long long)rs.calls_total,
            (unsigned long long)rs.conns_total, (unsigned long long)rs.pings_total);
    if (fclose(f) != 0) {
        free(buf);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

cuzk_status cuzk_service_status_json(const cuzk_service *svc, char **out, size_t *len,
                                     cuzk_error *err)
{
    cuzk_engine_status st;
    cuzk_status rc = cuzk_engine_get_status(svc->engine, &st, err);
    if (rc != CUZK_OK)
        return rc;
    cuzk_service_status_scrub(&st); /* JSON text is UTF-8 too */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) {
        cuzk_engine_status_free(&st);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    fprintf(f,
            "{\"uptime_seconds\":%llu,\"jobs_completed\":%llu,\"jobs_failed\":%llu,"
            "\"jobs_cancelled\":%llu,\"memory\":{\"budget\":%llu,\"used\":%llu,\"peak\":%llu,"
            "\"hot\":%llu,\"warm\":%llu,\"working\":%llu,\"pinned\":%llu},"
            "\"partitions\":{\"synthesizing\":%u,\"queued_device\":%u,\"on_device\":%u,"
            "\"finalizing\":%u},\"devices\":[",
            (unsigned long long)st.uptime_s, (unsigned long long)st.jobs_completed,
            (unsigned long long)st.jobs_failed, (unsigned long long)st.jobs_cancelled,
            (unsigned long long)st.memory_budget_bytes,
            (unsigned long long)st.memory_used_bytes, (unsigned long long)st.memory_peak_bytes,
            (unsigned long long)st.memory_hot_bytes, (unsigned long long)st.memory_warm_bytes,
            (unsigned long long)st.memory_working_bytes, (unsigned long long)st.pinned_bytes,
            st.partitions_synthesizing, st.partitions_queued_device, st.partitions_on_device,
            st.partitions_finalizing);
    for (size_t i = 0; i < st.n_devices; i++) {
        const cuzk_device_status *d = &st.devices[i];
        fprintf(f, "%s{\"ordinal\":%u,\"name\":", i ? "," : "", d->ordinal);
        json_str(f, d->name);
        fprintf(f, ",\"is_gpu\":%s,\"current_job_id\":", d->is_gpu ? "true" : "false");
        json_str(f, d->current_job_id);
        fprintf(f, ",\"partitions_done\":%llu,\"partitions_failed\":%llu,\"busy_ratio\":%.4f,"
                   "\"in_service\":%s,\"out_reason\":",
                (unsigned long long)d->partitions_done,
                (unsigned long long)d->partitions_failed, d->busy_ratio,
                d->in_service ? "true" : "false");
        json_str(f, d->out_reason);
        fputc('}', f);
    }
    fputs("],\"srs\":[", f);
    for (size_t i = 0; i < st.n_srs; i++) {
        static const char *const tiers[] = {"hot", "warm", "cold"};
        const cuzk_srs_status *k = &st.srs[i];
        fputs(i ? ",{\"circuit_id\":" : "{\"circuit_id\":", f);
        json_str(f, k->circuit_id);
        fprintf(f, ",\"tier\":\"%s\",\"size_bytes\":%llu,\"ref_count\":%u,\"idle_ms\":%llu}",
                (unsigned)k->tier < 3 ? tiers[k->tier] : "unknown",
                (unsigned long long)k->size_bytes, k->ref_count,
                (unsigned long long)k->idle_ms);
    }
    fputs("],\"queues\":[", f);
    for (size_t i = 0; i < st.n_queues; i++)
        fprintf(f, "%s{\"proof_kind\":\"%s\",\"pending\":%u,\"in_progress\":%u}",
                i ? "," : "", cuzk_proof_kind_name(st.queues[i].kind),
                st.queues[i].pending, st.queues[i].in_progress);
    rpc_server_stats rs = {0};
    if (svc->rpc)
        rpc_server_get_stats(svc->rpc, &rs);
    fprintf(f, "],\"rpc\":{\"connections\":%u,\"calls_in_flight\":%u,\"calls_total\":%llu}}\n",
            rs.connections, rs.calls, (unsigned long long)rs.calls_total);
    cuzk_engine_status_free(&st);
    if (fclose(f) != 0) {
        free(buf);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}
