/*
 * poseidon_native.c — Poseidon computed outside any circuit (see poseidon.h): the
 * textbook permutation (neptune's hash_correct) and neptune's static optimized schedule
 * (hash_optimized_static: compressed constants added after each S-box, pre-sparse matrix
 * after the fourth full round, one sparse matrix per partial round). The two must agree;
 * the second is the one whose intermediate states the circuit's witness holds.
 *
 * Threading: pure functions of read-only parameters.
 */
#include <string.h>

#include "circuits/poseidon.h"

static void sbox(cuzk_fr *x)
{
    cuzk_fr x2, x4;
    cuzk_fr_sqr(&x2, x);
    cuzk_fr_sqr(&x4, &x2);
    cuzk_fr_mul(x, x, &x4);
}

/* s <- s M as a row vector: s'[j] = sum_i M[i][j] s[i] (neptune's product_mds_with_matrix;
 * for the symmetric MDS this is also M s). */
static void vec_mat(cuzk_fr *s, const cuzk_fr *m, unsigned t)
{
    cuzk_fr r[POS_MAX_T], tmp;
    for (unsigned j = 0; j < t; j++) {
        r[j] = CUZK_FR_ZERO;
        for (unsigned i = 0; i < t; i++) {
            cuzk_fr_mul(&tmp, &m[i * t + j], &s[i]);
            cuzk_fr_add(&r[j], &r[j], &tmp);
        }
    }
    memcpy(s, r, t * sizeof *r);
}

static void init_state(cuzk_fr *s, const pos_params *p, const cuzk_fr *in)
{
    s[0] = p->tag;
    memcpy(s + 1, in, p->arity * sizeof *s);
}

void pos_hash_textbook(cuzk_fr *out, const pos_params *p, const cuzk_fr *in)
{
    unsigned t = p->t, h = p->rf / 2;
    cuzk_fr s[POS_MAX_T];
    init_state(s, p, in);
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        bool full = r < h || r >= h + p->rp;
        for (unsigned i = 0; i < t; i++)
            cuzk_fr_add(&s[i], &s[i], &p->rc[r * t + i]);
        for (unsigned i = 0; i < (full ? t : 1); i++)
            sbox(&s[i]);
        vec_mat(s, p->mds, t);
    }
    *out = s[1];
}

static void sparse(cuzk_fr *s, const pos_params *p, unsigned k)
{
    cuzk_fr r0 = CUZK_FR_ZERO, tmp;
    for (unsigned i = 0; i < p->t; i++) {
        cuzk_fr_mul(&tmp, &p->w_hat[k][i], &s[i]);
        cuzk_fr_add(&r0, &r0, &tmp);
    }
    for (unsigned j = 1; j < p->t; j++) {
        cuzk_fr_mul(&tmp, &p->v_rest[k][j - 1], &s[0]);
        cuzk_fr_add(&s[j], &s[j], &tmp);
    }
    s[0] = r0;
}

/* The linear layer after round r of the static schedule. */
static void mix(cuzk_fr *s, const pos_params *p, unsigned r)
{
    unsigned h = p->rf / 2;
    if (r == h - 1)
        vec_mat(s, p->pre_sparse, p->t);
    else if (r >= h && r < h + p->rp)
        sparse(s, p, r - h);
    else
        vec_mat(s, p->mds, p->t);
}

void pos_hash_optimized(cuzk_fr *out, const pos_params *p, const cuzk_fr *in)
{
    unsigned t = p->t, h = p->rf / 2, off = 0, r = 0;
    cuzk_fr s[POS_MAX_T];
    init_state(s, p, in);
    for (unsigned i = 0; i < t; i++)
        cuzk_fr_add(&s[i], &s[i], &p->crc[off + i]);
    off += t;
    for (; r < h; r++) { /* full rounds, constants after the S-box */
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            cuzk_fr_add(&s[i], &s[i], &p->crc[off + i]);
        }
        off += t;
        mix(s, p, r);
    }
    for (; r < h + p->rp; r++) {
        sbox(&s[0]);
        cuzk_fr_add(&s[0], &s[0], &p->crc[off++]);
        mix(s, p, r);
    }
    for (; r < p->rf + p->rp; r++) {
        bool last = r == p->rf + p->rp - 1;
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            if (!last)
                cuzk_fr_add(&s[i], &s[i], &p->crc[off + i]);
        }
        if (!last)
            off += t;
        mix(s, p, r);
    }
    *out = s[1];
}

cuzk_status cuzk_poseidon_hash(cuzk_fr *out, const cuzk_fr *in, unsigned arity,
                               cuzk_error *err)
{
    if (!out || !in)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "poseidon: NULL argument");
    const pos_params *p = pos_params_get(arity);
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "poseidon: arity %u unsupported",
                              arity);
    pos_hash_optimized(out, p, in);
    return CUZK_OK;
}
