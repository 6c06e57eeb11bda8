/*
 * param_digest.c — Filecoin parameter files against parameters.json (cuzk/param_digest.h):
 * the streamed BLAKE2b-512 (OpenSSL EVP), the manifest lookup (jansson), the digest cache
 * (sidecar file + in-memory table) and the .vk-against-.params comparison.
 *
 * Threading: reentrant. g_mem (the in-memory cache) is guarded by g_mem_mu; everything
 * else works on the caller's stack.
 */
#define _GNU_SOURCE /* struct stat's st_mtim/st_ctim, O_CLOEXEC, mkstemp */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif

#include "cuzk/formats.h"
#include "cuzk/param_digest.h"

/* ---- hashing --------------------------------------------------------------------------- */

static void to_hex(char *out, const uint8_t *b, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = 0;
}

/* Hashes the open descriptor from its start. 4 MiB reads: large enough that the syscall
 * count does not show next to the hash (~1 GB/s), small enough for the stack-free buffer. */
static cuzk_status hash_fd(int fd, const char *path, uint8_t md[64], uint64_t *bytes,
                           const atomic_bool *stop, cuzk_error *err)
{
#ifdef CUZK_HAVE_OPENSSL
    enum { CHUNK = 4u << 20 };
    uint8_t *buf = malloc(CHUNK);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    cuzk_status st = CUZK_OK;
    uint64_t n = 0;
    if (!buf || !ctx) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL) != 1) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "this OpenSSL has no BLAKE2b-512");
        goto out;
    }
    for (;;) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
            st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "%s: digest stopped", path);
            goto out;
        }
        ssize_t r = read(fd, buf, CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            st = cuzk_error_set(err, CUZK_ERR_IO, "%s: read: %s", path, strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        EVP_DigestUpdate(ctx, buf, (size_t)r);
        n += (uint64_t)r;
    }
    unsigned len = 0;
    EVP_DigestFinal_ex(ctx, md, &len);
    *bytes = n;
out:
    EVP_MD_CTX_free(ctx);
    free(buf);
    return st;
#else
    (void)fd, (void)md, (void)bytes, (void)stop;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "%s: cannot hash: this build has no OpenSSL (BLAKE2b)", path);
#endif
}

cuzk_status cuzk_param_file_blake2b(const char *path, char hex[129], uint64_t *bytes,
                                    cuzk_error *err)
{
    if (!path || !hex)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t md[64];
    uint64_t n = 0;
    cuzk_status st = hash_fd(fd, path, md, &n, NULL, err);
    close(fd);
    if (st == CUZK_OK) {
        to_hex(hex, md, 64);
        if (bytes)
            *bytes = n;
    }
    return st;
}

/* ---- the cache ------------------------------------------------------------------------- */

/* What identifies one content of one file: a write moves mtime and ctime; utimes can set
 * mtime back but moves ctime; a replacement is another inode. */
typedef struct file_key {
    uint64_t dev, ino, size;
    int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
} file_key;

static file_key key_of(const struct stat *sb)
{
    file_key k = {(uint64_t)sb->st_dev, (uint64_t)sb->st_ino, (uint64_t)sb->st_size,
                  (int64_t)sb->st_mtim.tv_sec, (int64_t)sb->st_mtim.tv_nsec,
                  (int64_t)sb->st_ctim.tv_sec, (int64_t)sb->st_ctim.tv_nsec};
    return k;
}

static bool key_eq(const file_key *a, const file_key *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
           a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}

/* A handful of parameter files per process (one per circuit and size in use). */
#define MEM_SLOTS 32
static struct {
    file_key key;
    char hex[129];
    bool used;
} g_mem[MEM_SLOTS];
static unsigned g_mem_next;
static pthread_mutex_t g_mem_mu = PTHREAD_MUTEX_INITIALIZER;

static bool mem_get(const file_key *k, char hex[129])
{
    bool hit = false;
    pthread_mutex_lock(&g_mem_mu);
    for (unsigned i = 0; i < MEM_SLOTS && !hit; i++)
        if (g_mem[i].used && key_eq(&g_mem[i].key, k)) {
            memcpy(hex, g_mem[i].hex, 129);
            hit = true;
        }
    pthread_mutex_unlock(&g_mem_mu);
    return hit;
}

static void mem_put(const file_key *k, const char hex[129])
{
    pthread_mutex_lock(&g_mem_mu);
    unsigned slot = g_mem_next++ % MEM_SLOTS;
    for (unsigned i = 0; i < MEM_SLOTS; i++)
        if (g_mem[i].used && key_eq(&g_mem[i].key, k))
            slot = i;
    g_mem[slot].key = *k;
    memcpy(g_mem[slot].hex, hex, 129);
    g_mem[slot].used = true;
    pthread_mutex_unlock(&g_mem_mu);
}

/* dir (with the trailing '/', or "" for the current directory) and base name of path. */
static void split_path(const char *path, char *dir, size_t cap, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    if (n >= cap)
        n = 0;
    memcpy(dir, path, n);
    dir[n] = 0;
}

static bool sidecar_path(const char *path, char *out, size_t cap)
{
    char dir[4096];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    return snprintf(out, cap, "%s.%s.cuzk-digest", dir, base) < (int)cap;
}

/* The sidecar's one line: the key, then the digest. */
static int sidecar_line(char *out, size_t cap, const file_key *k, const char *hex)
{
    return snprintf(out, cap,
                    "cuzk-param-digest v1 dev=%" PRIu64 " ino=%" PRIu64 " size=%" PRIu64
                    " mtime=%" PRId64 ".%09" PRId64 " ctime=%" PRId64 ".%09" PRId64
                    " blake2b-512=%s\n",
                    k->dev, k->ino, k->size, k->mtime_s, k->mtime_ns, k->ctime_s, k->ctime_ns,
                    hex);
}

/* A sidecar is taken only when it is exactly the line this key and some 128-hex digest
 * give; anything else (another key, a torn or edited file) is a miss. */
static bool sidecar_get(const char *path, const file_key *k, char hex[129])
{
    char sp[4200], want[512], got[600];
    if (!sidecar_path(path, sp, sizeof sp))
        return false;
    FILE *f = fopen(sp, "re");
    if (!f)
        return false;
    size_t n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    got[n] = 0;
    const char *zero = "00000000000000000000000000000000000000000000000000000000000000000000"
                       "000000000000000000000000000000000000000000000000000000000000";
    int len = sidecar_line(want, sizeof want, k, zero);
    size_t pre = (size_t)len - 129; /* up to "blake2b-512=" */
    if (n != (size_t)len || memcmp(got, want, pre) != 0 || got[n - 1] != '\n')
        return false;
    for (size_t i = 0; i < 128; i++) {
        char c = got[pre + i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    memcpy(hex, got + pre, 128);
    hex[128] = 0;
    return true;
}

/* Temporary + rename, so a reader sees the old sidecar or the whole new one. */
static bool sidecar_put(const char *path, const file_key *k, const char *hex)
{
    char sp[4200], tmp[4300], line[512];
    if (!sidecar_path(path, sp, sizeof sp) ||
        snprintf(tmp, sizeof tmp, "%s.XXXXXX", sp) >= (int)sizeof tmp)
        return false;
    int len = sidecar_line(line, sizeof line, k, hex);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return false;
    bool ok = write(fd, line, (size_t)len) == len && fchmod(fd, 0644) == 0;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, sp) == 0)
        return true;
    unlink(tmp);
    return false;
}

/* ---- the manifest ---------------------------------------------------------------------- */

#ifdef CUZK_HAVE_JANSSON
static bool is_digest(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return false;
    return n == CUZK_PARAM_DIGEST_HEX;
}
#endif

/* The expected digest of name from manifest (the path of parameters.json). */
static cuzk_status manifest_digest(const char *manifest, const char *name, const char *path,
                                   char expected[CUZK_PARAM_DIGEST_HEX + 1], cuzk_error *err)
{
#ifdef CUZK_HAVE_JANSSON
    json_error_t je;
    json_t *root = json_load_file(manifest, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: line %d: %s", manifest, je.line,
                              je.text);
    cuzk_status st = CUZK_OK;
    json_t *entry, *digest;
    if (!json_is_object(root)) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object of file entries",
                            manifest);
    } else if (!(entry = json_object_get(root, name))) {
        st = cuzk_error_set(err, CUZK_ERR_NOT_FOUND,
                            "%s: the parameters.json beside it has no entry for it; not "
                            "loading a file the manifest does not know (update it, or remove "
                            "it to skip the digest checks): %s",
                            name, manifest);
    } else if (!json_is_object(entry) || !(digest = json_object_get(entry, "digest")) ||
               !json_is_string(digest) || !is_digest(json_string_value(digest))) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "%s: the entry for %s has no \"digest\" of 32 lower-case hex "
                            "characters",
                            manifest, name);
    } else {
        memcpy(expected, json_string_value(digest), CUZK_PARAM_DIGEST_HEX + 1);
    }
    json_decref(root);
    return st;
#else
    (void)manifest, (void)name, (void)path, (void)expected;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "this build reads no JSON (no jansson)");
#endif
}

/* ---- the check ------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static cuzk_status file_check(const char *path, unsigned flags, cuzk_param_check *out,
                              const atomic_bool *stop, cuzk_error *err)
{
    cuzk_param_check local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL path");
    char dir[4096], manifest[4200];
    const char *name;
    split_path(path, dir, sizeof dir, &name);
    snprintf(manifest, sizeof manifest, "%s%s", dir, CUZK_PARAM_MANIFEST);
    if (access(manifest, F_OK) != 0) {
        out->verdict = CUZK_PARAM_NO_MANIFEST;
        snprintf(out->reason, sizeof out->reason, "no %s in %.120s", CUZK_PARAM_MANIFEST,
                 dir[0] ? dir : "./");
        return CUZK_OK;
    }
    cuzk_error me = {0};
    cuzk_status st = manifest_digest(manifest, name, path, out->expected, &me);
    if (st == CUZK_ERR_UNSUPPORTED) {
        out->verdict = CUZK_PARAM_UNCHECKABLE;
        snprintf(out->reason, sizeof out->reason, "%.150s", me.msg);
        return CUZK_OK;
    }
    if (st != CUZK_OK) {
        if (err)
            *err = me;
        return st;
    }

    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    bool stat_ok = fstat(fd, &sb) == 0;
    if (!stat_ok || !S_ISREG(sb.st_mode)) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path,
                            stat_ok ? "not a regular file" : strerror(errno));
        close(fd);
        return st;
    }
    file_key k = key_of(&sb);
    char hex[129];
    bool cached = !(flags & CUZK_PARAM_NO_CACHE) &&
                  ((!(flags & CUZK_PARAM_NO_MEMO) && mem_get(&k, hex)) ||
                   sidecar_get(path, &k, hex));
    if (!cached && (flags & CUZK_PARAM_CACHED_ONLY)) {
        close(fd);
        out->verdict = CUZK_PARAM_NOT_HASHED;
        snprintf(out->reason, sizeof out->reason, "no digest remembered for this file yet");
        return CUZK_OK;
    }
    if (!cached) {
        uint8_t md[64];
        double t0 = now_s();
        st = hash_fd(fd, path, md, &out->bytes_hashed, stop, &me);
        out->seconds = now_s() - t0;
        if (st == CUZK_ERR_UNSUPPORTED) {
            close(fd);
            out->verdict = CUZK_PARAM_UNCHECKABLE;
            snprintf(out->reason, sizeof out->reason, "%.150s", me.msg);
            return CUZK_OK;
        }
        if (st != CUZK_OK) {
            close(fd);
            if (err)
                *err = me;
            return st;
        }
        to_hex(hex, md, 64);
        /* the key of the content just read: a write during the hash moves ctime, and the
         * digest is then remembered for no key that the next check will find */
        struct stat after;
        if (fstat(fd, &after) == 0) {
            file_key k2 = key_of(&after);
            if (key_eq(&k, &k2)) {
                /* the actual digest, right or wrong: a mismatch is then found again by a
                 * stat (CUZK_PARAM_CACHED_ONLY), not by another minute of hashing */
                mem_put(&k, hex);
                out->cache_written = sidecar_put(path, &k, hex);
            }
        }
    } else {
        mem_put(&k, hex);
    }
    close(fd);
    memcpy(out->actual, hex, CUZK_PARAM_DIGEST_HEX);
    out->actual[CUZK_PARAM_DIGEST_HEX] = 0;
    /* the base name first: Filecoin's names are long, and messages are cut at 255 */
    if (strcmp(out->actual, out->expected) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: digest %s, parameters.json expects %s: corrupt, partial "
                              "or another file (in %s)",
                              name, out->actual, out->expected, dir[0] ? dir : "./");
    out->verdict = cached ? CUZK_PARAM_MATCHED_CACHED : CUZK_PARAM_MATCHED;
    return CUZK_OK;
}

cuzk_status cuzk_param_file_check(const char *path, unsigned flags, cuzk_param_check *out,
                                  cuzk_error *err)
{
    return file_check(path, flags, out, NULL, err);
}

/* ---- the check in the background ------------------------------------------------------- */

struct cuzk_param_bgcheck {
    pthread_t thread;
    atomic_bool stop, finished;
    char *path;
    unsigned flags;
    cuzk_param_done_fn done;
    void *ctx;
};

static void *bg_main(void *arg)
{
    cuzk_param_bgcheck *b = arg;
    cuzk_param_check pc;
    cuzk_error e;
    cuzk_error_clear(&e);
    cuzk_status st = file_check(b->path, b->flags, &pc, &b->stop, &e);
    b->done(b->ctx, st, &pc, &e);
    atomic_store(&b->finished, true);
    return NULL;
}

cuzk_status cuzk_param_file_check_start(const char *path, unsigned flags,
                                        cuzk_param_done_fn done, void *ctx,
                                        cuzk_param_bgcheck **out, cuzk_error *err)
{
    if (!path || !done || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    *out = NULL;
    cuzk_param_bgcheck *b = calloc(1, sizeof *b);
    if (!b || !(b->path = strdup(path))) {
        free(b);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    atomic_init(&b->stop, false);
    atomic_init(&b->finished, false);
    b->flags = flags & ~CUZK_PARAM_CACHED_ONLY;
    b->done = done;
    b->ctx = ctx;
    int rc = pthread_create(&b->thread, NULL, bg_main, b);
    if (rc != 0) {
        free(b->path);
        free(b);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cannot start the digest thread: %s",
                              strerror(rc));
    }
    *out = b;
    return CUZK_OK;
}

bool cuzk_param_file_check_finished(const cuzk_param_bgcheck *b)
{
    return !b || atomic_load(&b->finished);
}

void cuzk_param_file_check_join(cuzk_param_bgcheck *b, bool stop)
{
    if (!b)
        return;
    if (stop)
        atomic_store(&b->stop, true);
    pthread_join(b->thread, NULL);
    free(b->path);
    free(b);
}

/* ---- .vk against .params ---------------------------------------------------------------- */

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

cuzk_status cuzk_param_vk_matches(const uint8_t *params, size_t params_len, const char *params_name,
                                  const char *vk_path, cuzk_error *err)
{
    if (!params || !vk_path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (!params_name)
        params_name = "the .params";
    const size_t fixed = CUZK_BELLPERSON_VK_FIXED_BYTES;
    if (params_len < fixed + 4)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: shorter than a verifying key",
                              params_name);
    const uint8_t *p = params + fixed;
    uint64_t n_ic = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
    uint64_t vk_len = fixed + 4 + n_ic * 96;
    if (vk_len > params_len)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: ends inside its verifying key (%" PRIu64 " inputs)",
                              params_name, n_ic);
    int fd = open(vk_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", vk_path, strerror(errno));
    struct stat sb;
    cuzk_status st = CUZK_OK;
    uint8_t *buf = NULL;
    if (fstat(fd, &sb) != 0) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", vk_path, strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: not a regular file", vk_path);
    } else if ((uint64_t)sb.st_size != vk_len) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "%s: not the verifying key of the .params (%" PRIu64 " bytes, the "
                            ".params' key has %" PRIu64 "): %s",
                            base_of(vk_path), (uint64_t)sb.st_size, vk_len, params_name);
    } else if (!(buf = malloc(vk_len))) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    } else {
        size_t got = 0;
        while (got < vk_len) {
            ssize_t r = read(fd, buf + got, vk_len - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != vk_len)
            st = cuzk_error_set(err, CUZK_ERR_IO, "%s: short read", vk_path);
        else if (memcmp(buf, params, vk_len) != 0) {
            size_t at = 0;
            while (buf[at] == params[at])
                at++;
            st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                                "%s: not the verifying key of the .params (they differ at "
                                "byte %zu): %s",
                                base_of(vk_path), at, params_name);
        }
    }
    free(buf);
    close(fd);
    return st;
}
