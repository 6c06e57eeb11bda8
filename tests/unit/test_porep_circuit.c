/*
 * test_porep_circuit.c — the StackedDRG partition circuit (cuzk/porep.h).
 *
 *   counts     the placeholder circuit on the counting backend against the targets of
 *              filecoin.md §1.7 (constraints incl. input rows / aux / inputs incl. ONE):
 *              2 KiB 2,687,961 / 2,685,673 / 40, 8 MiB 3,844,969 / 3,842,449 / 40,
 *              512 MiB 4,423,473 / 4,420,837 / 40 (the sizes of Filecoin's parameter
 *              files, so these pin the allocation and row structure);
 *   witness    a generated 2 KiB C1 output (tests/support/c1_gen.h) -> parse -> circuit
 *              on every backend (circuit_test_util.h: backends agree, compact = dense,
 *              R1CS satisfied); the witness's inputs equal cuzk_porep_public_inputs; the
 *              C1-made circuit has the placeholder's exact counts; a C1 output with a
 *              wrong label leaves it unsatisfied;
 *   malformed  what the circuit layer itself refuses, with its message;
 *   prove      dev setup -> prove -> verify with cuzk_porep_public_inputs (and not with
 *              a changed input). A fresh seeded setup each run (the fast path of
 *              setup_dev: ~30 s of a 2^22 key on 2 idle cores, docs/perf.md);
 *              CUZK_POREP_PROVE=0 skips it.
 * Threading: single-threaded except the prover's pool.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>

#include "c1_gen.h"
#include "circuit_test_util.h"
#include "cuzk/c1.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/porep.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void count_size(uint64_t size, uint64_t rows, uint64_t aux, uint64_t inputs)
{
    cuzk_porep_circuit *c = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_porep_circuit_placeholder(size, &c, &e), CUZK_OK);
    cuzk_circuit_counts n;
    double t0 = now();
    if (cuzk_circuit_count(cuzk_porep_circuit_synthesize, c, &n, &e) != CUZK_OK)
        fail_msg("count: %s", e.msg);
    printf("porep %llu B: %llu rows incl. inputs, %llu aux, %llu inputs incl. ONE, "
           "nnz %llu/%llu/%llu, a_aux %llu, b_aux %llu, bits %llu (%.2f s)\n",
           (unsigned long long)size, (unsigned long long)cuzk_circuit_counts_rows_with_inputs(&n),
           (unsigned long long)n.n_aux, (unsigned long long)n.n_public + 1,
           (unsigned long long)n.nnz[0], (unsigned long long)n.nnz[1],
           (unsigned long long)n.nnz[2], (unsigned long long)n.a_aux_density,
           (unsigned long long)n.b_aux_density, (unsigned long long)n.n_bits, now() - t0);
    assert_int_equal(cuzk_circuit_counts_rows_with_inputs(&n), rows);
    assert_int_equal(n.n_aux, aux);
    assert_int_equal(n.n_public + 1, inputs);
    assert_int_equal(n.n_public, cuzk_porep_public_input_count(cuzk_porep_circuit_shape(c)));
    cuzk_porep_circuit_free(c);
}

static void test_counts(void **state)
{
    (void)state;
    count_size(2048, 2687961, 2685673, 40);
    count_size(8ull << 20, 3844969, 3842449, 40);
    count_size(512ull << 20, 4423473, 4420837, 40);
}

/* ---- a generated 2 KiB C1 output ------------------------------------------------------- */

static cuzk_c1_output *gen_c1(int flaw)
{
    static gen g;
    make_gen(&g, flaw);
    json_t *root = gen_json(&g);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    assert_non_null(s);
    cuzk_c1_output *c1 = NULL;
    cuzk_error e = {0};
    if (cuzk_c1_parse(s, strlen(s), &c1, &e) != CUZK_OK)
        fail_msg("parse: %s", e.msg);
    free(s);
    return c1;
}

static void test_witness(void **state)
{
    (void)state;
    cuzk_c1_output *c1 = gen_c1(GEN_OK);
    cuzk_error e = {0};
    assert_int_equal(cuzk_c1_check(c1, &e), CUZK_OK);
    cuzk_porep_circuit *c = NULL, *ph = NULL;
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    double t0 = now();
    ct_result r;
    ct_run(cuzk_porep_circuit_synthesize, c, &r);
    printf("2 KiB partition on every backend + check: %.2f s\n", now() - t0);

    /* the same circuit as the placeholder's, term for term in the counts */
    assert_int_equal(cuzk_porep_circuit_placeholder(2048, &ph, &e), CUZK_OK);
    cuzk_circuit_counts pc;
    assert_int_equal(cuzk_circuit_count(cuzk_porep_circuit_synthesize, ph, &pc, &e), CUZK_OK);
    assert_memory_equal(&pc, &r.counts, sizeof pc);

    /* public inputs: the witness's equal the verifier's vector */
    size_t n = cuzk_porep_public_input_count(cuzk_porep_circuit_shape(c));
    cuzk_fr x[39];
    assert_int_equal(n, 39);
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, x, n, &e), CUZK_OK);
    for (size_t i = 0; i < n; i++)
        if (!cuzk_fr_eq(&x[i], &r.w[1 + i]))
            fail_msg("public input %zu differs from the circuit's", i);
    /* and they say what they should: the challenge, then its first DRG parent */
    cuzk_fr node;
    cuzk_fr_from_u64(&node, cuzk_c1_challenge(&c1->proofs[1]));
    assert_true(cuzk_fr_eq(&x[3 + 18], &node));
    cuzk_fr_from_u64(&node, c1->proofs[1].drg_parents[0].index);
    assert_true(cuzk_fr_eq(&x[3 + 18 + 1], &node));
    ct_free(&r);
    cuzk_porep_circuit_free(c);
    cuzk_porep_circuit_free(ph);
    cuzk_c1_free(c1);

    /* a label that does not follow from its parents: the circuit is not satisfied */
    c1 = gen_c1(GEN_BAD_LABEL);
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    cuzk_r1cs *m = NULL;
    cuzk_fr *w = NULL;
    uint32_t nv = 0;
    assert_int_equal(cuzk_circuit_record(cuzk_porep_circuit_synthesize, c, &m, NULL, &e), CUZK_OK);
    assert_int_equal(cuzk_circuit_witness_dense(cuzk_porep_circuit_synthesize, c, &w, &nv, &e),
                     CUZK_OK);
    cuzk_witness wd = cuzk_witness_dense(w, nv);
    uint64_t bad = 0;
    assert_int_equal(cuzk_r1cs_check(m, &wd, &bad, &e), CUZK_ERR_UNSATISFIED);
    printf("bad label: row %llu unsatisfied\n", (unsigned long long)bad);
    free(w);
    cuzk_r1cs_destroy(m);
    cuzk_porep_circuit_free(c);
    cuzk_c1_free(c1);
}

static void expect_make(const cuzk_c1_output *c1, unsigned partition, cuzk_status want,
                        const char *needle)
{
    cuzk_porep_circuit *c = (cuzk_porep_circuit *)1;
    cuzk_error e = {0};
    cuzk_status st = cuzk_porep_circuit_make(c1, partition, &c, &e);
    if (st != want || !strstr(e.msg, needle))
        fail_msg("got %s \"%s\", expected %s containing \"%s\"", cuzk_status_name(st), e.msg,
                 cuzk_status_name(want), needle);
    assert_null(c);
}

static void test_malformed(void **state)
{
    (void)state;
    cuzk_c1_output *c1 = gen_c1(GEN_OK);
    cuzk_error e = {0};
    expect_make(NULL, 0, CUZK_ERR_INVALID_ARG, "no C1 output");
    expect_make(c1, 1, CUZK_ERR_INVALID_ARG, "partition 1 out of range: the C1 output has 1");
    expect_make(c1, 7, CUZK_ERR_INVALID_ARG, "partition 7 out of range");

    c1->info.challenges = 3;
    expect_make(c1, 0, CUZK_ERR_LENGTH,
                "the C1 output has 3 challenges per partition, the 2 KiB circuit has 2");
    cuzk_fr x[64];
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, x, 57, &e), CUZK_ERR_LENGTH);
    c1->info.challenges = 2;
    c1->info.layers = 11;
    expect_make(c1, 0, CUZK_ERR_LENGTH, "11 layers, the 2 KiB circuit has 2");
    c1->info.layers = 2;
    c1->info.sector_size = 4096;
    expect_make(c1, 0, CUZK_ERR_UNSUPPORTED, "sector size 4096");
    c1->info.sector_size = 2048;

    cuzk_c1_merkle_proof *d = &c1->proofs[1].comm_d_proof;
    d->n_levels = 5;
    expect_make(c1, 0, CUZK_ERR_LENGTH, "challenge 1 comm_d_proofs: 5 levels, the tree has 6");
    d->n_levels = 6;
    cuzk_c1_merkle_proof *col = &c1->proofs[0].exp_parents[3].proof;
    col->arity[1] = 2;
    expect_make(c1, 0, CUZK_ERR_LENGTH, "exp_parents[3]: level 1 has arity 2, the tree 8");
    col->arity[1] = 8;
    uint8_t keep = col->index[0];
    col->index[0] = 8;
    expect_make(c1, 0, CUZK_ERR_FORMAT, "level 0 position 8 >= arity 8");
    col->index[0] = keep;
    c1->proofs[1].c_x.proof.root[0] ^= 1;
    expect_make(c1, 0, CUZK_ERR_INVALID_PROOF, "challenge 1: comm_c differs");
    c1->proofs[1].c_x.proof.root[0] ^= 1;

    /* public inputs: room for the wrong count, partition out of range */
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, x, 40, &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "room for 40, the circuit has 39"));
    assert_int_equal(cuzk_porep_public_inputs(c1, 1, x, 39, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, NULL, 39, &e), CUZK_ERR_INVALID_ARG);

    /* the placeholder: sizes, and no witness from it */
    cuzk_porep_circuit *c = NULL;
    assert_int_equal(cuzk_porep_circuit_placeholder(1000, &c, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_porep_circuit_placeholder(2048, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_circuit_placeholder(2048, &c, &e), CUZK_OK);
    cuzk_fr *w = NULL;
    uint32_t nv = 0;
    assert_int_equal(cuzk_circuit_witness_dense(cuzk_porep_circuit_synthesize, c, &w, &nv, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "placeholder circuit has no witness values"));
    assert_null(w);
    cuzk_porep_circuit_free(c);
    cuzk_porep_circuit_free(NULL);
    assert_int_equal(cuzk_porep_circuit_synthesize(NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
    cuzk_c1_free(c1);
}

/* ---- end to end: C1 JSON -> witness -> dev setup -> prove -> verify --------------------- */

static void test_prove(void **state)
{
    (void)state;
    const char *env = getenv("CUZK_POREP_PROVE");
    if (env && strcmp(env, "0") == 0) {
        printf("CUZK_POREP_PROVE=0: skipped\n");
        skip();
    }
    cuzk_c1_output *c1 = gen_c1(GEN_OK);
    cuzk_error e = {0};
    assert_int_equal(cuzk_c1_check(c1, &e), CUZK_OK);
    cuzk_porep_circuit *c = NULL;
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    double t0 = now();
    cuzk_r1cs *m = NULL;
    if (cuzk_circuit_record(cuzk_porep_circuit_synthesize, c, &m, NULL, &e) != CUZK_OK)
        fail_msg("record: %s", e.msg);
    double t1 = now();
    cuzk_fr *w = NULL;
    uint32_t nv = 0;
    assert_int_equal(cuzk_circuit_witness_dense(cuzk_porep_circuit_synthesize, c, &w, &nv, &e),
                     CUZK_OK);
    double t2 = now();
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    memset(&pk, 0, sizeof pk);
    memset(&vk, 0, sizeof vk);
    uint8_t seed[32];
    test_rng_bytes(seed, 32);
    if (cuzk_groth16_setup_dev(&pk, &vk, m, CUZK_GROTH16_BELLPERSON, seed, pool, &e) != CUZK_OK)
        fail_msg("setup: %s", e.msg);
    double t3 = now();
    assert_int_equal(pk.log2n, 22);
    assert_int_equal(vk.n_ic, 40);
    size_t sz = cuzk_groth16_prove_scratch_size(&pk, m, cuzk_pool_nthreads(pool));
    assert_true(sz > 0);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness wd = cuzk_witness_dense(w, nv);
    cuzk_groth16_proof proof;
    if (cuzk_groth16_prove(&proof, &pk, m, &wd, scratch, sz, pool, &e) != CUZK_OK)
        fail_msg("prove: %s", e.msg);
    double t4 = now();
    free(scratch);

    cuzk_fr x[39];
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, x, 39, &e), CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 39, &proof, &e), CUZK_OK);
    /* another challenge's parent, or another comm_r, does not verify */
    cuzk_fr_add(&x[3 + 5], &x[3 + 5], &CUZK_FR_ONE);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 39, &proof, &e), CUZK_ERR_INVALID_PROOF);
    cuzk_fr_sub(&x[3 + 5], &x[3 + 5], &CUZK_FR_ONE);
    cuzk_fr_add(&x[2], &x[2], &CUZK_FR_ONE);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 39, &proof, &e), CUZK_ERR_INVALID_PROOF);
    printf("2 KiB PoRep partition: record %.2f s, witness %.2f s, dev setup %.1f s, "
           "prove %.1f s (2 threads)\n", t1 - t0, t2 - t1, t3 - t2, t4 - t3);

    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    cuzk_pool_destroy(pool);
    free(w);
    cuzk_r1cs_destroy(m);
    cuzk_porep_circuit_free(c);
    cuzk_c1_free(c1);
}

int main(void)
{
    test_rng_init("test_porep_circuit");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_witness),
        cmocka_unit_test(test_prove),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
