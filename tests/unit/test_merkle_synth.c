/*
 * test_merkle_synth.c — the generated-data trees (src/filecoin/merkle_synth.h) that every
 * synthetic PoRep, PoSt and SnapDeals document stands on, checked against trees hashed
 * here from the definitions, level by level:
 *   cells   a cells tree over random cell values has the root, nodes and paths of the full
 *           tree over its leaves written out (cells of 1, 4 and 8 leaves; Poseidon Single,
 *           Sub and Top shapes and binary SHA-256; on the calling thread and on a pool);
 *   sparse  every touched leaf's path hashes up to the root, its leaf is the value given
 *           (a leaf named twice keeps it), an untouched sibling is its ms_prf value, the
 *           tree is a function of its inputs, another seed gives another root;
 *   hashes  a SHA-256 pair is SHA-256(l || r) with the top two bits cleared (tree D);
 *   refused shapes the trees cannot take; the bincode MerkleProof length the shape implies.
 * Random values from test_rng (seed printed).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "cuzk/circuits.h"
#include "filecoin/merkle_synth.h"
#include "filecoin/serde_out.h"
#include "test_rng.h"

/* the parent of a children, from the definitions */
static void ref_hash(const ms_shape *s, unsigned a, const uint8_t (*ch)[32], uint8_t out[32])
{
    if (s->sha) {
        unsigned int dl = 0;
        assert_int_equal(EVP_Digest(ch, 64, out, &dl, EVP_sha256(), NULL), 1);
        out[31] &= 0x3f;
        return;
    }
    cuzk_fr f[8], h;
    for (unsigned j = 0; j < a; j++)
        assert_int_equal(cuzk_fr_from_bytes_le(&f[j], ch[j]), CUZK_OK);
    assert_int_equal(cuzk_poseidon_hash(&h, f, a, NULL), CUZK_OK);
    cuzk_fr_to_bytes_le(out, &h);
}

/* hashes m's leaf up its path and compares with m's root */
static void check_path(const ms_shape *s, const cuzk_c1_merkle_proof *m)
{
    uint8_t cur[32], ch[8][32];
    memcpy(cur, m->leaf, 32);
    size_t k = 0;
    assert_int_equal(m->n_levels, s->levels);
    for (uint32_t l = 0; l < m->n_levels; l++) {
        unsigned a = m->arity[l];
        assert_int_equal(a, s->arity[l]);
        assert_true(m->index[l] < a);
        for (unsigned j = 0; j < a; j++)
            memcpy(ch[j], j == m->index[l] ? cur : m->siblings[k++], 32);
        ref_hash(s, a, (const uint8_t(*)[32])ch, cur);
    }
    assert_memory_equal(cur, m->root, 32);
}

/* A full tree from the definitions: levels[l] holds every node of level l. */
typedef struct ref_tree {
    uint8_t (*lv[CUZK_C1_MAX_LEVELS + 1])[32];
} ref_tree;

static void ref_build(ref_tree *t, const ms_shape *s, uint8_t (*leaves)[32], size_t n)
{
    t->lv[0] = leaves;
    for (uint32_t l = 0; l < s->levels; l++) {
        unsigned a = s->arity[l];
        n /= a;
        t->lv[l + 1] = malloc(n * 32);
        assert_non_null(t->lv[l + 1]);
        for (size_t i = 0; i < n; i++)
            ref_hash(s, a, (const uint8_t(*)[32])t->lv[l][i * a], t->lv[l + 1][i]);
    }
}

static void ref_free(ref_tree *t, const ms_shape *s)
{
    for (uint32_t l = 0; l <= s->levels; l++)
        free(t->lv[l]);
}

static void rand_value(uint8_t out[32])
{
    cuzk_fr f;
    test_rand_fr(&f);
    cuzk_fr_to_bytes_le(out, &f);
}

static void cells_equal_full(const ms_shape *s, uint32_t cell_bits, cuzk_pool *pool)
{
    size_t n = (size_t)ms_shape_leaves(s), cells = n >> cell_bits;
    ms_dom *cv = malloc(cells * sizeof *cv);
    uint8_t(*leaves)[32] = malloc(n * 32);
    assert_non_null(cv);
    assert_non_null(leaves);
    for (size_t c = 0; c < cells; c++)
        rand_value(cv[c]);
    for (size_t i = 0; i < n; i++)
        memcpy(leaves[i], cv[i >> cell_bits], 32);
    ms_tree t;
    assert_true(ms_tree_cells(&t, s, cell_bits, (const ms_dom *)cv, pool));
    ref_tree r = {{0}};
    ref_build(&r, s, leaves, n);
    assert_memory_equal(ms_tree_root(&t), r.lv[s->levels][0], 32);
    size_t w = n;
    for (uint32_t l = 0; l <= s->levels; l++) {
        for (size_t i = 0; i < w; i++) {
            ms_dom v;
            ms_tree_node(&t, l, i, v);
            assert_memory_equal(v, r.lv[l][i], 32);
        }
        if (l < s->levels)
            w /= s->arity[l];
    }
    ms_dom *sib = malloc(ms_shape_siblings(s) * sizeof *sib);
    assert_non_null(sib);
    for (int k = 0; k < 8; k++) {
        uint64_t leaf = test_rng_u64() % n;
        cuzk_c1_merkle_proof m;
        ms_tree_path(&t, leaf, &m, sib);
        assert_memory_equal(m.leaf, leaves[leaf], 32);
        assert_int_equal(cuzk_c1_merkle_node(&m), leaf);
        check_path(s, &m);
    }
    free(sib);
    free(cv);
    ms_tree_free(&t);
    ref_free(&r, s);
}

static void test_cells(void **state)
{
    (void)state;
    ms_shape shapes[] = {ms_shape_poseidon(3, 8, 0, 0), ms_shape_poseidon(2, 8, 4, 0),
                         ms_shape_poseidon(1, 8, 8, 2), ms_shape_sha256(7)};
    assert_int_equal(shapes[2].levels, 3);
    assert_int_equal(shapes[2].arity[2], 2);
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        cells_equal_full(&shapes[i], 0, NULL);
        cells_equal_full(&shapes[i], 2, pool);
        cells_equal_full(&shapes[i], 3, NULL);
    }
    /* one cell: the whole tree uniform */
    cells_equal_full(&shapes[0], 9, pool);
    cuzk_pool_destroy(pool);
}

static void test_sparse(void **state)
{
    (void)state;
    ms_shape shapes[] = {ms_shape_poseidon(10, 8, 0, 0), ms_shape_poseidon(9, 8, 8, 2),
                         ms_shape_sha256(30)};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const ms_shape *s = &shapes[i];
        uint64_t n = ms_shape_leaves(s), seed = test_rng_u64();
        ms_node leaves[12];
        for (int k = 0; k < 12; k++) {
            leaves[k].pos = test_rng_u64() % n;
            rand_value(leaves[k].v);
        }
        leaves[11] = leaves[0]; /* a leaf named twice */
        leaves[10].pos = leaves[9].pos ^ 1; /* two leaves of one parent */
        ms_tree t, u, v;
        assert_true(ms_tree_sparse(&t, s, seed, 7, leaves, 12));
        assert_true(ms_tree_sparse(&u, s, seed, 7, leaves, 12));
        assert_true(ms_tree_sparse(&v, s, seed + 1, 7, leaves, 12));
        assert_memory_equal(ms_tree_root(&t), ms_tree_root(&u), 32);
        assert_memory_not_equal(ms_tree_root(&t), ms_tree_root(&v), 32);
        ms_dom *sib = malloc(ms_shape_siblings(s) * sizeof *sib);
        assert_non_null(sib);
        for (int k = 0; k < 12; k++) {
            cuzk_c1_merkle_proof m;
            ms_tree_path(&t, leaves[k].pos, &m, sib);
            assert_memory_equal(m.leaf, leaves[k].v, 32);
            assert_memory_equal(m.root, ms_tree_root(&t), 32);
            check_path(s, &m);
        }
        /* the first level-0 sibling of a lone leaf is its PRF value */
        uint64_t pos = leaves[1].pos, other = pos ^ 1;
        bool touched = false;
        for (int k = 0; k < 12; k++)
            touched |= leaves[k].pos == other;
        if (!touched) {
            ms_dom want, got;
            ms_prf(want, seed, 7, 0, other);
            ms_tree_node(&t, 0, other, got);
            assert_memory_equal(got, want, 32);
        }
        free(sib);
        ms_tree_free(&t);
        ms_tree_free(&u);
        ms_tree_free(&v);
    }
}

static void test_sha256_pair(void **state)
{
    (void)state;
    ms_shape one = ms_shape_sha256(1);
    ms_dom leaves[2], want;
    test_rng_bytes(leaves[0], 64);
    leaves[0][31] &= 0x3f;
    leaves[1][31] &= 0x3f;
    unsigned int dl = 0;
    EVP_Digest(leaves, 64, want, &dl, EVP_sha256(), NULL);
    want[31] &= 0x3f;
    ms_tree t;
    assert_true(ms_tree_cells(&t, &one, 0, (const ms_dom *)leaves, NULL));
    assert_memory_equal(ms_tree_root(&t), want, 32);
    ms_tree_free(&t);
}

static void test_refused(void **state)
{
    (void)state;
    ms_shape odd = ms_shape_poseidon(2, 3, 0, 0), s = ms_shape_poseidon(2, 8, 0, 0);
    ms_dom cv[64] = {{0}};
    ms_node leaf = {5, {1}};
    ms_tree t;
    assert_false(ms_tree_cells(&t, &odd, 0, (const ms_dom *)cv, NULL));
    assert_false(ms_tree_sparse(&t, &odd, 1, 1, &leaf, 1));
    assert_false(ms_tree_cells(&t, &s, 7, (const ms_dom *)cv, NULL)); /* 6 bits of leaves */
    memset(cv[3], 0xff, 32);                                          /* not canonical */
    assert_false(ms_tree_cells(&t, &s, 0, (const ms_dom *)cv, NULL));
}

/* bincode: variant, then per path its length, per level its length, hashes and index, plus
 * root and leaf; here as base64 */
static void test_bincode_length(void **state)
{
    (void)state;
    ms_shape shapes[] = {ms_shape_poseidon(3, 8, 0, 0), ms_shape_poseidon(2, 8, 4, 0),
                         ms_shape_poseidon(1, 8, 8, 2)};
    so_shape forms[] = {so_shape_single(3), so_shape_of(2, 4, 0), so_shape_of(1, 8, 2)};
    for (int i = 0; i < 3; i++) {
        const ms_shape *s = &shapes[i];
        ms_node leaf = {test_rng_u64() % ms_shape_leaves(s), {0}};
        rand_value(leaf.v);
        ms_tree t;
        assert_true(ms_tree_sparse(&t, s, 3, 3, &leaf, 1));
        ms_dom sib[64];
        cuzk_c1_merkle_proof m;
        ms_tree_path(&t, leaf.pos, &m, sib);
        char *txt = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&txt, &len);
        assert_non_null(f);
        so_b64 b = so_b64_begin(f);
        so_merkle_bincode(&b, &forms[i], &m);
        so_b64_end(&b);
        fclose(f);
        size_t paths = i == 0 ? 1 : i == 1 ? 2 : 3;
        size_t bytes = 4 + 64 + paths * 8 + s->levels * 16 + ms_shape_siblings(s) * 32;
        assert_int_equal(len, (bytes + 2) / 3 * 4);
        free(txt);
        ms_tree_free(&t);
    }
}

int main(void)
{
    test_rng_init("test_merkle_synth");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),          cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_sha256_pair),    cmocka_unit_test(test_refused),
        cmocka_unit_test(test_bincode_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
