/*
 * test_circuits_por.c — Filecoin's hasher circuits and Merkle inclusion paths (tree D:
 * binary SHA-256; trees R and C: Poseidon 8-0-0, 8-8-0, 8-8-2) on every backend.
 *
 * Oracles: OpenSSL SHA-256 over the leaves' 32-byte little-endian encodings (digest read
 * little-endian, top two bits cleared: Sha256Domain::trim_to_fr32) and the native Poseidon
 * for the roots; the node index for the packed path input; rust-fil-proofs'
 * storage-proofs-core/tests/por_circuit.rs counts for 64-leaf base trees (private root:
 * SHA-256 base 2: 272,294, Poseidon base 2 / 4 / 8: 1,886 / 1,163 / 1,062, sub 8-8:
 * 1,592, top 8-8-2: 1,906; the public-root variants there add one inputize row).
 * A SHA-256 level costs 45,382 rows, not 3 + 512 + 44,874 + 1: the two constant padding
 * bits of the 512-bit message make a few schedule XORs free.
 */
#include <openssl/evp.h>

#include "circuit_test_util.h"
#include "circuits/gadgets/merkle.h"
#include "test_rng.h"

static void native_sha_hash(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b)
{
    uint8_t buf[64], d[32];
    unsigned int dl;
    cuzk_fr_to_bytes_le(buf, a);
    cuzk_fr_to_bytes_le(buf + 32, b);
    assert_int_equal(EVP_Digest(buf, 64, d, &dl, EVP_sha256(), NULL), 1);
    d[31] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(out, d), CUZK_OK);
}

static void native_hash(cuzk_fr *out, gad_hasher h, const cuzk_fr *c, unsigned n)
{
    if (h == GAD_HASH_SHA256)
        native_sha_hash(out, &c[0], &c[1]);
    else
        assert_int_equal(cuzk_poseidon_hash(out, c, n, NULL), CUZK_OK);
}

typedef struct por_ctx {
    gad_merkle_shape shape;
    cuzk_fr leaf, root;
    unsigned index[16];
    cuzk_fr sib[16 * 7];
} por_ctx;

static cuzk_status por_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const por_ctx *c = vctx;
    gad_num leaf = gad_num_alloc(cs, &c->leaf), root = gad_num_alloc(cs, &c->root);
    gad_por(cs, &c->shape, &leaf, &root, c->index, c->sib);
    return CUZK_OK;
}

/* A random path; returns the leaf's node index, sets c->root to the native root. */
static uint64_t random_path(por_ctx *c)
{
    test_rand_fr(&c->leaf);
    cuzk_fr cur = c->leaf;
    uint64_t node = 0, stride = 1;
    const cuzk_fr *s = c->sib;
    for (unsigned l = 0; l < gad_merkle_levels(&c->shape); l++) {
        unsigned a = gad_merkle_level_arity(&c->shape, l);
        c->index[l] = (unsigned)(test_rng_u64() % a);
        node += c->index[l] * stride;
        stride *= a;
        cuzk_fr children[8];
        for (unsigned i = 0, k = 0; i < a; i++) {
            if (i == c->index[l]) {
                children[i] = cur;
            } else {
                test_rand_fr(&c->sib[(s - c->sib) + k]);
                children[i] = s[k++];
            }
        }
        s += a - 1;
        native_hash(&cur, c->shape.hasher, children, a);
    }
    c->root = cur;
    return node;
}

static void test_paths(void **state)
{
    (void)state;
    static const struct {
        gad_merkle_shape shape;
        uint64_t rows; /* por_circuit.rs, private root */
    } cases[] = {
        {{GAD_HASH_SHA256, 2, 6, 0, 0}, 272294},  /* tree D of a 2 KiB sector */
        {{GAD_HASH_POSEIDON, 2, 6, 0, 0}, 1886},
        {{GAD_HASH_POSEIDON, 4, 3, 0, 0}, 1163},
        {{GAD_HASH_POSEIDON, 8, 2, 0, 0}, 1062},  /* trees R, C of 2 KiB: 8-0-0 */
        {{GAD_HASH_POSEIDON, 8, 2, 8, 0}, 1592},  /* 8-8-0 (32 GiB: 9 base levels) */
        {{GAD_HASH_POSEIDON, 8, 2, 8, 2}, 1906},  /* 8-8-2 (64 GiB) */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        por_ctx c;
        memset(&c, 0, sizeof c);
        c.shape = cases[k].shape;
        uint64_t node = random_path(&c);
        ct_result r;
        ct_run(por_circuit, &c, &r);
        uint64_t rows = cases[k].rows;
        printf("path %zu: %u levels, %llu rows, %u aux, %u inputs\n", k,
               gad_merkle_levels(&c.shape), (unsigned long long)r.r1cs->n_constraints,
               r.r1cs->n_aux, r.r1cs->n_public);
        assert_int_equal(r.r1cs->n_constraints, rows);
        assert_int_equal(r.r1cs->n_public, 1);
        cuzk_fr want;
        cuzk_fr_from_u64(&want, node);
        assert_true(cuzk_fr_eq(&r.w[1], &want));
        assert_true(cuzk_fr_eq(ct_aux(&r, 1), &c.root));
        /* another root, or another path input, is rejected */
        cuzk_fr_add(&r.w[3], &r.w[3], &CUZK_FR_ONE);
        uint64_t bad = 0;
        assert_false(ct_satisfied(&r, &bad));
        assert_int_equal(bad, rows - 1);
        cuzk_fr_sub(&r.w[3], &r.w[3], &CUZK_FR_ONE);
        cuzk_fr_add(&r.w[1], &r.w[1], &CUZK_FR_ONE);
        assert_false(ct_satisfied(&r, &bad));
        assert_int_equal(bad, rows - 2);
        ct_free(&r);
    }
}

typedef struct leaves_ctx {
    gad_hasher h;
    unsigned n;
    cuzk_fr v[11];
    gad_num *out;
} leaves_ctx;

static cuzk_status leaves_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const leaves_ctx *c = vctx;
    gad_num in[11];
    for (unsigned i = 0; i < c->n; i++)
        in[i] = gad_num_alloc(cs, &c->v[i]);
    *c->out = gad_hash_leaves(cs, c->h, in, c->n);
    return CUZK_OK;
}

static void test_hash_leaves(void **state)
{
    (void)state;
    static const struct { gad_hasher h; unsigned n; uint64_t rows; } cases[] = {
        {GAD_HASH_SHA256, 2, 45382 - 3}, /* a level less its index bit and insert_2 */
        {GAD_HASH_POSEIDON, 2, 311}, {GAD_HASH_POSEIDON, 8, 505}, {GAD_HASH_POSEIDON, 11, 598}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        gad_num out;
        leaves_ctx c = {cases[k].h, cases[k].n, {{{0}}}, &out};
        for (unsigned i = 0; i < c.n; i++)
            test_rand_fr(&c.v[i]);
        ct_result r;
        ct_run(leaves_circuit, &c, &r);
        assert_int_equal(r.r1cs->n_constraints, cases[k].rows);
        cuzk_fr want;
        native_hash(&want, c.h, c.v, c.n);
        assert_true(cuzk_fr_eq(ct_aux(&r, (uint32_t)out.var), &want));
        ct_free(&r);
    }
}

int main(void)
{
    test_rng_init("test_circuits_por");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_leaves),
        cmocka_unit_test(test_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
