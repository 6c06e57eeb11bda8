/*
 * fuzz_r1cs.c — libFuzzer target for the snarkjs .r1cs reader (cuzk_r1cs_from_snarkjs).
 *
 * Each input is parsed three ways: as it is; behind a synthesized container prefix
 * ("r1cs", version 1, nSections = first byte % 8) so mutations reach the section parser
 * without first having to rediscover the magic; and as byte edits / a truncation of an
 * embedded valid circom file (run_patched), which reaches every check without a seed
 * corpus. For every outcome the invariants below are
 * asserted and a violation abort()s so libFuzzer records the input:
 *   - a failure returns a non-OK status, mirrors it in err.code with a non-empty message,
 *     and leaves *out NULL;
 *   - an accepted file gives a well-formed CSR (row_ptr monotone from 0 to nnz, columns
 *     strictly increasing and < n_vars, coefficients non-zero), n_vars = nWires, density
 *     counts equal to the bitmaps' popcounts, and eval/check run on an all-ONE witness.
 * Allocation stays bounded by the input size (the reader's contract), so the default
 * libFuzzer memory limit doubles as a check of that. Single-threaded.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "cuzk/r1cs.h"

#include "fuzz_template.h"
#include "fuzz_templates.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static void check_accepted(const cuzk_r1cs *r, const cuzk_snarkjs_r1cs_header *h)
{
    CHECK(r->n_vars == h->n_wires && r->n_constraints == h->n_constraints);
    CHECK(r->n_public == h->n_pub_out + h->n_pub_in);
    CHECK(r->n_vars == 1 + r->n_public + r->n_aux);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        const cuzk_csr *c = &r->m[m];
        CHECK(c->row_ptr[0] == 0 && c->row_ptr[r->n_constraints] == c->nnz);
        for (uint64_t i = 0; i < r->n_constraints; i++) {
            CHECK(c->row_ptr[i] <= c->row_ptr[i + 1]);
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                CHECK(c->col[k] < r->n_vars && !cuzk_fr_is_zero(&c->coeff[k]));
                CHECK(k == c->row_ptr[i] || c->col[k - 1] < c->col[k]);
            }
        }
        uint64_t cnt = 0;
        for (uint32_t v = 0; v < r->n_vars; v++)
            cnt += cuzk_r1cs_density_test(r, (cuzk_r1cs_matrix)m, v);
        CHECK(cnt == r->density_count[m]);
        CHECK(cuzk_r1cs_density_count(r, (cuzk_r1cs_matrix)m, 0, r->n_vars) == cnt);
    }
    cuzk_fr *w = malloc((size_t)r->n_vars * sizeof *w);
    size_t n = r->n_constraints ? (size_t)r->n_constraints : 1;
    cuzk_fr *abc = malloc(3 * n * sizeof *abc);
    CHECK(w && abc);
    for (uint32_t v = 0; v < r->n_vars; v++)
        w[v] = CUZK_FR_ONE;
    cuzk_witness wv = cuzk_witness_dense(w, r->n_vars);
    CHECK(cuzk_r1cs_eval(r, &wv, abc, abc + n, abc + 2 * n, NULL) == CUZK_OK);
    cuzk_error err;
    uint64_t row;
    cuzk_status st = cuzk_r1cs_check(r, &wv, &row, &err);
    CHECK(st == CUZK_OK || (st == CUZK_ERR_UNSATISFIED && row < r->n_constraints));
    if (st == CUZK_ERR_UNSATISFIED) {
        cuzk_fr ab;
        cuzk_fr_mul(&ab, &abc[row], &abc[n + row]);
        CHECK(!cuzk_fr_eq(&ab, &abc[2 * n + row]));
    }
    free(w);
    free(abc);
}

static void run(const uint8_t *data, size_t size)
{
    cuzk_r1cs *r = (cuzk_r1cs *)&r; /* must come back NULL on failure */
    cuzk_snarkjs_r1cs_header h;
    cuzk_error err;
    memset(&err, 0, sizeof err);
    cuzk_status st = cuzk_r1cs_from_snarkjs(&r, &h, data, size, &err);
    if (st != CUZK_OK) {
        CHECK(r == NULL && err.code == st && err.msg[0] != '\0');
        return;
    }
    CHECK(r != NULL);
    check_accepted(r, &h);
    cuzk_r1cs_destroy(r);
}


static uint8_t k_template_bytes[sizeof k_r1cs_template / 2];
static fuzz_template g_template = {k_r1cs_template, k_template_bytes, 0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    fuzz_run_patched(&g_template, run, data, size);
    if (size == 0)
        return 0;
    uint8_t *buf = malloc(12 + size - 1);
    CHECK(buf);
    memcpy(buf, "r1cs\x01\x00\x00\x00", 8);
    buf[8] = data[0] % 8;
    buf[9] = buf[10] = buf[11] = 0;
    memcpy(buf + 12, data + 1, size - 1);
    run(buf, 12 + size - 1);
    free(buf);
    return 0;
}
