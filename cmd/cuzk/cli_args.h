/*
 * cli_args.h — option values the CLI's commands share: sector sizes ("2KiB", "2 KiB",
 * "32GiB", "2048") and 64-bit seeds (decimal or 0x hex).
 * Threading: pure functions.
 */
#ifndef CUZK_CMD_CLI_ARGS_H
#define CUZK_CMD_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/* bytes, as cuzk_parse_size (util/size.h) reads them, and not 0; false otherwise. */
bool cli_parse_size(const char *s, uint64_t *out);
/* a whole decimal number or 0x and hex digits, fitting 64 bits; false otherwise. */
bool cli_parse_u64(const char *s, uint64_t *out);

#endif
