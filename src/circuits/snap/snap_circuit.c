/*
 * snap_circuit.c — the SnapDeals circuits (storage-proofs-update circuit.rs
 * EmptySectorUpdateCircuit::synthesize and poseidon/circuit.rs, the single-partition
 * variant) and their counts. Order of allocations and rows in cuzk/snap_circuit.h.
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

#include "circuits/cs_concat.h"
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

/* What every challenge reads from the partition's common part (snap_preamble). */
typedef struct snap_pre {
    const cuzk_snap_partition *p;
    bool pos;
    gad_merkle_shape rs, ds;
    uint32_t cb, pb, rand_bits;
    gad_bool kh_bits[8 + CUZK_SNAP_HS];
    const gad_bool *part_bits, *hsel_bits;
    gad_num phi, comm_d_new, root_r_old, root_r_new;
    gad_num apex[128];
    gad_bool *gen_bits; /* challenges x rand_bits, malloc'd */
} snap_pre;

/* The common part, in the circuit's order: the inputs and their bits, phi, comm_c and the
 * two tree R roots, the apex leaves and partition path (main variant), comm_r checks, the
 * apex inclusion, and every challenge's generated bits. */
static cuzk_status snap_preamble(cuzk_cs *cs, const cuzk_snap_partition *p, snap_pre *x,
                                 cuzk_error *err)
{
    memset(x, 0, sizeof *x);
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals circuit: no partition");
    const cuzk_snap_info *in = &p->info;
    bool pos = in->variant == CUZK_SNAP_POSEIDON;
    x->p = p;
    x->pos = pos;
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
    x->rs = (gad_merkle_shape){GAD_HASH_POSEIDON, in->base_arity, in->base_levels,
                               in->sub_arity, in->top_arity};
    uint32_t cb = in->challenge_bits, pb = in->partition_bits;
    if (cb > MAX_BITS || gad_merkle_index_bits(&x->rs) != cb ||
        cuzk_snap_info_r_levels(in) > CUZK_C1_MAX_LEVELS || in->apex_bits > 7 ||
        cb < pb + in->apex_bits)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals circuit: impossible shape");
    x->cb = cb;
    x->pb = pb;
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
    decompose(cs, &ks, pb + CUZK_SNAP_HS, x->kh_bits);
    x->part_bits = x->kh_bits;
    x->hsel_bits = x->kh_bits + pb;
    gad_num partition = {0, CUZK_FR_ZERO};
    if (!pos)
        partition = gad_pack_bits(cs, x->part_bits, pb);
    gad_num comm_r_old = alloc_public(cs, &v_old);
    x->comm_d_new = alloc_public(cs, &v_d);
    gad_num comm_r_new = alloc_public(cs, &v_new);
    gad_num pre[2] = {x->comm_d_new, comm_r_old};
    x->phi = gad_poseidon_hash(cs, gen, pre);

    const cuzk_snap_challenge_proof *c0 = pp ? &pp->challenges[0] : NULL;
    gad_num comm_c = alloc_bytes(cs, pp ? pp->comm_c : NULL);
    x->root_r_old = alloc_bytes(cs, c0 ? c0->r_old.root : NULL);
    x->root_r_new = alloc_bytes(cs, c0 ? c0->r_new.root : NULL);
    gad_num ppath[8];
    if (!pos) {
        for (uint32_t i = 0; i < in->apex_leaves; i++)
            x->apex[i] = alloc_bytes(cs, pp ? pp->apex_leaves[i] : NULL);
        alloc_path(cs, c0 ? &c0->d_new : NULL, NULL, cb - pb, pb, ppath);
    }
    enforce_comm_r(cs, &comm_c, &x->root_r_old, &comm_r_old);
    enforce_comm_r(cs, &comm_c, &x->root_r_new, &comm_r_new);
    if (!pos)
        snap_apex_por(cs, x->apex, in->apex_bits, x->part_bits, pb, ppath, &x->comm_d_new);
    else
        partition = gad_num_alloc(cs, &CUZK_FR_ZERO);

    x->rand_bits = cb - pb;
    x->gen_bits = malloc(((size_t)in->challenges * x->rand_bits + 1) * sizeof *x->gen_bits);
    if (!x->gen_bits)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    snap_gen_challenge_bits(cs, &comm_r_new, &partition, in->challenges, x->rand_bits,
                            x->gen_bits);
    x->ds = pos ? x->rs
                : (gad_merkle_shape){GAD_HASH_SHA256, 2, x->rand_bits - in->apex_bits, 0, 0};
    return CUZK_OK;
}

/* Challenge c: its leaves and label, its paths in tree R old and new and in tree D. Reads
 * only the preamble's variables, and every challenge allocates the same numbers (its bits
 * are all allocated), so challenges can be recorded on separate systems (cuzk_snap_record). */
static void snap_challenge(cuzk_cs *cs, const snap_pre *x, uint32_t c)
{
    const cuzk_snap_info *in = &x->p->info;
    const pos_params *gen = snap_pos_gen();
    const cuzk_snap_partition_proof *pp = x->p->proof;
    const cuzk_snap_challenge_proof *cp = pp ? &pp->challenges[c] : NULL;
    uint32_t rand_bits = x->rand_bits, cb = x->cb, pb = x->pb;
    gad_num path[MAX_R_SIBLINGS];
    gad_bool c_bits[MAX_BITS];
    memcpy(c_bits, x->gen_bits + (size_t)c * rand_bits, rand_bits * sizeof *c_bits);
    memcpy(c_bits + rand_bits, x->part_bits, pb * sizeof *c_bits);
    gad_num high = snap_challenge_high(cs, c_bits, cb, x->hsel_bits, in->hs);
    gad_num rp[2] = {x->phi, high};
    gad_num rho = gad_poseidon_hash(cs, gen, rp);
    gad_num leaf_r_old = alloc_bytes(cs, cp ? cp->r_old.leaf : NULL);
    gad_num leaf_d_new = alloc_bytes(cs, cp ? cp->d_new.leaf : NULL);
    gad_num leaf_r_new = snap_label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
    uint32_t rl = gad_merkle_levels(&x->rs);
    alloc_path(cs, cp ? &cp->r_old : NULL, &x->rs, 0, rl, path);
    gad_por_bits(cs, &x->rs, c_bits, &leaf_r_old, path, &x->root_r_old);
    alloc_path(cs, cp ? &cp->r_new : NULL, &x->rs, 0, rl, path);
    gad_por_bits(cs, &x->rs, c_bits, &leaf_r_new, path, &x->root_r_new);
    if (x->pos) {
        alloc_path(cs, cp ? &cp->d_new : NULL, &x->rs, 0, rl, path);
        gad_por_bits(cs, &x->rs, c_bits, &leaf_d_new, path, &x->comm_d_new);
        return;
    }
    uint32_t to_apex = x->ds.base_levels;
    gad_num apex_leaf = snap_select(cs, x->apex, c_bits + to_apex, in->apex_bits);
    alloc_path(cs, cp ? &cp->d_new : NULL, NULL, 0, to_apex, path);
    gad_por_bits(cs, &x->ds, c_bits, &leaf_d_new, path, &apex_leaf);
}

cuzk_status cuzk_snap_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    snap_pre *x = malloc(sizeof *x);
    if (!x)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    cuzk_status st = snap_preamble(cs, vctx, x, err);
    for (uint32_t c = 0; st == CUZK_OK && c < x->p->info.challenges && cs->status == CUZK_OK;
         c++)
        snap_challenge(cs, x, c);
    free(x->gen_bits);
    free(x);
    return st;
}

/* ---- the parallel recording --------------------------------------------------------------- */

typedef struct snap_rec {
    const snap_pre *x;
    cuzk_cs *cs;       /* per challenge */
    uint64_t pub0, aux0, pub, aux; /* after the preamble; one challenge's counts */
} snap_rec;

static void snap_record_job(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    snap_rec *j = ctx;
    for (size_t c = begin; c < end; c++) {
        cs_init_at(&j->cs[c], j->pub0 + c * j->pub, j->aux0 + c * j->aux);
        snap_challenge(&j->cs[c], j->x, (uint32_t)c);
    }
}

cuzk_status cuzk_snap_record(const cuzk_snap_partition *p, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err)
{
    if (!r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals record: r1cs is NULL");
    *r1cs = NULL;
    cuzk_cs *main_cs = malloc(sizeof *main_cs), *cnt = malloc(sizeof *cnt);
    snap_pre *x = malloc(sizeof *x);
    snap_rec j = {.x = x};
    cuzk_cs **pieces = NULL;
    uint32_t n = 0;
    cuzk_status st = CUZK_OK;
    if (!main_cs || !cnt || !x) {
        free(main_cs);
        free(cnt);
        free(x);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals record: out of memory");
    }
    cs_init(main_cs, CS_RECORD, false);
    cs_init(cnt, CS_COUNT, false);
    if ((st = snap_preamble(main_cs, p, x, err)) != CUZK_OK)
        goto out;
    if (main_cs->status != CUZK_OK) {
        if (err)
            *err = main_cs->err;
        st = main_cs->status;
        goto out;
    }
    n = p->info.challenges;
    /* challenge 0's counts number every challenge (snap_challenge) */
    if (n)
        snap_challenge(cnt, x, 0);
    if (cnt->status != CUZK_OK) {
        if (err)
            *err = cnt->err;
        st = cnt->status;
        goto out;
    }
    j.pub0 = main_cs->n_public;
    j.aux0 = main_cs->n_aux;
    j.pub = cnt->n_public;
    j.aux = cnt->n_aux;
    j.cs = calloc((size_t)n + 1, sizeof(cuzk_cs));
    pieces = malloc(((size_t)n + 1) * sizeof *pieces);
    if (!j.cs || !pieces) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "SnapDeals record: out of memory");
        goto out;
    }
    if ((st = cuzk_pool_for_stoppable(pool, n, snap_record_job, &j, 1)) != CUZK_OK) {
        cuzk_error_set(err, st, st == CUZK_ERR_CANCELLED
                                    ? "SnapDeals record: cancelled"
                                    : "SnapDeals record: the worker pool failed");
        goto out;
    }
    pieces[0] = main_cs;
    for (uint32_t c = 0; c < n; c++)
        pieces[c + 1] = &j.cs[c];
    st = cs_record_concat(pieces, (size_t)n + 1, pool, r1cs, map, err);
out:
    if (j.cs)
        for (uint32_t c = 0; c < n; c++)
            cs_release(&j.cs[c]);
    cs_release(main_cs);
    cs_release(cnt);
    free(main_cs);
    free(cnt);
    free(x->gen_bits);
    free(x);
    free(j.cs);
    free(pieces);
    return st;
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
