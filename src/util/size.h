/*
 * size.h — one syntax for byte sizes on every command line and in every config file:
 * `cuzk submit --sector-size`, `cuzk gen-c1`, `cuzk inspect circuit`, the bench size lists,
 * cuzkd's memory options. A decimal count, optional blanks, an optional unit:
 *   B (or none) = 1; KiB, MiB, GiB, TiB = 2^10 .. 2^40; KB, MB, GB, TB = 10^3 .. 10^12;
 * units in any letter case ("32GiB", "32 gib", "2048"). Nothing may follow the unit.
 * Threading: pure function.
 */
#ifndef CUZK_UTIL_SIZE_H
#define CUZK_UTIL_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* Parses s into *out (bytes). False for anything else: no digits, an unknown unit,
 * trailing text, or a value past 2^64 - 1. Leading blanks are skipped. */
bool cuzk_parse_size(const char *s, uint64_t *out);

#endif
