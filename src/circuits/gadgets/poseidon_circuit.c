/*
 * poseidon_circuit.c — neptune's circuit::poseidon_hash (the "legacy" circuit Filecoin
 * uses), row for row.
 *
 * The state holds elements that are either allocated variables or linear combinations
 * (neptune's Elt::Allocated / Elt::Num). The tag element is a constant throughout the
 * first round (its S-box is computed natively). Linear layers only build linear
 * combinations; an S-box first allocates its input if it is a combination
 * (ensure_allocated: alloc l; lc * ONE = l), then
 *   first round, inputs:  alloc l2; (l + k) * (l + k) = l2;  alloc l4; l2 * l2 = l4;
 *                         alloc l5; (l + k) * l4 = l5 - k'   (k, k' the pre/post constants)
 *   later rounds:         alloc l2; l * l = l2;  alloc l4; l2 * l2 = l4;
 *                         alloc l5; l * l4 = l5 - k'   (no k' in the terminal round)
 * and the digest is state[1], allocated the same way. The witness values are the states of
 * neptune's static optimized schedule (poseidon_native.c).
 * The combinations grow through the partial rounds (each adds the new S-box output to
 * every other element); they are merged as bellperson merges them.
 *
 * Threading: as the cuzk_cs.
 */
#include <string.h>

#include "circuits/poseidon.h"

typedef struct elt {
    bool allocated;
    cs_var var;   /* allocated */
    cs_lc lc;     /* a combination (only built with rows) */
    cuzk_fr val;  /* the value (witness backend) */
} elt;

/* lc += s * e */
static void add_scaled(cuzk_cs *cs, elt *dst, const elt *e, const cuzk_fr *s)
{
    if (cs->values) {
        cuzk_fr tmp;
        cuzk_fr_mul(&tmp, &e->val, s);
        cuzk_fr_add(&dst->val, &dst->val, &tmp);
    }
    if (!cs->rows)
        return;
    if (e->allocated)
        cs_lc_add(cs, &dst->lc, e->var, s);
    else
        cs_lc_add_lc(cs, &dst->lc, &e->lc, s);
}

static void set_constant(cuzk_cs *cs, elt *e, const cuzk_fr *v)
{
    e->allocated = false;
    e->val = *v;
    cs_lc_clear(&e->lc);
    if (cs->rows)
        cs_lc_add(cs, &e->lc, CS_ONE, v);
}

/* ensure_allocated(enforce = true) */
static cs_var ensure_allocated(cuzk_cs *cs, elt *e)
{
    if (e->allocated)
        return e->var;
    cs_var v = cs_alloc(cs, &e->val);
    if (cs->rows) {
        cs_lc *r = cs_row_begin(cs);
        cs_lc_copy(cs, &r[0], &e->lc);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_add_var(cs, &r[2], v);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    e->allocated = true;
    e->var = v;
    return v;
}

/* One row (x + pre) * y = z - post, with x, y, z variables and pre/post optional. */
static void mul_row(cuzk_cs *cs, cs_var x, const cuzk_fr *pre, cs_var y, bool y_is_x,
                    cs_var z, const cuzk_fr *post)
{
    if (!cs->rows) {
        cs_row_skip(cs);
        return;
    }
    cs_lc *r = cs_row_begin(cs);
    cs_lc_add_var(cs, &r[0], x);
    if (pre)
        cs_lc_add(cs, &r[0], CS_ONE, pre);
    if (y_is_x) {
        cs_lc_copy(cs, &r[1], &r[0]);
    } else {
        cs_lc_add_var(cs, &r[1], y);
    }
    cs_lc_add_var(cs, &r[2], z);
    if (post) {
        cuzk_fr neg;
        cuzk_fr_neg(&neg, post);
        cs_lc_add(cs, &r[2], CS_ONE, &neg);
    }
    cs_row_end(cs);
}

/* The S-box of element e: pre = the first round's constant before it (NULL later),
 * post = the constant after it (NULL in the terminal round). */
static void sbox(cuzk_cs *cs, elt *e, const cuzk_fr *pre, const cuzk_fr *post)
{
    cs_var l = ensure_allocated(cs, e);
    cuzk_fr x = e->val, x2 = CUZK_FR_ZERO, x4 = CUZK_FR_ZERO, x5 = CUZK_FR_ZERO;
    if (cs->values) {
        if (pre)
            cuzk_fr_add(&x, &x, pre);
        cuzk_fr_sqr(&x2, &x);
        cuzk_fr_sqr(&x4, &x2);
        cuzk_fr_mul(&x5, &x4, &x);
        if (post)
            cuzk_fr_add(&x5, &x5, post);
    }
    cs_var l2 = cs_alloc(cs, &x2);
    mul_row(cs, l, pre, l, true, l2, NULL);
    cs_var l4 = cs_alloc(cs, &x4);
    mul_row(cs, l2, NULL, l2, true, l4, NULL);
    cs_var l5 = cs_alloc(cs, &x5);
    mul_row(cs, l, pre, l4, false, l5, post);
    e->allocated = true;
    e->var = l5;
    e->val = x5;
}

typedef struct state {
    unsigned t;
    elt a[POS_MAX_T], b[POS_MAX_T];
    elt *cur, *next;
} state;

/* The linear layer after round r (neptune's product_mds): pre-sparse after the last full
 * round of the first half, a sparse matrix after each partial round, M otherwise. All
 * three are applied as row-vector times matrix. */
static void mix(cuzk_cs *cs, state *st, const pos_params *p, unsigned r)
{
    unsigned t = p->t, h = p->rf / 2;
    elt *in = st->cur, *out = st->next;
    for (unsigned j = 0; j < t; j++) {
        out[j].allocated = false;
        out[j].val = CUZK_FR_ZERO;
        cs_lc_clear(&out[j].lc);
    }
    if (r >= h && r < h + p->rp) {
        unsigned k = r - h;
        for (unsigned i = 0; i < t; i++)
            add_scaled(cs, &out[0], &in[i], &p->w_hat[k][i]);
        for (unsigned j = 1; j < t; j++) {
            add_scaled(cs, &out[j], &in[j], &CUZK_FR_ONE);
            add_scaled(cs, &out[j], &in[0], &p->v_rest[k][j - 1]);
        }
    } else {
        const cuzk_fr *m = r == h - 1 ? p->pre_sparse : p->mds;
        for (unsigned j = 0; j < t; j++)
            for (unsigned i = 0; i < t; i++)
                add_scaled(cs, &out[j], &in[i], &m[i * t + j]);
    }
    if (cs->rows)
        for (unsigned j = 0; j < t; j++)
            cs_lc_normalize(&out[j].lc);
    st->cur = out;
    st->next = in;
}

gad_num gad_poseidon_hash(cuzk_cs *cs, const pos_params *p, const gad_num *in)
{
    unsigned t = p->t, h = p->rf / 2, r = 0;
    const cuzk_fr *k = p->crc;
    state st;
    memset(&st, 0, sizeof st);
    st.cur = st.a;
    st.next = st.b;

    /* first round: the tag's S-box is a constant; each input takes (l + k)^2, ^4, *(l+k) */
    cuzk_fr tag = p->tag;
    cuzk_fr_add(&tag, &tag, &k[0]);
    cuzk_fr t2, t4;
    cuzk_fr_sqr(&t2, &tag);
    cuzk_fr_sqr(&t4, &t2);
    cuzk_fr_mul(&tag, &tag, &t4);
    cuzk_fr_add(&tag, &tag, &k[t]);
    set_constant(cs, &st.cur[0], &tag);
    for (unsigned i = 1; i < t; i++) {
        st.cur[i].allocated = true;
        st.cur[i].var = in[i - 1].var;
        st.cur[i].val = in[i - 1].value;
        sbox(cs, &st.cur[i], &k[i], &k[t + i]);
    }
    unsigned off = 2 * t;
    mix(cs, &st, p, r++);
    for (; r < h; r++, off += t) {
        for (unsigned i = 0; i < t; i++)
            sbox(cs, &st.cur[i], NULL, &k[off + i]);
        mix(cs, &st, p, r);
    }
    for (; r < h + p->rp; r++) {
        sbox(cs, &st.cur[0], NULL, &k[off++]);
        mix(cs, &st, p, r);
    }
    for (; r < p->rf + p->rp; r++) {
        bool last = r == p->rf + p->rp - 1;
        for (unsigned i = 0; i < t; i++)
            sbox(cs, &st.cur[i], NULL, last ? NULL : &k[off + i]);
        if (!last)
            off += t;
        mix(cs, &st, p, r);
    }
    gad_num out;
    out.var = ensure_allocated(cs, &st.cur[1]);
    out.value = st.cur[1].val;
    for (unsigned i = 0; i < t; i++) {
        cs_lc_free(&st.a[i].lc);
        cs_lc_free(&st.b[i].lc);
    }
    return out;
}
