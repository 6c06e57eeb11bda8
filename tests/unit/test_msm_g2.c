/*
 * test_msm_g2.c — the MSM / bitmap-sum / split checks of test_msm.c, run on G2 at smaller
 * sizes (G2 arithmetic is ~3x the cost of G1). Single-threaded except explicit pools.
 */
#include "cuzk/ec.h"

#define TG(name) cuzk_g2_##name
#define TGS(name) cuzk_g2s_##name
#define T_AFF cuzk_g2_affine
#define T_JAC cuzk_g2_jac
#define T_F cuzk_fp2
#define T_GEN CUZK_G2_GENERATOR
#define TEST_NAME "msm_g2"
#define T_MAX_N 640
#define T_SMALL_N 24
#define T_TUNED_N 96

#include "test_msm.c"
