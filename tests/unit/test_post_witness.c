/*
 * test_post_witness.c — the parallel PoSt witness (cuzk_post_witness_compact: sectors on
 * the pool, concatenated) equals the plain witness backend on cuzk_post_circuit bit for
 * bit (variable count, bit count, dense values, bitmap), on pools of 1, 2 and 3 threads:
 * consistent WindowPoSt and WinningPoSt 2 KiB fixtures (a short partition: one sector
 * given for two), and shape-exact random 32 GiB WinningPoSt data (66 circuit sectors over
 * a real tree height, cuzk/fil_synth.h); a partition without vanilla proofs is refused.
 * Seeds from the test RNG (printed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/fil_synth.h"
#include "cuzk/post.h"
#include "vanilla_fixture.h"
#include "test_rng.h"

static void same_as_plain(const cuzk_post_partition *p)
{
    cuzk_compact_assignment plain, fast;
    cuzk_error e = {0};
    assert_int_equal(cuzk_circuit_witness_compact(cuzk_post_circuit, p, &plain, &e), CUZK_OK);
    for (unsigned t = 1; t <= 3; t++) {
        cuzk_pool *pool = NULL;
        assert_int_equal(cuzk_pool_create(&pool, t), CUZK_OK);
        cuzk_status st = cuzk_post_witness_compact(p, pool, &fast, &e);
        if (st != CUZK_OK)
            fail_msg("fast witness, %u threads: %s", t, e.msg);
        assert_int_equal(fast.n_vars, plain.n_vars);
        assert_int_equal(fast.n_bits, plain.n_bits);
        assert_memory_equal(fast.dense, plain.dense,
                            (size_t)(plain.n_vars - plain.n_bits) * sizeof(cuzk_fr));
        assert_memory_equal(fast.bits, plain.bits, (size_t)(plain.n_bits + 63) / 64 * 8);
        cuzk_compact_assignment_free(&fast);
        cuzk_pool_destroy(pool);
    }
    cuzk_compact_assignment_free(&plain);
}

static void test_fixtures(void **state)
{
    (void)state;
    const char *names[2] = {"StackedDrgWindow2KiBV1_2", "StackedDrgWinning2KiBV1"};
    for (int i = 0; i < 2; i++) {
        cuzk_post_info in;
        assert_int_equal(cuzk_post_info_from_name(names[i], &in, NULL), CUZK_OK);
        /* WindowPoSt: one sector given for a partition of two (the last one repeats) */
        cuzk_post_job *s = vf_post(&in, 0, 1, 10 + test_rng_u64() % 1000);
        assert_non_null(s);
        cuzk_post_partition p = cuzk_post_job_partition(s);
        same_as_plain(&p);
        cuzk_post_job_free(s);
    }
}

static void test_random_32g(void **state)
{
    (void)state;
    cuzk_post_partition p;
    cuzk_error e = {0};
    assert_int_equal(cuzk_post_synth(CUZK_POST_WINNING, 32ull << 30, test_rng_u64(), &p, &e),
                     CUZK_OK);
    same_as_plain(&p);
    cuzk_post_synth_free(&p);
}

static void test_refusals(void **state)
{
    (void)state;
    cuzk_post_partition p;
    memset(&p, 0, sizeof p);
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow2KiBV1_2", &p.info, NULL),
                     CUZK_OK);
    cuzk_compact_assignment a;
    cuzk_error e = {0};
    assert_int_equal(cuzk_post_witness_compact(&p, NULL, &a, &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "needs the vanilla proofs"));
    assert_null(a.dense);
    assert_int_equal(cuzk_post_witness_compact(&p, NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_rng_init("test_post_witness");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_random_32g),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
