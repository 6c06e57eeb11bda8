/*
 * test_vanilla_synth.c — the generated PoSt and SnapDeals job documents
 * (cuzk/vanilla_synth.h, written by cuzk_post_job_write / cuzk_snap_job_write) at full
 * size, through the provers' parsers (which run cuzk_post_partition_check /
 * cuzk_snap_partition_check):
 *   window_32g   a full 32 GiB WindowPoSt partition (2,349 sectors, generated on a pool of
 *                2) parses and passes the check; the times are printed, never asserted;
 *                a path damaged in sector 0 is refused by the check naming it;
 *   winning      WinningPoSt at every registered size parses (Single, Sub, Top paths);
 *   snap         SnapDeals at 2 KiB, 8 MiB and 32 GiB (1, 4 and 16 partitions) parses;
 *                a damaged apex leaf, a replica leaf off new = old + data * rho, and a
 *                comm_r_new that is not the document's are refused;
 *   seeds        the same seed gives the same document byte for byte, another seed
 *                another document (both forms);
 *   refused      impossible requests (too many sectors, a WinningPoSt partition other
 *                than 0, an h not in the table, NULL) are INVALID_ARG.
 * Seeds from test_rng (printed); threads: a pool of 2 for the large ones.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream, clock_gettime */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cuzk/vanilla_synth.h"
#include "test_rng.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *post_doc(const cuzk_post_job *j, cuzk_vanilla_form form, size_t *len)
{
    char *txt = NULL;
    FILE *f = open_memstream(&txt, len);
    assert_non_null(f);
    cuzk_error e = {0};
    if (cuzk_post_job_write(j, form, f, &e) != CUZK_OK)
        fail_msg("write: %s", e.msg);
    fclose(f);
    return txt;
}

static char *snap_doc(const cuzk_snap_job *j, cuzk_vanilla_form form, size_t *len)
{
    char *txt = NULL;
    FILE *f = open_memstream(&txt, len);
    assert_non_null(f);
    cuzk_error e = {0};
    if (cuzk_snap_job_write(j, form, f, &e) != CUZK_OK)
        fail_msg("write: %s", e.msg);
    fclose(f);
    return txt;
}

static cuzk_pool *g_pool;

static void test_window_32g(void **state)
{
    (void)state;
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 32ull << 30, &in, NULL), CUZK_OK);
    assert_int_equal(in.sectors, 2349);
    cuzk_error e = {0};
    cuzk_post_job *j = NULL;
    double t0 = now_s();
    if (cuzk_post_job_synth(&in, NULL, test_rng_u64(), g_pool, &j, &e) != CUZK_OK)
        fail_msg("synth: %s", e.msg);
    double t1 = now_s();
    size_t len = 0;
    char *txt = post_doc(j, CUZK_VANILLA_BINCODE, &len);
    double t2 = now_s();
    cuzk_post_job *p = NULL;
    if (cuzk_post_job_parse(txt, len, &p, &e) != CUZK_OK)
        fail_msg("parse: %s", e.msg);
    double t3 = now_s();
    print_message("32 GiB WindowPoSt, 2349 sectors: generated %.2f s, written %.2f s "
                  "(%.1f MiB bincode), parsed and checked %.2f s\n",
                  t1 - t0, t2 - t1, (double)len / (1 << 20), t3 - t2);
    assert_int_equal(p->n_sectors, 2349);
    assert_int_equal(p->sectors[0].sector_id, 1);
    assert_int_equal(p->sectors[2348].sector_id, 2349);
    assert_memory_equal(p->randomness, j->randomness, 32);
    assert_memory_equal(p->sectors[2000].comm_r, j->sectors[2000].comm_r, 32);
    assert_int_equal(cuzk_c1_merkle_node(&p->sectors[7].proofs[3]),
                     cuzk_c1_merkle_node(&j->sectors[7].proofs[3]));
    cuzk_post_job_free(p);
    free(txt);

    /* a damaged path: the check names the sector and challenge */
    j->sectors[0].proofs[0].siblings[5][0] ^= 0x11;
    cuzk_post_partition part = cuzk_post_job_partition(j);
    assert_int_equal(cuzk_post_partition_check(&part, j->randomness, &e), CUZK_ERR_INVALID_PROOF);
    assert_non_null(strstr(e.msg, "sector 0 (id 1) challenge 0: the inclusion path does not "
                                  "hash to comm_r_last"));
    cuzk_post_job_free(j);
}

static void test_winning(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        cuzk_post_info in;
        assert_int_equal(cuzk_post_info_get(CUZK_POST_WINNING, sizes[i], &in, NULL), CUZK_OK);
        cuzk_error e = {0};
        cuzk_post_job *j = NULL, *p = NULL;
        if (cuzk_post_job_synth(&in, NULL, test_rng_u64(), NULL, &j, &e) != CUZK_OK)
            fail_msg("%s: %s", in.name, e.msg);
        for (int form = 0; form < 2; form++) {
            size_t len = 0;
            char *txt = post_doc(j, (cuzk_vanilla_form)form, &len);
            if (cuzk_post_job_parse(txt, len, &p, &e) != CUZK_OK)
                fail_msg("%s (%s): %s", in.name, form ? "bincode" : "json", e.msg);
            assert_int_equal(p->n_sectors, 1);
            assert_int_equal(p->sectors[0].n_proofs, 66);
            cuzk_post_job_free(p);
            free(txt);
        }
        cuzk_post_job_free(j);
    }
}

static cuzk_status parse_snap(const cuzk_snap_job *j, cuzk_vanilla_form form, cuzk_error *e)
{
    size_t len = 0;
    char *txt = snap_doc(j, form, &len);
    cuzk_snap_job *p = NULL;
    cuzk_status st = cuzk_snap_job_parse(txt, len, &p, e);
    if (st == CUZK_OK) {
        assert_int_equal(p->n_partitions, j->info.partitions);
        assert_memory_equal(p->comm_r_new, j->comm_r_new, 32);
    }
    cuzk_snap_job_free(p);
    free(txt);
    return st;
}

static void test_snap(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {2048, 8ull << 20, 32ull << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        cuzk_snap_info in;
        assert_int_equal(cuzk_snap_info_get(sizes[i], CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
        cuzk_error e = {0};
        cuzk_snap_job *j = NULL;
        double t0 = now_s();
        if (cuzk_snap_job_synth(&in, 0, test_rng_u64(), g_pool, &j, &e) != CUZK_OK)
            fail_msg("%s: %s", in.name, e.msg);
        double t1 = now_s();
        if (parse_snap(j, CUZK_VANILLA_BINCODE, &e) != CUZK_OK)
            fail_msg("%s: %s", in.name, e.msg);
        print_message("%s: %u partitions generated %.2f s, written, parsed and checked %.2f s\n",
                      in.name, in.partitions, t1 - t0, now_s() - t1);
        uint32_t k = 0; /* the check stops at the first partition */
        cuzk_snap_partition_proof *pp = &j->partitions[k];
        /* an apex leaf */
        pp->apex_leaves[5][0] ^= 1;
        assert_int_equal(parse_snap(j, CUZK_VANILLA_BINCODE, &e), CUZK_ERR_INVALID_PROOF);
        assert_non_null(strstr(e.msg, "apex"));
        pp->apex_leaves[5][0] ^= 1;
        /* a new replica leaf off old + data * rho (its path reaches no root either) */
        pp->challenges[3].r_new.leaf[0] ^= 1;
        assert_int_equal(parse_snap(j, CUZK_VANILLA_JSON, &e), CUZK_ERR_INVALID_PROOF);
        pp->challenges[3].r_new.leaf[0] ^= 1;
        /* another comm_r_new names other challenges */
        j->comm_r_new[1] ^= 1;
        assert_int_equal(parse_snap(j, CUZK_VANILLA_BINCODE, &e), CUZK_ERR_INVALID_PROOF);
        j->comm_r_new[1] ^= 1;
        assert_int_equal(parse_snap(j, CUZK_VANILLA_BINCODE, &e), CUZK_OK);
        cuzk_snap_job_free(j);
    }
}

static void test_seeds(void **state)
{
    (void)state;
    cuzk_post_info pi;
    cuzk_snap_info si;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &pi, NULL), CUZK_OK);
    assert_int_equal(cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &si, NULL), CUZK_OK);
    uint64_t seed = test_rng_u64();
    for (int form = 0; form < 2; form++) {
        char *d[3];
        size_t n[3];
        for (int i = 0; i < 3; i++) {
            cuzk_post_job *j = NULL;
            assert_int_equal(cuzk_post_job_synth(&pi, NULL, seed + (i == 2), NULL, &j, NULL),
                             CUZK_OK);
            d[i] = post_doc(j, (cuzk_vanilla_form)form, &n[i]);
            cuzk_post_job_free(j);
        }
        assert_true(n[0] == n[1] && memcmp(d[0], d[1], n[0]) == 0);
        assert_true(n[0] != n[2] || memcmp(d[0], d[2], n[0]) != 0);
        for (int i = 0; i < 3; i++)
            free(d[i]);
        for (int i = 0; i < 3; i++) {
            cuzk_snap_job *j = NULL;
            assert_int_equal(cuzk_snap_job_synth(&si, 0, seed + (i == 2), NULL, &j, NULL),
                             CUZK_OK);
            d[i] = snap_doc(j, (cuzk_vanilla_form)form, &n[i]);
            cuzk_snap_job_free(j);
        }
        assert_true(n[0] == n[1] && memcmp(d[0], d[1], n[0]) == 0);
        assert_true(n[0] != n[2] || memcmp(d[0], d[2], n[0]) != 0);
        for (int i = 0; i < 3; i++)
            free(d[i]);
    }
}

static void test_refused(void **state)
{
    (void)state;
    cuzk_post_info w, win;
    cuzk_snap_info si;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &w, NULL), CUZK_OK);
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINNING, 2048, &win, NULL), CUZK_OK);
    assert_int_equal(cuzk_snap_info_get(32ull << 30, CUZK_SNAP_MAIN, &si, NULL), CUZK_OK);
    cuzk_post_job *j = (cuzk_post_job *)1;
    cuzk_snap_job *s = (cuzk_snap_job *)1;
    cuzk_error e = {0};
    cuzk_post_synth_opts three = {0, 3, 1, 1}, k1 = {1, 1, 1, 1};
    assert_int_equal(cuzk_post_job_synth(&w, &three, 1, NULL, &j, &e), CUZK_ERR_INVALID_ARG);
    assert_null(j);
    assert_int_equal(cuzk_post_job_synth(&win, &k1, 1, NULL, &j, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_post_job_synth(NULL, NULL, 1, NULL, &j, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_post_job_synth(&w, NULL, 1, NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_snap_job_synth(&si, 13, 1, NULL, &s, &e), CUZK_ERR_INVALID_ARG);
    assert_null(s);
    assert_non_null(strstr(e.msg, "h = 13"));
    /* a partition k of WindowPoSt: ids as asked, the challenges of partition k */
    cuzk_post_synth_opts k5 = {5, 1, 100, 7};
    assert_int_equal(cuzk_post_job_synth(&w, &k5, 1, NULL, &j, &e), CUZK_OK);
    assert_int_equal(j->partition_index, 5);
    assert_int_equal(j->sectors[0].sector_id, 100);
    size_t len = 0;
    char *txt = post_doc(j, CUZK_VANILLA_JSON, &len);
    cuzk_post_job *p = NULL;
    if (cuzk_post_job_parse(txt, len, &p, &e) != CUZK_OK)
        fail_msg("partition 5: %s", e.msg);
    assert_int_equal(p->partition_index, 5);
    cuzk_post_job_free(p);
    free(txt);
    cuzk_post_job_free(j);
}

static int setup(void **state)
{
    (void)state;
    return cuzk_pool_create(&g_pool, 2) == CUZK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cuzk_pool_destroy(g_pool);
    return 0;
}

int main(void)
{
    test_rng_init("test_vanilla_synth");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_32g), cmocka_unit_test(test_winning),
        cmocka_unit_test(test_snap),       cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
