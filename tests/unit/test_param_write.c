/*
 * test_param_write.c — a key written as Filecoin ships it (cuzk_param_files_write,
 * cuzk_groth16_pk_stream_bellperson) and the digest checked behind a serving key
 * (cuzk_param_file_check_start), on dev-setup keys of a random mixed circuit made from a
 * seed, in a fresh temporary directory:
 *   stream       the streamed bytes equal cuzk_groth16_pk_to_bellperson's, for blocks of
 *                one G2 point, an odd size and the default; a block under one G2 point is
 *                INVALID_ARG; the sink's error stops the stream and is returned;
 *   roundtrip    the written .params loads with CUZK_PARAMS_CHECKED and is the key of the
 *                seed (byte for byte the dev key cuzk_groth16_setup_dev_ex makes again from
 *                the same seed; another seed's differs); the .vk is the .params' vk block;
 *                parameters.json's entries carry the files' real digests (first 32 hex of
 *                BLAKE2b-512), the sector size, and keep an entry that was already there;
 *                cuzk_param_file_check accepts both files;
 *   background   the check on its own thread: MATCHED for the written file; a changed
 *                point (another valid point: decoding cannot see it) gives FORMAT naming
 *                both digests, and a CUZK_PARAM_CACHED_ONLY check then fails at once from
 *                the remembered digest; a file not hashed yet is NOT_HASHED under
 *                CACHED_ONLY.
 * Single-threaded except the setup's pool and the background check's thread.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/param_digest.h"
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

#define BASE "v28-stacked-proof-of-replication-test"

static char g_dir[64];
static cuzk_pool *g_pool;
static tc_circuit g_c;
static uint8_t g_seed[32];

static void key_of_seed(cuzk_groth16_pk *pk, const uint8_t seed[32])
{
    assert_int_equal(cuzk_groth16_setup_dev_ex(pk, NULL, g_c.r1cs, CUZK_GROTH16_BELLPERSON, seed,
                                               g_pool, NULL, NULL),
                     CUZK_OK);
}

static uint8_t *bytes_of(const cuzk_groth16_pk *pk, size_t *len)
{
    *len = cuzk_groth16_pk_bellperson_size(pk);
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    assert_int_equal(cuzk_groth16_pk_to_bellperson(b, *len, pk, NULL), CUZK_OK);
    return b;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len ? *len : 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static int setup(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/cuzk-paramwrite-XXXXXX");
    if (!mkdtemp(g_dir) || cuzk_pool_create(&g_pool, 2) != CUZK_OK ||
        tc_mixed(&g_c, 2, 4, 3 + test_rng_u64() % 4, test_rng_u64()) != 0)
        return -1;
    for (int i = 0; i < 32; i++)
        g_seed[i] = (uint8_t)test_rng_u64();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    tc_free(&g_c);
    cuzk_pool_destroy(g_pool);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- stream ---- */

typedef struct sink {
    uint8_t *buf;
    size_t len, cap, calls, fail_at;
} sink;

static cuzk_status sink_out(void *ctx, const uint8_t *p, size_t n, cuzk_error *err)
{
    sink *s = ctx;
    if (++s->calls == s->fail_at)
        return cuzk_error_set(err, CUZK_ERR_IO, "sink full");
    assert_true(s->len + n <= s->cap);
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return CUZK_OK;
}

static void test_stream(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    key_of_seed(&pk, g_seed);
    size_t len;
    uint8_t *want = bytes_of(&pk, &len);
    const size_t blocks[] = {CUZK_G2_UNCOMPRESSED_BYTES, 1000, 0};
    for (size_t b = 0; b < 3; b++) {
        sink s = {malloc(len), 0, len, 0, 0};
        assert_int_equal(cuzk_groth16_pk_stream_bellperson(&pk, blocks[b], sink_out, &s,
                                                           b == 1 ? NULL : g_pool, NULL),
                         CUZK_OK);
        assert_int_equal(s.len, len);
        assert_memory_equal(s.buf, want, len);
        if (b == 0) { /* many blocks: fail part-way, the sink's error comes back */
            size_t calls = s.calls;
            assert_true(calls > 6);
            sink f = {s.buf, 0, len, 0, calls / 2};
            cuzk_error err = {0};
            assert_int_equal(cuzk_groth16_pk_stream_bellperson(&pk, blocks[b], sink_out, &f,
                                                               g_pool, &err),
                             CUZK_ERR_IO);
            assert_non_null(strstr(err.msg, "sink full"));
            assert_int_equal(f.calls, calls / 2);
        }
        free(s.buf);
    }
    sink s = {NULL, 0, 0, 0, 0};
    assert_int_equal(cuzk_groth16_pk_stream_bellperson(&pk, CUZK_G2_UNCOMPRESSED_BYTES - 1,
                                                       sink_out, &s, g_pool, NULL),
                     CUZK_ERR_INVALID_ARG);
    free(want);
    cuzk_groth16_pk_free(&pk);
}

/* ---- roundtrip ---- */

static void entry_digest(json_t *root, const char *name, char out[33], json_int_t *size)
{
    json_t *e = json_object_get(root, name);
    assert_non_null(e);
    assert_true(json_is_string(json_object_get(e, "cid")));
    const char *d = json_string_value(json_object_get(e, "digest"));
    assert_non_null(d);
    assert_int_equal(strlen(d), 32);
    strcpy(out, d);
    *size = json_integer_value(json_object_get(e, "sector_size"));
}

static void test_roundtrip(void **state)
{
    (void)state;
    char manifest[256], params[256], vk[256];
    snprintf(manifest, sizeof manifest, "%s/%s", g_dir, CUZK_PARAM_MANIFEST);
    snprintf(params, sizeof params, "%s/" BASE ".params", g_dir);
    snprintf(vk, sizeof vk, "%s/" BASE ".vk", g_dir);
    /* an entry already there is kept */
    FILE *f = fopen(manifest, "w");
    assert_non_null(f);
    fprintf(f, "{\"other.vk\": {\"cid\": \"QmX\", \"digest\": \"%032d\", \"sector_size\": 1}}\n", 0);
    fclose(f);

    cuzk_groth16_pk pk;
    key_of_seed(&pk, g_seed);
    cuzk_param_written w;
    assert_int_equal(cuzk_param_files_write(&pk, g_dir, BASE, 34359738368ull, g_pool, &w, NULL),
                     CUZK_OK);
    size_t len, flen, vlen;
    uint8_t *want = bytes_of(&pk, &len);
    cuzk_groth16_pk_free(&pk);
    uint8_t *got = slurp(params, &flen);
    assert_int_equal(flen, len);
    assert_int_equal(w.params_bytes, len);
    assert_memory_equal(got, want, len);
    uint8_t *gv = slurp(vk, &vlen);
    assert_int_equal(w.vk_bytes, vlen);
    assert_memory_equal(gv, want, vlen);
    assert_int_equal(cuzk_param_vk_matches(got, flen, params, vk, NULL), CUZK_OK);

    /* loads fully checked, and is the seed's key: made again, the same bytes */
    cuzk_groth16_pk back;
    assert_int_equal(cuzk_groth16_pk_load_bellperson(&back, params, CUZK_PARAMS_CHECKED, g_pool,
                                                     NULL),
                     CUZK_OK);
    size_t blen;
    uint8_t *bb = bytes_of(&back, &blen);
    assert_int_equal(blen, len);
    assert_memory_equal(bb, want, len);
    cuzk_groth16_pk_free(&back);
    free(bb);
    key_of_seed(&pk, g_seed);
    bb = bytes_of(&pk, &blen);
    assert_memory_equal(bb, want, len);
    cuzk_groth16_pk_free(&pk);
    free(bb);
    uint8_t other[32];
    memcpy(other, g_seed, 32);
    other[0] ^= 1;
    key_of_seed(&pk, other);
    bb = bytes_of(&pk, &blen);
    assert_true(blen != len || memcmp(bb, want, len) != 0);
    cuzk_groth16_pk_free(&pk);
    free(bb);

    /* the manifest: real digests, the sector size, the old entry kept */
    json_t *root = json_load_file(manifest, JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(root);
    assert_non_null(json_object_get(root, "other.vk"));
    char d[33], hex[129];
    json_int_t sz;
    entry_digest(root, BASE ".params", d, &sz);
    assert_int_equal(sz, 34359738368ll);
    assert_int_equal(cuzk_param_file_blake2b(params, hex, NULL, NULL), CUZK_OK);
    assert_memory_equal(d, hex, 32);
    assert_string_equal(d, w.params_digest);
    entry_digest(root, BASE ".vk", d, &sz);
    assert_int_equal(cuzk_param_file_blake2b(vk, hex, NULL, NULL), CUZK_OK);
    assert_memory_equal(d, hex, 32);
    json_decref(root);
    cuzk_param_check pc;
    assert_int_equal(cuzk_param_file_check(params, CUZK_PARAM_NO_CACHE, &pc, NULL), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED);
    assert_int_equal(cuzk_param_file_check(vk, CUZK_PARAM_NO_CACHE, &pc, NULL), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED);
    free(want);
    free(got);
    free(gv);
}

/* ---- background ---- */

typedef struct done_rec {
    pthread_mutex_t mu;
    int calls;
    cuzk_status st;
    cuzk_param_check pc;
    char msg[CUZK_ERROR_MSG_MAX];
} done_rec;

static void on_done(void *ctx, cuzk_status st, const cuzk_param_check *pc, const cuzk_error *err)
{
    done_rec *r = ctx;
    pthread_mutex_lock(&r->mu);
    r->calls++;
    r->st = st;
    r->pc = *pc;
    snprintf(r->msg, sizeof r->msg, "%s", st == CUZK_OK ? "" : err->msg);
    pthread_mutex_unlock(&r->mu);
}

static void run_bg(const char *path, done_rec *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    cuzk_param_bgcheck *b = NULL;
    assert_int_equal(cuzk_param_file_check_start(path, 0, on_done, r, &b, NULL), CUZK_OK);
    cuzk_param_file_check_join(b, false);
    assert_int_equal(r->calls, 1);
    pthread_mutex_destroy(&r->mu);
}

static void test_background(void **state)
{
    (void)state;
    char params[256];
    snprintf(params, sizeof params, "%s/" BASE ".params", g_dir);
    cuzk_groth16_pk pk;
    key_of_seed(&pk, g_seed);
    cuzk_param_written w;
    assert_int_equal(cuzk_param_files_write(&pk, g_dir, BASE, 2048, g_pool, &w, NULL), CUZK_OK);
    size_t vk_len = cuzk_groth16_vk_bellperson_size(&pk.vk);
    size_t n_h = pk.n_h;
    cuzk_groth16_pk_free(&pk);
    cuzk_param_check pc;
    /* rewritten: a new inode, no digest remembered for it yet */
    assert_int_equal(cuzk_param_file_check(params, CUZK_PARAM_CACHED_ONLY, &pc, NULL), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_NOT_HASHED);
    done_rec r;
    run_bg(params, &r);
    assert_int_equal(r.st, CUZK_OK);
    assert_int_equal(r.pc.verdict, CUZK_PARAM_MATCHED);
    assert_int_equal(cuzk_param_file_check(params, CUZK_PARAM_CACHED_ONLY, &pc, NULL), CUZK_OK);
    assert_int_equal(pc.verdict, CUZK_PARAM_MATCHED_CACHED);

    /* h[0] and h[1] swapped: both valid points, the key still decodes, the digest differs */
    size_t len;
    uint8_t *b = slurp(params, &len);
    assert_true(n_h >= 2);
    uint8_t tmp[96], *h0 = b + vk_len + 4;
    memcpy(tmp, h0, 96);
    memcpy(h0, h0 + 96, 96);
    memcpy(h0 + 96, tmp, 96);
    char tmpf[300];
    snprintf(tmpf, sizeof tmpf, "%s.new", params);
    FILE *f = fopen(tmpf, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    fclose(f);
    assert_int_equal(rename(tmpf, params), 0);
    cuzk_groth16_pk bad;
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&bad, b, len, CUZK_PARAMS_CHECKED, g_pool,
                                                     NULL),
                     CUZK_OK);
    cuzk_groth16_pk_free(&bad);
    free(b);
    run_bg(params, &r);
    assert_int_equal(r.st, CUZK_ERR_FORMAT);
    char want[128];
    snprintf(want, sizeof want, "parameters.json expects %s", w.params_digest);
    assert_non_null(strstr(r.msg, want));
    cuzk_error err = {0};
    assert_int_equal(cuzk_param_file_check(params, CUZK_PARAM_CACHED_ONLY, &pc, &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, want));
    assert_int_equal(pc.bytes_hashed, 0);
}

int main(void)
{
    test_rng_init("test_param_write");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_background),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
