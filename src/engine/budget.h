/*
 * budget.h — the memory budget (budget.c): one byte count for resident keys and partition
 * working sets: counters only, it calls nothing (sched.h's dependency order). Internal to
 * src/engine.
 * Threading: engine_budget_try and engine_budget_release run with engine->mu held.
 */
#ifndef CUZK_ENGINE_BUDGET_H
#define CUZK_ENGINE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

bool engine_budget_try(cuzk_engine *e, uint64_t n);     /* n bytes if they fit now */
/* n bytes if they fit with `keep` bytes still free after them (the latency reserve). */
bool engine_budget_try_keep(cuzk_engine *e, uint64_t n, uint64_t keep);
void engine_budget_release(cuzk_engine *e, uint64_t n);
/* Whether a partition of `part` bytes whose key still needs `key` bytes can ever be
 * admitted under the budget; else false with why (id: the key's circuit id). */
bool engine_budget_fits(const cuzk_engine *e, const char *id, uint64_t part, uint64_t key,
                        char *why, size_t cap);
/* The budget when none is configured: the host's memory less margin (cuzk/plan.h's rule). */
uint64_t engine_budget_auto(uint64_t margin);

#endif
