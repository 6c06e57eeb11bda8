/*
 * multieq.c — MultiEq as bellpepper's multieq.rs: equalities lhs_k = rhs_k of n_k bits are
 * summed with shifts 2^(bits used so far) into one pending row (sum lhs) * ONE = (sum rhs);
 * the pending row is written when the next equality would reach 254 bits (Fr::CAPACITY)
 * and when the MultiEq is dropped (gad_multieq_finish). So these rows come after the
 * allocations they cover, at exactly those points.
 *
 * Without rows (the witness backend) only bits_used is tracked, so that every backend
 * counts the same rows.
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/bits.h"

void gad_multieq_init(gad_multieq *me)
{
    me->bits_used = 0;
    me->lhs = me->rhs = me->tmp_l = me->tmp_r = (cs_lc){0};
}

static void accumulate(cuzk_cs *cs, gad_multieq *me)
{
    if (cs->rows) {
        cs_lc *r = cs_row_begin(cs);
        cs_lc_copy(cs, &r[0], &me->lhs);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_copy(cs, &r[2], &me->rhs);
        cs_row_end(cs);
        cs_lc_clear(&me->lhs);
        cs_lc_clear(&me->rhs);
    } else {
        cs_row_skip(cs);
    }
    me->bits_used = 0;
}

void gad_multieq_enforce_equal(cuzk_cs *cs, gad_multieq *me, unsigned nbits, const cs_lc *lhs,
                               const cs_lc *rhs)
{
    if (GAD_FR_CAPACITY <= me->bits_used + nbits)
        accumulate(cs, me);
    if (me->bits_used + nbits >= GAD_FR_CAPACITY) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "multieq: a %u-bit equality does not fit a row", nbits);
        return;
    }
    if (cs->rows) {
        const cuzk_fr *shift = &cs->pow2[me->bits_used];
        cs_lc_add_lc(cs, &me->lhs, lhs, shift);
        cs_lc_add_lc(cs, &me->rhs, rhs, shift);
    }
    me->bits_used += nbits;
}

void gad_multieq_finish(cuzk_cs *cs, gad_multieq *me)
{
    if (me->bits_used > 0)
        accumulate(cs, me);
    cs_lc_free(&me->lhs);
    cs_lc_free(&me->rhs);
    cs_lc_free(&me->tmp_l);
    cs_lc_free(&me->tmp_r);
}
