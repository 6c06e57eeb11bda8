/*
 * poseidon_params.c — derives neptune's Poseidon parameters (see poseidon.h): round
 * numbers (round_numbers.rs), Grain LFSR round constants (round_constants.rs), the Cauchy
 * MDS matrix and its inverse (mds.rs), the compressed round constants
 * (preprocessing.rs) and the pre-sparse / sparse matrices (mds.rs
 * factor_to_sparse_matrices). Nothing is pasted: every table is computed here.
 *
 * Threading: each arity's tables are derived once under pthread_once into static storage;
 * read-only afterwards.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "circuits/poseidon.h"

/* ---- round numbers: port of neptune's calc_round_numbers, same f32 arithmetic ---- */

static bool secure(unsigned t, unsigned rf, unsigned rp)
{
    const float n = 256.0f, m = 128.0f; /* prime bit length neptune assumes, security */
    float ft = (float)t, frp = (float)rp;
    float r[4] = {m <= (n - 3.0f) * (ft + 1.0f) ? 6.0f : 10.0f,
                  0.43f * m + log2f(ft) - frp,
                  0.21f * n - frp,
                  (0.14f * n - 1.0f - frp) / (ft - 1.0f)};
    unsigned need = 0;
    for (int i = 0; i < 4; i++) {
        float c = ceilf(r[i]);
        unsigned u = c > 0 ? (unsigned)c : 0; /* Rust's saturating float -> usize */
        need = u > need ? u : need;
    }
    return rf >= need;
}

void pos_round_numbers(unsigned t, unsigned *rf_out, unsigned *rp_out)
{
    unsigned rf = 0, rp = 0;
    uint64_t best = UINT64_MAX;
    for (unsigned rf0 = 2; rf0 <= 1000; rf0 += 2) {
        unsigned rf_test = rf0; /* neptune bumps its loop variable in place: it stays bumped */
        for (unsigned rp0 = 4; rp0 < 200; rp0++) {
            if (!secure(t, rf_test, rp0))
                continue;
            rf_test += 2;
            unsigned rp_test = (unsigned)ceilf(1.075f * (float)rp0);
            uint64_t cost = (uint64_t)t * rf_test + rp_test;
            if (cost < best || (cost == best && rf_test < rf)) {
                rf = rf_test;
                rp = rp_test;
                best = cost;
            }
        }
    }
    *rf_out = rf;
    *rp_out = rp;
}

/* ---- Grain LFSR ---- */

typedef struct grain {
    uint8_t s[80];
} grain;

static bool grain_clock(grain *g)
{
    bool b = g->s[62] ^ g->s[51] ^ g->s[38] ^ g->s[23] ^ g->s[13] ^ g->s[0];
    memmove(g->s, g->s + 1, 79);
    g->s[79] = b;
    return b;
}

/* Self-shrinking: clock pairs until the first bit of a pair is 1, output the second. */
static bool grain_bit(grain *g)
{
    while (!grain_clock(g))
        grain_clock(g);
    return grain_clock(g);
}

static void put_bits(grain *g, unsigned *at, unsigned n, unsigned v)
{
    for (unsigned i = n; i-- > 0;)
        g->s[(*at)++] = (v >> i) & 1;
}

void pos_grain_constants(cuzk_fr *out, unsigned n, unsigned t, unsigned rf, unsigned rp)
{
    grain g;
    unsigned at = 0;
    put_bits(&g, &at, 2, 1);    /* field: GF(p) */
    put_bits(&g, &at, 4, 1);    /* s-box: neptune's 1 (x^5) */
    put_bits(&g, &at, 12, 255); /* field size in bits */
    put_bits(&g, &at, 12, t);
    put_bits(&g, &at, 10, rf);
    put_bits(&g, &at, 10, rp);
    put_bits(&g, &at, 30, 0x3fffffffu);
    for (int i = 0; i < 160; i++)
        grain_clock(&g);
    for (unsigned k = 0; k < n; k++) {
        for (;;) { /* 255 bits, MSB first: 7 in the first byte, then 31 full bytes */
            uint8_t be[32] = {0};
            for (unsigned i = 0; i < 255; i++)
                if (grain_bit(&g))
                    be[(i + 1) / 8] |= (uint8_t)(1u << (7 - (i + 1) % 8));
            if (cuzk_fr_from_bytes_be(&out[k], be) == CUZK_OK)
                break;
        }
    }
}

/* ---- small dense matrices, row-major, n x n ---- */

static bool mat_inv(cuzk_fr *out, const cuzk_fr *m, unsigned n)
{
    cuzk_fr a[POS_MAX_T * POS_MAX_T];
    memcpy(a, m, (size_t)n * n * sizeof *a);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            out[i * n + j] = i == j ? CUZK_FR_ONE : CUZK_FR_ZERO;
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && cuzk_fr_is_zero(&a[p * n + c]))
            p++;
        if (p == n)
            return false;
        for (unsigned j = 0; j < n; j++) {
            cuzk_fr x = a[c * n + j], y = out[c * n + j];
            a[c * n + j] = a[p * n + j], out[c * n + j] = out[p * n + j];
            a[p * n + j] = x, out[p * n + j] = y;
        }
        cuzk_fr inv;
        cuzk_fr_inv(&inv, &a[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            cuzk_fr_mul(&a[c * n + j], &a[c * n + j], &inv);
            cuzk_fr_mul(&out[c * n + j], &out[c * n + j], &inv);
        }
        for (unsigned r = 0; r < n; r++) {
            if (r == c || cuzk_fr_is_zero(&a[r * n + c]))
                continue;
            cuzk_fr f = a[r * n + c], tmp;
            for (unsigned j = 0; j < n; j++) {
                cuzk_fr_mul(&tmp, &f, &a[c * n + j]);
                cuzk_fr_sub(&a[r * n + j], &a[r * n + j], &tmp);
                cuzk_fr_mul(&tmp, &f, &out[c * n + j]);
                cuzk_fr_sub(&out[r * n + j], &out[r * n + j], &tmp);
            }
        }
    }
    return true;
}

static void mat_mul(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b, unsigned n)
{
    cuzk_fr r[POS_MAX_T * POS_MAX_T], tmp;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            r[i * n + j] = CUZK_FR_ZERO;
            for (unsigned k = 0; k < n; k++) {
                cuzk_fr_mul(&tmp, &a[i * n + k], &b[k * n + j]);
                cuzk_fr_add(&r[i * n + j], &r[i * n + j], &tmp);
            }
        }
    memcpy(out, r, (size_t)n * n * sizeof *r);
}

/* out = m v (v a column vector); out may alias v. */
static void mat_apply(cuzk_fr *out, const cuzk_fr *m, const cuzk_fr *v, unsigned n)
{
    cuzk_fr r[POS_MAX_T], tmp;
    for (unsigned i = 0; i < n; i++) {
        r[i] = CUZK_FR_ZERO;
        for (unsigned j = 0; j < n; j++) {
            cuzk_fr_mul(&tmp, &m[i * n + j], &v[j]);
            cuzk_fr_add(&r[i], &r[i], &tmp);
        }
    }
    memcpy(out, r, (size_t)n * sizeof *r);
}

/* ---- the optimized schedule's tables ---- */

/* preprocessing.rs compress_round_constants with every partial round preprocessed. */
static void compress_constants(pos_params *p)
{
    unsigned t = p->t, h = p->rf / 2, rp = p->rp, at = 0;
    const cuzk_fr *rk = p->rc;
    cuzk_fr acc[POS_MAX_T], inv[POS_MAX_T], partial[POS_MAX_RP];
    memcpy(p->crc, rk, t * sizeof *acc);
    at = t;
    for (unsigned i = 0; i + 1 < h; i++, at += t)
        mat_apply(p->crc + at, p->mds_inv, rk + (i + 1) * t, t);
    memcpy(acc, rk + (h + rp) * t, t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        mat_apply(inv, p->mds_inv, acc, t);
        partial[i] = inv[0];
        inv[0] = CUZK_FR_ZERO;
        const cuzk_fr *prev = rk + (h + rp - i - 1) * t;
        for (unsigned j = 0; j < t; j++)
            cuzk_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    mat_apply(p->crc + at, p->mds_inv, acc, t);
    at += t;
    for (unsigned i = rp; i-- > 0;)
        p->crc[at++] = partial[i];
    for (unsigned i = 1; i < h; i++, at += t)
        mat_apply(p->crc + at, p->mds_inv, rk + (i + h + rp) * t, t);
}

/* mds.rs factor_to_sparse_matrices(transpose(M), RP): M = M' M'' repeatedly, the M''s
 * (first row and column dense, identity inside) in reverse order of derivation. */
static bool factor_sparse(pos_params *p)
{
    unsigned t = p->t, n1 = t - 1;
    cuzk_fr base[POS_MAX_T * POS_MAX_T], cur[POS_MAX_T * POS_MAX_T];
    cuzk_fr hat[POS_MAX_T * POS_MAX_T], hat_inv[POS_MAX_T * POS_MAX_T];
    cuzk_fr prime[POS_MAX_T * POS_MAX_T], w[POS_MAX_T];
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            base[i * t + j] = p->mds[j * t + i];
    memcpy(cur, base, sizeof cur);
    for (unsigned k = 0; k < p->rp; k++) {
        for (unsigned i = 0; i < n1; i++)
            for (unsigned j = 0; j < n1; j++)
                hat[i * n1 + j] = cur[(i + 1) * t + j + 1];
        if (!mat_inv(hat_inv, hat, n1))
            return false;
        for (unsigned i = 0; i < n1; i++)
            w[i] = cur[(i + 1) * t];
        unsigned s = p->rp - 1 - k; /* stored reversed */
        p->w_hat[s][0] = cur[0];
        mat_apply(&p->w_hat[s][1], hat_inv, w, n1);
        for (unsigned j = 1; j < t; j++)
            p->v_rest[s][j - 1] = cur[j];
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++)
                prime[i * t + j] = i == 0 || j == 0 ? (i == j ? CUZK_FR_ONE : CUZK_FR_ZERO)
                                                    : cur[i * t + j];
        mat_mul(cur, base, prime, t);
    }
    memcpy(p->pre_sparse, cur, (size_t)t * t * sizeof *cur);
    return true;
}

static bool derive(pos_params *p, unsigned arity)
{
    memset(p, 0, sizeof *p);
    p->arity = arity;
    p->t = arity + 1;
    pos_round_numbers(p->t, &p->rf, &p->rp);
    if (p->rf != POS_RF || p->rp > POS_MAX_RP)
        return false;
    cuzk_fr_from_u64(&p->tag, ((uint64_t)1 << arity) - 1);
    pos_grain_constants(p->rc, (p->rf + p->rp) * p->t, p->t, p->rf, p->rp);
    for (unsigned i = 0; i < p->t; i++)
        for (unsigned j = 0; j < p->t; j++) {
            cuzk_fr x;
            cuzk_fr_from_u64(&x, i + p->t + j);
            cuzk_fr_inv(&p->mds[i * p->t + j], &x);
        }
    if (!mat_inv(p->mds_inv, p->mds, p->t))
        return false;
    compress_constants(p);
    return factor_sparse(p);
}

static const unsigned arities[4] = {2, 4, 8, 11};
static pos_params params[4];
static bool params_ok[4];
static pthread_once_t once[4] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                 PTHREAD_ONCE_INIT};

static void init0(void) { params_ok[0] = derive(&params[0], arities[0]); }
static void init1(void) { params_ok[1] = derive(&params[1], arities[1]); }
static void init2(void) { params_ok[2] = derive(&params[2], arities[2]); }
static void init3(void) { params_ok[3] = derive(&params[3], arities[3]); }
static void (*const inits[4])(void) = {init0, init1, init2, init3};

const pos_params *pos_params_get(unsigned arity)
{
    for (int i = 0; i < 4; i++) {
        if (arities[i] != arity)
            continue;
        pthread_once(&once[i], inits[i]);
        return params_ok[i] ? &params[i] : NULL;
    }
    return NULL;
}

bool cuzk_poseidon_arity_supported(unsigned arity) { return pos_params_get(arity) != NULL; }
