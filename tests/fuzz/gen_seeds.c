/*
 * gen_seeds.c — writes the seed corpus of every fuzz target, one folder per target
 * (<root>/seeds-<target>, see gen_seeds.h). Here: fuzz_point_decode, one file per valid
 * and invalid class of G1/G2 encodings (valid points and infinity in every form, each flag
 * error, stray infinity bits, non-canonical coordinates, off-curve, off-subgroup), so the
 * fuzzer starts past the early rejections; gen_seeds_files.c writes the file readers'
 * seeds. Run at build time: gen_seeds <root>. Single-threaded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/ec.h"
#include "gen_seeds.h"

static const char *g_dir;

const char *seeds_dir(const char *root, const char *target)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/seeds-%s", root, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    return path;
}

void seeds_put(const char *dir, const char *name, const void *b, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

void seeds_require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "gen_seeds: %s\n", what);
        exit(1);
    }
}

static void put(const char *name, const uint8_t *b, size_t n) { seeds_put(g_dir, name, b, n); }

/* p as 48 big-endian bytes. */
static void p_be(uint8_t out[48])
{
    for (int i = 0; i < 48; i++)
        out[47 - i] = (uint8_t)(CUZK_FP_MODULUS[i / 8] >> (8 * (i % 8)));
}

/* Writes src with byte idx XORed by mask. */
static void put_flip(const char *name, const uint8_t *src, size_t n, size_t idx, uint8_t mask)
{
    uint8_t t[192];
    memcpy(t, src, n);
    t[idx] ^= mask;
    put(name, t, n);
}

/* Writes src with the 48 bytes at off replaced by v (flag bits of byte 0 kept). */
static void put_coord(const char *name, const uint8_t *src, size_t n, size_t off,
                      const uint8_t v[48])
{
    uint8_t t[192];
    memcpy(t, src, n);
    memcpy(t + off, v, 48);
    if (off == 0)
        t[0] |= (uint8_t)(src[0] & 0xe0);
    put(name, t, n);
}

/* Writes an all-zero encoding of n bytes with byte 0 = b0 and byte idx |= extra. */
static void put_zero(const char *name, size_t n, uint8_t b0, size_t idx, uint8_t extra)
{
    uint8_t t[192] = {0};
    t[0] = b0;
    t[idx] |= extra;
    put(name, t, n);
}

static void g1_seeds(void)
{
    uint8_t c[48], u[96], m[96], t[96], pb[48], pl[48];
    cuzk_g1_affine g = CUZK_G1_GENERATOR, g2;
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, &g);
    cuzk_g1_jac_dbl(&j, &j);
    cuzk_g1_jac_to_affine(&g2, &j);
    p_be(pb);
    for (int i = 0; i < 48; i++)
        pl[i] = pb[47 - i];

    cuzk_g1_affine_to_zcash_compressed(c, &g);
    cuzk_g1_affine_to_zcash_uncompressed(u, &g);
    cuzk_g1_affine_to_mont_le(m, &g);
    put("g1_c_gen", c, 48);
    put("g1_u_gen", u, 96);
    put("g1_m_gen", m, 96);
    put_flip("g1_c_neg_gen", c, 48, 0, 0x20);
    cuzk_g1_affine_to_zcash_compressed(t, &g2);
    put("g1_c_2gen", t, 48);
    cuzk_g1_affine_to_zcash_uncompressed(t, &g2);
    put("g1_u_2gen", t, 96);

    put_zero("g1_c_inf", 48, 0xc0, 0, 0);
    put_zero("g1_u_inf", 96, 0x40, 0, 0);
    put_zero("g1_m_inf", 96, 0x00, 0, 0);          /* also (0,0) for the zcash decoders */
    put_zero("g1_c_inf_sign", 48, 0xe0, 0, 0);
    put_zero("g1_c_inf_stray", 48, 0xc0, 47, 1);
    put_zero("g1_c_x0_order3", 48, 0x80, 0, 0);    /* (0, +-2) has order 3 */

    put_flip("g1_c_noflag", c, 48, 0, 0x80);
    put_flip("g1_u_sign", u, 96, 0, 0x20);
    put_flip("g1_u_compflag", u, 96, 0, 0x80);
    put_coord("g1_c_x_eq_p", c, 48, 0, pb);
    put_coord("g1_u_y_eq_p", u, 96, 48, pb);
    put_flip("g1_u_y_flip", u, 96, 95, 1);
    put_flip("g1_m_x_flip", m, 96, 0, 1);
    put_coord("g1_m_x_eq_p", m, 96, 0, pl);
    put("g1_c_len47", c, 47);
    uint8_t long_u[97] = {0};
    memcpy(long_u, u, 96);
    put("g1_u_len97", long_u, 97);
}

static void g2_seeds(void)
{
    uint8_t c[96], u[192], m[192], t[192], pb[48];
    cuzk_g2_affine g = CUZK_G2_GENERATOR, g2;
    cuzk_g2_jac j;
    cuzk_g2_jac_from_affine(&j, &g);
    cuzk_g2_jac_dbl(&j, &j);
    cuzk_g2_jac_to_affine(&g2, &j);
    p_be(pb);

    cuzk_g2_affine_to_zcash_compressed(c, &g);
    cuzk_g2_affine_to_zcash_uncompressed(u, &g);
    cuzk_g2_affine_to_mont_le(m, &g);
    put("g2_c_gen", c, 96);
    put("g2_u_gen", u, 192);
    put("g2_m_gen", m, 192);
    put_flip("g2_c_neg_gen", c, 96, 0, 0x20);
    cuzk_g2_affine_to_zcash_compressed(t, &g2);
    put("g2_c_2gen", t, 96);
    cuzk_g2_affine_to_zcash_uncompressed(t, &g2);
    put("g2_u_2gen", t, 192);

    put_zero("g2_c_inf", 96, 0xc0, 0, 0);
    put_zero("g2_u_inf", 192, 0x40, 0, 0);
    put_zero("g2_m_inf", 192, 0x00, 0, 0);
    put_zero("g2_c_inf_stray", 96, 0xc0, 60, 0x10);
    put_zero("g2_c_x_1", 96, 0x80, 95, 1);         /* x = 1 */

    /* On E' but (almost surely) outside G2: the first x = 1 + k*u with a square
     * x^3 + 4(u+1), no cofactor clearing. */
    cuzk_g2_affine off;
    cuzk_fp2 rhs, b;
    cuzk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    cuzk_fp_from_u64(&off.x.c0, 1);
    for (uint64_t k = 1;; k++) {
        cuzk_fp_from_u64(&off.x.c1, k);
        cuzk_fp2_sqr(&rhs, &off.x);
        cuzk_fp2_mul(&rhs, &rhs, &off.x);
        cuzk_fp2_add(&rhs, &rhs, &b);
        if (cuzk_fp2_sqrt(&off.y, &rhs))
            break;
    }
    cuzk_g2_affine_to_zcash_compressed(t, &off);
    put("g2_c_off_subgroup", t, 96);
    cuzk_g2_affine_to_zcash_uncompressed(t, &off);
    put("g2_u_off_subgroup", t, 192);

    put_flip("g2_c_noflag", c, 96, 0, 0x80);
    put_flip("g2_u_sign", u, 192, 0, 0x20);
    put_coord("g2_c_xc0_eq_p", c, 96, 48, pb);
    put_coord("g2_u_yc1_eq_p", u, 192, 96, pb);
    put_flip("g2_u_y_flip", u, 192, 191, 1);
    put_flip("g2_m_y_flip", m, 192, 100, 1);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <root dir>\n", argv[0]);
        return 2;
    }
    /* seeds_dir's buffer is reused by the next call: keep our own copy */
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s", seeds_dir(argv[1], "fuzz_point_decode"));
    g_dir = dir;
    g1_seeds();
    g2_seeds();
    seeds_files(argv[1]);
    seeds_c1(argv[1]);
    return 0;
}
