/*
 * keys.c — Groth16 key containers: allocation, deep copy, equality, the prepared verifying
 * key, the key shape a circuit implies, and the check that a key fits a circuit.
 *
 * Threading: keys are plain data; these functions touch only their arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/pairing.h"
#include "cuzk/poly.h"
#include "groth16/groth16_internal.h"

/* calloc of n elements of size sz that reports overflow and failure as NOMEM; n == 0
 * gives NULL (an empty vector). Zeroed memory is the point at infinity (see ec.h). */
static cuzk_status alloc_vec(void **p, size_t n, size_t sz, const char *what, cuzk_error *err)
{
    *p = NULL;
    if (n == 0)
        return CUZK_OK;
    if (n > SIZE_MAX / sz)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "groth16 key: %s of %zu points overflows",
                              what, n);
    *p = calloc(n, sz);
    if (!*p)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "groth16 key: cannot allocate %s (%zu points)",
                              what, n);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_alloc(cuzk_groth16_vk *vk, size_t n_ic, cuzk_error *err)
{
    if (!vk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 vk alloc: vk is NULL");
    void *p;
    cuzk_status st = alloc_vec(&p, n_ic, sizeof(cuzk_g1_affine), "ic", err);
    if (st != CUZK_OK)
        return st;
    vk->ic = p;
    vk->n_ic = n_ic;
    return CUZK_OK;
}

void cuzk_groth16_vk_free(cuzk_groth16_vk *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    vk->ic = NULL;
    vk->n_ic = 0;
}

cuzk_status cuzk_groth16_pk_alloc(cuzk_groth16_pk *pk, size_t n_ic, size_t n_h, size_t n_l,
                                  size_t n_a, size_t n_b, cuzk_error *err)
{
    if (!pk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 pk alloc: pk is NULL");
    pk->h = pk->l = pk->a = pk->b_g1 = NULL;
    pk->b_g2 = NULL;
    pk->vk.ic = NULL;
    pk->vk.n_ic = 0;
    pk->n_h = pk->n_l = pk->n_a = pk->n_b_g1 = pk->n_b_g2 = 0;
    void *h, *l, *a, *b1, *b2;
    cuzk_status st;
    if ((st = cuzk_groth16_vk_alloc(&pk->vk, n_ic, err)) != CUZK_OK)
        return st;
    st = alloc_vec(&h, n_h, sizeof(cuzk_g1_affine), "h", err);
    if (st == CUZK_OK) {
        pk->h = h;
        st = alloc_vec(&l, n_l, sizeof(cuzk_g1_affine), "l", err);
    }
    if (st == CUZK_OK) {
        pk->l = l;
        st = alloc_vec(&a, n_a, sizeof(cuzk_g1_affine), "a", err);
    }
    if (st == CUZK_OK) {
        pk->a = a;
        st = alloc_vec(&b1, n_b, sizeof(cuzk_g1_affine), "b_g1", err);
    }
    if (st == CUZK_OK) {
        pk->b_g1 = b1;
        st = alloc_vec(&b2, n_b, sizeof(cuzk_g2_affine), "b_g2", err);
    }
    if (st != CUZK_OK) {
        cuzk_groth16_pk_free(pk);
        return st;
    }
    pk->b_g2 = b2;
    pk->n_h = n_h;
    pk->n_l = n_l;
    pk->n_a = n_a;
    pk->n_b_g1 = pk->n_b_g2 = n_b;
    return CUZK_OK;
}

void cuzk_groth16_pk_free(cuzk_groth16_pk *pk)
{
    if (!pk)
        return;
    cuzk_groth16_vk_free(&pk->vk);
    free(pk->h);
    free(pk->l);
    free(pk->a);
    free(pk->b_g1);
    free(pk->b_g2);
    pk->h = pk->l = pk->a = pk->b_g1 = NULL;
    pk->b_g2 = NULL;
    pk->n_h = pk->n_l = pk->n_a = pk->n_b_g1 = pk->n_b_g2 = 0;
}

cuzk_status cuzk_groth16_vk_copy(cuzk_groth16_vk *dst, const cuzk_groth16_vk *src,
                                 cuzk_error *err)
{
    if (!dst || !src || (src->n_ic && !src->ic))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16 vk copy: NULL argument");
    cuzk_groth16_vk tmp = *src;
    cuzk_status st = cuzk_groth16_vk_alloc(&tmp, src->n_ic, err);
    if (st != CUZK_OK)
        return st;
    if (src->n_ic)
        memcpy(tmp.ic, src->ic, src->n_ic * sizeof *src->ic);
    *dst = tmp;
    return CUZK_OK;
}

static bool g1s_eq(const cuzk_g1_affine *a, const cuzk_g1_affine *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cuzk_g1_affine_eq(&a[i], &b[i]))
            return false;
    return true;
}

bool cuzk_groth16_vk_eq(const cuzk_groth16_vk *a, const cuzk_groth16_vk *b)
{
    return cuzk_g1_affine_eq(&a->alpha_g1, &b->alpha_g1) &&
           cuzk_g1_affine_eq(&a->beta_g1, &b->beta_g1) &&
           cuzk_g1_affine_eq(&a->delta_g1, &b->delta_g1) &&
           cuzk_g2_affine_eq(&a->beta_g2, &b->beta_g2) &&
           cuzk_g2_affine_eq(&a->gamma_g2, &b->gamma_g2) &&
           cuzk_g2_affine_eq(&a->delta_g2, &b->delta_g2) && a->n_ic == b->n_ic &&
           g1s_eq(a->ic, b->ic, a->n_ic);
}

bool cuzk_groth16_pk_eq(const cuzk_groth16_pk *a, const cuzk_groth16_pk *b)
{
    if (!cuzk_groth16_vk_eq(&a->vk, &b->vk) || a->n_h != b->n_h || a->n_l != b->n_l ||
        a->n_a != b->n_a || a->n_b_g1 != b->n_b_g1 || a->n_b_g2 != b->n_b_g2)
        return false;
    if (!g1s_eq(a->h, b->h, a->n_h) || !g1s_eq(a->l, b->l, a->n_l) ||
        !g1s_eq(a->a, b->a, a->n_a) || !g1s_eq(a->b_g1, b->b_g1, a->n_b_g1))
        return false;
    for (size_t i = 0; i < a->n_b_g2; i++)
        if (!cuzk_g2_affine_eq(&a->b_g2[i], &b->b_g2[i]))
            return false;
    return true;
}

cuzk_status cuzk_groth16_pvk_prepare(cuzk_groth16_pvk *pvk, const cuzk_groth16_vk *vk)
{
    if (!pvk || !vk || vk->n_ic == 0 || !vk->ic)
        return CUZK_ERR_INVALID_ARG;
    cuzk_pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    cuzk_g2_affine_neg(&pvk->neg_gamma_g2, &vk->gamma_g2);
    cuzk_g2_affine_neg(&pvk->neg_delta_g2, &vk->delta_g2);
    pvk->n_ic = vk->n_ic;
    pvk->ic = vk->ic;
    return CUZK_OK;
}

cuzk_status g16_shape_of(g16_shape *sh, const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                         bool append_input_rows, cuzk_error *err)
{
    if (!sh || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16: NULL argument");
    if (flavour != CUZK_GROTH16_BELLPERSON && flavour != CUZK_GROTH16_SNARKJS)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16: unknown key flavour %d",
                              (int)flavour);
    sh->n_inputs = (size_t)r1cs->n_public + 1;
    sh->rows = (size_t)r1cs->n_constraints + (append_input_rows ? sh->n_inputs : 0);
    cuzk_status st = cuzk_domain_log2_for(sh->rows, &sh->log2n);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "groth16: %zu constraint rows exceed the largest domain",
                              sh->rows);
    sh->n = (size_t)1 << sh->log2n;
    sh->n_l = r1cs->n_aux;
    if (flavour == CUZK_GROTH16_BELLPERSON) {
        uint32_t aux0 = 1 + r1cs->n_public;
        sh->n_h = sh->n - 1;
        /* every input is in A through its input row; aux only where the circuit uses it */
        sh->n_a = sh->n_inputs + cuzk_r1cs_density_count(r1cs, CUZK_R1CS_A, aux0, r1cs->n_vars);
        sh->n_b = cuzk_r1cs_density_count(r1cs, CUZK_R1CS_B, 0, r1cs->n_vars);
    } else {
        sh->n_h = sh->n;
        sh->n_a = sh->n_b = r1cs->n_vars;
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_pk_check_circuit(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                                          cuzk_error *err)
{
    if (!pk || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "groth16: NULL key or circuit");
    g16_shape sh;
    cuzk_status st = g16_shape_of(&sh, r1cs, pk->flavour, pk->append_input_rows, err);
    if (st != CUZK_OK)
        return st;
    if (pk->vk.n_ic != sh.n_inputs)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "key has %zu ic points but the circuit has %zu inputs (ONE "
                              "included)", pk->vk.n_ic, sh.n_inputs);
    if (pk->log2n != sh.log2n)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "key domain is 2^%u but the circuit's %zu rows need 2^%u",
                              pk->log2n, sh.rows, sh.log2n);
#define G16_CHECK_COUNT(field, want, name)                                                   \
    if (pk->field != (want))                                                                 \
        return cuzk_error_set(err, CUZK_ERR_FORMAT,                                          \
                              "key has %zu " name " points, the circuit needs %zu",          \
                              pk->field, (size_t)(want));
    G16_CHECK_COUNT(n_h, sh.n_h, "h")
    G16_CHECK_COUNT(n_l, sh.n_l, "l")
    G16_CHECK_COUNT(n_a, sh.n_a, "a")
    G16_CHECK_COUNT(n_b_g1, sh.n_b, "b_g1")
    G16_CHECK_COUNT(n_b_g2, sh.n_b, "b_g2")
#undef G16_CHECK_COUNT
    return CUZK_OK;
}
