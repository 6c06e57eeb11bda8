/*
 * zkey_writer.c — the test-only .zkey writer (see zkey_writer.h).
 * Threading: pure functions on caller memory.
 */
#include "zkey_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_limbs(sw_buf *b, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sw_put_u64(b, l[i]);
}

static void put_g1(sw_buf *b, const cuzk_g1_affine *p)
{
    uint8_t x[CUZK_G1_UNCOMPRESSED_BYTES];
    cuzk_g1_affine_to_mont_le(x, p);
    sw_put(b, x, sizeof x);
}

static void put_g2(sw_buf *b, const cuzk_g2_affine *p)
{
    uint8_t x[CUZK_G2_UNCOMPRESSED_BYTES];
    cuzk_g2_affine_to_mont_le(x, p);
    sw_put(b, x, sizeof x);
}

/* Double Montgomery: the stored integer is coef * R^2 mod r, i.e. the Montgomery limbs of
 * the field element whose canonical value is coef's Montgomery limbs (coef * R). */
void zkey_put_coef(sw_buf *b, const cuzk_fr *c)
{
    cuzk_fr t;
    if (cuzk_fr_from_canonical(&t, c->l) != CUZK_OK) {
        fprintf(stderr, "zkey_writer: unreduced coefficient\n");
        abort();
    }
    put_limbs(b, t.l, CUZK_FR_LIMBS);
}

typedef struct section {
    uint32_t id;
    sw_buf body;
} section;

sw_buf zkey_write(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    section s[9];
    memset(s, 0, sizeof s);
    uint32_t ids[9] = {1, 2, 4, 3, 9, 8, 5, 6, 7};
    for (int i = 0; i < 9; i++)
        s[i].id = ids[i];
    sw_put_u32(&s[0].body, 1);
    sw_buf *h = &s[1].body;
    sw_put_u32(h, 48);
    put_limbs(h, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
    sw_put_u32(h, 32);
    put_limbs(h, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    sw_put_u32(h, r1cs->n_vars);
    sw_put_u32(h, r1cs->n_public);
    sw_put_u32(h, (uint32_t)1 << pk->log2n);
    put_g1(h, &pk->vk.alpha_g1);
    put_g1(h, &pk->vk.beta_g1);
    put_g2(h, &pk->vk.beta_g2);
    put_g2(h, &pk->vk.gamma_g2);
    put_g1(h, &pk->vk.delta_g1);
    put_g2(h, &pk->vk.delta_g2);
    sw_buf *c = &s[2].body;
    uint32_t nc = 0;
    for (int m = 0; m < 2; m++)
        nc += (uint32_t)r1cs->m[m].nnz;
    nc += r1cs->n_public + 1;
    sw_put_u32(c, nc);
    for (uint32_t m = 0; m < 2; m++)
        for (uint64_t i = 0; i < r1cs->n_constraints; i++)
            for (uint64_t k = r1cs->m[m].row_ptr[i]; k < r1cs->m[m].row_ptr[i + 1]; k++) {
                sw_put_u32(c, m);
                sw_put_u32(c, (uint32_t)i);
                sw_put_u32(c, r1cs->m[m].col[k]);
                zkey_put_coef(c, cuzk_r1cs_coeff(r1cs, (cuzk_r1cs_matrix)m, k));
            }
    for (uint32_t v = 0; v <= r1cs->n_public; v++) {
        sw_put_u32(c, 0);
        sw_put_u32(c, (uint32_t)r1cs->n_constraints + v);
        sw_put_u32(c, v);
        zkey_put_coef(c, &CUZK_FR_ONE);
    }
    for (size_t i = 0; i < pk->vk.n_ic; i++)
        put_g1(&s[3].body, &pk->vk.ic[i]);
    for (size_t i = 0; i < pk->n_h; i++)
        put_g1(&s[4].body, &pk->h[i]);
    for (size_t i = 0; i < pk->n_l; i++)
        put_g1(&s[5].body, &pk->l[i]);
    for (size_t i = 0; i < pk->n_a; i++)
        put_g1(&s[6].body, &pk->a[i]);
    for (size_t i = 0; i < pk->n_b_g1; i++)
        put_g1(&s[7].body, &pk->b_g1[i]);
    for (size_t i = 0; i < pk->n_b_g2; i++)
        put_g2(&s[8].body, &pk->b_g2[i]);
    sw_buf f = {0};
    sw_put(&f, "zkey", 4);
    sw_put_u32(&f, 1);
    sw_put_u32(&f, 9);
    for (int i = 0; i < 9; i++) {
        sw_put_section(&f, s[i].id, &s[i].body);
        free(s[i].body.p);
    }
    return f;
}
