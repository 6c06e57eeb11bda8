/*
 * snap_gadgets.c — storage-proofs-update's gadgets (gadgets.rs: allocated_num_to_allocated_
 * bits, gen_challenge_bits, get_challenge_high_bits, label_r_new, apex_por; storage-proofs-
 * core insertion.rs select) with bellperson's order of allocations and rows, and the "gen
 * randomness" Poseidon constants they hash with. Layouts at each function (snap_internal.h).
 *
 * Threading: snap_pos_gen's table is built once under pthread_once; gadgets run as the
 * cuzk_cs.
 */
#include <pthread.h>
#include <string.h>

#include "circuits/snap/snap_internal.h"

static pos_params g_gen;
static bool g_gen_ok;
static pthread_once_t g_gen_once = PTHREAD_ONCE_INIT;

static void gen_init(void)
{
    const pos_params *p = pos_params_get(2);
    if (!p)
        return;
    g_gen = *p;
    /* CType::domain_tag: identifier * 2^40 with identifier 1 */
    cuzk_fr_from_u64(&g_gen.tag, 1ull << 40);
    g_gen_ok = true;
}

const pos_params *snap_pos_gen(void)
{
    pthread_once(&g_gen_once, gen_init);
    return g_gen_ok ? &g_gen : NULL;
}

void snap_num_to_bits(cuzk_cs *cs, const gad_num *num, gad_bool out[GAD_FR_NUM_BITS])
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
        cs_lc_add(cs, &r[0], out[i].var, &cs->pow2[i]);
    cs_lc_add_var(cs, &r[1], CS_ONE);
    cs_lc_add_var(cs, &r[2], num->var);
    cs_row_end(cs);
}

void snap_gen_challenge_bits(cuzk_cs *cs, const gad_num *comm_r_new, const gad_num *partition,
                             uint32_t challenges, uint32_t bits_per, gad_bool *out)
{
    const pos_params *gen = snap_pos_gen();
    if (!gen || !bits_per || bits_per > GAD_FR_CAPACITY) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "snap: challenge bits: bad parameters");
        return;
    }
    uint32_t per_digest = GAD_FR_CAPACITY / bits_per;
    /* rust computes (challenges as f32 / per_digest as f32).ceil(): exact for these sizes */
    uint32_t digests = (challenges + per_digest - 1) / per_digest;
    uint32_t done = 0;
    for (uint32_t j = 0; j < digests; j++) {
        gad_num idx = {0, CUZK_FR_ZERO};
        cuzk_fr c_digests, c_j;
        cuzk_fr_from_u64(&c_digests, digests);
        cuzk_fr_from_u64(&c_j, j);
        if (cs->values) {
            cuzk_fr_mul(&idx.value, &partition->value, &c_digests);
            cuzk_fr_add(&idx.value, &idx.value, &c_j);
        }
        idx.var = cs_alloc(cs, &idx.value);
        if (cs->rows) { /* (digests * k + j * ONE) * ONE = digest_index */
            cs_lc *r = cs_row_begin(cs);
            cs_lc_add(cs, &r[0], partition->var, &c_digests);
            cs_lc_add(cs, &r[0], CS_ONE, &c_j);
            cs_lc_add_var(cs, &r[1], CS_ONE);
            cs_lc_add_var(cs, &r[2], idx.var);
            cs_row_end(cs);
        } else {
            cs_row_skip(cs);
        }
        gad_num pre[2] = {*comm_r_new, idx};
        gad_num digest = gad_poseidon_hash(cs, gen, pre);
        gad_bool bits[GAD_FR_NUM_BITS];
        snap_num_to_bits(cs, &digest, bits);
        uint32_t take = j + 1 == digests ? challenges - done : per_digest;
        memcpy(out + (size_t)done * bits_per, bits, (size_t)take * bits_per * sizeof *bits);
        done += take;
    }
}

gad_num snap_challenge_high(cuzk_cs *cs, const gad_bool *c_bits, uint32_t n,
                            const gad_bool *h_select_bits, const uint32_t *hs)
{
    gad_num zeros[CUZK_SNAP_HS];
    for (unsigned k = 0; k < CUZK_SNAP_HS; k++) {
        uint32_t h = hs[k] <= n ? hs[k] : n;
        gad_num high = gad_pack_bits(cs, c_bits + (n - h), h);
        gad_num z = {0, CUZK_FR_ZERO};
        if (cs->values && h_select_bits[k].value)
            z.value = high.value;
        z.var = cs_alloc(cs, &z.value);
        if (cs->rows) { /* c_high * h_select_bit = c_high_or_zero */
            cs_lc *r = cs_row_begin(cs);
            cs_lc_add_var(cs, &r[0], high.var);
            cs_lc_add_var(cs, &r[1], h_select_bits[k].var);
            cs_lc_add_var(cs, &r[2], z.var);
            cs_row_end(cs);
        } else {
            cs_row_skip(cs);
        }
        zeros[k] = z;
    }
    gad_num sel = {0, CUZK_FR_ZERO};
    if (cs->values)
        for (unsigned k = 0; k < CUZK_SNAP_HS; k++)
            cuzk_fr_add(&sel.value, &sel.value, &zeros[k].value);
    sel.var = cs_alloc(cs, &sel.value);
    if (cs->rows) { /* (sum c_high_or_zero) * ONE = c_high_selected */
        cs_lc *r = cs_row_begin(cs);
        for (unsigned k = 0; k < CUZK_SNAP_HS; k++)
            cs_lc_add_var(cs, &r[0], zeros[k].var);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_add_var(cs, &r[2], sel.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return sel;
}

gad_num snap_label_r_new(cuzk_cs *cs, const gad_num *old, const gad_num *data,
                         const gad_num *rho)
{
    gad_num prod = gad_num_mul(cs, data, rho);
    gad_num l = {0, CUZK_FR_ZERO};
    if (cs->values)
        cuzk_fr_add(&l.value, &old->value, &prod.value);
    l.var = cs_alloc(cs, &l.value);
    if (cs->rows) { /* (old + data * rho) * ONE = new */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], old->var);
        cs_lc_add_var(cs, &r[0], prod.var);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_add_var(cs, &r[2], l.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return l;
}

#define MAX_APEX 128u

gad_num snap_select(cuzk_cs *cs, const gad_num *from, const gad_bool *bits, uint32_t nbits)
{
    gad_num state[MAX_APEX];
    uint32_t half = (1u << nbits) / 2;
    if (nbits > 7) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "snap: select over more than %u values", MAX_APEX);
        return from[0];
    }
    memcpy(state, from, (size_t)(1u << nbits) * sizeof *state);
    /* the most significant bit first: pick(bit, state[half + j], state[j]) */
    for (uint32_t i = 0; i < nbits; i++, half /= 2) {
        gad_bool b = bits[nbits - 1 - i];
        for (uint32_t j = 0; j < half; j++)
            state[j] = gad_pick(cs, b, &state[half + j], &state[j]);
    }
    return state[0];
}

void snap_apex_por(cuzk_cs *cs, const gad_num *leaves, uint32_t apex_bits,
                   const gad_bool *partition_bits, uint32_t pbits, const gad_num *path,
                   const gad_num *comm_d)
{
    gad_num row[MAX_APEX];
    if (apex_bits > 7) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "snap: apex tree over more than %u leaves", MAX_APEX);
        return;
    }
    uint32_t n = 1u << apex_bits;
    memcpy(row, leaves, (size_t)n * sizeof *row);
    for (; n > 1; n /= 2)
        for (uint32_t i = 0; i < n / 2; i++)
            row[i] = gad_hash_leaves(cs, GAD_HASH_SHA256, &row[2 * i], 2);
    gad_merkle_shape d = {GAD_HASH_SHA256, 2, pbits, 0, 0};
    gad_por_bits(cs, &d, partition_bits, &row[0], path, comm_d);
}
