/*
 * engine_fil_fixture.h — what the Filecoin-kind engine tests (test_engine_filecoin,
 * test_snap_engine, test_engine_params) share: an engine on two CPU threads with a
 * parameter and a dev-key directory, a job run to completion, a refusal at submit checked
 * by code and message, and the verifying key read back from the engine's cached dev key.
 * Header-only (static inline) like c1_gen.h; needs cmocka (its asserts end the test).
 * Single-threaded callers.
 */
#ifndef CUZK_TEST_ENGINE_FIL_FIXTURE_H
#define CUZK_TEST_ENGINE_FIL_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"

/* The dev key directory a test's engines use: CUZK_DEV_KEY_DIR (made if missing; the
 * build tree's, shared by the Filecoin tests so each key is made once), or a fresh
 * temporary one (*tmp; efx_keys_dir_done removes it). false when none could be made. */
static inline bool efx_keys_dir(char *out, size_t cap, bool *tmp)
{
    const char *dir = getenv("CUZK_DEV_KEY_DIR");
    *tmp = !(dir && *dir);
    if (!*tmp) {
        mkdir(dir, 0755);
        snprintf(out, cap, "%s", dir);
        return true;
    }
    snprintf(out, cap, "/tmp/cuzk-devkeys-XXXXXX");
    return mkdtemp(out) != NULL;
}

/* The end of a test's key directory: a temporary one is removed with what the engines
 * made in it; false when that failed. */
static inline bool efx_keys_dir_done(const char *dir, bool tmp)
{
    if (!tmp)
        return true;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0;
}

/* A log callback that shows warnings and errors only. */
static inline void efx_quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "engine: %s\n", m);
}

/* A CPU engine (2 threads) with these key directories and the circuits' cache in csr_dir
 * (NULL: the engine's default place); the test fails if it does not start. */
static inline cuzk_engine *efx_make_csr(const char *param_dir, const char *dev_dir,
                                        const char *csr_dir,
                                        void (*log)(void *, cuzk_log_level, const char *))
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.threads = 2;
    c.param_dir = param_dir;
    c.dev_key_dir = dev_dir;
    c.csr_cache_dir = csr_dir;
    c.log = log;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK)
        fail_msg("create: %s", err.msg);
    return e;
}

/* efx_make_csr with the default cache place. */
static inline cuzk_engine *efx_make(const char *param_dir, const char *dev_dir,
                                    void (*log)(void *, cuzk_log_level, const char *))
{
    return efx_make_csr(param_dir, dev_dir, NULL, log);
}

/* Submits r and waits for it; the job must complete. */
static inline cuzk_job_result efx_run(cuzk_engine *e, const cuzk_job_request *r)
{
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, &err), CUZK_OK);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job: %s", res.error);
    return res;
}

/* Submit must fail with code and a message containing msg. */
static inline void efx_expect_refused(cuzk_engine *e, const cuzk_job_request *r,
                                      cuzk_status code, const char *msg)
{
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, r, &t, &err);
    if (st != code || !strstr(err.msg, msg))
        fail_msg("expected %d \"%s\", got %d \"%s\"", (int)code, msg, (int)st, err.msg);
}

/* The vk of the engine's cached dev key for id in keys_dir (the .params begins with the .vk
 * bytes); pvk borrows vk->ic, so vk is the caller's to free after use. */
static inline void efx_dev_vk(const char *keys_dir, const char *id, cuzk_groth16_vk *vk,
                              cuzk_groth16_pvk *pvk)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/cuzk-DEV-UNTRUSTED-%s.dev.params", keys_dir, id);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("no dev key at %s", path);
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    size_t used = 0;
    cuzk_error err = {0};
    if (cuzk_groth16_vk_from_bellperson(vk, buf, n, &used, &err) != CUZK_OK)
        fail_msg("vk: %s", err.msg);
    assert_int_equal(cuzk_groth16_pvk_prepare(pvk, vk), CUZK_OK);
}

#endif /* CUZK_TEST_ENGINE_FIL_FIXTURE_H */
