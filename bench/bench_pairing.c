/*
 * bench_pairing.c — `cuzk bench pairing`: the Miller loop, the final exponentiation, a full
 * pairing, and a 4-pair product check, the shape of one Groth16 verification
 * (e(-A,B) e(alpha,beta) e(IC,gamma) e(C,delta) == 1).
 *
 * Inputs cycle through NPAIRS random pairs. The 4-pair check is built as
 * e(P1,Q1) e(-P1,Q1) e(P2,Q2) e(-P2,Q2), whose product is 1, so the check takes its
 * accepting path like a valid proof does; setup verifies that it does accept.
 *
 * Threading: single-threaded; the state below is rebuilt by each item's setup function.
 */
#include "bench.h"

#define NPAIRS 8   /* power of two: cycled with i & (NPAIRS - 1) */

static struct {
    cuzk_g1_affine p[NPAIRS];
    cuzk_g2_affine q[NPAIRS];
    cuzk_fp12 f[NPAIRS];
    cuzk_g1_affine cp[4];
    cuzk_g2_affine cq[4];
} S;

static bool setup_pairs(void)
{
    for (int i = 0; i < NPAIRS; i++) {
        bench_rand_g1_affine(&S.p[i]);
        bench_rand_g2_affine(&S.q[i]);
    }
    return true;
}

static bool setup_final_exp(void)
{
    setup_pairs();
    for (int i = 0; i < NPAIRS; i++)
        cuzk_pairing_multi_miller_loop(&S.f[i], &S.p[i], &S.q[i], 1);
    return true;
}

static bool setup_check(void)
{
    setup_pairs();
    S.cp[0] = S.p[0];
    cuzk_g1_affine_neg(&S.cp[1], &S.p[0]);
    S.cq[0] = S.cq[1] = S.q[0];
    S.cp[2] = S.p[1];
    cuzk_g1_affine_neg(&S.cp[3], &S.p[1]);
    S.cq[2] = S.cq[3] = S.q[1];
    return cuzk_pairing_check(S.cp, S.cq, 4);
}

static void sink_fp12(const cuzk_fp12 *f) { bench_sink_fp(&f->c0.c0.c0); }

static void run_miller(void *ctx, uint64_t n)
{
    cuzk_fp12 f;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = i & (NPAIRS - 1);
        cuzk_pairing_multi_miller_loop(&f, &S.p[j], &S.q[j], 1);
        sink_fp12(&f);
    }
}

static void run_final_exp(void *ctx, uint64_t n)
{
    cuzk_fp12 r;
    for (uint64_t i = 0; i < n; i++) {
        cuzk_pairing_final_exp(&r, &S.f[i & (NPAIRS - 1)]);
        sink_fp12(&r);
    }
}

static void run_pairing(void *ctx, uint64_t n)
{
    cuzk_fp12 r;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = i & (NPAIRS - 1);
        cuzk_pairing(&r, &S.p[j], &S.q[j]);
        sink_fp12(&r);
    }
}

static void run_check(void *ctx, uint64_t n)
{
    uint64_t ok = 0;
    for (uint64_t i = 0; i < n; i++)
        ok += cuzk_pairing_check(S.cp, S.cq, 4);
    bench_sink += ok;
}

static const bench_item k_items[] = {
    {"Miller loop", setup_pairs, run_miller, 1},
    {"final exp", setup_final_exp, run_final_exp, 1},
    {"pairing", setup_pairs, run_pairing, 1},
    {"pairing_check (4 pairs)", setup_check, run_check, 1},
};

const bench_group bench_group_pairing = {"pairing", k_items,
                                         sizeof k_items / sizeof k_items[0]};
