/*
 * utf8.c — UTF-8 validity checks, cutting and scrubbing (utf8.h).
 * Pure functions; thread-safe.
 */
#include "util/utf8.h"

#include <string.h>

size_t cuzk_utf8_seq_len(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n == 0)
        return 0;
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xbf; /* the allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0; /* overlong below U+0800 */
        else if (c == 0xed)
            hi = 0x9f; /* surrogates U+D800..DFFF */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90; /* overlong below U+10000 */
        else if (c == 0xf4)
            hi = 0x8f; /* above U+10FFFF */
    } else {
        return 0; /* continuation byte, C0/C1 (overlong ASCII), F5..FF */
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

bool cuzk_utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = cuzk_utf8_seq_len(s + i, n - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

size_t cuzk_utf8_cut(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    /* The last character starts at most 3 bytes back; find its lead byte. */
    for (size_t back = 1; back <= 4 && back <= n; back++) {
        unsigned c = p[n - back];
        if ((c & 0xc0) == 0x80)
            continue; /* a continuation byte: keep looking for the lead */
        size_t want = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        return want > back ? n - back : n;
    }
    return n;
}

size_t cuzk_utf8_scrub(char *s)
{
    size_t n = strlen(s), bad = 0;
    for (size_t i = 0; i < n;) {
        size_t k = cuzk_utf8_seq_len(s + i, n - i);
        if (k) {
            i += k;
        } else {
            s[i++] = '?';
            bad++;
        }
    }
    return bad;
}
