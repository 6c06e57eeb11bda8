/*
 * bench_curve.c — `cuzk bench curve`: G1/G2 point arithmetic, scalar multiplication,
 * subgroup checks, checked decompression and batch normalisation.
 *
 * Additions, doublings and scalar multiplications run as dependent chains (r = r + b,
 * r = 2r, r = [k_i] r) so each number is one operation's latency. The Jacobian addend has
 * Z != 1 (it is a random multiple of the generator, never normalised) so the general
 * formula is timed, not a Z == 1 shortcut. Checks and decoders cycle through NPTS
 * independent inputs; batch-to-affine converts NBATCH points per call and reports the cost
 * per point.
 *
 * Threading: single-threaded; the state below is rebuilt by each item's setup function.
 * The one allocation (the fixed-base table, whose size only the library knows) is made
 * once and kept for the life of the process.
 */
#include "bench.h"

#include <stdlib.h>

#define NPTS 16     /* power of two: cycled with i & (NPTS - 1) */
#define NBATCH 256

static struct {
    cuzk_g1_jac r1, b1;
    cuzk_g1_affine a1;
    cuzk_g1_xyzz x1;
    cuzk_g2_jac r2, b2;
    cuzk_g2_affine a2;
    cuzk_fr k[NPTS];
    cuzk_g1_affine p1[NPTS];
    cuzk_g2_affine p2[NPTS];
    uint8_t enc1[NPTS][CUZK_G1_COMPRESSED_BYTES];
    uint8_t enc2[NPTS][CUZK_G2_COMPRESSED_BYTES];
    uint8_t unc1[NPTS][CUZK_G1_UNCOMPRESSED_BYTES]; /* a .params' encoding */
    uint8_t unc2[NPTS][CUZK_G2_UNCOMPRESSED_BYTES];
    cuzk_g1_jac j1[NBATCH];
    cuzk_g2_jac j2[NBATCH];
    cuzk_g1_affine out1[NBATCH];
    cuzk_g2_affine out2[NBATCH];
    cuzk_fp scratch1[NBATCH];
    cuzk_fp2 scratch2[NBATCH];
} S;

static cuzk_g1_fixed_table *g_table;

static bool setup_g1(void)
{
    bench_rand_g1(&S.r1);
    bench_rand_g1(&S.b1);
    bench_rand_g1_affine(&S.a1);
    cuzk_g1_xyzz_from_affine(&S.x1, &S.a1);
    for (int i = 0; i < NPTS; i++)
        bench_rand_fr(&S.k[i]);
    return true;
}

static bool setup_g1_xyzz(void)
{
    setup_g1();
    cuzk_g1_affine t;
    bench_rand_g1_affine(&t);
    cuzk_g1_xyzz_from_affine(&S.x1, &t);
    return true;
}

static bool setup_g2(void)
{
    bench_rand_g2(&S.r2);
    bench_rand_g2(&S.b2);
    bench_rand_g2_affine(&S.a2);
    for (int i = 0; i < NPTS; i++)
        bench_rand_fr(&S.k[i]);
    return true;
}

static bool setup_fixed(void)
{
    if (!g_table) {
        g_table = malloc(cuzk_g1_fixed_table_size());
        if (!g_table)
            return false;
        if (cuzk_g1_fixed_table_init(g_table, &CUZK_G1_GENERATOR) != CUZK_OK) {
            free(g_table);
            g_table = NULL;
            return false;
        }
    }
    return setup_g1();
}

static bool setup_pts(void)
{
    for (int i = 0; i < NPTS; i++) {
        bench_rand_g1_affine(&S.p1[i]);
        bench_rand_g2_affine(&S.p2[i]);
    }
    return true;
}

static bool setup_enc1(void)
{
    for (int i = 0; i < NPTS; i++) {
        bench_rand_g1_affine(&S.p1[i]);
        cuzk_g1_affine_to_zcash_compressed(S.enc1[i], &S.p1[i]);
    }
    return true;
}

static bool setup_enc2(void)
{
    for (int i = 0; i < NPTS; i++) {
        bench_rand_g2_affine(&S.p2[i]);
        cuzk_g2_affine_to_zcash_compressed(S.enc2[i], &S.p2[i]);
    }
    return true;
}

static bool setup_unc(void)
{
    for (int i = 0; i < NPTS; i++) {
        bench_rand_g1_affine(&S.p1[i]);
        bench_rand_g2_affine(&S.p2[i]);
        cuzk_g1_affine_to_zcash_uncompressed(S.unc1[i], &S.p1[i]);
        cuzk_g2_affine_to_zcash_uncompressed(S.unc2[i], &S.p2[i]);
    }
    return true;
}

static bool setup_batch1(void)
{
    for (int i = 0; i < NBATCH; i++)
        bench_rand_g1(&S.j1[i]);
    return true;
}

static bool setup_batch2(void)
{
    for (int i = 0; i < NBATCH; i++)
        bench_rand_g2(&S.j2[i]);
    return true;
}

/* ---- G1 ---------------------------------------------------------------------------- */

static void run_g1_add(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_jac_add(&S.r1, &S.r1, &S.b1);
    bench_sink_fp(&S.r1.x);
}

static void run_g1_add_affine(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_jac_add_affine(&S.r1, &S.r1, &S.a1);
    bench_sink_fp(&S.r1.x);
}

static void run_g1_dbl(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_jac_dbl(&S.r1, &S.r1);
    bench_sink_fp(&S.r1.x);
}

static void run_g1_xyzz_add_affine(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_xyzz_add_affine(&S.x1, &S.x1, &S.a1);
    bench_sink_fp(&S.x1.x);
}

static void run_g1_mul_var(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_jac_mul_var(&S.r1, &S.r1, &S.k[i & (NPTS - 1)]);
    bench_sink_fp(&S.r1.x);
}

static void run_g1_mul(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g1_jac_mul(&S.r1, &S.r1, &S.k[i & (NPTS - 1)]);
    bench_sink_fp(&S.r1.x);
}

static void run_g1_fixed_mul(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        cuzk_g1_fixed_mul(&S.r1, g_table, &S.k[i & (NPTS - 1)]);
        bench_sink_fp(&S.r1.x);
    }
}

static void run_g1_in_subgroup(void *ctx, uint64_t n)
{
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++)
        ok += cuzk_g1_affine_in_subgroup(&S.p1[i & (NPTS - 1)]);
    bench_sink += ok;
}

static void run_g1_decompress(void *ctx, uint64_t n)
{
    cuzk_g1_affine p;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        bad += cuzk_g1_affine_from_zcash_compressed(&p, S.enc1[i & (NPTS - 1)],
                                                    CUZK_G1_COMPRESSED_BYTES, NULL);
        bench_sink_fp(&p.x);
    }
    bench_sink += bad;
}

/* The two halves of loading a .params point under CUZK_PARAMS_TRUSTED_ONCURVE (the
 * engine's trust policy, kind_fil_load.c): the encoding (flags, canonical, to Montgomery)
 * and the curve equation; "subgroup check" above is what CHECKED adds. */
static void run_g1_unc_decode(void *ctx, uint64_t n)
{
    cuzk_g1_affine p;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        bad += cuzk_g1_affine_from_zcash_uncompressed_unchecked(&p, S.unc1[i & (NPTS - 1)],
                                                                CUZK_G1_UNCOMPRESSED_BYTES,
                                                                NULL);
        bench_sink_fp(&p.x);
    }
    bench_sink += bad;
}

static void run_g1_on_curve(void *ctx, uint64_t n)
{
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++)
        ok += cuzk_g1_affine_on_curve(&S.p1[i & (NPTS - 1)]);
    bench_sink += ok;
}

static void run_g2_unc_decode(void *ctx, uint64_t n)
{
    cuzk_g2_affine p;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        bad += cuzk_g2_affine_from_zcash_uncompressed_unchecked(&p, S.unc2[i & (NPTS - 1)],
                                                                CUZK_G2_UNCOMPRESSED_BYTES,
                                                                NULL);
        bench_sink_fp(&p.x.c0);
    }
    bench_sink += bad;
}

static void run_g2_on_curve(void *ctx, uint64_t n)
{
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++)
        ok += cuzk_g2_affine_on_curve(&S.p2[i & (NPTS - 1)]);
    bench_sink += ok;
}

static void run_g1_batch_affine(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        cuzk_g1s_jac_to_affine(S.out1, S.j1, NBATCH, S.scratch1);
        bench_sink_fp(&S.out1[i & (NBATCH - 1)].x);
    }
}

/* ---- G2 ---------------------------------------------------------------------------- */

static void run_g2_add(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g2_jac_add(&S.r2, &S.r2, &S.b2);
    bench_sink_fp(&S.r2.x.c0);
}

static void run_g2_dbl(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g2_jac_dbl(&S.r2, &S.r2);
    bench_sink_fp(&S.r2.x.c0);
}

static void run_g2_mul_var(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g2_jac_mul_var(&S.r2, &S.r2, &S.k[i & (NPTS - 1)]);
    bench_sink_fp(&S.r2.x.c0);
}

static void run_g2_mul(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        cuzk_g2_jac_mul(&S.r2, &S.r2, &S.k[i & (NPTS - 1)]);
    bench_sink_fp(&S.r2.x.c0);
}

static void run_g2_in_subgroup(void *ctx, uint64_t n)
{
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++)
        ok += cuzk_g2_affine_in_subgroup(&S.p2[i & (NPTS - 1)]);
    bench_sink += ok;
}

static void run_g2_decompress(void *ctx, uint64_t n)
{
    cuzk_g2_affine p;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        bad += cuzk_g2_affine_from_zcash_compressed(&p, S.enc2[i & (NPTS - 1)],
                                                    CUZK_G2_COMPRESSED_BYTES, NULL);
        bench_sink_fp(&p.x.c0);
    }
    bench_sink += bad;
}

static void run_g2_batch_affine(void *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        cuzk_g2s_jac_to_affine(S.out2, S.j2, NBATCH, S.scratch2);
        bench_sink_fp(&S.out2[i & (NBATCH - 1)].x.c0);
    }
}

static const bench_item k_items[] = {
    {"G1 add (jac)", setup_g1, run_g1_add, 1},
    {"G1 mixed add", setup_g1, run_g1_add_affine, 1},
    {"G1 dbl", setup_g1, run_g1_dbl, 1},
    {"G1 xyzz mixed add", setup_g1_xyzz, run_g1_xyzz_add_affine, 1},
    {"G1 scalar mul (var, GLV)", setup_g1, run_g1_mul_var, 1},
    {"G1 scalar mul (ct)", setup_g1, run_g1_mul, 1},
    {"G1 fixed-base mul", setup_fixed, run_g1_fixed_mul, 1},
    {"G2 add (jac)", setup_g2, run_g2_add, 1},
    {"G2 dbl", setup_g2, run_g2_dbl, 1},
    {"G2 scalar mul (var, GLS)", setup_g2, run_g2_mul_var, 1},
    {"G2 scalar mul (ct)", setup_g2, run_g2_mul, 1},
    {"G1 subgroup check", setup_pts, run_g1_in_subgroup, 1},
    {"G2 subgroup check", setup_pts, run_g2_in_subgroup, 1},
    {"G1 decompress (checked)", setup_enc1, run_g1_decompress, 1},
    {"G2 decompress (checked)", setup_enc2, run_g2_decompress, 1},
    {"G1 uncompressed decode (encoding only)", setup_unc, run_g1_unc_decode, 1},
    {"G1 on-curve check", setup_unc, run_g1_on_curve, 1},
    {"G2 uncompressed decode (encoding only)", setup_unc, run_g2_unc_decode, 1},
    {"G2 on-curve check", setup_unc, run_g2_on_curve, 1},
    {"G1 batch to affine (per point)", setup_batch1, run_g1_batch_affine, NBATCH},
    {"G2 batch to affine (per point)", setup_batch2, run_g2_batch_affine, NBATCH},
};

const bench_group bench_group_curve = {"curve", k_items, sizeof k_items / sizeof k_items[0]};
