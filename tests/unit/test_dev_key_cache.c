/*
 * test_dev_key_cache.c — cuzk_groth16_dev_key_cached (cuzk/formats.h) in a fresh temporary
 * directory on small circuits:
 *   first call makes the key (made = true) and writes NAME.dev.params + NAME.dev.params.info,
 *   the note carries the "NOT Filecoin's trusted setup" banner and the r1cs digest, and
 *   proofs made with the key verify; a second call loads the same key (made = false);
 *   another circuit, a changed coefficient of the same shape, a truncated or corrupted
 *   .params, and a missing or edited note each make a new key that fits; a name without
 *   ".dev.params", NULLs and an unwritable directory are errors that leave no files.
 * The SEED form (test_seed): a key stored as its seed note + .vk is made again from the
 *   seed at each load, byte-identical, with made = false; the note carries the banner,
 *   "SEED-ONLY" and the r1cs digest; AUTO picks SEED above the threshold (option or
 *   CUZK_DEV_KEY_SEED_ABOVE, a malformed one refused) and PARAMS below it, and making one
 *   form removes the other's files; a damaged seed (a hex digit, the check line, a
 *   truncated note), a note for another circuit and a missing note each make a new key;
 *   a damaged or missing .vk is rewritten for the same key (made = false); an intact note
 *   whose recorded verifying key is not the seed's (another setup version) gives the
 *   seed's key with made = true and the files rewritten. The digest is the same with and
 *   without a pool.
 * Cancel and unwritable (test_cancel_and_unwritable): the setup options' cancel flag, set
 *   at any progress line, ends the call with CUZK_ERR_CANCELLED and leaves no file in the
 *   directory, in both forms; a missing directory with save_err gives the key made once
 *   (save_err says IO), and without save_err fails with IO, leaving nothing.
 * Single-threaded except the setup's pool.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, truncate */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <openssl/evp.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

static char g_dir[64], g_path[128], g_note[160];

static bool exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* Takes the key from the cache; checks made, the fit and that a proof verifies. */
static void get(cuzk_groth16_pk *pk, const tc_circuit *c, bool want_made, cuzk_pool *pool)
{
    cuzk_groth16_vk vk;
    cuzk_error e = {0};
    bool made = !want_made;
    if (cuzk_groth16_dev_key_cached(pk, &vk, c->r1cs, g_path, pool, &made, &e) != CUZK_OK)
        fail_msg("cache: %s", e.msg);
    assert_int_equal(made, want_made);
    assert_true(cuzk_groth16_vk_eq(&pk->vk, &vk));
    assert_int_equal(cuzk_groth16_pk_check_circuit(pk, c->r1cs, &e), CUZK_OK);
    size_t sz = cuzk_groth16_prove_scratch_size(pk, c->r1cs, 1);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness w = cuzk_witness_dense(c->w, c->r1cs->n_vars);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_prove(&proof, pk, c->r1cs, &w, scratch, sz, NULL, &e), CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, c->w + 1, c->r1cs->n_public, &proof, &e), CUZK_OK);
    free(scratch);
    cuzk_groth16_vk_free(&vk);
}

static void test_cache(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/cuzk-devkey-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    snprintf(g_path, sizeof g_path, "%s/k.dev.params", g_dir);
    snprintf(g_note, sizeof g_note, "%s.info", g_path);
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    tc_circuit c1, c2;
    assert_int_equal(tc_mixed(&c1, 2, 5, 4, test_rng_u64()), 0);
    assert_int_equal(tc_mixed(&c2, 2, 5, 5, test_rng_u64()), 0);

    cuzk_groth16_pk a, b;
    get(&a, &c1, true, pool);
    assert_true(exists(g_path) && exists(g_note));
    char *note = NULL, hex[65];
    size_t len;
    cuzk_error e = {0};
    assert_int_equal(cuzk_file_read_text(&note, &len, g_note, 4096, &e), CUZK_OK);
    assert_non_null(strstr(note, "NOT Filecoin's trusted setup"));
    assert_int_equal(cuzk_r1cs_shape_digest(hex, c1.r1cs, &e), CUZK_OK);
    assert_non_null(strstr(note, hex));
    free(note);

    /* loaded, same key */
    get(&b, &c1, false, pool);
    assert_true(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&b);

    /* another circuit: remade */
    get(&b, &c2, true, pool);
    assert_false(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&b);
    get(&b, &c2, false, pool);
    cuzk_groth16_pk_free(&b);

    /* same shape, one coefficient changed: another digest, remade */
    char hex2[65];
    assert_int_equal(cuzk_r1cs_shape_digest(hex, c2.r1cs, &e), CUZK_OK);
    cuzk_fr_add(&c2.r1cs->m[CUZK_R1CS_A].coeff[0], &c2.r1cs->m[CUZK_R1CS_A].coeff[0],
                &CUZK_FR_ONE);
    assert_int_equal(cuzk_r1cs_shape_digest(hex2, c2.r1cs, &e), CUZK_OK);
    assert_string_not_equal(hex, hex2);
    cuzk_fr_sub(&c2.r1cs->m[CUZK_R1CS_A].coeff[0], &c2.r1cs->m[CUZK_R1CS_A].coeff[0],
                &CUZK_FR_ONE);
    assert_int_equal(cuzk_r1cs_shape_digest(hex2, c2.r1cs, &e), CUZK_OK);
    assert_string_equal(hex, hex2);

    /* back to c1 (remade), then damage the files: each damage remakes */
    cuzk_groth16_pk_free(&a);
    get(&a, &c1, true, pool);
    struct stat sb;
    assert_int_equal(stat(g_path, &sb), 0);
    assert_int_equal(truncate(g_path, sb.st_size - 1), 0);
    cuzk_groth16_pk_free(&a);
    get(&a, &c1, true, pool);
    /* a coordinate byte of the last point changed: same size, no longer on the curve */
    FILE *f = fopen(g_path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, -5, SEEK_END), 0);
    int ch = fgetc(f);
    assert_int_equal(fseek(f, -5, SEEK_END), 0);
    fputc(ch ^ 0x01, f);
    fclose(f);
    cuzk_groth16_pk_free(&a);
    get(&a, &c1, true, pool);
    get(&b, &c1, false, pool);
    assert_true(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&b);
    /* the note edited, or gone */
    f = fopen(g_note, "ab");
    assert_non_null(f);
    fputs("x", f);
    fclose(f);
    get(&b, &c1, true, pool);
    cuzk_groth16_pk_free(&b);
    assert_int_equal(unlink(g_note), 0);
    get(&b, &c1, true, pool);
    cuzk_groth16_pk_free(&b);
    get(&b, &c1, false, pool);
    cuzk_groth16_pk_free(&b);

    /* errors */
    cuzk_groth16_pk z;
    memset(&z, 0, sizeof z);
    char bad[160];
    snprintf(bad, sizeof bad, "%s/k.params", g_dir);
    assert_int_equal(cuzk_groth16_dev_key_cached(&z, NULL, c1.r1cs, bad, pool, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, ".dev.params"));
    assert_false(exists(bad));
    assert_int_equal(cuzk_groth16_dev_key_cached(NULL, NULL, c1.r1cs, g_path, pool, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_dev_key_cached(&z, NULL, NULL, g_path, pool, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_dev_key_cached(&z, NULL, c1.r1cs, NULL, pool, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    snprintf(bad, sizeof bad, "%s/missing/k.dev.params", g_dir);
    assert_int_equal(cuzk_groth16_dev_key_cached(&z, NULL, c1.r1cs, bad, pool, NULL, &e),
                     CUZK_ERR_IO);
    printf("unwritable cache: %s\n", e.msg);

    unlink(g_path);
    unlink(g_note);
    assert_int_equal(rmdir(g_dir), 0); /* nothing else was left behind */
    cuzk_groth16_pk_free(&a);
    tc_free(&c1);
    tc_free(&c2);
    cuzk_pool_destroy(pool);
}

/* ---- the SEED form ------------------------------------------------------------------ */

static char g_seed[160], g_vk[160];

static int g_log_regen; /* "made again from the seed" lines seen */

static void log_fn(void *ctx, const char *msg)
{
    (void)ctx;
    if (strstr(msg, "made again from the seed"))
        g_log_regen++;
}

/* get() through the _ex form with the given store and threshold */
static void get_ex(cuzk_groth16_pk *pk, const tc_circuit *c, bool want_made, cuzk_pool *pool,
                   cuzk_dev_key_store store, uint64_t above)
{
    cuzk_groth16_setup_opts so = {NULL, log_fn, NULL, NULL};
    cuzk_dev_key_opts o = {store, above, &so, NULL};
    cuzk_groth16_vk vk;
    cuzk_error e = {0};
    bool made = !want_made;
    if (cuzk_groth16_dev_key_cached_ex(pk, &vk, c->r1cs, g_path, pool, &o, &made, &e) != CUZK_OK)
        fail_msg("cache: %s", e.msg);
    assert_int_equal(made, want_made);
    assert_true(cuzk_groth16_vk_eq(&pk->vk, &vk));
    assert_int_equal(cuzk_groth16_pk_check_circuit(pk, c->r1cs, &e), CUZK_OK);
    size_t sz = cuzk_groth16_prove_scratch_size(pk, c->r1cs, 1);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness w = cuzk_witness_dense(c->w, c->r1cs->n_vars);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_prove(&proof, pk, c->r1cs, &w, scratch, sz, NULL, &e), CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, c->w + 1, c->r1cs->n_public, &proof, &e), CUZK_OK);
    free(scratch);
    cuzk_groth16_vk_free(&vk);
}

static char *slurp(const char *p, size_t *len)
{
    static char *t; /* not a local: GCC 12 takes the returned buffer for a dangling &t */
    cuzk_error e = {0};
    t = NULL;
    assert_int_equal(cuzk_file_read_text(&t, len, p, 1 << 20, &e), CUZK_OK);
    return t;
}

static void spit(const char *p, const char *t, size_t len)
{
    cuzk_error e = {0};
    assert_int_equal(cuzk_file_write(p, t, len, &e), CUZK_OK);
}

/* The seed note with the value of `key` replaced by `val` and its check line made valid
 * again (what another setup version, or a careful forger, would leave). */
static void rewrite_field(const char *key, const char *val)
{
    size_t len;
    char *t = slurp(g_seed, &len);
    char pat[48];
    snprintf(pat, sizeof pat, "\n%s ", key);
    char *f = strstr(t, pat);
    assert_non_null(f);
    f += strlen(pat);
    memcpy(f, val, strlen(val));
    char *chk = strstr(t, "\ncheck ");
    assert_non_null(chk);
    chk += 1;
    unsigned char d[32];
    unsigned int dn = 0;
    assert_int_equal(EVP_Digest(t, (size_t)(chk - t), d, &dn, EVP_sha256(), NULL), 1);
    for (int i = 0; i < 32; i++)
        snprintf(chk + 6 + 2 * i, 3, "%02x", d[i]);
    chk[6 + 64] = '\n';
    spit(g_seed, t, len);
    free(t);
}

static bool vk_file_is(const cuzk_groth16_pk *pk)
{
    size_t len;
    char *t = slurp(g_vk, &len);
    size_t n = cuzk_groth16_vk_bellperson_size(&pk->vk);
    uint8_t *b = malloc(n);
    cuzk_error e = {0};
    assert_int_equal(cuzk_groth16_vk_to_bellperson(b, n, &pk->vk, &e), CUZK_OK);
    bool same = len == n && memcmp(t, b, n) == 0;
    free(b);
    free(t);
    return same;
}

static void test_seed(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/cuzk-devkey-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    snprintf(g_path, sizeof g_path, "%s/s.dev.params", g_dir);
    snprintf(g_note, sizeof g_note, "%s.info", g_path);
    snprintf(g_seed, sizeof g_seed, "%s.seed", g_path);
    snprintf(g_vk, sizeof g_vk, "%s.vk", g_path);
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    tc_circuit c1, c2;
    assert_int_equal(tc_mixed(&c1, 2, 5, 4, test_rng_u64()), 0);
    assert_int_equal(tc_mixed(&c2, 2, 5, 5, test_rng_u64()), 0);
    cuzk_error e = {0};
    char hex[65], hex2[65];
    assert_int_equal(cuzk_r1cs_shape_digest(hex, c1.r1cs, &e), CUZK_OK);
    assert_int_equal(cuzk_r1cs_shape_digest_pool(hex2, c1.r1cs, pool, &e), CUZK_OK);
    assert_string_equal(hex, hex2);

    /* made in the SEED form, then made again from the seed: the same bytes */
    cuzk_groth16_pk a, b;
    get_ex(&a, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_true(exists(g_seed) && exists(g_vk));
    assert_false(exists(g_path) || exists(g_note));
    size_t len;
    char *note = slurp(g_seed, &len);
    assert_non_null(strstr(note, "NOT Filecoin's trusted setup"));
    assert_non_null(strstr(note, "SEED-ONLY"));
    assert_non_null(strstr(note, hex));
    free(note);
    assert_true(vk_file_is(&a));
    g_log_regen = 0;
    get_ex(&b, &c1, false, pool, CUZK_DEV_KEY_STORE_AUTO, 0); /* AUTO loads either form */
    assert_int_equal(g_log_regen, 1);
    assert_true(cuzk_groth16_pk_eq(&a, &b));
    assert_int_equal(cuzk_groth16_pk_bellperson_size(&a), cuzk_groth16_pk_bellperson_size(&b));
    cuzk_groth16_pk_free(&b);

    /* a damaged or missing .vk: rewritten, same key */
    FILE *f = fopen(g_vk, "r+b");
    assert_non_null(f);
    fputc(0x42, f);
    fclose(f);
    get_ex(&b, &c1, false, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_true(cuzk_groth16_pk_eq(&a, &b) && vk_file_is(&a));
    cuzk_groth16_pk_free(&b);
    assert_int_equal(unlink(g_vk), 0);
    get_ex(&b, &c1, false, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_true(cuzk_groth16_pk_eq(&a, &b) && vk_file_is(&a));
    cuzk_groth16_pk_free(&b);

    /* an intact note recording another verifying key: the seed's key, made = true, and
     * the note rewritten (the next load is quiet) */
    rewrite_field("vk-sha256", "00000000000000000000000000000000");
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_true(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&b);
    get_ex(&b, &c1, false, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    cuzk_groth16_pk_free(&b);

    /* a damaged seed: one hex digit (the check line no longer fits), the check line, a
     * truncated note: never used, a new key each time */
    note = slurp(g_seed, &len);
    char *sv = strstr(note, "\nseed ") + 6;
    *sv = *sv == '0' ? '1' : '0';
    spit(g_seed, note, len);
    free(note);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_false(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&a);
    a = b;
    note = slurp(g_seed, &len);
    char *cv = strstr(note, "\ncheck ") + 7;
    *cv = *cv == 'a' ? 'b' : 'a';
    spit(g_seed, note, len);
    free(note);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_false(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&a);
    a = b;
    note = slurp(g_seed, &len);
    spit(g_seed, note, len - 1);
    free(note);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    assert_false(cuzk_groth16_pk_eq(&a, &b));
    cuzk_groth16_pk_free(&a);
    a = b;
    /* the seed note of another circuit is never used for this one */
    get_ex(&b, &c2, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    cuzk_groth16_pk_free(&b);
    assert_int_equal(cuzk_r1cs_shape_digest(hex2, c2.r1cs, &e), CUZK_OK);
    note = slurp(g_seed, &len);
    assert_non_null(strstr(note, hex2));
    assert_null(strstr(note, hex));
    free(note);
    get_ex(&b, &c2, false, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    cuzk_groth16_pk_free(&b);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    cuzk_groth16_pk_free(&b);
    assert_int_equal(unlink(g_seed), 0); /* the note is the commit mark */
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_SEED, 0);
    cuzk_groth16_pk_free(&b);

    /* AUTO: PARAMS below the threshold (and the seed pair goes), SEED above it (and the
     * .params pair goes); the environment's threshold */
    get_ex(&b, &c2, true, pool, CUZK_DEV_KEY_STORE_AUTO, (uint64_t)1 << 40);
    assert_true(exists(g_path) && exists(g_note));
    assert_false(exists(g_seed) || exists(g_vk));
    cuzk_groth16_pk_free(&b);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_AUTO, 1);
    assert_false(exists(g_path) || exists(g_note));
    assert_true(exists(g_seed) && exists(g_vk));
    cuzk_groth16_pk_free(&b);
    setenv("CUZK_DEV_KEY_SEED_ABOVE", "1T", 1);
    get_ex(&b, &c2, true, pool, CUZK_DEV_KEY_STORE_AUTO, 0);
    assert_true(exists(g_path) && !exists(g_seed));
    cuzk_groth16_pk_free(&b);
    setenv("CUZK_DEV_KEY_SEED_ABOVE", "1K", 1);
    get_ex(&b, &c1, true, pool, CUZK_DEV_KEY_STORE_AUTO, 0);
    assert_true(!exists(g_path) && exists(g_seed));
    cuzk_groth16_pk_free(&b);
    /* the PARAMS pair written by cuzk_groth16_dev_key_cached is loaded by the _ex form */
    setenv("CUZK_DEV_KEY_SEED_ABOVE", "12Q", 1);
    cuzk_dev_key_opts o = {CUZK_DEV_KEY_STORE_AUTO, 0, NULL, NULL};
    assert_int_equal(cuzk_groth16_dev_key_cached_ex(&b, NULL, c1.r1cs, g_path, pool, &o, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "CUZK_DEV_KEY_SEED_ABOVE"));
    unsetenv("CUZK_DEV_KEY_SEED_ABOVE");
    o.store = (cuzk_dev_key_store)7;
    assert_int_equal(cuzk_groth16_dev_key_cached_ex(&b, NULL, c1.r1cs, g_path, pool, &o, NULL, &e),
                     CUZK_ERR_INVALID_ARG);

    unlink(g_path);
    unlink(g_note);
    unlink(g_seed);
    unlink(g_vk);
    assert_int_equal(rmdir(g_dir), 0); /* nothing else was left behind */
    cuzk_groth16_pk_free(&a);
    tc_free(&c1);
    tc_free(&c2);
    cuzk_pool_destroy(pool);
}

/* ---- cancel, and a key that cannot be written -------------------------------------- */

typedef struct cancel_ctx {
    int lines, at, made; /* progress lines seen, the one that cancels, setups finished */
    int made_line;       /* the line of the (last) setup's end */
    volatile int *cancel;
} cancel_ctx;

static void cancel_log(void *ctx, const char *msg)
{
    cancel_ctx *c = ctx;
    if (strncmp(msg, "setup: 2^", 9) == 0) {
        c->made++;
        c->made_line = c->lines + 1;
    }
    if (++c->lines == c->at)
        *c->cancel = 1;
}

/* The number of entries in dir besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* A cancel (the setup options' flag) at any progress line before the key is made, in
 * either store form: CUZK_ERR_CANCELLED and no file (no key, note, seed or temporary) in
 * the directory. A directory that does not exist: with save_err the key is made once and
 * returned (made = true, save_err says why it is not on disk), and without it the call
 * fails with IO; either way nothing is left behind. */
static void test_cancel_and_unwritable(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/cuzk-devkey-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    snprintf(g_path, sizeof g_path, "%s/k.dev.params", g_dir);
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 30, 30, test_rng_u64()), 0);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    volatile int cancel = 0;
    cancel_ctx cc = {0, 0, 0, 0, &cancel};
    cuzk_groth16_setup_opts so = {NULL, cancel_log, &cc, &cancel};
    cuzk_error e = {0};
    cuzk_groth16_pk pk;
    bool made = false;
    for (int store = CUZK_DEV_KEY_STORE_PARAMS; store <= CUZK_DEV_KEY_STORE_SEED; store++) {
        cuzk_dev_key_opts o = {(cuzk_dev_key_store)store, 0, &so, NULL};
        /* how many progress lines come before the key is made */
        char rm[128];
        snprintf(rm, sizeof rm, "rm -f %s/*", g_dir);
        assert_int_equal(system(rm), 0);
        cc.lines = cc.at = cc.made = 0;
        cancel = 0;
        assert_int_equal(cuzk_groth16_dev_key_cached_ex(&pk, NULL, c.r1cs, g_path, pool, &o,
                                                        &made, &e),
                         CUZK_OK);
        cuzk_groth16_pk_free(&pk);
        assert_true(made);
        int lines = cc.lines, made_line = cc.made_line;
        assert_true(lines > 3 && made_line > 3 && made_line < lines);
        assert_true(entries(g_dir) == 2);
        for (int at = 1; at <= lines; at++) {
            assert_int_equal(system(rm), 0);
            cc.lines = cc.made = 0;
            cc.at = at;
            cancel = 0;
            cuzk_status st = cuzk_groth16_dev_key_cached_ex(&pk, NULL, c.r1cs, g_path, pool, &o,
                                                            &made, &e);
            if (at > made_line) { /* after the files were written: the key stands */
                assert_int_equal(st, CUZK_OK);
                cuzk_groth16_pk_free(&pk);
                assert_true(entries(g_dir) == 2);
                continue;
            }
            /* up to the setup's last line (the key made, no file begun yet) */
            if (st != CUZK_ERR_CANCELLED)
                fail_msg("store %d, cancelled at line %d of %d: status %d (%s)", store, at,
                         lines, (int)st, e.msg);
            if (entries(g_dir) != 0)
                fail_msg("store %d, cancelled at line %d: files left in %s", store, at, g_dir);
        }
    }
    /* the cache's directory is missing: one key, returned, nothing written */
    char rm[128];
    snprintf(rm, sizeof rm, "rm -f %s/*", g_dir);
    assert_int_equal(system(rm), 0);
    char missing[160];
    snprintf(missing, sizeof missing, "%s/missing/k.dev.params", g_dir);
    cuzk_error we = {0};
    cuzk_dev_key_opts o = {CUZK_DEV_KEY_STORE_PARAMS, 0, &so, &we};
    cc.lines = cc.at = cc.made = 0;
    cancel = 0;
    made = false;
    assert_int_equal(cuzk_groth16_dev_key_cached_ex(&pk, NULL, c.r1cs, missing, pool, &o, &made,
                                                    &e),
                     CUZK_OK);
    assert_true(made);
    assert_int_equal(cc.made, 1);
    assert_int_equal(we.code, CUZK_ERR_IO);
    assert_int_equal(cuzk_groth16_pk_check_circuit(&pk, c.r1cs, &e), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    o.save_err = NULL;
    assert_int_equal(cuzk_groth16_dev_key_cached_ex(&pk, NULL, c.r1cs, missing, pool, &o, &made,
                                                    &e),
                     CUZK_ERR_IO);
    assert_int_equal(entries(g_dir), 0);
    assert_int_equal(rmdir(g_dir), 0);
    cuzk_pool_destroy(pool);
    tc_free(&c);
}

int main(void)
{
    test_rng_init("test_dev_key_cache");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_cancel_and_unwritable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
