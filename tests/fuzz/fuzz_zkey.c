/*
 * fuzz_zkey.c — libFuzzer target for the snarkjs .zkey reader: the header reader, the
 * vk-only reader and the full key reader (at two trust levels) on the input as it is, and
 * on the input behind a synthesized container prefix ("zkey", version 1, nSections = first
 * byte % 12) so mutations reach the section parsers without rediscovering the magic.
 * Seeds: a dev-setup .zkey written by gen_seeds_files.c (seeds-fuzz_zkey); the .zkey
 * files the snarkjs interop test writes are good extra seeds.
 *
 * Invariants (abort() on violation so libFuzzer records the input):
 *   - a failure returns non-OK, mirrors it in err.code with a non-empty message, leaves
 *     *ab NULL;
 *   - the three readers agree on acceptance of the container/header part;
 *   - an accepted key fits its A/B matrices (cuzk_groth16_pk_check_circuit), the CSR is
 *     well formed (rows sorted, columns strictly increasing and < n_vars, no zero
 *     coefficient), and binding an all-ONE witness succeeds.
 * Allocation stays bounded by the input size. Single-threaded.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static void check_failure(cuzk_status st, const cuzk_error *e)
{
    CHECK(st != CUZK_OK && e->code == st && e->msg[0] != 0);
}

static void check_accepted(const cuzk_groth16_pk *pk, cuzk_r1cs *ab,
                           const cuzk_snarkjs_zkey_header *h)
{
    CHECK(pk->flavour == CUZK_GROTH16_SNARKJS && !pk->append_input_rows);
    CHECK(ab->n_vars == h->n_vars && ab->n_public == h->n_public);
    CHECK(cuzk_groth16_pk_check_circuit(pk, ab, NULL) == CUZK_OK);
    for (int m = 0; m < 2; m++) {
        const cuzk_csr *c = &ab->m[m];
        CHECK(c->row_ptr[0] == 0 && c->row_ptr[ab->n_constraints] == c->nnz);
        for (uint64_t i = 0; i < ab->n_constraints; i++)
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                CHECK(c->col[k] < ab->n_vars && !cuzk_fr_is_zero(&c->coeff[k]));
                CHECK(k == c->row_ptr[i] || c->col[k - 1] < c->col[k]);
            }
    }
    cuzk_fr *w = malloc((size_t)ab->n_vars * sizeof *w);
    CHECK(w != NULL);
    for (uint32_t v = 0; v < ab->n_vars; v++)
        w[v] = CUZK_FR_ONE;
    cuzk_witness wit = cuzk_witness_dense(w, ab->n_vars);
    CHECK(ab->c_absent && cuzk_r1cs_check(ab, &wit, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_r1cs_eval(ab, &wit, NULL, NULL, NULL, NULL) == CUZK_OK);
    free(w);
}

static void run(const uint8_t *data, size_t size)
{
    cuzk_error e;
    cuzk_snarkjs_zkey_header h;
    cuzk_status hs = cuzk_snarkjs_zkey_header_read(&h, data, size, &e);
    if (hs != CUZK_OK)
        check_failure(hs, &e);
    cuzk_groth16_vk vk;
    cuzk_status vs = cuzk_groth16_vk_from_snarkjs_zkey(&vk, data, size, &e);
    if (vs == CUZK_OK) {
        CHECK(hs == CUZK_OK && vk.n_ic == (size_t)h.n_public + 1);
        cuzk_groth16_vk_free(&vk);
    } else {
        check_failure(vs, &e);
    }
    static const cuzk_params_trust trusts[2] = {CUZK_PARAMS_UNCHECKED,
                                                CUZK_PARAMS_TRUSTED_ONCURVE};
    for (int t = 0; t < 2; t++) {
        cuzk_groth16_pk pk;
        cuzk_r1cs *ab = (cuzk_r1cs *)1;
        cuzk_snarkjs_zkey_header h2;
        cuzk_status st = cuzk_groth16_pk_from_snarkjs_zkey(&pk, &ab, &h2, data, size, trusts[t],
                                                           NULL, NULL, NULL, &e);
        if (st == CUZK_OK) {
            CHECK(hs == CUZK_OK && vs == CUZK_OK);
            check_accepted(&pk, ab, &h2);
            cuzk_groth16_pk_free(&pk);
            cuzk_r1cs_destroy(ab);
        } else {
            check_failure(st, &e);
            CHECK(ab == NULL);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    if (size == 0 || size > (1u << 20))
        return 0;
    uint8_t *buf = malloc(size + 11);
    if (!buf)
        return 0;
    memcpy(buf, "zkey\x01\0\0\0", 8);
    uint32_t nsec = data[0] % 12;
    memcpy(buf + 8, &nsec, 4);
    memcpy(buf + 12, data + 1, size - 1);
    run(buf, size + 11);
    free(buf);
    return 0;
}
