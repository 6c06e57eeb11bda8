/*
 * fuzz_json.c — libFuzzer target for the snarkjs JSON readers (proof.json, public.json,
 * verification_key.json). Every input goes to all three readers.
 *
 * Invariants (abort() on violation): a failure returns non-OK with err.code mirrored and a
 * message; an accepted document, written back with the matching writer and read again,
 * gives the same values (points, scalars, key), so reader and writer agree on everything
 * the reader accepts. Without jansson every reader must say CUZK_ERR_UNSUPPORTED.
 * Single-threaded.
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

static void fuzz_proof(const char *s, size_t n)
{
    cuzk_groth16_proof p, q;
    cuzk_error e;
    cuzk_status st = cuzk_groth16_proof_from_snarkjs_json(&p, s, n, &e);
    if (st != CUZK_OK) {
        check_failure(st, &e);
        return;
    }
    char *out;
    CHECK(cuzk_groth16_proof_to_snarkjs_json(&out, &p, NULL) == CUZK_OK);
    CHECK(cuzk_groth16_proof_from_snarkjs_json(&q, out, strlen(out), NULL) == CUZK_OK);
    CHECK(cuzk_g1_affine_eq(&p.a, &q.a) && cuzk_g2_affine_eq(&p.b, &q.b) &&
          cuzk_g1_affine_eq(&p.c, &q.c));
    free(out);
}

static void fuzz_public(const char *s, size_t n)
{
    cuzk_fr *v = NULL, *w = NULL;
    size_t nv = 0, nw = 0;
    cuzk_error e;
    cuzk_status st = cuzk_frs_from_snarkjs_json(&v, &nv, s, n, &e);
    if (st != CUZK_OK) {
        check_failure(st, &e);
        CHECK(v == NULL);
        return;
    }
    char *out;
    CHECK(cuzk_frs_to_snarkjs_json(&out, v, nv, NULL) == CUZK_OK);
    CHECK(cuzk_frs_from_snarkjs_json(&w, &nw, out, strlen(out), NULL) == CUZK_OK);
    CHECK(nw == nv);
    for (size_t i = 0; i < nv; i++)
        CHECK(cuzk_fr_eq(&v[i], &w[i]));
    free(out);
    free(v);
    free(w);
}

static void fuzz_vk(const char *s, size_t n)
{
    cuzk_groth16_vk a, b;
    cuzk_error e;
    cuzk_status st = cuzk_groth16_vk_from_snarkjs_json(&a, s, n, &e);
    if (st != CUZK_OK) {
        check_failure(st, &e);
        return;
    }
    char *out;
    CHECK(cuzk_groth16_vk_to_snarkjs_json(&out, &a, NULL) == CUZK_OK);
    CHECK(cuzk_groth16_vk_from_snarkjs_json(&b, out, strlen(out), NULL) == CUZK_OK);
    CHECK(cuzk_groth16_vk_eq(&a, &b));
    free(out);
    cuzk_groth16_vk_free(&a);
    cuzk_groth16_vk_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16))
        return 0;
    const char *s = (const char *)data;
    fuzz_proof(s, size);
    fuzz_public(s, size);
    fuzz_vk(s, size);
    return 0;
}
