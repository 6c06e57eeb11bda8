/*
 * test_snarkjs_files.c — the snarkjs .r1cs / .wtns readers.
 *
 * The test-only writers of tests/support/snarkjs_writer.h emit valid files (and, through
 * their layout knobs, malformed ones); the readers' output is compared with the writer's
 * input: constraint products are recomputed from the written term lists, witness values
 * are re-encoded and compared byte for byte. Then every prefix of a valid file must fail,
 * every single-byte corruption must fail or parse to a structurally valid system
 * (ASan/UBSan catch any out-of-bounds read), and each documented rejection gets its status
 * and message checked. Single-threaded.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cuzk/formats.h"
#include "cuzk/r1cs.h"
#include "snarkjs_writer.h"
#include "test_rng.h"

/* ---- .r1cs files of a spec -------------------------------------------------------------- */

typedef struct spec {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint32_t nt[64][3];
    sw_term t[64][3][8];
} spec;

/* A file's departures from the spec: its layout, and header fields that disagree. */
typedef struct opts {
    sw_r1cs_layout l;
    bool bn128;
    bool hdr_override; /* write hdr_constraints in the header instead of n_constraints */
    uint32_t hdr_constraints;
} opts;

static sw_r1cs_header spec_header(const spec *s, const opts *o)
{
    return (sw_r1cs_header){
        .bn128 = o && o->bn128,
        .n_wires = s->n_wires,
        .n_pub_out = s->n_pub_out,
        .n_pub_in = s->n_pub_in,
        .n_prv_in = s->n_prv_in,
        .n_labels = s->n_wires + 3ull, /* nLabels >= nWires in circom output */
        .n_constraints = o && o->hdr_override ? o->hdr_constraints : s->n_constraints,
    };
}

/* Circom's section order: constraints, header, wire->label map. */
static sw_buf write_r1cs(const spec *s, const opts *o)
{
    sw_buf c = {0};
    for (uint32_t i = 0; i < s->n_constraints; i++)
        for (int k = 0; k < 3; k++)
            sw_r1cs_put_lc(&c, s->t[i][k], s->nt[i][k]);
    sw_r1cs_header h = spec_header(s, o);
    sw_r1cs_layout l = o->l;
    l.circom_order = true;
    sw_buf f = sw_r1cs_write(&h, &c, &l);
    free(c.p);
    return f;
}

static void coeff_u64(uint8_t out[32], uint64_t v)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static void coeff_neg_u64(uint8_t out[32], uint64_t v)
{
    cuzk_fr f;
    cuzk_fr_from_u64(&f, v);
    cuzk_fr_neg(&f, &f);
    cuzk_fr_to_bytes_le(out, &f);
}

static void term(spec *s, uint32_t row, int m, uint32_t wire, const uint8_t coeff[32])
{
    sw_term *t = &s->t[row][m][s->nt[row][m]++];
    t->wire = wire;
    memcpy(t->coeff, coeff, 32);
}

/*
 * The cubic circuit in circom's wiring: wires ONE, out (output), x (private input),
 * s = x*x, y = s*x; rows x*x = s, s*x = y, (y + x + 5)*1 = out, (out - y - x - 5)*1 = 0.
 */
static void cubic_spec(spec *s)
{
    memset(s, 0, sizeof *s);
    s->n_wires = 5;
    s->n_pub_out = 1;
    s->n_prv_in = 1;
    s->n_constraints = 4;
    uint8_t one[32], five[32], m1[32], m5[32];
    coeff_u64(one, 1);
    coeff_u64(five, 5);
    coeff_neg_u64(m1, 1);
    coeff_neg_u64(m5, 5);
    term(s, 0, 0, 2, one), term(s, 0, 1, 2, one), term(s, 0, 2, 3, one);
    term(s, 1, 0, 3, one), term(s, 1, 1, 2, one), term(s, 1, 2, 4, one);
    term(s, 2, 0, 0, five), term(s, 2, 0, 2, one), term(s, 2, 0, 4, one);
    term(s, 2, 1, 0, one), term(s, 2, 2, 1, one);
    term(s, 3, 0, 0, m5), term(s, 3, 0, 1, one), term(s, 3, 0, 2, m1), term(s, 3, 0, 4, m1);
    term(s, 3, 1, 0, one);
}

static const uint8_t k_cubic_w[5][32] = {{1}, {35}, {3}, {9}, {27}};

/* ---- a real circom 2.2.3 / snarkjs 0.7.6 pair ----------------------------------------
 * Produced (once, at development time; tests stay node-free) by
 *   circom2 cubic.circom --r1cs --wasm --prime bls12381
 *   snarkjs wtns calculate cubic_js/cubic.wasm input.json cubic.wtns    # {"x": 3, "k": 2}
 * from: signal input x; signal input k (public); signal output out; s <== x*x; y <== s*x;
 * out <== y + x + 5 - k*3. `snarkjs wtns check` accepts the pair; `wtns export json` gives
 * [1, 29, 2, 3, 9, 27] (ONE, out, k, x, s, y). */
static const char k_circom_r1cs[] =
    "72316373010000000300000002000000b001000000000000010000000300000000000000fffffffffe5bfeff"
    "02a4bd5305d8a10908d83933487d9d2953a7ed73010000000300000001000000000000000000000000000000"
    "00000000000000000000000000000000010000000400000000000000fffffffffe5bfeff02a4bd5305d8a109"
    "08d83933487d9d2953a7ed73010000000400000000000000fffffffffe5bfeff02a4bd5305d8a10908d83933"
    "487d9d2953a7ed73010000000300000001000000000000000000000000000000000000000000000000000000"
    "00000000010000000500000000000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73"
    "0000000000000000050000000000000005000000000000000000000000000000000000000000000000000000"
    "000000000100000000000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed7302000000"
    "fefffffffefffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73030000000100000000000000"
    "0000000000000000000000000000000000000000000000000500000001000000000000000000000000000000"
    "000000000000000000000000000000000100000040000000000000002000000001000000fffffffffe5bfeff"
    "02a4bd5305d8a10908d83933487d9d2953a7ed73060000000100000001000000010000000600000000000000"
    "0300000003000000300000000000000000000000000000000100000000000000020000000000000003000000"
    "0000000004000000000000000500000000000000";
static const char k_circom_wtns[] =
    "77746e7302000000020000000100000028000000000000002000000001000000fffffffffe5bfeff02a4bd53"
    "05d8a10908d83933487d9d2953a7ed730600000002000000c000000000000000010000000000000000000000"
    "00000000000000000000000000000000000000001d0000000000000000000000000000000000000000000000"
    "0000000000000000020000000000000000000000000000000000000000000000000000000000000003000000"
    "0000000000000000000000000000000000000000000000000000000009000000000000000000000000000000"
    "000000000000000000000000000000001b000000000000000000000000000000000000000000000000000000"
    "00000000";

/* ---- helpers ------------------------------------------------------------------------- */

static void check_invariants(const cuzk_r1cs *r)
{
    assert_int_equal(r->n_vars, 1 + r->n_public + r->n_aux);
    for (int m = 0; m < 3; m++) {
        const cuzk_csr *c = &r->m[m];
        assert_int_equal(c->row_ptr[0], 0);
        assert_int_equal(c->row_ptr[r->n_constraints], c->nnz);
        for (uint64_t i = 0; i < r->n_constraints; i++)
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                assert_true(c->col[k] < r->n_vars);
                assert_false(cuzk_fr_is_zero(&c->coeff[k]));
                if (k > c->row_ptr[i])
                    assert_true(c->col[k - 1] < c->col[k]);
            }
    }
}

/* Products of the spec's rows at w, term by term from the written bytes. */
static void spec_eval(const spec *s, const cuzk_fr *w, cuzk_fr *out /* [n][3] */)
{
    for (uint32_t i = 0; i < s->n_constraints; i++)
        for (int m = 0; m < 3; m++) {
            cuzk_fr acc = CUZK_FR_ZERO, c, t;
            for (uint32_t j = 0; j < s->nt[i][m]; j++) {
                assert_int_equal(cuzk_fr_from_bytes_le(&c, s->t[i][m][j].coeff), CUZK_OK);
                cuzk_fr_mul(&t, &c, &w[s->t[i][m][j].wire]);
                cuzk_fr_add(&acc, &acc, &t);
            }
            out[3 * i + m] = acc;
        }
}

static void expect_err(cuzk_status got, const cuzk_error *err, cuzk_status want,
                       const char *needle)
{
    if (got != want || (needle && !strstr(err->msg, needle)))
        fail_msg("got %s \"%s\", want %s containing \"%s\"", cuzk_status_name(got), err->msg,
                 cuzk_status_name(want), needle ? needle : "");
}

static cuzk_status parse_r1cs(const sw_buf *f, cuzk_error *err)
{
    cuzk_r1cs *r = NULL;
    cuzk_status st = cuzk_r1cs_from_snarkjs(&r, NULL, f->p, f->n, err);
    if (st == CUZK_OK) {
        check_invariants(r);
        cuzk_r1cs_destroy(r);
    } else {
        assert_null(r);
    }
    return st;
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_r1cs_cubic(void **state)
{
    (void)state;
    spec s;
    cubic_spec(&s);
    opts o = {0};
    sw_buf f = write_r1cs(&s, &o);
    cuzk_r1cs *r = NULL;
    cuzk_snarkjs_r1cs_header h;
    cuzk_error err;
    assert_int_equal(cuzk_r1cs_from_snarkjs(&r, &h, f.p, f.n, &err), CUZK_OK);
    assert_int_equal(h.n_wires, 5);
    assert_int_equal(h.n_pub_out, 1);
    assert_int_equal(h.n_prv_in, 1);
    assert_int_equal(h.n_labels, 8);
    assert_int_equal(h.n_constraints, 4);
    assert_int_equal(h.n_sections, 3);
    /* the header-only reader gives the same fields */
    cuzk_snarkjs_r1cs_header h2;
    memset(&h2, 0xee, sizeof h2);
    assert_int_equal(cuzk_snarkjs_r1cs_header_read(&h2, f.p, f.n, &err), CUZK_OK);
    assert_true(h2.n_wires == h.n_wires && h2.n_pub_out == h.n_pub_out &&
                h2.n_pub_in == h.n_pub_in && h2.n_prv_in == h.n_prv_in &&
                h2.n_labels == h.n_labels && h2.n_constraints == h.n_constraints &&
                h2.n_sections == h.n_sections);
    assert_int_equal(cuzk_snarkjs_r1cs_header_read(NULL, f.p, f.n, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(r->n_constraints, 4);
    assert_int_equal(r->n_public, 1);
    assert_int_equal(r->n_aux, 3);
    check_invariants(r);

    cuzk_fr w[5];
    for (int i = 0; i < 5; i++)
        assert_int_equal(cuzk_fr_from_bytes_le(&w[i], k_cubic_w[i]), CUZK_OK);
    cuzk_witness wv = cuzk_witness_dense(w, 5);
    cuzk_fr abc[3][4], want[4 * 3];
    assert_int_equal(cuzk_r1cs_eval(r, &wv, abc[0], abc[1], abc[2], NULL), CUZK_OK);
    spec_eval(&s, w, want);
    for (int i = 0; i < 4; i++)
        for (int m = 0; m < 3; m++)
            assert_true(cuzk_fr_eq(&abc[m][i], &want[3 * i + m]));
    assert_int_equal(cuzk_r1cs_check(r, &wv, NULL, &err), CUZK_OK);

    /* the .wtns of the same circuit, end to end */
    sw_buf wf = sw_wtns_write(k_cubic_w, 5, NULL);
    uint32_t n = 0;
    assert_int_equal(cuzk_snarkjs_wtns_count(wf.p, wf.n, &n, &err), CUZK_OK);
    assert_int_equal(n, 5);
    cuzk_fr w2[5];
    assert_int_equal(cuzk_frs_from_snarkjs_wtns(w2, 5, wf.p, wf.n, &err), CUZK_OK);
    assert_memory_equal(w2, w, sizeof w);
    /* a wrong witness value is named by the constraint it breaks: y is used first in row 1 */
    wf.p[wf.n - 32] = 28;
    assert_int_equal(cuzk_frs_from_snarkjs_wtns(w2, 5, wf.p, wf.n, &err), CUZK_OK);
    wv = cuzk_witness_dense(w2, 5);
    uint64_t row;
    expect_err(cuzk_r1cs_check(r, &wv, &row, &err), &err, CUZK_ERR_UNSATISFIED, "constraint 1 ");
    assert_int_equal(row, 1);
    free(wf.p);
    cuzk_r1cs_destroy(r);
    free(f.p);
}

/* Random circuits: the reader's products equal the term-by-term products of what was
 * written, and the public/aux split follows nPubOut + nPubIn. */
static void test_r1cs_random_roundtrip(void **state)
{
    (void)state;
    size_t iters = test_iters(30);
    spec *s = malloc(sizeof *s);
    assert_non_null(s);
    for (size_t it = 0; it < iters; it++) {
        memset(s, 0, sizeof *s);
        s->n_pub_out = (uint32_t)(test_rng_u64() % 3);
        s->n_pub_in = (uint32_t)(test_rng_u64() % 3);
        s->n_prv_in = (uint32_t)(test_rng_u64() % 3);
        s->n_wires = 1 + s->n_pub_out + s->n_pub_in + s->n_prv_in +
                     (uint32_t)(test_rng_u64() % 10);
        s->n_constraints = (uint32_t)(test_rng_u64() % 64);
        for (uint32_t i = 0; i < s->n_constraints; i++)
            for (int m = 0; m < 3; m++) {
                uint32_t nt = (uint32_t)(test_rng_u64() % 9);
                for (uint32_t j = 0; j < nt; j++) {
                    cuzk_fr c;
                    test_rand_fr(&c);
                    uint8_t b[32];
                    cuzk_fr_to_bytes_le(b, &c);
                    /* duplicates of a wire within an LC are legal and must add up */
                    term(s, i, m, (uint32_t)(test_rng_u64() % s->n_wires), b);
                }
            }
        opts o = {0};
        o.l.unknown_section = test_rng_u64() & 1;
        sw_buf f = write_r1cs(s, &o);
        cuzk_r1cs *r = NULL;
        cuzk_error err;
        assert_int_equal(cuzk_r1cs_from_snarkjs(&r, NULL, f.p, f.n, &err), CUZK_OK);
        assert_int_equal(r->n_vars, s->n_wires);
        assert_int_equal(r->n_public, s->n_pub_out + s->n_pub_in);
        check_invariants(r);
        cuzk_fr w[32];
        w[0] = CUZK_FR_ONE;
        for (uint32_t i = 1; i < s->n_wires; i++)
            test_rand_fr(&w[i]);
        cuzk_witness wv = cuzk_witness_dense(w, s->n_wires);
        cuzk_fr abc[3][64], want[64 * 3];
        assert_int_equal(cuzk_r1cs_eval(r, &wv, abc[0], abc[1], abc[2], NULL), CUZK_OK);
        spec_eval(s, w, want);
        for (uint32_t i = 0; i < s->n_constraints; i++)
            for (int m = 0; m < 3; m++)
                assert_true(cuzk_fr_eq(&abc[m][i], &want[3 * i + m]));
        cuzk_r1cs_destroy(r);
        free(f.p);
    }
    free(s);
}

static void test_r1cs_prefixes_and_corruption(void **state)
{
    (void)state;
    spec s;
    cubic_spec(&s);
    opts o = {0};
    sw_buf f = write_r1cs(&s, &o);
    cuzk_error err;
    assert_int_equal(parse_r1cs(&f, &err), CUZK_OK);
    /* Every proper prefix fails. Each is copied into an exact-size heap block so ASan sees
     * a read one past its end. */
    for (size_t len = 0; len < f.n; len++) {
        sw_buf p = {malloc(len ? len : 1), len, len};
        assert_non_null(p.p);
        memcpy(p.p, f.p, len);
        cuzk_status st = parse_r1cs(&p, &err);
        if (st == CUZK_OK)
            fail_msg("prefix of %zu/%zu bytes parsed", len, f.n);
        assert_non_null(strstr(err.msg, "offset"));
        free(p.p);
    }
    /* Every single-byte corruption either fails or yields a valid structure. */
    static const uint8_t flips[] = {0x01, 0x80, 0xff};
    size_t ok = 0, bad = 0;
    for (size_t off = 0; off < f.n; off++)
        for (size_t k = 0; k < sizeof flips + 1; k++) {
            uint8_t x = k < sizeof flips ? flips[k] : (uint8_t)(1 + test_rng_u64() % 255);
            f.p[off] ^= x;
            if (parse_r1cs(&f, &err) == CUZK_OK)
                ok++;
            else
                bad++;
            f.p[off] ^= x;
        }
    /* coefficient/label bytes flip to other valid files; structure bytes must not */
    assert_true(ok > 0 && bad > 0);
    free(f.p);
}

/* The header-only reader (cuzk inspect) must judge a file as the loader does wherever the
 * loader fails before the constraint bodies: same status and message; and accept every
 * file the loader accepts, with the same header fields. */
static void header_agrees(const sw_buf *f, cuzk_status load_st, const cuzk_error *load_err)
{
    cuzk_snarkjs_r1cs_header h;
    cuzk_error e;
    cuzk_status st = cuzk_snarkjs_r1cs_header_read(&h, f->p, f->n, &e);
    if (load_st == CUZK_OK) {
        assert_int_equal(st, CUZK_OK);
        return;
    }
    if (st != CUZK_OK) {
        assert_int_equal(st, load_st);
        assert_string_equal(e.msg, load_err->msg);
    }
}

static void test_r1cs_rejections(void **state)
{
    (void)state;
    spec s;
    cubic_spec(&s);
    cuzk_error err;
    cuzk_r1cs *r = (cuzk_r1cs *)&err; /* must be reset to NULL on failure */
    opts o = {0};
    sw_buf f;

#define CASE(setup, want, needle)                                                       \
    do {                                                                                \
        cubic_spec(&s);                                                                 \
        memset(&o, 0, sizeof o);                                                        \
        setup;                                                                          \
        f = write_r1cs(&s, &o);                                                         \
        expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, f.p, f.n, &err), &err, want, needle); \
        assert_null(r);                                                                 \
        header_agrees(&f, want, &err);                                                  \
        free(f.p);                                                                      \
    } while (0)

    CASE(o.l.version = 2, CUZK_ERR_UNSUPPORTED, "version 2 at offset 4");
    CASE(o.bn128 = true, CUZK_ERR_UNSUPPORTED,
         "wrong curve: field prime is "
         "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
    CASE(o.l.dup_header = true, CUZK_ERR_FORMAT, "duplicate header section");
    CASE(o.l.no_constraints = true, CUZK_ERR_FORMAT, "missing constraints section");
    CASE(o.l.no_map = true, CUZK_ERR_FORMAT, "missing wire->label section");
    CASE(o.l.custom_gates = true, CUZK_ERR_UNSUPPORTED, "custom gates");
    CASE(s.t[1][2][0].wire = 5, CUZK_ERR_FORMAT, "constraint 1 LC C term 0 at offset");
    CASE(sw_prime_r(s.t[2][0][1].coeff, false), CUZK_ERR_NONCANONICAL,
         "constraint 2 LC A term 1: coefficient at offset");
    CASE(s.n_prv_in = 4, CUZK_ERR_FORMAT, "more than nWires = 5");
    CASE((o.hdr_override = true, o.hdr_constraints = 3), CUZK_ERR_LENGTH,
         "after the last constraint");
    CASE((o.hdr_override = true, o.hdr_constraints = 5), CUZK_ERR_TRUNCATED,
         "after 4 of 5 constraints");
    CASE((o.hdr_override = true, o.hdr_constraints = 0xffffffffu), CUZK_ERR_TRUNCATED,
         "too few for nConstraints = 4294967295");
    /* absurd counts that `cuzk inspect` used to print: refused by the shared header check */
    CASE(s.n_pub_out = 0xffffffffu, CUZK_ERR_FORMAT, "more than nWires = 5");
    CASE(s.n_pub_in = 0xfffffffeu, CUZK_ERR_FORMAT, "more than nWires = 5");
#undef CASE

    /* hand edits of a valid file */
    cubic_spec(&s);
    memset(&o, 0, sizeof o);
    f = write_r1cs(&s, &o);
    sw_buf g = {malloc(f.n + 1), f.n, f.n + 1};
    memcpy(g.p, f.p, f.n);
    /* bad magic */
    g.p[0] = 'x';
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), &err, CUZK_ERR_FORMAT,
               "not a r1cs file");
    g.p[0] = 'r';
    /* Another file's bytes never appear in the message (cuzkd sends it to clients): the
     * magic check said "72 6f 6f 74" for /etc/shadow. */
    static const char shadow[] = "root:$6$saltsalt$hash:19000:0:99999:7:::\n";
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, (const uint8_t *)shadow, sizeof shadow - 1, &err),
               &err, CUZK_ERR_FORMAT, "not a r1cs file");
    assert_null(strstr(err.msg, "72 6f 6f 74"));
    assert_null(strstr(err.msg, "root"));
    /* a field prime of no known curve: described, not dumped */
    {
        sw_buf hb = {0}, fb = {0};
        uint8_t junk[32];
        memset(junk, 0xa7, sizeof junk);
        sw_put_u32(&hb, 32), sw_put(&hb, junk, 32);
        sw_put(&fb, "r1cs", 4), sw_put_u32(&fb, 1), sw_put_u32(&fb, 1), sw_put_section(&fb, 1, &hb);
        expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, fb.p, fb.n, &err), &err, CUZK_ERR_UNSUPPORTED,
                   "the field prime at offset 28 (32 bytes) is no curve cuzk knows");
        assert_null(strstr(err.msg, "a7a7"));
        free(hb.p), free(fb.p);
    }
    /* a trailing byte after the last section */
    g.p[g.n++] = 0;
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), &err, CUZK_ERR_FORMAT,
               "1 unexpected bytes after the last of 3 sections");
    g.n--;
    /* nSections = 2^32 - 1 */
    memset(g.p + 8, 0xff, 4);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), &err, CUZK_ERR_TRUNCATED,
               "section id");
    memcpy(g.p + 8, f.p + 8, 4);
    /* first section (constraints) size = 2^64 - 1 */
    memset(g.p + 16, 0xff, 8);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), &err, CUZK_ERR_TRUNCATED,
               "section 0 (id 2) at offset 24 declares 18446744073709551615 bytes");
    memcpy(g.p + 16, f.p + 16, 8);
    /* nTerms of constraint 0's A = 2^32 - 1: no overflow, a clear truncation */
    memset(g.p + 24, 0xff, 4);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), &err, CUZK_ERR_TRUNCATED,
               "constraint 0 LC A at offset 24 declares 4294967295 terms");
    memcpy(g.p + 24, f.p + 24, 4);
    assert_int_equal(cuzk_r1cs_from_snarkjs(&r, NULL, g.p, g.n, &err), CUZK_OK);
    cuzk_r1cs_destroy(r);
    /* NULL / empty input */
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, NULL, 0, &err), &err, CUZK_ERR_TRUNCATED,
               "offset 0");
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, NULL, 5, &err), &err, CUZK_ERR_INVALID_ARG,
               NULL);
    expect_err(cuzk_r1cs_from_snarkjs(NULL, NULL, g.p, g.n, &err), &err, CUZK_ERR_INVALID_ARG,
               NULL);
    free(g.p);
    free(f.p);
}

/* A wire->label section whose size disagrees with nWires, and an oversized header. */
static void test_r1cs_section_sizes(void **state)
{
    (void)state;
    spec s;
    cubic_spec(&s);
    cuzk_error err;
    cuzk_r1cs *r;
    sw_buf f = {0}, m = {0}, c = {0};
    for (int i = 0; i < 4; i++) /* 4 labels for 5 wires */
        sw_put_u64(&m, (uint64_t)i);
    sw_put_u32(&c, 0), sw_put_u32(&c, 0), sw_put_u32(&c, 0);
    s.n_constraints = 1;
    sw_buf h1 = {0};
    sw_r1cs_header hd = spec_header(&s, NULL);
    sw_r1cs_header_body(&h1, &hd);
    sw_put(&f, "r1cs", 4), sw_put_u32(&f, 1), sw_put_u32(&f, 3);
    sw_put_section(&f, 1, &h1), sw_put_section(&f, 2, &c), sw_put_section(&f, 3, &m);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, f.p, f.n, &err), &err, CUZK_ERR_LENGTH,
               "expected 8 x nWires = 40");
    f.n = 0;
    sw_put_u32(&h1, 0); /* header 4 bytes too long */
    sw_put(&f, "r1cs", 4), sw_put_u32(&f, 1), sw_put_u32(&f, 3);
    sw_put_section(&f, 1, &h1), sw_put_section(&f, 2, &c), sw_put_section(&f, 3, &m);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, f.p, f.n, &err), &err, CUZK_ERR_LENGTH,
               "4 extra bytes");
    /* n8 = 48 with BLS12-381's base field prime: the message shows the 381-bit prime */
    sw_buf h2 = {0};
    static const uint8_t q_le[48] = {
        0xab, 0xaa, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xb9, 0xff, 0xff, 0x53, 0xb1, 0xfe, 0xff, 0xab, 0x1e,
        0x24, 0xf6, 0xb0, 0xf6, 0xa0, 0xd2, 0x30, 0x67, 0xbf, 0x12, 0x85, 0xf3, 0x84, 0x4b, 0x77, 0x64,
        0xd7, 0xac, 0x4b, 0x43, 0xb6, 0xa7, 0x1b, 0x4b, 0x9a, 0xe6, 0x7f, 0x39, 0xea, 0x11, 0x01, 0x1a};
    sw_put_u32(&h2, 48), sw_put(&h2, q_le, 48);
    f.n = 0;
    sw_put(&f, "r1cs", 4), sw_put_u32(&f, 1), sw_put_u32(&f, 1), sw_put_section(&f, 1, &h2);
    expect_err(cuzk_r1cs_from_snarkjs(&r, NULL, f.p, f.n, &err), &err, CUZK_ERR_UNSUPPORTED,
               "wrong curve: field prime is 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
               "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
    free(f.p), free(h1.p), free(h2.p), free(m.p), free(c.p);
}

static void test_wtns(void **state)
{
    (void)state;
    cuzk_error err;
    size_t iters = test_iters(20);
    for (size_t it = 0; it < iters; it++) {
        uint32_t n = (uint32_t)(test_rng_u64() % 40);
        uint8_t(*vals)[32] = malloc((n ? n : 1) * 32);
        cuzk_fr *out = malloc((n ? n : 1) * sizeof *out);
        assert_true(vals && out);
        for (uint32_t i = 0; i < n; i++) {
            cuzk_fr v;
            test_rand_fr(&v);
            cuzk_fr_to_bytes_le(vals[i], &v);
        }
        sw_buf f = sw_wtns_write((const uint8_t(*)[32])vals, n, NULL);
        uint32_t cnt = 7;
        assert_int_equal(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), CUZK_OK);
        assert_int_equal(cnt, n);
        assert_int_equal(cuzk_frs_from_snarkjs_wtns(out, n, f.p, f.n, &err), CUZK_OK);
        for (uint32_t i = 0; i < n; i++) {
            uint8_t b[32];
            cuzk_fr_to_bytes_le(b, &out[i]);
            assert_memory_equal(b, vals[i], 32);
        }
        if (n)
            expect_err(cuzk_frs_from_snarkjs_wtns(out, n - 1, f.p, f.n, &err), &err,
                       CUZK_ERR_LENGTH, "room for");
        free(f.p);
        free(vals);
        free(out);
    }

    uint8_t vals[3][32] = {{1}, {2}, {3}};
    cuzk_fr out[3];
    uint32_t cnt;
    sw_buf f = sw_wtns_write((const uint8_t(*)[32])vals, 3, &(sw_wtns_layout){.version = 1});
    expect_err(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), &err, CUZK_ERR_UNSUPPORTED,
               "version 1");
    free(f.p);
    f = sw_wtns_write((const uint8_t(*)[32])vals, 3, &(sw_wtns_layout){.bn128 = true});
    expect_err(cuzk_frs_from_snarkjs_wtns(out, 3, f.p, f.n, &err), &err, CUZK_ERR_UNSUPPORTED,
               "wrong curve: field prime is 0x30644e72");
    free(f.p);
    f = sw_wtns_write((const uint8_t(*)[32])vals, 3, &(sw_wtns_layout){.count_delta = 1});
    expect_err(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), &err, CUZK_ERR_LENGTH,
               "expected nWitness x 32 = 128");
    assert_int_equal(cnt, 0);
    free(f.p);
    f = sw_wtns_write((const uint8_t(*)[32])vals, 3, &(sw_wtns_layout){.count_delta = -1});
    expect_err(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), &err, CUZK_ERR_LENGTH, NULL);
    free(f.p);
    sw_prime_r(vals[2], false);
    f = sw_wtns_write((const uint8_t(*)[32])vals, 3, NULL);
    assert_int_equal(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), CUZK_OK);
    expect_err(cuzk_frs_from_snarkjs_wtns(out, 3, f.p, f.n, &err), &err, CUZK_ERR_NONCANONICAL,
               "value 2 at offset");
    free(f.p);
    memset(vals[2], 0, 32);
    f = sw_wtns_write((const uint8_t(*)[32])vals, 3, NULL);
    f.p[0] = 'W';
    expect_err(cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err), &err, CUZK_ERR_FORMAT,
               "not a wtns file");
    f.p[0] = 'w';
    expect_err(cuzk_snarkjs_wtns_count(f.p, f.n, NULL, &err), &err, CUZK_ERR_INVALID_ARG, NULL);
    expect_err(cuzk_frs_from_snarkjs_wtns(NULL, 3, f.p, f.n, &err), &err, CUZK_ERR_INVALID_ARG,
               NULL);
    for (size_t len = 0; len < f.n; len++) {
        uint8_t *p = malloc(len ? len : 1);
        memcpy(p, f.p, len);
        cuzk_status st = cuzk_snarkjs_wtns_count(p, len, &cnt, &err);
        if (st == CUZK_OK)
            fail_msg("wtns prefix of %zu bytes parsed", len);
        assert_non_null(strstr(err.msg, "offset"));
        free(p);
    }
    for (size_t off = 0; off < f.n; off++)
        for (int k = 0; k < 3; k++) {
            uint8_t x = k == 0 ? 0x01 : k == 1 ? 0x80 : (uint8_t)(1 + test_rng_u64() % 255);
            f.p[off] ^= x;
            if (cuzk_snarkjs_wtns_count(f.p, f.n, &cnt, &err) == CUZK_OK) {
                assert_true((uint64_t)cnt * 32 <= f.n);
                cuzk_fr *o = malloc((cnt ? cnt : 1) * sizeof *o);
                cuzk_status st = cuzk_frs_from_snarkjs_wtns(o, cnt, f.p, f.n, &err);
                assert_true(st == CUZK_OK || st == CUZK_ERR_NONCANONICAL);
                free(o);
            }
            f.p[off] ^= x;
        }
    free(f.p);
}

static sw_buf from_hex(const char *hex)
{
    sw_buf b = {0};
    for (size_t i = 0; hex[i] && hex[i + 1]; i += 2) {
        unsigned v;
        assert_int_equal(sscanf(hex + i, "%2x", &v), 1);
        uint8_t byte = (uint8_t)v;
        sw_put(&b, &byte, 1);
    }
    return b;
}

static void test_circom_files(void **state)
{
    (void)state;
    sw_buf f = from_hex(k_circom_r1cs), wf = from_hex(k_circom_wtns);
    assert_int_equal(f.n, 592);
    assert_int_equal(wf.n, 268);
    cuzk_error err;
    cuzk_r1cs *r;
    cuzk_snarkjs_r1cs_header h;
    assert_int_equal(cuzk_r1cs_from_snarkjs(&r, &h, f.p, f.n, &err), CUZK_OK);
    assert_int_equal(h.n_wires, 6);
    assert_int_equal(h.n_pub_out, 1);
    assert_int_equal(h.n_pub_in, 1);
    assert_int_equal(h.n_prv_in, 1);
    assert_int_equal(h.n_labels, 6);
    assert_int_equal(h.n_constraints, 3);
    assert_int_equal(r->n_public, 2);
    assert_int_equal(r->n_aux, 3);
    check_invariants(r);
    cuzk_fr w[6];
    assert_int_equal(cuzk_frs_from_snarkjs_wtns(w, 6, wf.p, wf.n, &err), CUZK_OK);
    static const uint64_t want[6] = {1, 29, 2, 3, 9, 27};
    for (int i = 0; i < 6; i++) {
        cuzk_fr t;
        cuzk_fr_from_u64(&t, want[i]);
        assert_true(cuzk_fr_eq(&w[i], &t));
    }
    cuzk_witness wv = cuzk_witness_dense(w, 6);
    assert_int_equal(cuzk_r1cs_check(r, &wv, NULL, &err), CUZK_OK);
    /* y (wire 5) first appears in constraint 1, y = s * x */
    cuzk_fr_from_u64(&w[5], 28);
    uint64_t row;
    expect_err(cuzk_r1cs_check(r, &wv, &row, &err), &err, CUZK_ERR_UNSATISFIED, "constraint 1 ");
    assert_int_equal(row, 1);
    cuzk_r1cs_destroy(r);
    /* every prefix of the real files fails cleanly */
    for (size_t len = 0; len < f.n; len++) {
        sw_buf p = {malloc(len ? len : 1), len, len};
        memcpy(p.p, f.p, len);
        assert_int_not_equal(parse_r1cs(&p, &err), CUZK_OK);
        free(p.p);
    }
    uint32_t n;
    for (size_t len = 0; len < wf.n; len++)
        assert_int_not_equal(cuzk_snarkjs_wtns_count(wf.p, len, &n, &err), CUZK_OK);
    free(f.p);
    free(wf.p);
}

static char *write_temp(const sw_buf *f)
{
    char *path = strdup("/tmp/cuzk_test_snarkjs_XXXXXX");
    assert_non_null(path);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, f->p, f->n), (ssize_t)f->n);
    close(fd);
    return path;
}

static void test_files(void **state)
{
    (void)state;
    spec s;
    cubic_spec(&s);
    opts o = {0};
    sw_buf f = write_r1cs(&s, &o);
    sw_buf wf = sw_wtns_write(k_cubic_w, 5, NULL);
    char *rp = write_temp(&f), *wp = write_temp(&wf);
    cuzk_error err;
    cuzk_r1cs *r;
    cuzk_snarkjs_r1cs_header h;
    assert_int_equal(cuzk_r1cs_load_snarkjs(&r, &h, rp, &err), CUZK_OK);
    assert_int_equal(h.n_constraints, 4);
    cuzk_fr *w;
    uint32_t n;
    assert_int_equal(cuzk_frs_load_snarkjs_wtns(&w, &n, wp, &err), CUZK_OK);
    assert_int_equal(n, 5);
    cuzk_witness wv = cuzk_witness_dense(w, n);
    assert_int_equal(cuzk_r1cs_check(r, &wv, NULL, &err), CUZK_OK);
    free(w);
    cuzk_r1cs_destroy(r);
    /* each reader on the other's file: a clean format error */
    expect_err(cuzk_r1cs_load_snarkjs(&r, NULL, wp, &err), &err, CUZK_ERR_FORMAT, "not a r1cs");
    expect_err(cuzk_frs_load_snarkjs_wtns(&w, &n, rp, &err), &err, CUZK_ERR_FORMAT, "not a wtns");
    assert_null(w);
    /* empty file */
    sw_buf empty = {0};
    char *ep = write_temp(&empty);
    expect_err(cuzk_r1cs_load_snarkjs(&r, NULL, ep, &err), &err, CUZK_ERR_TRUNCATED, "offset 0");
    expect_err(cuzk_frs_load_snarkjs_wtns(&w, &n, ep, &err), &err, CUZK_ERR_TRUNCATED, NULL);
    unlink(ep), unlink(rp), unlink(wp);
    /* missing file and directory: CUZK_ERR_IO with the errno text */
    expect_err(cuzk_r1cs_load_snarkjs(&r, NULL, rp, &err), &err, CUZK_ERR_IO,
               "No such file or directory");
    expect_err(cuzk_frs_load_snarkjs_wtns(&w, &n, wp, &err), &err, CUZK_ERR_IO, "cannot open");
    expect_err(cuzk_r1cs_load_snarkjs(&r, NULL, "/tmp", &err), &err, CUZK_ERR_IO,
               "not a regular file");
    expect_err(cuzk_r1cs_load_snarkjs(&r, NULL, NULL, &err), &err, CUZK_ERR_INVALID_ARG, NULL);
    expect_err(cuzk_frs_load_snarkjs_wtns(NULL, &n, wp, &err), &err, CUZK_ERR_INVALID_ARG, NULL);
    free(ep), free(rp), free(wp);
    free(f.p), free(wf.p);
}

int main(void)
{
    test_rng_init("snarkjs_files");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1cs_cubic),
        cmocka_unit_test(test_r1cs_random_roundtrip),
        cmocka_unit_test(test_r1cs_prefixes_and_corruption),
        cmocka_unit_test(test_r1cs_rejections),
        cmocka_unit_test(test_r1cs_section_sizes),
        cmocka_unit_test(test_wtns),
        cmocka_unit_test(test_circom_files),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
