/*
 * status.c — names, descriptions and the error recorder for cuzk_status.
 * Pure functions; thread-safe (no shared state).
 */
#include "cuzk/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/utf8.h"

static const struct {
    const char *name;
    const char *desc;
} k_status[CUZK_STATUS_COUNT_] = {
    [CUZK_OK] = {"CUZK_OK", "success"},
    [CUZK_ERR_INVALID_ARG] = {"CUZK_ERR_INVALID_ARG", "invalid argument"},
    [CUZK_ERR_LENGTH] = {"CUZK_ERR_LENGTH", "wrong input length"},
    [CUZK_ERR_NONCANONICAL] = {"CUZK_ERR_NONCANONICAL", "non-canonical field element"},
    [CUZK_ERR_BAD_FLAGS] = {"CUZK_ERR_BAD_FLAGS", "invalid encoding flags"},
    [CUZK_ERR_BAD_INFINITY] = {"CUZK_ERR_BAD_INFINITY", "malformed point-at-infinity encoding"},
    [CUZK_ERR_NOT_ON_CURVE] = {"CUZK_ERR_NOT_ON_CURVE", "point not on curve"},
    [CUZK_ERR_NOT_IN_SUBGROUP] = {"CUZK_ERR_NOT_IN_SUBGROUP", "point not in prime-order subgroup"},
    [CUZK_ERR_NOT_SQUARE] = {"CUZK_ERR_NOT_SQUARE", "no square root exists"},
    [CUZK_ERR_NOT_INVERTIBLE] = {"CUZK_ERR_NOT_INVERTIBLE", "element not invertible"},
    [CUZK_ERR_NOMEM] = {"CUZK_ERR_NOMEM", "out of memory"},
    [CUZK_ERR_IO] = {"CUZK_ERR_IO", "I/O error"},
    [CUZK_ERR_FORMAT] = {"CUZK_ERR_FORMAT", "malformed input"},
    [CUZK_ERR_TRUNCATED] = {"CUZK_ERR_TRUNCATED", "input truncated"},
    [CUZK_ERR_UNSATISFIED] = {"CUZK_ERR_UNSATISFIED", "constraint system not satisfied"},
    [CUZK_ERR_UNSUPPORTED] = {"CUZK_ERR_UNSUPPORTED", "unsupported"},
    [CUZK_ERR_CUDA] = {"CUZK_ERR_CUDA", "CUDA error"},
    [CUZK_ERR_INTERNAL] = {"CUZK_ERR_INTERNAL", "internal error"},
    [CUZK_ERR_INVALID_PROOF] = {"CUZK_ERR_INVALID_PROOF", "proof does not verify"},
    [CUZK_ERR_CANCELLED] = {"CUZK_ERR_CANCELLED", "cancelled"},
    [CUZK_ERR_NOT_FOUND] = {"CUZK_ERR_NOT_FOUND", "not found"},
    [CUZK_ERR_UNAVAILABLE] = {"CUZK_ERR_UNAVAILABLE", "unavailable"},
};

const char *cuzk_status_name(cuzk_status s)
{
    if ((unsigned)s >= CUZK_STATUS_COUNT_ || !k_status[s].name)
        return "CUZK_ERR_UNKNOWN";
    return k_status[s].name;
}

const char *cuzk_status_str(cuzk_status s)
{
    if ((unsigned)s >= CUZK_STATUS_COUNT_ || !k_status[s].desc)
        return "unknown status";
    return k_status[s].desc;
}

cuzk_status cuzk_error_set(cuzk_error *err, cuzk_status code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* A message cut to the buffer must not end inside a character: it goes to gRPC
         * clients, whose protobuf strings must be valid UTF-8. */
        if (n >= (int)sizeof err->msg)
            err->msg[cuzk_utf8_cut(err->msg, sizeof err->msg - 1)] = '\0';
    }
    return code;
}

void cuzk_error_clear(cuzk_error *err)
{
    if (err) {
        err->code = CUZK_OK;
        err->msg[0] = '\0';
    }
}
