/* test_rng.c — see test_rng.h. */
#include "test_rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_seed;
static uint64_t g_s[4];

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t test_rng_init(const char *test_name)
{
    const char *env = getenv("CUZK_TEST_SEED");
    if (env && *env) {
        g_seed = strtoull(env, NULL, 0);
    } else {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&g_seed, sizeof g_seed, 1, f) != 1) {
            fprintf(stderr, "cannot read /dev/urandom\n");
            abort();
        }
        fclose(f);
    }
    uint64_t x = g_seed;
    for (int i = 0; i < 4; i++)
        g_s[i] = splitmix(&x);
    fprintf(stderr, "[%s] CUZK_TEST_SEED=0x%016llx (set it to replay)\n",
            test_name ? test_name : "test", (unsigned long long)g_seed);
    return g_seed;
}

uint64_t test_rng_seed(void) { return g_seed; }

uint64_t test_rng_u64(void)
{
    uint64_t result = rotl(g_s[1] * 5, 7) * 9;
    uint64_t t = g_s[1] << 17;
    g_s[2] ^= g_s[0];
    g_s[3] ^= g_s[1];
    g_s[1] ^= g_s[2];
    g_s[0] ^= g_s[3];
    g_s[2] ^= t;
    g_s[3] = rotl(g_s[3], 45);
    return result;
}

void test_rng_bytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = test_rng_u64();
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(out + i, &v, k);
    }
}

size_t test_iters(size_t dflt)
{
    const char *env = getenv("CUZK_TEST_ITERS");
    if (env && *env) {
        unsigned long long v = strtoull(env, NULL, 0);
        if (v > 0)
            return (size_t)v;
    }
    return dflt;
}

void test_rand_fp(cuzk_fp *r)
{
    uint64_t l[CUZK_FP_LIMBS];
    do {
        for (int i = 0; i < CUZK_FP_LIMBS; i++)
            l[i] = test_rng_u64();
        l[5] &= (1ULL << 61) - 1; /* p < 2^381 */
    } while (cuzk_fp_from_canonical(r, l) != CUZK_OK);
}

void test_rand_fr(cuzk_fr *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++)
            l[i] = test_rng_u64();
        l[3] &= (1ULL << 63) - 1; /* r < 2^255 */
    } while (cuzk_fr_from_canonical(r, l) != CUZK_OK);
}

void test_rand_fp2(cuzk_fp2 *r)
{
    test_rand_fp(&r->c0);
    test_rand_fp(&r->c1);
}
