/*
 * fuzz_wtns.c — libFuzzer target for the snarkjs .wtns reader (cuzk_snarkjs_wtns_count,
 * cuzk_frs_from_snarkjs_wtns).
 *
 * Each input is parsed as it is, behind a synthesized prefix ("wtns", version 2,
 * nSections = first byte % 4), and as byte edits / a truncation of an embedded valid
 * snarkjs file (run_patched). Invariants (abort() on violation so libFuzzer keeps the
 * input):
 *   - failures are non-OK with err.code mirrored and a message;
 *   - an accepted count satisfies 32 * count <= size (nothing is sized from an unchecked
 *     count), decoding into exactly count slots succeeds or reports a non-canonical value,
 *     decoding into a wrong-sized buffer is CUZK_ERR_LENGTH;
 *   - the first decoded value re-encodes to 32 bytes that occur in the input (values are
 *     decoded from the file, not invented).
 * Single-threaded.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"

#include "fuzz_template.h"
#include "fuzz_templates.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static void run(const uint8_t *data, size_t size)
{
    cuzk_error err;
    memset(&err, 0, sizeof err);
    uint32_t n = 12345;
    cuzk_status st = cuzk_snarkjs_wtns_count(data, size, &n, &err);
    if (st != CUZK_OK) {
        CHECK(n == 0 && err.code == st && err.msg[0] != '\0');
        return;
    }
    CHECK((uint64_t)n * 32 <= size);
    cuzk_fr *v = malloc(((size_t)n + 1) * sizeof *v);
    CHECK(v);
    CHECK(cuzk_frs_from_snarkjs_wtns(v, (size_t)n + 1, data, size, &err) == CUZK_ERR_LENGTH);
    st = cuzk_frs_from_snarkjs_wtns(v, n, data, size, &err);
    CHECK(st == CUZK_OK || (st == CUZK_ERR_NONCANONICAL && err.code == st));
    if (st == CUZK_OK && n > 0) {
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &v[0]);
        bool found = false;
        for (size_t i = 0; !found && i + 32 <= size; i++)
            found = memcmp(data + i, b, 32) == 0;
        CHECK(found);
    }
    free(v);
}


static uint8_t k_template_bytes[sizeof k_wtns_template / 2];
static fuzz_template g_template = {k_wtns_template, k_template_bytes, 0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    fuzz_run_patched(&g_template, run, data, size);
    if (size == 0)
        return 0;
    uint8_t *buf = malloc(12 + size - 1);
    CHECK(buf);
    memcpy(buf, "wtns\x02\x00\x00\x00", 8);
    buf[8] = data[0] % 4;
    buf[9] = buf[10] = buf[11] = 0;
    memcpy(buf + 12, data + 1, size - 1);
    run(buf, 12 + size - 1);
    free(buf);
    return 0;
}
