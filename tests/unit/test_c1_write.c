/*
 * test_c1_write.c — cuzk_c1_write_json: parse(write(x)) == x, field by field, for
 * cuzk_c1_synth outputs at 2 KiB, 8 MiB, 32 GiB (Sub trees) and 64 GiB (Top trees), fresh
 * seed (printed); the written 2 KiB and 8 MiB files pass cuzk_c1_check and
 * cuzk_c1_check_challenges, and a value changed before writing shows after parsing; a shape the parser would reject is refused
 * and leaves the destination untouched. Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/c1.h"
#include "cuzk/c1_synth.h"
#include "cuzk/formats.h"
#include "test_rng.h"

static void merkle_eq(const cuzk_c1_merkle_proof *a, const cuzk_c1_merkle_proof *b)
{
    assert_memory_equal(a->root, b->root, 32);
    assert_memory_equal(a->leaf, b->leaf, 32);
    assert_int_equal(a->n_levels, b->n_levels);
    size_t n_sib = 0;
    for (uint32_t l = 0; l < a->n_levels; l++) {
        assert_int_equal(a->arity[l], b->arity[l]);
        assert_int_equal(a->index[l], b->index[l]);
        n_sib += a->arity[l] - 1u;
    }
    assert_memory_equal(a->siblings, b->siblings, n_sib * 32);
}

static void column_eq(const cuzk_c1_column_proof *a, const cuzk_c1_column_proof *b,
                      uint32_t layers)
{
    assert_int_equal(a->index, b->index);
    assert_memory_equal(a->rows, b->rows, (size_t)layers * 32);
    merkle_eq(&a->proof, &b->proof);
}

static void labeling_eq(const cuzk_c1_labeling_proof *a, const cuzk_c1_labeling_proof *b)
{
    assert_int_equal(a->layer_index, b->layer_index);
    assert_int_equal(a->node, b->node);
    assert_int_equal(a->n_parents, b->n_parents);
    assert_memory_equal(a->parents, b->parents, (size_t)a->n_parents * 32);
}

static void c1_eq(const cuzk_c1_output *a, const cuzk_c1_output *b)
{
    assert_string_equal(a->info.name, b->info.name);
    assert_int_equal(a->info.partitions, b->info.partitions);
    assert_int_equal(a->info.challenges, b->info.challenges);
    assert_int_equal(a->info.layers, b->info.layers);
    assert_int_equal(a->info.sector_size, b->info.sector_size);
    assert_memory_equal(a->comm_r, b->comm_r, 32);
    assert_memory_equal(a->comm_d, b->comm_d, 32);
    assert_memory_equal(a->replica_id, b->replica_id, 32);
    assert_memory_equal(a->seed, b->seed, 32);
    assert_memory_equal(a->ticket, b->ticket, 32);
    size_t n = (size_t)a->info.partitions * a->info.challenges;
    for (size_t i = 0; i < n; i++) {
        const cuzk_c1_challenge_proof *p = &a->proofs[i], *q = &b->proofs[i];
        merkle_eq(&p->comm_d_proof, &q->comm_d_proof);
        merkle_eq(&p->comm_r_last_proof, &q->comm_r_last_proof);
        column_eq(&p->c_x, &q->c_x, a->info.layers);
        for (int j = 0; j < CUZK_C1_DRG_PARENTS; j++)
            column_eq(&p->drg_parents[j], &q->drg_parents[j], a->info.layers);
        for (int j = 0; j < CUZK_C1_EXP_PARENTS; j++)
            column_eq(&p->exp_parents[j], &q->exp_parents[j], a->info.layers);
        for (uint32_t l = 0; l < a->info.layers; l++)
            labeling_eq(&p->labeling[l], &q->labeling[l]);
        labeling_eq(&p->encoding, &q->encoding);
    }
}

static void tmp_path(char *buf, size_t cap, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/cuzk-c1w-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), name);
}

/* full: also the checks on the parsed file and the flipped-value write (2 KiB, 8 MiB); the
 * 40 MB documents of 32 / 64 GiB are only compared, to keep the test short under ASan. */
static void round_trip(uint64_t sector_size, unsigned parts, int full)
{
    uint64_t seed = test_rng_u64();
    cuzk_error e = {0};
    cuzk_c1_output *x = NULL, *y = NULL;
    assert_int_equal(cuzk_c1_synth(sector_size, parts, seed, &x, &e), CUZK_OK);
    char path[512];
    tmp_path(path, sizeof path, "c1.json");
    assert_int_equal(cuzk_c1_write_json(x, path, &e), CUZK_OK);
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_file_read_text(&data, &len, path, (size_t)1 << 30, &e), CUZK_OK);
    cuzk_status st = cuzk_c1_parse(data, len, &y, &e);
    if (st == CUZK_ERR_UNSUPPORTED) { /* built without jansson */
        free(data);
        unlink(path);
        cuzk_c1_synth_free(x);
        skip();
    }
    if (st != CUZK_OK)
        fail_msg("parse of the written C1 (%zu bytes): %s", len, e.msg);
    c1_eq(x, y);
    if (full) {
        assert_int_equal(cuzk_c1_check(y, &e), CUZK_OK);
        assert_int_equal(cuzk_c1_check_challenges(y, &e), CUZK_OK);
        /* a flipped value in x shows up after the round trip: the comparison can fail */
        x->proofs[0].c_x.rows[0][0] ^= 1;
        cuzk_c1_output *z = NULL;
        assert_int_equal(cuzk_c1_write_json(x, path, &e), CUZK_OK);
        free(data);
        assert_int_equal(cuzk_file_read_text(&data, &len, path, (size_t)1 << 30, &e), CUZK_OK);
        assert_int_equal(cuzk_c1_parse(data, len, &z, &e), CUZK_OK);
        assert_int_not_equal(z->proofs[0].c_x.rows[0][0], y->proofs[0].c_x.rows[0][0]);
        assert_int_equal(cuzk_c1_check(z, &e), CUZK_ERR_INVALID_PROOF);
        cuzk_c1_free(z);
    }
    free(data);
    unlink(path);
    cuzk_c1_free(y);
    cuzk_c1_synth_free(x);
}

static void test_round_trip_2k(void **state)
{
    (void)state;
    round_trip(2048, 1, 1);
}

static void test_round_trip_8m(void **state)
{
    (void)state;
    round_trip(8ull << 20, 1, 1);
}

/* Trees R and C of 32 GiB are Sub proofs (base 8-ary + an 8-ary sub level), of 64 GiB Top
 * proofs (+ a binary top level): the writer's other two Merkle shapes, 10 partitions. */
static void test_round_trip_32g(void **state)
{
    (void)state;
    round_trip(32ull << 30, 10, 0);
}

static void test_round_trip_64g(void **state)
{
    (void)state;
    round_trip(64ull << 30, 10, 0);
}

/* One partition of a 32 GiB sector (a benchmark's C1) is not a file the parser reads:
 * refused, the destination untouched. */
static void test_refuses_partial(void **state)
{
    (void)state;
    cuzk_error e = {0};
    cuzk_c1_output *x = NULL;
    assert_int_equal(cuzk_c1_synth(32ull << 30, 1, test_rng_u64(), &x, &e), CUZK_OK);
    char path[512];
    tmp_path(path, sizeof path, "partial.json");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    assert_int_equal(cuzk_c1_write_json(x, path, &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "StackedDrg32GiBV1_1"));
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_file_read_text(&data, &len, path, 100, &e), CUZK_OK);
    assert_string_equal(data, "old");
    free(data);
    unlink(path);
    assert_int_equal(cuzk_c1_write_json(NULL, path, &e), CUZK_ERR_INVALID_ARG);
    cuzk_c1_synth_free(x);
}

int main(void)
{
    test_rng_init("test_c1_write");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_2k),
        cmocka_unit_test(test_round_trip_8m),
        cmocka_unit_test(test_round_trip_32g),
        cmocka_unit_test(test_round_trip_64g),
        cmocka_unit_test(test_refuses_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
