/*
 * test_server_files.c — files a client names (peer_files.h): a root daemon reads any file,
 * so a GROTH16 path or a PreloadSRS "zkey:<path>" is accepted only when the client could
 * read the file itself. As root (this process), then as another user (a child process
 * that drops to nobody, when the test runs as root): a file only root may read is refused
 * with exactly the message of a missing file; a world-readable file and one readable
 * through a supplementary group are accepted; a relative path, a directory and a FIFO are
 * refused (the FIFO without hanging). Over TCP no file may be named unless input
 * directories are configured, and then only under them (a symlink leading out is
 * refused). The engine receives the canonical path and a descriptor of the file that was
 * checked. Every refusal is logged.
 *
 * The open itself runs as the client (peer_files_open, with a hook standing where a racing
 * client would act, between resolving the path and opening it): it sees the client's
 * fsuid/fsgid; a file swapped for a symlink to a root-only file there is refused, as is a
 * directory swapped for a symlink leading out of the input directories (the walk follows
 * nothing); and the daemon's identity is back after every refusal.
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
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
    /* and the descriptor of the file that was checked: the engine reads through it */
    fake_engine_last_wtns_head(h.engine, got, sizeof got);
    assert_string_equal(got, "not really a witness\n");
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
    /* the engine loads the key through the descriptor opened as the client, not the path */
    fake_engine_last_key_head(h.engine, got, sizeof got);
    assert_string_equal(got, "not really a witness\n");
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

/* ---- the open, as the client, against a racing client ------------------------------- */

static uid_t g_hook_fsuid, g_hook_fsgid;
static int g_hook_calls;
static char g_swap_from[400], g_swap_to[400];

static uid_t fsuid_now(void) { return (uid_t)syscall(SYS_setfsuid, (uid_t)-1); }
static gid_t fsgid_now(void) { return (gid_t)syscall(SYS_setfsgid, (gid_t)-1); }

/* Records the identity the open is about to run with. */
static void hook_record(const char *canon)
{
    (void)canon;
    g_hook_fsuid = fsuid_now();
    g_hook_fsgid = fsgid_now();
    g_hook_calls++;
}

/* The racing client: after the daemon resolved the path, g_swap_from becomes a symlink to
 * g_swap_to (done with the identity the open runs with: the client's own rights on its
 * own directory). */
static void hook_swap(const char *canon)
{
    (void)canon;
    hook_record(canon);
    char moved[420];
    snprintf(moved, sizeof moved, "%s.moved", g_swap_from);
    if (rename(g_swap_from, moved) != 0 || symlink(g_swap_to, g_swap_from) != 0)
        g_hook_calls = -1000; /* the race was not staged: fail below */
}

static char *put_at(const char *dir, const char *name, const char *text, mode_t mode)
{
    static char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(p, mode), 0);
    return p;
}

static void read_fd(int fd, char *out, size_t n)
{
    ssize_t got = pread(fd, out, n - 1, 0);
    out[got > 0 ? got : 0] = 0;
}

static void test_open_as_caller(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* taking another user's identity needs root */
    peer_files pf;
    assert_int_equal(peer_files_init(&pf, NULL, NULL), CUZK_OK);
    gid_t groups[1] = {FILE_GROUP};
    rpc_peer nobody = {.is_unix = 1, .has_creds = 1, .uid = NOBODY, .gid = NOBODY,
                       .groups = groups, .ngroups = 1};
    rpc_peer root = {.is_unix = 1, .has_creds = 1, .uid = 0, .gid = 0};
    char p[160], text[64], *canon = NULL;
    int fd = -1;
    cuzk_error e = {0};

    /* the open runs with the client's fsuid and fsgid: a root-only file is refused to
     * nobody (the kernel's decision at the open), accepted for root */
    peer_files_hook_before_open = hook_record;
    g_hook_calls = 0;
    snprintf(p, sizeof p, "%s/secret.bin", g_dir);
    assert_int_equal(peer_files_open(&pf, &nobody, "wtns_path", p, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(g_hook_calls, 1);
    assert_int_equal(g_hook_fsuid, NOBODY);
    assert_int_equal(g_hook_fsgid, NOBODY);
    assert_int_equal(fd, -1);
    assert_null(canon);
    /* restored after the refusal: this thread is root again, and opens as root */
    assert_int_equal(fsuid_now(), 0);
    assert_int_equal(fsgid_now(), 0);
    assert_int_equal(peer_files_open(&pf, &root, "wtns_path", p, &canon, &fd, &e), CUZK_OK);
    assert_int_equal(g_hook_fsuid, 0);
    read_fd(fd, text, sizeof text);
    assert_string_equal(text, "not really a witness\n");
    close(fd);
    free(canon);
    /* a supplementary group of the client counts at the open */
    snprintf(p, sizeof p, "%s/grouped.bin", g_dir);
    assert_int_equal(peer_files_open(&pf, &nobody, "wtns_path", p, &canon, &fd, &e), CUZK_OK);
    close(fd);
    free(canon);
    assert_int_equal(fsuid_now(), 0);

    /* the race: nobody's own file becomes a symlink to the root-only file between the
     * resolution and the open. Refused (the open is nobody's, and follows no symlink). */
    char race[160];
    snprintf(race, sizeof race, "%s/race", g_dir);
    assert_int_equal(mkdir(race, 0755), 0);
    assert_int_equal(chown(race, NOBODY, NOBODY), 0);
    snprintf(g_swap_from, sizeof g_swap_from, "%s", put_at(race, "w.bin", "nobody's\n", 0644));
    assert_int_equal(chown(g_swap_from, NOBODY, NOBODY), 0);
    snprintf(g_swap_to, sizeof g_swap_to, "%s/secret.bin", g_dir);
    peer_files_hook_before_open = hook_swap;
    g_hook_calls = 0;
    assert_int_equal(peer_files_open(&pf, &nobody, "wtns_path", g_swap_from, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(g_hook_calls, 1);
    assert_int_equal(fd, -1);
    assert_int_equal(fsuid_now(), 0);
    /* a FIFO and a directory are still refused, without blocking */
    peer_files_hook_before_open = NULL;
    snprintf(p, sizeof p, "%s/fifo", g_dir);
    assert_int_equal(peer_files_open(&pf, &nobody, "wtns_path", p, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(peer_files_open(&pf, &root, "wtns_path", p, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(peer_files_open(&pf, &root, "wtns_path", g_dir, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(fsuid_now(), 0);
    peer_files_fini(&pf);

    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", race);
    assert_int_equal(system(cmd), 0);
}

/* A directory on the checked path swapped for a symlink leading out of the input
 * directories after the check: the walk follows nothing, so the file outside is not
 * opened (a plain open of the checked path would follow the directory symlink). */
static void test_dir_swap_out_of_input_dirs(void **state)
{
    (void)state;
    char in[160], sub[160], out[160], p[200];
    snprintf(in, sizeof in, "%s/in", g_dir);
    snprintf(sub, sizeof sub, "%s/in/d", g_dir);
    snprintf(out, sizeof out, "%s/outside", g_dir);
    assert_int_equal(mkdir(in, 0755), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(mkdir(out, 0755), 0);
    put_at(sub, "w.bin", "inside\n", 0644);
    put_at(out, "w.bin", "outside\n", 0644);
    peer_files pf;
    assert_int_equal(peer_files_init(&pf, in, NULL), CUZK_OK);
    rpc_peer tcp = {.is_unix = 0};
    snprintf(p, sizeof p, "%s/w.bin", sub);
    char *canon = NULL, text[64];
    int fd = -1;
    cuzk_error e = {0};
    /* unraced: accepted, the descriptor is the file inside */
    peer_files_hook_before_open = hook_record;
    assert_int_equal(peer_files_open(&pf, &tcp, "wtns_path", p, &canon, &fd, &e), CUZK_OK);
    read_fd(fd, text, sizeof text);
    assert_string_equal(text, "inside\n");
    assert_string_equal(canon, p);
    close(fd);
    free(canon);
    /* raced: in/d becomes a symlink to outside/ after the path was checked */
    snprintf(g_swap_from, sizeof g_swap_from, "%s", sub);
    snprintf(g_swap_to, sizeof g_swap_to, "%s", out);
    peer_files_hook_before_open = hook_swap;
    g_hook_calls = 0;
    assert_int_equal(peer_files_open(&pf, &tcp, "wtns_path", p, &canon, &fd, &e),
                     CUZK_ERR_NOT_FOUND);
    assert_int_equal(g_hook_calls, 1);
    assert_non_null(strstr(e.msg, "under daemon.input_dirs"));
    assert_int_equal(fd, -1);
    peer_files_hook_before_open = NULL;
    peer_files_fini(&pf);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", in, out);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    test_rng_init("test_server_files");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_as_root_client),
        cmocka_unit_test(test_as_other_user),
        cmocka_unit_test(test_tcp_and_input_dirs),
        cmocka_unit_test(test_open_as_caller),
        cmocka_unit_test(test_dir_swap_out_of_input_dirs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
