/*
 * test_param_digest.c — Filecoin parameter files against parameters.json
 * (cuzk/param_digest.h), on small dev-setup .params/.vk of a random mixed circuit in a
 * fresh temporary directory:
 *   blake2b      the streamed BLAKE2b-512 of a file equals RFC 7693's "abc" vector, and of
 *                a multi-chunk random file the one-shot OpenSSL digest;
 *   match        a manifest entry with the file's digest (first 32 hex) is accepted, then
 *                remembered (a second check is MATCHED_CACHED, the sidecar is written and
 *                is taken by a check that skips the in-process table);
 *   mismatch     one flipped byte (a new file under the name): FORMAT naming the file, the
 *                expected and the actual digest; a file changed in place under its old
 *                mtime is hashed again (ctime moved) and caught; a forged sidecar line is
 *                not taken for another key;
 *   entries      a manifest without the file's entry: NOT_FOUND naming both; no manifest:
 *                OK, NO_MANIFEST; a manifest that is not an object, or a digest that is
 *                not 32 hex characters: FORMAT; an unreadable file: IO;
 *   vk           the .vk of the .params matches its prefix; another setup's .vk, a cut .vk
 *                and a .params cut inside its key do not;
 *   names        cuzk_porep_param_base of each size, NULL for others.
 * Single-threaded except the setup's pool.
 */
#define _GNU_SOURCE /* mkdtemp, utimensat, CLOCK_REALTIME_COARSE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <openssl/evp.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/param_digest.h"
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

static char g_dir[64];
static char g_params[256], g_vk[256], g_manifest[256];
static uint8_t *g_bytes; /* the .params */
static size_t g_len;

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

static void put(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A new inode under path (a temporary renamed over it), as a download replacing it. */
static void replace(const char *path, const void *b, size_t n)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    put(tmp, b, n);
    assert_int_equal(rename(tmp, path), 0);
}

static void digest32(const char *path, char out[33])
{
    char hex[129];
    assert_int_equal(cuzk_param_file_blake2b(path, hex, NULL, NULL), CUZK_OK);
    memcpy(out, hex, 32);
    out[32] = 0;
}

/* parameters.json with entries name -> digest (a cid and sector_size as Filecoin's). */
static void manifest(const char *n1, const char *d1, const char *n2, const char *d2)
{
    FILE *f = fopen(g_manifest, "w");
    assert_non_null(f);
    fprintf(f, "{\n  \"%s\": {\n    \"cid\": \"QmTest1\",\n    \"digest\": \"%s\",\n"
               "    \"sector_size\": 2048\n  }",
            n1, d1);
    if (n2)
        fprintf(f, ",\n  \"%s\": {\"cid\": \"QmTest2\", \"digest\": \"%s\", \"sector_size\": 2048}",
                n2, d2);
    fprintf(f, "\n}\n");
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/cuzk-paramdigest-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    path_in(g_params, sizeof g_params, "v28-test-circuit.params");
    path_in(g_vk, sizeof g_vk, "v28-test-circuit.vk");
    path_in(g_manifest, sizeof g_manifest, CUZK_PARAM_MANIFEST);
    cuzk_pool *pool = NULL;
    tc_circuit c;
    cuzk_groth16_pk pk;
    if (cuzk_pool_create(&pool, 2) != CUZK_OK ||
        tc_mixed(&c, 2, 4, 3 + test_rng_u64() % 4, test_rng_u64()) != 0 ||
        cuzk_groth16_setup_dev(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON, NULL, pool, NULL) !=
            CUZK_OK)
        return -1;
    g_len = cuzk_groth16_pk_bellperson_size(&pk);
    g_bytes = malloc(g_len);
    if (!g_bytes || cuzk_groth16_pk_to_bellperson(g_bytes, g_len, &pk, NULL) != CUZK_OK ||
        cuzk_groth16_pk_save_bellperson(&pk, g_params, NULL) != CUZK_OK ||
        cuzk_groth16_vk_save_bellperson(&pk.vk, g_vk, NULL) != CUZK_OK)
        return -1;
    cuzk_groth16_pk_free(&pk);
    tc_free(&c);
    cuzk_pool_destroy(pool);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    free(g_bytes);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_blake2b(void **state)
{
    (void)state;
    char path[256], hex[129];
    uint64_t n = 0;
    path_in(path, sizeof path, "abc");
    put(path, "abc", 3);
    assert_int_equal(cuzk_param_file_blake2b(path, hex, &n, NULL), CUZK_OK);
    assert_int_equal(n, 3);
    assert_string_equal(hex, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                             "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    /* more than one 4 MiB read, an odd length */
    size_t len = (9u << 20) + 1 + test_rng_u64() % 4096;
    uint8_t *b = malloc(len);
    assert_non_null(b);
    test_rng_bytes(b, len);
    put(path, b, len);
    uint8_t md[64];
    unsigned mdlen = 0;
    assert_int_equal(EVP_Digest(b, len, md, &mdlen, EVP_blake2b512(), NULL), 1);
    char want[129];
    for (int i = 0; i < 64; i++)
        snprintf(want + 2 * i, 3, "%02x", md[i]);
    assert_int_equal(cuzk_param_file_blake2b(path, hex, &n, NULL), CUZK_OK);
    assert_int_equal(n, len);
    assert_string_equal(hex, want);
    free(b);
    unlink(path);
    cuzk_error e = {0};
    assert_int_equal(cuzk_param_file_blake2b(path, hex, NULL, &e), CUZK_ERR_IO);
    assert_non_null(strstr(e.msg, path));
}

static void test_match(void **state)
{
    (void)state;
    char d[33];
    digest32(g_params, d);
    manifest("v28-test-circuit.params", d, NULL, NULL);
    cuzk_param_check pc;
    cuzk_error e = {0};
    assert_int_equal(cuzk_param_file_check(g_params, CUZK_PARAM_NO_CACHE, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED);
    assert_string_equal(pc.expected, d);
    assert_string_equal(pc.actual, d);
    assert_int_equal(pc.bytes_hashed, g_len);
    if (geteuid() != 0)
        assert_true(pc.cache_written);
    /* remembered: in this process, and on disk for the next one */
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED_CACHED);
    assert_int_equal(pc.bytes_hashed, 0);
    char side[300];
    path_in(side, sizeof side, ".v28-test-circuit.params.cuzk-digest");
    struct stat sb;
    assert_int_equal(stat(side, &sb), 0);
    assert_int_equal(cuzk_param_file_check(g_params, CUZK_PARAM_NO_MEMO, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED_CACHED);
    /* a torn sidecar is not taken */
    char *txt = NULL;
    size_t tl = 0;
    assert_int_equal(cuzk_file_read_text(&txt, &tl, side, 4096, NULL), CUZK_OK);
    put(side, txt, tl - 5);
    assert_int_equal(cuzk_param_file_check(g_params, CUZK_PARAM_NO_MEMO, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED);
    free(txt);
    /* the manifest's other entry is no business of this file */
    manifest("v28-other.vk", "00000000000000000000000000000000", "v28-test-circuit.params", d);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);
}

/* Waits until the coarse clock (the one file times come from) has moved on. */
static void next_tick(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_REALTIME_COARSE, &a);
    do {
        usleep(1000);
        clock_gettime(CLOCK_REALTIME_COARSE, &b);
    } while (a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec);
}

static void test_mismatch(void **state)
{
    (void)state;
    put(g_params, g_bytes, g_len);
    char d[33];
    digest32(g_params, d);
    manifest("v28-test-circuit.params", d, NULL, NULL);
    cuzk_param_check pc;
    cuzk_error e = {0};
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);

    /* one byte flipped, as a fresh download would replace the file */
    uint8_t *bad = malloc(g_len);
    memcpy(bad, g_bytes, g_len);
    size_t at = test_rng_u64() % g_len;
    bad[at] ^= (uint8_t)(1u << (test_rng_u64() % 8));
    replace(g_params, bad, g_len);
    char actual[33];
    digest32(g_params, actual);
    assert_string_not_equal(actual, d);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_FORMAT);
    char msg[200];
    snprintf(msg, sizeof msg, "v28-test-circuit.params: digest %s, parameters.json expects %s",
             actual, d);
    assert_non_null(strstr(e.msg, msg));
    assert_non_null(strstr(e.msg, g_dir));
    assert_string_equal(pc.actual, actual);

    /* back to the good bytes (accepted, remembered), then changed in place with the old
     * mtime put back: ctime moved, so the remembered digest is not used */
    replace(g_params, g_bytes, g_len);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED_CACHED);
    struct stat sb;
    assert_int_equal(stat(g_params, &sb), 0);
    next_tick();
    FILE *f = fopen(g_params, "r+b");
    assert_non_null(f);
    fseek(f, (long)at, SEEK_SET);
    fputc(bad[at], f);
    fclose(f);
    struct timespec ts[2] = {sb.st_atim, sb.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, g_params, ts, 0), 0);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_FORMAT);
    assert_string_equal(pc.actual, actual);
    free(bad);
    put(g_params, g_bytes, g_len);
}

static void test_entries(void **state)
{
    (void)state;
    put(g_params, g_bytes, g_len);
    cuzk_param_check pc;
    cuzk_error e = {0};
    char d[33];
    digest32(g_params, d);
    /* the manifest knows other files only */
    manifest("v28-other.params", d, NULL, NULL);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_NOT_FOUND);
    assert_non_null(strstr(e.msg, "v28-test-circuit.params: the parameters.json beside it has "
                                  "no entry"));
    assert_non_null(strstr(e.msg, g_manifest));
    /* an entry whose digest is not 32 lower-case hex characters */
    manifest("v28-test-circuit.params", "ABCDEF", NULL, NULL);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "\"digest\""));
    /* not an object; not JSON */
    put(g_manifest, "[1, 2]", 6);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_FORMAT);
    put(g_manifest, "{\"a\": ", 6);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, CUZK_PARAM_MANIFEST));
    /* a listed file that is missing */
    manifest("v28-gone.params", d, NULL, NULL);
    char gone[256];
    path_in(gone, sizeof gone, "v28-gone.params");
    assert_int_equal(cuzk_param_file_check(gone, 0, &pc, &e), CUZK_ERR_IO);
    /* no manifest: not checked, and said so */
    unlink(g_manifest);
    assert_int_equal(cuzk_param_file_check(g_params, 0, &pc, &e), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_NO_MANIFEST);
    assert_non_null(strstr(pc.reason, CUZK_PARAM_MANIFEST));
    assert_string_equal(pc.actual, "");
    assert_int_equal(cuzk_param_file_check(NULL, 0, &pc, &e), CUZK_ERR_INVALID_ARG);
}

static void test_vk(void **state)
{
    (void)state;
    cuzk_error e = {0};
    assert_int_equal(cuzk_param_vk_matches(g_bytes, g_len, g_params, g_vk, &e), CUZK_OK);
    /* a .params cut inside its key */
    assert_int_equal(cuzk_param_vk_matches(g_bytes, CUZK_BELLPERSON_VK_FIXED_BYTES + 100,
                                           g_params, g_vk, &e),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "ends inside its verifying key"));
    /* another vk of the same size (one point byte changed): the byte is named */
    char *vk = NULL;
    size_t n = 0;
    assert_int_equal(cuzk_file_read_text(&vk, &n, g_vk, 1u << 20, NULL), CUZK_OK);
    char other[256];
    path_in(other, sizeof other, "other.vk");
    size_t at = test_rng_u64() % n;
    vk[at] ^= 1;
    put(other, vk, n);
    assert_int_equal(cuzk_param_vk_matches(g_bytes, g_len, g_params, other, &e),
                     CUZK_ERR_FORMAT);
    char want[64];
    snprintf(want, sizeof want, "differ at byte %zu", at);
    assert_non_null(strstr(e.msg, want));
    assert_non_null(strstr(e.msg, "other.vk: not the verifying key"));
    /* a cut .vk */
    vk[at] ^= 1;
    put(other, vk, n - 96);
    assert_int_equal(cuzk_param_vk_matches(g_bytes, g_len, g_params, other, &e),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "not the verifying key"));
    unlink(other);
    assert_int_equal(cuzk_param_vk_matches(g_bytes, g_len, g_params, other, &e), CUZK_ERR_IO);
    free(vk);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(cuzk_porep_param_base(2048),
                        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                        "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b37"
                        "93b06832f");
    assert_non_null(strstr(cuzk_porep_param_base(32ull << 30), "-8-8-0-sha256_hasher-82a357d2"));
    assert_non_null(strstr(cuzk_porep_param_base(64ull << 30), "-8-8-2-sha256_hasher-96f1b4a0"));
    assert_non_null(cuzk_porep_param_base(8ull << 20));
    assert_non_null(cuzk_porep_param_base(512ull << 20));
    assert_null(cuzk_porep_param_base(4096));
}

int main(void)
{
    test_rng_init("test_param_digest");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blake2b), cmocka_unit_test(test_match),
        cmocka_unit_test(test_mismatch), cmocka_unit_test(test_entries),
        cmocka_unit_test(test_vk),       cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
