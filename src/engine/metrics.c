/*
 * metrics.c — status snapshots (cuzk_engine_get_status) and the Prometheus text
 * exposition (cuzk_engine_metrics_text) from the engine's counters and histograms, and
 * the timeline's dump (cuzk_engine_timeline_write).
 * Threading: status and metrics take a consistent snapshot under engine->mu and format
 * outside it; the timeline has its own lock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jobs.h"
#include "engine/log.h"
#include "engine/releaser.h"
#include "engine/srs.h"
#include "engine/state.h"

const double emetrics_bounds[EMETRICS_BUCKETS] = {0.005, 0.0125, 0.03, 0.075, 0.2, 0.5, 1.25,
                                                   3, 7.5, 20, 50, 125, 300, 1200};

void ehist_observe(ehist *h, double s)
{
    unsigned b = 0;
    while (b < EMETRICS_BUCKETS && s > emetrics_bounds[b])
        b++;
    h->count[b]++;
    h->sum += s;
    h->n++;
}

static const cuzk_proof_kind k_kinds[] = {
    CUZK_PROOF_POREP_SEAL_COMMIT, CUZK_PROOF_SNAP_DEALS_UPDATE,
    CUZK_PROOF_WINDOW_POST_PARTITION, CUZK_PROOF_WINNING_POST, CUZK_PROOF_GROTH16,
    CUZK_PROOF_SYNTHETIC};
#define N_KINDS (sizeof k_kinds / sizeof k_kinds[0])

cuzk_status cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *s, cuzk_error *err)
{
    if (!e || !s)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "status: NULL argument");
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&e->mu);
    size_t n_srs = 0;
    for (srs_entry *x = e->srs; x; x = x->next)
        n_srs++;
    s->devices = calloc(e->n_devs ? e->n_devs : 1, sizeof *s->devices);
    s->srs = calloc(n_srs ? n_srs : 1, sizeof *s->srs);
    s->queues = calloc(N_KINDS, sizeof *s->queues);
    if (!s->devices || !s->srs || !s->queues) {
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_status_free(s);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    double now = engine_now_ms(), up = now - e->t_start;
    for (unsigned i = 0; i < e->n_devs; i++) {
        edevice *d = &e->devs[i];
        cuzk_device_status *o = &s->devices[i];
        o->ordinal = (uint32_t)d->ordinal;
        snprintf(o->name, sizeof o->name, "%s", d->name);
        o->is_gpu = d->is_gpu;
        snprintf(o->current_job_id, sizeof o->current_job_id, "%s", d->current_job);
        o->current_kind = d->current_job[0] ? d->current_kind : CUZK_PROOF_UNSPECIFIED;
        o->partitions_done = d->done;
        o->partitions_failed = d->failed;
        o->busy_ratio = up > 0 ? d->busy_ms / up : 0;
        o->in_service = !d->out_of_service;
        engine_strcpy(o->out_reason, sizeof o->out_reason, d->out_why);
    }
    s->n_devices = e->n_devs;
    for (srs_entry *x = e->srs; x; x = x->next) {
        cuzk_srs_status *o = &s->srs[s->n_srs++];
        snprintf(o->circuit_id, sizeof o->circuit_id, "%s", x->id);
        o->tier = x->tier;
        o->size_bytes = x->tier == CUZK_SRS_HOT ? x->charged : x->file_size;
        o->ref_count = x->refs;
        o->idle_ms = x->refs ? 0 : (uint64_t)(now - x->last_used_ms);
        if (x->tier == CUZK_SRS_WARM)
            s->memory_warm_bytes += x->map_len;
    }
    for (ejob *j = e->jobs; j; j = j->next) {
        if (engine_job_over(j) || j->spooling)
            continue;
        size_t q = 0;
        while (q < N_KINDS && k_kinds[q] != j->kind->kind)
            q++;
        if (q == N_KINDS)
            continue;
        if (j->state == CUZK_JOB_QUEUED)
            s->queues[q].pending++;
        else
            s->queues[q].in_progress++;
    }
    for (size_t q = 0; q < N_KINDS; q++)
        if (s->queues[q].pending || s->queues[q].in_progress)
            s->queues[s->n_queues++] = (cuzk_queue_status){k_kinds[q], s->queues[q].pending,
                                                           s->queues[q].in_progress};
    s->jobs_completed = e->completed;
    s->jobs_failed = e->failed;
    s->jobs_cancelled = e->cancelled;
    s->uptime_s = (uint64_t)(up / 1e3);
    s->memory_budget_bytes = e->budget;
    s->memory_used_bytes = e->used;
    s->memory_peak_bytes = e->peak;
    s->memory_hot_bytes = e->hot_bytes;
    s->memory_working_bytes = e->working_bytes;
    s->memory_device_only_bytes = e->device_only_bytes;
    s->partitions_synthesizing = e->synth_busy + e->synth_q_len;
    s->partitions_queued_device = e->dev_q_len;
    s->partitions_on_device = e->dev_busy;
    s->partitions_finalizing = e->fin_busy + e->fin_q_len;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

void cuzk_engine_status_free(cuzk_engine_status *s)
{
    if (!s)
        return;
    free(s->devices);
    free(s->srs);
    free(s->queues);
    memset(s, 0, sizeof *s);
}

/* ---- Prometheus text ----------------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool fail;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->fail)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->fail = true;
            return;
        }
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->len + (size_t)n + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->fail = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

static void hist_text(sbuf *b, const char *name, const char *help, const ehist *h)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cum = 0;
    for (unsigned i = 0; i < EMETRICS_BUCKETS; i++) {
        cum += h->count[i];
        sb_printf(b, "%s_bucket{le=\"%g\"} %llu\n", name, emetrics_bounds[i],
                  (unsigned long long)cum);
    }
    cum += h->count[EMETRICS_BUCKETS];
    sb_printf(b, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name,
              (unsigned long long)cum, name, h->sum, name, (unsigned long long)h->n);
}

cuzk_status cuzk_engine_metrics_text(cuzk_engine *e, char **out, size_t *len, cuzk_error *err)
{
    if (!e || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "metrics: NULL argument");
    cuzk_engine_status s;
    cuzk_status st = cuzk_engine_get_status(e, &s, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&e->mu);
    emetrics m = e->metrics;
    unsigned running = 0, queued = 0;
    for (ejob *j = e->jobs; j; j = j->next) {
        running += j->state == CUZK_JOB_RUNNING;
        queued += j->state == CUZK_JOB_QUEUED && !j->spooling;
    }
    unsigned workers = e->n_devs * e->cfg.workers_per_device;
    pthread_mutex_unlock(&e->mu);

    sbuf b = {0};
    sb_printf(&b, "# HELP cuzk_proofs_completed_total Jobs completed.\n"
                  "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total %llu\n",
              (unsigned long long)s.jobs_completed);
    sb_printf(&b, "# HELP cuzk_proofs_failed_total Jobs failed.\n"
                  "# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total %llu\n",
              (unsigned long long)s.jobs_failed);
    sb_printf(&b, "# HELP cuzk_proofs_cancelled_total Jobs cancelled.\n"
                  "# TYPE cuzk_proofs_cancelled_total counter\ncuzk_proofs_cancelled_total %llu\n",
              (unsigned long long)s.jobs_cancelled);
    sb_printf(&b, "# HELP cuzk_proofs_completed Jobs completed by kind.\n"
                  "# TYPE cuzk_proofs_completed counter\n");
    for (size_t k = 0; k < N_KINDS; k++)
        sb_printf(&b, "cuzk_proofs_completed{proof_kind=\"%s\"} %llu\n",
                  cuzk_proof_kind_name(k_kinds[k]),
                  (unsigned long long)m.completed_by_kind[engine_kind_slot(k_kinds[k])]);
    sb_printf(&b, "# HELP cuzk_proofs_failed Jobs failed by kind.\n"
                  "# TYPE cuzk_proofs_failed counter\n");
    for (size_t k = 0; k < N_KINDS; k++)
        sb_printf(&b, "cuzk_proofs_failed{proof_kind=\"%s\"} %llu\n",
                  cuzk_proof_kind_name(k_kinds[k]),
                  (unsigned long long)m.failed_by_kind[engine_kind_slot(k_kinds[k])]);
    sb_printf(&b, "# HELP cuzk_uptime_seconds Seconds since the engine started.\n"
                  "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %llu\n",
              (unsigned long long)s.uptime_s);
    sb_printf(&b, "# HELP cuzk_queue_depth Jobs queued (no partition admitted yet).\n"
                  "# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %u\n", queued);
    sb_printf(&b, "# HELP cuzk_running_jobs Jobs with a partition admitted.\n"
                  "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %u\n", running);
    sb_printf(&b, "# HELP cuzk_gpu_workers Device workers.\n"
                  "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %u\n", workers);
    sb_printf(&b, "# HELP cuzk_partitions Partitions per pipeline stage.\n"
                  "# TYPE cuzk_partitions gauge\n"
                  "cuzk_partitions{stage=\"synthesis\"} %u\n"
                  "cuzk_partitions{stage=\"device_queue\"} %u\n"
                  "cuzk_partitions{stage=\"device\"} %u\n"
                  "cuzk_partitions{stage=\"finalize\"} %u\n",
              s.partitions_synthesizing, s.partitions_queued_device, s.partitions_on_device,
              s.partitions_finalizing);
    sb_printf(&b, "# HELP cuzk_partitions_retried_total Partitions retried after a device "
                  "error or a failed self-check.\n"
                  "# TYPE cuzk_partitions_retried_total counter\n"
                  "cuzk_partitions_retried_total %llu\n",
              (unsigned long long)m.partitions_retried);
    sb_printf(&b, "# HELP cuzk_srs_loads_total Key loads.\n# TYPE cuzk_srs_loads_total counter\n"
                  "cuzk_srs_loads_total %llu\n"
                  "# HELP cuzk_srs_evictions_total Key evictions.\n"
                  "# TYPE cuzk_srs_evictions_total counter\ncuzk_srs_evictions_total %llu\n",
              (unsigned long long)m.srs_loads, (unsigned long long)m.srs_evictions);
    sb_printf(&b, "# HELP cuzk_memory_bytes Memory by use.\n# TYPE cuzk_memory_bytes gauge\n"
                  "cuzk_memory_bytes{use=\"budget\"} %llu\n"
                  "cuzk_memory_bytes{use=\"reserved\"} %llu\n"
                  "cuzk_memory_bytes{use=\"peak\"} %llu\n"
                  "cuzk_memory_bytes{use=\"hot\"} %llu\n"
                  "cuzk_memory_bytes{use=\"warm\"} %llu\n"
                  "cuzk_memory_bytes{use=\"working\"} %llu\n"
                  "cuzk_memory_bytes{use=\"pinned\"} %llu\n"
                  "cuzk_memory_bytes{use=\"device_only\"} %llu\n",
              (unsigned long long)s.memory_budget_bytes, (unsigned long long)s.memory_used_bytes,
              (unsigned long long)s.memory_peak_bytes, (unsigned long long)s.memory_hot_bytes,
              (unsigned long long)s.memory_warm_bytes,
              (unsigned long long)s.memory_working_bytes, (unsigned long long)s.pinned_bytes,
              (unsigned long long)s.memory_device_only_bytes);
    {
        ereleaser_stats rs = ereleaser_get_stats(e->releaser);
        sb_printf(&b, "# HELP cuzk_releaser_freed_total Partitions freed by the background "
                      "releaser.\n# TYPE cuzk_releaser_freed_total counter\n"
                      "cuzk_releaser_freed_total %llu\n"
                      "# HELP cuzk_releaser_inline_total Frees done inline (releaser full).\n"
                      "# TYPE cuzk_releaser_inline_total counter\ncuzk_releaser_inline_total %llu\n"
                      "# HELP cuzk_releaser_pending_bytes Memory waiting to be freed (still "
                      "charged to the budget).\n# TYPE cuzk_releaser_pending_bytes gauge\n"
                      "cuzk_releaser_pending_bytes %llu\n",
                  (unsigned long long)rs.done, (unsigned long long)rs.refused,
                  (unsigned long long)rs.bytes_pending);
    }
    sb_printf(&b, "# HELP cuzk_device_in_service 1 while the device takes work; 0 once it "
                  "was taken out of rotation.\n# TYPE cuzk_device_in_service gauge\n");
    for (size_t i = 0; i < s.n_devices; i++)
        sb_printf(&b, "cuzk_device_in_service{device=\"%u\"} %d\n", s.devices[i].ordinal,
                  s.devices[i].in_service ? 1 : 0);
    sb_printf(&b, "# HELP cuzk_gpu_busy_ratio Device-held time over uptime.\n"
                  "# TYPE cuzk_gpu_busy_ratio gauge\n");
    for (size_t i = 0; i < s.n_devices; i++)
        sb_printf(&b, "cuzk_gpu_busy_ratio{device=\"%u\"} %.4f\n", s.devices[i].ordinal,
                  s.devices[i].busy_ratio);
    static const char *hn[EH_COUNT][2] = {
        {"cuzk_queue_wait_seconds", "Submit to first partition admitted."},
        {"cuzk_srs_load_seconds", "Key loads."},
        {"cuzk_synthesis_seconds", "Partition synthesis."},
        {"cuzk_gpu_seconds", "Device stage (prover start) per partition."},
        {"cuzk_finalize_seconds", "Finalize (assembly + self-check) per partition."},
        {"cuzk_proof_duration_seconds", "Submit to completion per job."}};
    for (int h = 0; h < EH_COUNT; h++)
        hist_text(&b, hn[h][0], hn[h][1], &m.h[h]);
    cuzk_engine_status_free(&s);
    if (b.fail) {
        free(b.p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    *out = b.p;
    if (len)
        *len = b.len;
    return CUZK_OK;
}

cuzk_status cuzk_engine_timeline_write(cuzk_engine *e, const char *path, cuzk_error *err)
{
    if (!e || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "timeline: NULL argument");
    return etimeline_write(e->timeline, path, err);
}
