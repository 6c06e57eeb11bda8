/*
 * test_gpu_need.c — cuzk_prover_gpu_need (cuzk/prover.h), the CUDA backend's device memory
 * as a plan, on a host without a device: the working set is the sum of the pieces the
 * backend allocates (uploads, expanded witness, a/b(/c), gathers, MSM scratch, results) for
 * dense and compact witnesses, both key flavours and batches; resident key and circuit
 * bytes; streaming; and at 2^27 the MSM scratch against the H200's measured 11.75 GiB
 * (docs/perf.md: default windows, CUB's sizes from the device; the plan bounds CUB's
 * temporary storage, so it may only be a little larger).
 * Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/prover.h"

static cuzk_gpu_shape small(bool compact, bool snarkjs, uint64_t batch)
{
    cuzk_gpu_shape s;
    memset(&s, 0, sizeof s);
    s.log2n = 12;
    s.snarkjs = snarkjs;
    s.n_constraints = 4000;
    s.n_vars = 3900;
    s.compact = compact;
    s.n_bits = compact ? 3000 : 0;
    s.nnz[0] = 9000;
    s.nnz[1] = 4000;
    s.nnz[2] = 8000;
    s.n_coeff_values = 100;
    s.n_ic = 5;
    s.n_h = snarkjs ? 4096 : 4095;
    s.n_l = 3895;
    s.n_a = snarkjs ? 3900 : 3800;
    s.n_b_g1 = s.n_b_g2 = snarkjs ? 3900 : 1000;
    s.batch = batch;
    return s;
}

static void test_working_set_pieces(void **state)
{
    (void)state;
    const uint64_t n = 4096, fr = 32, res = sizeof(cuzk_groth16_msm_results);
    for (int c = 0; c < 2; c++)
        for (int f = 0; f < 2; f++)
            for (uint64_t batch = 1; batch <= 3; batch++) {
                cuzk_gpu_shape s = small(c, f, batch);
                cuzk_gpu_need nd;
                cuzk_prover_gpu_need(&s, 1000000, &nd);
                uint64_t up = c ? (3000 + 63) / 64 * 8 + (3900 - 3000) * fr : 3900 * fr;
                uint64_t slots = batch > 1 ? 2 : 1;
                uint64_t nvec = f ? 3 : 2;
                uint64_t want = slots * up + (c ? 3900 * fr : 0) + nvec * n * fr + 1000000 +
                                batch * res; /* the gathers fit in b (, c) */
                assert_int_equal(nd.msm_scratch, 1000000);
                assert_int_equal(nd.working_set, want);
                assert_int_equal(nd.headroom, 1ull << 30);
                assert_int_equal(nd.map, c ? (3900 + 63) / 64 * 12 : 0);
            }
}

static void test_gathers_outside(void **state)
{
    (void)state;
    /* a bellperson key whose A vector is longer than b: the gathers get their own buffer */
    cuzk_gpu_shape s = small(false, false, 1);
    s.log2n = 11;
    s.n_h = 2047;
    s.n_a = 3800;
    cuzk_gpu_need nd;
    cuzk_prover_gpu_need(&s, 1, &nd);
    uint64_t want = 3900 * 32 + 2 * 2048 * 32 + 3800 * 32 + 1 + sizeof(cuzk_groth16_msm_results);
    assert_int_equal(nd.working_set, want);
}

static void test_resident(void **state)
{
    (void)state;
    cuzk_gpu_shape s = small(true, false, 1);
    cuzk_gpu_need nd;
    cuzk_prover_gpu_need(&s, 0, &nd);
    assert_int_equal(nd.key, (4095 + 3895 + 3800 + 1000) * 96ull + 1000 * 192ull);
    /* row_ptr, col + coefficient index, and the long rows' list at its bound (rows of
     * more than 8 terms: at most nnz / 9 of them) */
    uint64_t mats = 3 * 4001 * 8ull + (9000 + 4000 + 8000) * 8ull +
                    (9000 / 9 + 4000 / 9 + 8000 / 9) * 4ull;
    assert_int_equal(nd.circuit_tables, 100 * 32ull + 2 * 3900 * 4ull);
    assert_int_equal(nd.circuit, nd.circuit_tables + mats);
    /* snarkjs keys never evaluate C and have no density lists */
    s = small(true, true, 1);
    cuzk_prover_gpu_need(&s, 0, &nd);
    assert_int_equal(nd.circuit, 100 * 32ull + 2 * 4001 * 8ull + (9000 + 4000) * 8ull +
                                     (9000 / 9 + 4000 / 9) * 4ull);
    assert_true(nd.msm_scratch > 0);
    assert_true(nd.domain > 0 && nd.domain < (1u << 20));
    /* streaming: two staging buffers of at most the longest vector (here B_G2, 3900 G2
     * points, under the smallest staging), one chunk each, and the partial results of
     * the four G1 MSMs and the G2 one */
    assert_int_equal(nd.stream_key, 2 * 3900 * 192ull + 4 * sizeof(cuzk_g1_jac) +
                                        sizeof(cuzk_g2_jac));
}

/* 32 GiB PoRep (the counts of src/engine/fil_counts.c): the key's 44.1 GiB the issue
 * names, and the MSM scratch of a 2^27 partition near the 11.75 GiB the backend logged on
 * the H200 at the default windows (docs/perf.md, session 10's 24 GB rehearsal; 11.71 GiB
 * since s14's 512-pair chunks and 128-bucket groups: fewer slots and group sums). */
static void test_porep_32g(void **state)
{
    (void)state;
    cuzk_gpu_shape s;
    memset(&s, 0, sizeof s);
    s.log2n = 27;
    s.n_constraints = 130278541;
    s.n_vars = 1 + 327 + 130169893ull;
    s.compact = true;
    s.n_bits = 128470791;
    s.nnz[0] = 309404723;
    s.nnz[1] = 130327340;
    s.nnz[2] = 282656500;
    s.n_coeff_values = 2466;
    s.n_ic = 328;
    s.n_h = (1ull << 27) - 1;
    s.n_l = 130169893;
    s.n_a = 129753620;
    s.n_b_g1 = s.n_b_g2 = 33112282;
    s.batch = 1;
    cuzk_gpu_need nd;
    cuzk_prover_gpu_need(&s, 0, &nd);
    const double gib = 1073741824.0;
    assert_true(nd.key / gib > 44.0 && nd.key / gib < 44.2);
    assert_true(nd.msm_scratch / gib >= 11.65 && nd.msm_scratch / gib < 12.0);
    /* a and b (8 GiB), the expanded witness (3.9 GiB), the uploads (~70 MB), the scratch */
    assert_true(nd.working_set / gib > 23.5 && nd.working_set / gib < 24.0);
    assert_true(nd.key + nd.circuit + nd.working_set + nd.headroom < 139ull << 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_working_set_pieces),
        cmocka_unit_test(test_gathers_outside),
        cmocka_unit_test(test_resident),
        cmocka_unit_test(test_porep_32g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
