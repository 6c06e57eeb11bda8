/*
 * setup_dev.c — a development-only Groth16 setup: fresh toxic waste (tau, alpha, beta,
 * gamma, delta) in this process, the key vectors computed from it, the waste wiped.
 * NOT a trusted setup: whoever ran it could forge proofs. For tests and demos.
 *
 * Recipe (both flavours share the first steps):
 *   1. Lagrange basis of the n-point domain at tau:
 *        L_j(tau) = (tau^n - 1)/n * omega^j / (tau - omega^j)          (batch inverses)
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
 *      could forge proofs anyway. This step is ~95% of the CPU time (2 KiB PoRep, 2^22:
 *      ~10.2 M G1 + 0.7 M G2 points); docs/perf.md has the profile. The caller may hand
 *      it to a hook instead (cuzk_groth16_setup_opts: the prover layer's GPU).
 * The domain is the one the prover uses (cuzk_domain_init_* of the flavour), so the roots
 * (7- or 5-based) agree by construction.
 *
 * Cancel: the caller's flag (cuzk_groth16_setup_opts.cancel) is read between the steps
 * and by every chunk of the point multiplications (setup_dev_fixed.c), so a stop waits
 * for one O(n) pass at most; the temporaries are wiped and the key freed as on any error.
 *
 * Threading: every O(n) step runs on the pool, each split so that it gives the same bytes
 * as one thread (field arithmetic is exact, so only the order of additions changes):
 *   - Lagrange values (and snarkjs's h) in blocks, each starting from g omega^begin (one
 *     pow) with its own batch inversion; bellperson's h powers in blocks from tau^begin;
 *   - u, v, w by column ownership: the columns of aux variables are cut into at most
 *     SD_PARTS ranges of 2^s; a pass over blocks of SD_ROWS rows notes which ranges each
 *     block touches (a bitmap), then each range's owner walks only those blocks and adds
 *     only the terms of its own columns, so no two threads write one sum. The columns
 *     below SD_HOT that are inputs (ONE is in most of B's rows: a boolean constraint is
 *     x * (1 - x) = 0) are summed per worker in the first pass and folded after it;
 *   - the ic / l scalars per variable; the a / b gathers by count, prefix sum, fill;
 *   - the point multiplications in chunks (per-worker scratch indexed by the pool's
 *     worker id), or in the hook's calls from the calling thread.
 * Allocates the keys and its own temporaries (this is key generation, not proving): the
 * generator tables (7.5 + 15 MiB, only without a hook), one ec scratch per pool thread,
 * the scalar vectors (~10 field elements a domain point), the per-worker input sums and
 * the block bitmaps.
 *
 * Files: this one draws the waste and drives the recipe (build); the steps are
 * setup_dev_lagrange.c (1, and snarkjs's h), setup_dev_qap.c (2), setup_dev_scalars.c
 * (3: ic / l scalars, a / b gathers) and setup_dev_fixed.c (4); setup_dev_internal.h
 * holds what they share (the step sizes, the temporaries, the small helpers).
 */
#define _DEFAULT_SOURCE /* explicit_bzero, clock_gettime */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "cuzk/groth16.h"
#include "cuzk/poly.h"
#include "groth16/groth16_internal.h"
#include "groth16/setup_dev_internal.h"

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

/* ---- small helpers -------------------------------------------------------------------- */

double sd_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sd_log(const cuzk_groth16_setup_opts *o, const char *fmt, ...)
{
    if (!o || !o->log)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->log(o->log_ctx, msg);
}

/* Asks for transparent huge pages on the 2 MiB-aligned interior of a large fresh buffer
 * (Linux; a no-op elsewhere or when THP is off). Why: the setup's vectors are first
 * touched in its parallel passes, and at 2^27 (~47 GB of key, ~21 GB of scalars) 4 KiB
 * page faults cost more than the arithmetic: measured on the 2-core box at 2^22, A/B/C at
 * tau took 0.97 s, nearly all of it faults of u/v/w (zero page, then copy on write). */
static void sd_hugepages(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || bytes < 2 * huge)
        return;
    uintptr_t b = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (e > b)
        (void)madvise((void *)b, e - b, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* ---- the temporaries ------------------------------------------------------------------- */

static void temps_free(sd_temps *T)
{
    if (T->lag) explicit_bzero(T->lag, T->n_lag * sizeof(cuzk_fr));
    if (T->u) explicit_bzero(T->u, 3 * T->n_vars * sizeof(cuzk_fr));
    if (T->sc) explicit_bzero(T->sc, T->n_sc * sizeof(cuzk_fr));
    if (T->hot_sums) explicit_bzero(T->hot_sums, T->n_hot_sums * sizeof(cuzk_fr));
    free(T->dom);
    free(T->lag);
    free(T->u);
    free(T->sc);
    free(T->t1);
    free(T->t2);
    free(T->fb_scratch);
    free(T->hot_sums);
    free(T->masks);
    free(T->counts);
}

/* ---- the setup -------------------------------------------------------------------- */

uint64_t cuzk_groth16_setup_dev_host_bytes(unsigned log2n, uint64_t n_vars, uint64_t max_points,
                                           unsigned cpu_workers)
{
    /* build()'s temporaries, as it allocates them */
    uint64_t n = (uint64_t)1 << log2n;
    uint64_t mx = max_points > n ? max_points : n;
    uint64_t b = (n + 3 * n_vars + mx) * sizeof(cuzk_fr) +
                 ((n_vars + SD_VARS - 1) / SD_VARS + 1) * sizeof(size_t);
    if (cpu_workers) {
        size_t sc = cuzk_g1s_fixed_mul_var_scratch_size();
        if (cuzk_g2s_fixed_mul_var_scratch_size() > sc)
            sc = cuzk_g2s_fixed_mul_var_scratch_size();
        b += cuzk_g1_fixed_wide_size(FB_W) + cuzk_g2_fixed_wide_size(FB_W) +
             (uint64_t)cpu_workers * sc;
    }
    return b;
}

/* Builds pk from the waste; T holds the temporaries (freed by the caller). */
static cuzk_status build(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs, cuzk_groth16_flavour fl,
                         const g16_shape *sh, const sd_waste *W, sd_temps *T, cuzk_error *err)
{
    size_t n = sh->n, m = r1cs->n_constraints, nv = r1cs->n_vars;
    uint32_t aux0 = 1 + r1cs->n_public;
    cuzk_status st;
    bool sj = fl == CUZK_GROTH16_SNARKJS;
    double t0 = sd_now_s();

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
    T->n_workers = cuzk_pool_nthreads(T->pool);
    T->lag = calloc(n, sizeof(cuzk_fr));
    T->u = calloc(3 * (size_t)nv, sizeof(cuzk_fr));
    T->sc = calloc(mx, sizeof(cuzk_fr));
    T->counts = calloc(((size_t)nv + SD_VARS - 1) / SD_VARS + 1, sizeof(size_t));
    if (!T->lag || !T->u || !T->sc || !T->counts)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory for temporaries");
    sd_hugepages(T->lag, n * sizeof(cuzk_fr));
    sd_hugepages(T->u, 3 * (size_t)nv * sizeof(cuzk_fr));
    sd_hugepages(T->sc, mx * sizeof(cuzk_fr));
    T->v = T->u + nv;
    T->w = T->v + nv;
    if (!T->hook) {
        T->t1_size = cuzk_g1_fixed_wide_size(FB_W);
        T->t2_size = cuzk_g2_fixed_wide_size(FB_W);
        T->t1 = malloc(T->t1_size);
        T->t2 = malloc(T->t2_size);
        T->fb_scratch_size = cuzk_g1s_fixed_mul_var_scratch_size();
        if (cuzk_g2s_fixed_mul_var_scratch_size() > T->fb_scratch_size)
            T->fb_scratch_size = cuzk_g2s_fixed_mul_var_scratch_size();
        T->fb_scratch = malloc(T->n_workers * T->fb_scratch_size);
        if (!T->t1 || !T->t2 || !T->fb_scratch)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory for temporaries");
        if ((st = cuzk_g1_fixed_wide_init(T->t1, FB_W, &CUZK_G1_GENERATOR)) != CUZK_OK ||
            (st = cuzk_g2_fixed_wide_init(T->t2, FB_W, &CUZK_G2_GENERATOR)) != CUZK_OK)
            return cuzk_error_set(err, st, "setup: fixed-base tables");
    }
    sd_log(T->opts, "setup: domain, temporaries%s in %.3f s",
           T->hook ? "" : " and generator tables", sd_now_s() - t0);
    if (sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");
    t0 = sd_now_s();

    /* 1. Lagrange basis at tau: c = (tau^n - 1)/n */
    cuzk_fr zt, c, one = CUZK_FR_ONE;
    sd_pow_u64(&zt, &W->tau, n);
    cuzk_fr_sub(&zt, &zt, &one);
    cuzk_fr_mul(&c, &zt, &T->dom->n_inv);
    if ((st = sd_lagrange_like(T->lag, T->sc, n, &one, &T->dom->omega, &W->tau, &c, T->pool,
                            err)) != CUZK_OK)
        return st;
    sd_log(T->opts, "setup: lagrange basis 2^%u in %.3f s", sh->log2n, sd_now_s() - t0);
    if (sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");

    /* 2. u, v, w */
    t0 = sd_now_s();
    if ((st = sd_eval_qap(T, r1cs, err)) != CUZK_OK)
        return st;
    for (size_t i = 0; i < sh->n_inputs; i++)
        cuzk_fr_add(&T->u[i], &T->u[i], &T->lag[m + i]);
    sd_log(T->opts, "setup: A, B, C at tau (%llu + %llu + %llu terms) in %.3f s",
           (unsigned long long)r1cs->m[0].nnz, (unsigned long long)r1cs->m[1].nnz,
           (unsigned long long)r1cs->m[2].nnz, sd_now_s() - t0);
    if (sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");

    /* 3a. ic and l: (beta u + alpha v + w) / gamma or delta */
    uint32_t bad;
    if ((st = sd_icl_scalars(T, W, &W->gamma_inv, 0, aux0, false, &bad)) != CUZK_OK ||
        (st = sd_fixed_g1s(pk->vk.ic, T->sc, sh->n_inputs, T, "ic", err)) != CUZK_OK)
        return st;
    if ((st = sd_icl_scalars(T, W, &W->delta_inv, aux0, (uint32_t)nv, !sj, &bad)) != CUZK_OK)
        return st;
    if (bad != UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "setup: aux variable %u (variable %u) is unconstrained; "
                              "bellperson keys cannot hold an identity l point",
                              bad - aux0, bad);
    if ((st = sd_fixed_g1s(pk->l, T->sc, sh->n_l, T, "l", err)) != CUZK_OK)
        return st;

    /* 3b. a and b, filtered for BELLPERSON */
    size_t k = 0;
    if ((st = sd_gather(T, r1cs, T->u, sj, true, &k)) != CUZK_OK)
        return st;
    if (k != pk->n_a)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: a count");
    if ((st = sd_fixed_g1s(pk->a, T->sc, k, T, "a", err)) != CUZK_OK)
        return st;
    if ((st = sd_gather(T, r1cs, T->v, sj, false, &k)) != CUZK_OK)
        return st;
    if (k != pk->n_b_g1)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: b count");
    if ((st = sd_fixed_g1s(pk->b_g1, T->sc, k, T, "b_g1", err)) != CUZK_OK ||
        (st = sd_fixed_g2s(pk->b_g2, T->sc, k, T, "b_g2", err)) != CUZK_OK)
        return st;

    /* 3c. h */
    t0 = sd_now_s();
    if (!sj) {
        cuzk_fr x;
        cuzk_fr_mul(&x, &zt, &W->delta_inv); /* t(tau)/delta, times tau^i */
        st = sd_powers(T->sc, sh->n_h, &x, &W->tau, T->pool);
        explicit_bzero(&x, sizeof x);
        if (st != CUZK_OK)
            return st;
    } else {
        cuzk_fr c2, two_n_inv, two;
        sd_pow_u64(&c2, &W->tau, 2 * (uint64_t)n);
        cuzk_fr_sub(&c2, &c2, &one);
        cuzk_fr_from_u64(&two, 2);
        cuzk_fr_inv(&two_n_inv, &two);
        cuzk_fr_mul(&two_n_inv, &two_n_inv, &T->dom->n_inv); /* 1/(2n) */
        cuzk_fr_mul(&c2, &c2, &two_n_inv);
        cuzk_fr_mul(&c2, &c2, &W->delta_inv);
        /* lag is free now: reuse it as the inversion scratch */
        st = sd_lagrange_like(T->sc, T->lag, n, &T->dom->shift, &T->dom->omega, &W->tau, &c2,
                           T->pool, err);
        explicit_bzero(&c2, sizeof c2);
        if (st != CUZK_OK)
            return st;
    }
    sd_log(T->opts, "setup: h scalars in %.3f s", sd_now_s() - t0);
    if (sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");
    if ((st = sd_fixed_g1s(pk->h, T->sc, sh->n_h, T, "h", err)) != CUZK_OK)
        return st;

    /* 3d. the verifying key's fixed points */
    cuzk_fr k3[3] = {W->alpha, W->beta, W->delta};
    cuzk_g1_affine p1[3];
    cuzk_g2_affine p2[3];
    st = sd_fixed_g1s(p1, k3, 3, T, "vk", err);
    k3[0] = W->beta;
    k3[1] = W->gamma;
    k3[2] = W->delta;
    if (st == CUZK_OK)
        st = sd_fixed_g2s(p2, k3, 3, T, "vk", err);
    explicit_bzero(k3, sizeof k3);
    explicit_bzero(&zt, sizeof zt);
    explicit_bzero(&c, sizeof c);
    if (st != CUZK_OK)
        return st;
    pk->vk.alpha_g1 = p1[0];
    pk->vk.beta_g1 = p1[1];
    pk->vk.delta_g1 = p1[2];
    pk->vk.beta_g2 = p2[0];
    pk->vk.gamma_g2 = p2[1];
    pk->vk.delta_g2 = p2[2];
    return CUZK_OK;
}

void g16_setup_dev_waste(cuzk_fr out[5], const uint8_t seed[32])
{
    for (int i = 0; i < 5; i++)
        (void)draw(&out[i], seed, (uint64_t)i + 1, NULL); /* seeded: cannot fail */
}

cuzk_status cuzk_groth16_setup_dev_ex(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                      const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                      const uint8_t seed[32], cuzk_pool *pool,
                                      const cuzk_groth16_setup_opts *opts, cuzk_error *err)
{
    if (!pk || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "setup: NULL argument");
    const cuzk_groth16_fixed_base_hook *hook = opts ? opts->fixed_base : NULL;
    if (hook && (!hook->g1s || !hook->g2s))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "setup: fixed-base hook incomplete");
    if (sd_cancelled(opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");
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
    sd_hugepages(out.h, out.n_h * sizeof *out.h);
    sd_hugepages(out.l, out.n_l * sizeof *out.l);
    sd_hugepages(out.a, out.n_a * sizeof *out.a);
    sd_hugepages(out.b_g1, out.n_b_g1 * sizeof *out.b_g1);
    sd_hugepages(out.b_g2, out.n_b_g2 * sizeof *out.b_g2);

    double t0 = sd_now_s();
    sd_waste W;
    sd_temps T;
    memset(&T, 0, sizeof T);
    T.opts = opts;
    T.hook = hook;
    T.pool = pool;
    if ((st = draw(&W.tau, seed, 1, err)) == CUZK_OK &&
        (st = draw(&W.alpha, seed, 2, err)) == CUZK_OK &&
        (st = draw(&W.beta, seed, 3, err)) == CUZK_OK &&
        (st = draw(&W.gamma, seed, 4, err)) == CUZK_OK &&
        (st = draw(&W.delta, seed, 5, err)) == CUZK_OK) {
        cuzk_fr_inv(&W.gamma_inv, &W.gamma);
        cuzk_fr_inv(&W.delta_inv, &W.delta);
        st = build(&out, r1cs, flavour, &sh, &W, &T, err);
    }
    explicit_bzero(&W, sizeof W);
    temps_free(&T);
    if (st == CUZK_OK && vk)
        st = cuzk_groth16_vk_copy(vk, &out.vk, err);
    if (st != CUZK_OK) {
        cuzk_groth16_pk_free(&out);
        return st;
    }
    sd_log(opts, "setup: 2^%u key (%zu h, %zu l, %zu a, %zu b points) in %.3f s", sh.log2n,
           out.n_h, out.n_l, out.n_a, out.n_b_g1, sd_now_s() - t0);
    *pk = out;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_setup_dev(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                   const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                   const uint8_t seed[32], cuzk_pool *pool, cuzk_error *err)
{
    return cuzk_groth16_setup_dev_ex(pk, vk, r1cs, flavour, seed, pool, NULL, err);
}
