/*
 * snarkjs_r1cs.c — reads circom/snarkjs .r1cs files (layout and wire order in
 * cuzk/formats.h) into a cuzk_r1cs through the r1cs builder.
 *
 * Wire k maps to variable k (circom's wire order is already ONE, public, aux); the builder
 * names variables by kind, so wire k is ONE, PUBLIC(k-1) or AUX(k-1-n_public). Memory use is
 * bounded by the input: rows and terms are appended only after their bytes are known to be
 * present, and the variable count is tied to the wire->label section's size.
 *
 * Threading: pure function of the input; no global state.
 */
#include <string.h>

#include "cuzk/formats.h"
#include "formats/binfile.h"
#include "formats/mapped_file.h"

#define R1CS_SEC_HEADER 1
#define R1CS_SEC_CONSTRAINTS 2
#define R1CS_SEC_WIRE2LABEL 3
#define R1CS_SEC_CUSTOM_GATES_LIST 4
#define R1CS_SEC_CUSTOM_GATES_USES 5
/* wireId (u32) + coefficient (n8 = 32 bytes) */
#define R1CS_TERM_BYTES (4u + CUZK_FR_BYTES)

static cuzk_status read_header(const binfile *bf, cuzk_snarkjs_r1cs_header *h, cuzk_error *err)
{
    bin_cursor c;
    cuzk_status st = binfile_section(bf, R1CS_SEC_HEADER, "header", true, &c, NULL, err);
    if (st != CUZK_OK)
        return st;
    size_t start = c.pos;
    uint32_t n8;
    if ((st = bin_read_u32(&c, &n8, "n8", err)) != CUZK_OK ||
        (st = bin_check_prime(&c, n8, CUZK_FR_MODULUS, CUZK_FR_LIMBS, "BLS12-381 r", err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_wires, "nWires", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_pub_out, "nPubOut", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_pub_in, "nPubIn", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_prv_in, "nPrvIn", err)) != CUZK_OK ||
        (st = bin_read_u64(&c, &h->n_labels, "nLabels", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_constraints, "nConstraints", err)) != CUZK_OK)
        return st;
    if (bin_left(&c) != 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "r1cs file: header section at offset %zu has %zu extra bytes",
                              start, bin_left(&c));
    uint64_t declared = 1u + (uint64_t)h->n_pub_out + h->n_pub_in + h->n_prv_in;
    if (declared > h->n_wires)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "r1cs file: header at offset %zu declares 1 + %u outputs + %u "
                              "public + %u private inputs = %llu wires, more than nWires = %u",
                              start, h->n_pub_out, h->n_pub_in, h->n_prv_in,
                              (unsigned long long)declared, h->n_wires);
    return CUZK_OK;
}

static cuzk_status check_sections(const binfile *bf, uint32_t n_wires, cuzk_error *err)
{
    bin_cursor c;
    bool found;
    cuzk_status st;
    static const uint32_t gates[2] = {R1CS_SEC_CUSTOM_GATES_LIST, R1CS_SEC_CUSTOM_GATES_USES};
    for (int i = 0; i < 2; i++) {
        if ((st = binfile_section(bf, gates[i], "custom gates", false, &c, &found, err)) !=
            CUZK_OK)
            return st;
        if (found)
            return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                                  "r1cs file: custom gates section (id %u) at offset %zu: "
                                  "PLONK-only, not provable with Groth16",
                                  gates[i], c.pos - 12);
    }
    if ((st = binfile_section(bf, R1CS_SEC_WIRE2LABEL, "wire->label", true, &c, NULL, err)) !=
        CUZK_OK)
        return st;
    if (bin_left(&c) != (uint64_t)n_wires * 8)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "r1cs file: wire->label section at offset %zu has %zu bytes, "
                              "expected 8 x nWires = %llu",
                              c.pos, bin_left(&c), (unsigned long long)n_wires * 8);
    return CUZK_OK;
}

/* Everything but the constraint bodies: container, version, header, custom gates, the
 * wire->label size (bounds nWires by the file size) and the constraints section's minimum
 * size (three u32 nTerms per constraint: bounds nConstraints). The loader and the
 * header-only reader both start here, so `cuzk inspect` accepts exactly the headers the
 * loader accepts. */
static cuzk_status r1cs_open(binfile *bf, cuzk_snarkjs_r1cs_header *h, const uint8_t *data,
                             size_t len, cuzk_error *err)
{
    cuzk_status st = binfile_open(bf, data, len, "r1cs", "r1cs", err);
    if (st != CUZK_OK)
        return st;
    if (bf->version != 1)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "r1cs file: version %u at offset 4 is not supported (need 1)",
                              bf->version);
    if ((st = read_header(bf, h, err)) != CUZK_OK ||
        (st = check_sections(bf, h->n_wires, err)) != CUZK_OK)
        return st;
    h->n_sections = bf->n_sections;
    bin_cursor c;
    if ((st = binfile_section(bf, R1CS_SEC_CONSTRAINTS, "constraints", true, &c, NULL, err)) !=
        CUZK_OK)
        return st;
    if ((uint64_t)h->n_constraints * 12 > bin_left(&c))
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "r1cs file truncated: the constraints section at offset %zu has "
                              "%zu bytes, too few for nConstraints = %u (12 bytes each at "
                              "least)",
                              c.pos, bin_left(&c), h->n_constraints);
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_r1cs_header_read(cuzk_snarkjs_r1cs_header *h, const uint8_t *data,
                                          size_t len, cuzk_error *err)
{
    if (!h)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs reader: header is NULL");
    binfile bf;
    cuzk_snarkjs_r1cs_header t;
    cuzk_status st = r1cs_open(&bf, &t, data, len, err);
    if (st == CUZK_OK)
        *h = t;
    return st;
}

static cuzk_status read_lc(bin_cursor *c, cuzk_r1cs_builder *b, cuzk_r1cs_matrix m,
                           uint32_t row, const cuzk_snarkjs_r1cs_header *h, uint32_t n_public,
                           cuzk_error *err)
{
    static const char names[] = "ABC";
    size_t at = c->pos;
    uint32_t n_terms;
    cuzk_status st = bin_read_u32(c, &n_terms, "nTerms", err);
    if (st != CUZK_OK)
        return st;
    /* n_terms * 36 < 2^38: no overflow in 64 bits. */
    if ((uint64_t)n_terms * R1CS_TERM_BYTES > bin_left(c))
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "r1cs file truncated: constraint %u LC %c at offset %zu declares "
                              "%u terms (%llu bytes), %zu left in the section",
                              row, names[m], at, n_terms,
                              (unsigned long long)n_terms * R1CS_TERM_BYTES, bin_left(c));
    for (uint32_t t = 0; t < n_terms; t++) {
        size_t term_at = c->pos;
        uint32_t wire = 0;
        const uint8_t *bytes = NULL;
        /* Both reads are within the bound checked above. */
        bin_read_u32(c, &wire, "wireId", err);
        bin_read_bytes(c, CUZK_FR_BYTES, &bytes, "coefficient", err);
        if (wire >= h->n_wires)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "r1cs file: constraint %u LC %c term %u at offset %zu uses "
                                  "wire %u, but nWires = %u",
                                  row, names[m], t, term_at, wire, h->n_wires);
        cuzk_fr coeff;
        if (cuzk_fr_from_bytes_le(&coeff, bytes) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                  "r1cs file: constraint %u LC %c term %u: coefficient at "
                                  "offset %zu is not below the field prime",
                                  row, names[m], t, term_at + 4);
        cuzk_r1cs_var v = wire == 0         ? CUZK_R1CS_VAR_ONE
                          : wire <= n_public ? CUZK_R1CS_VAR_PUBLIC(wire - 1)
                                             : CUZK_R1CS_VAR_AUX(wire - 1 - n_public);
        if ((st = cuzk_r1cs_builder_add_term(b, m, v, &coeff, err)) != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status read_constraints(const binfile *bf, cuzk_r1cs_builder *b,
                                    const cuzk_snarkjs_r1cs_header *h, uint32_t n_public,
                                    cuzk_error *err)
{
    bin_cursor c;
    cuzk_status st =
        binfile_section(bf, R1CS_SEC_CONSTRAINTS, "constraints", true, &c, NULL, err);
    if (st != CUZK_OK)
        return st;
    for (uint32_t i = 0; i < h->n_constraints; i++) {
        /* Three nTerms words must follow, so a huge nConstraints fails here before the
         * builder grows past what the section can describe. */
        if (bin_left(&c) < 12)
            return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                                  "r1cs file truncated: constraints section ends at offset %zu "
                                  "after %u of %u constraints",
                                  c.pos, i, h->n_constraints);
        if ((st = cuzk_r1cs_builder_begin_row(b, err)) != CUZK_OK)
            return st;
        for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
            if ((st = read_lc(&c, b, (cuzk_r1cs_matrix)m, i, h, n_public, err)) != CUZK_OK)
                return st;
    }
    if (bin_left(&c) != 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "r1cs file: constraints section has %zu bytes after the last "
                              "constraint, at offset %zu",
                              bin_left(&c), c.pos);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_from_snarkjs(cuzk_r1cs **out, cuzk_snarkjs_r1cs_header *header,
                                   const uint8_t *data, size_t len, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs reader: out is NULL");
    *out = NULL;
    binfile bf;
    cuzk_snarkjs_r1cs_header h;
    cuzk_status st = r1cs_open(&bf, &h, data, len, err);
    if (st != CUZK_OK)
        return st;

    uint32_t n_public = h.n_pub_out + h.n_pub_in; /* < nWires by read_header's check */
    cuzk_r1cs_builder *b;
    if ((st = cuzk_r1cs_builder_create(&b, err)) != CUZK_OK)
        return st;
    if ((st = cuzk_r1cs_builder_alloc_public(b, n_public, NULL, err)) != CUZK_OK ||
        (st = cuzk_r1cs_builder_alloc_aux(b, h.n_wires - 1 - n_public, NULL, err)) != CUZK_OK ||
        (st = read_constraints(&bf, b, &h, n_public, err)) != CUZK_OK) {
        cuzk_r1cs_builder_destroy(b);
        return st;
    }
    if ((st = cuzk_r1cs_builder_finish(b, out, err)) != CUZK_OK)
        return st;
    if (header)
        *header = h;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_load_snarkjs(cuzk_r1cs **out, cuzk_snarkjs_r1cs_header *header,
                                   const char *path, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs reader: out is NULL");
    *out = NULL;
    mapped_file mf;
    cuzk_status st = mapped_file_open(&mf, path, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_r1cs_from_snarkjs(out, header, mf.data, mf.len, err);
    if (st == CUZK_OK && (st = mapped_file_check(&mf, st, err)) != CUZK_OK) {
        cuzk_r1cs_destroy(*out); /* decoded from a file that changed under the read */
        *out = NULL;
    }
    st = mapped_file_check(&mf, st, err); /* a failed parse of a changed file says so */
    mapped_file_close(&mf);
    return st;
}
