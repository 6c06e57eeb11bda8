/*
 * dev_key_cache.c — a development Groth16 key cached beside a note that names the circuit
 * it belongs to (contract in cuzk/formats.h): load it when the note matches, else make it
 * with cuzk_groth16_setup_dev and write it all-or-nothing (cuzk/outfiles.h), in one of two
 * forms:
 *   PARAMS  the key itself, a bellperson .params (NAME.dev.params), and the note NAME.info;
 *   SEED    only the toxic-waste seed the key is made from (NAME.seed, a text note that
 *           also names the circuit, the key's size and its verifying key's digest) and the
 *           verifying key (NAME.vk); each load makes the key again from the seed
 *           (cuzk_groth16_setup_dev_ex, on a GPU when the caller's options give a hook:
 *           seconds for a 32 GiB PoRep key, whose .params would be ~47 GB).
 * NOT Filecoin's trusted setup; the file names and the notes say so.
 * A cancel (the setup options' flag) stops the call before any file is begun: the setup
 * checks it throughout, and this file after the digest and before writing; the writes
 * themselves are all-or-nothing, so a stopped call leaves no key file and no temporary.
 * With opts->save_err a key that cannot be written is still returned, so a caller that
 * falls back to an in-memory key does not make it twice.
 *
 * Why a note beside the file and not a header in it: the .params stays byte-compatible
 * with bellperson's reader, and the note can be read and compared without mapping a
 * gigabyte. The PARAMS note's content is fully determined by (r1cs shape digest, .params
 * size), so "matches" is a byte comparison with the note this call would write; the SEED
 * note is too, given the values it carries, plus a SHA-256 of its own lines, so a damaged
 * seed is refused rather than turned into another key.
 *
 * The circuit's identity is a SHA-256 tree over its shape (v2): the row pointers, columns
 * and coefficients of each matrix cut into 64 MiB pieces hashed in parallel on the pool,
 * each stream's digest the SHA-256 of its piece digests (a 32 GiB PoRep partition's ~30 GB
 * in about a second on 16 threads instead of ~20 s on one). Version 1 (one sequential
 * SHA-256) notes no longer match: those keys are made again once.
 *
 * Threading: the setup, the digest and the .params decoding run on the given pool; the
 * file work runs on the calling thread.
 */
#define _DEFAULT_SOURCE    /* explicit_bzero */
#define _XOPEN_SOURCE 700 /* stat */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/formats.h"
#include "cuzk/outfiles.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/rand.h>

#define NOTE_MAX 2048
#define DIG_PIECE ((uint64_t)64 << 20) /* bytes a leaf of the digest tree (32 | it) */
#define DEFAULT_SEED_ABOVE ((uint64_t)4 << 30)

static const char NOTE_FMT[] =
    "cuzk DEVELOPMENT Groth16 key -- NOT Filecoin's trusted setup.\n"
    "Made by cuzk_groth16_setup_dev: the process that made it knew the toxic waste, so\n"
    "proofs made with this key convince nobody else. For tests and demos only.\n"
    "format bellperson-params\n"
    "r1cs-shape-sha256-v2 %s\n"
    "params-bytes %llu\n";

static const char SEED_FMT[] =
    "cuzk DEVELOPMENT Groth16 key -- NOT Filecoin's trusted setup.\n"
    "SEED-ONLY: the key is made again by cuzk_groth16_setup_dev from the toxic-waste seed\n"
    "below each time it is loaded. Whoever can read this file can forge proofs for this\n"
    "key, so its proofs convince nobody else. For tests and demos only.\n"
    "format bellperson-params seed-v1\n"
    "r1cs-shape-sha256-v2 %s\n"
    "params-bytes %llu\n"
    "vk-sha256 %s\n"
    "seed %s\n";

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static bool upd(EVP_MD_CTX *c, const void *p, size_t n)
{
    return n == 0 || EVP_DigestUpdate(c, p, n) == 1;
}

static void to_hex(char *hex, const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static bool from_hex(uint8_t *d, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char ch = hex[2 * i + k];
            unsigned x = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                       : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                                                : 16u;
            if (x == 16)
                return false;
            v = v * 16 + x;
        }
        d[i] = (uint8_t)v;
    }
    return true;
}

static bool sha256(uint8_t out[32], const void *p, size_t n)
{
    unsigned int dn = 0;
    return EVP_Digest(p, n, out, &dn, EVP_sha256(), NULL) == 1 && dn == 32;
}

/* ---- the circuit's identity: a SHA-256 tree over its shape --------------------------- */

/* The nine streams, per matrix: row_ptr, col, coefficients (32 bytes a term, whichever
 * form carries them: a mapped cache has only the table and must digest as the recorded
 * copy it was written from, so table entries are copied out a block at a time). */
typedef struct dig_job {
    const cuzk_r1cs *r1cs;
    uint64_t bytes[9], first[10]; /* stream bytes; index of each stream's first leaf */
    uint8_t (*leaf)[32];
    int failed;                   /* __atomic */
} dig_job;

static bool dig_leaf(const dig_job *J, int s, uint64_t off, uint64_t len, uint8_t out[32])
{
    const cuzk_r1cs *r = J->r1cs;
    const cuzk_csr *M = &r->m[s / 3];
    if (s % 3 == 0)
        return sha256(out, (const uint8_t *)M->row_ptr + off, len);
    if (s % 3 == 1)
        return sha256(out, (const uint8_t *)M->col + off, len);
    if (M->coeff)
        return sha256(out, (const uint8_t *)M->coeff + off, len);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c)
        return false;
    const uint32_t *ci = r->coeff_index[s / 3];
    cuzk_fr buf[256];
    bool ok = EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1;
    for (uint64_t k = off / sizeof(cuzk_fr), end = (off + len) / sizeof(cuzk_fr); ok && k < end;) {
        size_t n = 0;
        for (; n < 256 && k < end; n++, k++)
            buf[n] = r->coeff_values[ci[k]];
        ok = upd(c, buf, n * sizeof *buf);
    }
    unsigned int dn = 0;
    ok = ok && EVP_DigestFinal_ex(c, out, &dn) == 1 && dn == 32;
    EVP_MD_CTX_free(c);
    return ok;
}

static void dig_fn(void *ctx, size_t begin, size_t end, unsigned wid)
{
    (void)wid;
    dig_job *J = ctx;
    for (size_t i = begin; i < end; i++) {
        int s = 0;
        while (i >= J->first[s + 1])
            s++;
        uint64_t off = (i - J->first[s]) * DIG_PIECE;
        uint64_t len = J->bytes[s] - off < DIG_PIECE ? J->bytes[s] - off : DIG_PIECE;
        if (!dig_leaf(J, s, off, len, J->leaf[i]))
            __atomic_store_n(&J->failed, 1, __ATOMIC_RELAXED);
    }
}

/* Little-endian fixed-width fields, so the digest does not depend on the host's struct
 * layout; the CSR arrays are hashed as stored (x86-64 and the GPU host are both
 * little-endian, and Montgomery form is a fixed function of the coefficient). */
cuzk_status cuzk_r1cs_shape_digest_pool(char hex[65], const cuzk_r1cs *r1cs, cuzk_pool *pool,
                                        cuzk_error *err)
{
    if (!hex || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs digest: NULL argument");
    dig_job J;
    memset(&J, 0, sizeof J);
    J.r1cs = r1cs;
    for (int s = 0; s < 9; s++) {
        const cuzk_csr *M = &r1cs->m[s / 3];
        J.bytes[s] = s % 3 == 0   ? (r1cs->n_constraints + 1) * sizeof *M->row_ptr
                     : s % 3 == 1 ? M->nnz * sizeof *M->col
                                  : M->nnz * sizeof(cuzk_fr);
        J.first[s + 1] = J.first[s] + (J.bytes[s] + DIG_PIECE - 1) / DIG_PIECE;
    }
    size_t nleaf = (size_t)J.first[9];
    J.leaf = malloc((nleaf ? nleaf : 1) * sizeof *J.leaf);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!J.leaf || !c) {
        free(J.leaf);
        EVP_MD_CTX_free(c);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs digest: no memory");
    }
    cuzk_status st = cuzk_pool_for(pool, nleaf, dig_fn, &J, 1);
    static const char tag[] = "cuzk-r1cs-shape-v2";
    uint64_t head[4] = {r1cs->n_constraints, r1cs->n_vars, r1cs->n_public, r1cs->n_aux};
    bool ok = st == CUZK_OK && !J.failed && EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1 &&
              upd(c, tag, sizeof tag) && upd(c, head, sizeof head);
    for (int s = 0; ok && s < 9; s++) {
        uint64_t nnz = r1cs->m[s / 3].nnz;
        uint8_t sd[32];
        size_t nl = (size_t)(J.first[s + 1] - J.first[s]);
        /* the stream's digest: its byte count and its leaves */
        EVP_MD_CTX *sc = EVP_MD_CTX_new();
        unsigned int dn = 0;
        ok = sc && EVP_DigestInit_ex(sc, EVP_sha256(), NULL) == 1 &&
             upd(sc, &J.bytes[s], sizeof J.bytes[s]) &&
             upd(sc, J.leaf + J.first[s], nl * sizeof *J.leaf) &&
             EVP_DigestFinal_ex(sc, sd, &dn) == 1 && dn == 32;
        EVP_MD_CTX_free(sc);
        ok = ok && (s % 3 != 0 || upd(c, &nnz, sizeof nnz)) && upd(c, sd, sizeof sd);
    }
    unsigned char d[32];
    unsigned int dn = 0;
    ok = ok && EVP_DigestFinal_ex(c, d, &dn) == 1 && dn == 32;
    EVP_MD_CTX_free(c);
    free(J.leaf);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "r1cs digest: SHA-256 failed");
    to_hex(hex, d, 32);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_shape_digest(char hex[65], const cuzk_r1cs *r1cs, cuzk_error *err)
{
    return cuzk_r1cs_shape_digest_pool(hex, r1cs, NULL, err);
}

/* ---- notes -------------------------------------------------------------------------- */

/* The PARAMS note for this digest and .params size; its length. */
static int note_text(char *out, const char *hex, unsigned long long size)
{
    return snprintf(out, NOTE_MAX, NOTE_FMT, hex, size);
}

/* The SEED note: SEED_FMT filled in, then "check <SHA-256 of the lines above>"; its
 * length (0 if it does not fit). */
static int seed_text(char *out, const char *hex, unsigned long long size, const uint8_t vk_sha[32],
                     const uint8_t seed[32])
{
    char vh[65], sh[65], ch[65];
    uint8_t d[32];
    to_hex(vh, vk_sha, 32);
    to_hex(sh, seed, 32);
    int n = snprintf(out, NOTE_MAX, SEED_FMT, hex, size, vh, sh);
    explicit_bzero(sh, sizeof sh);
    if (n <= 0 || n >= NOTE_MAX - 80 || !sha256(d, out, (size_t)n))
        return 0;
    to_hex(ch, d, 32);
    return n + snprintf(out + n, NOTE_MAX - (size_t)n, "check %s\n", ch);
}

/* The value after "\n<key> " in text (64 hex digits for 32 bytes, or a decimal). */
static const char *field(const char *text, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\n%s ", key);
    const char *p = strstr(text, pat);
    return p ? p + strlen(pat) : NULL;
}

static void note_paths_free(char *a, char *b, char *c)
{
    free(a);
    free(b);
    free(c);
}

static char *suffixed(const char *path, const char *suffix)
{
    size_t pl = strlen(path), sl = strlen(suffix);
    char *p = malloc(pl + sl + 1);
    if (p) {
        memcpy(p, path, pl);
        memcpy(p + pl, suffix, sl + 1);
    }
    return p;
}

/* The .params size of a bellperson key for r1cs, roughly (the mode's threshold only):
 * 96 bytes a G1 point (h over the domain, l over aux, a and b over their densities) and
 * 192 a G2 point. */
static uint64_t params_bytes_estimate(const cuzk_r1cs *r)
{
    uint64_t rows = r->n_constraints + 1 + r->n_public, n = 1;
    while (n < rows)
        n <<= 1;
    uint64_t a = r->density_count[CUZK_R1CS_A] + 1 + r->n_public;
    uint64_t b = r->density_count[CUZK_R1CS_B];
    return 96 * (n + r->n_aux + a + b) + 192 * b;
}

/* "4294967296", "4G": bytes; false if malformed */
static bool parse_bytes(const char *v, uint64_t *out)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    int sh = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 'T' ? 40 : 0;
    if (end == v || (sh && *++end) || *end || x > (UINT64_MAX >> sh))
        return false;
    *out = (uint64_t)x << sh;
    return true;
}

/* ---- PARAMS form ------------------------------------------------------------------- */

/* true when path + note hold a key for the circuit of hex and it loads and fits r1cs. */
static bool try_load(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs, const char *path,
                     const char *note_path, const char *hex, cuzk_pool *pool)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return false;
    char want[NOTE_MAX], *have = NULL;
    size_t len = 0;
    int wn = note_text(want, hex, (unsigned long long)sb.st_size);
    cuzk_error e = {0};
    if (cuzk_file_read_text(&have, &len, note_path, NOTE_MAX, &e) != CUZK_OK)
        return false;
    bool same = wn > 0 && len == (size_t)wn && memcmp(have, want, len) == 0;
    free(have);
    if (!same)
        return false;
    cuzk_groth16_pk k;
    memset(&k, 0, sizeof k);
    if (cuzk_groth16_pk_load_bellperson(&k, path, CUZK_PARAMS_TRUSTED_ONCURVE, pool, &e) !=
        CUZK_OK)
        return false;
    if (cuzk_groth16_pk_check_circuit(&k, r1cs, &e) != CUZK_OK) {
        cuzk_groth16_pk_free(&k);
        return false;
    }
    *pk = k;
    return true;
}

static cuzk_status save_pair(const cuzk_groth16_pk *pk, const char *path,
                             const char *note_path, const char *hex, cuzk_error *err)
{
    cuzk_outfiles *o = NULL;
    size_t ip, in;
    const char *tmp;
    char note[NOTE_MAX];
    cuzk_status st = cuzk_outfiles_create(&o, err);
    if (st != CUZK_OK)
        return st;
    if ((st = cuzk_outfiles_add(o, path, &ip, err)) == CUZK_OK &&
        (st = cuzk_outfiles_add(o, note_path, &in, err)) == CUZK_OK &&
        (st = cuzk_outfiles_temp_path(o, ip, &tmp, err)) == CUZK_OK &&
        (st = cuzk_groth16_pk_save_bellperson(pk, tmp, err)) == CUZK_OK) {
        int n = note_text(note, hex, (unsigned long long)cuzk_groth16_pk_bellperson_size(pk));
        if (n <= 0 || n >= NOTE_MAX)
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "dev key note too long");
        else if ((st = cuzk_outfiles_write(o, in, note, (size_t)n, err)) == CUZK_OK)
            st = cuzk_outfiles_commit(o, err);
    }
    cuzk_outfiles_destroy(o);
    return st;
}

/* ---- SEED form --------------------------------------------------------------------- */

/* The .vk bytes of pk (malloc'd) and their SHA-256. */
static cuzk_status vk_bytes(const cuzk_groth16_pk *pk, uint8_t **out, size_t *len,
                            uint8_t sha[32], cuzk_error *err)
{
    size_t n = cuzk_groth16_vk_bellperson_size(&pk->vk);
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "dev key cache: no memory");
    cuzk_status st = cuzk_groth16_vk_to_bellperson(b, n, &pk->vk, err);
    if (st == CUZK_OK && !sha256(sha, b, n))
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "dev key cache: SHA-256 failed");
    if (st != CUZK_OK) {
        free(b);
        return st;
    }
    *out = b;
    *len = n;
    return CUZK_OK;
}

static cuzk_status save_seed_pair(const cuzk_groth16_pk *pk, const uint8_t seed[32],
                                  const char *seed_path, const char *vk_path, const char *hex,
                                  cuzk_error *err)
{
    uint8_t *vb = NULL, vsha[32];
    size_t vlen = 0, iv, is;
    char note[NOTE_MAX];
    cuzk_status st = vk_bytes(pk, &vb, &vlen, vsha, err);
    if (st != CUZK_OK)
        return st;
    int n = seed_text(note, hex, (unsigned long long)cuzk_groth16_pk_bellperson_size(pk), vsha,
                      seed);
    cuzk_outfiles *o = NULL;
    if (n <= 0)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "dev key seed note too long");
    else if ((st = cuzk_outfiles_create(&o, err)) == CUZK_OK &&
             (st = cuzk_outfiles_add(o, vk_path, &iv, err)) == CUZK_OK &&
             (st = cuzk_outfiles_add(o, seed_path, &is, err)) == CUZK_OK &&
             (st = cuzk_outfiles_write(o, iv, vb, vlen, err)) == CUZK_OK &&
             (st = cuzk_outfiles_write(o, is, note, (size_t)n, err)) == CUZK_OK)
        st = cuzk_outfiles_commit(o, err); /* the seed note is renamed last: the mark */
    cuzk_outfiles_destroy(o);
    explicit_bzero(note, sizeof note);
    free(vb);
    return st;
}

typedef enum seed_found {
    SEED_NONE = 0,   /* no usable seed note for this circuit */
    SEED_SAME = 1,   /* the key the note records */
    SEED_REPAIR = 2, /* the same key, but its .vk was missing or damaged: rewritten */
    SEED_OTHER = 3,  /* a key from the note's seed, but not the one recorded (another setup
                        version): the files are rewritten for it */
} seed_found;

static void log_line(const cuzk_dev_key_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void log_line(const cuzk_dev_key_opts *o, const char *fmt, ...)
{
    const cuzk_groth16_setup_opts *s = o ? o->setup : NULL;
    if (!s || !s->log)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->log(s->log_ctx, msg);
}

/* A key from seed_path's seed when its note is intact and names this circuit (*found
 * says which case); an error only when the setup itself fails. */
static cuzk_status try_seed(cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs, const char *seed_path,
                            const char *vk_path, const char *hex, cuzk_pool *pool,
                            const cuzk_dev_key_opts *opts, uint8_t seed[32], seed_found *found,
                            cuzk_error *err)
{
    *found = SEED_NONE;
    char *have = NULL, want[NOTE_MAX];
    size_t len = 0;
    cuzk_error e = {0};
    if (cuzk_file_read_text(&have, &len, seed_path, NOTE_MAX, &e) != CUZK_OK)
        return CUZK_OK;
    /* the values it carries, then the whole text must be the one they give */
    const char *fs = field(have, "seed"), *fv = field(have, "vk-sha256"),
               *fp = field(have, "params-bytes");
    uint8_t vsha[32];
    unsigned long long size = 0;
    bool ok = fs && fv && fp && strlen(fs) >= 64 && strlen(fv) >= 64 && from_hex(seed, fs, 32) &&
              from_hex(vsha, fv, 32) && sscanf(fp, "%llu", &size) == 1;
    int wn = ok ? seed_text(want, hex, size, vsha, seed) : 0;
    ok = ok && wn > 0 && len == (size_t)wn && memcmp(have, want, len) == 0;
    explicit_bzero(have, len);
    explicit_bzero(want, sizeof want);
    free(have);
    if (!ok)
        return CUZK_OK;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cuzk_status st = cuzk_groth16_setup_dev_ex(pk, NULL, r1cs, CUZK_GROTH16_BELLPERSON, seed,
                                               pool, opts ? opts->setup : NULL, err);
    if (st != CUZK_OK)
        return st;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    log_line(opts, "dev key: made again from the seed in %s in %.1f s", seed_path,
             (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    uint8_t *vb = NULL, got[32];
    size_t vlen = 0;
    if ((st = vk_bytes(pk, &vb, &vlen, got, err)) != CUZK_OK) {
        cuzk_groth16_pk_free(pk);
        return st;
    }
    *found = SEED_SAME;
    if (memcmp(got, vsha, 32) != 0 || size != cuzk_groth16_pk_bellperson_size(pk)) {
        *found = SEED_OTHER;
        log_line(opts, "dev key: %s: the key made from the seed is not the one recorded "
                       "(another setup version?): its files are rewritten", seed_path);
    } else {
        char *fvk = NULL;
        size_t fl = 0;
        if (cuzk_file_read_text(&fvk, &fl, vk_path, vlen + 1, &e) != CUZK_OK || fl != vlen ||
            memcmp(fvk, vb, vlen) != 0)
            *found = SEED_REPAIR;
        free(fvk);
    }
    free(vb);
    return CUZK_OK;
}

/* ---- the cache ------------------------------------------------------------------------- */

static bool cancelled(const cuzk_groth16_setup_opts *s)
{
    return s && s->cancel && *s->cancel;
}

/* A write's outcome for the call: with save_err (the caller keeps an unwritten key) a
 * failed write is not the call's failure; save_err already holds its message. */
static cuzk_status saved(cuzk_status ws, const cuzk_error *save_err)
{
    return save_err ? CUZK_OK : ws;
}

static double secs_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

cuzk_status cuzk_groth16_dev_key_cached_ex(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                           const cuzk_r1cs *r1cs, const char *path,
                                           cuzk_pool *pool, const cuzk_dev_key_opts *opts,
                                           bool *made, cuzk_error *err)
{
    if (!pk || !r1cs || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "dev key cache: NULL argument");
    if (!ends_with(path, CUZK_DEV_KEY_SUFFIX))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "dev key cache: %s: the name must end in " CUZK_DEV_KEY_SUFFIX
                              " (it is a development key, not Filecoin's parameters)",
                              path);
    cuzk_dev_key_store store = opts ? opts->store : CUZK_DEV_KEY_STORE_AUTO;
    uint64_t above = opts ? opts->seed_above : 0;
    if (store != CUZK_DEV_KEY_STORE_AUTO && store != CUZK_DEV_KEY_STORE_PARAMS &&
        store != CUZK_DEV_KEY_STORE_SEED)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "dev key cache: bad store mode %d",
                              (int)store);
    if (store == CUZK_DEV_KEY_STORE_AUTO && above == 0) {
        const char *v = getenv("CUZK_DEV_KEY_SEED_ABOVE");
        above = DEFAULT_SEED_ABOVE;
        if (v && *v && !parse_bytes(v, &above))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "CUZK_DEV_KEY_SEED_ABOVE=%s: want a byte count (suffix K, "
                                  "M, G or T)",
                                  v);
    }
    const cuzk_groth16_setup_opts *sopts = opts ? opts->setup : NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char hex[65];
    cuzk_status st = cuzk_r1cs_shape_digest_pool(hex, r1cs, pool, err);
    if (st != CUZK_OK)
        return st;
    if (cancelled(sopts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "dev key cache: cancelled");
    cuzk_error *save_err = opts ? opts->save_err : NULL;
    if (save_err)
        *save_err = (cuzk_error){0};
    log_line(opts, "dev key: circuit digest %.16s... in %.2f s", hex, secs_since(&t0));
    char *note_path = suffixed(path, CUZK_DEV_KEY_NOTE_SUFFIX);
    char *seed_path = suffixed(path, CUZK_DEV_KEY_SEED_SUFFIX);
    char *vk_path = suffixed(path, CUZK_DEV_KEY_VK_SUFFIX);
    if (!note_path || !seed_path || !vk_path) {
        note_paths_free(note_path, seed_path, vk_path);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "dev key cache: no memory");
    }

    cuzk_groth16_pk k;
    memset(&k, 0, sizeof k);
    uint8_t seed[32];
    seed_found sf = SEED_NONE;
    bool fresh = false;
    if (try_load(&k, r1cs, path, note_path, hex, pool)) {
        log_line(opts, "dev key: loaded %s in %.1f s", path, secs_since(&t0));
    } else if ((st = try_seed(&k, r1cs, seed_path, vk_path, hex, pool, opts, seed, &sf, err)) ==
                   CUZK_OK &&
               sf != SEED_NONE) {
        fresh = sf == SEED_OTHER;
        if (sf != SEED_SAME && cancelled(sopts))
            st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "dev key cache: cancelled");
        else if (sf != SEED_SAME)
            st = saved(save_seed_pair(&k, seed, seed_path, vk_path, hex, save_err ? save_err
                                                                                 : err),
                       save_err);
        if (st != CUZK_OK)
            cuzk_groth16_pk_free(&k);
    } else if (st == CUZK_OK) {
        bool seed_only = store == CUZK_DEV_KEY_STORE_SEED ||
                         (store == CUZK_DEV_KEY_STORE_AUTO &&
                          params_bytes_estimate(r1cs) > above);
        fresh = true;
        if (seed_only && RAND_bytes(seed, sizeof seed) != 1)
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "dev key cache: no random seed");
        if (st == CUZK_OK)
            st = cuzk_groth16_setup_dev_ex(&k, NULL, r1cs, CUZK_GROTH16_BELLPERSON,
                                           seed_only ? seed : NULL, pool, sopts, err);
        /* a stop asked for during the setup's last step: no file is begun */
        if (st == CUZK_OK && cancelled(sopts)) {
            cuzk_groth16_pk_free(&k);
            st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "dev key cache: cancelled");
        } else if (st == CUZK_OK) {
            cuzk_error *we = save_err ? save_err : err;
            cuzk_status ws = seed_only ? save_seed_pair(&k, seed, seed_path, vk_path, hex, we)
                                       : save_pair(&k, path, note_path, hex, we);
            st = saved(ws, save_err);
            if (st != CUZK_OK) {
                cuzk_groth16_pk_free(&k);
            } else if (ws != CUZK_OK) {
                log_line(opts, "dev key: made in %.1f s but not written to %s: %s",
                         secs_since(&t0), seed_only ? seed_path : path, we->msg);
            } else { /* the other form's files belong to no key now */
                if (seed_only) {
                    unlink(path);
                    unlink(note_path);
                } else {
                    unlink(seed_path);
                    unlink(vk_path);
                }
                log_line(opts, "dev key: made %s (%s) in %.1f s", seed_only ? seed_path : path,
                         seed_only ? "seed only: made again from the seed at each load"
                                   : "bellperson .params",
                         secs_since(&t0));
            }
        }
    }
    explicit_bzero(seed, sizeof seed);
    note_paths_free(note_path, seed_path, vk_path);
    if (st != CUZK_OK)
        return st;
    if (vk && (st = cuzk_groth16_vk_copy(vk, &k.vk, err)) != CUZK_OK) {
        cuzk_groth16_pk_free(&k);
        return st;
    }
    *pk = k;
    if (made)
        *made = fresh;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_dev_key_cached(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                        const cuzk_r1cs *r1cs, const char *path,
                                        cuzk_pool *pool, bool *made, cuzk_error *err)
{
    return cuzk_groth16_dev_key_cached_ex(pk, vk, r1cs, path, pool, NULL, made, err);
}

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_r1cs_shape_digest_pool(char hex[65], const cuzk_r1cs *r1cs, cuzk_pool *pool,
                                        cuzk_error *err)
{
    (void)hex;
    (void)r1cs;
    (void)pool;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "r1cs digest: built without OpenSSL");
}

cuzk_status cuzk_r1cs_shape_digest(char hex[65], const cuzk_r1cs *r1cs, cuzk_error *err)
{
    return cuzk_r1cs_shape_digest_pool(hex, r1cs, NULL, err);
}

cuzk_status cuzk_groth16_dev_key_cached_ex(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                           const cuzk_r1cs *r1cs, const char *path,
                                           cuzk_pool *pool, const cuzk_dev_key_opts *opts,
                                           bool *made, cuzk_error *err)
{
    (void)pk, (void)vk, (void)r1cs, (void)path, (void)pool, (void)opts, (void)made;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "dev key cache: built without OpenSSL (SHA-256)");
}

cuzk_status cuzk_groth16_dev_key_cached(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                        const cuzk_r1cs *r1cs, const char *path,
                                        cuzk_pool *pool, bool *made, cuzk_error *err)
{
    return cuzk_groth16_dev_key_cached_ex(pk, vk, r1cs, path, pool, NULL, made, err);
}

#endif /* CUZK_HAVE_OPENSSL */
