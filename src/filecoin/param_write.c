/*
 * param_write.c — a proving key written as Filecoin ships it (cuzk/param_digest.h:
 * cuzk_param_files_write): <base>.params and <base>.vk in bellperson's format, and their
 * entries in the directory's parameters.json, with the digests paramfetch checks.
 *
 * The .params is streamed (cuzk_groth16_pk_stream_bellperson: a 32 GiB PoRep key is
 * ~47 GB, written once) into a temporary in the same directory, BLAKE2b-512 taken over the
 * same bytes on their way out (no second read of the file), flushed to disk and renamed
 * into place; then the .vk likewise; then parameters.json is read (or started), its two
 * entries set, and written through a temporary + rename. A failure leaves the old files
 * and the old parameters.json, and removes the temporary.
 *
 * Threading: the points are encoded over the pool; hashing and writing run on the calling
 * thread (BLAKE2b is sequential).
 */
#define _GNU_SOURCE /* mkstemp, fdatasync */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif

#include "cuzk/formats.h"
#include "cuzk/param_digest.h"

#if defined(CUZK_HAVE_OPENSSL) && defined(CUZK_HAVE_JANSSON)

typedef struct out_file {
    int fd;
    const char *path;
    EVP_MD_CTX *md;
    uint64_t bytes;
} out_file;

static cuzk_status out_bytes(void *ctx, const uint8_t *p, size_t n, cuzk_error *err)
{
    out_file *o = ctx;
    EVP_DigestUpdate(o->md, p, n);
    o->bytes += n;
    while (n) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "%s: write: %s", o->path,
                                  w < 0 ? strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
    }
    return CUZK_OK;
}

static void hex32(char out[CUZK_PARAM_DIGEST_HEX + 1], const uint8_t md[64])
{
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < CUZK_PARAM_DIGEST_HEX / 2; i++) {
        out[2 * i] = d[md[i] >> 4];
        out[2 * i + 1] = d[md[i] & 15];
    }
    out[CUZK_PARAM_DIGEST_HEX] = 0;
}

/* The .vk's bytes (kB to a few MB) in one piece. */
static cuzk_status put_vk(out_file *o, const cuzk_groth16_vk *vk, cuzk_error *err)
{
    size_t n = cuzk_groth16_vk_bellperson_size(vk);
    uint8_t *b = malloc(n);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status st = cuzk_groth16_vk_to_bellperson(b, n, vk, err);
    if (st == CUZK_OK)
        st = out_bytes(o, b, n, err);
    free(b);
    return st;
}

/* dir/name through dir/.name.XXXXXX, hashed on the way: pk's .params when as_params,
 * else its .vk. */
static cuzk_status write_one(const char *dir, const char *name, const cuzk_groth16_pk *pk,
                             bool as_params, cuzk_pool *pool,
                             char digest[CUZK_PARAM_DIGEST_HEX + 1], uint64_t *bytes,
                             cuzk_error *err)
{
    char path[4096], tmp[4200];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, name) >= (int)sizeof tmp)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: path too long", name);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    out_file o = {fd, path, EVP_MD_CTX_new(), 0};
    cuzk_status st = CUZK_OK;
    if (!o.md || EVP_DigestInit_ex(o.md, EVP_blake2b512(), NULL) != 1) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "this OpenSSL has no BLAKE2b-512");
    } else if (as_params) {
        st = cuzk_groth16_pk_stream_bellperson(pk, 0, out_bytes, &o, pool, err);
    } else {
        st = put_vk(&o, &pk->vk, err);
    }
    if (st == CUZK_OK && (fchmod(fd, 0644) != 0 || fdatasync(fd) != 0))
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    if (close(fd) != 0 && st == CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: close: %s", tmp, strerror(errno));
    if (st == CUZK_OK && rename(tmp, path) != 0)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: rename: %s", path, strerror(errno));
    if (st != CUZK_OK) {
        unlink(tmp);
    } else {
        uint8_t md[64];
        unsigned len = 0;
        EVP_DigestFinal_ex(o.md, md, &len);
        hex32(digest, md);
        *bytes = o.bytes;
    }
    EVP_MD_CTX_free(o.md);
    return st;
}

/* parameters.json of dir with the entries of the two files set (others kept). */
static cuzk_status put_manifest(const char *dir, const char *base, uint64_t sector_size,
                                const char *cid_note, const cuzk_param_written *w,
                                cuzk_error *err)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, CUZK_PARAM_MANIFEST);
    snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, CUZK_PARAM_MANIFEST);
    json_t *root = NULL;
    if (access(path, F_OK) == 0) {
        json_error_t je;
        if (!(root = json_load_file(path, JSON_REJECT_DUPLICATES, &je)))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: line %d: %s", path, je.line,
                                  je.text);
        if (!json_is_object(root)) {
            json_decref(root);
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object", path);
        }
    } else if (!(root = json_object())) {
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    const char *ext[2] = {".params", ".vk"};
    const char *dig[2] = {w->params_digest, w->vk_digest};
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        char name[512], cid[128];
        snprintf(name, sizeof name, "%s%s", base, ext[i]);
        snprintf(cid, sizeof cid, "%s", cid_note);
        json_t *entry = json_pack("{s:s, s:s, s:I}", "cid", cid, "digest", dig[i], "sector_size",
                                  (json_int_t)sector_size);
        ok = entry && json_object_set_new(root, name, entry) == 0;
    }
    cuzk_status st = CUZK_OK;
    int fd = ok ? mkstemp(tmp) : -1;
    if (!ok) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    } else if (fd < 0) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    } else {
        char *text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
        size_t n = text ? strlen(text) : 0;
        bool wrote = text && write(fd, text, n) == (ssize_t)n && write(fd, "\n", 1) == 1 &&
                     fchmod(fd, 0644) == 0 && fdatasync(fd) == 0;
        free(text);
        wrote = close(fd) == 0 && wrote;
        if (!wrote || rename(tmp, path) != 0) {
            st = cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
            unlink(tmp);
        }
    }
    json_decref(root);
    return st;
}

cuzk_status cuzk_param_files_write(const cuzk_groth16_pk *pk, const char *dir, const char *base,
                                   uint64_t sector_size, cuzk_pool *pool,
                                   cuzk_param_written *out, cuzk_error *err)
{
    if (!pk || !dir || !base || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(out, 0, sizeof *out);
    if (strchr(base, '/') || !*base)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: not a file name", base);
    char name[512];
    snprintf(name, sizeof name, "%s.params", base);
    cuzk_status st = write_one(dir, name, pk, true, pool, out->params_digest,
                               &out->params_bytes, err);
    snprintf(name, sizeof name, "%s.vk", base);
    if (st == CUZK_OK)
        st = write_one(dir, name, pk, false, pool, out->vk_digest, &out->vk_bytes, err);
    if (st == CUZK_OK)
        st = put_manifest(dir, base, sector_size,
                          "cuzk-dev-key-not-ipfs (NOT Filecoin's trusted setup)", out, err);
    return st;
}

#else

cuzk_status cuzk_param_files_write(const cuzk_groth16_pk *pk, const char *dir, const char *base,
                                   uint64_t sector_size, cuzk_pool *pool,
                                   cuzk_param_written *out, cuzk_error *err)
{
    (void)pk, (void)dir, (void)base, (void)sector_size, (void)pool, (void)out;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "this build cannot write parameter files (needs OpenSSL and jansson)");
}

#endif
