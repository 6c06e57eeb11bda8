/*
 * fuzz_c1.c — libFuzzer target for the PoRep C1 output reader and checker (cuzk/c1.h):
 * cuzk_c1_parse (filecoin-ffi's JSON or curio's base64 wrapper), then on an accepted input
 * cuzk_c1_check (Merkle paths, comm_r, labels, replica leaves) and
 * cuzk_c1_check_challenges, then the writer.
 *
 * Invariants (abort() on violation): every failure returns non-OK with err.code mirrored,
 * a message that starts "C1" for the parser, and *out left NULL; the checkers either pass
 * or fail with a message (never crash, never read out of bounds: ASan); an accepted
 * output written back (cuzk_c1_write_json) and read again gives a document that writes
 * the same bytes, so reader and writer agree on all the reader accepts (the parser reads
 * JSON with formats/json_dom.h, so it works without jansson). Single-threaded (one input
 * at a time).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/c1.h"
#include "cuzk/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

static void check_failure(cuzk_status st, const cuzk_error *e)
{
    CHECK(st != CUZK_OK && e->code == st && e->msg[0] != 0);
}

/* Writes c1 to a per-process scratch file and returns its bytes. */
static char *write_back(const cuzk_c1_output *c1, size_t *len)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/cuzk-fuzz-c1-%ld.json", (long)getpid());
    cuzk_error e;
    cuzk_status st = cuzk_c1_write_json(c1, path, &e);
    if (st != CUZK_OK) {
        check_failure(st, &e);
        return NULL;
    }
    char *txt = NULL;
    CHECK(cuzk_file_read_text(&txt, len, path, (size_t)1 << 28, NULL) == CUZK_OK);
    unlink(path);
    return txt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    cuzk_c1_output *c1 = (cuzk_c1_output *)(uintptr_t)1;
    cuzk_error e;
    cuzk_status st = cuzk_c1_parse((const char *)data, size, &c1, &e);
    if (st != CUZK_OK) {
        check_failure(st, &e);
        CHECK(c1 == NULL);
        CHECK(st == CUZK_ERR_UNSUPPORTED || st == CUZK_ERR_NOMEM ||
              strncmp(e.msg, "C1", 2) == 0);
        return 0;
    }
    CHECK(c1 != NULL);
    st = cuzk_c1_check(c1, &e);
    if (st != CUZK_OK)
        check_failure(st, &e);
    st = cuzk_c1_check_challenges(c1, &e);
    if (st != CUZK_OK)
        check_failure(st, &e);

    size_t n1 = 0, n2 = 0;
    char *a = write_back(c1, &n1);
    if (a) {
        cuzk_c1_output *again = NULL;
        CHECK(cuzk_c1_parse(a, n1, &again, &e) == CUZK_OK);
        char *b = write_back(again, &n2);
        CHECK(b && n1 == n2 && memcmp(a, b, n1) == 0);
        free(b);
        cuzk_c1_free(again);
        free(a);
    }
    cuzk_c1_free(c1);
    return 0;
}
