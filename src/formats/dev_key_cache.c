/*
 * dev_key_cache.c — a development Groth16 key cached beside a note that names the circuit
 * it belongs to (contract in cuzk/formats.h): load it when the note matches, else make it
 * with cuzk_groth16_setup_dev and write .params + note all-or-nothing (cuzk/outfiles.h).
 * NOT Filecoin's trusted setup; the file name and the note say so.
 *
 * Why a note beside the file and not a header in it: the .params stays byte-compatible
 * with bellperson's reader, and the note can be read and compared without mapping a
 * gigabyte. The note's content is fully determined by (r1cs shape digest, .params size),
 * so "matches" is a byte comparison with the note this call would write.
 *
 * Threading: the setup and the .params decoding run on the given pool; the digest and the
 * file work run on the calling thread.
 */
#define _XOPEN_SOURCE 700 /* stat */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/formats.h"
#include "cuzk/outfiles.h"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>

#define NOTE_MAX 2048

static const char NOTE_FMT[] =
    "cuzk DEVELOPMENT Groth16 key -- NOT Filecoin's trusted setup.\n"
    "Made by cuzk_groth16_setup_dev: the process that made it knew the toxic waste, so\n"
    "proofs made with this key convince nobody else. For tests and demos only.\n"
    "format bellperson-params\n"
    "r1cs-shape-sha256 %s\n"
    "params-bytes %llu\n";

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static bool upd(EVP_MD_CTX *c, const void *p, size_t n)
{
    return n == 0 || EVP_DigestUpdate(c, p, n) == 1;
}

/* Matrix m's nnz coefficients as one 32-byte-a-term stream, whichever form carries them
 * (cuzk/r1cs.h): a mapped cache has only the table, and must digest as the recorded copy
 * it was written from, so table entries are copied out a block at a time (SHA-256 does
 * not see the chunking). */
static bool upd_coeffs(EVP_MD_CTX *c, const cuzk_r1cs *r1cs, int m)
{
    const cuzk_csr *M = &r1cs->m[m];
    if (M->coeff || !M->nnz)
        return upd(c, M->coeff, M->nnz * sizeof *M->coeff);
    cuzk_fr buf[256];
    const uint32_t *ci = r1cs->coeff_index[m];
    for (uint64_t k = 0; k < M->nnz;) {
        size_t n = 0;
        for (; n < 256 && k < M->nnz; n++, k++)
            buf[n] = r1cs->coeff_values[ci[k]];
        if (!upd(c, buf, n * sizeof *buf))
            return false;
    }
    return true;
}

/* Little-endian fixed-width fields, so the digest does not depend on the host's struct
 * layout; the CSR arrays are hashed as stored (x86-64 and the GPU host are both
 * little-endian, and Montgomery form is a fixed function of the coefficient). */
cuzk_status cuzk_r1cs_shape_digest(char hex[65], const cuzk_r1cs *r1cs, cuzk_error *err)
{
    if (!hex || !r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs digest: NULL argument");
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs digest: no memory");
    static const char tag[] = "cuzk-r1cs-shape-v1";
    uint64_t head[4] = {r1cs->n_constraints, r1cs->n_vars, r1cs->n_public, r1cs->n_aux};
    bool ok = EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1 && upd(c, tag, sizeof tag) &&
              upd(c, head, sizeof head);
    for (int m = 0; ok && m < CUZK_R1CS_MATRICES; m++) {
        const cuzk_csr *M = &r1cs->m[m];
        uint64_t nnz = M->nnz;
        ok = upd(c, &nnz, sizeof nnz) &&
             upd(c, M->row_ptr, (r1cs->n_constraints + 1) * sizeof *M->row_ptr) &&
             upd(c, M->col, nnz * sizeof *M->col) && upd_coeffs(c, r1cs, m);
    }
    unsigned char d[32];
    unsigned int dn = 0;
    ok = ok && EVP_DigestFinal_ex(c, d, &dn) == 1 && dn == 32;
    EVP_MD_CTX_free(c);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "r1cs digest: SHA-256 failed");
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return CUZK_OK;
}

/* The note for this digest and .params size; its length. */
static int note_text(char *out, const char *hex, unsigned long long size)
{
    return snprintf(out, NOTE_MAX, NOTE_FMT, hex, size);
}

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

cuzk_status cuzk_groth16_dev_key_cached(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                        const cuzk_r1cs *r1cs, const char *path,
                                        cuzk_pool *pool, bool *made, cuzk_error *err)
{
    if (!pk || !r1cs || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "dev key cache: NULL argument");
    if (!ends_with(path, CUZK_DEV_KEY_SUFFIX))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "dev key cache: %s: the name must end in " CUZK_DEV_KEY_SUFFIX
                              " (it is a development key, not Filecoin's parameters)",
                              path);
    char hex[65];
    cuzk_status st = cuzk_r1cs_shape_digest(hex, r1cs, err);
    if (st != CUZK_OK)
        return st;
    size_t pl = strlen(path);
    char *note_path = malloc(pl + sizeof CUZK_DEV_KEY_NOTE_SUFFIX);
    if (!note_path)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "dev key cache: no memory");
    memcpy(note_path, path, pl);
    memcpy(note_path + pl, CUZK_DEV_KEY_NOTE_SUFFIX, sizeof CUZK_DEV_KEY_NOTE_SUFFIX);

    cuzk_groth16_pk k;
    memset(&k, 0, sizeof k);
    bool fresh = !try_load(&k, r1cs, path, note_path, hex, pool);
    if (fresh) {
        st = cuzk_groth16_setup_dev(&k, NULL, r1cs, CUZK_GROTH16_BELLPERSON, NULL, pool, err);
        if (st == CUZK_OK && (st = save_pair(&k, path, note_path, hex, err)) != CUZK_OK)
            cuzk_groth16_pk_free(&k);
    }
    free(note_path);
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

#else /* !CUZK_HAVE_OPENSSL */

cuzk_status cuzk_r1cs_shape_digest(char hex[65], const cuzk_r1cs *r1cs, cuzk_error *err)
{
    (void)hex;
    (void)r1cs;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "r1cs digest: built without OpenSSL");
}

cuzk_status cuzk_groth16_dev_key_cached(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                        const cuzk_r1cs *r1cs, const char *path,
                                        cuzk_pool *pool, bool *made, cuzk_error *err)
{
    (void)pk, (void)vk, (void)r1cs, (void)path, (void)pool, (void)made;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "dev key cache: built without OpenSSL (SHA-256)");
}

#endif /* CUZK_HAVE_OPENSSL */
