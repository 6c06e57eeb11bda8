/*
 * cuzk/outfiles.h — writing a command's output files all-or-nothing (formats layer,
 * src/formats/outfiles.c).
 *
 * A command that reads some files and writes others (prove: key + witness -> proof +
 * public inputs; setup: r1cs -> params + vk) declares them all first. An output is refused
 * when it names an input or another output (same device and inode when the file exists,
 * same normalized path otherwise: realpath of its directory + its name), when its
 * directory does not exist or is not writable, or when it exists and is not a regular file
 * (a directory, /dev/null, a FIFO). These checks run before any work, so a bad output path
 * costs nothing.
 *
 * Each output is then written to a temporary file in its own directory
 * (".NAME.cuzk-XXXXXX", made with mkstemp), and cuzk_outfiles_commit fsyncs every
 * temporary, renames them over their destinations only once all of them are complete, and
 * fsyncs the directories. Until commit, the destinations are untouched; destroying a set
 * that was not committed unlinks its temporaries. So a failed or interrupted command (a
 * full disk, a file-size limit, a bad witness found after the first file was written)
 * leaves the old files byte-identical and no partial new ones. The renames themselves are
 * one per file: a crash between two of them can leave one new and one old file, never a
 * truncated one.
 *
 * An output that is a symbolic link is written through to its target (the link stays).
 * A new file gets mode 0666 & ~umask; a replaced one keeps its mode.
 *
 * Threading: a set is used by one thread; cuzk_outfiles_unlink_temps may be called from a
 * signal handler (it only calls unlink(2)).
 */
#ifndef CUZK_OUTFILES_H
#define CUZK_OUTFILES_H

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_OUTFILES_MAX 8 /* outputs per set */
#define CUZK_OUTFILES_MAX_INPUTS 16

typedef struct cuzk_outfiles cuzk_outfiles;

cuzk_status cuzk_outfiles_create(cuzk_outfiles **out, cuzk_error *err);
/* Unlinks the temporaries of a set that was not committed, then frees it (NULL: no-op). */
void cuzk_outfiles_destroy(cuzk_outfiles *s);

/* Declares a file the command reads. An input that does not exist is remembered by its
 * normalized path (the reader will report it). CUZK_ERR_INVALID_ARG when it is one of the
 * outputs already declared. */
cuzk_status cuzk_outfiles_add_input(cuzk_outfiles *s, const char *path, cuzk_error *err);

/* Declares an output; *index (optional) receives its index for the calls below.
 * CUZK_ERR_INVALID_ARG when it names an input or another output, or is not a regular
 * file; CUZK_ERR_IO when its directory is missing or not writable. Messages name the path
 * once, as given. */
cuzk_status cuzk_outfiles_add(cuzk_outfiles *s, const char *path, size_t *index,
                              cuzk_error *err);

/* Writes data as the whole new content of output index (into its temporary; a second call
 * replaces the first). CUZK_ERR_IO with strerror on failure (EFBIG, ENOSPC, ...). */
cuzk_status cuzk_outfiles_write(cuzk_outfiles *s, size_t index, const void *data, size_t len,
                                cuzk_error *err);

/* Creates output index's temporary (empty) if needed and returns its path, for writers
 * that take a path (e.g. cuzk_groth16_pk_save_bellperson). The writer may truncate and
 * rewrite it, or remove it on failure; the set finds out at commit. The string lives as
 * long as the set. */
cuzk_status cuzk_outfiles_temp_path(cuzk_outfiles *s, size_t index, const char **path,
                                    cuzk_error *err);

/* Every output must have been written. fsyncs and closes each temporary, renames them all
 * onto their destinations, fsyncs the destination directories. On failure before the
 * renames nothing is renamed and the temporaries are unlinked. */
cuzk_status cuzk_outfiles_commit(cuzk_outfiles *s, cuzk_error *err);

/* Unlinks the temporaries that exist. Async-signal-safe: for a handler of SIGINT/SIGTERM
 * that then re-raises the signal. */
void cuzk_outfiles_unlink_temps(const cuzk_outfiles *s);

/* The path as the caller gave it for output index (for messages). */
const char *cuzk_outfiles_path(const cuzk_outfiles *s, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_OUTFILES_H */
