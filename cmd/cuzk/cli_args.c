/*
 * cli_args.c — see cli_args.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_args.h"

bool cli_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
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

bool cli_parse_u64(const char *s, uint64_t *out)
{
    int base = 10;
    if (!s)
        return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}
