/*
 * test_dev_key_cache.c — cuzk_groth16_dev_key_cached (cuzk/formats.h) in a fresh temporary
 * directory on small circuits:
 *   first call makes the key (made = true) and writes NAME.dev.params + NAME.dev.params.info,
 *   the note carries the "NOT Filecoin's trusted setup" banner and the r1cs digest, and
 *   proofs made with the key verify; a second call loads the same key (made = false);
 *   another circuit, a changed coefficient of the same shape, a truncated or corrupted
 *   .params, and a missing or edited note each make a new key that fits; a name without
 *   ".dev.params", NULLs and an unwritable directory are errors that leave no files.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

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

int main(void)
{
    test_rng_init("test_dev_key_cache");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
