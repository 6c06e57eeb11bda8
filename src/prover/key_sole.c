/*
 * key_sole.c — keys whose points live only in a prover's device memory (prover_internal.h
 * key_sole, cuzk_prover_key_adopt in cuzk/prover.h). A 32 GiB PoRep key is 44 GiB of
 * points: with it resident on the GPU, its host copy is what keeps a WindowPoSt key (68
 * GiB) from being held beside it on a 128 GiB host, so the engine frees that copy once
 * the device holds the key, and this file makes sure nothing reads it after.
 */
#include <string.h>

#include "prover/prover_internal.h"

void key_sole_init(key_sole *ks)
{
    memset(ks, 0, sizeof *ks);
    pthread_mutex_init(&ks->mu, NULL);
    pthread_cond_init(&ks->cv, NULL);
}

void key_sole_destroy(key_sole *ks)
{
    pthread_cond_destroy(&ks->cv);
    pthread_mutex_destroy(&ks->mu);
}

static int find(const key_sole *ks, const cuzk_groth16_pk *pk)
{
    for (int i = 0; i < ks->n; i++)
        if (ks->pk[i] == pk)
            return i;
    return -1;
}

bool key_sole_has(cuzk_prover *p, const cuzk_groth16_pk *pk)
{
    pthread_mutex_lock(&p->sole.mu);
    bool has = find(&p->sole, pk) >= 0;
    pthread_mutex_unlock(&p->sole.mu);
    return has;
}

bool key_points_present(const cuzk_groth16_pk *pk)
{
    return (pk->h || !pk->n_h) && (pk->l || !pk->n_l) && (pk->a || !pk->n_a) &&
           (pk->b_g1 || !pk->n_b_g1) && (pk->b_g2 || !pk->n_b_g2);
}

const cuzk_groth16_pk *key_sole_read_begin(cuzk_prover *p, const cuzk_groth16_pk *pk,
                                           cuzk_groth16_pk *view, key_sole_reader *r)
{
    pthread_mutex_lock(&p->sole.mu);
    const cuzk_groth16_pk *use = pk;
    r->pk = NULL;
    if (find(&p->sole, pk) >= 0) {
        *view = *pk;
        view->h = view->l = view->a = view->b_g1 = NULL;
        view->b_g2 = NULL;
        use = view;
    } else {
        r->pk = pk;
        r->next = p->sole.readers;
        p->sole.readers = r;
    }
    pthread_mutex_unlock(&p->sole.mu);
    return use;
}

void key_sole_read_end(cuzk_prover *p, key_sole_reader *r)
{
    if (!r->pk)
        return;
    pthread_mutex_lock(&p->sole.mu);
    for (key_sole_reader **pp = &p->sole.readers; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    pthread_cond_broadcast(&p->sole.cv);
    pthread_mutex_unlock(&p->sole.mu);
}

static bool being_read(const key_sole *ks, const cuzk_groth16_pk *pk)
{
    for (const key_sole_reader *r = ks->readers; r; r = r->next)
        if (r->pk == pk)
            return true;
    return false;
}

void key_sole_forget(cuzk_prover *p, const cuzk_groth16_pk *pk)
{
    pthread_mutex_lock(&p->sole.mu);
    int i = find(&p->sole, pk);
    if (i >= 0)
        p->sole.pk[i] = p->sole.pk[--p->sole.n];
    pthread_mutex_unlock(&p->sole.mu);
}

cuzk_status cuzk_prover_key_adopt(cuzk_prover *p, const cuzk_groth16_pk *pk, cuzk_error *err)
{
    if (!p || !pk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover key adopt: NULL argument");
    if (!p->ops->key_adopt)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s keeps no key in device memory", p->desc);
    pthread_mutex_lock(&p->sole.mu);
    cuzk_status st = CUZK_OK;
    if (find(&p->sole, pk) < 0) {
        if (p->sole.n == KEY_SOLE_MAX)
            st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: %d keys are adopted already",
                                p->desc, KEY_SOLE_MAX);
        else if ((st = p->ops->key_adopt(p, pk, err)) == CUZK_OK)
            p->sole.pk[p->sole.n++] = pk;
    }
    /* a self-check that began before the adoption may be scanning the host points */
    while (st == CUZK_OK && being_read(&p->sole, pk))
        pthread_cond_wait(&p->sole.cv, &p->sole.mu);
    pthread_mutex_unlock(&p->sole.mu);
    return st;
}
