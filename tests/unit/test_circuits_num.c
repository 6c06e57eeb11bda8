/*
 * test_circuits_num.c — AllocatedNum gadgets (alloc, inputize, to_bits_le, add, sub, mul,
 * square, conditionally_reverse) and rust-fil-proofs' pick / insert_2 / insert_4 /
 * insert_8 on every backend.
 *
 * Oracles: native Fr arithmetic and canonical bits for values; the insertion table of
 * insertion.rs (element at position index, the others in order); row / aux counts from the
 * Rust sources (to_bits_le 256 rows, insert_8 22 rows); the r1cs check, and its failure
 * when an output is changed.
 */
#include "circuit_test_util.h"
#include "circuits/gadgets/num.h"
#include "test_rng.h"

typedef struct num_ctx {
    cuzk_fr a, b;
    bool cond;
    gad_num *out;   /* add, sub, mul, square, rev c, rev d, pick, input */
    gad_bool *bits; /* 255 */
} num_ctx;

static cuzk_status num_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const num_ctx *c = vctx;
    gad_num a = gad_num_alloc(cs, &c->a), b = gad_num_alloc(cs, &c->b);
    gad_bool cond = gad_bit_alloc(cs, c->cond);
    c->out[0] = gad_num_add(cs, &a, &b);
    c->out[1] = gad_constraint_sub(cs, &a, &b);
    c->out[2] = gad_num_mul(cs, &a, &b);
    c->out[3] = gad_num_square(cs, &a);
    gad_num_conditionally_reverse(cs, &a, &b, cond, &c->out[4], &c->out[5]);
    c->out[6] = gad_pick(cs, gb_not(cond), &a, &b);
    c->out[7] = gad_num_inputize(cs, &a);
    gad_equal(cs, &c->out[7], &a);
    gad_num_to_bits_le(cs, &b, c->bits);
    return CUZK_OK;
}

static void test_num_ops(void **state)
{
    (void)state;
    size_t iters = test_iters(8);
    for (size_t it = 0; it < iters; it++) {
        gad_num out[8];
        gad_bool bits[GAD_FR_NUM_BITS];
        num_ctx c = {.cond = it & 1, .out = out, .bits = bits};
        test_rand_fr(&c.a);
        test_rand_fr(&c.b);
        ct_result r;
        ct_run(num_circuit, &c, &r);
        /* 3 allocs; add, sub, mul, square 1+1 each; reverse 2+2; pick 1+1; inputize 1 input
         * + 1 row; equal 1 row; to_bits_le 255 bits + 256 rows */
        assert_int_equal(r.r1cs->n_constraints, 1 + 4 + 2 + 1 + 1 + 1 + 256);
        assert_int_equal(r.r1cs->n_aux, 3 + 4 + 2 + 1 + 255);
        assert_int_equal(r.r1cs->n_public, 1);
        assert_int_equal(r.map.n_bits, 1 + 255);
        cuzk_fr want[7];
        cuzk_fr_add(&want[0], &c.a, &c.b);
        cuzk_fr_sub(&want[1], &c.a, &c.b);
        cuzk_fr_mul(&want[2], &c.a, &c.b);
        cuzk_fr_sqr(&want[3], &c.a);
        want[4] = c.cond ? c.b : c.a;
        want[5] = c.cond ? c.a : c.b;
        want[6] = c.cond ? c.b : c.a; /* pick(not cond, a, b) */
        for (int i = 0; i < 7; i++)
            assert_true(cuzk_fr_eq(ct_aux(&r, (uint32_t)out[i].var), &want[i]));
        assert_true(cuzk_fr_eq(&r.w[1], &c.a));
        uint64_t limbs[4];
        cuzk_fr_to_canonical(limbs, &c.b);
        for (unsigned i = 0; i < GAD_FR_NUM_BITS; i++)
            assert_int_equal(cuzk_fr_is_one(ct_aux(&r, (uint32_t)bits[i].var)),
                             (limbs[i / 64] >> (i % 64)) & 1);
        for (int i = 0; i < 7; i++) { /* each output is bound by its row */
            cuzk_fr *p = &r.w[1 + r.r1cs->n_public + (uint32_t)out[i].var], keep = *p;
            cuzk_fr_add(p, p, &CUZK_FR_ONE);
            assert_false(ct_satisfied(&r, NULL));
            *p = keep;
        }
        r.w[1].l[0] ^= 1; /* the public input must equal a */
        assert_false(ct_satisfied(&r, NULL));
        ct_free(&r);
    }
}

typedef struct ins_ctx {
    unsigned nbits;
    unsigned index;
    cuzk_fr vals[8]; /* vals[0] = the element, then the others */
    gad_num *out;
} ins_ctx;

static cuzk_status ins_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const ins_ctx *c = vctx;
    unsigned n = 1u << c->nbits;
    gad_num v[8];
    gad_bool bits[3];
    for (unsigned i = 0; i < n; i++)
        v[i] = gad_num_alloc(cs, &c->vals[i]);
    for (unsigned i = 0; i < c->nbits; i++)
        bits[i] = gad_bit_alloc(cs, (c->index >> i) & 1);
    gad_insert(cs, &v[0], bits, c->nbits, v + 1, c->out);
    return CUZK_OK;
}

static void test_insert(void **state)
{
    (void)state;
    static const unsigned rows[4] = {0, 2, 8, 22}; /* insert_2, insert_4, insert_8 */
    for (unsigned nbits = 1; nbits <= 3; nbits++) {
        unsigned n = 1u << nbits;
        for (unsigned index = 0; index < n; index++) {
            gad_num out[8];
            ins_ctx c = {nbits, index, {{{0}}}, out};
            for (unsigned i = 0; i < n; i++)
                test_rand_fr(&c.vals[i]);
            ct_result r;
            ct_run(ins_circuit, &c, &r);
            assert_int_equal(r.r1cs->n_constraints, nbits + rows[nbits]);
            assert_int_equal(r.r1cs->n_aux, n + nbits + rows[nbits]);
            for (unsigned pos = 0, k = 1; pos < n; pos++) {
                const cuzk_fr *want = pos == index ? &c.vals[0] : &c.vals[k++];
                assert_true(cuzk_fr_eq(ct_aux(&r, (uint32_t)out[pos].var), want));
            }
            ct_free(&r);
        }
    }
}

int main(void)
{
    test_rng_init("test_circuits_num");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num_ops),
        cmocka_unit_test(test_insert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
