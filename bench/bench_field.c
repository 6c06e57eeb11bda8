/*
 * bench_field.c — `cuzk bench field`: Fp/Fr arithmetic.
 *
 * Multiplication, squaring, addition and the inversions run as dependent chains
 * (r = r*a, r = r^2, r = 1/r): each operation waits for the previous result, so the number
 * is the latency of one operation, which is what a long serial computation (a Miller loop,
 * an addition chain) pays. sqrt cycles through independent precomputed squares, because
 * the square root of a square need not be a square again.
 *
 * Threading: single-threaded; the state below is set up by each item's setup function.
 */
#include "bench.h"

#define NSQ 64   /* power of two: cycled with i & (NSQ - 1) */

static struct {
    cuzk_fp a, r;
    cuzk_fr ra, rr;
    cuzk_fp sq[NSQ];
} S;

static bool setup_fp(void)
{
    bench_rand_fp(&S.a);
    bench_rand_fp(&S.r);
    return !cuzk_fp_is_zero(&S.r);
}

static bool setup_fr(void)
{
    bench_rand_fr(&S.ra);
    bench_rand_fr(&S.rr);
    return !cuzk_fr_is_zero(&S.rr);
}

static bool setup_sqrt(void)
{
    for (int i = 0; i < NSQ; i++) {
        cuzk_fp x;
        bench_rand_fp(&x);
        cuzk_fp_sqr(&S.sq[i], &x);
    }
    return true;
}

static void run_fp_mul(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fp_mul(&S.r, &S.r, &S.a);
    bench_sink_fp(&S.r);
}

static void run_fp_sqr(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fp_sqr(&S.r, &S.r);
    bench_sink_fp(&S.r);
}

static void run_fp_add(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fp_add(&S.r, &S.r, &S.a);
    bench_sink_fp(&S.r);
}

static void run_fr_mul(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fr_mul(&S.rr, &S.rr, &S.ra);
    bench_sink_fr(&S.rr);
}

static void run_fp_inv(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fp_inv(&S.r, &S.r);
    bench_sink_fp(&S.r);
}

static void run_fp_inv_var(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fp_inv_var(&S.r, &S.r);
    bench_sink_fp(&S.r);
}

static void run_fp_sqrt(void *ctx, uint64_t n)
{
    cuzk_fp t;
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++) {
        ok += cuzk_fp_sqrt(&t, &S.sq[i & (NSQ - 1)]);
        bench_sink_fp(&t);
    }
    bench_sink += ok;
}

static void run_fr_inv(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_fr_inv(&S.rr, &S.rr);
    bench_sink_fr(&S.rr);
}

static const bench_item k_items[] = {
    {"Fp mul", setup_fp, run_fp_mul, 1},
    {"Fp sqr", setup_fp, run_fp_sqr, 1},
    {"Fp add", setup_fp, run_fp_add, 1},
    {"Fr mul", setup_fr, run_fr_mul, 1},
    {"Fp inverse (ct)", setup_fp, run_fp_inv, 1},
    {"Fp inverse (var)", setup_fp, run_fp_inv_var, 1},
    {"Fp sqrt", setup_sqrt, run_fp_sqrt, 1},
    {"Fr inverse", setup_fr, run_fr_inv, 1},
};

const bench_group bench_group_field = {"field", k_items, sizeof k_items / sizeof k_items[0]};
