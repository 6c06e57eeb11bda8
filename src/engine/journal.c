/*
 * journal.c — the job journal (journal.h): one file per job and one per outcome (bound to
 * its job's id and request digest, with a SHA-256 over the record), written with temp +
 * (fsync) + rename (never truncated in place), read back sorted by submission order at
 * start, after removing the temporaries of interrupted writes.
 * Threading: a mutex serialises writers (file names never collide, but the directory
 * fsync and removal order are kept simple that way).
 */
#include "engine/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/sha.h>
#endif

struct ejournal {
    pthread_mutex_t mu;
    char *dir;
    int dirfd;
};

cuzk_status ejournal_open(ejournal **out, const char *dir, cuzk_error *err)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return cuzk_error_set(err, CUZK_ERR_IO, "state_dir %s: %s", dir, strerror(errno));
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "state_dir %s: %s", dir, strerror(errno));
    ejournal *j = calloc(1, sizeof *j);
    if (!j || !(j->dir = strdup(dir))) {
        free(j);
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    j->dirfd = fd;
    pthread_mutex_init(&j->mu, NULL);
    *out = j;
    return CUZK_OK;
}

void ejournal_close(ejournal *j)
{
    if (!j)
        return;
    close(j->dirfd);
    pthread_mutex_destroy(&j->mu);
    free(j->dir);
    free(j);
}

static bool write_all(int fd, const void *d, size_t n)
{
    const uint8_t *p = d;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* name.tmp -> name in the journal directory; durable when sync. On failure errno says
 * why (kept across the cleanup). */
static bool put_file(ejournal *j, const char *name, const void *a, size_t na, const void *b,
                     size_t nb, bool sync)
{
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    int fd = openat(j->dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    bool ok = write_all(fd, a, na) && write_all(fd, b, nb) && (!sync || fsync(fd) == 0);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && renameat(j->dirfd, tmp, j->dirfd, name) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlinkat(j->dirfd, tmp, 0);
        errno = e ? e : EIO;
        return false;
    }
    return !sync || fsync(j->dirfd) == 0;
}

bool ejournal_sha256(const void *data, size_t n, uint8_t out[32])
{
#ifdef CUZK_HAVE_OPENSSL
    SHA256(data, n, out);
    return true;
#else
    (void)data;
    (void)n;
    memset(out, 0, 32);
    return false;
#endif
}

static void le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

cuzk_status ejournal_add(ejournal *j, const char *id, uint64_t seq, const ereq *req,
                         uint8_t digest[32], cuzk_error *err)
{
    uint8_t *body;
    size_t len;
    cuzk_status st = ereq_encode(req, &body, &len, err);
    if (st != CUZK_OK)
        return st;
    if (digest)
        ejournal_sha256(body, len, digest);
    uint8_t head[12];
    memcpy(head, "CZJ1", 4);
    le(head + 4, seq, 8);
    char name[64];
    snprintf(name, sizeof name, "%s.req", id);
    pthread_mutex_lock(&j->mu);
    bool ok = put_file(j, name, head, sizeof head, body, len, true);
    pthread_mutex_unlock(&j->mu);
    free(body);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_IO, "journal: cannot write %s/%s: %s", j->dir, name,
                              strerror(errno));
    return CUZK_OK;
}

/* A "CZD3" record: magic, job id, request digest, then the fixed fields (offsets below,
 * journal.h's order), the message, the proof, and the SHA-256 of all before it. */
#define DONE_ID 4
#define DONE_DIGEST (DONE_ID + 36)
#define DONE_BODY (DONE_DIGEST + 32)
#define DONE_FIXED (DONE_BODY + 4 + 4 + 4 + 8 + 8 * 6 + 4 + 4 + 64 + 4 + 4)
#define DONE_SUM 32

cuzk_status ejournal_finish(ejournal *j, const char *id, const ejournal_done *d,
                            cuzk_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%s.done", id);
#ifndef CUZK_HAVE_OPENSSL
    (void)j;
    (void)d;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "journal: %s not written: this build has no SHA-256 (OpenSSL) to "
                          "seal it with", name);
#else
    if (strlen(id) != 36)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "journal: bad job id %s", id);
    size_t ml = strnlen(d->error, sizeof d->error - 1);
    size_t n = DONE_FIXED + ml + d->proof_len + DONE_SUM;
    uint8_t *b = calloc(1, n);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory writing %s", name);
    memcpy(b, "CZD3", 4);
    memcpy(b + DONE_ID, id, 36);
    memcpy(b + DONE_DIGEST, d->req_digest, 32);
    uint8_t *p = b + DONE_BODY;
    le(p, (uint64_t)d->state, 4);
    le(p + 4, (uint64_t)d->code, 4);
    le(p + 8, d->benchmark_only, 4);
    le(p + 12, (uint64_t)d->wall_finish, 8);
    const uint64_t *t = &d->t.queue_wait_ms;
    for (int i = 0; i < 6; i++)
        le(p + 20 + 8 * i, t[i], 8);
    p += 68;
    le(p, d->partitions_done, 4);
    le(p + 4, ml, 4);
    memcpy(p + 8, d->device, strnlen(d->device, 63));
    le(p + 72, d->proof_len, 4);
    le(p + 76, d->partitions, 4);
    p += 80;
    memcpy(p, d->error, ml);
    if (d->proof_len)
        memcpy(p + ml, d->proof, d->proof_len);
    ejournal_sha256(b, n - DONE_SUM, b + n - DONE_SUM);
    pthread_mutex_lock(&j->mu);
    bool ok = put_file(j, name, b, n, NULL, 0, false);
    int e = errno;
    pthread_mutex_unlock(&j->mu);
    free(b);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_IO, "journal: cannot write %s/%s: %s", j->dir, name,
                              strerror(e));
    return CUZK_OK;
#endif
}

cuzk_status ejournal_strip(ejournal *j, const char *id, uint64_t seq, const ereq *req,
                           cuzk_error *err)
{
    ereq v = ereq_stripped_view(req);
    uint8_t *body;
    size_t len;
    cuzk_status st = ereq_encode(&v, &body, &len, err);
    if (st != CUZK_OK)
        return st;
    uint8_t head[12];
    memcpy(head, "CZJ1", 4);
    le(head + 4, seq, 8);
    char name[64];
    snprintf(name, sizeof name, "%s.req", id);
    pthread_mutex_lock(&j->mu);
    bool ok = put_file(j, name, head, sizeof head, body, len, false);
    int e = errno;
    pthread_mutex_unlock(&j->mu);
    free(body);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_IO, "journal: cannot rewrite %s/%s: %s", j->dir,
                              name, strerror(e));
    return CUZK_OK;
}

void ejournal_set_aside(ejournal *j, const char *id)
{
    char name[64], bad[64];
    pthread_mutex_lock(&j->mu);
    snprintf(name, sizeof name, "%s.req", id);
    snprintf(bad, sizeof bad, "%s.req.bad", id);
    renameat(j->dirfd, name, j->dirfd, bad);
    snprintf(name, sizeof name, "%s.done", id);
    snprintf(bad, sizeof bad, "%s.done.bad", id);
    renameat(j->dirfd, name, j->dirfd, bad);
    pthread_mutex_unlock(&j->mu);
}

void ejournal_set_aside_done(ejournal *j, const char *id)
{
    char name[64], bad[64];
    snprintf(name, sizeof name, "%s.done", id);
    snprintf(bad, sizeof bad, "%s.done.bad", id);
    pthread_mutex_lock(&j->mu);
    renameat(j->dirfd, name, j->dirfd, bad);
    pthread_mutex_unlock(&j->mu);
}

void (*ejournal_between_unlinks)(const char *id);

void ejournal_remove(ejournal *j, const char *id)
{
    /* The request goes first: a kill between the two unlinks then leaves an outcome with
     * no request, which the next load drops. The other order left a request with no
     * outcome, which the next start took for an unfinished job and proved again (a job
     * already delivered and expired, resurrected). */
    char name[64];
    pthread_mutex_lock(&j->mu);
    snprintf(name, sizeof name, "%s.req", id);
    unlinkat(j->dirfd, name, 0);
    if (ejournal_between_unlinks)
        ejournal_between_unlinks(id);
    snprintf(name, sizeof name, "%s.done", id);
    unlinkat(j->dirfd, name, 0);
    pthread_mutex_unlock(&j->mu);
}

static uint8_t *slurp(ejournal *j, const char *name, size_t *len)
{
    /* non-blocking and regular files only: a FIFO under a journal name must not hang the
     * start */
    int fd = openat(j->dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    uint8_t *b = NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (b = malloc((size_t)sb.st_size + 1))) {
        size_t got = 0;
        while (got < (size_t)sb.st_size) {
            ssize_t r = read(fd, b + got, (size_t)sb.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != (size_t)sb.st_size) {
            free(b);
            b = NULL;
        }
        *len = got;
    }
    close(fd);
    return b;
}

/* Reads a .done record; NULL when it is sound, else what is wrong with it. Sound means:
 * this version's format, its SHA-256 holds, it names job id, and it carries the digest
 * of the request it was written for (digest; NULL: the request was stripped, its bytes
 * are gone, and only an outcome that serves no proof is accepted for it). */
static const char *parse_done(const uint8_t *b, size_t n, const char *id,
                              const uint8_t *digest, ejournal_done *d, char *why,
                              size_t why_cap)
{
    memset(d, 0, sizeof *d);
    if (n >= 4 && (memcmp(b, "CZD1", 4) == 0 || memcmp(b, "CZD2", 4) == 0))
        return "written by an earlier version (FNV checksum, not bound to its job): not "
               "trusted";
    if (n < 4 || memcmp(b, "CZD3", 4) != 0)
        return "not an outcome record";
    if (n < DONE_FIXED + DONE_SUM)
        return "truncated";
    uint8_t sum[32];
    if (!ejournal_sha256(b, n - DONE_SUM, sum))
        return "this build has no SHA-256 (OpenSSL) to check it with";
    if (memcmp(sum, b + n - DONE_SUM, 32) != 0)
        return "checksum mismatch";
    memcpy(d->id, b + DONE_ID, 36);
    d->id[36] = 0;
    memcpy(d->req_digest, b + DONE_DIGEST, 32);
    if (strcmp(d->id, id) != 0) {
        snprintf(why, why_cap, "written for another job (%.36s)", d->id);
        return why;
    }
    const uint8_t *p = b + DONE_BODY;
    d->state = (cuzk_job_state)rd(p, 4);
    d->code = (cuzk_status)rd(p + 4, 4);
    d->benchmark_only = rd(p + 8, 4) != 0;
    d->wall_finish = (int64_t)rd(p + 12, 8);
    uint64_t *t = &d->t.queue_wait_ms;
    for (int i = 0; i < 6; i++)
        t[i] = rd(p + 20 + 8 * i, 8);
    p += 68;
    d->partitions_done = (uint32_t)rd(p, 4);
    size_t ml = rd(p + 4, 4);
    memcpy(d->device, p + 8, 63);
    size_t pl = rd(p + 72, 4);
    d->partitions = (uint32_t)rd(p + 76, 4);
    p += 80;
    if (ml >= sizeof d->error || n != DONE_FIXED + ml + pl + DONE_SUM)
        return "its lengths do not add up";
    if (d->state != CUZK_JOB_COMPLETED && d->state != CUZK_JOB_FAILED &&
        d->state != CUZK_JOB_CANCELLED)
        return "unknown state";
    if (digest ? memcmp(digest, d->req_digest, 32) != 0 : d->state == CUZK_JOB_COMPLETED)
        return "written for other request bytes than this job's";
    memcpy(d->error, p, ml);
    if (pl) {
        if (!(d->proof = malloc(pl)))
            return "too large for memory";
        memcpy(d->proof, p + ml, pl);
        d->proof_len = pl;
    }
    return NULL;
}

static int rec_cmp(const void *a, const void *b)
{
    const ejournal_rec *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

cuzk_status ejournal_load(ejournal *j, ejournal_rec **recs, size_t *n,
                          void (*warn)(void *ctx, const char *msg), void *ctx,
                          cuzk_error *err)
{
    *recs = NULL;
    *n = 0;
    int fd = dup(j->dirfd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "journal: cannot list %s", j->dir);
    }
    rewinddir(dir);
    /* temporaries of writes that never finished (a kill -9 between write and rename):
     * nothing reads them, and a 200 MB request's would stay for good */
    size_t tmps = 0, orphans = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        size_t nl = strlen(de->d_name);
        if ((nl == 36 + 8 && strcmp(de->d_name + 36, ".req.tmp") == 0) ||
            (nl == 36 + 9 && strcmp(de->d_name + 36, ".done.tmp") == 0)) {
            tmps += unlinkat(j->dirfd, de->d_name, 0) == 0;
        } else if (nl == 36 + 5 && strcmp(de->d_name + 36, ".done") == 0) {
            /* an outcome whose request is gone: the end of a removal that was cut short */
            char rq[64];
            struct stat sb;
            snprintf(rq, sizeof rq, "%.36s.req", de->d_name);
            if (fstatat(j->dirfd, rq, &sb, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
                orphans += unlinkat(j->dirfd, de->d_name, 0) == 0;
        }
    }
    if (tmps && warn) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "journal: removed %zu temporary file(s) of writes that were interrupted", tmps);
        warn(ctx, msg);
    }
    if (orphans && warn) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "journal: removed %zu outcome record(s) of expired jobs whose removal was "
                 "interrupted", orphans);
        warn(ctx, msg);
    }
    rewinddir(dir);
    size_t cap = 0;
    cuzk_status st = CUZK_OK;
    while ((de = readdir(dir)) != NULL) {
        size_t nl = strlen(de->d_name);
        if (nl != 36 + 4 || strcmp(de->d_name + 36, ".req") != 0)
            continue;
        size_t len = 0;
        uint8_t *b = slurp(j, de->d_name, &len);
        ereq *req = NULL;
        cuzk_error e2 = {0};
        if (!b || len < 12 || memcmp(b, "CZJ1", 4) != 0 ||
            ereq_decode(&req, b + 12, len - 12, &e2) != CUZK_OK) {
            char msg[512], bad[300];
            snprintf(msg, sizeof msg, "journal: %.200s/%.64s is unreadable (%.200s); moved aside", j->dir,
                     de->d_name, e2.msg[0] ? e2.msg : "bad header");
            if (warn)
                warn(ctx, msg);
            snprintf(bad, sizeof bad, "%s.bad", de->d_name);
            renameat(j->dirfd, de->d_name, j->dirfd, bad);
            free(b);
            continue;
        }
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            ejournal_rec *nr = realloc(*recs, nc * sizeof *nr);
            if (!nr) {
                ereq_free(req);
                free(b);
                st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory reading the journal");
                break;
            }
            *recs = nr;
            cap = nc;
        }
        ejournal_rec *r = &(*recs)[(*n)++];
        memset(r, 0, sizeof *r);
        memcpy(r->id, de->d_name, 36);
        r->seq = rd(b + 4, 8);
        r->req = req;
        ejournal_sha256(b + 12, len - 12, r->req_digest);
        free(b);
        char dn[64];
        snprintf(dn, sizeof dn, "%.36s.done", de->d_name);
        size_t dl = 0;
        errno = 0;
        uint8_t *db = slurp(j, dn, &dl);
        char why[160];
        const char *bad = db ? parse_done(db, dl, r->id, req->stripped ? NULL : r->req_digest,
                                          &r->done, why, sizeof why)
                          : errno != ENOENT ? "unreadable" : NULL;
        r->finished = db && !bad;
        if (bad) {
            free(r->done.proof);
            memset(&r->done, 0, sizeof r->done);
            snprintf(r->done_bad, sizeof r->done_bad, "%.159s", bad);
            char aside[80];
            snprintf(aside, sizeof aside, "%s.bad", dn);
            renameat(j->dirfd, dn, j->dirfd, aside);
        }
        free(db);
    }
    closedir(dir);
    if (*n)
        qsort(*recs, *n, sizeof **recs, rec_cmp);
    return st;
}

void ejournal_recs_free(ejournal_rec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(recs[i].done.proof);
    free(recs);
}
