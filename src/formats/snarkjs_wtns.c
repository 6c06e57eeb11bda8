/*
 * snarkjs_wtns.c — reads snarkjs .wtns witness files (layout in cuzk/formats.h) into
 * Montgomery cuzk_fr arrays, in wire order.
 *
 * The count is validated against the values section's exact size before any caller sizes a
 * buffer from it, so a short file can never ask for a large allocation.
 *
 * Threading: pure functions of the input; no global state.
 */
#include <stdlib.h>

#include "cuzk/formats.h"
#include "formats/binfile.h"
#include "formats/mapped_file.h"

#define WTNS_SEC_HEADER 1
#define WTNS_SEC_VALUES 2

/* Opens the container, checks version/header/values size; *values spans the values. */
static cuzk_status wtns_open(const uint8_t *data, size_t len, uint32_t *n_witness,
                             bin_cursor *values, cuzk_error *err)
{
    binfile bf;
    cuzk_status st = binfile_open(&bf, data, len, "wtns", "wtns", err);
    if (st != CUZK_OK)
        return st;
    if (bf.version != 2)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "wtns file: version %u at offset 4 is not supported (need 2)",
                              bf.version);
    bin_cursor c;
    if ((st = binfile_section(&bf, WTNS_SEC_HEADER, "header", true, &c, NULL, err)) != CUZK_OK)
        return st;
    size_t start = c.pos;
    uint32_t n8;
    if ((st = bin_read_u32(&c, &n8, "n8", err)) != CUZK_OK ||
        (st = bin_check_prime(&c, n8, CUZK_FR_MODULUS, CUZK_FR_LIMBS, "BLS12-381 r", err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, n_witness, "nWitness", err)) != CUZK_OK)
        return st;
    if (bin_left(&c) != 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "wtns file: header section at offset %zu has %zu extra bytes",
                              start, bin_left(&c));
    if ((st = binfile_section(&bf, WTNS_SEC_VALUES, "values", true, values, NULL, err)) !=
        CUZK_OK)
        return st;
    uint64_t need = (uint64_t)*n_witness * CUZK_FR_BYTES;
    if (bin_left(values) != need)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "wtns file: values section at offset %zu has %zu bytes, expected "
                              "nWitness x 32 = %llu",
                              values->pos, bin_left(values), (unsigned long long)need);
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_wtns_count(const uint8_t *data, size_t len, uint32_t *n_witness,
                                    cuzk_error *err)
{
    if (!n_witness)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "wtns reader: n_witness is NULL");
    bin_cursor values;
    uint32_t n = 0;
    cuzk_status st = wtns_open(data, len, &n, &values, err);
    *n_witness = st == CUZK_OK ? n : 0;
    return st;
}

cuzk_status cuzk_frs_from_snarkjs_wtns(cuzk_fr *out, size_t n, const uint8_t *data, size_t len,
                                       cuzk_error *err)
{
    if (!out && n)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "wtns reader: out is NULL");
    bin_cursor c;
    uint32_t n_witness;
    cuzk_status st = wtns_open(data, len, &n_witness, &c, err);
    if (st != CUZK_OK)
        return st;
    if (n != n_witness)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "wtns file has %u values, the output has room for %zu", n_witness,
                              n);
    for (uint32_t i = 0; i < n_witness; i++) {
        size_t at = c.pos;
        const uint8_t *p = NULL;
        bin_read_bytes(&c, CUZK_FR_BYTES, &p, "value", err); /* size checked in wtns_open */
        if (cuzk_fr_from_bytes_le(&out[i], p) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                  "wtns file: value %u at offset %zu is not below the field "
                                  "prime",
                                  i, at);
    }
    return CUZK_OK;
}

cuzk_status cuzk_frs_load_snarkjs_wtns(cuzk_fr **out, uint32_t *n, const char *path,
                                       cuzk_error *err)
{
    if (!out || !n)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "wtns reader: NULL argument");
    *out = NULL;
    *n = 0;
    mapped_file mf;
    cuzk_status st = mapped_file_open(&mf, path, err);
    if (st != CUZK_OK)
        return st;
    uint32_t count;
    if ((st = cuzk_snarkjs_wtns_count(mf.data, mf.len, &count, err)) == CUZK_OK) {
        cuzk_fr *v = malloc((size_t)(count ? count : 1) * sizeof *v);
        if (!v) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "wtns reader: no memory for %u values",
                                count);
        } else if ((st = cuzk_frs_from_snarkjs_wtns(v, count, mf.data, mf.len, err)) !=
                   CUZK_OK) {
            free(v);
        } else if ((st = mapped_file_check(&mf, st, err)) != CUZK_OK) {
            free(v); /* decoded from a file that changed under the read */
        } else {
            *out = v;
            *n = count;
        }
    }
    st = mapped_file_check(&mf, st, err); /* a failed parse of a changed file says so */
    mapped_file_close(&mf);
    return st;
}
