/*
 * log.c — the engine's log and clock (log.h).
 * Threading: reentrant; a message is formatted into a local buffer, then handed over in
 * one call, so lines of different threads do not interleave.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cuzk/prover.h"
#include "engine/log.h"
#include "engine/state.h"

double engine_now_ms(void) { return cuzk_prover_clock_ms(); }

void engine_log(const cuzk_engine *e, cuzk_log_level lvl, const char *fmt, ...)
{
    if (lvl > e->cfg.log_level)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->cfg.log) {
        e->cfg.log(e->cfg.log_ctx, lvl, msg);
        return;
    }
    static const char *names[] = {"error", "warn", "info", "debug"};
    fprintf(stderr, "cuzk engine [%s] %s\n", names[lvl], msg);
}
