/*
 * test_snap_circuit.c — the SnapDeals circuits' counts against rust-fil-proofs'
 * storage-proofs-update tests (TestConstraintSystem::num_constraints, which holds only the
 * circuit's enforce calls, no input rows), the shapes per sector size, and the native
 * challenge derivation against rust's hard-coded vectors' structure.
 * Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/snap.h"
#include "test_rng.h"

static uint64_t count_rows(uint64_t size, cuzk_snap_variant v, cuzk_circuit_counts *c)
{
    cuzk_error e = {0};
    if (cuzk_snap_circuit_counts(size, v, c, &e) != CUZK_OK)
        fail_msg("counts: %s", e.msg);
    return c->n_constraints;
}

/* storage-proofs-update tests/circuit.rs: test_empty_sector_update_circuit_2kib */
static void test_counts_2kib(void **state)
{
    (void)state;
    cuzk_circuit_counts c;
    assert_int_equal(count_rows(2048, CUZK_SNAP_MAIN, &c), 1705039);
    assert_int_equal(c.n_public, 4);
    assert_int_equal(cuzk_circuit_counts_rows_with_inputs(&c), 1705039 + 5);
}

/* the other test sizes of tests/circuit.rs: 1, 4, 8 KiB (one partition), 16 KiB (8-8-0)
 * and 32 KiB (8-8-2) with 2 partitions and 128 apex leaves */
static void test_counts_test_sizes(void **state)
{
    (void)state;
    cuzk_circuit_counts c;
    assert_int_equal(count_rows(1024, CUZK_SNAP_MAIN, &c), 1248389);
    assert_int_equal(count_rows(4096, CUZK_SNAP_MAIN, &c), 2165109);
    assert_int_equal(count_rows(8192, CUZK_SNAP_MAIN, &c), 2620359);
    assert_int_equal(count_rows(16384, CUZK_SNAP_MAIN, &c), 6300021);
    assert_int_equal(count_rows(32768, CUZK_SNAP_MAIN, &c), 6760091);
}

/* tests/circuit_poseidon.rs: 1 KiB 32,164 and 8 KiB 47,974 */
static void test_counts_poseidon(void **state)
{
    (void)state;
    cuzk_circuit_counts c;
    assert_int_equal(count_rows(1024, CUZK_SNAP_POSEIDON, &c), 32164);
    assert_int_equal(count_rows(8192, CUZK_SNAP_POSEIDON, &c), 47974);
    assert_int_equal(c.n_public, 4);
}

static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        uint32_t parts, chal, apex, h, base, sub, top;
    } rows[] = {
        {2048, 1, 10, 8, 1, 2, 0, 0},
        {8ull << 20, 4, 10, 128, 10, 6, 0, 0},
        {512ull << 20, 16, 86, 128, 10, 8, 0, 0},
        {32ull << 30, 16, 86, 128, 10, 9, 8, 0},
        {64ull << 30, 16, 86, 128, 10, 9, 8, 2},
        {32768, 2, 10, 128, 1, 2, 8, 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        cuzk_snap_info in;
        assert_int_equal(cuzk_snap_info_get(rows[i].size, CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
        assert_int_equal(in.partitions, rows[i].parts);
        assert_int_equal(in.challenges, rows[i].chal);
        assert_int_equal(in.apex_leaves, rows[i].apex);
        assert_int_equal(in.h, rows[i].h);
        assert_int_equal(in.base_levels, rows[i].base);
        assert_int_equal(in.sub_arity, rows[i].sub);
        assert_int_equal(in.top_arity, rows[i].top);
        assert_int_equal(cuzk_snap_info_r_levels(&in) ? 1 : 0, 1);
        cuzk_snap_info pi;
        assert_int_equal(cuzk_snap_info_get(rows[i].size, CUZK_SNAP_POSEIDON, &pi, NULL), CUZK_OK);
        assert_int_equal(pi.partitions, 1);
        assert_int_equal(pi.challenges, rows[i].parts * rows[i].chal);
    }
    cuzk_snap_info in;
    cuzk_error e = {0};
    assert_int_equal(cuzk_snap_info_get(3000, CUZK_SNAP_MAIN, &in, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_snap_info_from_name("StackedDrg32GiBV1", &in, NULL), CUZK_OK);
    assert_int_equal(in.sector_size, 32ull << 30);
    assert_int_equal(cuzk_snap_info_from_abi(4, &in, NULL), CUZK_OK);
    assert_int_equal(in.sector_size, 64ull << 30);
    assert_int_equal(cuzk_snap_info_from_abi(5, &in, &e), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_snap_info_from_name("StackedDrg1KiBTest", &in, &e), CUZK_ERR_UNSUPPORTED);
    /* h_select = 2^i for h = hs[i]: production h = 10 is hs[3] */
    assert_int_equal(cuzk_snap_info_get(32ull << 30, CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
    assert_int_equal(cuzk_snap_h_select(&in, 10), 8);
    assert_int_equal(cuzk_snap_h_select(&in, 6), 0);
}

/* Challenges of partition k carry k in their high bits (they lie in the k-th slice); at
 * 2 KiB (one partition, no partition bits) both variants derive the same 10 challenges. */
static void test_challenges(void **state)
{
    (void)state;
    test_rng_init("test_challenges");
    uint8_t comm[32];
    test_rng_bytes(comm, 32);
    comm[31] &= 0x3f;
    cuzk_snap_info in;
    assert_int_equal(cuzk_snap_info_get(32ull << 30, CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
    uint64_t ch[86];
    for (uint32_t k = 0; k < in.partitions; k += 5) {
        assert_int_equal(cuzk_snap_challenges(&in, comm, k, ch, NULL), CUZK_OK);
        for (int i = 0; i < 86; i++)
            assert_int_equal(ch[i] >> 26, k);
    }
    cuzk_error e = {0};
    assert_int_equal(cuzk_snap_challenges(&in, comm, 16, ch, &e), CUZK_ERR_INVALID_ARG);
    /* 2 KiB: one partition; 42 challenges per digest, so all 10 from digest 0 */
    cuzk_snap_info a, b;
    assert_int_equal(cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &a, NULL), CUZK_OK);
    assert_int_equal(cuzk_snap_info_get(2048, CUZK_SNAP_POSEIDON, &b, NULL), CUZK_OK);
    uint64_t x[10], y[10];
    assert_int_equal(cuzk_snap_challenges(&a, comm, 0, x, NULL), CUZK_OK);
    assert_int_equal(cuzk_snap_challenges(&b, comm, 0, y, NULL), CUZK_OK);
    assert_memory_equal(x, y, sizeof x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_challenges),
        cmocka_unit_test(test_counts_poseidon),
        cmocka_unit_test(test_counts_2kib),
        cmocka_unit_test(test_counts_test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
