/*
 * test_gpu_multi.cu — the engine on every GPU of the host (devices "all"): the partitions
 * of one job are spread over the devices and every proof verifies; then one device is
 * lost (CUZK_PROVER_FAULT=lost@9: the hook is read once per process, so it is armed up
 * front, aimed at 2^9 keys, which only the second phase uses) and its work moves to the
 * others: every job still completes. Needs at least two CUDA devices: exits 77 (skipped)
 * with fewer.
 * Synthetic 2^10 jobs with dev keys (real, verifiable proofs).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "cuzk/prover.h"
#include "gpu_test.h"

/* One phase: J jobs of P partitions of 2^k on all devices; returns the devices that did
 * partitions and, through *out, how many are out of service. */
static unsigned phase(unsigned k, unsigned J, unsigned P, unsigned *out)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "all";
    c.synthetic_setup_max_log2n = k;
    cuzk_engine *e = NULL;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    *out = 0;
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK) {
        GPU_CHECK(false, "engine: %s", err.msg);
        return 0;
    }
    char ids[8][CUZK_JOB_ID_SIZE];
    for (unsigned i = 0; i < J; i++) {
        cuzk_job_request r;
        memset(&r, 0, sizeof r);
        r.kind = CUZK_PROOF_SYNTHETIC;
        r.synthetic.log2n = k;
        r.synthetic.partitions = P;
        r.synthetic.seed = 1 + test_rng_u64() % 1000;
        cuzk_job_ticket t;
        GPU_CHECK(cuzk_engine_submit(e, &r, &t, &err) == CUZK_OK, "submit: %s", err.msg);
        memcpy(ids[i], t.job_id, CUZK_JOB_ID_SIZE);
    }
    for (unsigned i = 0; i < J; i++) {
        cuzk_job_result res;
        if (cuzk_engine_await(e, ids[i], 0, &res, &err) != CUZK_OK) {
            GPU_CHECK(false, "await: %s", err.msg);
            continue;
        }
        GPU_CHECK(res.state == CUZK_JOB_COMPLETED, "job %u: %s", i, res.error);
        /* the engine verified each proof before returning it; decode them all */
        cuzk_groth16_proof pr[8];
        GPU_CHECK(res.proof_len == P * CUZK_GROTH16_PROOF_BYTES &&
                      cuzk_groth16_proofs_from_bellperson(pr, P, res.proof, res.proof_len,
                                                          NULL) == CUZK_OK,
                  "job %u: %zu proof bytes", i, res.proof_len);
        cuzk_job_result_free(&res);
    }
    cuzk_engine_status s;
    unsigned used = 0;
    if (cuzk_engine_get_status(e, &s, NULL) == CUZK_OK) {
        for (size_t d = 0; d < s.n_devices; d++) {
            printf("  %s: %llu partitions%s%s\n", s.devices[d].name,
                   (unsigned long long)s.devices[d].partitions_done,
                   s.devices[d].in_service ? "" : ", out of service: ",
                   s.devices[d].out_reason);
            used += s.devices[d].partitions_done > 0;
            *out += !s.devices[d].in_service;
        }
        cuzk_engine_status_free(&s);
    }
    cuzk_engine_destroy(e);
    return used;
}

int main(void)
{
    GPU_TEST_BEGIN("gpu_multi");
    unsigned g = cuzk_prover_gpu_count();
    if (g < 2) {
        printf("[gpu_multi] SKIP: %u CUDA device(s), this test needs 2 or more\n", g);
        return GPU_TEST_SKIP;
    }
    /* armed for 2^9 jobs only: phase 1 (2^10) never fires it */
    setenv("CUZK_PROVER_FAULT", "lost@9", 1);
    unsigned out = 0;
    unsigned used = phase(10, 4, 2 * g, &out);
    GPU_CHECK(used == g && out == 0, "phase 1: %u of %u devices took partitions, %u lost", used,
              g, out);
    used = phase(9, 4, 2 * g, &out);
    GPU_CHECK(out == 1, "phase 2: %u devices out of service (one was to be lost)", out);
    GPU_CHECK(used >= g - 1, "phase 2: the work of the lost device moved (%u devices used)",
              used);
    GPU_TEST_END();
}
