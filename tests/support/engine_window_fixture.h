/*
 * engine_window_fixture.h — the 2 KiB WindowPoSt job the Filecoin engine tests
 * (test_engine_filecoin, test_engine_fil_load) run through the engine: a generated
 * two-sector set, its cuzk.v1 field form, its public inputs, a proof checked against them,
 * a log kept for the test to search (the engine's threads log: under a lock), and the
 * event log read for a job's stage. Header-only (static inline) like engine_fil_fixture.h;
 * needs cmocka, jansson and the vanilla fixture (cuzk_test_vanilla).
 */
#ifndef CUZK_TEST_ENGINE_WINDOW_FIXTURE_H
#define CUZK_TEST_ENGINE_WINDOW_FIXTURE_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/post.h"
#include "engine/engine_testing.h"
#include "engine_fil_fixture.h"
#include "test_rng.h"
#include "vanilla_fixture.h"

/* res's proof against pvk and inputs x[n]: want is CUZK_OK or CUZK_ERR_INVALID_PROOF. */
static inline void ewf_verify(const cuzk_groth16_pvk *pvk, const cuzk_job_result *res,
                              const cuzk_fr *x, size_t n, cuzk_status want)
{
    assert_int_equal(res->proof_len, CUZK_GROTH16_PROOF_BYTES);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res->proof, res->proof_len, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(pvk, x, n, &proof, NULL), want);
}

/* A fresh two-sector 2 KiB WindowPoSt set (cuzk_post_job_free). */
static inline cuzk_post_job *ewf_window_set(void)
{
    cuzk_post_info info;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &info, NULL), CUZK_OK);
    cuzk_post_job *s = vf_post(&info, 0, 2, 1000 + test_rng_u64() % 1000);
    assert_non_null(s);
    return s;
}

/* The cuzk.v1 form of s: per-sector JSON (owned by *doc), abi number, randomness. */
static inline cuzk_job_request ewf_fields_req(const cuzk_post_job *s, json_t **doc,
                                              cuzk_bytes *vps)
{
    char *txt = vf_post_doc(s, 0);
    *doc = json_loads(txt, 0, NULL);
    free(txt);
    assert_non_null(*doc);
    json_t *arr = json_object_get(*doc, "vanilla_proofs");
    for (size_t i = 0; i < s->n_sectors; i++) {
        char *one = json_dumps(json_array_get(arr, i), JSON_COMPACT);
        vps[i] = (cuzk_bytes){(const uint8_t *)one, strlen(one)};
    }
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.registered_proof = 10; /* Go abi StackedDrgWindow2KiBV1_1 = rust V1_2 */
    r.randomness = (cuzk_bytes){s->randomness, 32};
    r.vanilla_proofs = vps;
    r.n_vanilla_proofs = s->n_sectors;
    return r;
}

static inline void ewf_free_fields(json_t *doc, cuzk_bytes *vps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((void *)vps[i].data);
    json_decref(doc);
}

/* s's public inputs (*n of them; free()). */
static inline cuzk_fr *ewf_window_inputs(const cuzk_post_job *s, size_t *n)
{
    cuzk_post_partition p = cuzk_post_job_partition(s);
    *n = cuzk_post_info_n_inputs(&s->info);
    cuzk_fr *x = calloc(*n, sizeof *x);
    assert_non_null(x);
    assert_int_equal(cuzk_post_public_inputs(&p, s->randomness, x, *n, NULL), CUZK_OK);
    return x;
}

/* s through e in its cuzk.v1 field form, run to completion. */
static inline cuzk_job_result ewf_window_run(cuzk_engine *e, const cuzk_post_job *s)
{
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = ewf_fields_req(s, &doc, vps);
    cuzk_job_result res = efx_run(e, &r);
    ewf_free_fields(doc, vps, s->n_sectors);
    return res;
}

/* s submitted in its field form; the ticket (the test awaits it). */
static inline cuzk_job_ticket ewf_submit_window(cuzk_engine *e, const cuzk_post_job *s)
{
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = ewf_fields_req(s, &doc, vps);
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    ewf_free_fields(doc, vps, s->n_sectors);
    return t;
}

/* The lines an engine logged through ewf_info_log since ewf_info_clear. */
static pthread_mutex_t ewf_info_mu = PTHREAD_MUTEX_INITIALIZER;
static char ewf_info[1 << 16];

static inline void ewf_info_clear(void)
{
    pthread_mutex_lock(&ewf_info_mu);
    ewf_info[0] = 0;
    pthread_mutex_unlock(&ewf_info_mu);
}

static inline void ewf_info_log(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    pthread_mutex_lock(&ewf_info_mu);
    size_t n = strlen(ewf_info);
    if (n + strlen(m) + 2 < sizeof ewf_info)
        snprintf(ewf_info + n, sizeof ewf_info - n, "%s\n", m);
    pthread_mutex_unlock(&ewf_info_mu);
}

static inline bool ewf_info_has(const char *what)
{
    pthread_mutex_lock(&ewf_info_mu);
    bool has = strstr(ewf_info, what) != NULL;
    pthread_mutex_unlock(&ewf_info_mu);
    return has;
}

/* Whether the event log holds stage for job id; *device: whether any DEVICE event is in. */
static inline bool ewf_has_event(cuzk_engine *e, const char *id, int stage, bool *device)
{
    static cuzk_engine_event ev[256];
    size_t n = cuzk_engine_events(e, ev, 256);
    bool found = false;
    for (size_t i = 0; i < n && i < 256; i++) {
        if (ev[i].stage == ENGINE_EV_DEVICE)
            *device = true;
        if (ev[i].stage == stage && strcmp(ev[i].job, id) == 0)
            found = true;
    }
    return found;
}

/* Waits (up to 300 s) for job id's partition to be synthesized (its READY event). */
static inline void ewf_wait_ready(cuzk_engine *e, const char *id, bool *device)
{
    for (int i = 0; i < 6000 && !ewf_has_event(e, id, ENGINE_EV_READY, device); i++)
        usleep(50 * 1000);
    if (!ewf_has_event(e, id, ENGINE_EV_READY, device))
        fail_msg("job %s: not synthesized in 300 s while its key's points were held", id);
}

#endif /* CUZK_TEST_ENGINE_WINDOW_FIXTURE_H */
