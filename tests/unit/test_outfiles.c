/*
 * test_outfiles.c — cuzk_outfiles (cuzk/outfiles.h): outputs that alias an input or each
 * other (same name, other spellings, hard and symbolic links) are refused; nothing reaches
 * a destination before commit; a failed write (RLIMIT_FSIZE, SIGXFSZ ignored) or a set
 * destroyed without commit leaves the old files byte-identical and no temporaries; commit
 * replaces every file, keeps an existing file's mode and writes through a symlink.
 * Runs in a fresh directory under /tmp (random name from the test RNG, seed printed).
 * Threading: single-threaded.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, link, setrlimit */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/outfiles.h"
#include "test_rng.h"

static char g_dir[64];

static void put_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* The file's content, or "<absent>". */
static const char *content(const char *name)
{
    static char buf[4096];
    FILE *f = fopen(name, "rb");
    if (!f)
        return "<absent>";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* Files in the directory whose name starts with '.' (the temporaries), . and .. aside. */
static int count_hidden(void)
{
    DIR *d = opendir(".");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-outfiles-%016llx-XXXXXX",
             (unsigned long long)test_rng_u64());
    assert_non_null(mkdtemp(g_dir));
    assert_int_equal(chdir(g_dir), 0);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(e->d_name);
    if (d)
        closedir(d);
    rmdir("sub");
    assert_int_equal(chdir("/"), 0);
    rmdir(g_dir);
    return 0;
}

/* A set with `in` declared as input; adding `out` must fail with want. */
static void expect_refused(const char *in, const char *out, const char *out2, cuzk_status want)
{
    cuzk_outfiles *s;
    cuzk_error e;
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    if (in)
        assert_int_equal(cuzk_outfiles_add_input(s, in, &e), CUZK_OK);
    cuzk_status st = cuzk_outfiles_add(s, out, NULL, &e);
    if (out2 && st == CUZK_OK)
        st = cuzk_outfiles_add(s, out2, NULL, &e);
    if (st != want)
        print_error("in %s, out %s, %s: got %d (%s)\n", in ? in : "-", out, out2 ? out2 : "-",
                    st, e.msg);
    assert_int_equal(st, want);
    cuzk_outfiles_destroy(s);
}

static void test_aliasing_refused(void **state)
{
    (void)state;
    put_file("in.bin", "input");
    put_file("old.json", "old");
    assert_int_equal(mkdir("sub", 0755), 0);
    assert_int_equal(link("in.bin", "hard.bin"), 0);
    assert_int_equal(symlink("in.bin", "soft.bin"), 0);
    assert_int_equal(symlink("nowhere/x", "dangling"), 0);
    char abs[256];
    snprintf(abs, sizeof abs, "%s/in.bin", g_dir);
    const char *same_as_in[] = {"in.bin", "./in.bin", "sub/../in.bin", "hard.bin", "soft.bin",
                                abs};
    for (size_t i = 0; i < sizeof same_as_in / sizeof *same_as_in; i++)
        expect_refused("in.bin", same_as_in[i], NULL, CUZK_ERR_INVALID_ARG);
    /* two outputs, existing and new, in several spellings */
    expect_refused(NULL, "old.json", "./old.json", CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "new.json", "new.json", CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "new.json", "sub/../new.json", CUZK_ERR_INVALID_ARG);
    /* not a place for a regular file */
    expect_refused(NULL, "sub", NULL, CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "sub/", NULL, CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "dangling", NULL, CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "/dev/null", NULL, CUZK_ERR_INVALID_ARG);
    expect_refused(NULL, "nodir/x.json", NULL, CUZK_ERR_IO);
    /* an input declared after the output is checked too */
    cuzk_outfiles *s;
    cuzk_error e;
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "new.json", NULL, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add_input(s, "./new.json", &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "new.json"));
    cuzk_outfiles_destroy(s);
    /* distinct files are fine */
    expect_refused("in.bin", "a.json", "sub/a.json", CUZK_OK);
    assert_string_equal(content("in.bin"), "input");
    assert_int_equal(count_hidden(), 0);
    assert_string_equal(content("a.json"), "<absent>");
}

static void test_commit_replaces_all(void **state)
{
    (void)state;
    put_file("p.json", "old proof");
    assert_int_equal(chmod("p.json", 0600), 0);
    put_file("target.vk", "old vk");
    assert_int_equal(symlink("target.vk", "link.vk"), 0);
    mode_t mask = umask(022);
    cuzk_outfiles *s;
    cuzk_error e;
    size_t ip, iq, iv;
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "p.json", &ip, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "q.json", &iq, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "link.vk", &iv, &e), CUZK_OK);
    assert_string_equal(cuzk_outfiles_path(s, iq), "q.json");
    char data[64];
    snprintf(data, sizeof data, "new %016llx", (unsigned long long)test_rng_u64());
    assert_int_equal(cuzk_outfiles_write(s, ip, "scratch that", 12, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, ip, data, strlen(data), &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, iq, "q", 1, &e), CUZK_OK);
    /* commit refuses while one output is unwritten, and then nothing is renamed */
    assert_int_equal(cuzk_outfiles_commit(s, &e), CUZK_ERR_INTERNAL);
    assert_string_equal(content("p.json"), "old proof");
    assert_string_equal(content("q.json"), "<absent>");
    assert_int_equal(count_hidden(), 0);
    cuzk_outfiles_destroy(s);

    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "p.json", &ip, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "q.json", &iq, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "link.vk", &iv, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, ip, data, strlen(data), &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, iq, "q", 1, &e), CUZK_OK);
    const char *tmp;
    assert_int_equal(cuzk_outfiles_temp_path(s, iv, &tmp, &e), CUZK_OK);
    FILE *f = fopen(tmp, "wb"); /* as a path writer does: truncate and rewrite */
    assert_non_null(f);
    fputs("new vk", f);
    assert_int_equal(fclose(f), 0);
    /* before commit, the destinations are untouched */
    assert_string_equal(content("p.json"), "old proof");
    assert_string_equal(content("q.json"), "<absent>");
    assert_int_equal(count_hidden(), 3);
    assert_int_equal(cuzk_outfiles_commit(s, &e), CUZK_OK);
    cuzk_outfiles_destroy(s);
    assert_string_equal(content("p.json"), data);
    assert_string_equal(content("q.json"), "q");
    assert_string_equal(content("target.vk"), "new vk");
    struct stat sb;
    assert_int_equal(lstat("link.vk", &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat("p.json", &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    assert_int_equal(stat("q.json", &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    assert_int_equal(count_hidden(), 0);
    umask(mask);
}

static void test_failures_leave_old_files(void **state)
{
    (void)state;
    put_file("a.params", "old params");
    put_file("a.vk", "old vk");
    cuzk_outfiles *s;
    cuzk_error e;
    size_t ia, iv;
    /* destroyed without commit (a later failure of the command) */
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "a.params", &ia, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "a.vk", &iv, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, ia, "new params", 10, &e), CUZK_OK);
    assert_int_equal(count_hidden(), 1);
    cuzk_outfiles_destroy(s);
    assert_string_equal(content("a.params"), "old params");
    assert_int_equal(count_hidden(), 0);

    /* the signal-safe cleanup */
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "a.params", &ia, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, ia, "x", 1, &e), CUZK_OK);
    cuzk_outfiles_unlink_temps(s);
    assert_int_equal(count_hidden(), 0);
    cuzk_outfiles_destroy(s);

    /* a file-size limit: the second write fails with EFBIG part way */
    static char big[8192];
    memset(big, 'z', sizeof big);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit old_lim, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_lim), 0);
    lim = old_lim;
    lim.rlim_cur = 4096;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    assert_int_equal(cuzk_outfiles_create(&s, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "a.vk", &iv, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_add(s, "a.params", &ia, &e), CUZK_OK);
    assert_int_equal(cuzk_outfiles_write(s, iv, "new vk", 6, &e), CUZK_OK);
    cuzk_status st = cuzk_outfiles_write(s, ia, big, sizeof big, &e);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_lim), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(st, CUZK_ERR_IO);
    assert_non_null(strstr(e.msg, "a.params"));
    assert_non_null(strstr(e.msg, "too large"));
    cuzk_outfiles_destroy(s);
    assert_string_equal(content("a.params"), "old params");
    assert_string_equal(content("a.vk"), "old vk");
    assert_int_equal(count_hidden(), 0);
}

int main(void)
{
    test_rng_init("outfiles");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_aliasing_refused, setup_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_commit_replaces_all, setup_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_failures_leave_old_files, setup_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
