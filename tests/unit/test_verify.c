/*
 * test_verify.c — the CUZK_VERIFY build's invariant checks fire (src/util/verify.h): each
 * case hands one public entry point a value that breaks a layer contract (an unreduced
 * field element, an off-curve point) in a forked child, which must die by SIGABRT after
 * printing "cuzk VERIFY failed" and the expected detail; the same call with valid data
 * must return normally. In builds without CUZK_VERIFY the checks compile to nothing and
 * every case is skipped (the `verify` stage of scripts/test.sh runs them).
 * Threading: single-threaded; one fork per case.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"
#include "cuzk/poly.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

/* ---- the harness -------------------------------------------------------------------- */

/* Inputs shared with the children (set up in the parent before each fork). */
static bool g_bad;                      /* the child breaks the contract */
static cuzk_g1_affine g_p1[4];
static cuzk_g2_affine g_p2[4];
static cuzk_fr g_k[4];
static unsigned char g_scratch[1u << 20];

/*
 * Runs fn(bad) in a child with stderr captured. bad: the child must abort with a VERIFY
 * report containing want; !bad: it must exit 0 (the valid call passes every check).
 */
static void run_case(void (*fn)(void), bool bad, const char *want)
{
#ifndef CUZK_VERIFY
    (void)fn;
    (void)bad;
    (void)want;
    skip();
#else
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    g_bad = bad;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fn();
        _exit(0);
    }
    close(fd[1]);
    char out[4096];
    size_t len = 0;
    ssize_t r;
    while (len + 1 < sizeof out && (r = read(fd[0], out + len, sizeof out - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = 0;
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!bad) {
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("valid call did not return normally: %s", out);
        return;
    }
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
        fail_msg("contract breach was not caught (want \"%s\"); child said: %s", want, out);
    if (!strstr(out, "cuzk VERIFY failed") || !strstr(out, want))
        fail_msg("VERIFY report lacks \"%s\": %s", want, out);
#endif
}

static void expect_verify(void (*fn)(void), const char *want)
{
    run_case(fn, false, NULL);
    run_case(fn, true, want);
}

/* An element whose limbs equal the modulus: the smallest unreduced value. */
static void fp_unreduced(cuzk_fp *a) { memcpy(a->l, CUZK_FP_MODULUS, sizeof a->l); }
static void fr_unreduced(cuzk_fr *a) { memcpy(a->l, CUZK_FR_MODULUS, sizeof a->l); }

static int setup(void **state)
{
    (void)state;
    cuzk_g1_jac j1, g1;
    cuzk_g2_jac j2, g2;
    cuzk_g1_jac_from_affine(&g1, &CUZK_G1_GENERATOR);
    cuzk_g2_jac_from_affine(&g2, &CUZK_G2_GENERATOR);
    for (int i = 0; i < 4; i++) {
        test_rand_fr(&g_k[i]);
        cuzk_g1_jac_mul_var(&j1, &g1, &g_k[i]);
        cuzk_g2_jac_mul_var(&j2, &g2, &g_k[i]);
        cuzk_g1_jac_to_affine(&g_p1[i], &j1);
        cuzk_g2_jac_to_affine(&g_p2[i], &j2);
    }
    return 0;
}

/* ---- ff ----------------------------------------------------------------------------- */

static void fps_inv_case(void)
{
    cuzk_fp a[3] = {CUZK_FP_ONE, CUZK_FP_ONE, CUZK_FP_ONE}, s[3];
    if (g_bad)
        fp_unreduced(&a[1]);
    cuzk_fps_inv_var(a, 3, s);
}

static void frs_inv_case(void)
{
    cuzk_fr a[3] = {CUZK_FR_ONE, CUZK_FR_ONE, CUZK_FR_ONE}, s[3];
    if (g_bad)
        fr_unreduced(&a[2]);
    cuzk_frs_inv_var(a, 3, s);
}

static void test_ff(void **state)
{
    (void)state;
    expect_verify(fps_inv_case, "element 1 of 3 is not reduced");
    expect_verify(frs_inv_case, "element 2 of 3 is not reduced");
}

/* ---- ec ----------------------------------------------------------------------------- */

static void g1_to_affine_case(void)
{
    cuzk_g1_jac j[2];
    cuzk_g1_affine r[2];
    cuzk_fp s[2];
    cuzk_g1_jac_from_affine(&j[0], &g_p1[0]);
    cuzk_g1_jac_from_affine(&j[1], &g_p1[1]);
    if (g_bad)
        cuzk_fp_add(&j[1].y, &j[1].y, &CUZK_FP_ONE);
    cuzk_g1s_jac_to_affine(r, j, 2, s);
}

static void g2_to_affine_case(void)
{
    cuzk_g2_jac j[2];
    cuzk_g2_affine r[2];
    cuzk_fp2 s[2];
    cuzk_g2_jac_from_affine(&j[0], &g_p2[0]);
    cuzk_g2_jac_from_affine(&j[1], &g_p2[1]);
    if (g_bad)
        fp_unreduced(&j[0].z.c1);
    cuzk_g2s_jac_to_affine(r, j, 2, s);
}

static void test_ec(void **state)
{
    (void)state;
    expect_verify(g1_to_affine_case, "point 1 of 2 is not on the curve");
    expect_verify(g2_to_affine_case, "point 0 of 2 has an unreduced coordinate");
}

/* ---- msm ---------------------------------------------------------------------------- */

static void g1_msm_case(void)
{
    cuzk_g1_affine p[4];
    memcpy(p, g_p1, sizeof p);
    if (g_bad)
        cuzk_fp_add(&p[3].x, &p[3].x, &CUZK_FP_ONE);
    cuzk_g1_jac r;
    size_t sz = cuzk_g1s_msm_scratch_size(4, 1);
    if (cuzk_g1s_msm(&r, p, g_k, 4, g_scratch, sz, NULL) != CUZK_OK)
        _exit(3);
}

static void g2_msm_scalar_case(void)
{
    cuzk_fr k[4];
    memcpy(k, g_k, sizeof k);
    if (g_bad)
        fr_unreduced(&k[2]);
    cuzk_g2_jac r;
    size_t sz = cuzk_g2s_msm_scratch_size(4, 1);
    if (cuzk_g2s_msm(&r, g_p2, k, 4, g_scratch, sz, NULL) != CUZK_OK)
        _exit(3);
}

static void g2_sum_bitmap_case(void)
{
    cuzk_g2_affine p[4];
    memcpy(p, g_p2, sizeof p);
    if (g_bad)
        fp_unreduced(&p[1].y.c0);
    uint64_t bm = 0xf;
    cuzk_g2_jac r;
    size_t sz = cuzk_g2s_sum_bitmap_scratch_size(4, 1);
    if (cuzk_g2s_sum_bitmap(&r, p, &bm, 4, g_scratch, sz, NULL) != CUZK_OK)
        _exit(3);
}

static void split_case(void)
{
    cuzk_fr k[4] = {CUZK_FR_ONE, CUZK_FR_ZERO, CUZK_FR_ONE, CUZK_FR_ONE}, tail[4];
    if (g_bad) /* R + r: the value one, unreduced (the split would put it in the tail) */
        for (int i = 0, c = 0; i < 4; i++) {
            unsigned __int128 t = (unsigned __int128)k[3].l[i] + CUZK_FR_MODULUS[i] + c;
            k[3].l[i] = (uint64_t)t;
            c = (int)(t >> 64);
        }
    uint64_t bm;
    uint32_t idx[4];
    size_t tl;
    if (cuzk_msm_split_scalars(&bm, tail, idx, &tl, NULL, k, 4) != CUZK_OK)
        _exit(3);
}

static void test_msm(void **state)
{
    (void)state;
    expect_verify(g1_msm_case, "point 3 of 4 is not on the curve");
    expect_verify(g2_msm_scalar_case, "scalar 2 of 4 is not reduced");
    expect_verify(g2_sum_bitmap_case, "point 1 of 4 has an unreduced coordinate");
    expect_verify(split_case, "scalar 3 of 4 is not reduced");
}

/* ---- poly, pairing, groth16 ----------------------------------------------------------- */

static void ntt_case(void)
{
    static cuzk_domain d;
    if (cuzk_domain_init_snarkjs(&d, 3) != CUZK_OK)
        _exit(3);
    cuzk_fr a[8];
    for (int i = 0; i < 8; i++)
        a[i] = g_k[i % 4];
    if (g_bad)
        fr_unreduced(&a[5]);
    if (cuzk_ntt(&d, a, NULL) != CUZK_OK)
        _exit(3);
}

static void pairing_case(void)
{
    cuzk_g2_affine q = g_p2[0];
    if (g_bad)
        cuzk_fp_add(&q.y.c1, &q.y.c1, &CUZK_FP_ONE);
    cuzk_fp12 f;
    cuzk_pairing(&f, &g_p1[0], &q);
}

static cuzk_groth16_pvk g_pvk;

static void groth16_verify_case(void)
{
    cuzk_fr x = CUZK_FR_ONE;
    if (g_bad)
        fr_unreduced(&x);
    cuzk_groth16_proof proof = {g_p1[0], g_p2[0], g_p1[1]};
    /* a random proof does not verify: what matters is that the call returns */
    (void)cuzk_groth16_verify(&g_pvk, &x, 1, &proof, NULL);
}

static void test_poly_pairing_groth16(void **state)
{
    (void)state;
    expect_verify(ntt_case, "element 5 of 8 is not reduced");
    expect_verify(pairing_case, "G2 input 0 of 1 is unreduced or not on the curve");

    tc_circuit c;
    assert_int_equal(tc_xcube(&c, 3), 0);
    assert_int_equal(c.r1cs->n_public, 1);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    assert_int_equal(cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_BELLPERSON, seed,
                                            NULL, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_groth16_pvk_prepare(&g_pvk, &vk), CUZK_OK);
    expect_verify(groth16_verify_case, "public input 0 of 1 is not reduced");
    cuzk_groth16_vk_free(&vk);
    cuzk_groth16_pk_free(&pk);
    tc_free(&c);
}

int main(void)
{
    test_rng_init("verify");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ff),
        cmocka_unit_test(test_ec),
        cmocka_unit_test(test_msm),
        cmocka_unit_test(test_poly_pairing_groth16),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
