/*
 * mapped_file.c — see mapped_file.h. POSIX open/fstat/mmap; the descriptor is closed as
 * soon as the mapping exists (the mapping keeps the file alive).
 * Threading: no shared state; strerror_r keeps the errno text thread-safe.
 */
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED); implies POSIX 2008 */

#include "formats/mapped_file.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static cuzk_status io_error(cuzk_error *err, const char *what, const char *path, int e)
{
    char buf[128];
    if (strerror_r(e, buf, sizeof buf) != 0)
        strcpy(buf, "unknown error");
    return cuzk_error_set(err, CUZK_ERR_IO, "%s %s: %s (errno %d)", what, path, buf, e);
}

cuzk_status mapped_file_open_fd(mapped_file *mf, int fd, const char *path, cuzk_error *err)
{
    if (!mf || !path || fd < 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "mapped file: NULL argument");
    mf->data = NULL;
    mf->len = 0;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return io_error(err, "cannot stat", path, errno);
    if (!S_ISREG(st.st_mode))
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: not a regular file", path);
    if (st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: size %lld out of range", path,
                              (long long)st.st_size);
    size_t len = (size_t)st.st_size;
    if (len == 0) /* mmap rejects length 0; the parsers report the empty input */
        return CUZK_OK;
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return io_error(err, "cannot mmap", path, errno);
    mf->data = p;
    mf->len = len;
    return CUZK_OK;
}

cuzk_status mapped_file_open(mapped_file *mf, const char *path, cuzk_error *err)
{
    if (!mf || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "mapped file: NULL argument");
    mf->data = NULL;
    mf->len = 0;
    /* non-blocking: opening a FIFO for reading would otherwise wait for a writer, for
     * good; fstat then refuses it (O_NONBLOCK changes nothing for a regular file) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(err, "cannot open", path, errno);
    cuzk_status st = mapped_file_open_fd(mf, fd, path, err);
    close(fd); /* the mapping keeps the file alive */
    return st;
}

void mapped_file_close(mapped_file *mf)
{
    if (mf && mf->data)
        munmap((void *)mf->data, mf->len);
    if (mf) {
        mf->data = NULL;
        mf->len = 0;
    }
}

void mapped_file_drop(const mapped_file *mf, const uint8_t *p, size_t n)
{
    if (!mf || !mf->data || p < mf->data || n > mf->len || p - mf->data > (ptrdiff_t)(mf->len - n))
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t b = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + n) & ~(page - 1);
    /* Advice only: a failure leaves the pages resident, which is merely less frugal. */
    if (e > b)
        (void)madvise((void *)b, e - b, MADV_DONTNEED);
}
