/*
 * test_c1_output.c — the C1 output parser and checks (cuzk/c1.h) on synthetic 2 KiB C1
 * outputs from the generator in tests/support/c1_gen.h (filecoin.md §5).
 * Valid outputs must parse (raw and in the base64 wrapper) and pass the checks; each
 * malformed or inconsistent variant must fail with its own status and a message naming
 * the JSON path. Threading: single-threaded.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/c1.h"
#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "test_rng.h"

#if defined(CUZK_HAVE_JANSSON) && defined(CUZK_HAVE_OPENSSL)
#include "c1_gen.h"

/* Walks "a/b/0/c": numbers index arrays, anything else is an object key. */
static json_t *jat(json_t *v, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save = NULL, *tok = strtok_r(buf, "/", &save); tok && v;
         tok = strtok_r(NULL, "/", &save))
        v = json_is_array(v) ? json_array_get(v, strtoul(tok, NULL, 10)) : json_object_get(v, tok);
    assert_non_null(v);
    return v;
}

#define VP "vanilla_proofs/StackedDrg2KiBV1/0/"

static cuzk_status parse_json(json_t *root, cuzk_c1_output **out, cuzk_error *err)
{
    char *s = json_dumps(root, JSON_COMPACT);
    assert_non_null(s);
    cuzk_status st = cuzk_c1_parse(s, strlen(s), out, err);
    free(s);
    return st;
}

static cuzk_pool *g_pool; /* 3 threads: the check over a pool must say what it says alone */

/* parse + check: the status of the first failing stage. The check runs alone and over the
 * pool, which must agree on the status and the message. */
static cuzk_status run(json_t *root, cuzk_error *err)
{
    cuzk_c1_output *c1 = NULL;
    cuzk_status st = parse_json(root, &c1, err);
    if (st == CUZK_OK) {
        st = cuzk_c1_check(c1, err);
        cuzk_error pe = {0};
        cuzk_status ps = cuzk_c1_check_pool(c1, g_pool, &pe);
        if (ps != st || (st && strcmp(pe.msg, err->msg) != 0))
            fail_msg("over the pool: %s \"%s\"; alone: %s \"%s\"", cuzk_status_name(ps),
                     pe.msg, cuzk_status_name(st), st ? err->msg : "");
        cuzk_c1_free(c1);
    } else {
        assert_null(c1);
    }
    return st;
}

static void expect(json_t *root, cuzk_status want, const char *needle)
{
    cuzk_error err = {0};
    cuzk_status st = run(root, &err);
    if (st != want || !strstr(err.msg, needle))
        fail_msg("got %s \"%s\", expected %s containing \"%s\"", cuzk_status_name(st),
                 err.msg, cuzk_status_name(want), needle);
    json_decref(root);
}

static json_t *fresh(int flaw)
{
    static gen g;
    make_gen(&g, flaw);
    return gen_json(&g);
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_info_table(void **state)
{
    (void)state;
    cuzk_porep_info in;
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg2KiBV1", &in, NULL), CUZK_OK);
    assert_int_equal(in.nodes, 64); /* the rest of the 2 KiB shape: test_valid's documents */
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg8MiBV1_1", &in, NULL), CUZK_OK);
    assert_int_equal(in.base_levels, 6);
    assert_int_equal(in.tree_d_levels, 18);
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg512MiBV1_1_Feat_SyntheticPoRep", &in,
                                               NULL), CUZK_OK);
    assert_int_equal(in.base_levels, 8);
    assert_int_equal(in.variant, CUZK_POREP_SYNTHETIC);
    assert_string_equal(in.vanilla_name, "StackedDrg512MiBV1");
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg32GiBV1_1", &in, NULL), CUZK_OK);
    assert_int_equal(in.layers, 11);
    assert_int_equal(in.partitions, 10);
    assert_int_equal(in.challenges, 18);
    assert_int_equal(in.tree_d_levels, 30);
    assert_int_equal(in.base_levels, 9);
    assert_int_equal(in.sub_arity + in.top_arity, 8);
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
                                               &in, NULL), CUZK_OK);
    assert_int_equal(in.partitions, 126);
    assert_int_equal(in.tree_d_levels, 31);
    assert_int_equal(in.base_levels, 9);
    assert_int_equal(in.top_arity, 2);
    assert_string_equal(in.vanilla_name, "StackedDrg64GiBV1");
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                                               &in, NULL), CUZK_OK);
    assert_int_equal(in.partitions, 13);
    cuzk_error err;
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg16GiBV1", &in, &err),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_porep_info_from_name(NULL, &in, NULL), CUZK_ERR_INVALID_ARG);
}

static void test_valid(void **state)
{
    (void)state;
    static gen g;
    for (size_t it = 0, n = test_iters(3); it < n; it++) {
        make_gen(&g, GEN_OK);
        json_t *root = gen_json(&g);
        cuzk_c1_output *c1 = NULL;
        cuzk_error err = {0};
        cuzk_status st = parse_json(root, &c1, &err);
        if (st)
            fail_msg("%s", err.msg);
        assert_string_equal(c1->info.name, "StackedDrg2KiBV1_1");
        assert_memory_equal(c1->comm_r, g.comm_r, 32);
        assert_memory_equal(c1->comm_d, g.treed[D_LEVELS][0], 32);
        assert_memory_equal(c1->replica_id, g.replica_id, 32);
        assert_memory_equal(c1->seed, g.seed, 32);
        for (int c = 0; c < CHALS; c++) {
            const cuzk_c1_challenge_proof *p = &c1->proofs[c];
            assert_int_equal(cuzk_c1_challenge(p), g.chal[c]);
            assert_int_equal(cuzk_c1_merkle_node(&p->comm_d_proof), g.chal[c]);
            assert_int_equal(p->comm_d_proof.n_levels, D_LEVELS);
            assert_int_equal(p->comm_r_last_proof.n_levels, R_LEVELS);
            assert_int_equal(cuzk_c1_merkle_node(&p->comm_r_last_proof), g.chal[c]);
            assert_int_equal(p->drg_parents[5].index, g.drg[c][5]);
            assert_int_equal(cuzk_c1_merkle_node(&p->exp_parents[7].proof), g.exp[c][7]);
            assert_memory_equal(p->exp_parents[7].rows[1], g.cols[g.exp[c][7]][1], 32);
            assert_memory_equal(p->comm_d_proof.leaf, g.data[g.chal[c]], 32);
            assert_int_equal(p->labeling[1].layer_index, 2);
            assert_memory_equal(p->labeling[1].parents[36], g.parents[c][1][36], 32);
        }
        st = cuzk_c1_check(c1, &err);
        if (st || (st = cuzk_c1_check_pool(c1, g_pool, &err)) ||
            (st = cuzk_c1_check_challenges(c1, &err)))
            fail_msg("%s", err.msg);
        cuzk_c1_free(c1);
        json_decref(root);
    }
}

static char *b64(const char *s, size_t n)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *w = o;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)(uint8_t)s[i] << 16;
        if (i + 1 < n) v |= (uint32_t)(uint8_t)s[i + 1] << 8;
        if (i + 2 < n) v |= (uint8_t)s[i + 2];
        *w++ = al[v >> 18];
        *w++ = al[(v >> 12) & 63];
        *w++ = i + 1 < n ? al[(v >> 6) & 63] : '=';
        *w++ = i + 2 < n ? al[v & 63] : '=';
    }
    *w = 0;
    return o;
}

static void test_base64_wrapper(void **state)
{
    (void)state;
    json_t *root = fresh(GEN_OK);
    char *inner = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    for (int trim = 0; trim < 3; trim++) { /* the three padding cases */
        char *enc = b64(inner, strlen(inner) - (size_t)trim);
        json_t *w = json_pack("{s:i,s:s,s:i}", "SectorNum", 7, "Phase1Out", enc, "SectorSize",
                              2048);
        if (trim == 0) {
            expect(w, CUZK_OK, "");
        } else { /* a truncated inner document, whatever the padding */
            expect(w, CUZK_ERR_FORMAT, "C1 Phase1Out(base64): JSON error");
        }
        free(enc);
    }
    char *enc = b64(inner, strlen(inner));
    enc[100] = '*';
    expect(json_pack("{s:s}", "Phase1Out", enc), CUZK_ERR_FORMAT, "bad base64 character");
    enc[100] = 'A';
    enc[strlen(enc) - 1] = 0;
    expect(json_pack("{s:s}", "Phase1Out", enc), CUZK_ERR_FORMAT, "multiple of 4");
    expect(json_pack("{s:i}", "Phase1Out", 3), CUZK_ERR_FORMAT, "expected a base64 string");
    free(enc);
    free(inner);
}

static void test_truncation(void **state)
{
    (void)state;
    json_t *root = fresh(GEN_OK);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    size_t n = strlen(s);
    for (size_t it = 0, iters = test_iters(300); it <= iters; it++) {
        size_t cut = it < 64 ? it : (it == iters ? n - 1 : (size_t)(test_rng_u64() % n));
        cuzk_c1_output *c1 = (cuzk_c1_output *)1;
        cuzk_error err = {0};
        cuzk_status st = cuzk_c1_parse(s, cut, &c1, &err);
        if (st != CUZK_ERR_FORMAT || !strstr(err.msg, "JSON error"))
            fail_msg("cut %zu of %zu: %s %s", cut, n, cuzk_status_name(st), err.msg);
        assert_null(c1);
    }
    assert_int_equal(cuzk_c1_parse(NULL, 0, NULL, NULL), CUZK_ERR_INVALID_ARG);
    free(s);
}

static void test_malformed(void **state)
{
    (void)state;
    json_t *r;
    r = fresh(0); json_object_del(r, "comm_d");
    expect(r, CUZK_ERR_FORMAT, "(top): missing field \"comm_d\"");
    r = fresh(0); json_object_set_new(r, "seed", json_string("00"));
    expect(r, CUZK_ERR_FORMAT, "C1 .seed: expected an array, got a string");
    r = fresh(0); json_array_remove(jat(r, "comm_r"), 31);
    expect(r, CUZK_ERR_LENGTH, "C1 .comm_r: expected 32 elements, got 31");
    r = fresh(0); json_array_set_new(jat(r, "ticket"), 4, json_integer(256));
    expect(r, CUZK_ERR_FORMAT, ".ticket[4]: integer 256 out of range");
    r = fresh(0); json_array_set_new(jat(r, "ticket"), 4, json_real(1.5));
    expect(r, CUZK_ERR_FORMAT, ".ticket[4]: expected an integer, got a real");
    r = fresh(0);
    for (int i = 0; i < 32; i++)
        json_array_set_new(jat(r, "replica_id"), (size_t)i, json_integer(0xff));
    expect(r, CUZK_ERR_NONCANONICAL, ".replica_id: value is not a canonical field element");
    r = fresh(0); json_object_set_new(r, "registered_proof", json_string("StackedDrg4KiBV1"));
    expect(r, CUZK_ERR_UNSUPPORTED, "unknown registered proof \"StackedDrg4KiBV1\"");
    r = fresh(0); json_object_set_new(r, "registered_proof", json_integer(3));
    expect(r, CUZK_ERR_FORMAT, ".registered_proof: expected a string");
    r = fresh(0);
    json_object_set_new(r, "registered_proof",
                        json_string("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"));
    expect(r, CUZK_ERR_LENGTH, ".vanilla_proofs.StackedDrg2KiBV1: expected 13 elements, got 1");
    r = fresh(0); json_object_set_new(r, "registered_proof", json_string("StackedDrg8MiBV1"));
    expect(r, CUZK_ERR_FORMAT, "expected exactly the key \"StackedDrg8MiBV1\"");
    r = fresh(0); json_array_remove(jat(r, "vanilla_proofs/StackedDrg2KiBV1/0"), 1);
    expect(r, CUZK_ERR_LENGTH, ".vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 elements, got 1");
    r = fresh(0);
    json_array_append(jat(r, "vanilla_proofs/StackedDrg2KiBV1"),
                      jat(r, "vanilla_proofs/StackedDrg2KiBV1/0"));
    expect(r, CUZK_ERR_LENGTH, "expected 1 elements, got 2");
    r = fresh(0);
    {
        json_t *d = jat(r, VP "1/comm_r_last_proof/data");
        json_object_set(d, "Sub", json_object_get(d, "Single"));
        json_object_del(d, "Single");
    }
    expect(r, CUZK_ERR_FORMAT, "[0][1].comm_r_last_proof.data: expected one \"Single\" proof "
                               "for StackedDrg2KiBV1_1, got \"Sub\"");
    r = fresh(0); json_array_remove(jat(r, VP "0/comm_d_proofs/data/Single/path/path"), 5);
    expect(r, CUZK_ERR_LENGTH, ".comm_d_proofs.data.Single.path.path: expected 6 elements");
    r = fresh(0);
    json_array_remove(jat(r, VP "1/replica_column_proofs/drg_parents/2/inclusion_proof/data/"
                             "Single/path/path/1/hashes"), 0);
    expect(r, CUZK_ERR_LENGTH, "drg_parents[2].inclusion_proof.data.Single.path.path[1].hashes: "
                               "expected 7 elements, got 6");
    r = fresh(0);
    json_object_set_new(jat(r, VP "0/comm_r_last_proof/data/Single/path/path/0"), "index",
                        json_integer(8));
    expect(r, CUZK_ERR_FORMAT, "path.path[0].index: integer 8 out of range 0..7");
    r = fresh(0);
    json_object_del(jat(r, VP "0/comm_r_last_proof/data/Single/path/path/0"), "hashes");
    expect(r, CUZK_ERR_FORMAT, "path.path[0]: missing field \"hashes\"");
    r = fresh(0);
    json_array_append(jat(r, VP "0/replica_column_proofs/c_x/column/rows"),
                      jat(r, VP "0/replica_column_proofs/c_x/column/rows/0"));
    expect(r, CUZK_ERR_LENGTH, "c_x.column.rows: expected 2 elements, got 3");
    r = fresh(0); json_array_remove(jat(r, VP "0/replica_column_proofs/exp_parents"), 7);
    expect(r, CUZK_ERR_LENGTH, ".replica_column_proofs.exp_parents: expected 8 elements");
    r = fresh(0);
    json_object_set_new(jat(r, VP "0/replica_column_proofs/exp_parents/3/column"), "index",
                        json_integer(64));
    expect(r, CUZK_ERR_FORMAT, "exp_parents[3].column.index: integer 64 out of range 0..63");
    r = fresh(0); json_array_remove(jat(r, VP "1/labeling_proofs/0/parents"), 0);
    expect(r, CUZK_ERR_LENGTH, "[0][1].labeling_proofs[0].parents: expected 37 elements");
    r = fresh(0);
    json_object_set_new(jat(r, VP "1/labeling_proofs/1"), "layer_index", json_integer(0));
    expect(r, CUZK_ERR_FORMAT, "labeling_proofs[1]: layer_index 0");
    r = fresh(0);
    json_object_set_new(jat(r, VP "1/encoding_proof"), "layer_index", json_integer(3));
    expect(r, CUZK_ERR_FORMAT, ".encoding_proof.layer_index: integer 3 out of range 0..2");
    r = fresh(0); json_object_del(jat(r, VP "0"), "encoding_proof");
    expect(r, CUZK_ERR_FORMAT, "[0][0]: missing field \"encoding_proof\"");
    r = fresh(0); json_array_set_new(jat(r, "vanilla_proofs/StackedDrg2KiBV1/0"), 0, json_null());
    expect(r, CUZK_ERR_FORMAT, "[0][0]: expected an object, got null");
    expect(json_array(), CUZK_ERR_FORMAT, "(top): expected an object, got an array");
}

/* Flips bit 0 of byte 0 of a domain value: stays canonical (< 2^254). */
static void flip(json_t *d)
{
    json_t *b = json_array_get(d, 0);
    json_array_set_new(d, 0, json_integer(json_integer_value(b) ^ 1));
}

static void test_inconsistent(void **state)
{
    (void)state;
    json_t *r;
    r = fresh(0); flip(jat(r, VP "1/comm_d_proofs/data/Single/path/path/3/hashes/0"));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][1].comm_d_proofs: Merkle path does not reach its root");
    r = fresh(0);
    flip(jat(r, VP "0/replica_column_proofs/drg_parents/3/inclusion_proof/data/Single/path/"
                "path/1/hashes/6"));
    expect(r, CUZK_ERR_INVALID_PROOF,
           "[0][0].replica_column_proofs.drg_parents[3]: Merkle path does not reach its root");
    r = fresh(0); flip(jat(r, VP "1/comm_r_last_proof/data/Single/path/path/0/hashes/2"));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][1].comm_r_last_proof: Merkle path does not reach");
    r = fresh(0); flip(jat(r, "comm_d"));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][0].comm_d_proofs: root differs from comm_d");
    r = fresh(0); flip(jat(r, "comm_r"));
    expect(r, CUZK_ERR_INVALID_PROOF, "C1 comm_r: not Poseidon(comm_c, comm_r_last)");
    r = fresh(0); flip(jat(r, VP "1/comm_r_last_proof/data/Single/root"));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][1].comm_r_last_proof: Merkle path does not reach");
    r = fresh(0); flip(jat(r, VP "0/replica_column_proofs/exp_parents/5/column/rows/1"));
    expect(r, CUZK_ERR_INVALID_PROOF,
           "exp_parents[5]: tree C leaf is not the hash of the column rows");
    r = fresh(0);
    {
        json_t *pe = jat(r, VP "0/comm_d_proofs/data/Single/path/path/0");
        json_object_set_new(pe, "index", json_integer(1 - json_integer_value(
                                                              json_object_get(pe, "index"))));
    }
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][0].comm_d_proofs: path proves node");
    r = fresh(0);
    {
        json_t *col = jat(r, VP "1/replica_column_proofs/c_x/column");
        json_int_t idx = json_integer_value(json_object_get(col, "index"));
        json_object_set_new(col, "index", json_integer((idx + 1) % 64));
    }
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][1].replica_column_proofs.c_x: column index");
    r = fresh(0);
    json_object_set_new(jat(r, VP "0/labeling_proofs/1"), "node", json_integer(0));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][0].labeling_proofs[1]: node 0, expected the challenge");
    r = fresh(0);
    json_object_set_new(jat(r, VP "0/labeling_proofs/1"), "layer_index", json_integer(1));
    expect(r, CUZK_ERR_INVALID_PROOF, "labeling_proofs[1]: layer_index 1, expected 2");
    r = fresh(0); flip(jat(r, VP "1/labeling_proofs/0/parents/5"));
    expect(r, CUZK_ERR_INVALID_PROOF,
           "[0][1].labeling_proofs[0]: parents[5] differs from the parent columns' value");
    r = fresh(0); flip(jat(r, VP "1/encoding_proof/parents/20"));
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][1].encoding_proof: parents[20] differs");
    r = fresh(GEN_BAD_LABEL);
    expect(r, CUZK_ERR_INVALID_PROOF, "[0][0].labeling_proofs[1]: label of layer 2 does not "
                                      "match its parents");
    r = fresh(GEN_BAD_REPLICA);
    expect(r, CUZK_ERR_INVALID_PROOF,
           "[0][1].comm_r_last_proof: replica leaf is not last label + data leaf");
    assert_int_equal(cuzk_c1_check(NULL, NULL), CUZK_ERR_INVALID_ARG);
    /* Hand-edited structs: shapes the parser never produces are refused, not walked. */
    cuzk_c1_output *c1 = NULL;
    r = fresh(0);
    assert_int_equal(parse_json(r, &c1, NULL), CUZK_OK);
    json_decref(r);
    c1->proofs[0].comm_d_proof.arity[2] = 8;
    assert_int_equal(cuzk_c1_check(c1, NULL), CUZK_ERR_INVALID_ARG);
    c1->proofs[0].comm_d_proof.arity[2] = 2;
    c1->proofs[0].comm_d_proof.n_levels = CUZK_C1_MAX_LEVELS + 1;
    assert_int_equal(cuzk_c1_check(c1, NULL), CUZK_ERR_INVALID_ARG);
    c1->proofs[0].comm_d_proof.n_levels = D_LEVELS;
    assert_int_equal(cuzk_c1_check(c1, NULL), CUZK_OK);
    c1->info.layers = 12;
    assert_int_equal(cuzk_c1_check(c1, NULL), CUZK_ERR_INVALID_ARG);
    cuzk_c1_free(c1);
}

/* ---- 32 / 64 GiB shapes ------------------------------------------------------------------
 * Full documents are ~30 MB; these carry the right partition and challenge counts (one
 * proof object shared by every slot) and a proof that is well formed up to its comm_r_last
 * proof, then breaks, so the error shows how far the shape-specific parsing got. */

static json_t *jpath(int levels, int arity)
{
    json_t *path = json_array();
    for (int l = 0; l < levels; l++) {
        json_t *hashes = json_array();
        for (int j = 0; j < arity - 1; j++) {
            dom d;
            rand_dom(d);
            json_array_append_new(hashes, jdom(d));
        }
        json_array_append_new(path, json_pack("{s:o,s:i}", "hashes", hashes, "index",
                                              (int)(test_rng_u64() % (uint64_t)arity)));
    }
    return json_pack("{s:o}", "path", path);
}

static json_t *large_doc(const char *name, const char *vanilla, int partitions, int d_levels,
                         const char *shape, int top)
{
    dom x;
    rand_dom(x);
    json_t *comm_d = json_pack("{s:{s:{s:o,s:o,s:o}}}", "data", "Single", "root", jdom(x),
                               "leaf", jdom(x), "path", jpath(d_levels, 2));
    json_t *body = json_pack("{s:o,s:o,s:o,s:o}", "root", jdom(x), "leaf", jdom(x),
                             "base_proof", jpath(9, 8), "sub_proof", jpath(1, 8));
    if (top)
        json_object_set_new(body, "top_proof", jpath(1, 2));
    json_t *proof = json_pack("{s:o,s:{s:{s:o}},s:{}}", "comm_d_proofs", comm_d,
                              "comm_r_last_proof", "data", shape, body,
                              "replica_column_proofs");
    json_t *parts = json_array();
    for (int k = 0; k < partitions; k++) {
        json_t *part = json_array();
        for (int i = 0; i < 18; i++)
            json_array_append(part, proof);
        json_array_append_new(parts, part);
    }
    json_decref(proof);
    return json_pack("{s:s,s:{s:o},s:o,s:o,s:o,s:o,s:o}", "registered_proof", name,
                     "vanilla_proofs", vanilla, parts, "comm_r", jdom(x), "comm_d", jdom(x),
                     "replica_id", jdom(x), "seed", jdom(x), "ticket", jdom(x));
}

static void test_large_shapes(void **state)
{
    (void)state;
    const char *past = "[0][0].replica_column_proofs: missing field \"c_x\"";
    expect(large_doc("StackedDrg32GiBV1_1", "StackedDrg32GiBV1", 10, 30, "Sub", 0),
           CUZK_ERR_FORMAT, past);
    expect(large_doc("StackedDrg64GiBV1", "StackedDrg64GiBV1", 10, 31, "Top", 1),
           CUZK_ERR_FORMAT, past);
    /* NI: 126 x 18 slots accepted; an empty proof object keeps the document small. */
    json_t *ni = large_doc("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1",
                           126, 0, "Sub", 0);
    json_t *parts = jat(ni, "vanilla_proofs/StackedDrg32GiBV1");
    for (size_t k = 0; k < 126; k++)
        for (size_t i = 0; i < 18; i++)
            json_array_set_new(json_array_get(parts, k), i, json_object());
    expect(ni, CUZK_ERR_FORMAT, "[0][0]: missing field \"comm_d_proofs\"");
    expect(large_doc("StackedDrg64GiBV1_1", "StackedDrg64GiBV1", 10, 31, "Sub", 0),
           CUZK_ERR_FORMAT, "comm_r_last_proof.data: expected one \"Top\" proof");
    expect(large_doc("StackedDrg32GiBV1_1", "StackedDrg32GiBV1", 10, 31, "Sub", 0),
           CUZK_ERR_LENGTH, "comm_d_proofs.data.Single.path.path: expected 30 elements, got 31");
    expect(large_doc("StackedDrg32GiBV1_1", "StackedDrg32GiBV1", 10, 30, "Top", 1),
           CUZK_ERR_FORMAT, "expected one \"Sub\" proof for StackedDrg32GiBV1_1, got \"Top\"");
    expect(large_doc("StackedDrg64GiBV1_1", "StackedDrg64GiBV1", 10, 31, "Top", 0),
           CUZK_ERR_FORMAT, "data.Top: missing field \"top_proof\"");

    /* Node index of a flattened 8-8-2 path: base digits, then the sub and top digits. */
    cuzk_c1_merkle_proof m = {.n_levels = 11};
    uint64_t want = 0, scale = 1;
    for (int l = 0; l < 11; l++) {
        m.arity[l] = l < 10 ? 8 : 2;
        m.index[l] = (uint8_t)(test_rng_u64() % m.arity[l]);
        want += m.index[l] * scale;
        scale *= m.arity[l];
    }
    assert_int_equal(cuzk_c1_merkle_node(&m), want);
    assert_true(want < (1ull << 31));
}

/* ---- challenge derivation ------------------------------------------------------------- */

static void challenges_case(const char *name)
{
    cuzk_c1_output o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cuzk_porep_info_from_name(name, &o.info, NULL), CUZK_OK);
    test_rng_bytes(o.replica_id, 32);
    test_rng_bytes(o.seed, 32);
    test_rng_bytes(o.comm_r, 32);
    int ni = o.info.variant == CUZK_POREP_NI;
    uint8_t pre[100];
    size_t n = 0;
    if (ni) {
        memcpy(pre, "filecoin.io|PoRep|1|NonInteractive|1", 36);
        n = 36;
    }
    memcpy(pre + n, o.replica_id, 32);
    memcpy(pre + n + 32, ni ? o.comm_r : o.seed, 32);
    n += 64;
    size_t total = (size_t)o.info.partitions * o.info.challenges;
    cuzk_c1_challenge_proof *p = calloc(total, sizeof *p);
    cuzk_c1_labeling_proof *l = calloc(total, sizeof *l);
    assert_true(p && l);
    for (size_t x = 0; x < total; x++) {
        p[x].labeling = &l[x];
        l[x].node = ref_challenge(pre, n, (uint32_t)x, o.info.nodes);
        assert_true(l[x].node >= 1 && l[x].node < o.info.nodes);
    }
    o.proofs = p;
    cuzk_error err = {0};
    if (cuzk_c1_check_challenges(&o, &err) != CUZK_OK)
        fail_msg("%s: %s", name, err.msg);
    /* The other input does not enter: NI ignores the seed, interactive comm_r. */
    o.seed[0] ^= (uint8_t)ni;
    o.comm_r[0] ^= (uint8_t)!ni;
    assert_int_equal(cuzk_c1_check_challenges(&o, NULL), CUZK_OK);
    size_t x = (size_t)(test_rng_u64() % total);
    l[x].node = l[x].node == o.info.nodes - 1 ? 1 : l[x].node + 1;
    char want[128];
    snprintf(want, sizeof want, "C1 vanilla_proofs[%zu][%zu]: challenge %llu, but",
             x / o.info.challenges, x % o.info.challenges, (unsigned long long)l[x].node);
    cuzk_status st = cuzk_c1_check_challenges(&o, &err);
    if (st != CUZK_ERR_INVALID_PROOF || !strstr(err.msg, want))
        fail_msg("%s: %s %s", name, cuzk_status_name(st), err.msg);
    free(p);
    free(l);
}

static void test_challenges(void **state)
{
    (void)state;
    challenges_case("StackedDrg2KiBV1_1");
    challenges_case("StackedDrg512MiBV1");
    challenges_case("StackedDrg32GiBV1_1");
    challenges_case("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep");
    challenges_case("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
    cuzk_c1_output o;
    memset(&o, 0, sizeof o);
    cuzk_c1_challenge_proof p;
    o.proofs = &p;
    assert_int_equal(cuzk_porep_info_from_name("StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
                                               &o.info, NULL), CUZK_OK);
    assert_int_equal(cuzk_c1_check_challenges(&o, NULL), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_c1_check_challenges(NULL, NULL), CUZK_ERR_INVALID_ARG);
}

int main(void)
{
    test_rng_init("test_c1_output");
    if (cuzk_pool_create(&g_pool, 3) != CUZK_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_table),     cmocka_unit_test(test_valid),
        cmocka_unit_test(test_base64_wrapper), cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_malformed),      cmocka_unit_test(test_inconsistent),
        cmocka_unit_test(test_large_shapes),   cmocka_unit_test(test_challenges),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cuzk_pool_destroy(g_pool);
    return rc;
}

#else

int main(void)
{
    printf("test_c1_output: built without jansson or OpenSSL; nothing to test\n");
    return 0;
}

#endif
