/*
 * test_circuits_bits.c — Boolean, UInt32, MultiEq and multipack gadgets (bellperson
 * layout) on every backend.
 *
 * Oracles: truth tables and native u32 arithmetic for values; the r1cs layer's check for
 * satisfaction (and its failure once a gadget's output is flipped); costs from
 * bellpepper's source (constant folding, addmany's result widths, MultiEq's flush at 254
 * bits); compute_multipacking's definition for the packed inputs.
 */
#include "circuit_test_util.h"
#include "circuits/cs_concat.h"
#include "circuits/gadgets/bits.h"
#include "test_rng.h"

/* ---------------------------------------------------------------------------------------
 * Boolean operations over every combination of constant / variable / negated operands
 * ------------------------------------------------------------------------------------- */
enum { OP_XOR, OP_AND, OP_OR, OP_CH, OP_MAJ, OP_COUNT };
static const unsigned op_arity[OP_COUNT] = {2, 2, 2, 3, 3};

typedef struct bool_ctx {
    int op;
    uint8_t kind[3];
    bool val[3];
    gad_bool *out;
} bool_ctx;

static gad_bool make_operand(cuzk_cs *cs, uint8_t kind, bool v)
{
    if (kind == GB_CONST)
        return gb_const(v);
    if (kind == GB_IS)
        return gad_bit_alloc(cs, v);
    return gb_not(gad_bit_alloc(cs, !v));
}

static cuzk_status bool_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const bool_ctx *c = vctx;
    gad_bool x[3];
    for (unsigned i = 0; i < op_arity[c->op]; i++)
        x[i] = make_operand(cs, c->kind[i], c->val[i]);
    switch (c->op) {
    case OP_XOR: *c->out = gad_bool_xor(cs, x[0], x[1]); break;
    case OP_AND: *c->out = gad_bool_and(cs, x[0], x[1]); break;
    case OP_OR: *c->out = gad_bool_or(cs, x[0], x[1]); break;
    case OP_CH: *c->out = gad_bool_sha256_ch(cs, x[0], x[1], x[2]); break;
    default: *c->out = gad_bool_sha256_maj(cs, x[0], x[1], x[2]); break;
    }
    return CUZK_OK;
}

static bool is_c(const bool_ctx *c, int i) { return c->kind[i] == GB_CONST; }
static bool cval(const bool_ctx *c, int i, bool v) { return is_c(c, i) && c->val[i] == v; }
static unsigned cost_and(bool x_const, bool y_const) { return x_const || y_const ? 0 : 1; }

/* Rows (= allocations) the operation itself costs, from bellpepper's match arms. */
static unsigned expected_cost(const bool_ctx *c)
{
    switch (c->op) {
    case OP_XOR:
    case OP_AND:
    case OP_OR: return cost_and(is_c(c, 0), is_c(c, 1));
    case OP_CH:
        if (is_c(c, 0) && is_c(c, 1) && is_c(c, 2))
            return 0;
        if (cval(c, 0, false))
            return 0;
        if (cval(c, 1, false))
            return cost_and(is_c(c, 0), is_c(c, 2));
        if (cval(c, 2, false) || cval(c, 2, true))
            return cost_and(is_c(c, 0), is_c(c, 1));
        if (cval(c, 1, true))
            return cost_and(is_c(c, 0), is_c(c, 2));
        return 1;
    default:
        if (is_c(c, 0) && is_c(c, 1) && is_c(c, 2))
            return 0;
        for (int i = 0; i < 3; i++)
            if (is_c(c, i))
                return cost_and(is_c(c, (i + 1) % 3), is_c(c, (i + 2) % 3));
        return 2;
    }
}

static bool truth(const bool_ctx *c)
{
    bool a = c->val[0], b = c->val[1], d = c->val[2];
    switch (c->op) {
    case OP_XOR: return a ^ b;
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_CH: return (a & b) ^ (!a & d);
    default: return (a & b) ^ (a & d) ^ (b & d);
    }
}

static void test_boolean_ops(void **state)
{
    (void)state;
    for (int op = 0; op < OP_COUNT; op++) {
        unsigned ar = op_arity[op], combos = 1;
        for (unsigned i = 0; i < ar; i++)
            combos *= 6; /* 3 kinds x 2 values */
        for (unsigned k = 0; k < combos; k++) {
            gad_bool out;
            bool_ctx c = {op, {0}, {0}, &out};
            unsigned allocs = 0;
            for (unsigned i = 0, x = k; i < ar; i++, x /= 6) {
                c.kind[i] = (uint8_t)(x % 3);
                c.val[i] = (x / 3) % 2;
                allocs += c.kind[i] != GB_CONST;
            }
            ct_result r;
            ct_run(bool_circuit, &c, &r);
            unsigned cost = expected_cost(&c);
            assert_int_equal(r.r1cs->n_constraints, allocs + cost);
            assert_int_equal(r.r1cs->n_aux, allocs + cost);
            assert_int_equal(r.map.n_bits, allocs + cost); /* results are marked bits */
            bool want = truth(&c);
            if (out.kind == GB_CONST) {
                assert_int_equal(out.value, want);
            } else {
                uint64_t j = (uint32_t)out.var;
                const cuzk_fr *v = ct_aux(&r, j);
                bool got = cuzk_fr_is_one(v);
                assert_true(got || cuzk_fr_is_zero(v));
                assert_int_equal(out.kind == GB_NOT ? !got : got, want);
                if (j >= allocs) { /* a new variable: flipping it must break a row */
                    cuzk_fr *p = &r.w[1 + r.r1cs->n_public + j];
                    *p = got ? CUZK_FR_ZERO : CUZK_FR_ONE;
                    assert_false(ct_satisfied(&r, NULL));
                }
            }
            ct_free(&r);
        }
    }
}

typedef struct eq_ctx {
    uint8_t kind[2];
    bool val[2];
} eq_ctx;

static cuzk_status eq_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const eq_ctx *c = vctx;
    gad_bool a = make_operand(cs, c->kind[0], c->val[0]);
    gad_bool b = make_operand(cs, c->kind[1], c->val[1]);
    gad_bool_enforce_equal(cs, a, b);
    return CUZK_OK;
}

static void test_enforce_equal(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 36; k++) {
        eq_ctx c = {{(uint8_t)(k % 3), (uint8_t)(k / 3 % 3)}, {(k / 9) % 2, (k / 18) % 2}};
        cuzk_r1cs *r1cs;
        cuzk_error e;
        if (c.kind[0] == GB_CONST && c.kind[1] == GB_CONST) {
            cuzk_status st = cuzk_circuit_record(eq_circuit, &c, &r1cs, NULL, &e);
            assert_int_equal(st, c.val[0] == c.val[1] ? CUZK_OK : CUZK_ERR_UNSATISFIED);
            if (st == CUZK_OK)
                cuzk_r1cs_destroy(r1cs);
            continue;
        }
        /* ct_run demands satisfaction: equal values only, then break them by hand */
        if (c.val[0] != c.val[1])
            continue;
        ct_result r;
        ct_run(eq_circuit, &c, &r);
        unsigned allocs = (c.kind[0] != GB_CONST) + (c.kind[1] != GB_CONST);
        assert_int_equal(r.r1cs->n_constraints, allocs + 1);
        cuzk_fr *p = &r.w[1 + r.r1cs->n_public];
        *p = cuzk_fr_is_one(p) ? CUZK_FR_ZERO : CUZK_FR_ONE;
        assert_false(ct_satisfied(&r, NULL));
        ct_free(&r);
    }
}

/* ---------------------------------------------------------------------------------------
 * UInt32 and MultiEq
 * ------------------------------------------------------------------------------------- */
typedef struct u32_ctx {
    unsigned n;          /* operands */
    uint32_t v[10];
    bool constant[10];
    gad_u32 *out;        /* [0] addmany, [1] xor(0,1), [2] ch(0,1,2), [3] maj, [4] rotr, [5] shr */
    unsigned rot;
} u32_ctx;

static cuzk_status u32_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const u32_ctx *c = vctx;
    gad_u32 ops[10];
    for (unsigned i = 0; i < c->n; i++)
        ops[i] = c->constant[i] ? gad_u32_const(c->v[i]) : gad_u32_alloc(cs, c->v[i]);
    gad_multieq me;
    gad_multieq_init(&me);
    c->out[0] = gad_u32_addmany(cs, &me, ops, c->n);
    gad_multieq_finish(cs, &me);
    c->out[1] = gad_u32_xor(cs, &ops[0], &ops[1]);
    c->out[2] = gad_u32_sha256_ch(cs, &ops[0], &ops[1], &ops[2]);
    c->out[3] = gad_u32_sha256_maj(cs, &ops[0], &ops[1], &ops[2]);
    c->out[4] = gad_u32_rotr(&ops[0], c->rot);
    c->out[5] = gad_u32_shr(&ops[0], c->rot);
    return CUZK_OK;
}

/* The value of a word in the dense witness. */
static uint32_t word_value(const ct_result *r, const gad_u32 *x)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++) {
        bool b = x->b[i].value;
        if (x->b[i].kind != GB_CONST) {
            b = cuzk_fr_is_one(ct_aux(r, (uint32_t)x->b[i].var));
            if (x->b[i].kind == GB_NOT)
                b = !b;
        }
        v |= (uint32_t)b << i;
    }
    return v;
}

static void test_uint32(void **state)
{
    (void)state;
    size_t iters = test_iters(40);
    for (size_t it = 0; it < iters; it++) {
        gad_u32 out[6];
        u32_ctx c = {3 + (unsigned)(it % 8), {0}, {0}, out, (unsigned)(test_rng_u64() % 32)};
        unsigned vars = 0;
        uint64_t sum = 0;
        for (unsigned i = 0; i < c.n; i++) {
            c.v[i] = (uint32_t)test_rng_u64();
            c.constant[i] = (test_rng_u64() % 3) == 0 && i > 2;
            vars += !c.constant[i];
            sum += c.v[i];
        }
        ct_result r;
        ct_run(u32_circuit, &c, &r);
        uint32_t a = c.v[0], b = c.v[1], d = c.v[2];
        assert_int_equal(word_value(&r, &out[0]), (uint32_t)sum);
        assert_int_equal(word_value(&r, &out[1]), a ^ b);
        assert_int_equal(word_value(&r, &out[2]), (a & b) ^ (~a & d));
        assert_int_equal(word_value(&r, &out[3]), (a & b) ^ (a & d) ^ (b & d));
        assert_int_equal(word_value(&r, &out[4]), (a >> c.rot) | (c.rot ? a << (32 - c.rot) : 0));
        assert_int_equal(word_value(&r, &out[5]), a >> c.rot);
        /* rows: operand bits, addmany's result bits, one MultiEq row, 32 xor, 32 ch,
         * 64 maj (maj allocates itself and b AND c) */
        unsigned width = 64 - (unsigned)__builtin_clzll((uint64_t)c.n * 0xffffffffu);
        assert_int_equal(width, c.n == 2 ? 33 : c.n <= 4 ? 34 : c.n <= 8 ? 35 : 36);
        assert_int_equal(r.r1cs->n_constraints, 32 * vars + width + 1 + 32 + 32 + 64);
        assert_int_equal(r.r1cs->n_aux, 32 * vars + width + 32 + 32 + 64);
        ct_free(&r);
    }
}

typedef struct me_ctx {
    unsigned adds;
    uint32_t v[32];
} me_ctx;

static cuzk_status multieq_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const me_ctx *c = vctx;
    gad_multieq me;
    gad_multieq_init(&me);
    for (unsigned k = 0; k < c->adds; k++) {
        gad_u32 ops[2] = {gad_u32_alloc(cs, c->v[2 * k]), gad_u32_const(c->v[2 * k + 1])};
        gad_u32_addmany(cs, &me, ops, 2);
    }
    gad_multieq_finish(cs, &me);
    return CUZK_OK;
}

/* A MultiEq row is the only row whose B is exactly ONE. */
static bool is_multieq_row(const cuzk_r1cs *m, uint64_t i)
{
    const cuzk_csr *b = &m->m[CUZK_R1CS_B];
    return b->row_ptr[i + 1] - b->row_ptr[i] == 1 && b->col[b->row_ptr[i]] == 0;
}

static void test_multieq_flush_points(void **state)
{
    (void)state;
    /* 2-operand sums are 33-bit equalities: 7 fit in 254 bits (231), the 8th flushes the
     * pending row after allocating its own result bits. */
    me_ctx c = {15, {0}};
    for (unsigned i = 0; i < 30; i++)
        c.v[i] = (uint32_t)test_rng_u64();
    ct_result r;
    ct_run(multieq_circuit, &c, &r);
    uint64_t per_add = 32 + 33;
    assert_int_equal(r.r1cs->n_constraints, 15 * per_add + 3);
    uint64_t rows_seen[3], n = 0;
    for (uint64_t i = 0; i < r.r1cs->n_constraints; i++)
        if (is_multieq_row(r.r1cs, i))
            rows_seen[n < 3 ? n : 2] = i, n++;
    assert_int_equal(n, 3);
    assert_int_equal(rows_seen[0], 8 * per_add);     /* flushed inside the 8th addmany */
    assert_int_equal(rows_seen[1], 15 * per_add + 1); /* flushed by the 15th */
    assert_int_equal(rows_seen[2], 15 * per_add + 2); /* the drop */
    ct_free(&r);
}

/* ---------------------------------------------------------------------------------------
 * multipack
 * ------------------------------------------------------------------------------------- */
typedef struct pack_ctx {
    size_t n;
    const bool *bits;
    gad_num *packed;
} pack_ctx;

static cuzk_status pack_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const pack_ctx *c = vctx;
    gad_bool *b = malloc((c->n ? c->n : 1) * sizeof *b);
    if (!b)
        return CUZK_ERR_NOMEM;
    for (size_t i = 0; i < c->n; i++)
        b[i] = (i % 7 == 3) ? gb_const(c->bits[i])
               : (i % 5 == 1) ? gb_not(gad_bit_alloc(cs, !c->bits[i]))
                              : gad_bit_alloc(cs, c->bits[i]);
    gad_pack_into_inputs(cs, b, c->n);
    *c->packed = gad_pack_bits(cs, b, c->n);
    free(b);
    return CUZK_OK;
}

static void test_multipack(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 64, 253, 254, 255, 508, 509, 700};
    for (size_t t = 0; t < sizeof lens / sizeof *lens; t++) {
        size_t n = lens[t];
        bool *bits = malloc((n ? n : 1) * sizeof *bits);
        for (size_t i = 0; i < n; i++)
            bits[i] = test_rng_u64() & 1;
        gad_num packed;
        pack_ctx c = {n, bits, &packed};
        ct_result r;
        ct_run(pack_circuit, &c, &r);
        size_t ni = gad_multipacking_len(n);
        assert_int_equal(r.r1cs->n_public, ni);
        cuzk_fr want[4];
        gad_compute_multipacking(want, bits, n);
        for (size_t i = 0; i < ni; i++)
            assert_true(cuzk_fr_eq(&r.w[1 + i], &want[i]));
        /* pack_bits takes the first 254 bits: the first input's value */
        const cuzk_fr *p = ct_aux(&r, (uint32_t)packed.var);
        assert_true(n ? cuzk_fr_eq(p, &want[0]) : cuzk_fr_is_zero(p));
        ct_free(&r);
        free(bits);
    }
}

/* ---------------------------------------------------------------------------------------
 * Runners: argument checks and error propagation
 * ------------------------------------------------------------------------------------- */
static cuzk_status failing_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)vctx;
    gad_bit_alloc(cs, true);
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "bad circuit data at 7");
}

static void test_runner_errors(void **state)
{
    (void)state;
    cuzk_error e;
    cuzk_r1cs *r1cs = NULL;
    cuzk_witness_map map;
    cuzk_circuit_counts counts;
    cuzk_fr *w = NULL;
    uint32_t n = 0;
    cuzk_compact_assignment ca;
    assert_int_equal(cuzk_circuit_record(NULL, NULL, &r1cs, &map, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_circuit_record(failing_circuit, NULL, NULL, &map, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_circuit_count(failing_circuit, NULL, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_circuit_witness_dense(failing_circuit, NULL, NULL, &n, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_circuit_witness_compact(failing_circuit, NULL, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    memset(&e, 0, sizeof e);
    assert_int_equal(cuzk_circuit_record(failing_circuit, NULL, &r1cs, &map, &e), CUZK_ERR_FORMAT);
    assert_null(r1cs);
    assert_string_equal(e.msg, "bad circuit data at 7");
    assert_int_equal(cuzk_circuit_count(failing_circuit, NULL, &counts, &e), CUZK_ERR_FORMAT);
    assert_int_equal(cuzk_circuit_witness_dense(failing_circuit, NULL, &w, &n, &e),
                     CUZK_ERR_FORMAT);
    assert_null(w);
    assert_int_equal(cuzk_circuit_witness_compact(failing_circuit, NULL, &ca, &e),
                     CUZK_ERR_FORMAT);
    assert_null(ca.bits);
    /* a failure inside a gadget (two different constants equated) is reported by the cs */
    eq_ctx c = {{GB_CONST, GB_CONST}, {true, false}};
    memset(&e, 0, sizeof e);
    assert_int_equal(cuzk_circuit_witness_dense(eq_circuit, &c, &w, &n, &e),
                     CUZK_ERR_UNSATISFIED);
    assert_non_null(strstr(e.msg, "constant"));
    assert_null(w);
}

/* ---------------------------------------------------------------------------------------
 * Pieces of one circuit recorded apart and concatenated
 * ------------------------------------------------------------------------------------- */
typedef struct piece_shape {
    unsigned bits_first, plain, bits_last;
} piece_shape;

static const piece_shape piece_shapes[] = {
    {3, 300, 0}, {0, 130, 0}, {70, 0, 0}, {1, 200, 2}, {0, 0, 0}, {0, 65, 64}, {129, 1, 0},
};
enum { N_PIECES = sizeof piece_shapes / sizeof piece_shapes[0] };

/* One input, the bits, the plain aux, each plain one tied to the input by a row. */
static void piece_run(cuzk_cs *cs, const piece_shape *p, uint64_t salt)
{
    cuzk_fr v, x;
    cuzk_fr_from_u64(&v, salt + 7);
    cs_var in = cs_alloc_input(cs, &v);
    for (unsigned i = 0; i < p->bits_first; i++)
        gad_bit_alloc(cs, ((salt + i) * 0x9e3779b97f4a7c15ull) >> 63);
    for (unsigned i = 0; i < p->plain; i++) {
        cuzk_fr_from_u64(&x, salt * 1000 + i);
        cs_var a = cs_alloc(cs, &x);
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], a);
        cs_lc_add_var(cs, &r[1], CUZK_R1CS_VAR_ONE);
        cs_lc_add_var(cs, &r[2], a);
        cs_lc_add_var(cs, &r[2], in);
        cs_lc_sub_var(cs, &r[2], in);
        cs_row_end(cs);
    }
    for (unsigned i = 0; i < p->bits_last; i++)
        gad_bit_alloc(cs, (salt + i) & 1);
}

static cuzk_status pieces_circuit(cuzk_cs *cs, const void *ctx, cuzk_error *err)
{
    (void)ctx;
    (void)err;
    for (unsigned s = 0; s < N_PIECES; s++)
        piece_run(cs, &piece_shapes[s], s);
    return CUZK_OK;
}

static void test_concat_marks(void **state)
{
    (void)state;
    cuzk_error e = {0};
    ct_result whole;
    ct_run(pieces_circuit, NULL, &whole);
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
    for (int round = 0; round < 2; round++) {
        cuzk_cs *cs = calloc(N_PIECES, sizeof *cs), *pieces[N_PIECES];
        assert_non_null(cs);
        uint64_t pub = 0, aux = 0;
        for (unsigned s = 0; s < N_PIECES; s++) {
            const piece_shape *p = &piece_shapes[s];
            cs_init_at(&cs[s], pub, aux);
            piece_run(&cs[s], p, s);
            assert_int_equal(cs[s].status, CUZK_OK);
            pub += 1;
            aux += p->bits_first + p->plain + p->bits_last;
            pieces[s] = &cs[s];
        }
        cuzk_r1cs *r1cs = NULL;
        cuzk_witness_map map;
        assert_int_equal(cs_record_concat(pieces, N_PIECES, round ? pool : NULL, &r1cs, &map, &e),
                         CUZK_OK);
        const cuzk_r1cs *a = whole.r1cs;
        assert_int_equal(r1cs->n_constraints, a->n_constraints);
        assert_int_equal(r1cs->n_vars, a->n_vars);
        assert_int_equal(map.n_vars, whole.map.n_vars);
        assert_int_equal(map.n_bits, whole.map.n_bits);
        for (uint32_t v = 0; v < map.n_vars; v++) {
            bool x = (map.is_bit[v >> 6] >> (v & 63)) & 1;
            bool y = (whole.map.is_bit[v >> 6] >> (v & 63)) & 1;
            if (x != y)
                fail_msg("variable %u: marked %d apart, %d whole", v, x, y);
        }
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            assert_int_equal(r1cs->m[k].nnz, a->m[k].nnz);
            assert_memory_equal(r1cs->m[k].col, a->m[k].col, a->m[k].nnz * sizeof(uint32_t));
            assert_memory_equal(r1cs->m[k].row_ptr, a->m[k].row_ptr,
                                (a->n_constraints + 1) * sizeof(uint64_t));
        }
        cuzk_r1cs_destroy(r1cs);
        cuzk_witness_map_free(&map);
        free(cs);
    }
    cuzk_pool_destroy(pool);
    ct_free(&whole);
}

int main(void)
{
    test_rng_init("test_circuits_bits");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boolean_ops),
        cmocka_unit_test(test_enforce_equal),
        cmocka_unit_test(test_uint32),
        cmocka_unit_test(test_multieq_flush_points),
        cmocka_unit_test(test_multipack),
        cmocka_unit_test(test_runner_errors),
        cmocka_unit_test(test_concat_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
