/*
 * test_files_changed.c — files that change while they are mapped (src/formats/mapped_file.c):
 * a truncation under a mapping reads as zeros instead of killing the process with SIGBUS,
 * and the reader reports CUZK_ERR_IO "... changed while it was read"; a SIGBUS outside any
 * registered mapping still reaches the previous handler (or kills, by default: checked in
 * forked children). Every reader that maps a file (.wtns, .r1cs, .zkey, bellperson .params
 * and .vk, the CSR cache) is driven with its file truncated after the mapping is made and
 * before it is parsed (the test hook), truncated before it is opened, and deleted; each
 * must fail cleanly, and read the file again once it is restored.
 *
 * Threading: single-threaded except test_fault_on_other_thread (one reader thread) and the
 * forked children of the chaining tests (each sets its own SIGBUS handling, which the
 * guard, reinstalled at the next mapping, chains to; so does cmocka's own handler, set
 * around each test).
 */
#define _DEFAULT_SOURCE /* mkdtemp, ftruncate, futimens */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs_cache.h"
#include "formats/formats_export.h"
#include "snarkjs_writer.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"
#include "zkey_writer.h"

static char g_dir[64];
static const size_t PAGE = 4096;

static void path_of(char *out, const char *name) { sprintf(out, "%s/%s", g_dir, name); }

static void write_bytes(const char *path, const void *d, size_t n)
{
    assert_int_equal(cuzk_file_write(path, d, n, NULL), CUZK_OK);
}

static void write_pattern(const char *path, size_t n, uint8_t v)
{
    uint8_t *b = malloc(n);
    assert_non_null(b);
    memset(b, v, n);
    write_bytes(path, b, n);
    free(b);
}

static void expect_changed(cuzk_status st, const cuzk_error *err)
{
    if (st != CUZK_ERR_IO || !strstr(err->msg, "changed while it was read"))
        fail_msg("want CUZK_ERR_IO \"changed while it was read\", got %d \"%s\"", (int)st,
                 err->msg);
}

/* ---- the hook: truncates the file the reader just mapped --------------------------------- */

typedef struct trunc_ctx {
    const char *path; /* only this file (others are mapped as usual) */
    off_t to;
    int hits;
} trunc_ctx;

static void trunc_hook(void *vctx, const mapped_file *mf)
{
    trunc_ctx *c = vctx;
    if (strcmp(mf->name, c->path) != 0)
        return;
    if (truncate(c->path, c->to) == 0)
        c->hits++;
}

/* ---- chaining to the previous handler (forked children, before any mapping here) --------- */

static void own_handler(int sig)
{
    (void)sig;
    _exit(42);
}

/* In a child: a registered mapping truncated survives; then a fault on an unregistered
 * truncated mapping goes to whatever handled SIGBUS before. */
static void child_faults(const char *path)
{
    write_pattern(path, 3 * PAGE, 0x5a);
    mapped_file mf;
    if (mapped_file_open(&mf, path, NULL) != CUZK_OK || truncate(path, 0) != 0)
        _exit(1);
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < mf.len; i++)
        sum += mf.data[i];
    if (sum != 0 || !mapped_file_changed(&mf))
        _exit(2);
    mapped_file_close(&mf);
    write_pattern(path, 3 * PAGE, 0x5a);
    int fd = open(path, O_RDONLY);
    const volatile uint8_t *raw = mmap(NULL, 3 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
    if (raw == MAP_FAILED || truncate(path, 0) != 0)
        _exit(3);
    sum += raw[2 * PAGE]; /* not ours: SIGBUS goes on */
    _exit(4);
}

static void test_chain_to_previous_handler(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "chain1");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = own_handler;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        child_faults(p);
    }
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 42);
}

static void test_chain_to_default(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "chain2");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGBUS, SIG_DFL);
        child_faults(p);
    }
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFSIGNALED(ws));
    assert_int_equal(WTERMSIG(ws), SIGBUS);
}

/* ---- mapped_file itself ------------------------------------------------------------------ */

static void test_truncate_reads_zeros(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "t1");
    write_pattern(p, 3 * PAGE, 0xab);
    mapped_file mf;
    cuzk_error err = {0};
    assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
    assert_int_equal(mf.len, 3 * PAGE);
    assert_int_equal(mf.id.size, 3 * PAGE);
    assert_int_equal(mapped_file_check(&mf, CUZK_OK, &err), CUZK_OK);
    assert_int_equal(truncate(p, PAGE + 100), 0);
    size_t ab = 0, zero = 0;
    for (size_t i = 0; i < mf.len; i++) {
        ab += mf.data[i] == 0xab;
        zero += mf.data[i] == 0;
    }
    assert_int_equal(ab, PAGE + 100); /* what is left of the file */
    assert_int_equal(zero, 2 * PAGE - 100);
    assert_true(mapped_file_changed(&mf));
    expect_changed(mapped_file_check(&mf, CUZK_OK, &err), &err);
    assert_non_null(strstr(err.msg, p));
    /* a parse error of a changed file is reported as the change */
    err = (cuzk_error){0};
    expect_changed(mapped_file_check(&mf, CUZK_ERR_FORMAT, &err), &err);
    mapped_file_close(&mf);
    /* the slot is free again and a fresh mapping of the restored file is clean */
    write_pattern(p, 3 * PAGE, 0xab);
    for (int i = 0; i < 3 * MAPPED_FILE_SLOTS / 2; i++) { /* more than the table: reuse */
        assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
        assert_int_equal(mf.data[2 * PAGE], 0xab);
        assert_int_equal(mapped_file_check(&mf, CUZK_OK, &err), CUZK_OK);
        mapped_file_close(&mf);
    }
}

static void test_truncate_partial_page(void **state)
{
    (void)state;
    /* a cut inside the last page raises no fault (the tail reads zeros): the size says it */
    char p[128];
    path_of(p, "t2");
    write_pattern(p, 1000, 0x11);
    mapped_file mf;
    cuzk_error err = {0};
    assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
    assert_int_equal(truncate(p, 10), 0);
    assert_int_equal(mf.data[999], 0);
    expect_changed(mapped_file_check(&mf, CUZK_OK, &err), &err);
    mapped_file_close(&mf);
}

static void test_rewrite_in_place_and_rename_over(void **state)
{
    (void)state;
    char p[128], q[128];
    path_of(p, "t3");
    path_of(q, "t3.new");
    write_pattern(p, 2 * PAGE, 0x22);
    mapped_file mf;
    cuzk_error err = {0};
    assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
    /* a file renamed over the path leaves the mapped one intact: the read is good, but the
     * path now names another file (what the key manager compares) */
    write_pattern(q, 2 * PAGE, 0x33);
    assert_int_equal(rename(q, p), 0);
    assert_int_equal(mf.data[PAGE], 0x22);
    assert_int_equal(mapped_file_check(&mf, CUZK_OK, &err), CUZK_OK);
    mapped_file_id now;
    assert_true(mapped_file_id_of_path(p, &now));
    assert_false(mapped_file_id_equal(&now, &mf.id));
    mapped_file_close(&mf);
    /* rewritten in place, same size: the mtime says it */
    assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
    assert_true(mapped_file_id_of_path(p, &now));
    assert_true(mapped_file_id_equal(&now, &mf.id));
    int fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, "x", 1, 0), 1);
    struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT}, {.tv_sec = 1000000000, .tv_nsec = 5}};
    assert_int_equal(futimens(fd, ts), 0); /* a clock tick later, whatever the clock */
    close(fd);
    expect_changed(mapped_file_check(&mf, CUZK_OK, &err), &err);
    mapped_file_close(&mf);
}

static void test_open_fd(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "t4");
    write_pattern(p, 2 * PAGE, 0x44);
    int fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    mapped_file mf;
    cuzk_error err = {0};
    assert_int_equal(mapped_file_open_fd(&mf, fd, NULL, &err), CUZK_OK);
    close(fd); /* the mapping holds its own descriptor */
    assert_int_equal(mf.data[PAGE + 7], 0x44);
    assert_int_equal(mapped_file_check(&mf, CUZK_OK, &err), CUZK_OK);
    assert_int_equal(unlink(p), 0); /* deleted: the mapping still reads the old file */
    assert_int_equal(mf.data[PAGE + 8], 0x44);
    assert_int_equal(mapped_file_check(&mf, CUZK_OK, &err), CUZK_OK);
    mapped_file_close(&mf);
    /* truncated through another name: the label is the fd's */
    write_pattern(p, 2 * PAGE, 0x44);
    fd = open(p, O_RDONLY);
    assert_int_equal(mapped_file_open_fd(&mf, fd, NULL, &err), CUZK_OK);
    assert_int_equal(truncate(p, 0), 0);
    assert_int_equal(mf.data[0], 0);
    expect_changed(mapped_file_check(&mf, CUZK_OK, &err), &err);
    assert_non_null(strstr(err.msg, "fd "));
    mapped_file_close(&mf);
    close(fd);
    /* not a regular file; a bad descriptor */
    int dfd = open(g_dir, O_RDONLY | O_DIRECTORY);
    assert_int_equal(mapped_file_open_fd(&mf, dfd, "dir", &err), CUZK_ERR_IO);
    close(dfd);
    assert_int_equal(mapped_file_open_fd(&mf, 1 << 20, "bad", &err), CUZK_ERR_IO);
    assert_int_equal(mapped_file_open_fd(&mf, -1, "bad", &err), CUZK_ERR_INVALID_ARG);
}

typedef struct reader_arg {
    const mapped_file *mf;
    unsigned sum;
} reader_arg;

static void *reader(void *v)
{
    reader_arg *a = v;
    for (size_t i = 0; i < a->mf->len; i++)
        a->sum += a->mf->data[i];
    return NULL;
}

static void test_fault_on_other_thread(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "t5");
    write_pattern(p, 4 * PAGE, 1);
    mapped_file mf;
    cuzk_error err = {0};
    assert_int_equal(mapped_file_open(&mf, p, &err), CUZK_OK);
    assert_int_equal(truncate(p, 2 * PAGE), 0);
    reader_arg a = {&mf, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, reader, &a), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(a.sum, 2 * PAGE);
    expect_changed(mapped_file_check(&mf, CUZK_OK, &err), &err);
    mapped_file_close(&mf);
}

/* ---- every reader ----------------------------------------------------------------------- */

typedef cuzk_status (*load_fn)(const char *path, cuzk_error *err); /* frees what it loads */

static tc_circuit g_c;
static sw_buf g_r1cs, g_wtns, g_zkey;
static uint8_t *g_params, *g_vk;
static size_t g_params_len, g_vk_len;

static cuzk_status load_wtns(const char *path, cuzk_error *err)
{
    cuzk_fr *w = NULL;
    uint32_t n;
    cuzk_status st = cuzk_frs_load_snarkjs_wtns(&w, &n, path, err);
    if (st == CUZK_OK && n != g_c.r1cs->n_vars)
        st = CUZK_ERR_INTERNAL;
    free(w);
    return st;
}

static cuzk_status load_r1cs(const char *path, cuzk_error *err)
{
    cuzk_r1cs *r = NULL;
    cuzk_status st = cuzk_r1cs_load_snarkjs(&r, NULL, path, err);
    cuzk_r1cs_destroy(r);
    return st;
}

static cuzk_status load_zkey(const char *path, cuzk_error *err)
{
    cuzk_groth16_pk pk;
    cuzk_r1cs *ab = NULL;
    cuzk_status st = cuzk_groth16_pk_load_snarkjs_zkey(&pk, &ab, NULL, path, CUZK_PARAMS_CHECKED,
                                                      NULL, NULL, NULL, err);
    if (st == CUZK_OK) {
        cuzk_groth16_pk_free(&pk);
        cuzk_r1cs_destroy(ab);
    }
    return st;
}

static cuzk_status load_params(const char *path, cuzk_error *err)
{
    cuzk_groth16_pk pk;
    cuzk_status st = cuzk_groth16_pk_load_bellperson(&pk, path, CUZK_PARAMS_CHECKED, NULL, err);
    if (st == CUZK_OK)
        cuzk_groth16_pk_free(&pk);
    return st;
}

static cuzk_status load_vk(const char *path, cuzk_error *err)
{
    cuzk_groth16_vk vk;
    cuzk_status st = cuzk_groth16_vk_load_bellperson(&vk, path, err);
    if (st == CUZK_OK)
        cuzk_groth16_vk_free(&vk);
    return st;
}

static cuzk_status load_csr(const char *path, cuzk_error *err)
{
    cuzk_r1cs *r = NULL;
    cuzk_status st = cuzk_r1cs_cache_open(path, "test-circuit", CUZK_R1CS_CACHE_CHECK_FULL, &r,
                                          NULL, NULL, err);
    cuzk_r1cs_destroy(r);
    return st;
}

/* One reader through every moment: intact; truncated (to 0 and to half) between mapping and
 * parse; truncated before it is opened; deleted; restored. */
static void drive(const char *name, load_fn load, const uint8_t *bytes, size_t len)
{
    char p[128];
    path_of(p, name);
    cuzk_error err = {0};
    write_bytes(p, bytes, len);
    cuzk_status st = load(p, &err);
    if (st != CUZK_OK)
        fail_msg("%s intact: %s", name, err.msg);
    off_t cuts[2] = {0, (off_t)len / 2};
    for (int i = 0; i < 2; i++) {
        trunc_ctx tc = {p, cuts[i], 0};
        mapped_file_set_test_hook(trunc_hook, &tc);
        err = (cuzk_error){0};
        st = load(p, &err);
        mapped_file_set_test_hook(NULL, NULL);
        assert_int_equal(tc.hits, 1);
        expect_changed(st, &err);
        write_bytes(p, bytes, len);
    }
    /* truncated before the read: a format error (or an empty file), never a crash */
    assert_int_equal(truncate(p, (off_t)len / 2), 0);
    err = (cuzk_error){0};
    st = load(p, &err);
    assert_int_not_equal(st, CUZK_OK);
    assert_true(err.msg[0] != 0);
    assert_int_equal(truncate(p, 0), 0);
    assert_int_not_equal(load(p, &err), CUZK_OK);
    assert_int_equal(unlink(p), 0);
    st = load(p, &err);
    assert_true(st == CUZK_ERR_IO || st == CUZK_ERR_NOT_FOUND);
    write_bytes(p, bytes, len);
    st = load(p, &err);
    if (st != CUZK_OK)
        fail_msg("%s restored: %s", name, err.msg);
}

static void test_readers(void **state)
{
    (void)state;
    drive("c.r1cs", load_r1cs, g_r1cs.p, g_r1cs.n);
    drive("w.wtns", load_wtns, g_wtns.p, g_wtns.n);
    drive("k.zkey", load_zkey, g_zkey.p, g_zkey.n);
    drive("k.params", load_params, g_params, g_params_len);
    drive("k.vk", load_vk, g_vk, g_vk_len);
    char p[128];
    path_of(p, "c.csr");
    cuzk_error err = {0};
    assert_int_equal(cuzk_r1cs_cache_write(p, "test-circuit", g_c.r1cs, NULL, NULL, &err),
                     CUZK_OK);
    char *csr;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&csr, &n, p, 1 << 26, &err), CUZK_OK);
    drive("c.csr", load_csr, (const uint8_t *)csr, n);
    free(csr);
}

/* A CSR cache mapped as a resident circuit and truncated later: no crash, and the key
 * manager's question (cuzk_r1cs_cache_changed) says it changed. */
static void test_csr_resident(void **state)
{
    (void)state;
    char p[128];
    path_of(p, "r.csr");
    cuzk_error err = {0};
    assert_int_equal(cuzk_r1cs_cache_write(p, "test-circuit", g_c.r1cs, NULL, NULL, &err),
                     CUZK_OK);
    cuzk_r1cs *r = NULL;
    assert_int_equal(cuzk_r1cs_cache_open(p, "test-circuit", CUZK_R1CS_CACHE_CHECK_FULL, &r,
                                          NULL, NULL, &err),
                     CUZK_OK);
    assert_false(cuzk_r1cs_cache_changed(r));
    assert_false(cuzk_r1cs_cache_changed(g_c.r1cs)); /* not a mapped circuit */
    assert_int_equal(truncate(p, 0), 0);
    cuzk_witness wv = cuzk_witness_dense(g_c.w, g_c.r1cs->n_vars);
    /* reading the lost matrices reads zeros (row_ptr all 0: no terms): no crash */
    (void)cuzk_r1cs_check(r, &wv, NULL, &err);
    assert_true(cuzk_r1cs_cache_changed(r));
    cuzk_r1cs_destroy(r);
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(tc_mixed(&g_c, 3, 40, 300, test_rng_u64() & 0xffff), 0);
    g_r1cs = sw_r1cs_of(g_c.r1cs);
    g_wtns = sw_wtns_of(g_c.w, g_c.r1cs->n_vars);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    cuzk_error err = {0};
    assert_int_equal(cuzk_groth16_setup_dev(&pk, &vk, g_c.r1cs, CUZK_GROTH16_SNARKJS, seed,
                                            NULL, &err),
                     CUZK_OK);
    g_zkey = zkey_write(&pk, g_c.r1cs);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    assert_int_equal(cuzk_groth16_setup_dev(&pk, &vk, g_c.r1cs, CUZK_GROTH16_BELLPERSON, seed,
                                            NULL, &err),
                     CUZK_OK);
    g_params_len = cuzk_groth16_pk_bellperson_size(&pk);
    g_vk_len = cuzk_groth16_vk_bellperson_size(&vk);
    g_params = malloc(g_params_len);
    g_vk = malloc(g_vk_len);
    assert_int_equal(cuzk_groth16_pk_to_bellperson(g_params, g_params_len, &pk, &err), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_to_bellperson(g_vk, g_vk_len, &vk, &err), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    /* several pages each, so a cut loses whole pages (the SIGBUS path) */
    assert_true(g_r1cs.n > 2 * PAGE && g_wtns.n > 2 * PAGE && g_zkey.n > 2 * PAGE &&
                g_params_len > 2 * PAGE);
    return 0;
}

int main(void)
{
    test_rng_init("test_files_changed");
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_fchg_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_to_previous_handler),
        cmocka_unit_test(test_chain_to_default),
        cmocka_unit_test(test_truncate_reads_zeros),
        cmocka_unit_test(test_truncate_partial_page),
        cmocka_unit_test(test_rewrite_in_place_and_rename_over),
        cmocka_unit_test(test_open_fd),
        cmocka_unit_test(test_fault_on_other_thread),
        cmocka_unit_test_setup(test_readers, setup),
        cmocka_unit_test(test_csr_resident),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
