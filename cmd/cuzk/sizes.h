/*
 * sizes.h — byte sizes on the command line ("2KiB", "32 GiB", "34359738368"), shared by
 * `cuzk inspect circuit` and `cuzk plan`. Threading: pure.
 */
#ifndef CUZK_CMD_SIZES_H
#define CUZK_CMD_SIZES_H

#include <stdbool.h>
#include <stdint.h>

/* A positive decimal count of bytes, optionally followed by B, KiB, MiB, GiB or TiB (any
 * case, spaces allowed before the unit); false for anything else, 0, or an overflow. */
bool cli_parse_size(const char *s, uint64_t *out);

#endif
