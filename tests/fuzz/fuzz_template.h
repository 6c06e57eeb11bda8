/*
 * fuzz_template.h — the fuzz targets' second reading of an input: as edits of a valid
 * template file, so the fuzzer reaches the deep paths (and the accepting one) without a
 * seed corpus. Byte 0 bit 0 asks for a truncation to (bytes 1-2) mod (template length + 1);
 * then each 3-byte group (u16 offset, value) overwrites one template byte. The result is
 * copied into an exact-size block so ASan sees any read past its end.
 * Single-threaded (libFuzzer calls one input at a time); the decoded template is cached in
 * the caller's buffer.
 */
#ifndef CUZK_FUZZ_TEMPLATE_H
#define CUZK_FUZZ_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct fuzz_template {
    const char *hex;  /* lower-case hex of the valid file */
    uint8_t *bytes;   /* room for strlen(hex) / 2 bytes */
    size_t len;       /* 0 until decoded */
} fuzz_template;

static void fuzz_run_patched(fuzz_template *t, void (*run)(const uint8_t *, size_t),
                             const uint8_t *data, size_t size)
{
    if (!t->len) {
        for (const char *h = t->hex; h[0] && h[1]; h += 2) {
            unsigned hi = (unsigned)h[0], lo = (unsigned)h[1];
            hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
            lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
            t->bytes[t->len++] = (uint8_t)(hi << 4 | lo);
        }
    }
    if (size < 3 || !t->len)
        return;
    size_t len = t->len;
    if (data[0] & 1)
        len = ((size_t)data[1] | (size_t)data[2] << 8) % (t->len + 1);
    uint8_t *buf = malloc(t->len);
    uint8_t *exact = malloc(len ? len : 1);
    if (!buf || !exact)
        abort();
    memcpy(buf, t->bytes, t->len);
    for (size_t i = 3; i + 3 <= size; i += 3)
        buf[((size_t)data[i] | (size_t)data[i + 1] << 8) % t->len] = data[i + 2];
    memcpy(exact, buf, len);
    run(exact, len);
    free(exact);
    free(buf);
}

#endif
