/*
 * mapped_file.c — see mapped_file.h. POSIX open/fstat/mmap; the descriptor is kept open
 * for mapped_file_check's fstat. The SIGBUS guard: a registry of live mappings (a fixed
 * table of atomic slots) read by a SA_SIGINFO handler that maps zero pages over the lost
 * part of a registered mapping and flags it.
 *
 * Threading: the registry is lock-free (C11 atomics: a slot is claimed with a CAS on its
 * state, published by a release store of its start, read by the handler with acquire
 * loads); the handler is (re)installed at each mapping under a mutex and uses only
 * async-signal-safe calls plus mmap (a plain system call on Linux). strerror_r keeps errno text
 * thread-safe.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise(MADV_DONTNEED); POSIX 2008 (XSI strerror_r) */

#include "formats/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the registry and the SIGBUS handler ------------------------------------------------ */

enum { SLOT_FREE, SLOT_CLAIMED };

typedef struct mf_slot {
    _Atomic int state;        /* SLOT_FREE / SLOT_CLAIMED (owner: one mapped_file) */
    _Atomic uintptr_t start;  /* 0 while not published */
    _Atomic size_t len;
    _Atomic int changed;      /* a page was lost: the reader read zeros */
} mf_slot;

static mf_slot g_slots[MAPPED_FILE_SLOTS];
static _Atomic unsigned g_hi; /* slots [0, g_hi) may be in use: the handler scans no more */
static uintptr_t g_page;
static struct sigaction g_prev; /* the handler before ours, for faults not ours */
static pthread_mutex_t g_install_mu = PTHREAD_MUTEX_INITIALIZER;

static _Atomic(mapped_file_test_hook) g_hook;
static void *_Atomic g_hook_ctx;

static void chain(int sig, siginfo_t *si, void *uc)
{
    if (g_prev.sa_flags & SA_SIGINFO) {
        if (g_prev.sa_sigaction) {
            g_prev.sa_sigaction(sig, si, uc);
            return;
        }
    } else if (g_prev.sa_handler != SIG_DFL && g_prev.sa_handler != SIG_IGN) {
        g_prev.sa_handler(sig);
        return;
    }
    /* default (or ignored, which a real fault cannot honour): restore the default and let
     * the fault happen again on return (a kill()ed signal is raised again instead; it is
     * blocked until this handler returns) so the process dies of SIGBUS as it would have */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    if (si && si->si_code <= 0 && g_prev.sa_handler == SIG_IGN && !(g_prev.sa_flags & SA_SIGINFO))
        return; /* a sent SIGBUS that was ignored stays ignored */
    sigaction(SIGBUS, &dfl, NULL);
    if (!si || si->si_code <= 0)
        raise(SIGBUS);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* si_code > 0: raised by the kernel for an access (a sent signal has no address) */
    if (si && si->si_code > 0) {
        uintptr_t a = (uintptr_t)si->si_addr;
        unsigned hi = atomic_load_explicit(&g_hi, memory_order_acquire);
        for (unsigned i = 0; i < hi; i++) {
            uintptr_t s = atomic_load_explicit(&g_slots[i].start, memory_order_acquire);
            if (!s)
                continue;
            size_t n = atomic_load_explicit(&g_slots[i].len, memory_order_relaxed);
            if (a < s || a - s >= n)
                continue;
            /* from the faulting page to the end of the mapping: all of it lies past the new
             * end of file, so one signal per truncation, not one per page */
            uintptr_t pg = a & ~(g_page - 1), end = (s + n + g_page - 1) & ~(g_page - 1);
            void *r = mmap((void *)pg, end - pg, PROT_READ,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            atomic_store_explicit(&g_slots[i].changed, 1, memory_order_release);
            if (r != MAP_FAILED) {
                errno = saved;
                return; /* the access is retried and reads zeros */
            }
            break; /* cannot repair: the process would spin on the fault; die as before */
        }
    }
    chain(sig, si, uc);
    errno = saved;
}

/* Makes on_sigbus the SIGBUS handler, at each mapping: whoever set another handler since
 * (a library, a test harness that sets its own around each test) is chained to, not lost.
 * Under a mutex so that two openers never record on_sigbus itself as the previous one. The
 * handler reads g_prev without a lock: it changes only when someone else replaced ours,
 * and then only faults outside every mapping reach it. */
static bool install(void)
{
    pthread_mutex_lock(&g_install_mu);
    if (!g_page)
        g_page = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction cur;
    bool ok = sigaction(SIGBUS, NULL, &cur) == 0;
    if (ok && !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigbus)) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        g_prev = cur;
        ok = sigaction(SIGBUS, &sa, NULL) == 0;
    }
    pthread_mutex_unlock(&g_install_mu);
    return ok;
}

static int slot_claim(void)
{
    for (unsigned i = 0; i < MAPPED_FILE_SLOTS; i++) {
        int exp = SLOT_FREE;
        if (atomic_compare_exchange_strong(&g_slots[i].state, &exp, SLOT_CLAIMED)) {
            unsigned hi = atomic_load(&g_hi);
            while (hi < i + 1 && !atomic_compare_exchange_weak(&g_hi, &hi, i + 1)) {
            }
            return (int)i;
        }
    }
    return -1;
}

static void slot_publish(int i, const void *p, size_t n)
{
    atomic_store_explicit(&g_slots[i].changed, 0, memory_order_relaxed);
    atomic_store_explicit(&g_slots[i].len, n, memory_order_relaxed);
    atomic_store_explicit(&g_slots[i].start, (uintptr_t)p, memory_order_release);
}

static void slot_release(int i)
{
    atomic_store_explicit(&g_slots[i].start, 0, memory_order_release);
    atomic_store_explicit(&g_slots[i].len, 0, memory_order_relaxed);
    atomic_store_explicit(&g_slots[i].state, SLOT_FREE, memory_order_release);
}

/* ---- opening ------------------------------------------------------------------------------ */

static cuzk_status io_error(cuzk_error *err, const char *what, const char *path, int e)
{
    char buf[128];
    if (strerror_r(e, buf, sizeof buf) != 0)
        strcpy(buf, "unknown error");
    return cuzk_error_set(err, CUZK_ERR_IO, "%s %s: %s (errno %d)", what, path, buf, e);
}

static mapped_file_id id_of(const struct stat *st)
{
    return (mapped_file_id){.dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino,
                            .size = (uint64_t)st->st_size,
                            .mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 +
                                        st->st_mtim.tv_nsec,
                            .ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 +
                                        st->st_ctim.tv_nsec};
}

static void reset(mapped_file *mf)
{
    memset(mf, 0, sizeof *mf);
    mf->fd = -1;
    mf->slot = -1;
}

/* Takes ownership of fd (closed on failure). */
static cuzk_status map_fd(mapped_file *mf, int fd, const char *name, cuzk_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return io_error(err, "cannot stat", name, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: not a regular file", name);
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: size %lld out of range", name,
                              (long long)st.st_size);
    }
    if (!(mf->name = strdup(name))) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot map %s: out of memory", name);
    }
    mf->fd = fd;
    mf->id = id_of(&st);
    size_t len = (size_t)st.st_size;
    if (len == 0) /* mmap rejects length 0; the parsers report the empty input */
        return CUZK_OK;
    if (!install()) {
        mapped_file_close(mf);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: no SIGBUS guard", name);
    }
    int slot = slot_claim();
    if (slot < 0) {
        mapped_file_close(mf);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: %d files mapped already", name,
                              MAPPED_FILE_SLOTS);
    }
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        slot_release(slot);
        mapped_file_close(mf);
        return io_error(err, "cannot mmap", name, e);
    }
    slot_publish(slot, p, len);
    mf->data = p;
    mf->len = len;
    mf->slot = slot;
    mapped_file_test_hook hook = atomic_load(&g_hook);
    if (hook)
        hook(atomic_load(&g_hook_ctx), mf);
    return CUZK_OK;
}

cuzk_status mapped_file_open(mapped_file *mf, const char *path, cuzk_error *err)
{
    if (!mf || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "mapped file: NULL argument");
    reset(mf);
    /* non-blocking: opening a FIFO for reading would otherwise wait for a writer, for
     * good; fstat then refuses it (O_NONBLOCK changes nothing for a regular file) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(err, "cannot open", path, errno);
    return map_fd(mf, fd, path, err);
}

cuzk_status mapped_file_open_fd(mapped_file *mf, int fd, const char *name, cuzk_error *err)
{
    if (!mf || fd < 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "mapped file: bad argument");
    reset(mf);
    char label[32];
    if (!name) {
        snprintf(label, sizeof label, "fd %d", fd);
        name = label;
    }
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0)
        return io_error(err, "cannot duplicate the descriptor of", name, errno);
    return map_fd(mf, own, name, err);
}

void mapped_file_close(mapped_file *mf)
{
    /* a zero-filled mapped_file (= {0}: fd 0, slot 0) owns nothing: whatever it owns came
     * with its name (map_fd sets the name before it keeps a descriptor or a slot) */
    if (!mf || !mf->name)
        return;
    if (mf->data) {
        /* unpublish first: a fault racing the unmap is a caller bug, but the handler must
         * never map zeros over an address range that is no longer ours */
        if (mf->slot >= 0)
            slot_release(mf->slot);
        munmap((void *)mf->data, mf->len);
    } else if (mf->slot >= 0) {
        slot_release(mf->slot);
    }
    if (mf->fd >= 0)
        close(mf->fd);
    free(mf->name);
    reset(mf);
}

/* ---- checking ----------------------------------------------------------------------------- */

bool mapped_file_changed(const mapped_file *mf)
{
    if (!mf || mf->fd < 0)
        return false;
    if (mf->slot >= 0 && atomic_load_explicit(&g_slots[mf->slot].changed, memory_order_acquire))
        return true;
    /* size and mtime of the open file: a truncation or a rewrite in place. Not ctime: an
     * unlink or a rename over the path (the safe way to replace a file) changes the old
     * file's ctime but not one byte of what was read. Not the inode: the descriptor's
     * cannot change (a replacement at the path is the key manager's business: srs.c). */
    struct stat st;
    if (fstat(mf->fd, &st) != 0)
        return true;
    mapped_file_id now = id_of(&st);
    return now.size != mf->id.size || now.mtime_ns != mf->id.mtime_ns;
}

cuzk_status mapped_file_check(const mapped_file *mf, cuzk_status st, cuzk_error *err)
{
    if (!mapped_file_changed(mf))
        return st;
    return cuzk_error_set(err, CUZK_ERR_IO, "%s changed while it was read (truncated/replaced)",
                          mf->name ? mf->name : "file");
}

bool mapped_file_id_of_path(const char *path, mapped_file_id *id)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return false;
    *id = id_of(&st);
    return true;
}

bool mapped_file_id_equal(const mapped_file_id *a, const mapped_file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

void mapped_file_set_test_hook(mapped_file_test_hook hook, void *ctx)
{
    atomic_store(&g_hook_ctx, ctx);
    atomic_store(&g_hook, hook);
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
