/*
 * coset.c — natural-order transforms (ntt, intt, coset variants), the element-wise
 * passes between them, and the Groth16 quotient H in the bellperson and snarkjs styles.
 *
 * Threading: every pass is a cuzk_pool_for over disjoint index ranges; chunk starts
 * recompute their running power with a pow, so results do not depend on the split.
 *
 * Why the H pipelines look the way they do: the DIF half leaves coefficients in
 * bit-reversed order and the DIT half wants exactly that order, so the coset scaling is
 * applied in bit-reversed order (g^rev(i), walked with one multiplication per element, see
 * poly_internal.h) and no permutation is needed until bellperson's final coefficients.
 */
#include "poly/poly_internal.h"

#define ELEM_GRAIN 4096u

typedef struct powers_ctx {
    cuzk_fr *a;
    cuzk_fr c, g;
    unsigned k;           /* bit-reversed variant only */
    const cuzk_fr *step;  /* bit-reversed variant only */
} powers_ctx;

static void powers_fn(void *vctx, size_t i0, size_t i1, unsigned worker_id)
{
    const powers_ctx *s = vctx;
    cuzk_fr cur;
    poly_pow_u64(&cur, &s->g, (uint64_t)i0);
    cuzk_fr_mul(&cur, &cur, &s->c);
    for (size_t i = i0; i < i1; i++) {
        cuzk_fr_mul(&s->a[i], &s->a[i], &cur);
        cuzk_fr_mul(&cur, &cur, &s->g);
    }
}

cuzk_status cuzk_poly_distribute_powers(cuzk_fr *a, size_t n, const cuzk_fr *c,
                                        const cuzk_fr *g, cuzk_pool *pool)
{
    if (!a || !c || !g)
        return CUZK_ERR_INVALID_ARG;
    powers_ctx s = {.a = a, .c = *c, .g = *g};
    return cuzk_pool_for(pool, n, powers_fn, &s, ELEM_GRAIN);
}

static void powers_bitrev_fn(void *vctx, size_t i0, size_t i1, unsigned worker_id)
{
    const powers_ctx *s = vctx;
    cuzk_fr cur;
    poly_pow_u64(&cur, &s->g, (uint64_t)poly_rev(i0, s->k));
    cuzk_fr_mul(&cur, &cur, &s->c);
    for (size_t i = i0;;) {
        cuzk_fr_mul(&s->a[i], &s->a[i], &cur);
        if (++i >= i1)
            break;
        cuzk_fr_mul(&cur, &cur, &s->step[__builtin_ctzll((unsigned long long)i)]);
    }
}

cuzk_status poly_mul_powers_bitrev(cuzk_fr *a, unsigned k, const cuzk_fr *c, const cuzk_fr *g,
                                   const cuzk_fr *step, cuzk_pool *pool)
{
    powers_ctx s = {.a = a, .c = *c, .g = *g, .k = k, .step = step};
    return cuzk_pool_for(pool, (size_t)1 << k, powers_bitrev_fn, &s, ELEM_GRAIN);
}

typedef struct const_ctx {
    cuzk_fr *a;
    cuzk_fr c;
} const_ctx;

static void const_fn(void *vctx, size_t i0, size_t i1, unsigned worker_id)
{
    const const_ctx *s = vctx;
    for (size_t i = i0; i < i1; i++)
        cuzk_fr_mul(&s->a[i], &s->a[i], &s->c);
}

cuzk_status poly_mul_const(cuzk_fr *a, size_t n, const cuzk_fr *c, cuzk_pool *pool)
{
    const_ctx s = {.a = a, .c = *c};
    return cuzk_pool_for(pool, n, const_fn, &s, ELEM_GRAIN);
}

#define CHECK(expr)                                                                         \
    do {                                                                                    \
        cuzk_status st_ = (expr);                                                           \
        if (st_ != CUZK_OK)                                                                 \
            return st_;                                                                     \
    } while (0)

cuzk_status cuzk_ntt(const cuzk_domain *d, cuzk_fr *a, cuzk_pool *pool)
{
    CHECK(cuzk_ntt_nr(d, a, false, pool));
    return cuzk_poly_bitreverse(a, d->log2n, pool);
}

cuzk_status cuzk_intt(const cuzk_domain *d, cuzk_fr *a, cuzk_pool *pool)
{
    CHECK(cuzk_ntt_nr(d, a, true, pool));
    CHECK(cuzk_poly_bitreverse(a, d->log2n, pool));
    return poly_mul_const(a, d->n, &d->n_inv, pool);
}

cuzk_status cuzk_coset_ntt(const cuzk_domain *d, cuzk_fr *a, cuzk_pool *pool)
{
    if (!poly_domain_ok(d) || !a)
        return CUZK_ERR_INVALID_ARG;
    CHECK(cuzk_poly_distribute_powers(a, d->n, &CUZK_FR_ONE, &d->shift, pool));
    return cuzk_ntt(d, a, pool);
}

cuzk_status cuzk_coset_intt(const cuzk_domain *d, cuzk_fr *a, cuzk_pool *pool)
{
    /* 1/n is folded into the coset powers: coefficient i gets n^-1 * g^-i */
    CHECK(cuzk_ntt_nr(d, a, true, pool));
    CHECK(cuzk_poly_bitreverse(a, d->log2n, pool));
    return cuzk_poly_distribute_powers(a, d->n, &d->n_inv, &d->shift_inv, pool);
}

cuzk_status cuzk_poly_divide_by_z_on_coset(const cuzk_domain *d, cuzk_fr *a, cuzk_pool *pool)
{
    if (!poly_domain_ok(d) || !a)
        return CUZK_ERR_INVALID_ARG;
    return poly_mul_const(a, d->n, &d->z_coset_inv, pool);
}

/* evaluations on <omega> (natural) -> evaluations on g<omega> (natural), via bit-reversed
 * coefficients: iNTT half (DIF), scale by n^-1 g^rev(i), NTT half (DIT). */
static cuzk_status evals_to_coset(const cuzk_domain *d, cuzk_fr *x, cuzk_pool *pool)
{
    CHECK(cuzk_ntt_nr(d, x, true, pool));
    CHECK(poly_mul_powers_bitrev(x, d->log2n, &d->n_inv, &d->shift, d->revstep_[0], pool));
    return cuzk_ntt_rn(d, x, false, pool);
}

typedef struct abc_ctx {
    cuzk_fr *a;
    const cuzk_fr *b, *c;
    cuzk_fr scale;
    bool scaled;
} abc_ctx;

static void abc_fn(void *vctx, size_t i0, size_t i1, unsigned worker_id)
{
    const abc_ctx *s = vctx;
    for (size_t i = i0; i < i1; i++) {
        cuzk_fr t;
        cuzk_fr_mul(&t, &s->a[i], &s->b[i]);
        cuzk_fr_sub(&t, &t, &s->c[i]);
        if (s->scaled)
            cuzk_fr_mul(&t, &t, &s->scale);
        s->a[i] = t;
    }
}

static cuzk_status h_on_coset(const cuzk_domain *d, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c,
                              bool divide, cuzk_pool *pool)
{
    if (!poly_domain_ok(d) || !a || !b || !c || a == b || a == c || b == c)
        return CUZK_ERR_INVALID_ARG;
    CHECK(evals_to_coset(d, a, pool));
    CHECK(evals_to_coset(d, b, pool));
    CHECK(evals_to_coset(d, c, pool));
    abc_ctx s = {.a = a, .b = b, .c = c, .scale = d->z_coset_inv, .scaled = divide};
    return cuzk_pool_for(pool, d->n, abc_fn, &s, ELEM_GRAIN);
}

cuzk_status cuzk_poly_h_bellperson(const cuzk_domain *d, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c,
                                   cuzk_pool *pool)
{
    CHECK(h_on_coset(d, a, b, c, true, pool));
    /* coset iNTT: DIF half, n^-1 g^-rev(i) in bit-reversed order, then the one permutation */
    CHECK(cuzk_ntt_nr(d, a, true, pool));
    CHECK(poly_mul_powers_bitrev(a, d->log2n, &d->n_inv, &d->shift_inv, d->revstep_[1], pool));
    return cuzk_poly_bitreverse(a, d->log2n, pool);
}

cuzk_status cuzk_poly_h_snarkjs(const cuzk_domain *d, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c,
                                cuzk_pool *pool)
{
    return h_on_coset(d, a, b, c, false, pool);
}
