/*
 * test_engine_key_files.c — the engine's keys and inputs from files that change (srs.c,
 * mapped_file.c), with GROTH16 jobs on the CPU backend over a small circuit and two
 * development keys of it (K1, K2: different setups, so a proof verifies under one only):
 *   - a key replaced at its path (renamed over, or rewritten in place) is read again: the
 *     next proof verifies under the new key, not the old;
 *   - a key that failed to load (a truncated file) loads once the file is fixed, in place
 *     or renamed over (no mapping or failure is cached);
 *   - a key truncated while HOT, or while WARM (evicted, its mapping kept), fails the next
 *     job cleanly and the engine goes on; restored, it proves again;
 *   - a key or a witness truncated after it is mapped and before it is parsed (the mapping
 *     test hook) fails its job with "changed while it was read", and the engine goes on;
 *   - a preload given the key file's descriptor (cuzk_engine_preload_fd, as the gRPC
 *     service passes the file it opened as its client) loads that file, even when the
 *     path names another by then.
 * Threading: the engine's threads; the test thread submits and awaits.
 */
#define _DEFAULT_SOURCE /* mkdtemp, utimensat */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "engine/srs.h"
#include "engine/state.h"
#include "formats/formats_export.h"
#include "snarkjs_writer.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"
#include "zkey_writer.h"

static char g_dir[64];
static tc_circuit g_c;
static sw_buf g_k1, g_k2, g_wtns;
static cuzk_groth16_vk g_vk1, g_vk2;

static void path_of(char *out, const char *name) { sprintf(out, "%s/%s", g_dir, name); }

static void put(const char *path, const sw_buf *b)
{
    assert_int_equal(cuzk_file_write(path, b->p, b->n, NULL), CUZK_OK);
}

/* Written beside and renamed over path: a new file (inode) at the path. */
static void put_renamed(const char *path, const sw_buf *b)
{
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    put(tmp, b);
    assert_int_equal(rename(tmp, path), 0);
}

/* Rewritten in place (same inode), with an mtime of its own: two writes within one tick of
 * the file system's clock would otherwise leave size and times as they were, which no stat
 * can tell apart (the limit of identity by stat; DESIGN.md §4b). */
static void put_in_place(const char *path, const sw_buf *b, long stamp)
{
    put(path, b);
    struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT}, {.tv_sec = 1500000000 + stamp}};
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static cuzk_engine *make(void)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.log_level = CUZK_LOG_ERROR;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    return e;
}

static cuzk_job_result run(cuzk_engine *e, const char *zkey, const char *wtns)
{
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16};
    r.groth16.zkey_path = zkey;
    r.groth16.wtns_path = wtns;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, &r, &t, &err);
    if (st != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, NULL), CUZK_OK);
    return res;
}

static bool verifies(const cuzk_job_result *res, const cuzk_groth16_vk *vk)
{
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res->proof, res->proof_len, NULL),
                     CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, vk), CUZK_OK);
    return cuzk_groth16_verify(&pvk, &g_c.w[1], vk->n_ic - 1, &proof, NULL) == CUZK_OK;
}

/* A job on zkey proves and its proof verifies under vk (only). */
static void expect_proof(cuzk_engine *e, const char *zkey, const char *wtns,
                         const cuzk_groth16_vk *vk, const cuzk_groth16_vk *not_vk)
{
    cuzk_job_result res = run(e, zkey, wtns);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job failed: %s", res.error);
    assert_int_equal(res.proof_len, CUZK_GROTH16_PROOF_BYTES);
    assert_true(verifies(&res, vk));
    assert_false(verifies(&res, not_vk));
    cuzk_job_result_free(&res);
}

static void expect_failure(cuzk_engine *e, const char *zkey, const char *wtns, const char *want)
{
    cuzk_job_result res = run(e, zkey, wtns);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_null(res.proof);
    assert_true(res.error_code != CUZK_OK && res.error_code != CUZK_ERR_INTERNAL);
    assert_true(res.error[0] != 0);
    if (want && !strstr(res.error, want))
        fail_msg("error \"%s\" does not say \"%s\"", res.error, want);
    cuzk_job_result_free(&res);
}

static void test_key_replaced_at_path(void **state)
{
    (void)state;
    char zk[128], wt[128];
    path_of(zk, "r.zkey");
    path_of(wt, "w.wtns");
    put(zk, &g_k1);
    cuzk_engine *e = make();
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2); /* HOT, unchanged: the same key */
    put_renamed(zk, &g_k2);
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    put_in_place(zk, &g_k1, 1);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* replaced while WARM (evicted: its mapping kept) */
    bool was;
    char id[192];
    snprintf(id, sizeof id, "zkey:%s", zk);
    assert_int_equal(cuzk_engine_evict(e, id, &was, NULL, NULL), CUZK_OK);
    assert_true(was);
    put_renamed(zk, &g_k2);
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    assert_int_equal(cuzk_engine_evict(e, id, &was, NULL, NULL), CUZK_OK);
    put_in_place(zk, &g_k1, 2);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* preload sees the change too */
    put_renamed(zk, &g_k2);
    bool already = true;
    assert_int_equal(cuzk_engine_preload(e, id, &already, NULL, NULL), CUZK_OK);
    assert_false(already);
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    cuzk_engine_destroy(e);
}

/* White box: a partition holding the key (a reference on its entry, taken here as
 * admission takes it) while its file is replaced keeps the old key; the next job gets a
 * fresh entry with the new key; the old entry is freed by its last unref. */
static void test_key_replaced_in_use(void **state)
{
    (void)state;
    char zk[128], wt[128], id[192];
    path_of(zk, "u.zkey");
    path_of(wt, "w.wtns");
    snprintf(id, sizeof id, "zkey:%s", zk);
    put(zk, &g_k1);
    cuzk_engine *e = make();
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    pthread_mutex_lock(&e->mu);
    srs_entry *old = engine_srs_get(e, id, NULL, NULL, false);
    assert_non_null(old);
    assert_int_equal(old->tier, CUZK_SRS_HOT);
    old->refs++; /* a partition of a job admitted before the change */
    const cuzk_groth16_pk old_pk = old->key->pk;
    pthread_mutex_unlock(&e->mu);
    put_renamed(zk, &g_k2);
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    pthread_mutex_lock(&e->mu);
    srs_entry *now = engine_srs_get(e, id, NULL, NULL, false);
    assert_non_null(now);
    assert_ptr_not_equal(now, old);
    assert_true(old->detached);
    for (srs_entry *x = e->srs; x; x = x->next)
        assert_ptr_not_equal(x, old); /* out of the table */
    assert_int_equal(old->tier, CUZK_SRS_HOT); /* its key intact for its holders */
    assert_ptr_equal(old->key->pk.h, old_pk.h);
    engine_srs_unref(e, old); /* the last holder leaves: freed (ASan checks the rest) */
    pthread_mutex_unlock(&e->mu);
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    cuzk_engine_destroy(e);
}

static void test_failed_load_then_fixed(void **state)
{
    (void)state;
    char zk[128], wt[128];
    path_of(zk, "f.zkey");
    path_of(wt, "w.wtns");
    /* its last points garbled (the plan reads only the section table: the load fails) */
    sw_buf bad = {malloc(g_k1.n), g_k1.n, g_k1.n};
    assert_non_null(bad.p);
    memcpy(bad.p, g_k1.p, g_k1.n);
    memset(bad.p + bad.n - 4096, 0xff, 4096);
    put(zk, &bad);
    cuzk_engine *e = make();
    expect_failure(e, zk, wt, NULL);
    expect_failure(e, zk, wt, NULL);
    put_in_place(zk, &g_k1, 3); /* fixed in place: the same inode */
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    put_in_place(zk, &bad, 4);
    expect_failure(e, zk, wt, NULL);
    free(bad.p);
    put_renamed(zk, &g_k2); /* fixed by a new file */
    expect_proof(e, zk, wt, &g_vk2, &g_vk1);
    cuzk_engine_destroy(e);
}

static void test_key_truncated_resident(void **state)
{
    (void)state;
    char zk[128], wt[128], id[192];
    path_of(zk, "t.zkey");
    path_of(wt, "w.wtns");
    snprintf(id, sizeof id, "zkey:%s", zk);
    put(zk, &g_k1);
    cuzk_engine *e = make();
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* HOT and idle, truncated in place (its kept mapping loses those pages): a job is
     * refused by its plan (the section table), and a preload (no plan) reads the file
     * again and fails, instead of calling the stale key loaded */
    sw_buf most = {g_k1.p, g_k1.n - 3 * 4096, g_k1.n - 3 * 4096};
    put_in_place(zk, &most, 5);
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16};
    r.groth16.zkey_path = zk;
    r.groth16.wtns_path = wt;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_TRUNCATED);
    err = (cuzk_error){0};
    assert_int_not_equal(cuzk_engine_preload(e, id, NULL, NULL, &err), CUZK_OK);
    assert_true(err.msg[0] != 0);
    put_in_place(zk, &g_k1, 6);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* WARM (evicted, its mapping kept) and truncated: the next load must not read the
     * lost pages through the old mapping (that was a SIGBUS) */
    bool was;
    assert_int_equal(cuzk_engine_evict(e, id, &was, NULL, NULL), CUZK_OK);
    assert_true(was);
    put_in_place(zk, &most, 7);
    err = (cuzk_error){0};
    assert_int_not_equal(cuzk_engine_preload(e, id, NULL, NULL, &err), CUZK_OK);
    assert_true(err.msg[0] != 0);
    put_in_place(zk, &g_k1, 8);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* WARM and truncated to nothing, then the same: an empty key file */
    assert_int_equal(cuzk_engine_evict(e, id, &was, NULL, NULL), CUZK_OK);
    assert_int_equal(truncate(zk, 0), 0);
    assert_int_not_equal(cuzk_engine_preload(e, id, NULL, NULL, &err), CUZK_OK);
    put_in_place(zk, &g_k1, 9);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    cuzk_engine_destroy(e);
}

/* The file behind the descriptor, not what the path names at load time: the service opened
 * it as its client, and a path swapped since must reach nothing else. */
static void test_preload_through_fd(void **state)
{
    (void)state;
    char zk[128], id[192];
    path_of(zk, "p.zkey");
    snprintf(id, sizeof id, "zkey:%s", zk);
    put(zk, &g_k1);
    int fd = open(zk, O_RDONLY);
    assert_true(fd >= 0);
    struct stat fsb;
    assert_int_equal(fstat(fd, &fsb), 0);
    static uint8_t junk[] = "not a key at all";
    sw_buf garbage = {junk, sizeof junk, sizeof junk};
    put_renamed(zk, &garbage);
    cuzk_engine *e = make();
    bool already = true;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_preload_fd(e, id, fd, &already, NULL, &err), CUZK_OK);
    assert_false(already);
    pthread_mutex_lock(&e->mu);
    const srs_entry *s = e->srs;
    while (s && strcmp(s->id, id) != 0)
        s = s->next;
    assert_non_null(s);
    assert_int_equal(s->tier, CUZK_SRS_HOT);
    assert_non_null(s->map);
    assert_int_equal(s->map->id.ino, (uint64_t)fsb.st_ino); /* the descriptor's file */
    pthread_mutex_unlock(&e->mu);
    /* the descriptor stays the caller's: the engine read a duplicate */
    assert_int_equal(fcntl(fd, F_GETFD), 0);
    assert_int_equal(close(fd), 0);
    /* by path, the same id reads what the path names now (the junk) and fails */
    bool was;
    assert_int_equal(cuzk_engine_evict(e, id, &was, NULL, NULL), CUZK_OK);
    assert_int_not_equal(cuzk_engine_preload(e, id, NULL, NULL, &err), CUZK_OK);
    cuzk_engine_destroy(e);
}

typedef struct trunc_ctx {
    const char *path;
    int skip; /* mappings of path to let through first */
    off_t to;
    int hits;
} trunc_ctx;

static void trunc_hook(void *vctx, const mapped_file *mf)
{
    trunc_ctx *c = vctx;
    if (strcmp(mf->name, c->path) != 0)
        return;
    if (c->skip > 0) {
        c->skip--;
        return;
    }
    if (c->hits == 0 && truncate(c->path, c->to) == 0)
        c->hits++;
}

static void test_truncated_during_read(void **state)
{
    (void)state;
    char zk[128], wt[128];
    path_of(zk, "d.zkey");
    path_of(wt, "d.wtns");
    put(zk, &g_k1);
    put(wt, &g_wtns);
    cuzk_engine *e = make();
    /* the key: mapped once by the plan (its header), then by the load */
    trunc_ctx tc = {zk, 1, 100, 0};
    mapped_file_set_test_hook(trunc_hook, &tc);
    expect_failure(e, zk, wt, "changed while it was read");
    mapped_file_set_test_hook(NULL, NULL);
    assert_int_equal(tc.hits, 1);
    put_in_place(zk, &g_k1, 10);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    /* the witness, mapped by synthesis */
    trunc_ctx tw = {wt, 0, 0, 0};
    mapped_file_set_test_hook(trunc_hook, &tw);
    expect_failure(e, zk, wt, "changed while it was read");
    mapped_file_set_test_hook(NULL, NULL);
    assert_int_equal(tw.hits, 1);
    put(wt, &g_wtns);
    expect_proof(e, zk, wt, &g_vk1, &g_vk2);
    cuzk_engine_destroy(e);
}

static int setup(void **state)
{
    (void)state;
    if (tc_mixed(&g_c, 3, 40, 300, test_rng_u64() & 0xffff) != 0)
        return -1;
    cuzk_groth16_pk pk;
    cuzk_error err = {0};
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    if (cuzk_groth16_setup_dev(&pk, &g_vk1, g_c.r1cs, CUZK_GROTH16_SNARKJS, seed, NULL, &err) !=
        CUZK_OK)
        return -1;
    g_k1 = zkey_write(&pk, g_c.r1cs);
    cuzk_groth16_pk_free(&pk);
    seed[0] ^= 1;
    if (cuzk_groth16_setup_dev(&pk, &g_vk2, g_c.r1cs, CUZK_GROTH16_SNARKJS, seed, NULL, &err) !=
        CUZK_OK)
        return -1;
    g_k2 = zkey_write(&pk, g_c.r1cs);
    cuzk_groth16_pk_free(&pk);
    if (g_k1.n != g_k2.n || g_k1.n < 3 * 4096)
        return -1;
    g_wtns = sw_wtns_of(g_c.w, g_c.r1cs->n_vars);
    char wt[128];
    path_of(wt, "w.wtns");
    return cuzk_file_write(wt, g_wtns.p, g_wtns.n, NULL) == CUZK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(g_k1.p);
    free(g_k2.p);
    free(g_wtns.p);
    cuzk_groth16_vk_free(&g_vk1);
    cuzk_groth16_vk_free(&g_vk2);
    tc_free(&g_c);
    return 0;
}

int main(void)
{
    test_rng_init("test_engine_key_files");
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_ekf_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_replaced_at_path),
        cmocka_unit_test(test_key_replaced_in_use),
        cmocka_unit_test(test_failed_load_then_fixed),
        cmocka_unit_test(test_key_truncated_resident),
        cmocka_unit_test(test_truncated_during_read),
        cmocka_unit_test(test_preload_through_fd),
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
