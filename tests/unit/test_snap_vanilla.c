/*
 * test_snap_vanilla.c — SnapDeals job documents (cuzk/snap.h): the fixture's partition
 * proofs in serde_json and in base64 bincode form parse to the same proofs, the parsed job
 * gives a satisfied circuit, and every malformed case is rejected with its message (wrong
 * counts, trailing bytes, a path that misses its root, wrong commitments, a path to a node
 * that is not challenged, a bad h, an unknown proof). cuzk_snap_partition_check on
 * multi-partition test sizes (16 KiB 8-8-0 and 32 KiB 8-8-2, 2 partitions, 128 apex leaves).
 * Single-threaded.
 */
#include <jansson.h>

#include "circuit_test_util.h"
#include "cuzk/snap.h"
#include "vanilla_fixture.h"
#include "test_rng.h"

static cuzk_snap_job *g_set;

static int setup(void **state)
{
    (void)state;
    test_rng_init("test_snap_vanilla");
    cuzk_snap_info in;
    if (cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &in, NULL) != CUZK_OK)
        return -1;
    g_set = vf_snap(&in);
    return g_set ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cuzk_snap_job_free(g_set);
    return 0;
}

static void same_proof(const cuzk_snap_partition_proof *a, const cuzk_snap_partition_proof *b)
{
    assert_memory_equal(a->comm_c, b->comm_c, 32);
    assert_int_equal(a->n_apex, b->n_apex);
    assert_memory_equal(a->apex_leaves, b->apex_leaves, (size_t)a->n_apex * 32);
    assert_int_equal(a->n_challenges, b->n_challenges);
    for (uint32_t c = 0; c < a->n_challenges; c++) {
        const cuzk_c1_merkle_proof *x[3] = {&a->challenges[c].r_old, &a->challenges[c].d_new,
                                            &a->challenges[c].r_new};
        const cuzk_c1_merkle_proof *y[3] = {&b->challenges[c].r_old, &b->challenges[c].d_new,
                                            &b->challenges[c].r_new};
        for (int t = 0; t < 3; t++) {
            assert_memory_equal(x[t]->leaf, y[t]->leaf, 32);
            assert_memory_equal(x[t]->root, y[t]->root, 32);
            assert_int_equal(x[t]->n_levels, y[t]->n_levels);
            assert_memory_equal(x[t]->index, y[t]->index, x[t]->n_levels);
            size_t ns = 0;
            for (uint32_t l = 0; l < x[t]->n_levels; l++)
                ns += x[t]->arity[l] - 1u;
            assert_memory_equal(x[t]->siblings, y[t]->siblings, ns * 32);
        }
    }
}

static void test_parse_forms(void **state)
{
    (void)state;
    for (int bin = 0; bin < 2; bin++) {
        char *doc = vf_snap_doc(g_set, bin);
        cuzk_snap_job *job = NULL;
        cuzk_error e = {0};
        if (cuzk_snap_job_parse(doc, strlen(doc), &job, &e) != CUZK_OK)
            fail_msg("parse (bincode %d): %s", bin, e.msg);
        assert_int_equal(job->n_partitions, 1);
        assert_int_equal(job->h, g_set->h);
        assert_memory_equal(job->comm_r_old, g_set->comm_r_old, 32);
        assert_memory_equal(job->comm_d_new, g_set->comm_d_new, 32);
        assert_memory_equal(job->comm_r_new, g_set->comm_r_new, 32);
        same_proof(&job->partitions[0], &g_set->partitions[0]);
        if (bin) { /* the parsed job proves */
            cuzk_snap_partition p = cuzk_snap_job_partition(job, 0);
            ct_result r;
            ct_run(cuzk_snap_circuit, &p, &r);
            ct_free(&r);
        }
        cuzk_snap_job_free(job);
        free(doc);
    }
}

/* Parses doc (modified by fn from the fixture JSON) and expects code and a message part. */
typedef void (*mod_fn)(json_t *doc);

static void expect_reject(mod_fn fn, int bincode, cuzk_status code, const char *part)
{
    char *text = vf_snap_doc(g_set, bincode);
    json_t *doc = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(doc);
    if (fn)
        fn(doc);
    text = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    cuzk_snap_job *job = (cuzk_snap_job *)1;
    cuzk_error e = {0};
    cuzk_status st = cuzk_snap_job_parse(text, strlen(text), &job, &e);
    free(text);
    if (st != code || !strstr(e.msg, part))
        fail_msg("expected %d \"%s\", got %d \"%s\"", code, part, st, e.msg);
    assert_null(job);
}

static json_t *part0(json_t *doc) { return json_array_get(json_object_get(doc, "vanilla_proofs"), 0); }
static json_t *chal(json_t *doc, size_t c)
{
    return json_array_get(json_object_get(part0(doc), "challenge_proofs"), c);
}
static void flip(json_t *bytes32, size_t i)
{
    json_int_t v = json_integer_value(json_array_get(bytes32, i));
    json_array_set_new(bytes32, i, json_integer(v ^ 1));
}

static void m_two_parts(json_t *d)
{
    json_array_append(json_object_get(d, "vanilla_proofs"), part0(d));
}
static void m_drop_challenge(json_t *d)
{
    json_array_remove(json_object_get(part0(d), "challenge_proofs"), 9);
}
static void m_drop_apex(json_t *d) { json_array_remove(json_object_get(part0(d), "apex_leafs"), 0); }
static void m_path_root(json_t *d)
{
    json_t *single = json_object_get(json_object_get(json_object_get(chal(d, 4), "proof_r_old"),
                                                     "data"), "Single");
    json_t *lv = json_array_get(json_object_get(json_object_get(single, "path"), "path"), 1);
    flip(json_array_get(json_object_get(lv, "hashes"), 3), 0);
}
static void m_comm_r_old(json_t *d) { flip(json_object_get(d, "comm_r_old"), 0); }
static void m_comm_r_new(json_t *d) { flip(json_object_get(d, "comm_r_new"), 0); }
static void m_comm_d_new(json_t *d) { flip(json_object_get(d, "comm_d_new"), 0); }
static void m_comm_c(json_t *d) { flip(json_object_get(part0(d), "comm_c"), 0); }
static void m_apex_leaf(json_t *d) { flip(json_array_get(json_object_get(part0(d), "apex_leafs"), 7), 0); }
static void m_h(json_t *d) { json_object_set_new(d, "h", json_integer(10)); }
static void m_name(json_t *d) { json_object_set_new(d, "registered_proof", json_string("StackedDrg4KiBV1")); }
static void m_abi(json_t *d) { json_object_set_new(d, "registered_proof", json_integer(5)); }
static void m_noncanonical(json_t *d)
{
    json_t *c = json_object_get(d, "comm_r_old");
    for (size_t i = 0; i < 32; i++)
        json_array_set_new(c, i, json_integer(255));
}
static void m_swap(json_t *d)
{
    /* challenge proofs 0 and 1 swapped: each proves a node the challenges do not name there */
    json_t *cps = json_object_get(part0(d), "challenge_proofs");
    json_t *a = json_incref(json_array_get(cps, 0)), *b = json_incref(json_array_get(cps, 1));
    json_array_set_new(cps, 0, b);
    json_array_set_new(cps, 1, a);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_reject(m_two_parts, 0, CUZK_ERR_LENGTH, "takes 1 partition proofs, got 2");
    expect_reject(m_drop_challenge, 0, CUZK_ERR_LENGTH, "challenge_proofs");
    expect_reject(m_drop_apex, 0, CUZK_ERR_LENGTH, "apex_leafs");
    expect_reject(NULL, 2, CUZK_ERR_FORMAT, "trailing bytes after the partition proof");
    expect_reject(m_path_root, 0, CUZK_ERR_INVALID_PROOF,
                  "challenge 4: tree R-old path does not reach its root");
    expect_reject(m_comm_r_old, 0, CUZK_ERR_INVALID_PROOF, "comm_r_old is not Poseidon-2");
    expect_reject(m_comm_r_new, 1, CUZK_ERR_INVALID_PROOF, "comm_r_new is not Poseidon-2");
    expect_reject(m_comm_d_new, 0, CUZK_ERR_INVALID_PROOF, "tree D-new root differs from comm_d_new");
    expect_reject(m_comm_c, 0, CUZK_ERR_INVALID_PROOF, "comm_r_old is not Poseidon-2");
    expect_reject(m_apex_leaf, 0, CUZK_ERR_INVALID_PROOF, "apex");
    expect_reject(m_h, 0, CUZK_ERR_FORMAT, "h = 10 is not one of");
    expect_reject(m_name, 0, CUZK_ERR_UNSUPPORTED, "unknown registered update proof");
    expect_reject(m_abi, 0, CUZK_ERR_UNSUPPORTED, "unknown registered update proof number 5");
    expect_reject(m_noncanonical, 0, CUZK_ERR_NONCANONICAL, "comm_r_old");
    /* the fixture's challenges 0 and 1 name different nodes unless the digest repeats */
    cuzk_snap_partition p = cuzk_snap_job_partition(g_set, 0);
    if (memcmp(p.proof->challenges[0].r_old.index, p.proof->challenges[1].r_old.index, 2))
        expect_reject(m_swap, 0, CUZK_ERR_INVALID_PROOF, "path proves node");
}

/* 16 KiB (8-8-0) and 32 KiB (8-8-2): 2 partitions of 128 apex leaves each; both check,
 * and partition 1's proof does not pass as partition 0's. */
static void test_check_partitions(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {16384, 32768};
    for (int i = 0; i < 2; i++) {
        cuzk_snap_info in;
        assert_int_equal(cuzk_snap_info_get(sizes[i], CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
        cuzk_snap_job *s = vf_snap(&in);
        assert_non_null(s);
        cuzk_error e = {0};
        for (uint32_t k = 0; k < 2; k++) {
            cuzk_snap_partition p = cuzk_snap_job_partition(s, k);
            if (cuzk_snap_partition_check(&p, &e) != CUZK_OK)
                fail_msg("%llu partition %u: %s", (unsigned long long)sizes[i], k, e.msg);
        }
        cuzk_snap_partition p = cuzk_snap_job_partition(s, 0);
        p.proof = &s->partitions[1];
        assert_int_equal(cuzk_snap_partition_check(&p, &e), CUZK_ERR_INVALID_PROOF);
        p.k = 2;
        assert_int_equal(cuzk_snap_partition_check(&p, &e), CUZK_ERR_INVALID_ARG);
        cuzk_snap_job_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_forms),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_check_partitions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
