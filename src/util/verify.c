/*
 * verify.c — the failure report of the CUZK_VERIFY checks (see util/verify.h): one line on
 * stderr naming the place, the condition and what was wrong, then abort().
 * Threading: may run on any thread; writes to stderr only.
 */
#include "util/verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void cuzk_verify_fail(const char *file, int line, const char *func, const char *cond,
                      const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cuzk VERIFY failed at %s:%d in %s: %s (check: %s)\n", file, line, func,
            msg, cond);
    fflush(stderr);
    abort();
}
