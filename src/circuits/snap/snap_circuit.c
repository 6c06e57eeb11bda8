/*
 * snap_circuit.c — the SnapDeals circuits (storage-proofs-update circuit.rs
 * EmptySectorUpdateCircuit::synthesize and poseidon/circuit.rs, the single-partition
 * variant) and their counts. Order of allocations and rows in cuzk/snap.h.
 *
 * Witness data: comm_c and the apex leaves from the partition proof; root_r_old /
 * root_r_new from challenge 0's tree R paths; the partition path from challenge 0's tree D
 * path (its levels above the apex roots). The circuit only constrains these; a vanilla proof
 * whose other paths disagree gives an unsatisfied witness (cuzk_snap_partition_check says
 * which part before proving).
 *
 * Threading: as the cuzk_cs; no global state besides the Poseidon tables.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/snap/snap_internal.h"

#define MAX_R_SIBLINGS (CUZK_C1_MAX_LEVELS * 7u)
#define MAX_BITS 64u

static void fr_of(cuzk_fr *out, const uint8_t b[32])
{
    /* the shape check has made every value canonical */
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        *out = CUZK_FR_ZERO;
}

static gad_num alloc_bytes(cuzk_cs *cs, const uint8_t *b)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values)
        fr_of(&v, b);
    return gad_num_alloc(cs, &v);
}

static gad_num alloc_public(cuzk_cs *cs, const cuzk_fr *v)
{
    gad_num n = gad_num_alloc(cs, v);
    gad_num_inputize(cs, &n);
    return n;
}

/* alloc x (with value), x's low nbits as AllocatedBits and (sum 2^i b_i) * ONE = x */
static void decompose(cuzk_cs *cs, const gad_num *x, uint32_t nbits, gad_bool *bits)
{
    uint64_t v[CUZK_FR_LIMBS] = {0};
    if (cs->values)
        cuzk_fr_to_canonical(v, &x->value);
    for (uint32_t i = 0; i < nbits; i++)
        bits[i] = gad_bit_alloc(cs, (v[0] >> i) & 1);
    if (!cs->rows) {
        cs_row_skip(cs);
        return;
    }
    cs_lc *r = cs_row_begin(cs);
    for (uint32_t i = 0; i < nbits; i++)
        cs_lc_add(cs, &r[0], bits[i].var, &cs->pow2[i]);
    cs_lc_add_var(cs, &r[1], CS_ONE);
    cs_lc_add_var(cs, &r[2], x->var);
    cs_row_end(cs);
}

/* alloc the siblings of levels [from, from + levels) of m (values only with cs->values) */
static void alloc_path(cuzk_cs *cs, const cuzk_c1_merkle_proof *m, const gad_merkle_shape *s,
                       uint32_t from, uint32_t levels, gad_num *out)
{
    size_t k = 0, at = 0;
    for (uint32_t l = 0; l < from + levels; l++) {
        uint32_t a = s ? gad_merkle_level_arity(s, l) : 2;
        for (uint32_t j = 0; j + 1 < a; j++, at++) {
            if (l < from)
                continue;
            cuzk_fr v = CUZK_FR_ZERO;
            if (cs->values)
                fr_of(&v, m->siblings[at]);
            out[k++] = gad_num_alloc(cs, &v);
        }
    }
}

/* comm_r = Poseidon-2(comm_c, root) as comm_r_calc * ONE = comm_r */
static void enforce_comm_r(cuzk_cs *cs, const gad_num *comm_c, const gad_num *root,
                           const gad_num *comm_r)
{
    gad_num pre[2] = {*comm_c, *root};
    gad_num calc = gad_hash_leaves(cs, GAD_HASH_POSEIDON, pre, 2);
    gad_equal(cs, &calc, comm_r);
}

cuzk_status cuzk_snap_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    const cuzk_snap_partition *p = vctx;
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals circuit: no partition");
    const cuzk_snap_info *in = &p->info;
    bool pos = in->variant == CUZK_SNAP_POSEIDON;
    if (cs->values && !p->proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals circuit: the witness needs the partition proof");
    if (cs->values) {
        cuzk_status st = cuzk_snap_partition_check_shape(p, err);
        if (st != CUZK_OK)
            return st;
    }
    const pos_params *gen = snap_pos_gen();
    if (!gen)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "SnapDeals circuit: no Poseidon constants");
    gad_merkle_shape rs = {GAD_HASH_POSEIDON, in->base_arity, in->base_levels, in->sub_arity,
                           in->top_arity};
    uint32_t cb = in->challenge_bits, pb = in->partition_bits;
    if (cb > MAX_BITS || gad_merkle_index_bits(&rs) != cb ||
        cuzk_snap_info_r_levels(in) > CUZK_C1_MAX_LEVELS || in->apex_bits > 7 ||
        cb < pb + in->apex_bits)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals circuit: impossible shape");
    const cuzk_snap_partition_proof *pp = p->proof;

    /* public input 0: k | h_select << pb (poseidon: h_select), and its bits */
    cuzk_fr v0 = CUZK_FR_ZERO, v_old = CUZK_FR_ZERO, v_d = CUZK_FR_ZERO, v_new = CUZK_FR_ZERO;
    if (cs->values) {
        cuzk_fr_from_u64(&v0, (uint64_t)p->k | cuzk_snap_h_select(in, p->h) << pb);
        fr_of(&v_old, p->comm_r_old);
        fr_of(&v_d, p->comm_d_new);
        fr_of(&v_new, p->comm_r_new);
    }
    gad_num ks = alloc_public(cs, &v0);
    gad_bool kh_bits[8 + CUZK_SNAP_HS];
    decompose(cs, &ks, pb + CUZK_SNAP_HS, kh_bits);
    const gad_bool *part_bits = kh_bits, *hsel_bits = kh_bits + pb;
    gad_num partition = {0, CUZK_FR_ZERO};
    if (!pos)
        partition = gad_pack_bits(cs, part_bits, pb);
    gad_num comm_r_old = alloc_public(cs, &v_old);
    gad_num comm_d_new = alloc_public(cs, &v_d);
    gad_num comm_r_new = alloc_public(cs, &v_new);
    gad_num pre[2] = {comm_d_new, comm_r_old};
    gad_num phi = gad_poseidon_hash(cs, gen, pre);

    const cuzk_snap_challenge_proof *c0 = pp ? &pp->challenges[0] : NULL;
    gad_num comm_c = alloc_bytes(cs, pp ? pp->comm_c : NULL);
    gad_num root_r_old = alloc_bytes(cs, c0 ? c0->r_old.root : NULL);
    gad_num root_r_new = alloc_bytes(cs, c0 ? c0->r_new.root : NULL);
    gad_num apex[128], ppath[8];
    if (!pos) {
        for (uint32_t i = 0; i < in->apex_leaves; i++)
            apex[i] = alloc_bytes(cs, pp ? pp->apex_leaves[i] : NULL);
        alloc_path(cs, c0 ? &c0->d_new : NULL, NULL, cb - pb, pb, ppath);
    }
    enforce_comm_r(cs, &comm_c, &root_r_old, &comm_r_old);
    enforce_comm_r(cs, &comm_c, &root_r_new, &comm_r_new);
    if (!pos)
        snap_apex_por(cs, apex, in->apex_bits, part_bits, pb, ppath, &comm_d_new);
    else
        partition = gad_num_alloc(cs, &CUZK_FR_ZERO);

    uint32_t rand_bits = cb - pb;
    gad_bool *gen_bits = malloc((size_t)in->challenges * rand_bits * sizeof *gen_bits);
    if (!gen_bits)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    snap_gen_challenge_bits(cs, &comm_r_new, &partition, in->challenges, rand_bits, gen_bits);

    gad_merkle_shape ds = pos ? rs : (gad_merkle_shape){GAD_HASH_SHA256, 2, rand_bits - in->apex_bits, 0, 0};
    gad_num path[MAX_R_SIBLINGS];
    for (uint32_t c = 0; c < in->challenges && cs->status == CUZK_OK; c++) {
        const cuzk_snap_challenge_proof *cp = pp ? &pp->challenges[c] : NULL;
        gad_bool c_bits[MAX_BITS];
        memcpy(c_bits, gen_bits + (size_t)c * rand_bits, rand_bits * sizeof *c_bits);
        memcpy(c_bits + rand_bits, part_bits, pb * sizeof *c_bits);
        gad_num high = snap_challenge_high(cs, c_bits, cb, hsel_bits, in->hs);
        gad_num rp[2] = {phi, high};
        gad_num rho = gad_poseidon_hash(cs, gen, rp);
        gad_num leaf_r_old = alloc_bytes(cs, cp ? cp->r_old.leaf : NULL);
        gad_num leaf_d_new = alloc_bytes(cs, cp ? cp->d_new.leaf : NULL);
        gad_num leaf_r_new = snap_label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
        uint32_t rl = gad_merkle_levels(&rs);
        alloc_path(cs, cp ? &cp->r_old : NULL, &rs, 0, rl, path);
        gad_por_bits(cs, &rs, c_bits, &leaf_r_old, path, &root_r_old);
        alloc_path(cs, cp ? &cp->r_new : NULL, &rs, 0, rl, path);
        gad_por_bits(cs, &rs, c_bits, &leaf_r_new, path, &root_r_new);
        if (pos) {
            alloc_path(cs, cp ? &cp->d_new : NULL, &rs, 0, rl, path);
            gad_por_bits(cs, &rs, c_bits, &leaf_d_new, path, &comm_d_new);
            continue;
        }
        uint32_t to_apex = ds.base_levels;
        gad_num apex_leaf = snap_select(cs, apex, c_bits + to_apex, in->apex_bits);
        alloc_path(cs, cp ? &cp->d_new : NULL, NULL, 0, to_apex, path);
        gad_por_bits(cs, &ds, c_bits, &leaf_d_new, path, &apex_leaf);
    }
    free(gen_bits);
    return CUZK_OK;
}

cuzk_status cuzk_snap_circuit_counts(uint64_t sector_size, cuzk_snap_variant variant,
                                     cuzk_circuit_counts *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals counts: out is NULL");
    cuzk_snap_partition p;
    memset(&p, 0, sizeof p);
    cuzk_status st = cuzk_snap_info_get(sector_size, variant, &p.info, err);
    if (st != CUZK_OK)
        return st;
    p.h = p.info.h;
    return cuzk_circuit_count(cuzk_snap_circuit, &p, out, err);
}
