/*
 * test_engine.c — the engine on the CPU backend with synthetic jobs (2^8): results and
 * proofs, priority order, idempotent resubmit, cancel (queued and running), await
 * timeouts, 50 concurrent jobs under a small budget (never exceeded; and again with every
 * partition freed by the background releaser), fault injection
 * (retry, failure of one job only, retry on another device), preload/evict, refusals of
 * kinds whose circuits are not built, benchmark-only results of a random key.
 * The synthetic seed comes from the test RNG (printed).
 */
#define _DEFAULT_SOURCE /* mkstemp, usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "engine/engine_testing.h"
#include "test_rng.h"

static uint64_t g_seed;

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

static cuzk_engine *make(const char *devices, uint64_t budget, unsigned synth, unsigned wpd)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = devices;
    c.memory_budget = budget ? budget : (1ull << 30);
    c.threads = 2;
    c.synthesis_workers = synth;
    c.workers_per_device = wpd;
    c.finalizers = wpd; /* one finalizer with one worker: completions in admission order */
    c.log = quiet;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_create(&e, &c, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "create: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    return e;
}

static cuzk_job_request synth_req(unsigned log2n, unsigned parts, cuzk_priority prio)
{
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_SYNTHETIC;
    r.priority = prio;
    r.synthetic.log2n = log2n;
    r.synthetic.partitions = parts;
    r.synthetic.seed = g_seed;
    return r;
}

static void submit(cuzk_engine *e, const cuzk_job_request *r, char id[CUZK_JOB_ID_SIZE])
{
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, r, &t, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    assert_int_equal(strlen(t.job_id), 36);
    memcpy(id, t.job_id, CUZK_JOB_ID_SIZE);
}

static cuzk_job_result await_job(cuzk_engine *e, const char *id, uint64_t timeout)
{
    cuzk_job_result r;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_await(e, id, timeout, &r, &err), CUZK_OK);
    return r;
}

/* A job is reported done before every partition's memory is accounted back: big ones go
 * to the background releaser, and a partition finalized on another thread may still be
 * freeing its data. Waits (bounded) for the engine to hold nothing. */
static void await_quiet(cuzk_engine *e)
{
    cuzk_engine_release_drain(e);
    for (int i = 0; i < 1000; i++) {
        cuzk_engine_status s;
        assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
        uint64_t w = s.memory_working_bytes, busy = s.partitions_on_device +
                                                    s.partitions_synthesizing +
                                                    s.partitions_finalizing;
        cuzk_engine_status_free(&s);
        if (w == 0 && busy == 0)
            return;
        usleep(5000);
    }
    fail_msg("the engine still holds working memory 5 s after its jobs ended");
}

static void test_basic(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 2, 2);
    char id[CUZK_JOB_ID_SIZE];
    cuzk_job_request r = synth_req(8, 3, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, id);
    cuzk_job_result res = await_job(e, id, 0);
    if (res.state != CUZK_JOB_COMPLETED)
        fprintf(stderr, "job: %s\n", res.error);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_false(res.benchmark_only);
    assert_int_equal(res.partitions, 3);
    assert_int_equal(res.proof_len, 3 * CUZK_GROTH16_PROOF_BYTES);
    cuzk_groth16_proof proofs[3];
    assert_int_equal(cuzk_groth16_proofs_from_bellperson(proofs, 3, res.proof, res.proof_len, NULL),
                     CUZK_OK);
    assert_true(res.t.total_ms >= res.t.queue_wait_ms);
    cuzk_job_result_free(&res);

    await_quiet(e);
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.jobs_completed, 1);
    assert_int_equal(s.n_devices, 1);
    assert_int_equal(s.devices[0].partitions_done, 3);
    assert_int_equal(s.n_srs, 1);
    assert_int_equal(s.srs[0].tier, CUZK_SRS_HOT);
    assert_int_equal(s.memory_working_bytes, 0);
    assert_int_equal(s.memory_used_bytes, s.memory_hot_bytes);
    assert_true(s.memory_peak_bytes <= s.memory_budget_bytes);
    cuzk_engine_status_free(&s);

    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_engine_metrics_text(e, &text, &len, NULL), CUZK_OK);
    assert_non_null(strstr(text, "cuzk_proofs_completed_total 1\n"));
    assert_non_null(strstr(text, "cuzk_synthesis_seconds_count 3\n"));
    assert_non_null(strstr(text, "cuzk_proofs_completed{proof_kind=\"synthetic\"} 1\n"));
    free(text);

    char path[] = "/tmp/cuzk_tl_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(cuzk_engine_timeline_write(e, path, NULL), CUZK_OK);
    char *tl = NULL;
    size_t tlen;
    assert_int_equal(cuzk_file_read_text(&tl, &tlen, path, 1 << 24, NULL), CUZK_OK);
    assert_non_null(strstr(tl, "\"traceEvents\""));
    assert_non_null(strstr(tl, "\"synthesize\""));
    assert_non_null(strstr(tl, "\"prove_start\""));
    assert_non_null(strstr(tl, "\"finalize\""));
    free(tl);
    unlink(path);

    /* a Filecoin registered proof or sector size names nothing for a synthetic job */
    cuzk_job_request rp = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    rp.registered_proof = 999;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_submit(e, &rp, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "registered_proof 999"));
    rp.registered_proof = 0;
    rp.sector_size = 2048;
    assert_int_equal(cuzk_engine_submit(e, &rp, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "sector_size 2048"));

    /* unknown ids */
    cuzk_job_result x;
    assert_int_equal(cuzk_engine_await(e, "nope", 1, &x, NULL), CUZK_ERR_NOT_FOUND);
    assert_int_equal(cuzk_engine_cancel(e, "nope", NULL, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
}

/* ---- completion order through watches ------------------------------------------------------ */

typedef struct order_log {
    pthread_mutex_t mu;
    char ids[16][CUZK_JOB_ID_SIZE];
    int n;
} order_log;

static void on_done(void *ctx, const char *id, cuzk_job_state st)
{
    order_log *o = ctx;
    (void)st;
    pthread_mutex_lock(&o->mu);
    if (o->n < 16)
        memcpy(o->ids[o->n++], id, CUZK_JOB_ID_SIZE);
    pthread_mutex_unlock(&o->mu);
}

static void test_priority_order(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 1, 1);
    cuzk_engine_pause(e, true);
    static const cuzk_priority prio[] = {CUZK_PRIORITY_LOW, CUZK_PRIORITY_NORMAL,
                                         CUZK_PRIORITY_HIGH, CUZK_PRIORITY_NORMAL,
                                         CUZK_PRIORITY_CRITICAL};
    /* submission index in admission order; the NORMAL/LOW ones also complete in it (one
     * worker per stage for them), the CRITICAL and HIGH ones run beside them on the
     * latency classes' own workers (sched.h), so their completion order is not fixed */
    static const int expect[] = {4, 2, 1, 3, 0};
    char ids[5][CUZK_JOB_ID_SIZE];
    order_log o = {.mu = PTHREAD_MUTEX_INITIALIZER};
    for (int i = 0; i < 5; i++) {
        cuzk_job_request r = synth_req(8, 1, prio[i]);
        submit(e, &r, ids[i]);
        assert_int_equal(cuzk_engine_watch(e, ids[i], on_done, &o, NULL, NULL), CUZK_OK);
    }
    cuzk_job_ticket t;
    cuzk_job_request r = synth_req(8, 1, CUZK_PRIORITY_LOW);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    assert_int_equal(t.queue_position, 5); /* everything else goes first */
    cuzk_engine_events_record(e, true);
    cuzk_engine_pause(e, false);
    assert_int_equal(cuzk_engine_drain(e, 0), CUZK_OK);
    assert_int_equal(o.n, 5);
    cuzk_engine_event ev[64];
    size_t n_ev = cuzk_engine_events(e, ev, 64);
    assert_true(n_ev <= 64);
    int n_admit = 0;
    for (size_t i = 0; i < n_ev; i++)
        if (ev[i].stage == ENGINE_EV_ADMIT) {
            if (n_admit < 5)
                assert_string_equal(ev[i].job, ids[expect[n_admit]]);
            n_admit++;
        }
    assert_int_equal(n_admit, 6); /* the five, then the LOW one submitted last */
    int k = 0;
    for (int i = 0; i < 5; i++)
        if (strcmp(o.ids[i], ids[4]) != 0 && strcmp(o.ids[i], ids[2]) != 0)
            assert_string_equal(o.ids[i], ids[expect[2 + k++]]);
    assert_int_equal(k, 3);
    cuzk_engine_destroy(e);
}

static bool submit_dup(cuzk_engine *e, const cuzk_job_request *r, char id[CUZK_JOB_ID_SIZE])
{
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, r, &t, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    memcpy(id, t.job_id, CUZK_JOB_ID_SIZE);
    return t.duplicate;
}

/* The request_id rule (cuzk/engine.h, Jobs): a retry joins a live job of the same request
 * and gets a COMPLETED one back, a different request under a live id is refused, and a
 * failed or cancelled job is proved again rather than replayed. */
static void test_idempotent(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 2, 2);
    cuzk_engine_pause(e, true);
    cuzk_job_request r = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    r.request_id = "sector-42";
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE];
    assert_false(submit_dup(e, &r, a));
    assert_true(submit_dup(e, &r, b)); /* queued: joined */
    assert_string_equal(a, b);
    r.priority = CUZK_PRIORITY_HIGH; /* the priority is no input */
    assert_true(submit_dup(e, &r, b));
    assert_string_equal(a, b);
    cuzk_job_request other = r;
    other.synthetic.seed = g_seed + 1;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_submit(e, &other, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "request_id sector-42 is in use by a different request"));
    assert_non_null(strstr(err.msg, a));
    cuzk_engine_pause(e, false);
    cuzk_job_result res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* completed: the same request gets it back, another request is a new job */
    assert_true(submit_dup(e, &r, b));
    assert_string_equal(a, b);
    char c[CUZK_JOB_ID_SIZE];
    assert_false(submit_dup(e, &other, c));
    assert_string_not_equal(a, c);
    res = await_job(e, c, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    assert_true(submit_dup(e, &r, b)); /* both finished: each request finds its own */
    assert_string_equal(a, b);
    assert_true(submit_dup(e, &other, b));
    assert_string_equal(c, b);

    /* failed: a retry is proved again */
    cuzk_job_request f = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    f.request_id = "sector-43";
    cuzk_engine_inject_fault(e, ENGINE_FAULT_SYNTH, 1, -1);
    assert_false(submit_dup(e, &f, a));
    res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    cuzk_job_result_free(&res);
    assert_false(submit_dup(e, &f, b));
    assert_string_not_equal(a, b);
    res = await_job(e, b, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    assert_true(submit_dup(e, &f, c)); /* now the completed one */
    assert_string_equal(b, c);

    /* cancelled: likewise */
    cuzk_engine_pause(e, true);
    f.request_id = "sector-44";
    assert_false(submit_dup(e, &f, a));
    assert_int_equal(cuzk_engine_cancel(e, a, NULL, NULL), CUZK_OK);
    assert_false(submit_dup(e, &f, b));
    assert_string_not_equal(a, b);
    cuzk_engine_pause(e, false);
    res = await_job(e, b, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);

    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.jobs_completed, 4);
    assert_int_equal(s.jobs_failed, 1);
    assert_int_equal(s.jobs_cancelled, 1);
    cuzk_engine_status_free(&s);
    cuzk_engine_destroy(e);
}

static void test_cancel_and_timeout(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 1, 1);
    cuzk_engine_pause(e, true);
    char q[CUZK_JOB_ID_SIZE];
    cuzk_job_request r = synth_req(8, 2, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, q);
    cuzk_job_result res = await_job(e, q, 30);
    assert_int_equal(res.state, CUZK_JOB_TIMEOUT);
    bool was_running = true;
    assert_int_equal(cuzk_engine_cancel(e, q, &was_running, NULL), CUZK_OK);
    assert_false(was_running);
    res = await_job(e, q, 0);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    assert_int_equal(res.error_code, CUZK_ERR_CANCELLED);
    assert_null(res.proof);

    /* running: many partitions at 2^10, cancelled once the first has been admitted */
    char run[CUZK_JOB_ID_SIZE];
    r = synth_req(10, 40, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, run);
    cuzk_engine_pause(e, false);
    for (int i = 0; i < 10000; i++) {
        cuzk_job_result info;
        assert_int_equal(cuzk_engine_job_info(e, run, &info, NULL), CUZK_OK);
        cuzk_job_state st = info.state;
        cuzk_job_result_free(&info);
        if (st != CUZK_JOB_QUEUED)
            break;
        usleep(1000);
    }
    assert_int_equal(cuzk_engine_cancel(e, run, &was_running, NULL), CUZK_OK);
    assert_true(was_running);
    res = await_job(e, run, 0);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    assert_true(res.partitions_done < 40);
    /* cancelling again changes nothing */
    assert_int_equal(cuzk_engine_cancel(e, run, &was_running, NULL), CUZK_OK);
    assert_false(was_running);
    /* everything it held comes back */
    assert_int_equal(cuzk_engine_drain(e, 0), CUZK_OK);
    await_quiet(e);
    /* the engine goes on serving */
    char after[CUZK_JOB_ID_SIZE];
    r = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, after);
    res = await_job(e, after, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

/* ---- 50 concurrent clients under a small budget --------------------------------------------- */

typedef struct client {
    cuzk_engine *e;
    int i;
    cuzk_job_state st;
    size_t proof_len;
} client;

static void *client_main(void *arg)
{
    client *c = arg;
    cuzk_job_request r = synth_req(8, 1 + (unsigned)(c->i % 3), (cuzk_priority)(1 + c->i % 4));
    cuzk_job_ticket t;
    if (cuzk_engine_submit(c->e, &r, &t, NULL) != CUZK_OK)
        return NULL;
    cuzk_job_result res;
    if (cuzk_engine_await(c->e, t.job_id, 0, &res, NULL) == CUZK_OK) {
        c->st = res.state;
        c->proof_len = res.proof_len;
        cuzk_job_result_free(&res);
    }
    return NULL;
}

/* n clients at once under a budget that admits two partitions at a time; with
 * release_all, every finished partition is freed by the background releaser (its budget
 * given back only after the free), and the releaser's counters say so. */
static void concurrent_budget(int n, bool release_all)
{
    /* a 2^8 key is ~0.3 MiB and a partition is admitted at ~64 MiB (the estimate's floor):
     * 160 MiB admits two partitions at a time, so admission waits for memory */
    uint64_t budget = 160ull << 20;
    cuzk_engine *e = make("cpu,cpu", budget, 3, 2);
    if (release_all)
        cuzk_engine_set_release_later_min(e, 0);
    client cs[50];
    pthread_t th[50];
    unsigned parts = 0;
    for (int i = 0; i < n; i++) {
        cs[i] = (client){.e = e, .i = i};
        parts += 1 + (unsigned)i % 3;
        assert_int_equal(pthread_create(&th[i], NULL, client_main, &cs[i]), 0);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(cs[i].st, CUZK_JOB_COMPLETED);
        assert_int_equal(cs[i].proof_len, (size_t)(1 + i % 3) * CUZK_GROTH16_PROOF_BYTES);
    }
    await_quiet(e);
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.jobs_completed, (uint64_t)n);
    assert_true(s.memory_peak_bytes <= budget);
    assert_true(s.memory_peak_bytes > (64ull << 20));
    assert_int_equal(s.memory_working_bytes, 0);
    assert_true(s.devices[0].partitions_done > 0 && s.devices[1].partitions_done > 0);
    cuzk_engine_status_free(&s);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_engine_metrics_text(e, &text, &len, NULL), CUZK_OK);
    const char *m = strstr(text, "\ncuzk_releaser_freed_total ");
    assert_non_null(m);
    unsigned long long freed = strtoull(m + strlen("\ncuzk_releaser_freed_total "), NULL, 10);
    if (release_all) /* all of them, but for those freed inline because the queue was full */
        assert_true(freed > 0 && freed <= parts);
    else
        assert_int_equal(freed, 0);
    free(text);
    cuzk_engine_destroy(e);
}

static void test_concurrent_budget(void **state)
{
    (void)state;
    concurrent_budget(50, false);
}

static void test_background_release(void **state)
{
    (void)state;
    concurrent_budget(20, true);
}

static void test_faults(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 1, 1);
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE];
    /* one device error: retried, the job completes */
    cuzk_engine_inject_fault(e, ENGINE_FAULT_DEVICE, 1, -1);
    cuzk_job_request r = synth_req(8, 2, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, a);
    cuzk_job_result res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* a failed self-check twice: that job fails with the message; the engine goes on */
    cuzk_engine_inject_fault(e, ENGINE_FAULT_VERIFY, 2, -1);
    r = synth_req(8, 1, CUZK_PRIORITY_HIGH);
    submit(e, &r, a);
    res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_int_equal(res.error_code, CUZK_ERR_INVALID_PROOF);
    assert_non_null(strstr(res.error, "injected self-check failure"));
    assert_null(res.proof);
    r = synth_req(8, 1, CUZK_PRIORITY_NORMAL);
    submit(e, &r, b);
    res = await_job(e, b, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* a synthesis failure fails its job (no retry) */
    cuzk_engine_inject_fault(e, ENGINE_FAULT_SYNTH, 1, -1);
    r = synth_req(8, 3, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, a);
    res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_non_null(strstr(res.error, "injected synthesis fault"));
    char *text;
    assert_int_equal(cuzk_engine_metrics_text(e, &text, NULL, NULL), CUZK_OK);
    assert_non_null(strstr(text, "cuzk_partitions_retried_total 2\n"));
    assert_non_null(strstr(text, "cuzk_proofs_failed_total 2\n"));
    free(text);
    cuzk_engine_destroy(e);

    /* two devices: device 0 always fails, the retry goes to device 1 */
    e = make("cpu,cpu", 0, 1, 1);
    cuzk_engine_inject_fault(e, ENGINE_FAULT_DEVICE, 1000, 0);
    r = synth_req(8, 4, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, a);
    res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.devices[0].partitions_done, 0);
    assert_int_equal(s.devices[1].partitions_done, 4);
    cuzk_engine_status_free(&s);
    cuzk_engine_destroy(e);
}

static void test_keys(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 1, 1);
    bool already = true;
    uint64_t ms;
    assert_int_equal(cuzk_engine_preload(e, "synthetic-8", &already, &ms, NULL), CUZK_OK);
    assert_false(already);
    assert_int_equal(cuzk_engine_preload(e, "synthetic-8", &already, &ms, NULL), CUZK_OK);
    assert_true(already);
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.n_srs, 1);
    assert_string_equal(s.srs[0].circuit_id, "synthetic-8");
    assert_int_equal(s.srs[0].tier, CUZK_SRS_HOT);
    assert_true(s.srs[0].size_bytes > 0 && s.memory_hot_bytes == s.srs[0].size_bytes);
    uint64_t size = s.srs[0].size_bytes;
    cuzk_engine_status_free(&s);
    bool was = false;
    uint64_t freed = 0;
    assert_int_equal(cuzk_engine_evict(e, "synthetic-8", &was, &freed, NULL), CUZK_OK);
    assert_true(was);
    assert_int_equal(freed, size);
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.srs[0].tier, CUZK_SRS_COLD);
    assert_int_equal(s.memory_used_bytes, 0);
    cuzk_engine_status_free(&s);
    assert_int_equal(cuzk_engine_evict(e, "synthetic-8", &was, &freed, NULL), CUZK_OK);
    assert_false(was);
    assert_int_equal(cuzk_engine_evict(e, "synthetic-9", &was, &freed, NULL), CUZK_OK);
    assert_false(was);
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_preload(e, "nope", NULL, NULL, &err), CUZK_ERR_NOT_FOUND);
    /* no param_dir, no dev keys: a Filecoin key is refused before its circuit is recorded */
    assert_int_equal(cuzk_engine_preload(e, "porep-32g", NULL, NULL, &err), CUZK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.msg, "no Filecoin parameters for porep-32g"));

    /* the Filecoin kinds refuse requests without their inputs at submit (more in
     * test_engine_filecoin, test_snap_engine) */
    cuzk_job_request r = {.kind = CUZK_PROOF_POREP_SEAL_COMMIT};
    cuzk_job_ticket t;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "PoRep job: vanilla_proof (the C1 output) is required");
    r.kind = CUZK_PROOF_WINNING_POST;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    r.kind = CUZK_PROOF_SNAP_DEALS_UPDATE;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "SnapDeals job: comm_r_old (32 bytes) is required");
    r.kind = (cuzk_proof_kind)77;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    r = synth_req(1, 1, CUZK_PRIORITY_DEFAULT);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    r = synth_req(8, 0, CUZK_PRIORITY_DEFAULT);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    r = synth_req(8, 1, (cuzk_priority)9);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    /* a partition larger than the whole budget fails its job, not the engine */
    cuzk_engine_destroy(e);
    e = make("cpu", 16ull << 20, 1, 1);
    r = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    char id[CUZK_JOB_ID_SIZE];
    submit(e, &r, id);
    cuzk_job_result res = await_job(e, id, 0);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_int_equal(res.error_code, CUZK_ERR_NOMEM);
    /* the refusal says what is short */
    assert_non_null(strstr(res.error, "does not fit the memory budget"));
    assert_non_null(strstr(res.error, "16.0 MiB"));
    assert_non_null(strstr(res.error, "short"));
    cuzk_engine_destroy(e);
}

/* Every key and circuit the provers were given is forgotten, by the address they were given
 * at, before the engine frees it: the devices key their resident copies by that address
 * (an evicted key that was not forgotten stays on the GPU; an adopted one for good, and a
 * later key allocated at the same address would be taken for it). The CPU backend counts
 * what it was given as a GPU's does (cuzk_prover_held). */
static void test_keys_forgotten(void **state)
{
    (void)state;
    /* every way a key leaves goes through one graveyard (srs.c engine_srs_evict_entry:
     * the key API's evict, the budget's, a changed file's detached entry), which this
     * takes through the API */
    cuzk_engine *e = make("cpu,cpu", 0, 2, 1);
    for (int round = 0; round < 2; round++) { /* the second: the same entry loaded again */
        char id[CUZK_JOB_ID_SIZE];
        cuzk_job_request r = synth_req(8, 4, CUZK_PRIORITY_DEFAULT);
        submit(e, &r, id);
        cuzk_job_result res = await_job(e, id, 0);
        assert_int_equal(res.state, CUZK_JOB_COMPLETED);
        cuzk_job_result_free(&res);
        await_quiet(e);
        /* the key and its circuit, on each device that proved a partition */
        size_t held = cuzk_engine_prover_held(e);
        assert_true(held >= 2 && held <= 4);
        char key[64];
        snprintf(key, sizeof key, "synthetic-8-%u", (unsigned)g_seed);
        bool was = false;
        assert_int_equal(cuzk_engine_evict(e, key, &was, NULL, NULL), CUZK_OK);
        assert_true(was);
        assert_int_equal(cuzk_engine_prover_held(e), 0);
    }
    cuzk_engine_destroy(e);
}

static void test_benchmark_only(void **state)
{
    (void)state;
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.synthetic_setup_max_log2n = 6; /* 2^8 gets a random key */
    c.log = quiet;
    cuzk_engine *e;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    char id[CUZK_JOB_ID_SIZE];
    cuzk_job_request r = synth_req(8, 2, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, id);
    cuzk_job_result res = await_job(e, id, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_true(res.benchmark_only);
    assert_null(res.proof);
    assert_int_equal(res.proof_len, 0);
    cuzk_engine_destroy(e);
}

/* Two synthesis workers wait together for a job's cold key: the job's srs_load_ms is how
 * long it waited (once), not the sum of its partitions' waits, so it fits in total_ms. */
static void test_srs_wait_counted_once(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 2, 2);
    char id[CUZK_JOB_ID_SIZE];
    cuzk_job_request r = synth_req(12, 2, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, id);
    cuzk_job_result res = await_job(e, id, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    fprintf(stderr, "  srs_load_ms %llu  total_ms %llu\n", (unsigned long long)res.t.srs_load_ms,
            (unsigned long long)res.t.total_ms);
    assert_true(res.t.srs_load_ms > 0);
    assert_true(res.t.srs_load_ms <= res.t.total_ms);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

static cuzk_engine_status status_now(cuzk_engine *e)
{
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    return s;
}

/* Polls (10 ms steps, at most 10 s) until the partitions in synthesis and the references
 * of the only key (refs 0: any key count, any references) are as given; returns whether
 * they got there. */
static bool wait_for(cuzk_engine *e, uint32_t refs, uint32_t synthesizing)
{
    for (int i = 0; i < 1000; i++) {
        cuzk_engine_status s = status_now(e);
        bool there = (refs == 0 || (s.n_srs == 1 && s.srs[0].ref_count == refs)) &&
                     s.partitions_synthesizing == synthesizing;
        cuzk_engine_status_free(&s);
        if (there)
            return true;
        usleep(10000);
    }
    return false;
}

/* A partition waiting for another's key load gives its synthesis worker back as soon as
 * its job is cancelled, instead of when the load ends (a 32 GiB key: a minute; a load
 * that never ends: never). */
static void test_cancel_while_key_loads(void **state)
{
    (void)state;
    cuzk_engine *e = make("cpu", 0, 2, 1);
    cuzk_engine_hold_loads(e, true);
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE];
    cuzk_job_request r = synth_req(8, 1, CUZK_PRIORITY_DEFAULT);
    submit(e, &r, a);
    /* A's worker is the loader: its partition's reference and the load's own */
    assert_true(wait_for(e, 2, 1));
    submit(e, &r, b);
    assert_true(wait_for(e, 3, 2)); /* B's worker waits for the load */
    assert_int_equal(cuzk_engine_cancel(e, b, NULL, NULL), CUZK_OK);
    assert_true(wait_for(e, 2, 1)); /* ... and no longer */
    cuzk_engine_hold_loads(e, false);
    cuzk_job_result res = await_job(e, a, 0);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    res = await_job(e, b, 0);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&res);
    /* a stop while a load is held and a partition waits for it returns */
    cuzk_engine_hold_loads(e, true);
    r.synthetic.seed = g_seed + 1; /* another key: cold */
    submit(e, &r, a);
    submit(e, &r, b);
    assert_true(wait_for(e, 0, 2));
    cuzk_engine_destroy(e);
}

int main(void)
{
    g_seed = test_rng_init("test_engine") % 1000;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_priority_order),
        cmocka_unit_test(test_idempotent),
        cmocka_unit_test(test_cancel_and_timeout),
        cmocka_unit_test(test_concurrent_budget),
        cmocka_unit_test(test_background_release),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_keys_forgotten),
        cmocka_unit_test(test_benchmark_only),
        cmocka_unit_test(test_srs_wait_counted_once),
        cmocka_unit_test(test_cancel_while_key_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
