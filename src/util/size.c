/*
 * size.c — the byte-size syntax of size.h.
 * Threading: pure function, no state.
 */
#include "util/size.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

bool cuzk_parse_size(const char *s, uint64_t *out)
{
    if (!s || !out)
        return false;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    while (*end == ' ' || *end == '\t')
        end++;
    static const struct {
        const char *unit;
        uint64_t mul;
    } units[] = {{"", 1},           {"B", 1},           {"KiB", 1ull << 10},
                 {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40},
                 {"KB", 1000},      {"MB", 1000000},    {"GB", 1000000000ull},
                 {"TB", 1000000000000ull}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(end, units[i].unit) == 0) {
            if (v > UINT64_MAX / units[i].mul)
                return false;
            *out = (uint64_t)v * units[i].mul;
            return true;
        }
    return false;
}
