/*
 * prio_gate.h — a lock handed over by priority: the device mutex of a prover (the CUDA
 * backend's kernel work, the CPU backend's pool). Internal to src/prover (tests include it
 * from src/).
 *
 * Model: at most one holder. When it is released, the waiter of the highest priority
 * enters next; waiters of one priority enter in arrival order (a ticket taken on arrival).
 * A newcomer does not overtake a waiter of its own or a higher priority, so a waiting
 * CRITICAL partition enters before a LOW one that was prepared first. Nothing is
 * preempted: the holder keeps the gate until it releases it.
 * Threading: every call is thread-safe; acquire blocks; release must be called by the
 * holder.
 */
#ifndef CUZK_PROVER_PRIO_GATE_H
#define CUZK_PROVER_PRIO_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct prio_gate_waiter prio_gate_waiter;

typedef struct prio_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool held;
    uint64_t next_ticket;
    prio_gate_waiter *waiters; /* unordered; the best is searched (a handful at most) */
    unsigned n_waiters;
} prio_gate;

void prio_gate_init(prio_gate *g);
void prio_gate_destroy(prio_gate *g);
/* Blocks until the gate is this caller's (higher priority first, FIFO within one). */
void prio_gate_acquire(prio_gate *g, int priority);
void prio_gate_release(prio_gate *g);
/* Threads waiting now (tests line waiters up with it before a release). */
unsigned prio_gate_waiting(prio_gate *g);

#ifdef __cplusplus
}
#endif

#endif
