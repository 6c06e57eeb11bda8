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


/* ---- sizes of the parallel steps ------------------------------------------------------ */

/* Window width of the generator tables: measured on the 2-core dev box (Release, 20k
 * random scalars, one thread), us per point G1 / G2: w = 8 6.7 / 18.1, w = 12 4.8 / 13.1,
 * w = 13 4.5 / 12.1, w = 14 7.1 / 16.7, w = 16 6.6 / 13.3 — past 13 the tables (7.5 / 15
 * MiB at 13) stop fitting the cache and every lookup misses. */
#define FB_W 13
#define FB_GRAIN 2048 /* points per pool chunk: four of the ec layer's 512-point batches */
/* Domain points per pool chunk of the Lagrange and power loops: a block pays one pow
 * (~380 multiplications) and one inversion (~300) for ~7 multiplications a point. */
#define SD_BLOCK 8192
/* Rows per block of the u/v/w bitmaps; ranges of columns (a multiple of 64) */
#define SD_ROWS 4096
#define SD_PARTS 256
#define SD_WORDS (SD_PARTS / 64)
/* Input columns below this are summed per worker (their terms are everywhere) */
#define SD_HOT 1024u
/* Variables per pool chunk of the scalar and gather loops */
#define SD_VARS 65536

/* ---- small helpers -------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sd_log(const cuzk_groth16_setup_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sd_log(const cuzk_groth16_setup_opts *o, const char *fmt, ...)
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

static void pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e)
{
    cuzk_fr_pow(r, a, &e, 1);
}

/* coeff == 1 (most terms of a Filecoin circuit): the product is lag itself, exactly */
static inline bool fr_is_one(const cuzk_fr *a)
{
    return ((a->l[0] ^ CUZK_FR_ONE.l[0]) | (a->l[1] ^ CUZK_FR_ONE.l[1]) |
            (a->l[2] ^ CUZK_FR_ONE.l[2]) | (a->l[3] ^ CUZK_FR_ONE.l[3])) == 0;
}

static void atomic_min_u32(uint32_t *p, uint32_t v)
{
    uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur &&
           !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* ---- the setup's state ------------------------------------------------------------------ */

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
    cuzk_fr *hot_sums; /* per worker, 3 x hot */
    size_t n_hot_sums;
    uint64_t *masks;   /* 3 x row blocks x SD_WORDS */
    size_t *counts;    /* per SD_VARS block of variables */
    const cuzk_groth16_setup_opts *opts;
    const cuzk_groth16_fixed_base_hook *hook;
    cuzk_pool *pool;
} temps;

static void temps_free(temps *T)
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

/* ---- fixed-base batches: the pool or the hook -------------------------------------------- */

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

static const char *fb_where(const temps *T, char *buf, size_t cap)
{
    if (T->hook)
        return T->hook->name[0] ? T->hook->name : "hook";
    snprintf(buf, cap, "cpu, %zu thread(s)", T->n_workers);
    return buf;
}

/* out = sc[i] times the G1 (g2 false) or G2 generator, on the hook or the pool; logged. */
static cuzk_status fixed_batch(bool g2, void *out, const cuzk_fr *sc, size_t n, temps *T,
                               const char *what, cuzk_error *err)
{
    if (n == 0)
        return CUZK_OK;
    double t0 = now_s();
    cuzk_status st;
    if (T->hook) {
        st = g2 ? T->hook->g2s(T->hook->ctx, out, sc, n, err)
                : T->hook->g1s(T->hook->ctx, out, sc, n, err);
    } else {
        fb_job j = {g2 ? T->t2 : T->t1, sc, out, T->fb_scratch, T->fb_scratch_size};
        st = cuzk_pool_for(T->pool, n, g2 ? fb_g2 : fb_g1, &j, FB_GRAIN);
    }
    char b[48];
    if (st == CUZK_OK && n > 16)
        sd_log(T->opts, "setup: %s: %zu %s points in %.3f s (%s)", what, n, g2 ? "G2" : "G1",
               now_s() - t0, fb_where(T, b, sizeof b));
    return st;
}

static cuzk_status fixed_g1s(cuzk_g1_affine *out, const cuzk_fr *sc, size_t n, temps *T,
                             const char *what, cuzk_error *err)
{
    return fixed_batch(false, out, sc, n, T, what, err);
}

static cuzk_status fixed_g2s(cuzk_g2_affine *out, const cuzk_fr *sc, size_t n, temps *T,
                             const char *what, cuzk_error *err)
{
    return fixed_batch(true, out, sc, n, T, what, err);
}

/* ---- Lagrange-like values ------------------------------------------------------------------ */

typedef struct lag_job {
    cuzk_fr *lag, *scratch;
    const cuzk_fr *g, *omega, *tau, *c;
    int hit; /* tau is one of the x_j (__atomic) */
} lag_job;

static void lag_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    lag_job *J = ctx;
    cuzk_fr x0, x, t;
    pow_u64(&x0, J->omega, b);
    cuzk_fr_mul(&x0, &x0, J->g); /* x_b = g omega^b */
    x = x0;
    for (size_t j = b; j < e; j++) {
        cuzk_fr_sub(&J->lag[j], J->tau, &x);
        if (cuzk_fr_is_zero(&J->lag[j])) {
            __atomic_store_n(&J->hit, 1, __ATOMIC_RELAXED);
            return;
        }
        cuzk_fr_mul(&x, &x, J->omega);
    }
    /* lag = 1/(tau - x_j), then multiply by c * x_j (x_j walked again) */
    cuzk_frs_inv_var(J->lag + b, e - b, J->scratch + b);
    x = x0;
    for (size_t j = b; j < e; j++) {
        cuzk_fr_mul(&t, J->c, &x);
        cuzk_fr_mul(&J->lag[j], &J->lag[j], &t);
        cuzk_fr_mul(&x, &x, J->omega);
    }
    explicit_bzero(&t, sizeof t);
}

/* lag[j] = c * x_j / (tau - x_j) for x_j = g * omega^j, j < n (g = 1 for the plain
 * domain); c = (tau^N - 1)/N is the caller's; scratch holds n elements. Fails if tau is
 * one of the x_j. */
static cuzk_status lagrange_like(cuzk_fr *lag, cuzk_fr *scratch, size_t n, const cuzk_fr *g,
                                 const cuzk_fr *omega, const cuzk_fr *tau, const cuzk_fr *c,
                                 cuzk_pool *pool, cuzk_error *err)
{
    lag_job J = {lag, scratch, g, omega, tau, c, 0};
    cuzk_status st = cuzk_pool_for(pool, n, lag_block, &J, SD_BLOCK);
    if (st == CUZK_OK && J.hit)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: tau hit the domain");
    return st;
}

/* out[i] = x0 tau^i for i < n, in blocks starting at x0 tau^begin */
typedef struct pow_job {
    cuzk_fr *out;
    const cuzk_fr *x0, *tau;
} pow_job;

static void pow_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    const pow_job *J = ctx;
    cuzk_fr x;
    pow_u64(&x, J->tau, b);
    cuzk_fr_mul(&x, &x, J->x0);
    for (size_t i = b; i < e; i++) {
        J->out[i] = x;
        cuzk_fr_mul(&x, &x, J->tau);
    }
    explicit_bzero(&x, sizeof x);
}

/* ---- u, v, w ------------------------------------------------------------------------------- */

typedef struct qap_job {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *lag;
    cuzk_fr *uvw[3];
    uint32_t hot;          /* columns below: summed per worker */
    unsigned shift;        /* column c >= hot lies in range (c - hot) >> shift */
    size_t nblocks;
    uint64_t *masks;       /* [mat][block][SD_WORDS] */
    cuzk_fr *hot_sums;     /* [worker][mat][hot] */
} qap_job;

static inline const cuzk_fr *term_coeff(const cuzk_r1cs *r, int mat, uint64_t k)
{
    const cuzk_fr *c = r->m[mat].coeff;
    return c ? &c[k] : &r->coeff_values[r->coeff_index[mat][k]];
}

/* coeff * lag added to *dst */
static inline void add_term(cuzk_fr *dst, const cuzk_fr *coeff, const cuzk_fr *lag)
{
    if (fr_is_one(coeff)) {
        cuzk_fr_add(dst, dst, lag);
    } else {
        cuzk_fr t;
        cuzk_fr_mul(&t, coeff, lag);
        cuzk_fr_add(dst, dst, &t);
    }
}

/* Pass 1, blocks [b0, b1): the ranges each block touches; the hot columns' terms */
static void qap_scan(void *ctx, size_t b0, size_t b1, unsigned wid)
{
    const qap_job *J = ctx;
    const cuzk_r1cs *r = J->r1cs;
    const uint64_t m = r->n_constraints;
    for (int mat = 0; mat < 3; mat++) {
        const cuzk_csr *M = &r->m[mat];
        cuzk_fr *hs = J->hot_sums + ((size_t)wid * 3 + (size_t)mat) * J->hot;
        for (size_t blk = b0; blk < b1; blk++) {
            uint64_t *mk = J->masks + ((size_t)mat * J->nblocks + blk) * SD_WORDS;
            uint64_t j1 = (blk + 1) * (uint64_t)SD_ROWS < m ? (blk + 1) * (uint64_t)SD_ROWS : m;
            for (uint64_t j = blk * (uint64_t)SD_ROWS; j < j1; j++)
                for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                    uint32_t c = M->col[k];
                    if (c < J->hot) {
                        add_term(&hs[c], term_coeff(r, mat, k), &J->lag[j]);
                    } else {
                        uint32_t p = (c - J->hot) >> J->shift;
                        mk[p >> 6] |= (uint64_t)1 << (p & 63);
                    }
                }
        }
    }
}

/* Pass 2, ranges [p0, p1): each adds the terms of its own columns */
static void qap_part(void *ctx, size_t p0, size_t p1, unsigned wid)
{
    (void)wid;
    const qap_job *J = ctx;
    const cuzk_r1cs *r = J->r1cs;
    const uint64_t m = r->n_constraints;
    for (size_t p = p0; p < p1; p++) {
        uint64_t lo = J->hot + ((uint64_t)p << J->shift), hi = lo + ((uint64_t)1 << J->shift);
        for (int mat = 0; mat < 3; mat++) {
            const cuzk_csr *M = &r->m[mat];
            cuzk_fr *dst = J->uvw[mat];
            for (size_t blk = 0; blk < J->nblocks; blk++) {
                const uint64_t *mk = J->masks + ((size_t)mat * J->nblocks + blk) * SD_WORDS;
                if (!((mk[p >> 6] >> (p & 63)) & 1))
                    continue;
                uint64_t j1 = (blk + 1) * (uint64_t)SD_ROWS < m ? (blk + 1) * (uint64_t)SD_ROWS
                                                                : m;
                for (uint64_t j = blk * (uint64_t)SD_ROWS; j < j1; j++)
                    for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                        uint32_t c = M->col[k];
                        if (c >= lo && c < hi)
                            add_term(&dst[c], term_coeff(r, mat, k), &J->lag[j]);
                    }
            }
        }
    }
}

/* u, v, w (zeroed by the caller) from lag, without the input rows */
static cuzk_status eval_qap(temps *T, const cuzk_r1cs *r1cs, cuzk_error *err)
{
    const uint32_t nv = r1cs->n_vars, aux0 = 1 + r1cs->n_public;
    qap_job J;
    memset(&J, 0, sizeof J);
    J.r1cs = r1cs;
    J.lag = T->lag;
    J.uvw[0] = T->u;
    J.uvw[1] = T->v;
    J.uvw[2] = T->w;
    J.hot = aux0 < SD_HOT ? aux0 : SD_HOT;
    if (J.hot > nv)
        J.hot = nv;
    uint64_t span = nv - J.hot;
    while ((span >> J.shift) >= SD_PARTS)
        J.shift++;
    size_t nparts = span ? (size_t)(((span - 1) >> J.shift) + 1) : 0;
    J.nblocks = (size_t)((r1cs->n_constraints + SD_ROWS - 1) / SD_ROWS);
    T->n_hot_sums = T->n_workers * 3 * (size_t)J.hot;
    T->hot_sums = calloc(T->n_hot_sums ? T->n_hot_sums : 1, sizeof(cuzk_fr));
    T->masks = calloc(3 * (J.nblocks ? J.nblocks : 1) * SD_WORDS, sizeof(uint64_t));
    if (!T->hot_sums || !T->masks)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory for temporaries");
    J.masks = T->masks;
    J.hot_sums = T->hot_sums;
    cuzk_status st = cuzk_pool_for(T->pool, J.nblocks, qap_scan, &J, 4);
    if (st == CUZK_OK)
        st = cuzk_pool_for(T->pool, nparts, qap_part, &J, 1);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "setup: pool");
    for (int mat = 0; mat < 3; mat++)
        for (size_t wid = 0; wid < T->n_workers; wid++) {
            const cuzk_fr *hs = J.hot_sums + (wid * 3 + (size_t)mat) * J.hot;
            for (uint32_t c = 0; c < J.hot; c++)
                cuzk_fr_add(&J.uvw[mat][c], &J.uvw[mat][c], &hs[c]);
        }
    return CUZK_OK;
}

/* ---- scalars --------------------------------------------------------------------------- */

/* sc[var - base] = (beta u + alpha v + w) * inv for var in [base, end) */
typedef struct icl_job {
    const waste *W;
    const temps *T;
    const cuzk_fr *inv;
    uint32_t base;
    bool check;   /* l of a bellperson key: a zero scalar is an error */
    uint32_t bad; /* the lowest variable with a zero scalar (UINT32_MAX: none) */
} icl_job;

static void icl_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    icl_job *J = ctx;
    const temps *T = J->T;
    cuzk_fr t, q;
    for (size_t i = b; i < e; i++) {
        size_t var = J->base + i;
        cuzk_fr_mul(&t, &J->W->beta, &T->u[var]);
        cuzk_fr_mul(&q, &J->W->alpha, &T->v[var]);
        cuzk_fr_add(&t, &t, &q);
        cuzk_fr_add(&t, &t, &T->w[var]);
        cuzk_fr_mul(&T->sc[i], &t, J->inv);
        if (J->check && cuzk_fr_is_zero(&T->sc[i]))
            atomic_min_u32(&J->bad, (uint32_t)var);
    }
    explicit_bzero(&t, sizeof t);
    explicit_bzero(&q, sizeof q);
}

static cuzk_status icl_scalars(temps *T, const waste *W, const cuzk_fr *inv, uint32_t base,
                               uint32_t end, bool check, uint32_t *bad)
{
    icl_job J = {W, T, inv, base, check, UINT32_MAX};
    cuzk_status st = cuzk_pool_for(T->pool, end - base, icl_block, &J, SD_VARS / 8);
    *bad = J.bad;
    return st;
}

/* The a (A density, every input) or b (B density) gather of src into sc */
typedef struct gather_job {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *src;
    cuzk_fr *dst;
    size_t *counts; /* per SD_VARS block: selected variables, then their first index */
    uint32_t nv, aux0;
    bool sj, is_a, fill;
} gather_job;

static inline bool gather_sel(const gather_job *J, uint32_t var)
{
    if (J->sj)
        return true;
    if (J->is_a)
        return var < J->aux0 || cuzk_r1cs_density_test(J->r1cs, CUZK_R1CS_A, var);
    return cuzk_r1cs_density_test(J->r1cs, CUZK_R1CS_B, var);
}

static void gather_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    const gather_job *J = ctx;
    for (size_t blk = b; blk < e; blk++) {
        uint32_t v0 = (uint32_t)(blk * SD_VARS);
        uint32_t v1 = J->nv - v0 < SD_VARS ? J->nv : v0 + SD_VARS;
        if (!J->fill) {
            size_t k = 0;
            for (uint32_t var = v0; var < v1; var++)
                k += gather_sel(J, var);
            J->counts[blk] = k;
        } else {
            cuzk_fr *d = J->dst + J->counts[blk];
            for (uint32_t var = v0; var < v1; var++)
                if (gather_sel(J, var))
                    *d++ = J->src[var];
        }
    }
}

/* sc = the selected entries of src in variable order; their count in *k */
static cuzk_status gather(temps *T, const cuzk_r1cs *r1cs, const cuzk_fr *src, bool sj, bool is_a,
                          size_t *k)
{
    uint32_t nv = r1cs->n_vars;
    size_t nblk = ((size_t)nv + SD_VARS - 1) / SD_VARS;
    gather_job J = {r1cs, src, T->sc, T->counts, nv, 1 + r1cs->n_public, sj, is_a, false};
    cuzk_status st = cuzk_pool_for(T->pool, nblk, gather_block, &J, 1);
    if (st != CUZK_OK)
        return st;
    size_t total = 0;
    for (size_t b = 0; b < nblk; b++) {
        size_t c = T->counts[b];
        T->counts[b] = total;
        total += c;
    }
    *k = total;
    J.fill = true;
    return cuzk_pool_for(T->pool, nblk, gather_block, &J, 1);
}

/* ---- the setup -------------------------------------------------------------------- */

/* Builds pk from the waste; T holds the temporaries (freed by the caller). */
static cuzk_status build(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs, cuzk_groth16_flavour fl,
                         const g16_shape *sh, const waste *W, temps *T, cuzk_error *err)
{
    size_t n = sh->n, m = r1cs->n_constraints, nv = r1cs->n_vars;
    uint32_t aux0 = 1 + r1cs->n_public;
    cuzk_status st;
    bool sj = fl == CUZK_GROTH16_SNARKJS;
    double t0 = now_s();

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
           T->hook ? "" : " and generator tables", now_s() - t0);
    t0 = now_s();

    /* 1. Lagrange basis at tau: c = (tau^n - 1)/n */
    cuzk_fr zt, c, one = CUZK_FR_ONE;
    pow_u64(&zt, &W->tau, n);
    cuzk_fr_sub(&zt, &zt, &one);
    cuzk_fr_mul(&c, &zt, &T->dom->n_inv);
    if ((st = lagrange_like(T->lag, T->sc, n, &one, &T->dom->omega, &W->tau, &c, T->pool,
                            err)) != CUZK_OK)
        return st;
    sd_log(T->opts, "setup: lagrange basis 2^%u in %.3f s", sh->log2n, now_s() - t0);

    /* 2. u, v, w */
    t0 = now_s();
    if ((st = eval_qap(T, r1cs, err)) != CUZK_OK)
        return st;
    for (size_t i = 0; i < sh->n_inputs; i++)
        cuzk_fr_add(&T->u[i], &T->u[i], &T->lag[m + i]);
    sd_log(T->opts, "setup: A, B, C at tau (%llu + %llu + %llu terms) in %.3f s",
           (unsigned long long)r1cs->m[0].nnz, (unsigned long long)r1cs->m[1].nnz,
           (unsigned long long)r1cs->m[2].nnz, now_s() - t0);

    /* 3a. ic and l: (beta u + alpha v + w) / gamma or delta */
    uint32_t bad;
    if ((st = icl_scalars(T, W, &W->gamma_inv, 0, aux0, false, &bad)) != CUZK_OK ||
        (st = fixed_g1s(pk->vk.ic, T->sc, sh->n_inputs, T, "ic", err)) != CUZK_OK)
        return st;
    if ((st = icl_scalars(T, W, &W->delta_inv, aux0, (uint32_t)nv, !sj, &bad)) != CUZK_OK)
        return st;
    if (bad != UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "setup: aux variable %u (variable %u) is unconstrained; "
                              "bellperson keys cannot hold an identity l point",
                              bad - aux0, bad);
    if ((st = fixed_g1s(pk->l, T->sc, sh->n_l, T, "l", err)) != CUZK_OK)
        return st;

    /* 3b. a and b, filtered for BELLPERSON */
    size_t k = 0;
    if ((st = gather(T, r1cs, T->u, sj, true, &k)) != CUZK_OK)
        return st;
    if (k != pk->n_a)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: a count");
    if ((st = fixed_g1s(pk->a, T->sc, k, T, "a", err)) != CUZK_OK)
        return st;
    if ((st = gather(T, r1cs, T->v, sj, false, &k)) != CUZK_OK)
        return st;
    if (k != pk->n_b_g1)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: b count");
    if ((st = fixed_g1s(pk->b_g1, T->sc, k, T, "b_g1", err)) != CUZK_OK ||
        (st = fixed_g2s(pk->b_g2, T->sc, k, T, "b_g2", err)) != CUZK_OK)
        return st;

    /* 3c. h */
    t0 = now_s();
    if (!sj) {
        cuzk_fr x;
        cuzk_fr_mul(&x, &zt, &W->delta_inv); /* t(tau)/delta, times tau^i */
        pow_job J = {T->sc, &x, &W->tau};
        st = cuzk_pool_for(T->pool, sh->n_h, pow_block, &J, SD_BLOCK);
        explicit_bzero(&x, sizeof x);
        if (st != CUZK_OK)
            return st;
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
        st = lagrange_like(T->sc, T->lag, n, &T->dom->shift, &T->dom->omega, &W->tau, &c2,
                           T->pool, err);
        explicit_bzero(&c2, sizeof c2);
        if (st != CUZK_OK)
            return st;
    }
    sd_log(T->opts, "setup: h scalars in %.3f s", now_s() - t0);
    if ((st = fixed_g1s(pk->h, T->sc, sh->n_h, T, "h", err)) != CUZK_OK)
        return st;

    /* 3d. the verifying key's fixed points */
    cuzk_fr k3[3] = {W->alpha, W->beta, W->delta};
    cuzk_g1_affine p1[3];
    cuzk_g2_affine p2[3];
    st = fixed_g1s(p1, k3, 3, T, "vk", err);
    k3[0] = W->beta;
    k3[1] = W->gamma;
    k3[2] = W->delta;
    if (st == CUZK_OK)
        st = fixed_g2s(p2, k3, 3, T, "vk", err);
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

    double t0 = now_s();
    waste W;
    temps T;
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
           out.n_h, out.n_l, out.n_a, out.n_b_g1, now_s() - t0);
    *pk = out;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_setup_dev(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                   const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                                   const uint8_t seed[32], cuzk_pool *pool, cuzk_error *err)
{
    return cuzk_groth16_setup_dev_ex(pk, vk, r1cs, flavour, seed, pool, NULL, err);
}
