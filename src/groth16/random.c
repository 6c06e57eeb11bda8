/*
 * random.c — the CSPRNG behind proving blinders, dev setup and batch verification:
 * getrandom(2) from the kernel, no user-space state.
 * Threading: thread-safe (each call is an independent system call).
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "groth16/groth16_internal.h"

cuzk_status g16_random_bytes(void *buf, size_t n, cuzk_error *err)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return cuzk_error_set(err, CUZK_ERR_IO, "getrandom failed (errno %d)", errno);
        }
        p += got;
        n -= (size_t)got;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fr_random(cuzk_fr *r, cuzk_error *err)
{
    if (!r)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_fr_random: r is NULL");
    /* 512 random bits reduced mod r: the bias is below 2^-256 */
    uint8_t wide[64];
    cuzk_status st = g16_random_bytes(wide, sizeof wide, err);
    if (st == CUZK_OK)
        cuzk_fr_from_bytes_wide_le(r, wide);
    explicit_bzero(wide, sizeof wide);
    return st;
}
