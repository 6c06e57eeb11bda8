/*
 * num.c — AllocatedNum (bellpepper-core num.rs), rust-fil-proofs' constraint.rs helpers
 * and insertion.rs (pick, insert_2, insert_4, insert_8), row for row.
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/num.h"

gad_num gad_num_alloc(cuzk_cs *cs, const cuzk_fr *value)
{
    gad_num x = {0, CUZK_FR_ZERO};
    if (cs->values)
        x.value = *value;
    x.var = cs_alloc(cs, &x.value);
    return x;
}

gad_num gad_num_alloc_input(cuzk_cs *cs, const cuzk_fr *value)
{
    gad_num x = {0, CUZK_FR_ZERO};
    if (cs->values)
        x.value = *value;
    x.var = cs_alloc_input(cs, &x.value);
    return x;
}

/* One row a * b = c of single variables with coefficient 1 (ONE allowed). */
static void row3(cuzk_cs *cs, cs_var a, cs_var b, cs_var c)
{
    if (!cs->rows) {
        cs_row_skip(cs);
        return;
    }
    cs_lc *r = cs_row_begin(cs);
    cs_lc_add_var(cs, &r[0], a);
    cs_lc_add_var(cs, &r[1], b);
    cs_lc_add_var(cs, &r[2], c);
    cs_row_end(cs);
}

gad_num gad_num_inputize(cuzk_cs *cs, const gad_num *num)
{
    gad_num x = gad_num_alloc_input(cs, &num->value);
    row3(cs, x.var, CS_ONE, num->var);
    return x;
}

void gad_num_to_bits_le(cuzk_cs *cs, const gad_num *num, gad_bool out[GAD_FR_NUM_BITS])
{
    uint64_t limbs[CUZK_FR_LIMBS] = {0};
    if (cs->values)
        cuzk_fr_to_canonical(limbs, &num->value);
    for (unsigned i = 0; i < GAD_FR_NUM_BITS; i++)
        out[i] = gad_bit_alloc(cs, (limbs[i / 64] >> (i % 64)) & 1);
    if (!cs->rows) {
        cs_row_skip(cs);
        return;
    }
    cs_lc *r = cs_row_begin(cs);
    for (unsigned i = 0; i < GAD_FR_NUM_BITS; i++)
        cs_lc_add(cs, &r[2], out[i].var, &cs->pow2[i]);
    cs_lc_sub_var(cs, &r[2], num->var);
    cs_row_end(cs);
}

/* alloc s = a + b; (a + b) * ONE = s (AllocatedNum::add and constraint::add alike) */
gad_num gad_num_add(cuzk_cs *cs, const gad_num *a, const gad_num *b)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values)
        cuzk_fr_add(&v, &a->value, &b->value);
    gad_num s = gad_num_alloc(cs, &v);
    if (!cs->rows) {
        cs_row_skip(cs);
        return s;
    }
    cs_lc *r = cs_row_begin(cs);
    cs_lc_add_var(cs, &r[0], a->var);
    cs_lc_add_var(cs, &r[0], b->var);
    cs_lc_add_var(cs, &r[1], CS_ONE);
    cs_lc_add_var(cs, &r[2], s.var);
    cs_row_end(cs);
    return s;
}

gad_num gad_constraint_add(cuzk_cs *cs, const gad_num *a, const gad_num *b)
{
    return gad_num_add(cs, a, b);
}

gad_num gad_constraint_sub(cuzk_cs *cs, const gad_num *a, const gad_num *b)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values)
        cuzk_fr_sub(&v, &a->value, &b->value);
    gad_num d = gad_num_alloc(cs, &v);
    if (!cs->rows) {
        cs_row_skip(cs);
        return d;
    }
    cs_lc *r = cs_row_begin(cs); /* (d + b) * ONE = a */
    cs_lc_add_var(cs, &r[0], d.var);
    cs_lc_add_var(cs, &r[0], b->var);
    cs_lc_add_var(cs, &r[1], CS_ONE);
    cs_lc_add_var(cs, &r[2], a->var);
    cs_row_end(cs);
    return d;
}

gad_num gad_num_mul(cuzk_cs *cs, const gad_num *a, const gad_num *b)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values)
        cuzk_fr_mul(&v, &a->value, &b->value);
    gad_num p = gad_num_alloc(cs, &v);
    row3(cs, a->var, b->var, p.var);
    return p;
}

gad_num gad_num_square(cuzk_cs *cs, const gad_num *a)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values)
        cuzk_fr_sqr(&v, &a->value);
    gad_num q = gad_num_alloc(cs, &v);
    row3(cs, a->var, a->var, q.var);
    return q;
}

/* alloc out = cond ? x : y; (y - x) * cond = y - out. pick(cond, x, y) is this row;
 * conditionally_reverse writes it as (a - b) * cond = a - c with x = b, y = a. */
static gad_num select_row(cuzk_cs *cs, gad_bool cond, const gad_num *x, const gad_num *y)
{
    gad_num out = gad_num_alloc(cs, cond.value ? &x->value : &y->value);
    if (!cs->rows) {
        cs_row_skip(cs);
        return out;
    }
    cs_lc *r = cs_row_begin(cs);
    cs_lc_add_var(cs, &r[0], y->var);
    cs_lc_sub_var(cs, &r[0], x->var);
    gb_lc_add(cs, &r[1], cond, &cs->one);
    cs_lc_add_var(cs, &r[2], y->var);
    cs_lc_sub_var(cs, &r[2], out.var);
    cs_row_end(cs);
    return out;
}

void gad_num_conditionally_reverse(cuzk_cs *cs, const gad_num *a, const gad_num *b,
                                   gad_bool cond, gad_num *c, gad_num *d)
{
    gad_num ta = *a, tb = *b; /* c or d may alias a or b */
    *c = select_row(cs, cond, &tb, &ta);
    *d = select_row(cs, cond, &ta, &tb);
}

void gad_equal(cuzk_cs *cs, const gad_num *a, const gad_num *b)
{
    row3(cs, a->var, CS_ONE, b->var);
}

gad_num gad_pick(cuzk_cs *cs, gad_bool cond, const gad_num *a, const gad_num *b)
{
    return select_row(cs, cond, a, b);
}

static void insert_8(cuzk_cs *cs, const gad_num *A, const gad_bool *bits, const gad_num *e,
                     gad_num *out)
{
    gad_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    if (b0.kind != GB_IS || b1.kind != GB_IS) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "insert_8: bits must be allocated and unnegated");
        return;
    }
    const gad_num *B = &e[0], *C = &e[1], *D = &e[2], *E = &e[3], *F = &e[4], *G = &e[5],
                  *H = &e[6];
    gad_bool nor01 = gad_bit_nor(cs, b0, b1), and01 = gad_bit_and(cs, b0, b1);
    gad_num p0_xx0 = gad_pick(cs, nor01, A, B);
    out[0] = gad_pick(cs, b2, B, &p0_xx0);
    gad_num p1_x00 = gad_pick(cs, b0, A, B);
    gad_num p1_xx0 = gad_pick(cs, b1, C, &p1_x00);
    out[1] = gad_pick(cs, b2, C, &p1_xx0);
    gad_num p2_x10 = gad_pick(cs, b0, D, A);
    gad_num p2_xx0 = gad_pick(cs, b1, &p2_x10, C);
    out[2] = gad_pick(cs, b2, D, &p2_xx0);
    gad_num p3_xx0 = gad_pick(cs, and01, A, D);
    out[3] = gad_pick(cs, b2, E, &p3_xx0);
    gad_num p4_xx1 = gad_pick(cs, nor01, A, F);
    out[4] = gad_pick(cs, b2, &p4_xx1, E);
    gad_num p5_x01 = gad_pick(cs, b0, A, F);
    gad_num p5_xx1 = gad_pick(cs, b1, G, &p5_x01);
    out[5] = gad_pick(cs, b2, &p5_xx1, F);
    gad_num p6_x11 = gad_pick(cs, b0, H, A);
    gad_num p6_xx1 = gad_pick(cs, b1, &p6_x11, G);
    out[6] = gad_pick(cs, b2, &p6_xx1, G);
    gad_num p7_xx1 = gad_pick(cs, and01, A, H);
    out[7] = gad_pick(cs, b2, &p7_xx1, H);
}

void gad_insert(cuzk_cs *cs, const gad_num *element, const gad_bool *bits, unsigned nbits,
                const gad_num *elements, gad_num *out)
{
    const gad_num *a = element, *e = elements;
    switch (nbits) {
    case 1:
        out[0] = gad_pick(cs, bits[0], &e[0], a);
        out[1] = gad_pick(cs, bits[0], a, &e[0]);
        break;
    case 2: {
        gad_bool b0 = bits[0], b1 = bits[1];
        gad_num p0_x0 = gad_pick(cs, b0, &e[0], a);
        out[0] = gad_pick(cs, b1, &e[0], &p0_x0);
        gad_num p1_x0 = gad_pick(cs, b0, a, &e[0]);
        out[1] = gad_pick(cs, b1, &e[1], &p1_x0);
        gad_num p2_x1 = gad_pick(cs, b0, &e[2], a);
        out[2] = gad_pick(cs, b1, &p2_x1, &e[1]);
        gad_num p3_x1 = gad_pick(cs, b0, a, &e[2]);
        out[3] = gad_pick(cs, b1, &p3_x1, &e[2]);
        break;
    }
    case 3:
        insert_8(cs, a, bits, e, out);
        break;
    default:
        cs_fail(cs, CUZK_ERR_INTERNAL, "insert: %u index bits unsupported", nbits);
    }
}
