/*
 * fuzz_params.c — libFuzzer target for the bellperson readers: .params
 * (cuzk_groth16_pk_from_bellperson at every trust level), .vk, proof bytes and public
 * inputs.
 *
 * Each input is parsed as it is, and as edits of an embedded valid .params (a dev-setup
 * key of the x^3 + x + 5 circuit, made once at start-up): the first input byte picks a
 * truncation length, the rest are (offset, xor) pairs. Invariants (abort() on violation):
 *   - failures are non-OK with err.code mirrored and a message;
 *   - an accepted .params / .vk / proof re-encodes to exactly the bytes it was read from
 *     (decoding invents nothing and drops nothing);
 *   - a checked read accepts only what the unchecked read accepts.
 * Single-threaded.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/test_groth16_circuits.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static uint8_t *g_valid;
static size_t g_valid_len;

static void make_valid(void)
{
    tc_circuit c;
    CHECK(tc_xcube(&c, 3) == 0);
    static const uint8_t seed[32] = {1, 2, 3};
    cuzk_groth16_pk pk;
    CHECK(cuzk_groth16_setup_dev(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON, seed, NULL, NULL) ==
          CUZK_OK);
    g_valid_len = cuzk_groth16_pk_bellperson_size(&pk);
    g_valid = malloc(g_valid_len);
    CHECK(g_valid && cuzk_groth16_pk_to_bellperson(g_valid, g_valid_len, &pk, NULL) == CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    tc_free(&c);
}

static void run_params(const uint8_t *d, size_t n)
{
    bool accepted[3];
    for (int t = 2; t >= 0; t--) {
        cuzk_groth16_pk pk;
        cuzk_error err;
        memset(&err, 0, sizeof err);
        cuzk_status st =
            cuzk_groth16_pk_from_bellperson(&pk, d, n, (cuzk_params_trust)t, NULL, &err);
        accepted[t] = st == CUZK_OK;
        if (st != CUZK_OK) {
            CHECK(err.code == st && err.msg[0] != '\0' && st != CUZK_ERR_INTERNAL);
            continue;
        }
        CHECK(t == 2 || accepted[t + 1]); /* stricter never accepts more */
        size_t len = cuzk_groth16_pk_bellperson_size(&pk);
        CHECK(len == n);
        uint8_t *re = malloc(len ? len : 1);
        CHECK(re && cuzk_groth16_pk_to_bellperson(re, len, &pk, NULL) == CUZK_OK);
        CHECK(memcmp(re, d, n) == 0);
        free(re);
        cuzk_groth16_pk_free(&pk);
    }
    cuzk_groth16_vk vk;
    cuzk_error err;
    size_t used = 0;
    cuzk_status st = cuzk_groth16_vk_from_bellperson(&vk, d, n, &used, &err);
    if (st == CUZK_OK) {
        size_t len = cuzk_groth16_vk_bellperson_size(&vk);
        CHECK(len == used && len <= n);
        uint8_t *re = malloc(len);
        CHECK(re && cuzk_groth16_vk_to_bellperson(re, len, &vk, NULL) == CUZK_OK);
        CHECK(memcmp(re, d, len) == 0);
        free(re);
        cuzk_groth16_vk_free(&vk);
    } else {
        CHECK(err.code == st && st != CUZK_ERR_INTERNAL);
    }
}

static void run_proofs(const uint8_t *d, size_t n)
{
    size_t k = n / CUZK_GROTH16_PROOF_BYTES;
    cuzk_groth16_proof *p = malloc((k + 1) * sizeof *p);
    CHECK(p);
    cuzk_error err;
    cuzk_status st = cuzk_groth16_proofs_from_bellperson(p, k, d, n, &err);
    if (st == CUZK_OK) {
        CHECK(n == k * CUZK_GROTH16_PROOF_BYTES);
        uint8_t *re = malloc(n ? n : 1);
        CHECK(re);
        cuzk_groth16_proofs_to_bellperson(re, p, k);
        CHECK(memcmp(re, d, n) == 0);
        free(re);
    } else {
        CHECK(err.code == st && st != CUZK_ERR_INTERNAL);
    }
    cuzk_fr x[4];
    st = cuzk_frs_from_bellperson(x, n / 32 < 4 ? n / 32 : 4, d, n < 128 ? n : 128, &err);
    CHECK(st == CUZK_OK || err.code == st);
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!g_valid)
        make_valid();
    run_params(data, size);
    run_proofs(data, size);
    if (size == 0)
        return 0;
    /* edits of the valid file: byte 0 scales the truncation, then (u16 offset, xor) triples */
    size_t len = g_valid_len - (g_valid_len * data[0]) / 1024;
    uint8_t *buf = malloc(len ? len : 1);
    CHECK(buf);
    memcpy(buf, g_valid, len);
    for (size_t i = 1; i + 3 <= size && len; i += 3) {
        size_t off = ((size_t)data[i] << 8 | data[i + 1]) % len;
        buf[off] ^= data[i + 2];
    }
    run_params(buf, len);
    free(buf);
    return 0;
}
