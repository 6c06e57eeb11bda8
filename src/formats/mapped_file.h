/*
 * mapped_file.h — read-only memory mapping of a whole file, for the file readers.
 *
 * The mapping is private and read-only; the size comes from fstat on the open descriptor
 * (so it is the size of the file that was opened, not of whatever the path names later).
 * Caveat of mmap: if another process truncates the file while it is mapped, touching the
 * lost pages raises SIGBUS; cuzk only maps files it treats as immutable inputs.
 *
 * Threading: a mapped_file is owned by one thread; the mapped bytes may be read from any.
 */
#ifndef CUZK_FORMATS_MAPPED_FILE_H
#define CUZK_FORMATS_MAPPED_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef struct mapped_file {
    const uint8_t *data; /* NULL when len == 0 (an empty file maps nothing) */
    size_t len;
} mapped_file;

/* Opens and maps path, which must be a regular file (it is opened non-blocking, so a FIFO
 * is refused at once instead of waiting for a writer). Failures are CUZK_ERR_IO with the
 * path and the errno text. */
cuzk_status mapped_file_open(mapped_file *mf, const char *path, cuzk_error *err);
/* The same from an open descriptor (name is for messages only): the file the descriptor
 * refers to, whatever its path names now. fd stays open and the caller's. */
cuzk_status mapped_file_open_fd(mapped_file *mf, int fd, const char *name, cuzk_error *err);
void mapped_file_close(mapped_file *mf);

/* Drops the resident pages wholly inside [p, p+n), a range of mf that the caller has
 * consumed, so a reader that decodes a large file into its own copy does not hold the
 * file twice. The mapping stays valid: touching the range again re-reads the file. Only
 * for ranges of a mapped_file (never for other memory: it would be zeroed). */
void mapped_file_drop(const mapped_file *mf, const uint8_t *p, size_t n);

#endif
