/*
 * cli_args.c — see cli_args.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_args.h"
#include "util/util_export.h"

bool cli_parse_size(const char *s, uint64_t *out)
{
    /* one syntax everywhere (util/size.h); a size on these command lines is never 0 */
    uint64_t v;
    if (!s || !isdigit((unsigned char)*s) || !cuzk_parse_size(s, &v) || v == 0)
        return false;
    *out = v;
    return true;
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
