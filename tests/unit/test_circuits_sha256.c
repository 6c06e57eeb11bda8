/*
 * test_circuits_sha256.c — the SHA-256 gadget (bellperson layout) against OpenSSL's
 * SHA-256, on every backend, with bellpepper's row counts: 25,840 for one compression
 * from the constant IV over 512 allocated bits, 44,874 for sha256 of 512 bits (that block
 * plus a constant padding block of 19,034), none at all for a constant message.
 *
 * Oracles: OpenSSL (EVP_Digest) for values; bellpepper's sha256.rs tests for the counts;
 * the r1cs layer's check for satisfaction.
 */
#include <openssl/evp.h>

#include "circuit_test_util.h"
#include "circuits/gadgets/bits.h"
#include "test_rng.h"

typedef struct sha_ctx {
    const uint8_t *msg;
    size_t len;          /* bytes */
    bool constant;       /* message bits as constants instead of allocated bits */
    bool block_only;     /* one compression of exactly 64 bytes, no padding */
    gad_bool *out;       /* 256 */
} sha_ctx;

static cuzk_status sha_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const sha_ctx *c = vctx;
    size_t n = c->len * 8;
    gad_bool *bits = malloc((n ? n : 1) * sizeof *bits);
    if (!bits)
        return CUZK_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        bool b = (c->msg[i / 8] >> (7 - i % 8)) & 1;
        bits[i] = c->constant ? gb_const(b) : gad_bit_alloc(cs, b);
    }
    if (c->block_only)
        gad_sha256_block_no_padding(cs, bits, c->out);
    else
        gad_sha256(cs, bits, n, c->out);
    free(bits);
    return CUZK_OK;
}

static void digest_of(const ct_result *r, const gad_bool out[256], uint8_t d[32])
{
    memset(d, 0, 32);
    for (unsigned i = 0; i < 256; i++) {
        bool b = out[i].value;
        if (out[i].kind != GB_CONST) {
            const cuzk_fr *v = ct_aux(r, (uint32_t)out[i].var);
            b = cuzk_fr_is_one(v);
            if (out[i].kind == GB_NOT)
                b = !b;
        }
        d[i / 8] |= (uint8_t)(b << (7 - i % 8));
    }
}

static void openssl_sha256(const uint8_t *m, size_t n, uint8_t d[32])
{
    unsigned int dl = 0;
    assert_int_equal(EVP_Digest(m, n, d, &dl, EVP_sha256(), NULL), 1);
    assert_int_equal(dl, 32);
}

static void test_against_openssl(void **state)
{
    (void)state;
    size_t iters = test_iters(6);
    for (size_t it = 0; it < iters; it++) {
        size_t len = it == 0 ? 0 : (size_t)(test_rng_u64() % 140);
        uint8_t msg[140], want[32], got[32];
        test_rng_bytes(msg, len);
        gad_bool out[256];
        sha_ctx c = {msg, len, false, false, out};
        ct_result r;
        ct_run(sha_circuit, &c, &r);
        openssl_sha256(msg, len, want);
        digest_of(&r, out, got);
        assert_memory_equal(got, want, 32);
        /* a flipped output bit of the last compression breaks a row */
        for (unsigned i = 0; i < 256; i++) {
            if (out[i].kind == GB_CONST)
                continue;
            cuzk_fr *p = &r.w[1 + r.r1cs->n_public + (uint32_t)out[i].var];
            *p = cuzk_fr_is_one(p) ? CUZK_FR_ZERO : CUZK_FR_ONE;
            assert_false(ct_satisfied(&r, NULL));
            break;
        }
        ct_free(&r);
    }
}

static void test_counts(void **state)
{
    (void)state;
    uint8_t msg[64], want[32], got[32];
    test_rng_bytes(msg, sizeof msg);
    gad_bool out[256];

    /* sha256 of 512 allocated bits: a data block and a constant padding block */
    sha_ctx c = {msg, 64, false, false, out};
    ct_result r;
    ct_run(sha_circuit, &c, &r);
    printf("sha256(512 bits): %llu rows, %u aux (after the 512 input bits)\n",
           (unsigned long long)r.r1cs->n_constraints - 512, r.r1cs->n_aux - 512);
    assert_int_equal(r.r1cs->n_constraints - 512, 44874);
    openssl_sha256(msg, 64, want);
    digest_of(&r, out, got);
    assert_memory_equal(got, want, 32);
    uint64_t two_blocks = r.r1cs->n_constraints - 512;
    ct_free(&r);

    /* one compression from the constant IV: 25,840; so the padding block is 19,034 */
    uint8_t block[64];
    size_t mlen = (size_t)(test_rng_u64() % 56);
    test_rng_bytes(block, mlen);
    memset(block + mlen, 0, 64 - mlen);
    block[mlen] = 0x80;
    block[62] = (uint8_t)((mlen * 8) >> 8);
    block[63] = (uint8_t)(mlen * 8);
    sha_ctx b = {block, 64, false, true, out};
    ct_run(sha_circuit, &b, &r);
    printf("compression (constant IV): %llu rows, %u aux\n",
           (unsigned long long)r.r1cs->n_constraints - 512, r.r1cs->n_aux - 512);
    assert_int_equal(r.r1cs->n_constraints - 512, 25840);
    assert_int_equal(two_blocks - (r.r1cs->n_constraints - 512), 19034);
    openssl_sha256(block, mlen, want);
    digest_of(&r, out, got);
    assert_memory_equal(got, want, 32);
    ct_free(&r);

    /* a constant message folds to constants: no rows */
    sha_ctx k = {msg, 37, true, false, out};
    ct_run(sha_circuit, &k, &r);
    assert_int_equal(r.r1cs->n_constraints, 0);
    assert_int_equal(r.r1cs->n_aux, 0);
    openssl_sha256(msg, 37, want);
    digest_of(&r, out, got);
    assert_memory_equal(got, want, 32);
    ct_free(&r);
}

int main(void)
{
    test_rng_init("test_circuits_sha256");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_openssl),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
