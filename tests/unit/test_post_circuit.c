/*
 * test_post_circuit.c — the Fallback PoSt circuit (cuzk/post.h) on every backend.
 *
 * Oracles: rust-fil-proofs' own constraint counts (storage-proofs-post tests/fallback_*:
 * 3 sectors x 5 challenges over 64 leaves = 16,869; 32 GiB with 5 sectors x 10 challenges
 * = 266,665; TestConstraintSystem counts exclude the input rows) and filecoin-proofs'
 * constants.rs note that one 32 GiB WindowPoSt partition (2349 sectors) has 125,279,217
 * constraints, checked through the per-sector formula 313 + challenges * (530 levels + 2)
 * that the counted shapes confirm. Witnesses come from cuzk_post_job_synth (sparse
 * trees, challenges derived from the randomness) and must satisfy the recorded R1CS; the
 * witness's public inputs must equal cuzk_post_public_inputs (what a verifier computes).
 */
#include "circuit_test_util.h"
#include "vanilla_fixture.h"
#include "test_rng.h"

static void test_counts_rust_targets(void **state)
{
    (void)state;
    cuzk_circuit_counts c;
    cuzk_error e;
    assert_int_equal(cuzk_post_circuit_counts(CUZK_POST_WINDOW, 2048, 3, 5, &c, &e), CUZK_OK);
    assert_int_equal(c.n_constraints, 16869);
    assert_int_equal(c.n_public, 3 * (1 + 5));
    assert_int_equal(cuzk_circuit_counts_rows_with_inputs(&c), 16869 + 1 + 18);
    assert_int_equal(cuzk_post_circuit_counts(CUZK_POST_WINDOW, 32ull << 30, 5, 10, &c, &e),
                     CUZK_OK);
    assert_int_equal(c.n_constraints, 266665);
    assert_int_equal(c.n_public, 5 * 11);
    /* the 64 GiB (8-8-2) shape: one more level, of arity 2 */
    assert_int_equal(cuzk_post_circuit_counts(CUZK_POST_WINDOW, 64ull << 30, 1, 1, &c, &e),
                     CUZK_OK);
    /* 9 base levels x 530 + sub 530 + top (1 bit + 2 picks + Poseidon-2 311 = 314) + 2 */
    assert_int_equal(c.n_constraints, 313 + 9 * 530 + 530 + 314 + 2);
}

static uint64_t rows_formula(const cuzk_post_info *in)
{
    uint64_t path = 0;
    for (uint32_t l = 0; l < cuzk_post_info_levels(in); l++) {
        uint32_t a = l < in->base_levels ? 8 : (l == in->base_levels && in->sub_arity)
                                                   ? in->sub_arity
                                                   : in->top_arity;
        path += a == 8 ? 530 : 314;
    }
    return (uint64_t)in->sectors * (313 + in->challenges * (path + 2));
}

static void test_counts_filecoin_shapes(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    for (int kind = 0; kind < 2; kind++) {
        for (size_t s = 0; s < 5; s++) {
            cuzk_post_info in;
            assert_int_equal(cuzk_post_info_get((cuzk_post_kind)kind, sizes[s], &in, NULL),
                             CUZK_OK);
            cuzk_circuit_counts c;
            /* a full 32/64 GiB WindowPoSt partition is 125-130 M rows: count 3 sectors and
             * scale (sectors are independent, identical blocks) */
            uint32_t n = in.sectors > 66 ? 3 : 0;
            assert_int_equal(cuzk_post_circuit_counts((cuzk_post_kind)kind, sizes[s], n, 0, &c,
                                                      NULL),
                             CUZK_OK);
            cuzk_post_info sub = in;
            if (n)
                sub.sectors = n;
            assert_int_equal(c.n_constraints, rows_formula(&sub));
            assert_int_equal(c.n_public, cuzk_post_info_n_inputs(&sub));
        }
    }
    cuzk_post_info w32, w64, win32;
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow32GiBV1_2", &w32, NULL), CUZK_OK);
    assert_int_equal(rows_formula(&w32), 125279217);
    assert_int_equal(cuzk_post_info_from_abi(14, &w64, NULL), CUZK_OK);
    assert_string_equal(w64.name, "StackedDrgWindow64GiBV1_2");
    assert_int_equal(rows_formula(&w64), 129887900);
    assert_int_equal(cuzk_post_info_from_abi(3, &win32, NULL), CUZK_OK);
    assert_int_equal(win32.kind, CUZK_POST_WINNING);
    assert_int_equal(rows_formula(&win32), 66 * (313 + 5302));
    cuzk_error e;
    assert_int_equal(cuzk_post_info_from_abi(15, &w32, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow4KiBV1_2", &w32, &e),
                     CUZK_ERR_UNSUPPORTED);
    cuzk_circuit_counts none;
    assert_int_equal(cuzk_post_circuit_counts(CUZK_POST_WINDOW, 4096, 0, 0, &none, &e),
                     CUZK_ERR_UNSUPPORTED);
}

/* all backends agree, the witness satisfies, and its inputs are the verifier's */
static void run_fixture(const cuzk_post_info *in, uint32_t k, uint32_t n)
{
    cuzk_post_job *s = vf_post(in, k, n, 1000 + test_rng_u64() % 1000000);
    assert_non_null(s);
    cuzk_post_partition p = cuzk_post_job_partition(s);
    cuzk_error e;
    if (cuzk_post_partition_check(&p, s->randomness, &e) != CUZK_OK)
        fail_msg("check: %s", e.msg);
    ct_result r;
    ct_run(cuzk_post_circuit, &p, &r);
    assert_int_equal(r.counts.n_constraints, rows_formula(in));
    size_t ni = cuzk_post_info_n_inputs(in);
    assert_int_equal(r.r1cs->n_public, ni);
    cuzk_fr *pub = malloc(ni * sizeof *pub);
    assert_non_null(pub);
    if (cuzk_post_public_inputs(&p, s->randomness, pub, ni, &e) != CUZK_OK)
        fail_msg("public inputs: %s", e.msg);
    assert_memory_equal(pub, r.w + 1, ni * sizeof *pub);
    free(pub);

    /* a wrong comm_c: the witness backend still runs, the R1CS is not satisfied */
    s->sectors[n - 1].comm_c[0] ^= 1;
    cuzk_fr *w;
    uint32_t nv;
    assert_int_equal(cuzk_circuit_witness_dense(cuzk_post_circuit, &p, &w, &nv, &e), CUZK_OK);
    free(r.w);
    r.w = w;
    uint64_t bad;
    assert_false(ct_satisfied(&r, &bad));
    ct_free(&r);
    cuzk_post_job_free(s);
}

static void test_window_2k(void **state)
{
    (void)state;
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow2KiBV1_2", &in, NULL), CUZK_OK);
    run_fixture(&in, 0, 2);
    run_fixture(&in, 3, 1); /* short partition: the last sector repeated */
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow2KiBV1", &in, NULL), CUZK_OK);
    run_fixture(&in, 2, 2); /* API 1.0: challenge index depends on k */
}

static void test_winning_2k(void **state)
{
    (void)state;
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWinning2KiBV1", &in, NULL), CUZK_OK);
    run_fixture(&in, 0, 1);
}

static void test_large_shapes(void **state)
{
    (void)state;
    cuzk_post_info in;
    /* 32 GiB (8-8-0) and 64 GiB (8-8-2) trees, partitions cut to 2 sectors x 2 challenges */
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 32ull << 30, &in, NULL), CUZK_OK);
    in.sectors = 2;
    run_fixture(&in, 1, 2);
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 64ull << 30, &in, NULL), CUZK_OK);
    in.sectors = 2;
    in.challenges = in.vanilla_challenges = 2;
    run_fixture(&in, 0, 1);
}

static void test_blank_witness_refused(void **state)
{
    (void)state;
    cuzk_post_partition p = {0};
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &p.info, NULL), CUZK_OK);
    cuzk_fr *w = NULL;
    uint32_t nv;
    cuzk_error e;
    assert_int_equal(cuzk_circuit_witness_dense(cuzk_post_circuit, &p, &w, &nv, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_null(w);
}

int main(void)
{
    test_rng_init("test_post_circuit");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_rust_targets),
        cmocka_unit_test(test_counts_filecoin_shapes),
        cmocka_unit_test(test_window_2k),
        cmocka_unit_test(test_winning_2k),
        cmocka_unit_test(test_large_shapes),
        cmocka_unit_test(test_blank_witness_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
