/*
 * test_snap_witness.c — SnapDeals end to end up to the constraint system: vanilla proofs
 * made by the fixture (snap_fixture.h) -> the circuit's witness on every backend ->
 * recorded R1CS satisfied, public inputs in the witness equal to the ones a verifier
 * derives (cuzk_snap_public_inputs); a tampered proof leaves it unsatisfied. Main variant at
 * 1 KiB (8-4-0 tree R) and 2 KiB, the poseidon variant at 1, 2 and 8 KiB.
 * Single-threaded.
 */
#include "circuit_test_util.h"
#include "cuzk/snap.h"
#include "snap_fixture.h"
#include "test_rng.h"

static void run_ok(uint64_t size, cuzk_snap_variant v)
{
    cuzk_snap_info in;
    assert_int_equal(cuzk_snap_info_get(size, v, &in, NULL), CUZK_OK);
    sf_set s;
    assert_int_equal(sf_make(&s, &in), 0);
    cuzk_snap_partition p = sf_partition(&s, 0);
    cuzk_error e = {0};
    if (cuzk_snap_partition_check_shape(&p, &e) != CUZK_OK)
        fail_msg("shape: %s", e.msg);
    ct_result r;
    ct_run(cuzk_snap_circuit, &p, &r);
    assert_int_equal(r.r1cs->n_public, 4);
    cuzk_fr pub[4];
    assert_int_equal(cuzk_snap_public_inputs(&p, pub, NULL), CUZK_OK);
    assert_memory_equal(&r.w[1], pub, sizeof pub);
    ct_free(&r);
    sf_free(&s);
}

static void test_main_2kib(void **state)
{
    (void)state;
    test_rng_init("test_main_2kib");
    run_ok(2048, CUZK_SNAP_MAIN);
}

static void test_main_1kib(void **state)
{
    (void)state;
    test_rng_init("test_main_1kib");
    run_ok(1024, CUZK_SNAP_MAIN);
}

static void test_poseidon(void **state)
{
    (void)state;
    test_rng_init("test_poseidon");
    run_ok(1024, CUZK_SNAP_POSEIDON);
    run_ok(2048, CUZK_SNAP_POSEIDON);
    run_ok(8192, CUZK_SNAP_POSEIDON);
}

/* Each tampering breaks one relation the circuit must enforce. */
static void test_tampered(void **state)
{
    (void)state;
    test_rng_init("test_tampered");
    cuzk_snap_info in;
    assert_int_equal(cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
    sf_set s;
    assert_int_equal(sf_make(&s, &in), 0);
    cuzk_snap_partition p = sf_partition(&s, 0);
    cuzk_r1cs *m = NULL;
    cuzk_error e = {0};
    assert_int_equal(cuzk_circuit_record(cuzk_snap_circuit, &p, &m, NULL, &e), CUZK_OK);
    uint32_t c = (uint32_t)(test_rng_u64() % in.challenges);
    for (int what = 0; what < 6; what++) {
        sf_set t;
        assert_int_equal(sf_make(&t, &in), 0); /* a fresh sector to corrupt */
        cuzk_snap_partition q = sf_partition(&t, 0);
        cuzk_snap_challenge_proof *cp = &t.parts[0].challenges[c];
        switch (what) {
        case 0: cp->d_new.leaf[0] ^= 1; break;         /* data leaf: label relation, tree D */
        case 1: cp->r_old.siblings[2][5] ^= 4; break;  /* path R-old misses its root */
        case 2: cp->r_new.leaf[1] ^= 1; break;         /* only read by the check: fine */
        case 3: t.parts[0].apex_leaves[3][0] ^= 1; break; /* apex tree misses comm_d */
        case 4: t.parts[0].comm_c[0] ^= 1; break;      /* comm_r_old != H(comm_c, root) */
        case 5: q.comm_r_new[0] ^= 1; break;           /* other challenges, comm_r_new */
        }
        cuzk_fr *w = NULL;
        uint32_t nv = 0;
        assert_int_equal(cuzk_circuit_witness_dense(cuzk_snap_circuit, &q, &w, &nv, &e), CUZK_OK);
        cuzk_witness wd = cuzk_witness_dense(w, nv);
        uint64_t bad = 0;
        cuzk_status st = cuzk_r1cs_check(m, &wd, &bad, &e);
        if (what == 2)
            assert_int_equal(st, CUZK_OK);
        else if (st == CUZK_OK)
            fail_msg("tampering %d left the R1CS satisfied", what);
        free(w);
        sf_free(&t);
    }
    cuzk_r1cs_destroy(m);
    sf_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poseidon),
        cmocka_unit_test(test_main_1kib),
        cmocka_unit_test(test_main_2kib),
        cmocka_unit_test(test_tampered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
