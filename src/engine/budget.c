/*
 * budget.c — the memory budget: one byte count for resident keys and partition working
 * sets. A reservation either fits now (possibly after evicting idle keys, least recently
 * used first) or is refused; callers wait on the engine's condition variables and retry,
 * so the reserved total never exceeds the budget (peak records the highest it reached).
 * Threading: every function runs with engine->mu held.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/plan.h"
#include "engine/budget.h"
#include "engine/srs.h"
#include "engine/state.h"

bool engine_budget_try(cuzk_engine *e, uint64_t n)
{
    for (;;) {
        if (n <= e->budget && e->used <= e->budget - n) {
            e->used += n;
            if (e->used > e->peak)
                e->peak = e->used;
            return true;
        }
        if (!engine_srs_evict_one(e, n - (e->budget - (e->used < e->budget ? e->used : e->budget))))
            return false;
    }
}

void engine_budget_release(cuzk_engine *e, uint64_t n)
{
    e->used = n > e->used ? 0 : e->used - n;
    pthread_cond_broadcast(&e->dispatch_cv);
}

uint64_t engine_budget_auto(uint64_t margin)
{
    /* cuzk's fallback when detection fails; the rule is the plan's (cuzk/plan.h), so
     * `cuzk plan` and the engine agree */
    uint64_t total = cuzk_plan_host_memory();
    return cuzk_plan_budget(total ? total : 256ull << 30, margin);
}
