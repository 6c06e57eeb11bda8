/*
 * test_prover.c — the prover backend interface (cuzk/prover.h) on the CPU backend, which
 * CI can run: the interface's proofs equal the groth16 layer's for the same r and s, a
 * compact witness gives the same proof as its dense form, batches, cancellation, bad
 * specs and witnesses, an unsatisfying witness never yields a proof, and the timings are
 * filled. (The CUDA backend is checked against this one in tests/gpu/test_gpu_prove.cu.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "test_rng.h"

typedef struct fx {
    cuzk_synthetic c;
    cuzk_groth16_pk pk;
    cuzk_pool *pool;
    cuzk_prover *p;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    if (!f || cuzk_pool_create(&f->pool, 2) != CUZK_OK ||
        cuzk_synthetic_porep(&f->c, 10, test_rng_u64(), f->pool, NULL) != CUZK_OK ||
        cuzk_groth16_setup_dev(&f->pk, NULL, f->c.r1cs, CUZK_GROTH16_BELLPERSON, seed, f->pool,
                               NULL) != CUZK_OK ||
        cuzk_prover_open(&f->p, "cpu", f->pool, NULL) != CUZK_OK)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    cuzk_prover_close(f->p);
    cuzk_groth16_pk_free(&f->pk);
    cuzk_synthetic_free(&f->c);
    cuzk_pool_destroy(f->pool);
    free(f);
    return 0;
}

static cuzk_witness dense_of(const fx *f)
{
    return cuzk_witness_dense(f->c.witness, f->c.r1cs->n_vars);
}

static void test_same_as_groth16(void **state)
{
    fx *f = *state;
    cuzk_fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    cuzk_witness w = dense_of(f);
    /* the groth16 layer directly */
    size_t sz = cuzk_groth16_prove_scratch_size(&f->pk, f->c.r1cs, 2);
    void *scratch = malloc(sz);
    cuzk_groth16_prover_state st;
    cuzk_groth16_proof want, got[2];
    assert_int_equal(cuzk_groth16_prove_start(&st, &f->pk, f->c.r1cs, &w, scratch, sz, f->pool,
                                              NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_prove_finalize(&st, &r, &s, &want, NULL), CUZK_OK);
    free(scratch);
    /* the interface, dense and compact witnesses in one batch */
    cuzk_witness ws[2] = {w, w};
    cuzk_prove_job *job;
    cuzk_error e;
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, ws, 2, NULL, &job, &e), CUZK_OK);
    cuzk_fr rr[2] = {r, r}, ss[2] = {s, s};
    cuzk_prove_timings t;
    assert_int_equal(cuzk_prover_finalize(job, rr, ss, got, &t, &e), CUZK_OK);
    assert_memory_equal(&got[0], &want, sizeof want);
    assert_memory_equal(&got[1], &want, sizeof want);
    assert_true(t.ms[CUZK_STAGE_DEVICE] > 0 && t.ms[CUZK_STAGE_VERIFY] > 0);
    assert_true(t.device_end_ms >= t.device_begin_ms && t.device_begin_ms > 0);
    cuzk_witness c = cuzk_synthetic_compact(&f->c);
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &c, 1, NULL, &job, &e), CUZK_OK);
    assert_int_equal(cuzk_prover_finalize(job, &r, &s, got, NULL, &e), CUZK_OK);
    assert_memory_equal(&got[0], &want, sizeof want);
    /* random r, s: a different proof, still self-checked */
    assert_int_equal(cuzk_prover_prove(f->p, &f->pk, f->c.r1cs, &c, got, NULL, &e), CUZK_OK);
    assert_true(memcmp(&got[0], &want, sizeof want) != 0);
}

static void test_refusals(void **state)
{
    fx *f = *state;
    cuzk_witness w = dense_of(f);
    cuzk_prove_job *job = (cuzk_prove_job *)f; /* must come back NULL */
    cuzk_error e;
    volatile int cancel = 1;
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &w, 1, &cancel, &job, &e),
                     CUZK_ERR_CANCELLED);
    assert_null(job);
    cuzk_witness short_w = cuzk_witness_dense(f->c.witness, f->c.r1cs->n_vars - 1);
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &short_w, 1, NULL, &job, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &w, 0, NULL, &job, &e),
                     CUZK_ERR_INVALID_ARG);
    /* a batch mixing kinds is refused (the GPU uploads one layout per batch) */
    cuzk_witness mixed[2] = {cuzk_synthetic_compact(&f->c), w};
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, mixed, 2, NULL, &job, &e),
                     CUZK_ERR_INVALID_ARG);
    cuzk_prover *q;
    assert_int_equal(cuzk_prover_open(&q, "gpu:x", NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_prover_open(&q, "fpga", NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_prover_open(&q, "gpu:999", NULL, &e), CUZK_ERR_UNSUPPORTED);
    /* only one of r, s */
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &w, 1, NULL, &job, &e), CUZK_OK);
    cuzk_fr r;
    test_rand_fr(&r);
    cuzk_groth16_proof p;
    assert_int_equal(cuzk_prover_finalize(job, &r, NULL, &p, NULL, &e), CUZK_ERR_INVALID_ARG);
    /* an abandoned job is released without finalize */
    assert_int_equal(cuzk_prover_start(f->p, &f->pk, f->c.r1cs, &w, 1, NULL, &job, &e), CUZK_OK);
    cuzk_prove_job_free(job);
    /* keys on the device only: the CPU keeps none there, and a key whose points are gone
     * is refused by a prover that has not adopted it (never read through NULL) */
    assert_int_equal(cuzk_prover_key_adopt(f->p, &f->pk, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_prover_key_adopt(NULL, &f->pk, &e), CUZK_ERR_INVALID_ARG);
    cuzk_groth16_pk bare = f->pk;
    void **vec[] = {(void **)&bare.h, (void **)&bare.l, (void **)&bare.a, (void **)&bare.b_g1,
                    (void **)&bare.b_g2};
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        bare = f->pk;
        *vec[i] = NULL;
        job = (cuzk_prove_job *)f;
        assert_int_equal(cuzk_prover_start(f->p, &bare, f->c.r1cs, &w, 1, NULL, &job, &e),
                         CUZK_ERR_INVALID_ARG);
        assert_null(job);
        assert_non_null(strstr(e.msg, "not in host memory"));
    }
}

static void test_unsatisfied(void **state)
{
    fx *f = *state;
    uint32_t n = f->c.r1cs->n_vars;
    cuzk_fr *bad = malloc((size_t)n * sizeof *bad);
    memcpy(bad, f->c.witness, (size_t)n * sizeof *bad);
    uint32_t v = n / 2;
    bad[v] = cuzk_fr_is_zero(&bad[v]) ? CUZK_FR_ONE : CUZK_FR_ZERO;
    cuzk_witness w = cuzk_witness_dense(bad, n);
    cuzk_groth16_proof p;
    memset(&p, 0x5a, sizeof p);
    cuzk_groth16_proof before = p;
    cuzk_error e;
    cuzk_status st = cuzk_prover_prove(f->p, &f->pk, f->c.r1cs, &w, &p, NULL, &e);
    assert_int_equal(st, CUZK_ERR_UNSATISFIED);
    assert_non_null(strstr(e.msg, "constraint"));
    assert_memory_equal(&p, &before, sizeof p); /* nothing written */
    free(bad);
}

int main(void)
{
    test_rng_init("prover");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_groth16),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_unsatisfied),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
