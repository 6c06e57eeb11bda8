/*
 * key_random.c — cuzk_groth16_pk_random: a proving key of the right shape for a circuit
 * whose points are random group elements, not the output of any setup. Proofs made with it
 * do not verify; it exists so benchmarks can run the prover at PoRep scale (2^27, ~44 GiB
 * of points) without a trusted setup, which would take hours on a CPU.
 *
 * Points: with two tables T1[j] = R + j*Q1 (2^16 entries) and T2[j] = j*Q2 (enough for
 * the longest vector), vector element i is T1[i mod 2^16] + T2[i / 2^16] (+ a per-vector
 * offset), one addition per point and a batched conversion to affine per chunk. Distinct
 * indices give distinct points unless a discrete logarithm relation between the random R,
 * Q1, Q2 happens to be small, so bucket accumulation in an MSM sees no more doublings than
 * with real keys.
 * Threading: parallel over chunks on the given pool.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "groth16/groth16_internal.h"

#define T1_LOG 16u
#define T1_LEN (1u << T1_LOG)
#define CHUNK 1024u

typedef struct tables {
    cuzk_g1_affine *g1_t1, *g1_t2;
    cuzk_g2_affine *g2_t1, *g2_t2;
    size_t t2_len;
} tables;

typedef struct fill_ctx {
    const tables *t;
    cuzk_g1_affine *g1;
    cuzk_g2_affine *g2;
    size_t n, offset; /* offset shifts the table index so vectors differ */
} fill_ctx;

static void fill_g1(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    fill_ctx *x = vctx;
    cuzk_g1_jac jac[CHUNK];
    cuzk_fp scratch[CHUNK];
    for (size_t c = begin; c < end; c++) {
        size_t i0 = c * CHUNK, m = x->n - i0 < CHUNK ? x->n - i0 : CHUNK;
        for (size_t k = 0; k < m; k++) {
            size_t i = i0 + k + x->offset;
            cuzk_g1_jac_from_affine(&jac[k], &x->t->g1_t1[i & (T1_LEN - 1)]);
            cuzk_g1_jac_add_affine(&jac[k], &jac[k], &x->t->g1_t2[i >> T1_LOG]);
        }
        cuzk_g1s_jac_to_affine(x->g1 + i0, jac, m, scratch);
    }
}

static void fill_g2(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    fill_ctx *x = vctx;
    cuzk_g2_jac jac[CHUNK / 4];
    cuzk_fp2 scratch[CHUNK / 4];
    for (size_t c = begin; c < end; c++) {
        size_t i0 = c * (CHUNK / 4), m = x->n - i0 < CHUNK / 4 ? x->n - i0 : CHUNK / 4;
        for (size_t k = 0; k < m; k++) {
            size_t i = i0 + k + x->offset;
            cuzk_g2_jac_from_affine(&jac[k], &x->t->g2_t1[i & (T1_LEN - 1)]);
            cuzk_g2_jac_add_affine(&jac[k], &jac[k], &x->t->g2_t2[i >> T1_LOG]);
        }
        cuzk_g2s_jac_to_affine(x->g2 + i0, jac, m, scratch);
    }
}

/* dst[j] = start + j*step for j < len, sequentially (additions are cheap). */
static void g1_progression(cuzk_g1_affine *dst, const cuzk_g1_jac *start, const cuzk_g1_jac *step,
                           size_t len)
{
    cuzk_g1_jac acc = *start;
    for (size_t j = 0; j < len; j++) {
        cuzk_g1_jac_to_affine(&dst[j], &acc);
        cuzk_g1_jac_add(&acc, &acc, step);
    }
}

static void g2_progression(cuzk_g2_affine *dst, const cuzk_g2_jac *start, const cuzk_g2_jac *step,
                           size_t len)
{
    cuzk_g2_jac acc = *start;
    for (size_t j = 0; j < len; j++) {
        cuzk_g2_jac_to_affine(&dst[j], &acc);
        cuzk_g2_jac_add(&acc, &acc, step);
    }
}

/* A uniformly random-looking scalar from a splitmix stream (not secret: nothing is). */
static void seeded_fr(cuzk_fr *r, uint64_t *s)
{
    uint8_t wide[64];
    for (int i = 0; i < 8; i++) {
        uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        memcpy(wide + 8 * i, &z, 8);
    }
    cuzk_fr_from_bytes_wide_le(r, wide);
}

static void tables_free(tables *t)
{
    free(t->g1_t1);
    free(t->g1_t2);
    free(t->g2_t1);
    free(t->g2_t2);
    memset(t, 0, sizeof *t);
}

/* Tables for vectors of up to `longest` points (plus the per-vector offsets). */
static cuzk_status tables_make(tables *t, size_t longest, uint64_t seed, cuzk_error *err)
{
    memset(t, 0, sizeof *t);
    t->t2_len = ((longest + 4 * T1_LEN) >> T1_LOG) + 1;
    t->g1_t1 = malloc(T1_LEN * sizeof *t->g1_t1);
    t->g1_t2 = malloc(t->t2_len * sizeof *t->g1_t2);
    t->g2_t1 = malloc(T1_LEN * sizeof *t->g2_t1);
    t->g2_t2 = malloc(t->t2_len * sizeof *t->g2_t2);
    if (!t->g1_t1 || !t->g1_t2 || !t->g2_t1 || !t->g2_t2) {
        tables_free(t);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "random points: out of memory");
    }
    uint64_t s = seed;
    cuzk_fr k[3];
    for (int i = 0; i < 3; i++)
        seeded_fr(&k[i], &s);
    cuzk_g1_jac g1, p1[3], zero1;
    cuzk_g2_jac g2, p2[3], zero2;
    cuzk_g1_jac_from_affine(&g1, &CUZK_G1_GENERATOR);
    cuzk_g2_jac_from_affine(&g2, &CUZK_G2_GENERATOR);
    for (int i = 0; i < 3; i++) {
        cuzk_g1_jac_mul(&p1[i], &g1, &k[i]);
        cuzk_g2_jac_mul(&p2[i], &g2, &k[i]);
    }
    memset(&zero1, 0, sizeof zero1);
    memset(&zero2, 0, sizeof zero2);
    /* T1 = R + j Q1 never hits infinity for j < 2^16 (R is not a small multiple of Q1
     * except with negligible probability); T2 starts at infinity (j = 0). */
    g1_progression(t->g1_t1, &p1[0], &p1[1], T1_LEN);
    g1_progression(t->g1_t2, &zero1, &p1[2], t->t2_len);
    g2_progression(t->g2_t1, &p2[0], &p2[1], T1_LEN);
    g2_progression(t->g2_t2, &zero2, &p2[2], t->t2_len);
    return CUZK_OK;
}

static cuzk_status fill1(const tables *t, cuzk_g1_affine *p, size_t n, size_t offset,
                         cuzk_pool *pool)
{
    fill_ctx x = {.t = t, .g1 = p, .n = n, .offset = offset};
    return cuzk_pool_for(pool, (n + CHUNK - 1) / CHUNK, fill_g1, &x, 1);
}

static cuzk_status fill2(const tables *t, cuzk_g2_affine *p, size_t n, size_t offset,
                         cuzk_pool *pool)
{
    fill_ctx x = {.t = t, .g2 = p, .n = n, .offset = offset};
    return cuzk_pool_for(pool, (n + CHUNK / 4 - 1) / (CHUNK / 4), fill_g2, &x, 1);
}

cuzk_status cuzk_g1s_fill_random(cuzk_g1_affine *p, size_t n, uint64_t seed, cuzk_pool *pool,
                                 cuzk_error *err)
{
    if (n && !p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "random points: NULL array");
    tables t;
    cuzk_status st = tables_make(&t, n, seed, err);
    if (st == CUZK_OK)
        st = fill1(&t, p, n, 0, pool);
    tables_free(&t);
    return st;
}

cuzk_status cuzk_g2s_fill_random(cuzk_g2_affine *p, size_t n, uint64_t seed, cuzk_pool *pool,
                                 cuzk_error *err)
{
    if (n && !p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "random points: NULL array");
    tables t;
    cuzk_status st = tables_make(&t, n, seed, err);
    if (st == CUZK_OK)
        st = fill2(&t, p, n, 0, pool);
    tables_free(&t);
    return st;
}

cuzk_status cuzk_groth16_pk_random(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                   cuzk_groth16_flavour flavour, uint64_t seed,
                                   cuzk_pool *pool, cuzk_error *err)
{
    if (!pk || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "random key: NULL argument");
    memset(pk, 0, sizeof *pk);
    g16_shape sh;
    cuzk_status st = g16_shape_of(&sh, r1cs, flavour, true, err);
    if (st != CUZK_OK)
        return st;
    size_t longest = sh.n_h;
    if (sh.n_l > longest)
        longest = sh.n_l;
    if (sh.n_a > longest)
        longest = sh.n_a;
    if (sh.n_b > longest)
        longest = sh.n_b;
    tables t;
    if ((st = tables_make(&t, longest, seed, err)) != CUZK_OK)
        return st;
    if ((st = cuzk_groth16_pk_alloc(pk, sh.n_inputs, sh.n_h, sh.n_l, sh.n_a, sh.n_b, err)) !=
        CUZK_OK)
        goto done;
    pk->flavour = flavour;
    pk->log2n = sh.log2n;
    pk->append_input_rows = true;
    pk->benchmark_only = true;
    /* the verifying key: random too, but valid group elements */
    pk->vk.alpha_g1 = t.g1_t1[1];
    pk->vk.beta_g1 = t.g1_t1[2];
    pk->vk.delta_g1 = t.g1_t1[3];
    pk->vk.beta_g2 = t.g2_t1[1];
    pk->vk.gamma_g2 = t.g2_t1[2];
    pk->vk.delta_g2 = t.g2_t1[3];
    for (size_t i = 0; i < sh.n_inputs; i++)
        pk->vk.ic[i] = t.g1_t1[4 + i % (T1_LEN - 4)];
    {
        cuzk_g1_affine *vec[4] = {pk->h, pk->l, pk->a, pk->b_g1};
        size_t len[4] = {pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1};
        for (int v = 0; v < 4 && st == CUZK_OK; v++)
            st = fill1(&t, vec[v], len[v], (size_t)v * T1_LEN, pool);
        if (st == CUZK_OK)
            st = fill2(&t, pk->b_g2, pk->n_b_g2, 0, pool);
    }
    if (st != CUZK_OK)
        cuzk_groth16_pk_free(pk);
done:
    tables_free(&t);
    return st;
}
