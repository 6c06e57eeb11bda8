/*
 * sizes.c — byte sizes on the command line (sizes.h). Threading: pure.
 */
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "sizes.h"

bool cli_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    while (*end == ' ')
        end++;
    static const struct { const char *suffix; unsigned shift; } units[] = {
        {"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcasecmp(end, units[i].suffix) != 0)
            continue;
        if (v == 0 || v > (UINT64_MAX >> units[i].shift))
            return false;
        *out = (uint64_t)v << units[i].shift;
        return true;
    }
    return false;
}
