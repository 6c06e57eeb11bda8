/*
 * cuzk/status.h — status codes and error reports shared by every layer.
 *
 * Every public cuzk function that can fail returns a cuzk_status. Functions that take bad
 * *data* (bytes from files, requests) also take an optional cuzk_error* (NULL allowed) that
 * receives the code and a human-readable message. Caller mistakes (NULL where a pointer is
 * required, impossible sizes) return CUZK_ERR_INVALID_ARG, never abort.
 *
 * Threading: cuzk_error is plain data owned by the caller; nothing here has global state.
 */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_status {
    CUZK_OK = 0,
    CUZK_ERR_INVALID_ARG = 1,      /* caller mistake: NULL pointer, impossible size */
    CUZK_ERR_LENGTH = 2,           /* encoded input has the wrong number of bytes */
    CUZK_ERR_NONCANONICAL = 3,     /* field element encoding >= modulus */
    CUZK_ERR_BAD_FLAGS = 4,        /* zcash flag bits wrong for this encoding */
    CUZK_ERR_BAD_INFINITY = 5,     /* infinity flag set but other bits non-zero */
    CUZK_ERR_NOT_ON_CURVE = 6,     /* coordinates do not satisfy the curve equation */
    CUZK_ERR_NOT_IN_SUBGROUP = 7,  /* point on curve but outside the prime-order subgroup */
    CUZK_ERR_NOT_SQUARE = 8,       /* no square root exists (e.g. compressed x with no y) */
    CUZK_ERR_NOT_INVERTIBLE = 9,   /* inverse of zero requested */
    CUZK_ERR_NOMEM = 10,           /* allocation failed */
    CUZK_ERR_IO = 11,              /* read/write/mmap failed */
    CUZK_ERR_FORMAT = 12,          /* file or message structure is malformed */
    CUZK_ERR_TRUNCATED = 13,       /* input ends before the structure it declares */
    CUZK_ERR_UNSATISFIED = 14,     /* witness does not satisfy the constraint system */
    CUZK_ERR_UNSUPPORTED = 15,     /* valid input this build does not handle */
    CUZK_ERR_CUDA = 16,            /* a CUDA call failed */
    CUZK_ERR_INTERNAL = 17,        /* an internal invariant failed; a bug */
    CUZK_ERR_INVALID_PROOF = 18,   /* a well-formed proof that does not verify */
    CUZK_ERR_CANCELLED = 19,       /* the caller cancelled the operation */
    CUZK_ERR_NOT_FOUND = 20,       /* no such job, circuit or entry (e.g. an unknown job id) */
    CUZK_ERR_UNAVAILABLE = 21,     /* the service is shutting down or cannot take work now */
    CUZK_STATUS_COUNT_
} cuzk_status;

#define CUZK_ERROR_MSG_MAX 256

typedef struct cuzk_error {
    cuzk_status code;
    char msg[CUZK_ERROR_MSG_MAX];
} cuzk_error;

/* Short stable name of a status ("CUZK_ERR_NOT_ON_CURVE"); never NULL. */
const char *cuzk_status_name(cuzk_status s);

/* One-line description of a status; never NULL. */
const char *cuzk_status_str(cuzk_status s);

/*
 * Records code + printf-style message into err (if err is non-NULL) and returns code, so
 * call sites can write `return cuzk_error_set(err, CUZK_ERR_LENGTH, "G1 needs %d bytes", 48);`.
 */
cuzk_status cuzk_error_set(cuzk_error *err, cuzk_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears err to CUZK_OK / empty message (no-op on NULL). */
void cuzk_error_clear(cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_STATUS_H */
