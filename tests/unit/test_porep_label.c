/*
 * test_porep_label.c — the StackedDRG labeling gadget (create_label_circuit) and column
 * hash (hash_single_column) on every backend (circuit_test_util.h cross-checks them and
 * checks satisfaction).
 *
 * Oracles: OpenSSL SHA-256 over the label's 1,248-byte message as rust-fil-proofs'
 * native create_label (and cuzk_c1_check) builds it — replica_id || u32 BE layer ||
 * u64 BE node || 20 zero bytes || 37 parents — digest read little endian with its top two
 * bits cleared; the native Poseidon (cuzk_poseidon_hash) for the column hash.
 * Counts (filecoin.md §5, rust-fil-proofs tests): create_label with 38 x 256 test bit
 * allocations and a constant node: 532,025 rows; column hash 311 (2 layers) / 598 (11).
 * Threading: single-threaded.
 */
#include <openssl/evp.h>

#include "circuit_test_util.h"
#include "circuits/porep/porep_internal.h"
#include "test_rng.h"

typedef uint8_t node_bytes[32];

/* The native label: SHA-256 of the message, trimmed to 254 bits, as an Fr. */
static void native_label(cuzk_fr *out, const node_bytes id, uint32_t layer, uint64_t node,
                         const node_bytes parents[37])
{
    uint8_t buf[64 + 37 * 32] = {0}, d[32];
    memcpy(buf, id, 32);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (int p = 0; p < 37; p++)
        memcpy(buf + 64 + 32 * p, parents[p], 32);
    unsigned int dl = 0;
    assert_int_equal(EVP_Digest(buf, sizeof buf, d, &dl, EVP_sha256(), NULL), 1);
    d[31] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(out, d), CUZK_OK);
}

/* ---- the rust-fil-proofs fixture's shape: bytes allocated as bits, MSB first ---------- */

typedef struct bytes_ctx {
    node_bytes id, parents[37];
    uint32_t layer;
    uint64_t node;
    bool node_allocated; /* UInt64::alloc instead of UInt64::constant */
} bytes_ctx;

/* bytes_into_boolean_vec_be: 256 allocated bits, each byte MSB first. */
static void alloc_bytes(cuzk_cs *cs, const node_bytes b, gad_bool out[256])
{
    for (unsigned i = 0; i < 256; i++)
        out[i] = gad_bit_alloc(cs, (b[i / 8] >> (7 - i % 8)) & 1);
}

static cuzk_status bytes_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const bytes_ctx *c = vctx;
    static gad_bool pbits[37][256];
    gad_bool id[256], node[64];
    const gad_bool *pp[37];
    for (int p = 0; p < 37; p++) {
        alloc_bytes(cs, c->parents[p], pbits[p]);
        pp[p] = pbits[p];
    }
    alloc_bytes(cs, c->id, id);
    for (unsigned i = 0; i < 64; i++)
        node[i] = gb_const((c->node >> i) & 1);
    if (c->node_allocated)
        gad_bits_alloc_u64(cs, c->node, node);
    porep_create_label(cs, id, c->layer, node, pp);
    return CUZK_OK;
}

static void test_label_fixture(void **state)
{
    (void)state;
    for (int allocated = 0; allocated < 2; allocated++) {
        bytes_ctx c;
        test_rng_bytes(c.id, 32);
        for (int p = 0; p < 37; p++)
            test_rng_bytes(c.parents[p], 32);
        c.layer = 1 + (uint32_t)(test_rng_u64() % 11);
        c.node = allocated ? test_rng_u64() : test_rng_u64() % (1ull << 31);
        c.node_allocated = allocated;
        ct_result r;
        ct_run(bytes_circuit, &c, &r);
        printf("create_label (node %s): %llu rows, %u aux\n", allocated ? "allocated" : "constant",
               (unsigned long long)r.r1cs->n_constraints, r.r1cs->n_aux);
        if (!allocated) /* the fixture's count; an allocated node's bits are not constants */
            assert_int_equal(r.r1cs->n_constraints, 532025u);
        else
            assert_true(r.r1cs->n_constraints > 532025u + 64u);
        assert_int_equal(r.r1cs->n_public, 0);
        cuzk_fr want;
        native_label(&want, c.id, c.layer, c.node, (const node_bytes *)c.parents);
        assert_true(cuzk_fr_eq(ct_aux(&r, r.r1cs->n_aux - 1), &want));
        /* the label is bound: another value fails the pack row, the last one */
        cuzk_fr_add(&r.w[r.n_vars - 1], &r.w[r.n_vars - 1], &CUZK_FR_ONE);
        uint64_t bad = 0;
        assert_false(ct_satisfied(&r, &bad));
        assert_int_equal(bad, r.r1cs->n_constraints - 1);
        ct_free(&r);
    }
}

/* ---- the circuit's shape: field elements through to_bits_le + reverse_bit_numbering --- */

typedef struct num_ctx {
    cuzk_fr id, parents[14];
    unsigned n_parents; /* 6 (layer 1) or 14 */
    uint32_t layer;
    uint64_t node;
} num_ctx;

static cuzk_status num_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const num_ctx *c = vctx;
    static gad_bool pbits[14][256];
    gad_bool id[256], node[64];
    gad_num x = gad_num_alloc(cs, &c->id);
    porep_num_to_stream_bits(cs, &x, id);
    gad_bits_alloc_u64(cs, c->node, node);
    const gad_bool *pp[37];
    for (unsigned p = 0; p < c->n_parents; p++) {
        gad_num v = gad_num_alloc(cs, &c->parents[p]);
        porep_num_to_stream_bits(cs, &v, pbits[p]);
    }
    for (unsigned p = 0; p < 37; p++)
        pp[p] = pbits[p % c->n_parents];
    porep_create_label(cs, id, c->layer, node, pp);
    return CUZK_OK;
}

static void rand_node_fr(cuzk_fr *f, node_bytes b)
{
    test_rng_bytes(b, 32);
    b[31] &= 0x3f; /* labels and fr32 data are < 2^254 */
    assert_int_equal(cuzk_fr_from_bytes_le(f, b), CUZK_OK);
}

static void test_label_from_nums(void **state)
{
    (void)state;
    for (unsigned n = 6; n <= 14; n += 8) {
        num_ctx c;
        node_bytes id, pb[14], parents[37];
        rand_node_fr(&c.id, id);
        for (unsigned p = 0; p < n; p++)
            rand_node_fr(&c.parents[p], pb[p]);
        for (unsigned p = 0; p < 37; p++)
            memcpy(parents[p], pb[p % n], 32);
        c.n_parents = n;
        c.layer = n == 6 ? 1 : 2 + (uint32_t)(test_rng_u64() % 10);
        c.node = test_rng_u64() % (1ull << 30);
        ct_result r;
        ct_run(num_circuit, &c, &r);
        /* Rows depend on which message bits are constants (each number's bit 255), so
         * the count is checked on the whole circuit (test_porep_circuit), not here. */
        printf("create_label over %u parents from numbers: %llu rows\n", n,
               (unsigned long long)r.r1cs->n_constraints);
        cuzk_fr want;
        native_label(&want, id, c.layer, c.node, (const node_bytes *)parents);
        assert_true(cuzk_fr_eq(ct_aux(&r, r.r1cs->n_aux - 1), &want));
        ct_free(&r);
    }
}

/* ---- column hash --------------------------------------------------------------------- */

typedef struct col_ctx {
    unsigned layers;
    cuzk_fr rows[11];
} col_ctx;

static cuzk_status col_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const col_ctx *c = vctx;
    gad_num rows[11];
    for (unsigned i = 0; i < c->layers; i++)
        rows[i] = gad_num_alloc(cs, &c->rows[i]);
    porep_column_hash(cs, rows, c->layers);
    return CUZK_OK;
}

static void test_column_hash(void **state)
{
    (void)state;
    static const struct { unsigned layers; uint64_t rows; } cases[] = {{2, 311}, {11, 598}};
    for (size_t k = 0; k < 2; k++) {
        col_ctx c = {cases[k].layers, {{{0}}}};
        for (unsigned i = 0; i < c.layers; i++)
            test_rand_fr(&c.rows[i]);
        ct_result r;
        ct_run(col_circuit, &c, &r);
        assert_int_equal(r.r1cs->n_constraints, cases[k].rows);
        cuzk_fr want;
        assert_int_equal(cuzk_poseidon_hash(&want, c.rows, c.layers, NULL), CUZK_OK);
        assert_true(cuzk_fr_eq(ct_aux(&r, r.r1cs->n_aux - 1), &want));
        ct_free(&r);
    }
    /* another layer count is a circuit error, not an abort */
    col_ctx bad = {3, {{{0}}}};
    cuzk_circuit_counts n;
    cuzk_error e = {0};
    assert_int_equal(cuzk_circuit_count(col_circuit, &bad, &n, &e), CUZK_ERR_INTERNAL);
    assert_non_null(strstr(e.msg, "3 layers"));
}

int main(void)
{
    test_rng_init("test_porep_label");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_column_hash),
        cmocka_unit_test(test_label_fixture),
        cmocka_unit_test(test_label_from_nums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
