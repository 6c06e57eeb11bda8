/*
 * test_porep_witness.c — the fast PoRep witness (cuzk_porep_witness_dense / _compact) and
 * the sized C1 test-data generator (cuzk/c1_synth.h).
 *
 *   synth      generated C1 outputs of every size pass cuzk_c1_check and
 *              cuzk_c1_check_challenges; bad arguments are refused
 *   satisfied  a generated 2 KiB C1 gives a witness that satisfies the recorded R1CS
 *   fast       at 2 KiB (fresh seed), with 1, 2 and 3 threads, the fast witness equals the
 *              plain backend's bit for bit, dense and compact (n_vars, n_bits, every word
 *              and value); also for an inconsistent C1 (a wrong label: the tail must use
 *              the computed labels, not the C1's)
 *   args       NULL arguments and the placeholder circuit are refused
 *
 * Threading: the fast witness runs on pools of 1..3 threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1_gen.h"
#include "circuit_test_util.h"
#include "cuzk/c1.h"
#include "cuzk/c1_synth.h"
#include "cuzk/pool.h"
#include "cuzk/porep.h"

static void test_synth(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    cuzk_error e = {0};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned parts = sizes[i] >= (32ull << 30) ? 2 : 1;
        cuzk_c1_output *c1 = NULL;
        if (cuzk_c1_synth(sizes[i], parts, test_rng_u64(), &c1, &e) != CUZK_OK)
            fail_msg("synth %llu: %s", (unsigned long long)sizes[i], e.msg);
        assert_int_equal(c1->info.partitions, parts);
        if (cuzk_c1_check(c1, &e) != CUZK_OK)
            fail_msg("check %llu: %s", (unsigned long long)sizes[i], e.msg);
        if (cuzk_c1_check_challenges(c1, &e) != CUZK_OK)
            fail_msg("challenges %llu: %s", (unsigned long long)sizes[i], e.msg);
        cuzk_porep_circuit *c = NULL;
        assert_int_equal(cuzk_porep_circuit_make(c1, parts - 1, &c, &e), CUZK_OK);
        cuzk_porep_circuit_free(c);
        cuzk_c1_synth_free(c1);
    }
    cuzk_c1_output *c1 = (cuzk_c1_output *)1;
    assert_int_equal(cuzk_c1_synth(4096, 1, 1, &c1, &e), CUZK_ERR_UNSUPPORTED);
    assert_null(c1);
    assert_int_equal(cuzk_c1_synth(2048, 0, 1, &c1, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_c1_synth(2048, 2, 1, &c1, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_c1_synth(2048, 1, 1, NULL, &e), CUZK_ERR_INVALID_ARG);
    cuzk_c1_synth_free(NULL);
}

static void test_satisfied(void **state)
{
    (void)state;
    cuzk_c1_output *c1 = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_c1_synth(2048, 1, test_rng_u64(), &c1, &e), CUZK_OK);
    cuzk_porep_circuit *c = NULL;
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    ct_result r;
    ct_run(cuzk_porep_circuit_synthesize, c, &r);
    uint64_t bad = 0;
    if (!ct_satisfied(&r, &bad))
        fail_msg("generated 2 KiB C1: row %llu unsatisfied", (unsigned long long)bad);
    ct_free(&r);
    cuzk_porep_circuit_free(c);
    cuzk_c1_synth_free(c1);
}

/* The fast witness with t threads equals the plain backend's, dense and compact. */
static void compare(const cuzk_porep_circuit *c, unsigned t)
{
    cuzk_error e = {0};
    cuzk_pool *pool = NULL;
    if (t > 1)
        assert_int_equal(cuzk_pool_create(&pool, t), CUZK_OK);
    cuzk_fr *w0 = NULL, *w1 = NULL;
    uint32_t n0 = 0, n1 = 0;
    if (cuzk_circuit_witness_dense(cuzk_porep_circuit_synthesize, c, &w0, &n0, &e) != CUZK_OK)
        fail_msg("plain dense: %s", e.msg);
    if (cuzk_porep_witness_dense(c, pool, &w1, &n1, &e) != CUZK_OK)
        fail_msg("fast dense: %s", e.msg);
    assert_int_equal(n0, n1);
    for (uint32_t v = 0; v < n0; v++)
        if (memcmp(&w0[v], &w1[v], sizeof *w0) != 0)
            fail_msg("%u threads: dense variable %u differs", t, v);
    free(w0);
    free(w1);

    cuzk_compact_assignment a0, a1;
    if (cuzk_circuit_witness_compact(cuzk_porep_circuit_synthesize, c, &a0, &e) != CUZK_OK)
        fail_msg("plain compact: %s", e.msg);
    if (cuzk_porep_witness_compact(c, pool, &a1, &e) != CUZK_OK)
        fail_msg("fast compact: %s", e.msg);
    assert_int_equal(a0.n_vars, a1.n_vars);
    assert_int_equal(a0.n_bits, a1.n_bits);
    for (size_t k = 0; k < ((size_t)a0.n_bits + 63) / 64; k++)
        if (a0.bits[k] != a1.bits[k])
            fail_msg("%u threads: bit word %zu differs (%016llx vs %016llx)", t, k,
                     (unsigned long long)a0.bits[k], (unsigned long long)a1.bits[k]);
    size_t nd = (size_t)a0.n_vars - a0.n_bits;
    for (size_t k = 0; k < nd; k++)
        if (memcmp(&a0.dense[k], &a1.dense[k], sizeof(cuzk_fr)) != 0)
            fail_msg("%u threads: compact dense value %zu differs", t, k);
    printf("  %u threads: %u variables, %u bits identical\n", t, a0.n_vars, a0.n_bits);
    cuzk_compact_assignment_free(&a0);
    cuzk_compact_assignment_free(&a1);
    cuzk_pool_destroy(pool);
}

static void test_fast(void **state)
{
    (void)state;
    cuzk_c1_output *c1 = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_c1_synth(2048, 1, test_rng_u64(), &c1, &e), CUZK_OK);
    cuzk_porep_circuit *c = NULL;
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    for (unsigned t = 1; t <= 3; t++)
        compare(c, t);
    cuzk_porep_circuit_free(c);
    cuzk_c1_synth_free(c1);
}

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

static void test_fast_inconsistent(void **state)
{
    (void)state;
    cuzk_c1_output *c1 = gen_c1(GEN_BAD_LABEL);
    cuzk_porep_circuit *c = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_porep_circuit_make(c1, 0, &c, &e), CUZK_OK);
    compare(c, 2);
    cuzk_porep_circuit_free(c);
    cuzk_c1_free(c1);
}

static void test_args(void **state)
{
    (void)state;
    cuzk_error e = {0};
    cuzk_porep_circuit *ph = NULL;
    assert_int_equal(cuzk_porep_circuit_placeholder(2048, &ph, &e), CUZK_OK);
    cuzk_fr *w = NULL;
    uint32_t nv = 0;
    cuzk_compact_assignment a;
    assert_int_equal(cuzk_porep_witness_dense(ph, NULL, &w, &nv, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_witness_compact(ph, NULL, &a, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_witness_dense(NULL, NULL, &w, &nv, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_witness_dense(ph, NULL, NULL, &nv, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_porep_witness_compact(ph, NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_null(w);
    cuzk_porep_circuit_free(ph);
}

int main(void)
{
    test_rng_init("test_porep_witness");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synth),         cmocka_unit_test(test_satisfied),
        cmocka_unit_test(test_fast),          cmocka_unit_test(test_fast_inconsistent),
        cmocka_unit_test(test_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
