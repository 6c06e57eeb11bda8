/*
 * prover_held.c — the keys and constraint systems a prover was given and not yet told to
 * forget (cuzk_prover_held in cuzk/prover.h). A backend may keep device copies of them,
 * known by the objects' addresses, so every object passed to a start must be forgotten,
 * by that same address, before it is freed: a copy forgotten by another address stays on
 * the device (an adopted key's 44 GiB, for good) and can be taken for a new object later
 * allocated at the old address. The list is the contract made visible, on every backend,
 * so that a CPU-only test can check its caller keeps it.
 */
#include <stdlib.h>

#include "prover/prover_internal.h"

void prover_held_init(prover_held *h)
{
    h->v = NULL;
    h->n = h->cap = 0;
    pthread_mutex_init(&h->mu, NULL);
}

void prover_held_destroy(prover_held *h)
{
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
    pthread_mutex_destroy(&h->mu);
}

void prover_held_add(prover_held *h, const void *obj)
{
    if (!obj)
        return;
    pthread_mutex_lock(&h->mu);
    for (size_t i = 0; i < h->n; i++)
        if (h->v[i] == obj)
            goto out;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 8;
        const void **nv = realloc(h->v, cap * sizeof *nv);
        if (!nv)
            goto out; /* only the count is off: nothing depends on the list but reports */
        h->v = nv;
        h->cap = cap;
    }
    h->v[h->n++] = obj;
out:
    pthread_mutex_unlock(&h->mu);
}

void prover_held_del(prover_held *h, const void *obj)
{
    if (!obj)
        return;
    pthread_mutex_lock(&h->mu);
    for (size_t i = 0; i < h->n; i++)
        if (h->v[i] == obj) {
            h->v[i] = h->v[--h->n];
            break;
        }
    pthread_mutex_unlock(&h->mu);
}

size_t cuzk_prover_held(cuzk_prover *p)
{
    if (!p)
        return 0;
    pthread_mutex_lock(&p->held.mu);
    size_t n = p->held.n;
    pthread_mutex_unlock(&p->held.mu);
    return n;
}
