/*
 * gen_seeds.h — shared pieces of the fuzz seed generator (gen_seeds.c: point encodings;
 * gen_seeds_files.c: whole files for the file readers). The generator writes one folder
 * per fuzz target, <root>/seeds-<target>, which the smoke tests and scripts/test.sh pass
 * to the target as its seed corpus. Single-threaded; exits 1 on any failure.
 */
#ifndef CUZK_FUZZ_GEN_SEEDS_H
#define CUZK_FUZZ_GEN_SEEDS_H

#include <stddef.h>
#include <stdint.h>

/* Creates <root>/seeds-<target> (if needed) and returns its path (static storage, valid
 * until the next call). */
const char *seeds_dir(const char *root, const char *target);

/* Writes n bytes to <dir>/<name>; exits 1 on error. */
void seeds_put(const char *dir, const char *name, const void *b, size_t n);

/* Exits 1 with the message when ok is false (a seed that its reader refuses). */
void seeds_require(int ok, const char *what);

/* Seeds for fuzz_r1cs, fuzz_wtns, fuzz_params, fuzz_zkey, fuzz_json: valid files, each
 * read back through its reader before it is written. */
void seeds_files(const char *root);

/* Seeds for fuzz_c1: synthetic 2 KiB C1 outputs, plain and base64-wrapped (gen_seeds_c1.c). */
void seeds_c1(const char *root);

#endif
