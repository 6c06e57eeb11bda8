/*
 * oracle.h — shared pieces of the @noble/curves oracle checker (test_noble_oracle.c and
 * the oracle_*.c files it dispatches to).
 *
 * The checker reads the vector file written by noble_vectors.mjs (format in its header),
 * one line at a time; each line is split into an op name and hex fields, and handed to the
 * area that knows the op (fields, G1, G2, pairing). An area decodes the fields, computes
 * the same value through the cuzk API (through every entry point that should agree), and
 * reports each disagreement with the line number, the op and both values.
 *
 * Threading: single-threaded; the report counters are process globals.
 */
#ifndef CUZK_ORACLE_H
#define CUZK_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pairing.h"
#include "cuzk/status.h"

#define ORACLE_MAX_FIELDS 8

/* One parsed vector line. f[0] is the op name, f[1..n-1] its fields. */
typedef struct oracle_line {
    unsigned long lineno;
    const char *op;
    char *f[ORACLE_MAX_FIELDS];
    int n;
} oracle_line;

/* Records one disagreement: prints op, line, what differed, got vs expected. */
void oracle_fail(const oracle_line *ln, const char *what, const char *got, const char *want);
/* Records a malformed vector line (a generator/checker mismatch, also a failure). */
void oracle_bad_vector(const oracle_line *ln, const char *why);

/* Hex helpers. hex_to_bytes needs exactly 2*n hex digits. */
bool oracle_hex_to_bytes(uint8_t *out, size_t n, const char *hex);
void oracle_bytes_to_hex(char *out, const uint8_t *in, size_t n);  /* out: 2n+1 chars */

/* Canonical BE hex <-> cuzk elements; the *_parse functions report a bad vector and
 * return false on malformed or non-canonical input. Hex buffers: ORACLE_HEX(bytes). */
#define ORACLE_HEX(nbytes) (2 * (nbytes) + 1)
bool oracle_fp_parse(cuzk_fp *r, const oracle_line *ln, const char *hex);
bool oracle_fr_parse(cuzk_fr *r, const oracle_line *ln, const char *hex);
bool oracle_fp2_parse(cuzk_fp2 *r, const oracle_line *ln, const char *hex);
void oracle_fp_hex(char *out, const cuzk_fp *a);
void oracle_fr_hex(char *out, const cuzk_fr *a);
void oracle_fp2_hex(char *out, const cuzk_fp2 *a);   /* c0 || c1 */
void oracle_fp12_hex(char *out, const cuzk_fp12 *a); /* c0.c0.c0 ... c1.c2.c1 */

/* Compares a computed hex value with the expected one; reports and returns false if they
 * differ. */
bool oracle_expect(const oracle_line *ln, const char *what, const char *got, const char *want);

/* Areas: each checks the line and returns true if the op is theirs, else false. */
bool oracle_ff(const oracle_line *ln);
bool oracle_g1(const oracle_line *ln);
bool oracle_g2(const oracle_line *ln);
bool oracle_pairing(const oracle_line *ln);

#endif
