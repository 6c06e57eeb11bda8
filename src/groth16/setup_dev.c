/*
 * setup_dev.c — a development-only Groth16 setup: fresh toxic waste (tau, alpha, beta,
 * gamma, delta) in this process, the key vectors computed from it, the waste wiped.
 * NOT a trusted setup: whoever ran it could forge proofs. For tests and demos.
 *
 * Recipe (both flavours share the first steps):
 *   1. Lagrange basis of the n-point domain at tau:
 *        L_j(tau) = (tau^n - 1)/n * omega^j / (tau - omega^j)          (one batch inverse)
 *   2. u_v = A_v(tau), v_v = B_v(tau), w_v = C_v(tau) for every variable by walking the CSR
 *      (row j contributes coeff * L_j(tau)); the input rows add L_{m+i}(tau) to u_i.
 *   3. ic_i = (beta u_i + alpha v_i + w_i)/gamma (inputs), l_j = (...)/delta (aux),
 *      a_v = u_v G1, b_v = v_v G1 / G2 (BELLPERSON: only variables in the A/B density,
 *      every input in A; SNARKJS: every variable, infinity where zero),
 *      h: BELLPERSON tau^i (tau^n - 1)/delta, i < n-1;
 *         SNARKJS   L^{2n}_{2j+1}(tau)/delta = (tau^{2n} - 1)/(2n) * x_j/(tau - x_j)/delta
 *                   with x_j = g omega^j the odd 2n-th roots (g = the snarkjs domain shift).
 *   4. Fixed-base multiplications of the G1/G2 generators: cuzk_g{1,2}s_fixed_mul_var
 *      (ec layer) with 13-bit signed windows (20 table additions per point, no doublings)
 *      and affine accumulators sharing one inversion per 512 points. They are
 *      variable-time in the secret scalars, which a dev setup can afford: its runner
 *      could forge proofs anyway. This step is ~95% of the time (2 KiB PoRep, 2^22:
 *      ~10.2 M G1 + 0.7 M G2 points); docs/perf.md has the profile.
 * The domain is the one the prover uses (cuzk_domain_init_* of the flavour), so the roots
 * (7- or 5-based) agree by construction.
 *
 * Threading: the point multiplications are spread over pool in chunks (per-worker scratch
 * indexed by the pool's worker id); everything else runs on the caller. Allocates the keys
 * and its own temporaries (this is key generation, not proving): the generator tables
 * (7.5 + 15 MiB), one ec scratch per pool thread, and the scalar vectors.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/poly.h"
#include "groth16/groth16_internal.h"

/* ---- toxic waste ------------------------------------------------------------------- */

/* Deterministic expansion of a test seed: splitmix64 over the seed words. Not a
 * cryptographic PRF — a seeded setup is for reproducible tests only. */
static void seeded_bytes(uint8_t out[64], const uint8_t seed[32], uint64_t label)
{
    uint64_t s = label * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 32; i++)
        s = (s ^ seed[i]) * 0xbf58476d1ce4e5b9ull + (uint64_t)i;
    for (int i = 0; i < 8; i++) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        memcpy(out + 8 * i, &z, 8);
    }
}

static cuzk_status draw(cuzk_fr *x, const uint8_t *seed, uint64_t label, cuzk_error *err)
{
    uint8_t wide[64];
    cuzk_status st = CUZK_OK;
    do {
        if (seed)
            seeded_bytes(wide, seed, label++ * 1000003u);
        else if ((st = g16_random_bytes(wide, sizeof wide, err)) != CUZK_OK)
            break;
        cuzk_fr_from_bytes_wide_le(x, wide);
    } while (cuzk_fr_is_zero(x));
    explicit_bzero(wide, sizeof wide);
    return st;
}

/* ---- fixed-base batches over the pool ------------------------------------------------ */

/* Window width of the generator tables: measured on the 2-core dev box (Release, 20k
 * random scalars, one thread), us per point G1 / G2: w = 8 6.7 / 18.1, w = 12 4.8 / 13.1,
 * w = 13 4.5 / 12.1, w = 14 7.1 / 16.7, w = 16 6.6 / 13.3 — past 13 the tables (7.5 / 15
 * MiB at 13) stop fitting the cache and every lookup misses. */
#define FB_W 13
#define FB_GRAIN 2048 /* points per pool chunk: four of the ec layer's 512-point batches */

typedef struct fb_job {
    const void *table;
    const cuzk_fr *scalars;
    void *out;
    uint8_t *scratch; /* per worker, scratch_size bytes each */
    size_t scratch_size;
} fb_job;

static void fb_g1(void *ctx, size_t begin, size_t end, unsigned wid)
{
    const fb_job *j = ctx;
    (void)cuzk_g1s_fixed_mul_var((cuzk_g1_affine *)j->out + begin, j->table, j->scalars + begin,
                                 end - begin, j->scratch + (size_t)wid * j->scratch_size,
                                 j->scratch_size);
}

static void fb_g2(void *ctx, size_t begin, size_t end, unsigned wid)
{
    const fb_job *j = ctx;
    (void)cuzk_g2s_fixed_mul_var((cuzk_g2_affine *)j->out + begin, j->table, j->scalars + begin,
                                 end - begin, j->scratch + (size_t)wid * j->scratch_size,
                                 j->scratch_size);
}

/* ---- the setup -------------------------------------------------------------------- */

typedef struct waste {
    cuzk_fr tau, alpha, beta, gamma, delta, gamma_inv, delta_inv;
} waste;

/* Everything secret that setup allocates, so one function can wipe and free it. */
typedef struct temps {
    cuzk_domain *dom;
    cuzk_fr *lag, *u, *v, *w, *sc; /* sc: scalars to multiply, size max vector */
    size_t n_lag, n_vars, n_sc;
    void *t1, *t2;
    size_t t1_size, t2_size;
    uint8_t *fb_scratch; /* per pool worker, fb_scratch_size bytes each */
    size_t fb_scratch_size, n_workers;
} temps;

static void temps_free(temps *T)
{
    if (T->lag) explicit_bzero(T->lag, T->n_lag * sizeof(cuzk_fr));
    if (T->u) explicit_bzero(T->u, 3 * T->n_vars * sizeof(cuzk_fr));
    if (T->sc) explicit_bzero(T->sc, T->n_sc * sizeof(cuzk_fr));
    free(T->dom);
    free(T->lag);
    free(T->u);
    free(T->sc);
    free(T->t1);
    free(T->t2);
    free(T->fb_scratch);
}

static cuzk_status fixed_g1s(cuzk_g1_affine *out, const cuzk_fr *sc, size_t n, temps *T,
                             cuzk_pool *pool)
{
    fb_job j = {T->t1, sc, out, T->fb_scratch, T->fb_scratch_size};
    return cuzk_pool_for(pool, n, fb_g1, &j, FB_GRAIN);
}

static cuzk_status fixed_g2s(cuzk_g2_affine *out, const cuzk_fr *sc, size_t n, temps *T,
                             cuzk_pool *pool)
{
    fb_job j = {T->t2, sc, out, T->fb_scratch, T->fb_scratch_size};
    return cuzk_pool_for(pool, n, fb_g2, &j, FB_GRAIN);
}

/* One point off the same tables (the verifying key's alpha, beta, gamma, delta). */
static void fixed_g1(cuzk_g1_affine *out, const cuzk_fr *k, temps *T)
{
    (void)cuzk_g1s_fixed_mul_var(out, T->t1, k, 1, T->fb_scratch, T->fb_scratch_size);
}

static void fixed_g2(cuzk_g2_affine *out, const cuzk_fr *k, temps *T)
{
    (void)cuzk_g2s_fixed_mul_var(out, T->t2, k, 1, T->fb_scratch, T->fb_scratch_size);
}

/* lag[j] = c * x_j / (tau - x_j) for x_j = g * omega^j, j < n (g = 1 for the plain
 * domain); c = (tau^N - 1)/N is the caller's. Fails if tau is one of the x_j. */
static cuzk_status lagrange_like(cuzk_fr *lag, cuzk_fr *scratch, size_t n, const cuzk_fr *g,
                                 const cuzk_fr *omega, const cuzk_fr *tau, const cuzk_fr *c,
                                 cuzk_error *err)
{
    cuzk_fr x = *g;
    for (size_t j = 0; j < n; j++) {
        cuzk_fr_sub(&lag[j], tau, &x);
        if (cuzk_fr_is_zero(&lag[j]))
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: tau hit the domain");
        cuzk_fr_mul(&x, &x, omega);
    }
    /* lag = 1/(tau - x_j), then multiply by c * x_j (x_j walked again) */
    cuzk_frs_inv_var(lag, n, scratch);
    x = *g;
    for (size_t j = 0; j < n; j++) {
        cuzk_fr t;
        cuzk_fr_mul(&t, c, &x);
        cuzk_fr_mul(&lag[j], &lag[j], &t);
        cuzk_fr_mul(&x, &x, omega);
    }
    return CUZK_OK;
}

static void pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e)
{
    cuzk_fr_pow(r, a, &e, 1);
}

/* Builds pk from the waste; T holds the temporaries (freed by the caller). */
static cuzk_status build(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs, cuzk_groth16_flavour fl,
                         const g16_shape *sh, const waste *W, temps *T, cuzk_pool *pool,
                         cuzk_error *err)
{
    size_t n = sh->n, m = r1cs->n_constraints, nv = r1cs->n_vars;
    uint32_t aux0 = 1 + r1cs->n_public;
    cuzk_status st;
    bool sj = fl == CUZK_GROTH16_SNARKJS;

    if (!(T->dom = malloc(sizeof *T->dom)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory");
    st = sj ? cuzk_domain_init_snarkjs(T->dom, sh->log2n)
            : cuzk_domain_init_bellperson(T->dom, sh->log2n);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "setup: cannot build the 2^%u domain", sh->log2n);

    T->n_lag = n;
    T->n_vars = nv;
    size_t mx = sh->n_h;
    if (sh->n_a > mx) mx = sh->n_a;
    if (sh->n_b > mx) mx = sh->n_b;
    if (sh->n_l > mx) mx = sh->n_l;
    if (sh->n_inputs > mx) mx = sh->n_inputs;
    if (n > mx) mx = n;
    T->n_sc = mx;
    T->lag = calloc(n, sizeof(cuzk_fr));
    T->u = calloc(3 * (size_t)nv, sizeof(cuzk_fr));
    T->sc = calloc(mx, sizeof(cuzk_fr));
    T->t1_size = cuzk_g1_fixed_wide_size(FB_W);
    T->t2_size = cuzk_g2_fixed_wide_size(FB_W);
    T->t1 = malloc(T->t1_size);
    T->t2 = malloc(T->t2_size);
    T->fb_scratch_size = cuzk_g1s_fixed_mul_var_scratch_size();
    if (cuzk_g2s_fixed_mul_var_scratch_size() > T->fb_scratch_size)
        T->fb_scratch_size = cuzk_g2s_fixed_mul_var_scratch_size();
    T->n_workers = cuzk_pool_nthreads(pool);
    T->fb_scratch = malloc(T->n_workers * T->fb_scratch_size);
    if (!T->lag || !T->u || !T->sc || !T->t1 || !T->t2 || !T->fb_scratch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory for temporaries");
    T->v = T->u + nv;
    T->w = T->v + nv;
    if ((st = cuzk_g1_fixed_wide_init(T->t1, FB_W, &CUZK_G1_GENERATOR)) != CUZK_OK ||
        (st = cuzk_g2_fixed_wide_init(T->t2, FB_W, &CUZK_G2_GENERATOR)) != CUZK_OK)
        return cuzk_error_set(err, st, "setup: fixed-base tables");

    /* 1. Lagrange basis at tau: c = (tau^n - 1)/n */
    cuzk_fr zt, c, one = CUZK_FR_ONE;
    pow_u64(&zt, &W->tau, n);
    cuzk_fr_sub(&zt, &zt, &one);
    cuzk_fr_mul(&c, &zt, &T->dom->n_inv);
    if ((st = lagrange_like(T->lag, T->sc, n, &one, &T->dom->omega, &W->tau, &c, err)) !=
        CUZK_OK)
        return st;

    /* 2. u, v, w */
    cuzk_fr *uvw[3] = {T->u, T->v, T->w};
    for (int mat = 0; mat < 3; mat++) {
        const cuzk_csr *M = &r1cs->m[mat];
        for (uint64_t j = 0; j < m; j++)
            for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                cuzk_fr t;
                /* the accessor: a mapped cache has no M->coeff; setup is not a hot
                 * loop (one multiply a term beside a scatter) */
                cuzk_fr_mul(&t, cuzk_r1cs_coeff(r1cs, (cuzk_r1cs_matrix)mat, k), &T->lag[j]);
                cuzk_fr_add(&uvw[mat][M->col[k]], &uvw[mat][M->col[k]], &t);
            }
    }
    for (size_t i = 0; i < sh->n_inputs; i++)
        cuzk_fr_add(&T->u[i], &T->u[i], &T->lag[m + i]);

    /* 3a. ic and l: (beta u + alpha v + w) / gamma or delta */
    for (uint32_t var = 0; var < nv; var++) {
        cuzk_fr t, q;
        cuzk_fr_mul(&t, &W->beta, &T->u[var]);
        cuzk_fr_mul(&q, &W->alpha, &T->v[var]);
        cuzk_fr_add(&t, &t, &q);
        cuzk_fr_add(&t, &t, &T->w[var]);
        if (var < aux0) {
            cuzk_fr_mul(&T->sc[var], &t, &W->gamma_inv);
        } else {
            cuzk_fr_mul(&T->sc[var - aux0], &t, &W->delta_inv);
            if (!sj && cuzk_fr_is_zero(&T->sc[var - aux0]))
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "setup: aux variable %u (variable %u) is unconstrained; "
                                      "bellperson keys cannot hold an identity l point",
                                      var - aux0, var);
        }
        if (var + 1 == aux0 &&
            (st = fixed_g1s(pk->vk.ic, T->sc, sh->n_inputs, T, pool)) != CUZK_OK)
            return st;
    }
    if ((st = fixed_g1s(pk->l, T->sc, sh->n_l, T, pool)) != CUZK_OK)
        return st;

    /* 3b. a and b, filtered for BELLPERSON */
    size_t k = 0;
    for (uint32_t var = 0; var < nv; var++)
        if (sj || var < aux0 || cuzk_r1cs_density_test(r1cs, CUZK_R1CS_A, var))
            T->sc[k++] = T->u[var];
    if (k != pk->n_a)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: a count");
    if ((st = fixed_g1s(pk->a, T->sc, k, T, pool)) != CUZK_OK)
        return st;
    k = 0;
    for (uint32_t var = 0; var < nv; var++)
        if (sj || cuzk_r1cs_density_test(r1cs, CUZK_R1CS_B, var))
            T->sc[k++] = T->v[var];
    if (k != pk->n_b_g1)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: b count");
    if ((st = fixed_g1s(pk->b_g1, T->sc, k, T, pool)) != CUZK_OK ||
        (st = fixed_g2s(pk->b_g2, T->sc, k, T, pool)) != CUZK_OK)
        return st;

    /* 3c. h */
    if (!sj) {
        cuzk_fr x;
        cuzk_fr_mul(&x, &zt, &W->delta_inv); /* t(tau)/delta, times tau^i */
        for (size_t i = 0; i < sh->n_h; i++) {
            T->sc[i] = x;
            cuzk_fr_mul(&x, &x, &W->tau);
        }
    } else {
        cuzk_fr c2, two_n_inv, two;
        pow_u64(&c2, &W->tau, 2 * (uint64_t)n);
        cuzk_fr_sub(&c2, &c2, &one);
        cuzk_fr_from_u64(&two, 2);
        cuzk_fr_inv(&two_n_inv, &two);
        cuzk_fr_mul(&two_n_inv, &two_n_inv, &T->dom->n_inv); /* 1/(2n) */
        cuzk_fr_mul(&c2, &c2, &two_n_inv);
        cuzk_fr_mul(&c2, &c2, &W->delta_inv);
        /* lag is free now: reuse it as the inversion scratch */
        if ((st = lagrange_like(T->sc, T->lag, n, &T->dom->shift, &T->dom->omega, &W->tau, &c2,
                                err)) != CUZK_OK)
            return st;
    }
    if ((st = fixed_g1s(pk->h, T->sc, sh->n_h, T, pool)) != CUZK_OK)
        return st;

    /* 3d. the verifying key's fixed points */
    fixed_g1(&pk->vk.alpha_g1, &W->alpha, T);
    fixed_g1(&pk->vk.beta_g1, &W->beta, T);
    fixed_g1(&pk->vk.delta_g1, &W->delta, T);
    fixed_g2(&pk->vk.beta_g2, &W->beta, T);
    fixed_g2(&pk->vk.gamma_g2, &W->gamma, T);
    fixed_g2(&pk->vk.delta_g2, &W->delta, T);
    explicit_bzero(&zt, sizeof zt);
    explicit_bzero(&c, sizeof c);
    return CUZK_OK;
}

void g16_setup_dev_waste(cuzk_fr out[5], const uint8_t seed[32])
{
    for (int i = 0; i < 5; i++)
        (void)draw(&out[i], seed, (uint64_t)i + 1, NULL); /* seeded: cannot fail */
}

cuzk_status cuzk_groth16_setup_dev(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                   const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                   const uint8_t seed[32], cuzk_pool *pool, cuzk_error *err)
{
    if (!pk || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "setup: NULL argument");
    g16_shape sh;
    cuzk_status st = g16_shape_of(&sh, r1cs, flavour, true, err);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_pk out;
    memset(&out, 0, sizeof out);
    if ((st = cuzk_groth16_pk_alloc(&out, sh.n_inputs, sh.n_h, sh.n_l, sh.n_a, sh.n_b, err)) !=
        CUZK_OK)
        return st;
    out.flavour = flavour;
    out.log2n = sh.log2n;
    out.append_input_rows = true;

    waste W;
    temps T;
    memset(&T, 0, sizeof T);
    if ((st = draw(&W.tau, seed, 1, err)) == CUZK_OK &&
        (st = draw(&W.alpha, seed, 2, err)) == CUZK_OK &&
        (st = draw(&W.beta, seed, 3, err)) == CUZK_OK &&
        (st = draw(&W.gamma, seed, 4, err)) == CUZK_OK &&
        (st = draw(&W.delta, seed, 5, err)) == CUZK_OK) {
        cuzk_fr_inv(&W.gamma_inv, &W.gamma);
        cuzk_fr_inv(&W.delta_inv, &W.delta);
        st = build(&out, r1cs, flavour, &sh, &W, &T, pool, err);
    }
    explicit_bzero(&W, sizeof W);
    temps_free(&T);
    if (st == CUZK_OK && vk)
        st = cuzk_groth16_vk_copy(vk, &out.vk, err);
    if (st != CUZK_OK) {
        cuzk_groth16_pk_free(&out);
        return st;
    }
    *pk = out;
    return CUZK_OK;
}
