/*
 * budget.c — the memory budget: one byte count for resident keys and partition working
 * sets. A reservation either fits now or is refused (what to evict to make it fit is the
 * scheduler's call, sched.c); callers wait on the engine's condition variables and retry,
 * so the reserved total never exceeds the budget (peak records the highest it reached).
 * A partition whose key and working set exceed the whole budget can never be admitted:
 * engine_budget_fits says so, and why, before anything waits for it.
 * Threading: every function runs with engine->mu held.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/plan.h"
#include "engine/budget.h"
#include "engine/state.h"

bool engine_budget_try_keep(cuzk_engine *e, uint64_t n, uint64_t keep)
{
    if (n > e->budget || keep > e->budget - n || e->used > e->budget - n - keep)
        return false;
    e->used += n;
    if (e->used > e->peak)
        e->peak = e->used;
    return true;
}

bool engine_budget_try(cuzk_engine *e, uint64_t n) { return engine_budget_try_keep(e, n, 0); }

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

/* Whether a partition of `part` bytes whose key still needs `key` bytes can ever be
 * admitted under the budget; else why, saying what is short (for the Filecoin kinds the
 * numbers are the exact counts' of cuzk/plan.h, which `cuzk plan` prints). */
bool engine_budget_fits(const cuzk_engine *e, const char *id, uint64_t part, uint64_t key,
                        char *m, size_t cap)
{
    if (part + key <= e->budget)
        return true;
    snprintf(m, cap,
             "%.48s does not fit the memory budget: its key and circuit (%.1f MiB) and one "
             "partition (%.1f MiB) need %.1f MiB, the budget is %.1f MiB: %.1f MiB short",
             id, key / 1048576.0, part / 1048576.0, (part + key) / 1048576.0,
             e->budget / 1048576.0, (part + key - e->budget) / 1048576.0);
    return false;
}
