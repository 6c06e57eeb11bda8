/*
 * test_gpu_engine_keys.cu — the engine on one GPU with keys_on_device_only
 * (engine.h, src/engine/srs_device.c): after a NORMAL job's partitions proved on the device,
 * its key's host points are given back (the key's charge drops to its circuit, the log
 * says so) and later jobs with the key still prove and verify from the device copy; a
 * CRITICAL job's key keeps its host copy; another bulk key makes the adopted one leave the
 * device once it has been idle for eviction_min_idle, not before (it is loaded and adopted
 * again when wanted); every evicted key is gone from the device (cuzk_engine_prover_held);
 * with the switch off nothing is given back; a key the device streamed is handed over once
 * the device has uploaded it whole.
 * Synthetic 2^10 / 2^9 jobs with dev keys (verifiable; the engine self-checks every
 * proof). Exits 77 (skipped) without a CUDA device.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "cuzk/prover.h"
#include "engine/engine_testing.h"
#include "prover/cuda_testing.h"
#include "gpu_test.h"

static int g_gave_back, g_gave_back_9, g_left, g_loads, g_kept;
static void count_log(void *ctx, cuzk_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    if (strstr(msg, "srs: loaded "))
        __atomic_add_fetch(&g_loads, 1, __ATOMIC_SEQ_CST);
    if (strstr(msg, "keeps its host copy"))
        __atomic_add_fetch(&g_kept, 1, __ATOMIC_SEQ_CST);
    if (strstr(msg, "leaves the device"))
        __atomic_add_fetch(&g_left, 1, __ATOMIC_SEQ_CST);
    if (strstr(msg, "live on gpu:0")) {
        __atomic_add_fetch(&g_gave_back, 1, __ATOMIC_SEQ_CST);
        if (strstr(msg, "synthetic-9-"))
            __atomic_add_fetch(&g_gave_back_9, 1, __ATOMIC_SEQ_CST);
    }
}

static bool run_job(cuzk_engine *e, unsigned k, unsigned parts, cuzk_priority prio)
{
    cuzk_job_request r;
    memset(&r, 0, sizeof r);
    r.kind = CUZK_PROOF_SYNTHETIC;
    r.priority = prio;
    r.synthetic.log2n = k;
    r.synthetic.partitions = parts;
    r.synthetic.seed = 7;
    cuzk_job_ticket t;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK) {
        GPU_CHECK(false, "submit: %s", err.msg);
        return false;
    }
    cuzk_job_result res;
    if (cuzk_engine_await(e, t.job_id, 0, &res, &err) != CUZK_OK) {
        GPU_CHECK(false, "await: %s", err.msg);
        return false;
    }
    bool ok = res.state == CUZK_JOB_COMPLETED && res.proof_len == parts * CUZK_GROTH16_PROOF_BYTES;
    GPU_CHECK(ok, "2^%u job: %s", k, res.error);
    cuzk_job_result_free(&res);
    return ok;
}

static uint64_t hot_bytes(cuzk_engine *e, uint64_t *device_only)
{
    cuzk_engine_status s;
    uint64_t b = 0;
    *device_only = 0;
    if (cuzk_engine_get_status(e, &s, NULL) == CUZK_OK) {
        b = s.memory_hot_bytes;
        *device_only = s.memory_device_only_bytes;
        cuzk_engine_status_free(&s);
    }
    return b;
}

/* Waits (bounded) for the background hand-over to have been logged n times. */
static void await_log(int n)
{
    for (int i = 0; i < 2000 && __atomic_load_n(&g_gave_back, __ATOMIC_SEQ_CST) < n; i++)
        usleep(5000);
}

/* An engine on gpu:0 with the switch `on`; defaults: the switch as
 * cuzk_engine_config_default leaves it (checked) and eviction_min_idle as cuzkd's
 * configuration defaults it (5 min: the engine's own default is 0, none). NULL on failure
 * (counted). */
static cuzk_engine *make_engine(bool on, bool defaults)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    if (defaults) {
        GPU_CHECK(c.keys_on_device_only, "defaults: keys_on_device_only %d",
                  c.keys_on_device_only);
        c.eviction_min_idle_s = 300;
    } else {
        c.keys_on_device_only = on;
        c.eviction_min_idle_s = 0; /* an idle adopted key gives its place at once */
    }
    c.devices = "gpu:0";
    c.synthetic_setup_max_log2n = 10;
    c.log = count_log;
    cuzk_engine *e = NULL;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK) {
        GPU_CHECK(false, "engine: %s", err.msg);
        return NULL;
    }
    g_gave_back = g_gave_back_9 = g_left = g_loads = g_kept = 0;
    return e;
}

static uint64_t phase(bool on, uint64_t full)
{
    cuzk_engine *e = make_engine(on, false);
    if (!e)
        return 0;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    run_job(e, 10, 4, CUZK_PRIORITY_DEFAULT);
    await_log(on ? 1 : 0);
    usleep(200000); /* off: time for a wrong hand-over to show; on: for its accounting */
    uint64_t dev_only = 0, hot = hot_bytes(e, &dev_only);
    GPU_CHECK(g_gave_back == (on ? 1 : 0), "switch %s: %d hand-overs logged", on ? "on" : "off",
              g_gave_back);
    if (on)
        GPU_CHECK(hot > 0 && hot < full && hot + dev_only == full,
                  "the key's charge did not drop by its points: %llu bytes + %llu on the device "
                  "only, %llu with its host points", (unsigned long long)hot,
                  (unsigned long long)dev_only, (unsigned long long)full);
    else
        GPU_CHECK(dev_only == 0, "switch off: %llu bytes on the device only",
                  (unsigned long long)dev_only);
    /* the device copy proves later jobs; a CRITICAL job's key (2^9) keeps its host copy */
    for (int i = 0; i < 2; i++)
        run_job(e, 10, 3, CUZK_PRIORITY_DEFAULT);
    run_job(e, 9, 2, CUZK_PRIORITY_CRITICAL);
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT);
    usleep(200000);
    GPU_CHECK(g_gave_back == (on ? 1 : 0) && g_gave_back_9 == 0,
              "switch %s: %d hand-overs (%d of the CRITICAL key)", on ? "on" : "off",
              g_gave_back, g_gave_back_9);
    /* another bulk key: the idle adopted one leaves the device for it (evicted, so it is
     * loaded again when wanted, and adopted again) */
    usleep(100000); /* the last partitions' references go a moment after the job ends */
    run_job(e, 8, 2, CUZK_PRIORITY_DEFAULT);
    await_log(on ? 2 : 0);
    usleep(100000);
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT);
    await_log(on ? 3 : 0);
    usleep(200000);
    GPU_CHECK(g_gave_back == (on ? 3 : 0) && g_left == (on ? 2 : 0),
              "switch %s: %d hand-overs, %d keys left the device (want %d, %d)",
              on ? "on" : "off", g_gave_back, g_left, on ? 3 : 0, on ? 2 : 0);
    /* every key leaves the device with its eviction: the adopted one too (the device
     * knows it by the address it was given, src/engine/srs.h) */
    const char *ids[] = {"synthetic-10-7", "synthetic-9-7", "synthetic-8-7"};
    for (int i = 0; i < 3; i++) { /* those still resident; the others were evicted before */
        cuzk_status st;
        /* in use: the last partitions' references go a moment after their job ends */
        for (int t = 0; (st = cuzk_engine_evict(e, ids[i], NULL, NULL, &err)) ==
                            CUZK_ERR_UNAVAILABLE && t < 400; t++)
            usleep(5000);
        GPU_CHECK(st == CUZK_OK, "evict %s: %s", ids[i], err.msg);
    }
    size_t held = cuzk_engine_prover_held(e);
    GPU_CHECK(held == 0, "switch %s: the device still holds %zu keys or circuits after every "
              "key was evicted", on ? "on" : "off", held);
    cuzk_engine_destroy(e);
    return hot;
}

/* With eviction_min_idle (default 5 min) an adopted key that was just used keeps its place
 * when another bulk key loads: both are on the device (2^10 and 2^8 fit any GPU), nothing
 * leaves, and the first key proves again without a load. */
static void phase_keep(void)
{
    cuzk_engine *e = make_engine(true, true);
    if (!e)
        return;
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT);
    await_log(1);
    usleep(100000);
    run_job(e, 8, 2, CUZK_PRIORITY_DEFAULT);
    await_log(2);
    usleep(100000);
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT);
    usleep(200000);
    GPU_CHECK(g_left == 0 && g_loads == 2 && g_gave_back == 2,
              "default idle rule: %d keys left the device, %d loads, %d hand-overs (want 0, 2, "
              "2)", g_left, g_loads, g_gave_back);
    cuzk_engine_destroy(e);
}

/* A bulk key the device streamed is not handed over (its host copy is what the device reads;
 * logged once for the load, not at each retry); once the device has uploaded it whole
 * (cuda_resident.h: a streamed entry is decided again at each use), the next offer hands it
 * over, and its jobs still prove and verify. */
static void phase_streamed_first(void)
{
    cuzk_engine *e = make_engine(true, true);
    if (!e)
        return;
    cuzk_prover *gpu = cuzk_engine_device_prover(e, 0);
    GPU_CHECK(gpu != NULL, "the engine's gpu:0 prover");
    if (!gpu) {
        cuzk_engine_destroy(e);
        return;
    }
    cuzk_engine_set_adopt_retry_ms(e, 0); /* every partition offers it again */
    cuzk_prover_cuda_force_stream(gpu, true, false);
    run_job(e, 10, 4, CUZK_PRIORITY_DEFAULT);
    cuzk_engine_release_drain(e);
    GPU_CHECK(g_gave_back == 0 && g_kept == 1,
              "streamed: %d hand-overs, %d \"keeps its host copy\" lines (want 0, 1)",
              g_gave_back, g_kept);
    cuzk_prover_cuda_force_stream(gpu, false, false);
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT);
    await_log(1);
    GPU_CHECK(g_gave_back == 1 && g_kept == 1,
              "uploaded whole: %d hand-overs, %d \"keeps its host copy\" lines (want 1, 1)",
              g_gave_back, g_kept);
    run_job(e, 10, 2, CUZK_PRIORITY_DEFAULT); /* from the device copy alone */
    cuzk_engine_destroy(e);
}

int main(void)
{
    GPU_TEST_BEGIN("gpu_engine_keys");
    uint64_t full = phase(false, 0);
    GPU_CHECK(full > 0, "no key charged with the switch off");
    phase(true, full);
    phase_keep();
    phase_streamed_first();
    GPU_TEST_END();
}
