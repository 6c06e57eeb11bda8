/*
 * test_engine_request_files.c — a request's input files are opened once, at submit, and
 * read through that descriptor only (engine/request.h): a path swapped for a symlink (or
 * for another file) after submit changes nothing the engine reads. A request read back
 * from the journal has no descriptor: its path is opened again, but a final symlink is
 * refused and another file at the path is refused ("another file is there now"); the
 * recorded file, back at its path, is accepted. Descriptors handed over by the submitter
 * (cuzkd's open as its client) must be regular files, one for each path; the request's
 * own duplicates are closed by ereq_close_files / ereq_free.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "engine/request.h"
#include "test_rng.h"

static char g_dir[64];

static void at(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", g_dir, name);
}

static void put(const char *name, const char *text)
{
    char p[128];
    at(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The input's bytes as the engine reads them, as a string; CUZK_OK or the failure. */
static cuzk_status read_input(const ereq *q, ereq_input in, char *out, size_t n,
                              cuzk_error *err)
{
    mapped_file mf;
    out[0] = 0;
    cuzk_status st = ereq_input_map(q, in, &mf, err);
    if (st == CUZK_OK) {
        size_t len = mf.len < n - 1 ? mf.len : n - 1;
        memcpy(out, mf.data, len);
        out[len] = 0;
        mapped_file_close(&mf);
    }
    return st;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-reqfiles-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void request_for(cuzk_job_request *r, const char *wtns_path, int wtns_fd, bool has_fds)
{
    memset(r, 0, sizeof *r);
    r->kind = CUZK_PROOF_GROTH16;
    r->groth16.wtns_path = wtns_path;
    r->groth16.has_fds = has_fds;
    r->groth16.zkey_fd = r->groth16.params_fd = r->groth16.r1cs_fd = -1;
    r->groth16.wtns_fd = wtns_fd;
}

static void test_swap_after_submit(void **state)
{
    (void)state;
    char a[128], old[128], other[128], text[64];
    put("a.wtns", "submitted\n");
    put("other.wtns", "another file\n");
    at(a, sizeof a, "a.wtns");
    at(old, sizeof old, "a.wtns.old");
    at(other, sizeof other, "other.wtns");
    cuzk_error err = {0};
    for (int has_fds = 0; has_fds <= 1; has_fds++) {
        /* submit: the submitter's open (has_fds), or the engine's own */
        int fd = has_fds ? open(a, O_RDONLY | O_CLOEXEC) : -1;
        cuzk_job_request r;
        request_for(&r, a, fd, has_fds);
        ereq *q;
        assert_int_equal(ereq_from_request(&q, &r, &err), CUZK_OK);
        if (fd >= 0)
            close(fd); /* the submitter's own: the request holds a duplicate */
        assert_true(q->fd[EREQ_WTNS] >= 0);
        assert_int_equal(q->fd[EREQ_ZKEY], -1);
        /* a racing client swaps the path for a symlink to another file */
        assert_int_equal(rename(a, old), 0);
        assert_int_equal(symlink(other, a), 0);
        assert_int_equal(read_input(q, EREQ_WTNS, text, sizeof text, &err), CUZK_OK);
        assert_string_equal(text, "submitted\n");

        /* the same request read back from the journal: no descriptor survives */
        uint8_t *enc;
        size_t len;
        assert_int_equal(ereq_encode(q, &enc, &len, &err), CUZK_OK);
        ereq *back;
        assert_int_equal(ereq_decode(&back, enc, len, &err), CUZK_OK);
        free(enc);
        assert_int_equal(back->fd[EREQ_WTNS], -1);
        /* the symlink is not followed */
        assert_int_equal(read_input(back, EREQ_WTNS, text, sizeof text, &err), CUZK_ERR_IO);
        assert_non_null(strstr(err.msg, "cannot be opened"));
        /* another regular file at the path, even with the same bytes: not the one
         * submitted */
        assert_int_equal(unlink(a), 0);
        put("a.wtns", "submitted\n");
        assert_int_equal(read_input(back, EREQ_WTNS, text, sizeof text, &err), CUZK_ERR_IO);
        assert_non_null(strstr(err.msg, "another file is there now"));
        /* the submitted file back at its path: accepted */
        assert_int_equal(rename(old, a), 0);
        assert_int_equal(read_input(back, EREQ_WTNS, text, sizeof text, &err), CUZK_OK);
        assert_string_equal(text, "submitted\n");
        ereq_free(back);

        /* the request's descriptor is closed with it */
        int held = q->fd[EREQ_WTNS];
        ereq_close_files(q);
        assert_int_equal(q->fd[EREQ_WTNS], -1);
        assert_int_equal(fcntl(held, F_GETFD), -1);
        assert_int_equal(errno, EBADF);
        ereq_free(q);
    }
}

static void test_given_descriptors(void **state)
{
    (void)state;
    char a[128], fifo[128];
    put("b.wtns", "b\n");
    at(a, sizeof a, "b.wtns");
    at(fifo, sizeof fifo, "b.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    cuzk_error err = {0};
    cuzk_job_request r;
    ereq *q = NULL;
    /* a path without its descriptor */
    request_for(&r, a, -1, true);
    assert_int_equal(ereq_from_request(&q, &r, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "no descriptor"));
    /* a FIFO's descriptor (opened without blocking, as cuzkd does) */
    int ff = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    assert_true(ff >= 0);
    request_for(&r, fifo, ff, true);
    assert_int_equal(ereq_from_request(&q, &r, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "is a FIFO"));
    close(ff);
    /* a relative path with a descriptor */
    int fd = open(a, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    request_for(&r, "b.wtns", fd, true);
    assert_int_equal(ereq_from_request(&q, &r, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "not an absolute path"));
    /* the identity recorded is the descriptor's file */
    request_for(&r, a, fd, true);
    assert_int_equal(ereq_from_request(&q, &r, &err), CUZK_OK);
    struct stat sb;
    assert_int_equal(fstat(fd, &sb), 0);
    assert_int_equal(q->wtns_id.ino, (uint64_t)sb.st_ino);
    assert_int_equal(q->wtns_id.size, 2);
    assert_true(q->fd[EREQ_WTNS] != fd);
    close(fd);
    /* an input given as bytes has no file to map */
    assert_int_equal(ereq_input_map(q, EREQ_ZKEY, &(mapped_file){0}, &err),
                     CUZK_ERR_INVALID_ARG);
    ereq_free(q);
}

int main(void)
{
    test_rng_init("test_engine_request_files");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_after_submit),
        cmocka_unit_test(test_given_descriptors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
