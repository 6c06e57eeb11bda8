/*
 * test_fil_synth.c — the benchmark partitions of cuzk/fil_synth.h: at 2 KiB and 32 GiB for
 * WindowPoSt, WinningPoSt and SnapDeals they have the circuit's exact shape (the shape
 * checks pass; at 2 KiB the compact witness has the counting backend's variables and bits),
 * the same seed gives the same values and another seed others, and the prover-side checks
 * refuse them (they are not consistent, so they can never reach a proof).
 * Single-threaded.
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
#include "cuzk/fil_synth.h"
#include "test_rng.h"

/* the compact witness of fn(ctx) has the counted variables and bits */
static void witness_fits(cuzk_circuit_fn fn, const void *ctx)
{
    cuzk_circuit_counts cnt;
    cuzk_error e = {0};
    assert_int_equal(cuzk_circuit_count(fn, ctx, &cnt, &e), CUZK_OK);
    cuzk_compact_assignment a = {0};
    if (cuzk_circuit_witness_compact(fn, ctx, &a, &e) != CUZK_OK)
        fail_msg("witness: %s", e.msg);
    assert_int_equal(a.n_vars, 1 + cnt.n_public + cnt.n_aux);
    assert_int_equal(a.n_bits, cnt.n_bits);
    cuzk_compact_assignment_free(&a);
}

static void post_one(cuzk_post_kind kind, uint64_t size, bool witness)
{
    uint64_t seed = test_rng_u64();
    cuzk_post_partition p, q;
    cuzk_error e = {0};
    assert_int_equal(cuzk_post_synth(kind, size, seed, &p, &e), CUZK_OK);
    assert_int_equal(p.n_given, kind == CUZK_POST_WINNING ? 1 : p.info.sectors);
    if (cuzk_post_partition_check_shape(&p, &e) != CUZK_OK)
        fail_msg("shape: %s", e.msg);
    assert_int_equal(cuzk_post_synth(kind, size, seed, &q, &e), CUZK_OK);
    const cuzk_post_sector_proof *a = &p.given[p.n_given - 1], *b = &q.given[q.n_given - 1];
    assert_memory_equal(a->proofs[a->n_proofs - 1].leaf, b->proofs[b->n_proofs - 1].leaf, 32);
    cuzk_post_synth_free(&q);
    assert_int_equal(cuzk_post_synth(kind, size, seed + 1, &q, &e), CUZK_OK);
    b = &q.given[q.n_given - 1];
    assert_memory_not_equal(a->proofs[a->n_proofs - 1].leaf, b->proofs[b->n_proofs - 1].leaf,
                            32);
    cuzk_post_synth_free(&q);
#ifdef CUZK_HAVE_OPENSSL
    uint8_t rnd[32] = {1};
    assert_int_equal(cuzk_post_partition_check(&p, rnd, NULL), CUZK_ERR_INVALID_PROOF);
#endif
    if (witness)
        witness_fits(cuzk_post_circuit, &p);
    cuzk_post_synth_free(&p);
    assert_null(p.given);
}

static void snap_one(uint64_t size, bool witness)
{
    uint64_t seed = test_rng_u64();
    cuzk_snap_partition p, q;
    cuzk_error e = {0};
    assert_int_equal(cuzk_snap_synth(size, seed, &p, &e), CUZK_OK);
    if (cuzk_snap_partition_check_shape(&p, &e) != CUZK_OK)
        fail_msg("shape: %s", e.msg);
    assert_int_equal(cuzk_snap_synth(size, seed, &q, &e), CUZK_OK);
    uint32_t last = p.info.challenges - 1;
    assert_memory_equal(p.proof->challenges[last].d_new.leaf, q.proof->challenges[last].d_new.leaf,
                        32);
    cuzk_snap_synth_free(&q);
    assert_int_equal(cuzk_snap_synth(size, seed ^ 0x5a, &q, &e), CUZK_OK);
    assert_memory_not_equal(p.comm_r_new, q.comm_r_new, 32);
    cuzk_snap_synth_free(&q);
#ifdef CUZK_HAVE_OPENSSL
    assert_int_equal(cuzk_snap_partition_check(&p, NULL), CUZK_ERR_INVALID_PROOF);
#endif
    if (witness)
        witness_fits(cuzk_snap_circuit, &p);
    cuzk_snap_synth_free(&p);
    assert_null(p.proof);
}

static void test_post(void **state)
{
    (void)state;
    post_one(CUZK_POST_WINDOW, 2048, true);
    post_one(CUZK_POST_WINNING, 2048, true);
    post_one(CUZK_POST_WINNING, 32ull << 30, false);
    post_one(CUZK_POST_WINDOW, 32ull << 30, false);
}

static void test_snap(void **state)
{
    (void)state;
    snap_one(2048, true);
    snap_one(32ull << 30, false);
    snap_one(64ull << 30, false);
}

static void test_errors(void **state)
{
    (void)state;
    cuzk_post_partition p;
    cuzk_snap_partition s;
    cuzk_error e = {0};
    assert_int_equal(cuzk_post_synth(CUZK_POST_WINDOW, 4096, 1, &p, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_snap_synth(3000, 1, &s, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_snap_synth(2048, 1, NULL, &e), CUZK_ERR_INVALID_ARG);
    cuzk_post_synth_free(NULL);
    cuzk_snap_synth_free(NULL);
}

int main(void)
{
    test_rng_init("test_fil_synth");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post),
        cmocka_unit_test(test_snap),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
