/*
 * outfiles.c — all-or-nothing output files (contract in cuzk/outfiles.h): aliasing checks
 * by device/inode and normalized path, one mkstemp temporary per output in the
 * destination's directory, fsync + rename of every output only at commit.
 *
 * Temporaries are reopened by path for each write and at commit rather than kept open:
 * writers that take a path (the .params/.vk savers) truncate, rewrite or remove the file
 * themselves, and reopening is what sees their result.
 *
 * Threading: one thread per set; cuzk_outfiles_unlink_temps is async-signal-safe (it reads
 * only `live` flags, set after the temporary's name is complete, and calls unlink(2)).
 */
#define _XOPEN_SOURCE 700 /* mkstemp, realpath, fsync, fchmod, O_DIRECTORY */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cuzk/outfiles.h"

/* A file named on the command line: as given, normalized, and its inode if it exists. */
typedef struct ident {
    char *user; /* as given (messages) */
    char *norm; /* realpath of the file, or realpath(dir) + "/" + name when it is absent */
    bool exists;
    dev_t dev;
    ino_t ino;
} ident;

typedef struct outfile {
    ident id;           /* id.norm is the rename destination */
    char *tmp;          /* the temporary's path, NULL until created */
    volatile sig_atomic_t live; /* the temporary exists on disk */
    mode_t mode;
} outfile;

struct cuzk_outfiles {
    ident in[CUZK_OUTFILES_MAX_INPUTS];
    size_t n_in;
    outfile out[CUZK_OUTFILES_MAX];
    volatile sig_atomic_t n_out; /* read by the signal-safe cleanup */
    bool committed;
};

static void ident_free(ident *id)
{
    free(id->user);
    free(id->norm);
    memset(id, 0, sizeof *id);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Splits path into its directory ("." when none) and last component; NULL dir on OOM. */
static char *dir_of(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        return dup_str(".");
    }
    *base = slash + 1;
    size_t n = slash == path ? 1 : (size_t)(slash - path); /* "/x" -> "/" */
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

/* Fills id for path. for_output: the directory must exist and the name must be one a
 * regular file can have; an input that cannot be resolved keeps its path as given. */
static cuzk_status ident_make(ident *id, const char *path, bool for_output, cuzk_error *err)
{
    memset(id, 0, sizeof *id);
    if (!path || !*path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "empty file name");
    id->user = dup_str(path);
    if (!id->user)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    struct stat sb;
    if (stat(path, &sb) == 0) {
        id->exists = true;
        id->dev = sb.st_dev;
        id->ino = sb.st_ino;
        if (for_output && !S_ISREG(sb.st_mode))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: not a regular file%s", path,
                                  S_ISDIR(sb.st_mode) ? " (a directory)" : "");
        id->norm = realpath(path, NULL);
        if (!id->norm)
            return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
        return CUZK_OK;
    }
    int stat_errno = errno;
    struct stat lb;
    if (for_output && lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "%s: a symbolic link to a file that does not exist", path);
    const char *base;
    char *dir = dir_of(path, &base);
    if (!dir)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    char *rdir = realpath(dir, NULL);
    int dir_errno = errno;
    cuzk_status st = CUZK_OK;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        if (for_output)
            st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: not a file name", path);
    } else if (!rdir) {
        if (for_output)
            st = cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: directory %s: %s", path,
                                dir, strerror(dir_errno));
    } else if (for_output && stat_errno != ENOENT) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(stat_errno));
    }
    if (st == CUZK_OK) {
        if (rdir) {
            size_t n = strlen(rdir) + 1 + strlen(base) + 1;
            id->norm = malloc(n);
            if (id->norm)
                snprintf(id->norm, n, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base);
        } else {
            id->norm = dup_str(path);
        }
        if (!id->norm)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    free(rdir);
    free(dir);
    return st;
}

static bool same_file(const ident *a, const ident *b)
{
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->norm, b->norm) == 0;
}

static cuzk_status clash(const ident *out, const ident *other, bool other_is_input,
                         cuzk_error *err)
{
    bool same_name = strcmp(out->user, other->user) == 0;
    if (other_is_input)
        return same_name ? cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                          "%s is both an input and an output: refusing to "
                                          "overwrite an input", out->user)
                         : cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                          "output %s is the input %s: refusing to overwrite "
                                          "an input", out->user, other->user);
    return same_name ? cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                      "%s is given for two outputs: one would overwrite the "
                                      "other", out->user)
                     : cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                      "outputs %s and %s are the same file: one would "
                                      "overwrite the other", other->user, out->user);
}

cuzk_status cuzk_outfiles_create(cuzk_outfiles **out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: NULL argument");
    *out = calloc(1, sizeof **out);
    return *out ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
}

void cuzk_outfiles_unlink_temps(const cuzk_outfiles *s)
{
    if (!s)
        return;
    for (sig_atomic_t i = 0; i < s->n_out; i++)
        if (s->out[i].live)
            unlink(s->out[i].tmp);
}

void cuzk_outfiles_destroy(cuzk_outfiles *s)
{
    if (!s)
        return;
    cuzk_outfiles_unlink_temps(s);
    for (size_t i = 0; i < s->n_in; i++)
        ident_free(&s->in[i]);
    for (sig_atomic_t i = 0; i < s->n_out; i++) {
        ident_free(&s->out[i].id);
        free(s->out[i].tmp);
    }
    free(s);
}

cuzk_status cuzk_outfiles_add_input(cuzk_outfiles *s, const char *path, cuzk_error *err)
{
    if (!s || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: NULL argument");
    if (s->n_in == CUZK_OUTFILES_MAX_INPUTS)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: too many inputs");
    ident id;
    cuzk_status st = ident_make(&id, path, false, err);
    for (sig_atomic_t i = 0; st == CUZK_OK && i < s->n_out; i++)
        if (same_file(&s->out[i].id, &id))
            st = clash(&s->out[i].id, &id, true, err);
    if (st != CUZK_OK) {
        ident_free(&id);
        return st;
    }
    s->in[s->n_in++] = id;
    return CUZK_OK;
}

cuzk_status cuzk_outfiles_add(cuzk_outfiles *s, const char *path, size_t *index,
                              cuzk_error *err)
{
    if (!s || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: NULL argument");
    if (s->n_out == CUZK_OUTFILES_MAX)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: too many outputs");
    if (s->committed)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: already committed");
    outfile o;
    memset(&o, 0, sizeof o);
    cuzk_status st = ident_make(&o.id, path, true, err);
    for (size_t i = 0; st == CUZK_OK && i < s->n_in; i++)
        if (same_file(&o.id, &s->in[i]))
            st = clash(&o.id, &s->in[i], true, err);
    for (sig_atomic_t i = 0; st == CUZK_OK && i < s->n_out; i++)
        if (same_file(&o.id, &s->out[i].id))
            st = clash(&o.id, &s->out[i].id, false, err);
    if (st == CUZK_OK) {
        const char *base;
        char *dir = dir_of(o.id.norm, &base);
        if (!dir)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        else if (access(dir, W_OK | X_OK) != 0)
            st = cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: directory %s: %s",
                                path, dir, strerror(errno));
        free(dir);
    }
    if (st == CUZK_OK) {
        struct stat sb;
        if (o.id.exists && stat(o.id.norm, &sb) == 0) {
            o.mode = sb.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            o.mode = 0666 & ~mask;
        }
    }
    if (st != CUZK_OK) {
        ident_free(&o.id);
        return st;
    }
    if (index)
        *index = (size_t)s->n_out;
    s->out[s->n_out] = o;
    s->n_out = s->n_out + 1;
    return CUZK_OK;
}

const char *cuzk_outfiles_path(const cuzk_outfiles *s, size_t index)
{
    return s && index < (size_t)s->n_out ? s->out[index].id.user : NULL;
}

static cuzk_status ensure_temp(cuzk_outfiles *s, size_t index, cuzk_error *err)
{
    if (!s || index >= (size_t)s->n_out || s->committed)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: bad output index %zu",
                              index);
    outfile *o = &s->out[index];
    if (o->live)
        return CUZK_OK;
    if (!o->tmp) {
        const char *base;
        char *dir = dir_of(o->id.norm, &base);
        size_t n = dir ? strlen(dir) + strlen(base) + 32 : 0;
        o->tmp = dir ? malloc(n) : NULL;
        if (o->tmp)
            snprintf(o->tmp, n, "%s/.%s.cuzk-XXXXXX", strcmp(dir, "/") ? dir : "", base);
        free(dir);
        if (!o->tmp)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    } else {
        /* mkstemp needs the template again */
        memcpy(o->tmp + strlen(o->tmp) - 6, "XXXXXX", 6);
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: creating a temporary file: "
                              "%s", o->id.user, strerror(errno));
    o->live = 1;
    close(fd);
    return CUZK_OK;
}

cuzk_status cuzk_outfiles_temp_path(cuzk_outfiles *s, size_t index, const char **path,
                                    cuzk_error *err)
{
    cuzk_status st = ensure_temp(s, index, err);
    if (st == CUZK_OK && path)
        *path = s->out[index].tmp;
    return st;
}

cuzk_status cuzk_outfiles_write(cuzk_outfiles *s, size_t index, const void *data, size_t len,
                                cuzk_error *err)
{
    if (!data && len)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: NULL data");
    cuzk_status st = ensure_temp(s, index, err);
    if (st != CUZK_OK)
        return st;
    outfile *o = &s->out[index];
    int fd = open(o->tmp, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: %s", o->id.user,
                              strerror(errno));
    const unsigned char *p = data;
    int werr = 0;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            werr = w < 0 ? errno : ENOSPC;
            break;
        }
        p += w;
        len -= (size_t)w;
    }
    if (close(fd) != 0 && !werr)
        werr = errno;
    if (werr)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: %s", o->id.user,
                              strerror(werr));
    return CUZK_OK;
}

/* fsync + mode of one temporary, reopened by path (a path writer may have replaced it). */
static cuzk_status sync_temp(const outfile *o, cuzk_error *err)
{
    int fd = open(o->tmp, O_RDONLY);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: its temporary file: %s",
                              o->id.user, strerror(errno));
    int e = 0;
    if (fchmod(fd, o->mode) != 0 || fsync(fd) != 0)
        e = errno;
    close(fd);
    return e ? cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: %s", o->id.user,
                              strerror(e))
             : CUZK_OK;
}

cuzk_status cuzk_outfiles_commit(cuzk_outfiles *s, cuzk_error *err)
{
    if (!s || s->committed)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "outfiles: bad commit");
    size_t n = (size_t)s->n_out;
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; st == CUZK_OK && i < n; i++)
        st = s->out[i].live ? sync_temp(&s->out[i], err)
                            : cuzk_error_set(err, CUZK_ERR_INTERNAL, "%s was not written",
                                             s->out[i].id.user);
    for (size_t i = 0; st == CUZK_OK && i < n; i++) {
        outfile *o = &s->out[i];
        if (rename(o->tmp, o->id.norm) != 0)
            st = cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s: rename: %s", o->id.user,
                                strerror(errno));
        else
            o->live = 0;
    }
    if (st != CUZK_OK) {
        cuzk_outfiles_unlink_temps(s);
        for (size_t i = 0; i < n; i++)
            s->out[i].live = 0;
        return st;
    }
    s->committed = true;
    /* the renames are durable once each directory is */
    for (size_t i = 0; st == CUZK_OK && i < n; i++) {
        const char *base;
        char *dir = dir_of(s->out[i].id.norm, &base);
        int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY) : -1;
        if (fd < 0 || fsync(fd) != 0)
            st = cuzk_error_set(err, CUZK_ERR_IO, "wrote %s but could not sync its directory:"
                                " %s", s->out[i].id.user, dir ? strerror(errno) : "no memory");
        if (fd >= 0)
            close(fd);
        free(dir);
    }
    return st;
}
