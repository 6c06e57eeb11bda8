/*
 * prio_gate.c — the priority gate of prio_gate.h: a held flag and a list of waiters, each
 * with its priority and arrival ticket, under one mutex; a release wakes every waiter and
 * only the best one (highest priority, lowest ticket) enters.
 * Threading: see prio_gate.h. Waiters live on their own threads' stacks while listed.
 */
#include "prover/prio_gate.h"

struct prio_gate_waiter {
    int priority;
    uint64_t ticket;
    prio_gate_waiter *next;
};

void prio_gate_init(prio_gate *g)
{
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->held = false;
    g->next_ticket = 0;
    g->waiters = NULL;
    g->n_waiters = 0;
}

void prio_gate_destroy(prio_gate *g)
{
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}

/* Whether w is the waiter that enters next (g->mu held). */
static bool is_best(const prio_gate *g, const prio_gate_waiter *w)
{
    for (const prio_gate_waiter *o = g->waiters; o; o = o->next)
        if (o != w && (o->priority > w->priority ||
                       (o->priority == w->priority && o->ticket < w->ticket)))
            return false;
    return true;
}

void prio_gate_acquire(prio_gate *g, int priority)
{
    pthread_mutex_lock(&g->mu);
    prio_gate_waiter me = {priority, g->next_ticket++, g->waiters};
    g->waiters = &me;
    g->n_waiters++;
    while (g->held || !is_best(g, &me))
        pthread_cond_wait(&g->cv, &g->mu);
    for (prio_gate_waiter **pp = &g->waiters; *pp; pp = &(*pp)->next)
        if (*pp == &me) {
            *pp = me.next;
            break;
        }
    g->n_waiters--;
    g->held = true;
    pthread_mutex_unlock(&g->mu);
}

void prio_gate_release(prio_gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->held = false;
    /* every waiter re-checks; only the best one enters (a handful of threads per device) */
    if (g->n_waiters)
        pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

unsigned prio_gate_waiting(prio_gate *g)
{
    pthread_mutex_lock(&g->mu);
    unsigned n = g->n_waiters;
    pthread_mutex_unlock(&g->mu);
    return n;
}
