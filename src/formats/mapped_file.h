/*
 * mapped_file.h — read-only memory mapping of a whole file, for the file readers, safe
 * against the file changing under it.
 *
 * The mapping is private and read-only; the size comes from fstat on the open descriptor
 * (so it is the size of the file that was opened, not of whatever the path names later),
 * and the identity of what was opened (device, inode, size, mtime, ctime) is recorded.
 *
 * Files the daemon did not write may be truncated while they are mapped (DESIGN.md §4b).
 * Touching a page past the new end of file raises SIGBUS, which would kill the process
 * with every job in it. The defence, chosen here once for every reader:
 *   - a process-wide SA_SIGINFO SIGBUS handler, (re)installed at each mapping if another
 *     handler replaced it (that one is then chained to), and a
 *     lock-free registry (a fixed table of slots: start, length, changed flag) of the live
 *     mappings;
 *   - a fault inside a registered mapping maps anonymous zero pages (MAP_FIXED) over the
 *     faulting page and the rest of that mapping (every later page is past the end too),
 *     sets the mapping's `changed` flag and returns: the reader carries on over zeros. No
 *     longjmp: the decoders allocate as they go and run on pool threads, so unwinding them
 *     from a signal would leak or deadlock; zeros only make them produce garbage or a
 *     format error, bounded by the length they already know;
 *   - at the end of its read the reader calls mapped_file_check(), which turns the flag,
 *     or a size/mtime different from the one opened (a rewrite in place that raised no
 *     fault), into CUZK_ERR_IO "<file> changed while it was read (truncated/replaced)",
 *     replacing whatever the parse said. A fault outside every registered mapping goes to
 *     the previous handler (default: the process dies as before).
 * Why not the alternatives: read() into memory copies a 44 GiB .params once more than the
 * decoder does (twice the memory; the decode must stay one pass over the mapping); a lease
 * (F_SETLEASE) needs the file's owner and only delays a truncate; a private copy of the file
 * costs the same disk and time; sigsetjmp around every decoder cannot unwind pool threads.
 * Cost: nothing on the read path (no checks per access); one fstat per check; one signal
 * and one mmap per mapping that loses pages; a descriptor held open per live mapping (for
 * the fstat); at most MAPPED_FILE_SLOTS mappings at once (beyond that opening fails with
 * CUZK_ERR_IO rather than mapping unguarded).
 *
 * Threading: a mapped_file is owned by one thread; the mapped bytes may be read from any
 * (a fault on any thread is handled). The registry and the handler are process-wide and
 * lock-free; registration and check are thread-safe.
 */
#ifndef CUZK_FORMATS_MAPPED_FILE_H
#define CUZK_FORMATS_MAPPED_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

/* Live mappings at once (the daemon holds one per WARM key, per cached circuit and per
 * file being read: tens). 4096 slots of 24 bytes: 96 KiB of static table. */
#define MAPPED_FILE_SLOTS 4096

/* What a file was when it was opened (stat fields; times in ns since the epoch). */
typedef struct mapped_file_id {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
} mapped_file_id;

typedef struct mapped_file {
    const uint8_t *data; /* NULL when len == 0 (an empty file maps nothing) */
    size_t len;
    mapped_file_id id;   /* of the file opened (fstat of its descriptor) */
    int fd;              /* kept open for mapped_file_check; -1 when closed */
    int slot;            /* registry slot, -1 when nothing is mapped */
    char *name;          /* the path or name, for messages */
} mapped_file;

/* Opens and maps path, which must be a regular file (it is opened non-blocking, so a FIFO
 * is refused at once instead of waiting for a writer). Failures are CUZK_ERR_IO with the
 * path and the errno text. On failure mf holds nothing (close is still allowed). */
cuzk_status mapped_file_open(mapped_file *mf, const char *path, cuzk_error *err);
/* The same from a descriptor the caller opened (as the caller, say): fd is duplicated, so
 * the caller keeps and closes its own; name labels messages (NULL: "fd N"). */
cuzk_status mapped_file_open_fd(mapped_file *mf, int fd, const char *name, cuzk_error *err);
void mapped_file_close(mapped_file *mf);

/* After a read of mf: st unchanged when the file is as it was opened; otherwise (a page
 * was lost to a truncation — the reader read zeros there —, or the size or mtime of the
 * open file differs) CUZK_ERR_IO "<name> changed while it was read (truncated/replaced)"
 * replaces st and err, and the caller must drop what it decoded. */
cuzk_status mapped_file_check(const mapped_file *mf, cuzk_status st, cuzk_error *err);
/* The predicate of mapped_file_check, without touching an error. */
bool mapped_file_changed(const mapped_file *mf);

/* The identity path names now (stat, following links); false when it cannot be stat'ed. */
bool mapped_file_id_of_path(const char *path, mapped_file_id *id);
bool mapped_file_id_equal(const mapped_file_id *a, const mapped_file_id *b);

/* Drops the resident pages wholly inside [p, p+n), a range of mf that the caller has
 * consumed, so a reader that decodes a large file into its own copy does not hold the
 * file twice. The mapping stays valid: touching the range again re-reads the file. Only
 * for ranges of a mapped_file (never for other memory: it would be zeroed). */
void mapped_file_drop(const mapped_file *mf, const uint8_t *p, size_t n);

/* Tests: calls hook(ctx, mf) in mapped_file_open(_fd) after the mapping is made and
 * registered, before it is returned to the reader (stands for a truncation racing the
 * read). NULL removes it. Process-wide; not for production use. */
typedef void (*mapped_file_test_hook)(void *ctx, const mapped_file *mf);
void mapped_file_set_test_hook(mapped_file_test_hook hook, void *ctx);

#endif
