/*
 * bench_inputs.c — random benchmark inputs: a xoshiro256** generator (seeded through
 * splitmix64 so any 64-bit seed gives a well-mixed state) and random field elements and
 * group points built on it.
 *
 * Benchmarks need varied operands (some code paths, e.g. inversions and sqrt, depend on the
 * value) but not cryptographic randomness. Threading: one global generator; single-threaded.
 */
#include "bench.h"

static uint64_t g_s[4];

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void bench_rng_seed(uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        /* splitmix64 step; constants from Steele, Lea, Flood (2014). */
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        g_s[i] = z ^ (z >> 31);
    }
}

static uint64_t bench_rng_u64(void)
{
    uint64_t r = rotl(g_s[1] * 5, 7) * 9;
    uint64_t t = g_s[1] << 17;
    g_s[2] ^= g_s[0];
    g_s[3] ^= g_s[1];
    g_s[1] ^= g_s[2];
    g_s[0] ^= g_s[3];
    g_s[2] ^= t;
    g_s[3] = rotl(g_s[3], 45);
    return r;
}

/* Rejection sampling below the modulus: mask to its bit length, retry if >= m. The top
 * limbs of p (0x1a01...) and r (0x73ed...) are over half their power of two, so a retry
 * happens less than half the time. */
void bench_rand_fp(cuzk_fp *r)
{
    uint64_t l[CUZK_FP_LIMBS];
    do {
        for (int i = 0; i < CUZK_FP_LIMBS; i++)
            l[i] = bench_rng_u64();
        l[CUZK_FP_LIMBS - 1] &= (1ULL << (381 - 320)) - 1;
    } while (cuzk_fp_from_canonical(r, l) != CUZK_OK);
}

void bench_rand_fr(cuzk_fr *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++)
            l[i] = bench_rng_u64();
        l[CUZK_FR_LIMBS - 1] &= (1ULL << (255 - 192)) - 1;
    } while (cuzk_fr_from_canonical(r, l) != CUZK_OK);
}

void bench_rand_g1(cuzk_g1_jac *r)
{
    cuzk_g1_jac g;
    cuzk_fr k;
    cuzk_g1_jac_from_affine(&g, &CUZK_G1_GENERATOR);
    bench_rand_fr(&k);
    cuzk_g1_jac_mul_var(r, &g, &k);
}

void bench_rand_g2(cuzk_g2_jac *r)
{
    cuzk_g2_jac g;
    cuzk_fr k;
    cuzk_g2_jac_from_affine(&g, &CUZK_G2_GENERATOR);
    bench_rand_fr(&k);
    cuzk_g2_jac_mul_var(r, &g, &k);
}

void bench_rand_g1_affine(cuzk_g1_affine *r)
{
    cuzk_g1_jac p;
    bench_rand_g1(&p);
    cuzk_g1_jac_to_affine(r, &p);
}

void bench_rand_g2_affine(cuzk_g2_affine *r)
{
    cuzk_g2_jac p;
    bench_rand_g2(&p);
    cuzk_g2_jac_to_affine(r, &p);
}
