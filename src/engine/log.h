/*
 * log.h — the engine's log (to cfg.log, else stderr, filtered by cfg.log_level), its
 * clock, and the bounded copy its messages are made with. Every engine file logs and
 * times through these, so they live apart from the engine's life (engine.c).
 * Threading: reentrant; the log callback is called from any engine thread.
 */
#ifndef CUZK_ENGINE_LOG_H
#define CUZK_ENGINE_LOG_H

#include <stddef.h>
#include <string.h>

#include "cuzk/engine.h"

void engine_log(const cuzk_engine *e, cuzk_log_level lvl, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Milliseconds on the prover's monotonic clock (cuzk_prover_clock_ms), so engine and
 * backend times line up in the timeline. */
double engine_now_ms(void);

/* Copies src into dst[cap], truncating (messages and names are best-effort text). */
static inline void engine_strcpy(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

#endif
