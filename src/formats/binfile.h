/*
 * binfile.h — the iden3 "binfile" section container shared by snarkjs .r1cs, .wtns, .zkey
 * and .ptau, and a bounds-checked little-endian cursor for reading section bodies.
 *
 *   offset 0  magic[4]   ("r1cs", "wtns", "zkey", "ptau")
 *          4  u32 LE     version
 *          8  u32 LE     nSections
 *         12  nSections x { u32 LE id, u64 LE size, size bytes of body }
 *
 * Sections may come in any order (circom writes the r1cs constraints before the header);
 * readers look them up by id. Every offset in an error message is absolute (from the start
 * of the file), so a report can be matched against `xxd` output directly.
 *
 * Threading: pure functions over caller memory; no global state.
 */
#ifndef CUZK_FORMATS_BINFILE_H
#define CUZK_FORMATS_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

/* Reads [pos, end) of base; kind ("r1cs", ...) and section name only label messages. */
typedef struct bin_cursor {
    const uint8_t *base;
    size_t pos, end;
    const char *kind;
} bin_cursor;

cuzk_status bin_read_u32(bin_cursor *c, uint32_t *v, const char *field, cuzk_error *err);
cuzk_status bin_read_u64(bin_cursor *c, uint64_t *v, const char *field, cuzk_error *err);
/* *p points at n bytes inside the buffer; the cursor moves past them. */
cuzk_status bin_read_bytes(bin_cursor *c, uint64_t n, const uint8_t **p, const char *field,
                           cuzk_error *err);
static inline size_t bin_left(const bin_cursor *c) { return c->end - c->pos; }

typedef struct binfile {
    const uint8_t *data;
    size_t len;
    const char *kind;
    uint32_t version;
    uint32_t n_sections;
} binfile;

/* Checks the magic and walks the whole section table: every section must lie inside the
 * buffer and the last one must end exactly at len. The version is returned for the
 * caller to judge. */
cuzk_status binfile_open(binfile *bf, const uint8_t *data, size_t len, const char magic[4],
                         const char *kind, cuzk_error *err);

/* Looks up the section with this id. Two sections with the id: CUZK_ERR_FORMAT. Missing:
 * CUZK_ERR_FORMAT if required, otherwise OK with *found = false. On success body spans
 * the section. */
cuzk_status binfile_section(const binfile *bf, uint32_t id, const char *name, bool required,
                            bin_cursor *body, bool *found, cuzk_error *err);

/* Reads an n8-byte little-endian prime from c and compares it with the expected modulus
 * (limbs little-endian). A mismatch is CUZK_ERR_UNSUPPORTED, "wrong curve: field prime is
 * 0x... (expected <name>)". */
cuzk_status bin_check_prime(bin_cursor *c, uint32_t n8, const uint64_t *limbs, size_t nlimbs,
                            const char *name, cuzk_error *err);

#endif
