/*
 * test_merkle_fixture.c — the shared tree builder of the PoSt and SnapDeals fixtures
 * (tests/support/merkle_fixture.h) checked on its own, since every vanilla-proof test
 * stands on it: a sparse tree and the full tree over the same leaf values (the defaults
 * written out) have the same nodes, root and paths; a SHA-256 pair hashes as tree D does
 * (trimmed to 254 bits); a path hashes back up to its root; the serde writers' bincode
 * length is the one the shape implies.
 * Single-threaded; random leaves from test_rng (seed printed).
 */
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
#include "merkle_fixture.h"
#include "test_rng.h"

static size_t n_leaves(const mf_shape *s)
{
    size_t n = 1;
    for (uint32_t l = 0; l < s->levels; l++)
        n *= s->arity[l];
    return n;
}

/* hashes m's leaf up its path (Poseidon or SHA-256 by s) and compares with m's root */
static void check_path(const mf_shape *s, const cuzk_c1_merkle_proof *m)
{
    uint8_t cur[32], ch[8][32];
    memcpy(cur, m->leaf, 32);
    size_t k = 0;
    assert_int_equal(m->n_levels, s->levels);
    for (uint32_t l = 0; l < m->n_levels; l++) {
        uint32_t a = m->arity[l];
        assert_int_equal(a, s->arity[l]);
        assert_true(m->index[l] < a);
        for (uint32_t j = 0; j < a; j++)
            memcpy(ch[j], j == m->index[l] ? cur : m->siblings[k++], 32);
        if (s->sha) {
            unsigned int dl = 0;
            EVP_Digest(ch, 64, cur, &dl, EVP_sha256(), NULL);
            cur[31] &= 0x3f;
        } else {
            cuzk_fr f[8], h;
            for (uint32_t j = 0; j < a; j++)
                assert_int_equal(cuzk_fr_from_bytes_le(&f[j], ch[j]), CUZK_OK);
            assert_int_equal(cuzk_poseidon_hash(&h, f, a, NULL), CUZK_OK);
            cuzk_fr_to_bytes_le(cur, &h);
        }
    }
    assert_memory_equal(cur, m->root, 32);
}

static void sparse_equals_full(const mf_shape *s)
{
    size_t n = n_leaves(s), nc = 6;
    uint64_t idx[6];
    for (size_t i = 0; i < nc; i++)
        idx[i] = test_rng_u64() % n;
    idx[nc - 1] = idx[0]; /* a leaf named twice */
    mf_tree sp, full;
    assert_int_equal(mf_tree_sparse(&sp, s, idx, nc), 0);
    uint8_t(*leaves)[32] = malloc(n * 32);
    assert_non_null(leaves);
    for (size_t i = 0; i < n; i++)
        memcpy(leaves[i], mf_tree_node(&sp, 0, i), 32);
    assert_int_equal(mf_tree_full(&full, s, leaves, n), 0);
    assert_memory_equal(mf_tree_root(&sp), mf_tree_root(&full), 32);
    for (size_t i = 0; i < nc; i++) {
        cuzk_c1_merkle_proof a = {0}, b = {0};
        assert_int_equal(mf_tree_proof(&sp, idx[i], &a), 0);
        assert_int_equal(mf_tree_proof(&full, idx[i], &b), 0);
        assert_memory_equal(a.leaf, b.leaf, 32);
        assert_memory_equal(a.root, b.root, 32);
        assert_memory_equal(a.index, b.index, sizeof a.index);
        assert_memory_equal(a.arity, b.arity, sizeof a.arity);
        size_t n_sib = 0;
        for (uint32_t l = 0; l < s->levels; l++)
            n_sib += s->arity[l] - 1;
        assert_memory_equal(a.siblings, b.siblings, n_sib * 32);
        check_path(s, &a);
        /* bincode: variant, then per level its length, hashes and index, plus root/leaf */
        mf_buf buf = {0};
        mf_put_merkle(&buf, s, &a);
        size_t paths = s->sub_arity ? 1 + 1 + (s->top_arity ? 1 : 0) : 1;
        assert_int_equal(buf.n, 4 + 64 + paths * 8 + s->levels * 16 + n_sib * 32);
        free(buf.p);
        free(a.siblings);
        free(b.siblings);
    }
    mf_tree_free(&sp);
    mf_tree_free(&full);
}

static void test_poseidon_shapes(void **state)
{
    (void)state;
    mf_shape single = mf_shape_poseidon(3, 8, 0, 0), sub = mf_shape_poseidon(2, 8, 4, 0),
             top = mf_shape_poseidon(1, 8, 8, 2);
    assert_int_equal(top.levels, 3);
    assert_int_equal(top.arity[2], 2);
    sparse_equals_full(&single);
    sparse_equals_full(&sub);
    sparse_equals_full(&top);
}

static void test_sha256_shape(void **state)
{
    (void)state;
    mf_shape s = mf_shape_sha256(7);
    sparse_equals_full(&s);
    /* one level by hand: the root of two leaves is SHA-256(l0 || l1), top bits cleared */
    mf_shape one = mf_shape_sha256(1);
    uint8_t(*leaves)[32] = malloc(64), want[32];
    assert_non_null(leaves);
    test_rng_bytes(leaves[0], 64);
    unsigned int dl = 0;
    EVP_Digest(leaves, 64, want, &dl, EVP_sha256(), NULL);
    want[31] &= 0x3f;
    mf_tree t;
    assert_int_equal(mf_tree_full(&t, &one, leaves, 2), 0);
    assert_memory_equal(mf_tree_root(&t), want, 32);
    mf_tree_free(&t);
}

/* a leaf count that is not the shape's: no single root, an error, not a wrong tree */
static void test_full_wrong_count(void **state)
{
    (void)state;
    mf_shape s = mf_shape_poseidon(2, 8, 0, 0);
    uint8_t(*leaves)[32] = calloc(63, 32);
    assert_non_null(leaves);
    mf_tree t;
    assert_int_equal(mf_tree_full(&t, &s, leaves, 63), -1);
}

int main(void)
{
    test_rng_init("test_merkle_fixture");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poseidon_shapes),
        cmocka_unit_test(test_sha256_shape),
        cmocka_unit_test(test_full_wrong_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
