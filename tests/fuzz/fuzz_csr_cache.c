/*
 * fuzz_csr_cache.c — libFuzzer target for the CSR cache reader (cuzk_r1cs_cache_open,
 * cuzk/r1cs_cache.h).
 *
 * The reader takes a path, so each case is written to one temporary file and opened at
 * every check level, under the id its header names (so the id check does not stop it)
 * and under another. Each input is used two ways: as the whole file, and as an edit script
 * (3-byte offset, xor byte) on a small valid cache built at start-up (a random-free
 * 3-row system with a witness map), which reaches the layout and bound checks without a
 * seed corpus. When the input's first byte is odd, the edited or raw file's section and
 * header checksums are recomputed before opening, so mutations get past the checksums
 * to the shape, layout and bound checks behind them. Invariants (abort() on violation):
 *   - a failure returns a non-OK status, mirrors it in err.code with a non-empty message,
 *     and leaves *out NULL;
 *   - an accepted file at BOUNDS or FULL has row_ptr monotone from 0 to nnz, columns
 *     strictly increasing and < n_vars, coefficient indices < the table size, no m[].coeff
 *     (the table carries the coefficients), and cuzk_r1cs_eval runs on an all-ONE witness
 *     (no out-of-bounds read: ASan);
 *   - at SHAPE, row_ptr's end points and n_vars = 1 + n_public + n_aux hold.
 * Single-threaded.
 */
#define _DEFAULT_SOURCE /* mkstemp */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/r1cs.h"
#include "cuzk/r1cs_cache.h"
#include "formats/r1cs_cache_hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static char g_path[64];
static uint8_t *g_valid;
static size_t g_valid_len;

static void check_accepted(const cuzk_r1cs *r, cuzk_r1cs_cache_check lvl)
{
    CHECK(r->n_vars == 1ull + r->n_public + r->n_aux);
    CHECK(r->coeff_values != NULL);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        const cuzk_csr *c = &r->m[m];
        CHECK(c->coeff == NULL && r->coeff_index[m] != NULL);
        CHECK(c->row_ptr[0] == 0 && c->row_ptr[r->n_constraints] == c->nnz);
        if (lvl == CUZK_R1CS_CACHE_CHECK_SHAPE)
            continue;
        for (uint64_t i = 0; i < r->n_constraints; i++) {
            CHECK(c->row_ptr[i] <= c->row_ptr[i + 1]);
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                CHECK(c->col[k] < r->n_vars && r->coeff_index[m][k] < r->n_coeff_values);
                CHECK(k == c->row_ptr[i] || c->col[k - 1] < c->col[k]);
            }
        }
    }
    if (lvl == CUZK_R1CS_CACHE_CHECK_SHAPE || r->n_vars > (1u << 20) ||
        r->n_constraints > (1u << 20))
        return;
    cuzk_fr *w = malloc((size_t)r->n_vars * sizeof *w);
    size_t n = r->n_constraints ? (size_t)r->n_constraints : 1;
    cuzk_fr *abc = malloc(3 * n * sizeof *abc);
    CHECK(w && abc);
    for (uint32_t v = 0; v < r->n_vars; v++)
        w[v] = CUZK_FR_ONE;
    cuzk_witness wv = cuzk_witness_dense(w, r->n_vars);
    CHECK(cuzk_r1cs_eval(r, &wv, abc, abc + n, r->c_absent ? NULL : abc + 2 * n, NULL) ==
          CUZK_OK);
    free(w);
    free(abc);
}

/* Recomputes every in-range section checksum and the header checksum. The section count
 * is the header's own (14 in version 2, which has no 32-byte coefficient sections),
 * capped at what the header page holds, so the harness follows the format's version. */
static void repair(uint8_t *b, size_t n)
{
    if (n < 4096)
        return;
    uint32_t n_sec;
    memcpy(&n_sec, b + 132, 4);
    if (n_sec > (4088 - 152) / 32)
        n_sec = (4088 - 152) / 32;
    for (uint32_t k = 0; k < n_sec; k++) {
        uint8_t *e = b + 152 + 32 * k;
        uint64_t off, len, sum;
        memcpy(&off, e + 8, 8);
        memcpy(&len, e + 16, 8);
        if (off > n || len > n - off)
            continue;
        CHECK(r1cs_cache_checksum(b + off, len, (uint64_t)k, NULL, &sum, NULL) == CUZK_OK);
        memcpy(e + 24, &sum, 8);
    }
    uint64_t h = r1cs_cache_hash(b, 4088, 0);
    memcpy(b + 4088, &h, 8);
}

static void open_all(const uint8_t *b, size_t n)
{
    FILE *f = fopen(g_path, "wb");
    CHECK(f && fwrite(b, 1, n, f) == n && fclose(f) == 0);
    char id[64] = "fuzz";
    if (n >= 80) {
        memcpy(id, b + 16, 63);
        id[63] = 0;
    }
    const char *ids[2] = {id, "other-id"};
    for (int i = 0; i < 2; i++)
        for (int lvl = 0; lvl <= CUZK_R1CS_CACHE_CHECK_FULL; lvl++)
            for (int with_map = 0; with_map < 2; with_map++) {
                cuzk_r1cs *r = (cuzk_r1cs *)&r;
                cuzk_witness_map map;
                cuzk_error err;
                memset(&err, 0, sizeof err);
                cuzk_status st = cuzk_r1cs_cache_open(g_path, ids[i], (cuzk_r1cs_cache_check)lvl,
                                                      &r, with_map ? &map : NULL, NULL, &err);
                if (st != CUZK_OK) {
                    CHECK(r == NULL && err.code == st && err.msg[0] != '\0');
                    continue;
                }
                check_accepted(r, (cuzk_r1cs_cache_check)lvl);
                if (with_map) {
                    CHECK(map.n_vars == r->n_vars && map.n_bits < r->n_vars);
                    cuzk_witness_map_free(&map);
                }
                cuzk_r1cs_destroy(r);
            }
}

/* x * x = y, y * x = z, (z + x + 5) * 1 = out; aux x, y, z; bits: none of them. */
static void make_valid(void)
{
    cuzk_r1cs_builder *b;
    CHECK(cuzk_r1cs_builder_create(&b, NULL) == CUZK_OK);
    CHECK(cuzk_r1cs_builder_alloc_public(b, 1, NULL, NULL) == CUZK_OK);
    CHECK(cuzk_r1cs_builder_alloc_aux(b, 4, NULL, NULL) == CUZK_OK);
    cuzk_fr one = CUZK_FR_ONE, five;
    cuzk_fr_from_u64(&five, 5);
    struct { int m; cuzk_r1cs_var v; const cuzk_fr *c; } t[] = {
        {0, CUZK_R1CS_VAR_AUX(0), &one}, {1, CUZK_R1CS_VAR_AUX(0), &one},
        {2, CUZK_R1CS_VAR_AUX(1), &one}, {-1, 0, NULL},
        {0, CUZK_R1CS_VAR_AUX(1), &one}, {1, CUZK_R1CS_VAR_AUX(0), &one},
        {2, CUZK_R1CS_VAR_AUX(2), &one}, {-1, 0, NULL},
        {0, CUZK_R1CS_VAR_AUX(2), &one}, {0, CUZK_R1CS_VAR_AUX(0), &one},
        {0, CUZK_R1CS_VAR_ONE, &five},   {1, CUZK_R1CS_VAR_ONE, &one},
        {2, CUZK_R1CS_VAR_PUBLIC(0), &one}, {1, CUZK_R1CS_VAR_AUX(3), &five}, {-1, 0, NULL}};
    CHECK(cuzk_r1cs_builder_begin_row(b, NULL) == CUZK_OK);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (t[i].m < 0) {
            if (i + 1 < sizeof t / sizeof t[0])
                CHECK(cuzk_r1cs_builder_begin_row(b, NULL) == CUZK_OK);
            continue;
        }
        CHECK(cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)t[i].m, t[i].v, t[i].c, NULL) ==
              CUZK_OK);
    }
    cuzk_r1cs *r;
    CHECK(cuzk_r1cs_builder_finish(b, &r, NULL) == CUZK_OK);
    uint64_t bits = 1u << 5; /* the last aux (variable 5) */
    cuzk_witness_map map;
    CHECK(cuzk_witness_map_init(&map, &bits, r->n_vars, NULL) == CUZK_OK);
    CHECK(cuzk_r1cs_cache_write(g_path, "fuzz", r, &map, NULL, NULL) == CUZK_OK);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r);
    FILE *f = fopen(g_path, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    g_valid_len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    g_valid = malloc(g_valid_len);
    CHECK(g_valid && fread(g_valid, 1, g_valid_len, f) == g_valid_len);
    fclose(f);
}

static void cleanup(void) { unlink(g_path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!g_valid) {
        snprintf(g_path, sizeof g_path, "/tmp/cuzk-fuzz-csr-XXXXXX");
        int fd = mkstemp(g_path);
        CHECK(fd >= 0);
        close(fd);
        atexit(cleanup);
        make_valid();
    }
    bool fix = size > 0 && (data[0] & 1);
    uint8_t *raw = malloc(size ? size : 1);
    CHECK(raw);
    memcpy(raw, data, size);
    if (fix)
        repair(raw, size);
    open_all(raw, size);
    free(raw);
    /* the edit script on the valid file */
    uint8_t *ed = malloc(g_valid_len);
    CHECK(ed);
    memcpy(ed, g_valid, g_valid_len);
    size_t len = g_valid_len;
    for (size_t i = 1; i + 4 <= size; i += 4) {
        size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8 | (size_t)data[i + 2] << 16);
        if (at >= (1u << 23)) /* top bit: truncate there instead */
            len = (at - (1u << 23)) % (g_valid_len + 1);
        else
            ed[at % g_valid_len] ^= data[i + 3];
    }
    if (fix)
        repair(ed, len);
    open_all(ed, len);
    free(ed);
    return 0;
}
