/*
 * test_r1cs_cache.c — the CSR cache file (cuzk/r1cs_cache.h) and the engine's use of it
 * (fil_circuit_cached, src/engine/kind_fil_cache.c), in a fresh temporary directory:
 *   round trip: a random constraint system (random rows, repeated and fresh coefficients,
 *     empty rows) with a random witness map, written and mapped back at every check level,
 *     has identical shape, CSR arrays, densities, map and coefficient table, no m[].coeff
 *     (the table carries them: every term's coefficient through cuzk_r1cs_coeff equals the
 *     original's), the same table from cuzk_r1cs_coeff_table and the same shape digest (dev
 *     key cache), and gives the same A.w, B.w, C.w on a random witness; the check agrees
 *     (same status and first failing row, satisfied or not, same outputs); the file is
 *     exactly the version-2 layout computed from the shape, at least 32 bytes a term
 *     smaller than version 1's; a mapped circuit proves (dev key made from the
 *     recorded copy with a fixed seed equals the one made from the mapped copy; its proof
 *     verifies) and re-writing a mapped circuit gives the same bytes; a system without C
 *     keeps its c_absent flag, and the flag with a non-empty C is refused;
 *   corruption: truncation at several offsets, one byte more, a flipped byte in the header
 *     and in every section, an older (1: with 32-byte coefficients) and a newer version
 *     (header checksum fixed up; the error names both versions), another circuit id,
 *     a file without a map when one is asked for: each is CUZK_ERR_FORMAT (a missing file
 *     CUZK_ERR_NOT_FOUND); header, shape, map and density damage already at the SHAPE level;
 *   check once: the first load checks in full and leaves a stamp; a stamped unchanged file
 *     is only bounds-checked; a changed mtime or a damaged stamp brings the full check back;
 *   engine: the first load records and writes, the next maps without recording, and every
 *     corruption above (written as a new file) makes it record again and rewrite a sound
 *     file (an old-version file: one of this version); nothing but the cache and its stamp
 *     is left in the directory.
 * Single-threaded except the pool.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, truncate */
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

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/r1cs_cache.h"
#include "engine/kind_fil.h"
#include "formats/r1cs_cache_hash.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

/* Version 2's layout (r1cs_cache.c): the header, then 14 sections: row_ptr 0..2, col 3..5,
 * density 6..8, map 9, coefficient values 10, coefficient index 11..13. */
#define HDR 4096u
#define N_SEC 14
#define SEC_AT 152u

static char g_dir[64], g_path[128];
static cuzk_pool *g_pool;

/* A random system: rows x (0..5 terms a matrix), coefficients mostly from a small set. */
static cuzk_r1cs *random_r1cs(uint64_t rows, uint32_t n_pub, uint32_t n_aux)
{
    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, n_pub, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, n_aux, NULL, NULL), CUZK_OK);
    cuzk_fr common[8];
    for (int i = 0; i < 8; i++)
        test_rand_fr(&common[i]);
    for (uint64_t r = 0; r < rows; r++) {
        assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
        for (int m = 0; m < 3; m++)
            for (uint64_t t = test_rng_u64() % 6; t > 0; t--) {
                uint64_t v = test_rng_u64() % (1 + n_pub + n_aux);
                cuzk_r1cs_var var = v == 0        ? CUZK_R1CS_VAR_ONE
                                    : v <= n_pub ? CUZK_R1CS_VAR_PUBLIC(v - 1)
                                                 : CUZK_R1CS_VAR_AUX(v - 1 - n_pub);
                cuzk_fr c;
                if (test_rng_u64() % 4 == 0)
                    test_rand_fr(&c);
                else
                    c = common[test_rng_u64() % 8];
                assert_int_equal(cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)m, var, &c, NULL),
                                 CUZK_OK);
            }
    }
    cuzk_r1cs *r;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    return r;
}

static void random_map(cuzk_witness_map *map, uint32_t n_vars, uint32_t first_aux)
{
    size_t words = (n_vars + 63) / 64;
    uint64_t *bits = calloc(words, 8);
    assert_non_null(bits);
    for (uint32_t v = first_aux; v < n_vars; v++)
        if (test_rng_u64() % 3)
            bits[v >> 6] |= 1ull << (v & 63);
    assert_int_equal(cuzk_witness_map_init(map, bits, n_vars, NULL), CUZK_OK);
    free(bits);
}

static void assert_same(const cuzk_r1cs *a, const cuzk_r1cs *b)
{
    assert_int_equal(a->n_constraints, b->n_constraints);
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_public, b->n_public);
    assert_int_equal(a->n_aux, b->n_aux);
    assert_int_equal(a->c_absent, b->c_absent);
    size_t words = (a->n_vars + 63) / 64;
    for (int m = 0; m < 3; m++) {
        assert_int_equal(a->m[m].nnz, b->m[m].nnz);
        assert_memory_equal(a->m[m].row_ptr, b->m[m].row_ptr, (a->n_constraints + 1) * 8);
        if (a->m[m].nnz)
            assert_memory_equal(a->m[m].col, b->m[m].col, a->m[m].nnz * 4);
        /* whichever form each carries (a mapped one: the table alone) */
        for (uint64_t k = 0; k < a->m[m].nnz; k++)
            assert_memory_equal(cuzk_r1cs_coeff(a, (cuzk_r1cs_matrix)m, k),
                                cuzk_r1cs_coeff(b, (cuzk_r1cs_matrix)m, k), sizeof(cuzk_fr));
        assert_memory_equal(a->density[m], b->density[m], words * 8);
        assert_int_equal(a->density_count[m], b->density_count[m]);
    }
}

/* Through a new file renamed over path, as any rewrite by a writer that is careful: a new
 * inode, so a "checked" stamp of the old file cannot name it. */
static void write_file(const char *path, const uint8_t *d, size_t n)
{
    char tmp[200];
    snprintf(tmp, sizeof tmp, "%s.w", path);
    FILE *f = fopen(tmp, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
    assert_int_equal(rename(tmp, path), 0);
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(*n ? *n : 1);
    assert_int_equal(fread(d, 1, *n, f), *n);
    fclose(f);
    return d;
}

static void test_round_trip(void **state)
{
    (void)state;
    uint32_t n_pub = 1 + (uint32_t)(test_rng_u64() % 4), n_aux = 50 + (uint32_t)(test_rng_u64() % 200);
    cuzk_r1cs *r = random_r1cs(100 + test_rng_u64() % 400, n_pub, n_aux);
    cuzk_witness_map map;
    random_map(&map, r->n_vars, 1 + n_pub);
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "test-circuit", r, &map, g_pool, &e), CUZK_OK);
    cuzk_fr *vals, *w = malloc(r->n_vars * sizeof *w);
    uint32_t n_vals, *idx[3];
    assert_int_equal(cuzk_r1cs_coeff_table(r, &vals, &n_vals, idx, NULL), CUZK_OK);
    w[0] = CUZK_FR_ONE;
    for (uint32_t v = 1; v < r->n_vars; v++)
        test_rand_fr(&w[v]);
    cuzk_witness wit = cuzk_witness_dense(w, r->n_vars);
    size_t rows = r->n_constraints;
    cuzk_fr *out[2][3];
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 3; m++)
            out[k][m] = malloc(rows * sizeof(cuzk_fr));
    assert_int_equal(cuzk_r1cs_eval(r, &wit, out[0][0], out[0][1], out[0][2], g_pool), CUZK_OK);
    for (int lvl = 0; lvl <= CUZK_R1CS_CACHE_CHECK_FULL; lvl++) {
        cuzk_r1cs *q = NULL;
        cuzk_witness_map qm;
        if (cuzk_r1cs_cache_open(g_path, "test-circuit", (cuzk_r1cs_cache_check)lvl, &q, &qm,
                                 lvl == 1 ? NULL : g_pool, &e) != CUZK_OK)
            fail_msg("open at level %d: %s", lvl, e.msg);
        assert_non_null(q->backing);
        for (int m = 0; m < 3; m++)
            assert_null(q->m[m].coeff); /* version 2: the table carries the coefficients */
        assert_non_null(q->coeff_values);
        assert_same(r, q);
        assert_int_equal(qm.n_vars, map.n_vars);
        assert_int_equal(qm.n_bits, map.n_bits);
        assert_memory_equal(qm.is_bit, map.is_bit, (map.n_vars + 63) / 64 * 8);
        assert_memory_equal(qm.rank, map.rank, (map.n_vars + 63) / 64 * 4);
        assert_int_equal(q->n_coeff_values, n_vals);
        assert_memory_equal(q->coeff_values, vals, n_vals * sizeof(cuzk_fr));
        for (int m = 0; m < 3; m++)
            if (r->m[m].nnz)
                assert_memory_equal(q->coeff_index[m], idx[m], r->m[m].nnz * 4);
        /* the readers that take a mapped r1cs: the table rebuilt from q's own, and the dev
         * key cache's digest (hashes coefficients as 32-byte values whatever the form) */
        cuzk_fr *qvals;
        uint32_t qn, *qidx[3];
        assert_int_equal(cuzk_r1cs_coeff_table(q, &qvals, &qn, qidx, NULL), CUZK_OK);
        assert_int_equal(qn, n_vals);
        assert_memory_equal(qvals, vals, n_vals * sizeof(cuzk_fr));
        for (int m = 0; m < 3; m++) {
            if (r->m[m].nnz)
                assert_memory_equal(qidx[m], idx[m], r->m[m].nnz * 4);
            free(qidx[m]);
        }
        free(qvals);
        char hr[65], hq[65];
        if (cuzk_r1cs_shape_digest(hr, r, NULL) == CUZK_OK) {
            assert_int_equal(cuzk_r1cs_shape_digest(hq, q, NULL), CUZK_OK);
            assert_string_equal(hr, hq);
        }
        assert_int_equal(cuzk_r1cs_eval(q, &wit, out[1][0], out[1][1], out[1][2], g_pool), CUZK_OK);
        for (int m = 0; m < 3; m++)
            assert_memory_equal(out[0][m], out[1][m], rows * sizeof(cuzk_fr));
        cuzk_witness_map_free(&qm);
        cuzk_r1cs_destroy(q);
    }
    free(vals);
    for (int m = 0; m < 3; m++)
        free(idx[m]);
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 3; m++)
            free(out[k][m]);
    free(w);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r);
    unlink(g_path);
}

/* A random satisfied system: like random_r1cs over ONE, the publics and n_base aux
 * variables, with random values in *w; row i's C also holds c_i * z_i for a fresh aux z_i
 * (c_i random, non-zero) whose value makes the row hold. Terms may name earlier z's. */
static cuzk_r1cs *random_sat(uint64_t rows, uint32_t n_pub, uint32_t n_base, cuzk_fr **w_out)
{
    uint32_t n_vars = 1 + n_pub + n_base + (uint32_t)rows;
    cuzk_fr *w = malloc(n_vars * sizeof *w), common[8];
    assert_non_null(w);
    w[0] = CUZK_FR_ONE;
    for (uint32_t v = 1; v < n_vars; v++)
        test_rand_fr(&w[v]);
    for (int i = 0; i < 8; i++)
        test_rand_fr(&common[i]);
    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, n_pub, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, n_base + (uint32_t)rows, NULL, NULL), CUZK_OK);
    for (uint64_t r = 0; r < rows; r++) {
        uint32_t defined = 1 + n_pub + n_base + (uint32_t)r, z = defined;
        cuzk_fr dot[3] = {CUZK_FR_ZERO, CUZK_FR_ZERO, CUZK_FR_ZERO}, c, t;
        assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
        for (int m = 0; m < 3; m++)
            for (uint64_t k = test_rng_u64() % 6; k > 0; k--) {
                uint32_t v = (uint32_t)(test_rng_u64() % defined);
                cuzk_r1cs_var var = v == 0        ? CUZK_R1CS_VAR_ONE
                                    : v <= n_pub ? CUZK_R1CS_VAR_PUBLIC(v - 1)
                                                 : CUZK_R1CS_VAR_AUX(v - 1 - n_pub);
                if (test_rng_u64() % 4 == 0)
                    test_rand_fr(&c);
                else
                    c = common[test_rng_u64() % 8];
                assert_int_equal(cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)m, var, &c, NULL),
                                 CUZK_OK);
                cuzk_fr_mul(&t, &c, &w[v]);
                cuzk_fr_add(&dot[m], &dot[m], &t);
            }
        do
            c = test_rng_u64() % 2 ? common[test_rng_u64() % 8] : CUZK_FR_ONE;
        while (cuzk_fr_is_zero(&c));
        assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_C, CUZK_R1CS_VAR_AUX(z - 1 - n_pub),
                                                    &c, NULL), CUZK_OK);
        cuzk_fr_mul(&t, &dot[0], &dot[1]); /* c z = A.w B.w - (C.w without z) */
        cuzk_fr_sub(&t, &t, &dot[2]);
        cuzk_fr_inv(&c, &c);
        cuzk_fr_mul(&w[z], &t, &c);
    }
    cuzk_r1cs *r;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    *w_out = w;
    return r;
}

/* eval_check on the mapped copy (coeff NULL, the indexed path) agrees with the recorded
 * one's bit for bit: satisfied, with the same outputs (pool and calling thread), and after
 * one witness value is changed, the same status and first failing row. */
static void test_mapped_check(void **state)
{
    (void)state;
    cuzk_fr *w;
    cuzk_r1cs *r = random_sat(200 + test_rng_u64() % 800, 1 + test_rng_u64() % 3,
                              20 + test_rng_u64() % 100, &w);
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "sat", r, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs *q = NULL;
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "sat", CUZK_R1CS_CACHE_CHECK_BOUNDS, &q, NULL,
                                          g_pool, &e), CUZK_OK);
    for (int m = 0; m < 3; m++)
        assert_null(q->m[m].coeff);
    size_t rows = r->n_constraints;
    cuzk_fr *out[3][3];
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            out[k][m] = malloc(rows * sizeof(cuzk_fr));
    cuzk_witness wit = cuzk_witness_dense(w, r->n_vars);
    uint64_t bad[2];
    assert_int_equal(cuzk_r1cs_eval_check(r, &wit, out[0][0], out[0][1], out[0][2], &bad[0],
                                          g_pool, &e), CUZK_OK);
    if (cuzk_r1cs_eval_check(q, &wit, out[1][0], out[1][1], out[1][2], &bad[1], g_pool, &e) !=
        CUZK_OK)
        fail_msg("mapped check: %s", e.msg);
    assert_int_equal(cuzk_r1cs_eval_check(q, &wit, out[2][0], out[2][1], out[2][2], NULL, NULL,
                                          &e), CUZK_OK);
    for (int m = 0; m < 3; m++) {
        assert_memory_equal(out[0][m], out[1][m], rows * sizeof(cuzk_fr));
        assert_memory_equal(out[0][m], out[2][m], rows * sizeof(cuzk_fr));
    }
    assert_int_equal(cuzk_r1cs_check(q, &wit, NULL, &e), CUZK_OK);
    for (int i = 0; i < 4; i++) {
        uint32_t v = 1 + (uint32_t)(test_rng_u64() % (r->n_vars - 1));
        cuzk_fr keep = w[v];
        test_rand_fr(&w[v]);
        cuzk_status s0 = cuzk_r1cs_eval_check(r, &wit, NULL, NULL, NULL, &bad[0], g_pool, &e);
        cuzk_status s1 = cuzk_r1cs_eval_check(q, &wit, NULL, NULL, NULL, &bad[1], g_pool, &e);
        assert_int_equal(s0, s1);
        assert_int_equal(bad[0], bad[1]);
        assert_int_equal(cuzk_r1cs_check(q, &wit, &bad[1], &e), s0);
        assert_int_equal(bad[0], bad[1]);
        w[v] = keep;
    }
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            free(out[k][m]);
    free(w);
    cuzk_r1cs_destroy(q);
    cuzk_r1cs_destroy(r);
    unlink(g_path);
}

static uint64_t pages(uint64_t n) { return (n + 4095) / 4096 * 4096; }

/* The file is exactly version 2's layout computed from the shape (no 32-byte coefficient
 * sections), so version 1 was larger by at least 32 bytes a term. */
static void test_file_size(void **state)
{
    (void)state;
    uint32_t n_pub = 1 + (uint32_t)(test_rng_u64() % 4);
    cuzk_r1cs *r = random_r1cs(500 + test_rng_u64() % 3000, n_pub, 100 + test_rng_u64() % 900);
    cuzk_witness_map map;
    random_map(&map, r->n_vars, 1 + n_pub);
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "size", r, &map, g_pool, &e), CUZK_OK);
    cuzk_fr *vals;
    uint32_t n_vals, *idx[3];
    assert_int_equal(cuzk_r1cs_coeff_table(r, &vals, &n_vals, idx, NULL), CUZK_OK);
    uint64_t words = (r->n_vars + 63) / 64, want = HDR, nnz = 0, coeff_pages = 0;
    for (int m = 0; m < 3; m++) {
        uint64_t z = r->m[m].nnz;
        nnz += z;
        want += pages((r->n_constraints + 1) * 8) + 2 * pages(z * 4) + pages(words * 8);
        coeff_pages += pages(z * sizeof(cuzk_fr));
        free(idx[m]);
    }
    want += pages(words * 8) + pages((uint64_t)n_vals * sizeof(cuzk_fr));
    free(vals);
    size_t n;
    free(read_file(g_path, &n));
    assert_int_equal(n, want);
    uint64_t v1 = want + coeff_pages; /* version 1 added nnz Fr coefficients a matrix */
    assert_true(n + nnz * sizeof(cuzk_fr) <= v1);
    print_message("csr cache: %llu terms, %zu bytes (version 1: %llu)\n",
                  (unsigned long long)nnz, n, (unsigned long long)v1);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r);
    unlink(g_path);
}

/* A system without C (what a .zkey gives) keeps c_absent; a header claiming both is refused. */
static void test_c_absent(void **state)
{
    (void)state;
    cuzk_r1cs *r = random_r1cs(50 + test_rng_u64() % 50, 1, 60);
    cuzk_csr *c = &r->m[CUZK_R1CS_C];
    free(c->col);
    free(c->coeff);
    c->col = NULL;
    c->coeff = NULL;
    c->nnz = 0;
    memset(c->row_ptr, 0, (r->n_constraints + 1) * 8);
    memset(r->density[CUZK_R1CS_C], 0, (r->n_vars + 63) / 64 * 8);
    r->density_count[CUZK_R1CS_C] = 0;
    r->c_absent = true;
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "noc", r, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs *q = NULL;
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "noc", CUZK_R1CS_CACHE_CHECK_FULL, &q, NULL,
                                          g_pool, &e), CUZK_OK);
    assert_same(r, q);
    cuzk_r1cs_destroy(q);
    /* the flag with a non-empty C, header checksum made consistent */
    size_t n;
    uint8_t *d = read_file(g_path, &n);
    uint64_t one = 1;
    memcpy(d + 104 + 16, &one, 8);
    uint64_t h = r1cs_cache_hash(d, 4088, 0);
    memcpy(d + 4088, &h, 8);
    write_file(g_path, d, n);
    free(d);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "noc", CUZK_R1CS_CACHE_CHECK_SHAPE, &q, NULL,
                                          g_pool, &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "inconsistent shape"));
    cuzk_r1cs_destroy(r);
    unlink(g_path);
}

/* A mapped circuit proves; its dev key (fixed seed) equals the recorded copy's; writing a
 * mapped circuit (which carries its table) reproduces the file byte for byte. */
static void test_mapped_proves(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 3 + test_rng_u64() % 5, 4 + test_rng_u64() % 20,
                              test_rng_u64() % 1000),
                     0);
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "tc-mixed", c.r1cs, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs *q = NULL;
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "tc-mixed", CUZK_R1CS_CACHE_CHECK_FULL, &q,
                                          NULL, g_pool, &e), CUZK_OK);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk, pk2;
    cuzk_groth16_vk vk, vk2;
    assert_int_equal(cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_BELLPERSON, seed,
                                            g_pool, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_setup_dev(&pk2, &vk2, q, CUZK_GROTH16_BELLPERSON, seed,
                                            g_pool, &e), CUZK_OK);
    assert_true(cuzk_groth16_vk_eq(&vk, &vk2));
    size_t sz = cuzk_groth16_prove_scratch_size(&pk, q, 1);
    void *scratch = malloc(sz);
    cuzk_witness w = cuzk_witness_dense(c.w, q->n_vars);
    cuzk_groth16_proof proof;
    if (cuzk_groth16_prove(&proof, &pk, q, &w, scratch, sz, NULL, &e) != CUZK_OK)
        fail_msg("prove from the mapping: %s", e.msg);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, c.w + 1, q->n_public, &proof, &e), CUZK_OK);
    char again[160];
    snprintf(again, sizeof again, "%s.again", g_path);
    assert_int_equal(cuzk_r1cs_cache_write(again, "tc-mixed", q, NULL, NULL, &e), CUZK_OK);
    size_t n1, n2;
    uint8_t *d1 = read_file(g_path, &n1), *d2 = read_file(again, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(d1, d2, n1);
    free(d1);
    free(d2);
    unlink(again);
    free(scratch);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_pk_free(&pk2);
    cuzk_groth16_vk_free(&vk);
    cuzk_groth16_vk_free(&vk2);
    cuzk_r1cs_destroy(q);
    tc_free(&c);
    unlink(g_path);
}

/* ---- corruption ---------------------------------------------------------------------- */

typedef struct damage {
    char what[64];
    size_t len;      /* the damaged file's length */
    size_t flip_at;  /* SIZE_MAX: no flip */
    int shape_level; /* 1: already the SHAPE check refuses it */
    const char *id;  /* the id asked for */
    uint32_t version; /* non-zero: set this version and recompute the header checksum */
} damage;

/* The damages of a pristine file of n bytes (written for "dmg"); returns their count. */
static size_t damages(damage *d, const uint8_t *file, size_t n)
{
    size_t k = 0;
    size_t cuts[] = {0, 1, 100, 4095, 4096, 4096 + 1 + test_rng_u64() % (n - 4097), n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        d[k] = (damage){.len = cuts[i], .flip_at = SIZE_MAX, .shape_level = 1, .id = "dmg"};
        snprintf(d[k++].what, sizeof d[0].what, "truncated at %zu", cuts[i]);
    }
    d[k] = (damage){.len = n + 1, .flip_at = SIZE_MAX, .shape_level = 1, .id = "dmg"};
    snprintf(d[k++].what, sizeof d[0].what, "one byte more");
    size_t hdr_at[] = {test_rng_u64() % SEC_AT, SEC_AT + test_rng_u64() % (N_SEC * 32),
                       4088 + test_rng_u64() % 8};
    for (size_t i = 0; i < 3; i++) {
        d[k] = (damage){.len = n, .flip_at = hdr_at[i], .shape_level = 1, .id = "dmg"};
        snprintf(d[k++].what, sizeof d[0].what, "header byte %zu flipped", hdr_at[i]);
    }
    for (int s = 0; s < N_SEC; s++) { /* a byte inside every non-empty section */
        uint64_t off, len;
        memcpy(&off, file + SEC_AT + 32 * s + 8, 8);
        memcpy(&len, file + SEC_AT + 32 * s + 16, 8);
        if (!len)
            continue;
        size_t at = (size_t)(off + test_rng_u64() % len);
        /* density (6..8), map (9) and coefficient values (10) are checked at SHAPE */
        d[k] = (damage){.len = n, .flip_at = at, .shape_level = s >= 6 && s <= 10, .id = "dmg"};
        snprintf(d[k++].what, sizeof d[0].what, "section %d byte %zu flipped", s, at);
    }
    /* the version before (32-byte coefficients too) and a later one */
    uint32_t vers[] = {CUZK_R1CS_CACHE_VERSION - 1, CUZK_R1CS_CACHE_VERSION + 1};
    for (int i = 0; i < 2; i++) {
        d[k] = (damage){.len = n, .flip_at = SIZE_MAX, .shape_level = 1, .id = "dmg",
                        .version = vers[i]};
        snprintf(d[k++].what, sizeof d[0].what, "version %u", vers[i]);
    }
    d[k] = (damage){.len = n, .flip_at = SIZE_MAX, .shape_level = 1, .id = "other"};
    snprintf(d[k++].what, sizeof d[0].what, "another circuit id");
    return k;
}

static void apply(const damage *d, const uint8_t *file, size_t n, const char *path)
{
    uint8_t *b = calloc(d->len + 1, 1);
    memcpy(b, file, d->len < n ? d->len : n);
    if (d->flip_at != SIZE_MAX)
        b[d->flip_at] ^= (uint8_t)(1u << (test_rng_u64() % 8));
    if (d->version) {
        memcpy(b + 8, &d->version, 4);
        uint64_t h = r1cs_cache_hash(b, 4088, 0);
        memcpy(b + 4088, &h, 8);
    }
    write_file(path, b, d->len);
    free(b);
}

static void test_corruption(void **state)
{
    (void)state;
    cuzk_r1cs *r = random_r1cs(200 + test_rng_u64() % 200, 2, 300);
    cuzk_witness_map map;
    random_map(&map, r->n_vars, 3);
    cuzk_error e = {0};
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "dmg", r, &map, g_pool, &e), CUZK_OK);
    size_t n;
    uint8_t *file = read_file(g_path, &n);
    damage d[40];
    size_t nd = damages(d, file, n);
    for (size_t i = 0; i < nd; i++) {
        apply(&d[i], file, n, g_path);
        for (int lvl = d[i].shape_level ? 0 : 2; lvl <= 2; lvl++) {
            cuzk_r1cs *q = NULL;
            cuzk_witness_map qm;
            e.msg[0] = 0;
            cuzk_status st = cuzk_r1cs_cache_open(g_path, d[i].id, (cuzk_r1cs_cache_check)lvl,
                                                  &q, &qm, g_pool, &e);
            if (st != CUZK_ERR_FORMAT)
                fail_msg("%s at level %d: %s (%s)", d[i].what, lvl, cuzk_status_name(st), e.msg);
            assert_null(q);
            if (d[i].version) { /* the message names the file's version and ours */
                char want[64];
                snprintf(want, sizeof want, "version %u, this build reads %u", d[i].version,
                         CUZK_R1CS_CACHE_VERSION);
                if (!strstr(e.msg, want))
                    fail_msg("%s: \"%s\" does not say \"%s\"", d[i].what, e.msg, want);
            }
        }
    }
    /* a file without a map when one is asked for; a missing file */
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "dmg", r, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs *q = NULL;
    cuzk_witness_map qm;
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "dmg", 2, &q, &qm, g_pool, &e), CUZK_ERR_FORMAT);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "dmg", 2, &q, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs_destroy(q);
    unlink(g_path);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "dmg", 2, &q, &qm, g_pool, &e),
                     CUZK_ERR_NOT_FOUND);
    /* bad arguments; a write into a missing directory leaves nothing */
    assert_int_equal(cuzk_r1cs_cache_write(NULL, "dmg", r, NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "0123456789012345678901234567890123456789"
                                           "012345678901234567890123456789", r, NULL, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    char nodir[160];
    snprintf(nodir, sizeof nodir, "%s/none/x.csr", g_dir);
    assert_int_equal(cuzk_r1cs_cache_write(nodir, "dmg", r, NULL, NULL, &e), CUZK_ERR_IO);
    free(file);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r);
}

/* CHECK_ONCE: the first load checks in full and stamps; a stamped, unchanged file is only
 * bounds-checked (a coefficient flipped with the mtime put back passes: the documented
 * bet); a changed mtime, a garbage stamp or a replaced file bring the full check back. */
static void test_check_once(void **state)
{
    (void)state;
    cuzk_r1cs *r = random_r1cs(100 + test_rng_u64() % 100, 1, 100);
    cuzk_error e = {0};
    char stamp[160];
    snprintf(stamp, sizeof stamp, "%s.ok", g_path);
    unlink(stamp);
    assert_int_equal(cuzk_r1cs_cache_write(g_path, "once", r, NULL, g_pool, &e), CUZK_OK);
    cuzk_r1cs *q = NULL;
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "once", CUZK_R1CS_CACHE_CHECK_ONCE, &q, NULL,
                                          g_pool, &e), CUZK_OK);
    cuzk_r1cs_destroy(q);
    struct stat st0;
    assert_int_equal(stat(stamp, &st0), 0);
    /* change a coefficient in place (a term's index to another distinct value: in bounds,
     * so only the checksum sees it), then put the mtime back */
    assert_int_equal(stat(g_path, &st0), 0);
    uint64_t off = 0, len = 0;
    uint32_t n_vals;
    {
        size_t n;
        uint8_t *d = read_file(g_path, &n);
        memcpy(&n_vals, d + 128, 4);
        for (int s = 11; s < 14 && !len; s++) {
            memcpy(&off, d + SEC_AT + 32 * s + 8, 8);
            memcpy(&len, d + SEC_AT + 32 * s + 16, 8);
        }
        free(d);
    }
    assert_true(len > 0 && n_vals > 1);
    FILE *f = fopen(g_path, "r+b");
    assert_non_null(f);
    long at = (long)(off + 4 * (test_rng_u64() % (len / 4)));
    uint32_t ci;
    fseek(f, at, SEEK_SET);
    assert_int_equal(fread(&ci, 4, 1, f), 1);
    ci = (ci + 1 + (uint32_t)(test_rng_u64() % (n_vals - 1))) % n_vals;
    fseek(f, at, SEEK_SET);
    assert_int_equal(fwrite(&ci, 4, 1, f), 1);
    fclose(f);
    struct timespec ts[2] = {st0.st_atim, st0.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, g_path, ts, 0), 0);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "once", CUZK_R1CS_CACHE_CHECK_ONCE, &q, NULL,
                                          g_pool, &e), CUZK_OK);
    cuzk_r1cs_destroy(q);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "once", CUZK_R1CS_CACHE_CHECK_FULL, &q, NULL,
                                          g_pool, &e), CUZK_ERR_FORMAT);
    /* another mtime: the stamp no longer names the file */
    ts[1].tv_sec -= 10;
    assert_int_equal(utimensat(AT_FDCWD, g_path, ts, 0), 0);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "once", CUZK_R1CS_CACHE_CHECK_ONCE, &q, NULL,
                                          g_pool, &e), CUZK_ERR_FORMAT);
    /* a garbage stamp for a file with the old mtime back */
    ts[1].tv_sec += 10;
    assert_int_equal(utimensat(AT_FDCWD, g_path, ts, 0), 0);
    size_t sn;
    uint8_t *sd = read_file(stamp, &sn);
    sd[sn / 2] ^= 1;
    write_file(stamp, sd, sn);
    free(sd);
    assert_int_equal(cuzk_r1cs_cache_open(g_path, "once", CUZK_R1CS_CACHE_CHECK_ONCE, &q, NULL,
                                          g_pool, &e), CUZK_ERR_FORMAT);
    unlink(stamp);
    unlink(g_path);
    cuzk_r1cs_destroy(r);
}

/* ---- the engine ------------------------------------------------------------------------ */

typedef struct rec_ctx {
    uint64_t seed;
    int calls;
} rec_ctx;

static cuzk_status rec(void *vctx, cuzk_r1cs **r1cs, cuzk_witness_map *map, cuzk_error *err)
{
    (void)err;
    rec_ctx *x = vctx;
    x->calls++;
    tc_circuit c;
    if (tc_mixed(&c, 2, 4, 10, x->seed) != 0)
        return CUZK_ERR_INTERNAL;
    *r1cs = c.r1cs;
    free(c.w);
    if (map) {
        size_t words = ((*r1cs)->n_vars + 63) / 64;
        uint64_t *bits = calloc(words, 8);
        bits[0] = 0x10; /* variable 4: some aux */
        cuzk_witness_map_init(map, bits, (*r1cs)->n_vars, NULL);
        free(bits);
    }
    return CUZK_OK;
}

static void load(cuzk_engine *e, rec_ctx *x, int want_calls)
{
    cuzk_r1cs *r = NULL;
    cuzk_witness_map m;
    cuzk_error err = {0};
    if (fil_circuit_cached(e, "porep-test", rec, x, &r, &m, g_pool, &err) != CUZK_OK)
        fail_msg("load: %s", err.msg);
    assert_int_equal(x->calls, want_calls);
    assert_non_null(r->backing); /* recorded or not, what comes back is the mapped file */
    assert_int_equal(m.n_bits, 1);
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 4, 10, x->seed), 0);
    assert_same(c.r1cs, r);
    tc_free(&c);
    cuzk_witness_map_free(&m);
    cuzk_r1cs_destroy(r);
}

static void test_engine_rerecords(void **state)
{
    (void)state;
    char dir[96];
    snprintf(dir, sizeof dir, "%s/csr", g_dir); /* made by the engine */
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.devices = "cpu";
    cfg.threads = 2;
    cfg.csr_cache_dir = dir;
    cfg.log_level = CUZK_LOG_ERROR;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_create(&e, &cfg, &err), CUZK_OK);
    char path[160];
    assert_true(fil_csr_cache_path(e, "porep-test", path, sizeof path));
    rec_ctx x = {.seed = test_rng_u64() % 1000};
    load(e, &x, 1);
    load(e, &x, 1);
    size_t n;
    uint8_t *file = read_file(path, &n);
    damage d[40];
    size_t nd = damages(d, file, n);
    for (size_t i = 0; i < nd; i++) {
        if (strcmp(d[i].id, "dmg") != 0)
            continue; /* another id: the file below is written for porep-test */
        apply(&d[i], file, n, path);
        int before = x.calls;
        load(e, &x, before + 1); /* refused, recorded again, rewritten */
        load(e, &x, before + 1); /* the rewritten file is sound */
        if (d[i].version) { /* an old (or newer) file is replaced by this version's */
            size_t rn;
            uint8_t *re = read_file(path, &rn);
            uint32_t v;
            memcpy(&v, re + 8, 4);
            assert_int_equal(v, CUZK_R1CS_CACHE_VERSION);
            free(re);
        }
    }
    free(file);
    /* a cache written for another circuit, or by a cuzk whose circuits were another
     * revision (the bare id), under this name */
    const char *other[] = {"porep-other/r1", "porep-test"};
    for (int i = 0; i < 2; i++) {
        tc_circuit c;
        assert_int_equal(tc_mixed(&c, 2, 4, 10, x.seed), 0);
        assert_int_equal(cuzk_r1cs_cache_write(path, other[i], c.r1cs, NULL, NULL, &err), CUZK_OK);
        tc_free(&c);
        int before = x.calls;
        load(e, &x, before + 1);
    }
    cuzk_engine_destroy(e);
    unlink(path);
    char stamp[200];
    snprintf(stamp, sizeof stamp, "%s.ok", path);
    unlink(stamp);
    assert_int_equal(rmdir(dir), 0); /* nothing else left: no temporaries */
}

static int setup(void **state)
{
    (void)state;
    test_rng_init("test_r1cs_cache");
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-csr-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    snprintf(g_path, sizeof g_path, "%s/c.csr", g_dir);
    return cuzk_pool_create(&g_pool, 2) == CUZK_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cuzk_pool_destroy(g_pool);
    rmdir(g_dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_mapped_check),
        cmocka_unit_test(test_file_size),
        cmocka_unit_test(test_c_absent),
        cmocka_unit_test(test_mapped_proves),
        cmocka_unit_test(test_corruption),
        cmocka_unit_test(test_check_once),
        cmocka_unit_test(test_engine_rerecords),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
