/*
 * test_post_vanilla.c — PoSt job documents (cuzk/post.h): vanilla proofs made by
 * tests/support/post_fixture.c, written as filecoin-proofs' serde derives write them (JSON
 * objects, or base64 bincode), parsed back to the same values; then end to end: parsed
 * vanilla proofs -> witness -> satisfied R1CS -> Groth16 dev setup -> proof -> verified
 * with the public inputs a verifier derives (cuzk_post_public_inputs); and every malformed
 * case rejected with a message naming what and where.
 */
#include <jansson.h>

#include "circuit_test_util.h"
#include "cuzk/groth16.h"
#include "post_fixture.h"
#include "test_rng.h"

static void same_as_fixture(const cuzk_post_job *j, const pf_set *s)
{
    assert_int_equal(j->n_sectors, s->n);
    assert_int_equal(j->partition_index, s->k);
    assert_string_equal(j->info.name, s->info.name);
    assert_memory_equal(j->randomness, s->randomness, 32);
    for (uint32_t i = 0; i < s->n; i++) {
        const cuzk_post_sector_proof *a = &j->sectors[i], *b = &s->sectors[i];
        assert_int_equal(a->sector_id, b->sector_id);
        assert_memory_equal(a->comm_r, b->comm_r, 32);
        assert_memory_equal(a->comm_c, b->comm_c, 32);
        assert_memory_equal(a->comm_r_last, b->comm_r_last, 32);
        assert_int_equal(a->n_proofs, b->n_proofs);
        for (uint32_t c = 0; c < a->n_proofs; c++) {
            const cuzk_c1_merkle_proof *x = &a->proofs[c], *y = &b->proofs[c];
            assert_int_equal(x->n_levels, y->n_levels);
            assert_memory_equal(x->root, y->root, 32);
            assert_memory_equal(x->leaf, y->leaf, 32);
            assert_memory_equal(x->arity, y->arity, x->n_levels);
            assert_memory_equal(x->index, y->index, x->n_levels);
            size_t ns = 0;
            for (uint32_t l = 0; l < x->n_levels; l++)
                ns += x->arity[l] - 1u;
            assert_memory_equal(x->siblings, y->siblings, ns * 32);
        }
    }
}

static void roundtrip(const char *name, uint32_t sectors, uint32_t k, uint32_t n)
{
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_from_name(name, &in, NULL), CUZK_OK);
    if (sectors)
        in.sectors = sectors;
    pf_set s;
    assert_int_equal(pf_make(&s, &in, k, n, 7 + test_rng_u64() % 1000), 0);
    for (int bin = 0; bin < 2; bin++) {
        char *txt = pf_job_json(&s, bin);
        assert_non_null(txt);
        cuzk_post_job *j = NULL;
        cuzk_error e = {0};
        if (cuzk_post_job_parse(txt, strlen(txt), &j, &e) != CUZK_OK)
            fail_msg("%s (%s): %s", name, bin ? "bincode" : "json", e.msg);
        j->info.sectors = in.sectors; /* a cut-down partition in the fixture */
        same_as_fixture(j, &s);
        cuzk_post_job_free(j);
        free(txt);
    }
    pf_free(&s);
}

static void test_roundtrip(void **state)
{
    (void)state;
    roundtrip("StackedDrgWindow2KiBV1_2", 0, 0, 2);
    roundtrip("StackedDrgWindow2KiBV1_2", 0, 5, 1);
    roundtrip("StackedDrgWindow8MiBV1", 0, 1, 2);
    roundtrip("StackedDrgWinning2KiBV1", 0, 0, 1);
    roundtrip("StackedDrgWindow32GiBV1_2", 0, 0, 3);  /* Sub proofs (8-8-0) */
    roundtrip("StackedDrgWindow64GiBV1_2", 0, 2, 2);  /* Top proofs (8-8-2) */
    roundtrip("StackedDrgWinning32GiBV1", 0, 0, 1);
}

/* vanilla proofs -> witness -> R1CS -> dev setup -> prove -> verify */
static void e2e(const char *name, uint32_t n)
{
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_from_name(name, &in, NULL), CUZK_OK);
    pf_set s;
    assert_int_equal(pf_make(&s, &in, 0, n, 100), 0);
    char *txt = pf_job_json(&s, 0);
    cuzk_post_job *job = NULL;
    cuzk_error e = {0};
    if (cuzk_post_job_parse(txt, strlen(txt), &job, &e) != CUZK_OK)
        fail_msg("parse: %s", e.msg);
    free(txt);
    cuzk_post_partition p = cuzk_post_job_partition(job);
    ct_result r;
    ct_run(cuzk_post_circuit, &p, &r);

    size_t ni = cuzk_post_info_n_inputs(&in);
    cuzk_fr *pub = malloc(ni * sizeof *pub);
    assert_non_null(pub);
    assert_int_equal(cuzk_post_public_inputs(&p, job->randomness, pub, ni, &e), CUZK_OK);

    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    if (cuzk_groth16_setup_dev(&pk, &vk, r.r1cs, CUZK_GROTH16_BELLPERSON, seed, NULL, &e) !=
        CUZK_OK)
        fail_msg("setup: %s", e.msg);
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    size_t sz = cuzk_groth16_prove_scratch_size(&pk, r.r1cs, 1);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness w = cuzk_witness_dense(r.w, r.n_vars);
    cuzk_groth16_proof proof;
    if (cuzk_groth16_prove(&proof, &pk, r.r1cs, &w, scratch, sz, NULL, &e) != CUZK_OK)
        fail_msg("prove: %s", e.msg);
    assert_int_equal(cuzk_groth16_verify(&pvk, pub, ni, &proof, &e), CUZK_OK);
    /* another randomness challenges other leaves: the proof does not verify */
    uint8_t other[32];
    memcpy(other, job->randomness, 32);
    other[0] ^= 1;
    assert_int_equal(cuzk_post_public_inputs(&p, other, pub, ni, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, pub, ni, &proof, NULL), CUZK_ERR_INVALID_PROOF);
    free(scratch);
    free(pub);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    ct_free(&r);
    cuzk_post_job_free(job);
    pf_free(&s);
}

static void test_e2e_window(void **state)
{
    (void)state;
    e2e("StackedDrgWindow2KiBV1_2", 1); /* padded: the one sector twice */
}

static void test_e2e_winning(void **state)
{
    (void)state;
    e2e("StackedDrgWinning2KiBV1", 1);
}

/* ---- malformed documents ---- */

typedef void (*mutator)(json_t *doc);

static void expect_reject(const pf_set *s, int bin, mutator m, cuzk_status code,
                          const char *needle)
{
    char *txt = pf_job_json(s, bin);
    json_t *doc = json_loads(txt, 0, NULL);
    assert_non_null(doc);
    free(txt);
    m(doc);
    txt = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    cuzk_post_job *j = (cuzk_post_job *)1;
    cuzk_error e = {0};
    cuzk_status st = cuzk_post_job_parse(txt, strlen(txt), &j, &e);
    free(txt);
    assert_null(j);
    if (st != code || !strstr(e.msg, needle))
        fail_msg("expected %s with \"%s\", got %s: %s", cuzk_status_name(code), needle,
                 cuzk_status_name(st), e.msg);
}

static json_t *sector(json_t *doc, size_t i)
{
    return json_array_get(json_object_get(doc, "vanilla_proofs"), i);
}
static json_t *incl(json_t *doc, size_t i)
{
    json_t *v = json_object_get(json_object_get(sector(doc, i), "vanilla_proof"), "sectors");
    return json_object_get(json_array_get(v, 0), "inclusion_proofs");
}
static json_t *single(json_t *doc, size_t i, size_t c)
{
    return json_object_get(json_object_get(json_array_get(incl(doc, i), c), "data"), "Single");
}

static json_t *path(json_t *doc, size_t i, size_t c)
{
    return json_object_get(json_object_get(single(doc, i, c), "path"), "path");
}

static void m_drop_proof(json_t *d) { json_array_remove(incl(d, 1), 3); }
/* flips bits of a sibling's low byte (setting it to 7 left it unchanged for 1 seed in 256) */
static void m_sibling(json_t *d)
{
    json_t *lvl = json_array_get(path(d, 0, 4), 1);
    json_t *h = json_array_get(json_object_get(lvl, "hashes"), 2);
    json_array_set_new(h, 0, json_integer(json_integer_value(json_array_get(h, 0)) ^ 0x5a));
}
static void m_swap(json_t *d)
{
    json_t *a = json_incref(sector(d, 0));
    json_array_remove(json_object_get(d, "vanilla_proofs"), 0);
    json_array_append_new(json_object_get(d, "vanilla_proofs"), a);
}
/* flips a bit of byte 3 (setting a fixed value left it unchanged for 1 seed in 256) */
static void m_randomness(json_t *d)
{
    json_t *r = json_object_get(d, "randomness");
    json_int_t b = json_integer_value(json_array_get(r, 3));
    json_array_set_new(r, 3, json_integer(b ^ 0x5a));
}
static void m_comm_r(json_t *d) /* flips bits, for the same reason */
{
    json_t *c = json_object_get(sector(d, 1), "comm_r");
    json_array_set_new(c, 0, json_integer(json_integer_value(json_array_get(c, 0)) ^ 0x5a));
}
static void m_noncanonical(json_t *d)
{
    json_array_set_new(json_object_get(single(d, 0, 0), "leaf"), 31, json_integer(0xff));
}
static void m_index(json_t *d)
{
    json_t *lvl = json_array_get(path(d, 1, 2), 0);
    json_object_set_new(lvl, "index", json_integer(8));
}
static void m_sub(json_t *d)
{
    json_t *data = json_object_get(json_array_get(incl(d, 0), 0), "data");
    json_object_set(data, "Sub", json_object_get(data, "Single"));
    json_object_del(data, "Single");
}
static void m_three(json_t *d)
{
    json_array_append(json_object_get(d, "vanilla_proofs"), sector(d, 1));
}
static void m_name(json_t *d)
{
    json_object_set_new(d, "registered_proof", json_string("StackedDrgWindow4KiBV1_2"));
}
/* abi 5: StackedDrgWindow2KiBV1, API 1.0: sector 1 challenges other leaves */
static void m_abi(json_t *d) { json_object_set_new(d, "registered_proof", json_integer(5)); }
static void m_two_vps(json_t *d)
{
    json_t *v = json_object_get(json_object_get(sector(d, 0), "vanilla_proof"), "sectors");
    json_array_append(v, json_array_get(v, 0));
}
static void m_missing(json_t *d) { json_object_del(sector(d, 1), "comm_r"); }
static void m_bin_trunc(json_t *d)
{
    const char *t = json_string_value(sector(d, 1));
    size_t n = strlen(t);
    char *c = malloc(n + 1);
    memcpy(c, t, n + 1);
    c[n - 8] = '\0';
    json_array_set_new(json_object_get(d, "vanilla_proofs"), 1, json_string(c));
    free(c);
}
static void m_none(json_t *d) { (void)d; }

static void test_malformed(void **state)
{
    (void)state;
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWindow2KiBV1_2", &in, NULL), CUZK_OK);
    pf_set s;
    assert_int_equal(pf_make(&s, &in, 0, 2, 50), 0);
    expect_reject(&s, 0, m_drop_proof, CUZK_ERR_LENGTH,
                  "vanilla_proofs[1].vanilla_proof.sectors[0].inclusion_proofs: expected 10");
    expect_reject(&s, 0, m_sibling, CUZK_ERR_INVALID_PROOF,
                  "sector 0 (id 50) challenge 4: the inclusion path does not hash to "
                  "comm_r_last");
    expect_reject(&s, 0, m_swap, CUZK_ERR_FORMAT, "vanilla_proofs[1]: sector id 50 out of order");
    expect_reject(&s, 0, m_randomness, CUZK_ERR_INVALID_PROOF, "the randomness challenges leaf");
    expect_reject(&s, 0, m_comm_r, CUZK_ERR_INVALID_PROOF,
                  "sector 1 (id 53): comm_r != Poseidon-2(comm_c, comm_r_last)");
    expect_reject(&s, 0, m_noncanonical, CUZK_ERR_NONCANONICAL,
                  "inclusion_proofs[0].data.Single.leaf: value is not a canonical");
    expect_reject(&s, 0, m_index, CUZK_ERR_FORMAT, "path.path[0].index: integer 8 out of range");
    expect_reject(&s, 0, m_sub, CUZK_ERR_FORMAT, "expected one \"Single\" proof");
    expect_reject(&s, 0, m_three, CUZK_ERR_LENGTH, "takes 1..2 sector proofs, got 3");
    expect_reject(&s, 0, m_name, CUZK_ERR_UNSUPPORTED,
                  "PoSt .registered_proof: unknown registered PoSt proof "
                  "\"StackedDrgWindow4KiBV1_2\"");
    expect_reject(&s, 0, m_abi, CUZK_ERR_INVALID_PROOF, "sector 1 (id 53) challenge");
    expect_reject(&s, 0, m_two_vps, CUZK_ERR_LENGTH, "vanilla_proof.sectors: expected 1");
    expect_reject(&s, 0, m_missing, CUZK_ERR_FORMAT,
                  "vanilla_proofs[1]: missing field \"comm_r\"");
    expect_reject(&s, 1, m_bin_trunc, CUZK_ERR_TRUNCATED, "vanilla_proofs[1]: (bincode) at byte");
    expect_reject(&s, 4, m_none, CUZK_ERR_FORMAT, "vanilla_proofs[0]: (bincode) at byte");
    expect_reject(&s, 4, m_none, CUZK_ERR_FORMAT, "trailing bytes after the sector proof");
    /* the unmodified document parses (the mutations above are what fails) */
    char *txt = pf_job_json(&s, 1);
    cuzk_post_job *j = NULL;
    assert_int_equal(cuzk_post_job_parse(txt, strlen(txt), &j, NULL), CUZK_OK);
    cuzk_post_job_free(j);
    /* every prefix of a short document fails cleanly */
    for (size_t n = 0; n < strlen(txt); n += 1 + n / 8) {
        j = (cuzk_post_job *)1;
        assert_int_not_equal(cuzk_post_job_parse(txt, n, &j, NULL), CUZK_OK);
        assert_null(j);
    }
    free(txt);
    pf_free(&s);

    /* WinningPoSt: one sector, partition 0 only */
    assert_int_equal(cuzk_post_info_from_name("StackedDrgWinning2KiBV1", &in, NULL), CUZK_OK);
    assert_int_equal(pf_make(&s, &in, 0, 1, 9), 0);
    s.k = 1;
    expect_reject(&s, 0, m_none, CUZK_ERR_FORMAT, "partition_index: integer 1 out of range 0..0");
    pf_free(&s);
}

int main(void)
{
    test_rng_init("test_post_vanilla");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_e2e_window),
        cmocka_unit_test(test_e2e_winning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
