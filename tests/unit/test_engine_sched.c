/*
 * test_engine_sched.c — the scheduler's latency classes (src/engine/sched.h) on the CPU
 * backend with synthetic jobs, asserted from the engine's event log, never from time:
 *   - a pipeline saturated with LOW partitions (every bulk synthesis slot and the device
 *     queue's bulk places taken, the devices held so nothing drains) still admits,
 *     synthesizes and queues a CRITICAL partition; once the devices go on it is the next
 *     partition any device worker takes, at most one LOW partition per device worker
 *     enters the device before it, its key stays resident, and every LOW job completes
 *     with self-checked proofs;
 *   - the latency reserve: LOW partitions stuck in synthesis never take the memory a
 *     CRITICAL partition needs; it is admitted and completes beside them;
 *   - the key rule: with keep_latency_keys a LOW job's key load evicts the other idle LOW
 *     key, never the CRITICAL job's key (which plain least-recently-used order would
 *     pick); with the switch off it is evicted (so the assertion can fail).
 *   - device memory short: a start that fails for it while another partition is on the
 *     device waits for the device to empty and starts alone, not counted as an attempt.
 * The synthetic seed comes from the test RNG (printed).
 */
#define _DEFAULT_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/prover.h"
#include "engine/engine_testing.h"
#include "test_rng.h"

static uint64_t g_seed;

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

static cuzk_engine *make(uint64_t budget, bool keep_keys)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = budget;
    c.threads = 2;
    c.synthesis_workers = 2;
    c.workers_per_device = 2;
    c.finalizers = 2;
    c.keep_latency_keys = keep_keys;
    c.log = quiet;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_create(&e, &c, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "create: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    return e;
}

static void submit(cuzk_engine *e, unsigned log2n, unsigned parts, uint64_t seed,
                   cuzk_priority prio, char id[CUZK_JOB_ID_SIZE])
{
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_SYNTHETIC;
    r.priority = prio;
    r.synthetic.log2n = log2n;
    r.synthetic.partitions = parts;
    r.synthetic.seed = seed;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, &r, &t, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    memcpy(id, t.job_id, CUZK_JOB_ID_SIZE);
}

/* Awaits a job and checks it completed with self-checked (not benchmark-only) proofs. */
static void await_within(cuzk_engine *e, const char *id, unsigned parts, uint64_t ms)
{
    cuzk_job_result r;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_await(e, id, ms, &r, &err), CUZK_OK);
    if (r.state != CUZK_JOB_COMPLETED)
        fprintf(stderr, "job %s: %s\n", id, r.error);
    assert_int_equal(r.state, CUZK_JOB_COMPLETED);
    assert_false(r.benchmark_only);
    assert_int_equal(r.partitions_done, parts);
    assert_int_equal(r.proof_len, (size_t)parts * 192);
    cuzk_job_result_free(&r);
}

static void await_completed(cuzk_engine *e, const char *id, unsigned parts)
{
    await_within(e, id, parts, 600000);
}

static cuzk_srs_tier key_tier(cuzk_engine *e, const char *id)
{
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    cuzk_srs_tier t = CUZK_SRS_COLD;
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, id) == 0)
            t = s.srs[i].tier;
    cuzk_engine_status_free(&s);
    return t;
}

static uint64_t key_bytes(cuzk_engine *e, const char *id)
{
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    uint64_t b = 0;
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, id) == 0 && s.srs[i].tier == CUZK_SRS_HOT)
            b = s.srs[i].size_bytes;
    cuzk_engine_status_free(&s);
    assert_true(b > 0);
    return b;
}

/* Polls (no time is asserted: a bounded number of checks) until pred holds. */
static bool wait_counts(cuzk_engine *e, bool (*pred)(const cuzk_engine_sched_counts *, void *),
                        void *ctx)
{
    for (int i = 0; i < 600000; i++) {
        cuzk_engine_sched_counts c;
        cuzk_engine_sched_counts_get(e, &c);
        if (pred(&c, ctx))
            return true;
        usleep(100);
    }
    return false;
}

static bool saturated(const cuzk_engine_sched_counts *c, void *ctx)
{
    (void)ctx;
    /* both bulk synthesis slots hold a synthesized partition waiting for room, and the
     * device queue's bulk places are full */
    return c->synth_bulk == 2 && c->dev_q_bulk == c->bulk_room;
}

static size_t events(cuzk_engine *e, cuzk_engine_event **out)
{
    size_t n = cuzk_engine_events(e, NULL, 0);
    *out = calloc(n ? n : 1, sizeof **out);
    assert_non_null(*out);
    /* the count is of all recorded so far: events made since the first call are not copied */
    size_t all = cuzk_engine_events(e, *out, n);
    return all < n ? all : n;
}

static bool has_event(cuzk_engine *e, const char *job, int stage)
{
    cuzk_engine_event *ev;
    size_t n = events(e, &ev);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++)
        found = ev[i].stage == stage && strcmp(ev[i].job, job) == 0;
    free(ev);
    return found;
}

#define N_LOW 3
#define LOW_PARTS 6

static void test_critical_through_saturation(void **state)
{
    (void)state;
    cuzk_engine *e = make(1ull << 30, true);
    const uint64_t seed_c = g_seed + 1, seed_b = g_seed + 2;
    char key_c[64];
    snprintf(key_c, sizeof key_c, "synthetic-8-%llu", (unsigned long long)seed_c);

    /* a CRITICAL job first: its key is loaded (and pinned), the reserve learned */
    char warm[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, seed_c, CUZK_PRIORITY_CRITICAL, warm);
    await_completed(e, warm, 1);

    /* LOW jobs fill the pipeline while the devices take nothing: the bulk synthesis slots
     * and the device queue's bulk places fill up, and stay full */
    cuzk_engine_events_record(e, true);
    cuzk_engine_hold_devices(e, true);
    char low[N_LOW][CUZK_JOB_ID_SIZE];
    for (int i = 0; i < N_LOW; i++)
        submit(e, 9, LOW_PARTS, seed_b, CUZK_PRIORITY_LOW, low[i]);
    assert_true(wait_counts(e, saturated, NULL));

    /* the CRITICAL job is admitted, synthesized and queued for a device while every bulk
     * place is taken and nothing drains (the engine without latency classes never gets it
     * this far: its synthesis slots and device queue are full) */
    char crit[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, seed_c, CUZK_PRIORITY_CRITICAL, crit);
    bool ready = false;
    for (int i = 0; i < 600000 && !ready; i++) {
        ready = has_event(e, crit, ENGINE_EV_READY);
        if (!ready)
            usleep(100);
    }
    assert_true(ready);
    cuzk_engine_sched_counts c;
    cuzk_engine_sched_counts_get(e, &c);
    assert_int_equal(c.synth_bulk, 2);          /* still saturated */
    assert_int_equal(c.dev_q_bulk, c.bulk_room);
    assert_int_equal(c.dev_q_len, c.bulk_room + 1);

    cuzk_engine_hold_devices(e, false);
    await_completed(e, crit, 1);
    for (int i = 0; i < N_LOW; i++)
        await_completed(e, low[i], LOW_PARTS);
    assert_int_equal(key_tier(e, key_c), CUZK_SRS_HOT);

    cuzk_engine_event *ev;
    size_t n = events(e, &ev);
    /* the CRITICAL partition is the first any device worker takes */
    size_t first_take = n;
    for (size_t i = 0; i < n && first_take == n; i++)
        if (ev[i].stage == ENGINE_EV_TAKE)
            first_take = i;
    assert_true(first_take < n);
    assert_string_equal(ev[first_take].job, crit);
    /* at most one LOW partition per device worker entered the device before it */
    double t_crit = -1;
    for (size_t i = 0; i < n; i++)
        if (ev[i].stage == ENGINE_EV_DEVICE && strcmp(ev[i].job, crit) == 0)
            t_crit = ev[i].t_ms;
    assert_true(t_crit >= 0);
    unsigned ahead = 0, low_device = 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].stage == ENGINE_EV_DEVICE && strcmp(ev[i].job, crit) != 0) {
            low_device++;
            if (ev[i].t_ms < t_crit)
                ahead++;
        }
    assert_int_equal(low_device, N_LOW * LOW_PARTS);
    assert_true(ahead <= 2); /* two device workers take LOW partitions */
    /* every partition of every job ended, once */
    unsigned done = 0;
    for (size_t i = 0; i < n; i++)
        done += ev[i].stage == ENGINE_EV_DONE;
    assert_int_equal(done, N_LOW * LOW_PARTS + 1);
    free(ev);
    cuzk_engine_destroy(e);
}

/* CRITICAL job on key C, LOW job on key B1, then a LOW job on key B2 whose load does not
 * fit beside both: returns whether C survived (B1 must be gone when it did). */
static bool low_load_keeps_critical_key(uint64_t budget, bool keep, const char *key_c,
                                        const char *key_b1, const char *key_b2)
{
    cuzk_engine *e = make(budget, keep);
    char id[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, g_seed + 1, CUZK_PRIORITY_CRITICAL, id);
    await_completed(e, id, 1);
    submit(e, 9, 1, g_seed + 2, CUZK_PRIORITY_LOW, id);
    await_completed(e, id, 1);
    assert_int_equal(key_tier(e, key_c), CUZK_SRS_HOT);
    assert_int_equal(key_tier(e, key_b1), CUZK_SRS_HOT);
    submit(e, 9, 1, g_seed + 3, CUZK_PRIORITY_LOW, id);
    await_completed(e, id, 1);
    assert_int_equal(key_tier(e, key_b2), CUZK_SRS_HOT);
    bool kept = key_tier(e, key_c) == CUZK_SRS_HOT;
    bool b1 = key_tier(e, key_b1) == CUZK_SRS_HOT;
    assert_true(kept != b1); /* exactly one of them made room */
    cuzk_engine_destroy(e);
    return kept;
}

static void test_latency_key_stays(void **state)
{
    (void)state;
    char key_c[64], key_b1[64], key_b2[64];
    snprintf(key_c, sizeof key_c, "synthetic-8-%llu", (unsigned long long)(g_seed + 1));
    snprintf(key_b1, sizeof key_b1, "synthetic-9-%llu", (unsigned long long)(g_seed + 2));
    snprintf(key_b2, sizeof key_b2, "synthetic-9-%llu", (unsigned long long)(g_seed + 3));

    /* the keys' real sizes, from a roomy engine */
    cuzk_engine *e = make(1ull << 30, true);
    char id[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, g_seed + 1, CUZK_PRIORITY_CRITICAL, id);
    await_completed(e, id, 1);
    submit(e, 9, 1, g_seed + 2, CUZK_PRIORITY_LOW, id);
    await_completed(e, id, 1);
    uint64_t sc = key_bytes(e, key_c), sb = key_bytes(e, key_b1);
    cuzk_engine_destroy(e);

    /* A LOW admission of key B2 needs its partition estimate and key estimate
     * (kind_synthetic.c: 900 n + 64 MiB and 600 n + 4 MiB for the CPU, n = 2^9) free (no
     * partition is in flight then, so the latency reserve is lent to it): the budget holds
     * that and the larger of the two idle keys, not both */
    uint64_t part9 = 900 * 512 + (64ull << 20), key9 = 600 * 512 + (4ull << 20);
    uint64_t big = sc > sb ? sc : sb, small = sc > sb ? sb : sc;
    uint64_t budget = part9 + key9 + big + small / 2;
    assert_true(low_load_keeps_critical_key(budget, true, key_c, key_b1, key_b2));
    /* without the switch, least recently used goes: the CRITICAL job's key */
    assert_false(low_load_keeps_critical_key(budget, false, key_c, key_b1, key_b2));
}

static bool one_bulk_admitted(const cuzk_engine_sched_counts *c, void *ctx)
{
    (void)ctx;
    return c->synth_bulk >= 1;
}

/* The latency reserve: LOW partitions stuck in synthesis (their key's load held) hold
 * their memory, and the budget has room for two of them only if the reserve (the CRITICAL
 * partition's estimate, learned from a first CRITICAL job) is not kept: the second one is
 * not admitted, and a CRITICAL job is admitted and completes while the LOW job is stuck.
 * Without the reserve the second LOW partition takes the memory and the CRITICAL job
 * cannot be admitted until the load goes on. */
static void test_latency_reserve(void **state)
{
    (void)state;
    char key_c[64], key_b[64];
    snprintf(key_c, sizeof key_c, "synthetic-8-%llu", (unsigned long long)(g_seed + 1));
    snprintf(key_b, sizeof key_b, "synthetic-9-%llu", (unsigned long long)(g_seed + 4));
    cuzk_engine *e = make(1ull << 30, true);
    char id[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, g_seed + 1, CUZK_PRIORITY_CRITICAL, id);
    await_completed(e, id, 1);
    submit(e, 9, 1, g_seed + 4, CUZK_PRIORITY_LOW, id);
    await_completed(e, id, 1);
    uint64_t sc = key_bytes(e, key_c), sb = key_bytes(e, key_b);
    cuzk_engine_destroy(e);

    uint64_t part9 = 900 * 512 + (64ull << 20), key9 = 600 * 512 + (4ull << 20);
    uint64_t part8 = 900 * 256 + (64ull << 20);
    uint64_t kb = sb > key9 ? sb : key9;
    /* the key C, key B, two LOW partitions' estimates and 1 MiB: a CRITICAL partition's
     * estimate (64 MiB) fits beside one LOW partition, not beside two */
    uint64_t budget = sc + kb + 2 * part9 + (1ull << 20);
    assert_true(part8 > (1ull << 20) + kb - key9);
    e = make(budget, true);
    submit(e, 8, 1, g_seed + 1, CUZK_PRIORITY_CRITICAL, id);
    await_completed(e, id, 1); /* key C loaded and pinned, the reserve learned */
    cuzk_engine_hold_loads(e, true);
    cuzk_engine_events_record(e, true);
    char low[CUZK_JOB_ID_SIZE];
    submit(e, 9, 4, g_seed + 4, CUZK_PRIORITY_LOW, low);
    assert_true(wait_counts(e, one_bulk_admitted, NULL));
    char crit[CUZK_JOB_ID_SIZE];
    submit(e, 8, 1, g_seed + 1, CUZK_PRIORITY_CRITICAL, crit);
    /* while the LOW job's key load is still held (a liveness bound, not a timing one: a
     * 2^8 job takes well under a second; without the reserve it never completes here) */
    await_within(e, crit, 1, 120000);
    cuzk_engine_sched_counts c;
    cuzk_engine_sched_counts_get(e, &c);
    assert_int_equal(c.synth_bulk, 1); /* the second LOW partition was kept out */
    assert_false(has_event(e, low, ENGINE_EV_READY));
    cuzk_engine_hold_loads(e, false);
    await_completed(e, low, 4);
    assert_int_equal(key_tier(e, key_c), CUZK_SRS_HOT);
    cuzk_engine_destroy(e);
}

static bool two_busy(const cuzk_engine_sched_counts *c, void *ctx)
{
    (void)ctx;
    return c->dev_busy >= 2;
}

/* Device memory short: a start that fails for it (CUZK_ERR_NOMEM) while another partition
 * is in a start on the device (the injected fault stands for a GPU whose memory the
 * others' working sets hold: a WindowPoSt mid-PoRep-stream on an 80 GB card, s26) is not
 * counted as an attempt and does not fail its job: it waits in the device queue until the
 * device is empty (no worker takes anything after the failure until then), starts there
 * alone (nothing of its priority or lower is taken until its start returns), and every
 * job completes. */
static void test_device_memory_wait(void **state)
{
    (void)state;
    cuzk_engine *e = make(1ull << 30, true);
    cuzk_engine_events_record(e, true);
    char low[CUZK_JOB_ID_SIZE], crit[CUZK_JOB_ID_SIZE];
    submit(e, 11, 8, g_seed + 3, CUZK_PRIORITY_LOW, low);
    assert_true(wait_counts(e, two_busy, NULL));
    cuzk_engine_inject_fault(e, ENGINE_FAULT_DEVICE_MEMORY, 1, -1);
    submit(e, 10, 1, g_seed + 4, CUZK_PRIORITY_CRITICAL, crit);
    await_completed(e, low, 8);
    await_completed(e, crit, 1);

    cuzk_engine_event *ev;
    size_t n = events(e, &ev);
    /* the partition that failed: two DEVICE events */
    size_t fail = n, take2 = n, dev2 = n;
    for (size_t i = 0; i < n && fail == n; i++) {
        if (ev[i].stage != ENGINE_EV_DEVICE)
            continue;
        for (size_t k = i + 1; k < n; k++)
            if (ev[k].stage == ENGINE_EV_DEVICE && ev[k].partition == ev[i].partition &&
                strcmp(ev[k].job, ev[i].job) == 0) {
                fail = i;
                dev2 = k;
            }
    }
    if (fail == n)
        fail_msg("no partition started twice: the injected shortage never fired");
    for (size_t i = fail + 1; i < dev2 && take2 == n; i++)
        if (ev[i].stage == ENGINE_EV_TAKE && ev[i].partition == ev[fail].partition &&
            strcmp(ev[i].job, ev[fail].job) == 0)
            take2 = i;
    assert_true(take2 < dev2);
    /* nothing was taken between the failure and its second take, and every partition taken
     * before that take had left the device (its DEVICE event) by then */
    for (size_t i = fail + 1; i < take2; i++)
        if (ev[i].stage == ENGINE_EV_TAKE)
            fail_msg("%s/%u taken after the failure, before the device was empty", ev[i].job,
                     ev[i].partition);
    for (size_t i = 0; i < take2; i++) {
        if (ev[i].stage != ENGINE_EV_TAKE || i == take2)
            continue;
        bool left = false;
        for (size_t k = i + 1; k < take2 && !left; k++)
            left = ev[k].stage == ENGINE_EV_DEVICE && ev[k].partition == ev[i].partition &&
                   strcmp(ev[k].job, ev[i].job) == 0;
        if (!left)
            fail_msg("%s/%u still on the device when the waiting partition started", ev[i].job,
                     ev[i].partition);
    }
    /* alone: nothing of its priority or lower taken while it ran (a higher one may join) */
    for (size_t i = take2 + 1; i < dev2; i++)
        if (ev[i].stage == ENGINE_EV_TAKE && ev[i].priority <= ev[fail].priority)
            fail_msg("%s/%u taken while the waiting partition had the device", ev[i].job,
                     ev[i].partition);
    free(ev);
    /* not counted as a retry */
    char *txt = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_engine_metrics_text(e, &txt, &len, NULL), CUZK_OK);
    assert_non_null(strstr(txt, "cuzk_partitions_retried_total 0\n"));
    free(txt);
    cuzk_engine_destroy(e);
}

int main(void)
{
    g_seed = test_rng_init("test_engine_sched") % 1000000 + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_critical_through_saturation),
        cmocka_unit_test(test_device_memory_wait),
        cmocka_unit_test(test_latency_key_stays),
        cmocka_unit_test(test_latency_reserve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
