/*
 * test_server_files.c — files a client names (peer_files.h): a root daemon reads any file,
 * so a GROTH16 path or a PreloadSRS "zkey:<path>" is accepted only when the client could
 * read the file itself. As root (this process), then as another user (a child process
 * that drops to nobody, when the test runs as root): a file only root may read is refused
 * with exactly the message of a missing file; a world-readable file and one readable
 * through a supplementary group are accepted; a relative path, a directory and a FIFO are
 * refused (the FIFO without hanging). Over TCP no file may be named unless input
 * directories are configured, and then only under them (a symlink leading out is
 * refused). The engine receives the canonical path. Every refusal is logged.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "server/peer_files.h"
#include "test_rng.h"

#define NOBODY 65534
#define FILE_GROUP 4242 /* a group only the child is given */

static char g_dir[64];

static void put(const char *name, mode_t mode, gid_t gid)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("not really a witness\n", f);
    fclose(f);
    assert_int_equal(chmod(p, mode), 0);
    if (gid != (gid_t)-1)
        assert_int_equal(chown(p, (uid_t)-1, gid), 0);
}

static int setup(void **state)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-files-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    assert_int_equal(chmod(g_dir, 0755), 0);
    put("secret.bin", 0600, (gid_t)-1);
    put("public.bin", 0644, (gid_t)-1);
    put("grouped.bin", 0640, geteuid() == 0 ? FILE_GROUP : (gid_t)-1);
    char p[128], q[128];
    snprintf(p, sizeof p, "%s/sub", g_dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/fifo", g_dir);
    assert_int_equal(mkfifo(p, 0666), 0);
    snprintf(p, sizeof p, "%s/out-link", g_dir);
    assert_int_equal(symlink("/etc/passwd", p), 0);
    snprintf(p, sizeof p, "%s/in-link", g_dir);
    snprintf(q, sizeof q, "%s/public.bin", g_dir);
    assert_int_equal(symlink(q, p), 0);
    return 0;
}

static int teardown(void **state)
{
    static const char *const names[] = {"secret.bin", "public.bin", "grouped.bin", "fifo",
                                        "out-link", "in-link"};
    char p[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", g_dir, names[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/sub", g_dir);
    rmdir(p);
    rmdir(g_dir);
    return 0;
}

/* A GROTH16 SubmitProof naming wtns_path; the gRPC code, *msg the message (malloc'd). */
static int submit_path(cuzk_client *c, const char *path, char **msg)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = CUZK__V1__PROOF_KIND__GROTH16;
    r.wtns_path = (char *)path;
    return call_pb(c, "SubmitProof", &r.base, NULL, 0, NULL, msg);
}

static int submit_in_dir(cuzk_client *c, const char *name, char **msg)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return submit_path(c, p, msg);
}

/* The message with the file name cut out, to compare refusals of different files. */
static char *without(char *msg, const char *name)
{
    char *at = msg ? strstr(msg, name) : NULL;
    if (at)
        memmove(at, at + strlen(name), strlen(at + strlen(name)) + 1);
    return msg;
}

static void test_as_root_client(void **state)
{
    harness h;
    harness_start(&h, NULL);
    harness_log_clear();
    cuzk_client *c = harness_client(&h);
    char *msg = NULL, p[160], got[4096];
    /* readable (the caller is this process's user): accepted, canonical path to the engine */
    snprintf(p, sizeof p, "%s/sub/../././public.bin", g_dir);
    assert_int_equal(submit_path(c, p, NULL), 0);
    fake_engine_last_wtns_path(h.engine, got, sizeof got);
    snprintf(p, sizeof p, "%s/public.bin", g_dir);
    assert_string_equal(got, p);
    assert_int_equal(submit_in_dir(c, "in-link", NULL), 0);
    fake_engine_last_wtns_path(h.engine, got, sizeof got);
    assert_string_equal(got, p);
    /* refused: missing, a directory, a FIFO (at once: the check must not block on it) */
    assert_int_equal(submit_in_dir(c, "absent.bin", &msg), 5);
    assert_non_null(strstr(msg, "wtns_path"));
    char *missing = without(msg, "absent.bin");
    static const char *const refused[] = {"sub", "fifo"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(submit_in_dir(c, refused[i], &msg), 5);
        free(msg);
    }
    /* relative: a client's path means nothing in the daemon's working directory */
    assert_int_equal(submit_path(c, "public.bin", &msg), 3);
    assert_non_null(strstr(msg, "not an absolute path"));
    free(msg);
    /* PreloadSRS "zkey:<path>": the same check, the canonical id to the engine */
    Cuzk__V1__PreloadSrsRequest pr = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    char id[200];
    snprintf(id, sizeof id, "zkey:%s/absent.bin", g_dir);
    pr.circuit_id = id;
    assert_int_equal(call_pb(c, "PreloadSRS", &pr.base, NULL, 0, NULL, &msg), 5);
    free(msg);
    snprintf(id, sizeof id, "zkey:%s/sub/../public.bin", g_dir);
    assert_int_equal(call_pb(c, "PreloadSRS", &pr.base, NULL, 0, NULL, NULL), 0);
    Cuzk__V1__GetStatusRequest g = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *st;
    assert_int_equal(call_pb(c, "GetStatus", &g.base, &cuzk__v1__get_status_response__descriptor,
                             0, (void **)&st, NULL), 0);
    assert_int_equal(st->n_loaded_srs, 1);
    snprintf(id, sizeof id, "zkey:%s/public.bin", g_dir);
    assert_string_equal(st->loaded_srs[0]->circuit_id, id);
    protobuf_c_message_free_unpacked(&st->base, NULL);
    assert_true(harness_logged("WARN refused /cuzk.v1.ProvingEngine/SubmitProof",
                               "NOT_FOUND: wtns_path", NULL));
    free(missing);
    cuzk_client_close(c);
    harness_stop(&h);
}

/* In a child that becomes nobody (with FILE_GROUP as a supplementary group): 0 when
 * every expectation holds, else the number of the first that failed. */
static int as_nobody(const harness *h)
{
    gid_t groups[1] = {FILE_GROUP};
    if (setgroups(1, groups) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
        return 1;
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    if (cuzk_client_connect(h->addr, &c, &e) != CUZK_OK)
        return 2;
    char *m1 = NULL, *m2 = NULL;
    if (submit_in_dir(c, "secret.bin", &m1) != 5 || submit_in_dir(c, "absent.bin", &m2) != 5)
        return 3;
    /* unreadable and missing: the same answer, so a client cannot probe for files */
    if (strcmp(without(m1, "secret.bin"), without(m2, "absent.bin")) != 0)
        return 4;
    free(m1);
    free(m2);
    if (submit_in_dir(c, "public.bin", NULL) != 0)
        return 5;
    if (submit_in_dir(c, "grouped.bin", NULL) != 0) /* through the supplementary group */
        return 6;
    Cuzk__V1__PreloadSrsRequest pr = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    char id[200];
    snprintf(id, sizeof id, "zkey:%s/secret.bin", g_dir);
    pr.circuit_id = id;
    if (call_pb(c, "PreloadSRS", &pr.base, NULL, 0, NULL, NULL) != 5)
        return 7;
    cuzk_client_close(c);
    return 0;
}

static void test_as_other_user(void **state)
{
    if (geteuid() != 0)
        skip(); /* becoming another user needs root */
    harness h;
    cuzk_server_opts o = {.unix_mode = 0666}; /* nobody must reach the socket */
    harness_start(&h, &o);
    assert_int_equal(chmod(h.dir, 0711), 0);
    harness_log_clear();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(as_nobody(&h));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("as nobody: expectation %d failed", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    assert_true(harness_logged("refused /cuzk.v1.ProvingEngine/SubmitProof from unix uid 65534",
                               "NOT_FOUND: wtns_path", "secret.bin", NULL));
    harness_stop(&h);
}

static void test_tcp_and_input_dirs(void **state)
{
    harness h;
    harness_start(&h, NULL);
    cuzk_client *c = NULL;
    cuzk_error e = {0};
    char *msg = NULL;
    /* TCP without input directories: no files at all, whatever exists */
    assert_int_equal(cuzk_client_connect(h.tcp_addr, &c, &e), CUZK_OK);
    assert_int_equal(submit_in_dir(c, "public.bin", &msg), 7);
    assert_non_null(strstr(msg, "may not name files"));
    free(msg);
    cuzk_client_close(c);
    harness_stop(&h);

    cuzk_server_opts o = {.input_dirs = g_dir};
    harness_start(&h, &o);
    assert_int_equal(cuzk_client_connect(h.tcp_addr, &c, &e), CUZK_OK);
    assert_int_equal(submit_in_dir(c, "public.bin", NULL), 0);
    /* outside, or led outside by a symlink or "..": the message of a missing file */
    assert_int_equal(submit_in_dir(c, "absent.bin", &msg), 5);
    char *missing = without(msg, "absent.bin");
    assert_non_null(strstr(missing, "under daemon.input_dirs"));
    assert_int_equal(submit_in_dir(c, "out-link", &msg), 5);
    assert_string_equal(without(msg, "out-link"), missing);
    free(msg);
    assert_int_equal(submit_path(c, "/etc/passwd", &msg), 5);
    free(msg);
    char p[160];
    snprintf(p, sizeof p, "%s/../../etc/passwd", g_dir);
    assert_int_equal(submit_path(c, p, &msg), 5);
    free(msg);
    free(missing);
    cuzk_client_close(c);
    /* the directories bind unix peers too */
    c = harness_client(&h);
    assert_int_equal(submit_path(c, "/etc/passwd", &msg), 5);
    free(msg);
    cuzk_client_close(c);
    harness_stop(&h);

    /* a directory that does not exist is a configuration error */
    cuzk_server *s = NULL;
    cuzk_server_opts bad = {.input_dirs = "/no/such/dir-cuzk"};
    cuzk_engine *eng = fake_engine_create();
    assert_int_equal(cuzk_server_create(eng, "127.0.0.1:0", &bad, &s, &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "/no/such/dir-cuzk"));
    fake_engine_destroy(eng);
}

/* Who is checked how, whatever user the test runs as. */
static void test_modes(void **state)
{
    rpc_peer unix_peer = {.is_unix = 1, .has_creds = 1, .uid = 1000, .gid = 1000};
    rpc_peer tcp_peer = {.is_unix = 0};
    assert_int_equal(peer_files_mode_for(0, &unix_peer), PEER_FILES_AS_PEER);
    assert_int_equal(peer_files_mode_for(1000, &unix_peer), PEER_FILES_AS_DAEMON);
    assert_int_equal(peer_files_mode_for(1001, &unix_peer), PEER_FILES_DIRS_ONLY);
    unix_peer.uid = 0;
    assert_int_equal(peer_files_mode_for(1001, &unix_peer), PEER_FILES_AS_DAEMON);
    assert_int_equal(peer_files_mode_for(0, &tcp_peer), PEER_FILES_DIRS_ONLY);
    unix_peer.has_creds = 0;
    assert_int_equal(peer_files_mode_for(0, &unix_peer), PEER_FILES_DIRS_ONLY);
}

int main(void)
{
    test_rng_init("test_server_files");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_as_root_client),
        cmocka_unit_test(test_as_other_user),
        cmocka_unit_test(test_tcp_and_input_dirs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
