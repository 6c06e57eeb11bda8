/*
 * snarkjs_zkey.c — reads snarkjs Groth16 .zkey files (layout in cuzk/formats.h) into a
 * CUZK_GROTH16_SNARKJS proving key plus the A/B matrices of section 4 as a cuzk_r1cs whose
 * C is absent (c_absent: snarkjs folds C into the key), which the prover takes as is.
 *
 * Order of work: container and header first, then every section's size is checked against
 * the header before anything proportional to a count is allocated, so allocation stays
 * bounded by the file size. Point vectors are decoded in chunks over the pool; a bad point
 * is reported by its vector, index and absolute offset.
 *
 * Threading: the readers are pure functions of their input (the pool's workers decode
 * disjoint point ranges); what they return is immutable.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "formats/binfile.h"
#include "formats/mapped_file.h"
#include "r1cs/r1cs_export.h"

#define ZK_SEC_PROTOCOL 1
#define ZK_SEC_HEADER 2
#define ZK_SEC_IC 3
#define ZK_SEC_COEFFS 4
#define ZK_SEC_A 5
#define ZK_SEC_B1 6
#define ZK_SEC_B2 7
#define ZK_SEC_C 8
#define ZK_SEC_H 9
#define ZK_SEC_CONTRIB 10

#define ZK_PROTOCOL_GROTH16 1u
#define G1B CUZK_G1_UNCOMPRESSED_BYTES
#define G2B CUZK_G2_UNCOMPRESSED_BYTES
/* u32 matrix + u32 constraint + u32 signal + 32-byte value */
#define ZK_COEF_BYTES (12u + CUZK_FR_BYTES)
/* Points decoded between two progress callbacks. */
#define ZK_CHUNK 16384u

typedef struct zk_file {
    binfile bf;
    cuzk_snarkjs_zkey_header h;
    size_t hdr_points; /* absolute offset of alpha1 in section 2 */
    const mapped_file *mf; /* the file mapping when loading from a path, else NULL */
} zk_file;

static cuzk_status check_size(const binfile *bf, uint32_t id, const char *name,
                              uint64_t want, bool required, bin_cursor *c, bool *found,
                              cuzk_error *err)
{
    bool f = false;
    cuzk_status st = binfile_section(bf, id, name, required, c, &f, err);
    if (st != CUZK_OK)
        return st;
    if (found)
        *found = f;
    if (f && bin_left(c) != want)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "zkey file: %s section (id %u) at offset %zu has %zu bytes, the "
                              "header implies %llu",
                              name, id, c->pos, bin_left(c), (unsigned long long)want);
    return CUZK_OK;
}

static cuzk_status zk_open(zk_file *z, const uint8_t *data, size_t len, cuzk_error *err)
{
    memset(z, 0, sizeof *z);
    cuzk_status st = binfile_open(&z->bf, data, len, "zkey", "zkey", err);
    if (st != CUZK_OK)
        return st;
    if (z->bf.version != 1)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "zkey file: version %u at offset 4 is not supported (need 1)",
                              z->bf.version);
    cuzk_snarkjs_zkey_header *h = &z->h;
    h->n_sections = z->bf.n_sections;
    bin_cursor c;
    if ((st = binfile_section(&z->bf, ZK_SEC_PROTOCOL, "protocol", true, &c, NULL, err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, &h->protocol, "protocol", err)) != CUZK_OK)
        return st;
    if (h->protocol != ZK_PROTOCOL_GROTH16)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "zkey file: protocol %u (%s) is not Groth16 (1)", h->protocol,
                              h->protocol == 2 ? "plonk" : h->protocol == 10 ? "fflonk" : "?");
    if (bin_left(&c) != 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "zkey file: protocol section has %zu extra bytes at offset %zu",
                              bin_left(&c), c.pos);

    if ((st = binfile_section(&z->bf, ZK_SEC_HEADER, "groth16 header", true, &c, NULL, err)) !=
        CUZK_OK)
        return st;
    uint32_t n8q, n8r;
    if ((st = bin_read_u32(&c, &n8q, "n8q", err)) != CUZK_OK ||
        (st = bin_check_prime(&c, n8q, CUZK_FP_MODULUS, CUZK_FP_LIMBS, "BLS12-381 q", err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, &n8r, "n8r", err)) != CUZK_OK ||
        (st = bin_check_prime(&c, n8r, CUZK_FR_MODULUS, CUZK_FR_LIMBS, "BLS12-381 r", err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_vars, "nVars", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_public, "nPublic", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &h->domain_size, "domainSize", err)) != CUZK_OK)
        return st;
    z->hdr_points = c.pos;
    if (bin_left(&c) != 3 * G1B + 3 * G2B)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "zkey file: groth16 header points at offset %zu span %zu bytes, "
                              "expected %u",
                              c.pos, bin_left(&c), 3 * G1B + 3 * G2B);
    if ((uint64_t)h->n_public + 1 > h->n_vars)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "zkey file: nPublic = %u needs at least %llu variables, nVars = %u",
                              h->n_public, (unsigned long long)h->n_public + 1, h->n_vars);
    if (h->domain_size == 0 || (h->domain_size & (h->domain_size - 1)) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "zkey file: domainSize = %u is not a power of two",
                              h->domain_size);

    /* Every vector section's size, before anything is allocated from these counts. */
    uint64_t nv = h->n_vars, npub1 = (uint64_t)h->n_public + 1;
    if ((st = check_size(&z->bf, ZK_SEC_IC, "IC", npub1 * G1B, true, &c, NULL, err)) !=
            CUZK_OK ||
        (st = check_size(&z->bf, ZK_SEC_A, "A", nv * G1B, true, &c, NULL, err)) != CUZK_OK ||
        (st = check_size(&z->bf, ZK_SEC_B1, "B1", nv * G1B, true, &c, NULL, err)) != CUZK_OK ||
        (st = check_size(&z->bf, ZK_SEC_B2, "B2", nv * G2B, true, &c, NULL, err)) != CUZK_OK ||
        (st = check_size(&z->bf, ZK_SEC_C, "C", (nv - npub1) * G1B, true, &c, NULL, err)) !=
            CUZK_OK ||
        (st = check_size(&z->bf, ZK_SEC_H, "H", (uint64_t)h->domain_size * G1B, true, &c, NULL,
                         err)) != CUZK_OK)
        return st;
    if ((st = binfile_section(&z->bf, ZK_SEC_COEFFS, "coefficients", true, &c, NULL, err)) !=
            CUZK_OK ||
        (st = bin_read_u32(&c, &h->n_coeffs, "nCoef", err)) != CUZK_OK)
        return st;
    if (bin_left(&c) != (uint64_t)h->n_coeffs * ZK_COEF_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "zkey file: coefficients section at offset %zu holds %zu bytes "
                              "after nCoef = %u, expected %llu",
                              c.pos, bin_left(&c), h->n_coeffs,
                              (unsigned long long)h->n_coeffs * ZK_COEF_BYTES);
    bool found = false;
    if ((st = binfile_section(&z->bf, ZK_SEC_CONTRIB, "contributions", false, &c, &found,
                              err)) != CUZK_OK)
        return st;
    h->has_contributions = found;
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_zkey_header_read(cuzk_snarkjs_zkey_header *h, const uint8_t *data,
                                          size_t len, cuzk_error *err)
{
    if (!h)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "zkey reader: header is NULL");
    zk_file z;
    cuzk_status st = zk_open(&z, data, len, err);
    if (st == CUZK_OK)
        *h = z.h;
    return st;
}

/* ---- points ---------------------------------------------------------------------------- */

static cuzk_status decode_one(void *out, const uint8_t *in, bool g2, cuzk_params_trust trust,
                              cuzk_error *err)
{
    bool check = trust == CUZK_PARAMS_CHECKED;
    cuzk_status st;
    if (g2) {
        cuzk_g2_affine *p = out;
        st = cuzk_g2_affine_from_mont_le(p, in, G2B, check, err);
        if (st == CUZK_OK && trust == CUZK_PARAMS_TRUSTED_ONCURVE && !cuzk_g2_affine_on_curve(p))
            st = cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G2 point is not on the curve");
    } else {
        cuzk_g1_affine *p = out;
        st = cuzk_g1_affine_from_mont_le(p, in, G1B, check, err);
        if (st == CUZK_OK && trust == CUZK_PARAMS_TRUSTED_ONCURVE && !cuzk_g1_affine_on_curve(p))
            st = cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G1 point is not on the curve");
    }
    return st;
}

typedef struct vec_job {
    uint8_t *out;
    const uint8_t *in;
    bool g2;
    cuzk_params_trust trust;
    _Atomic size_t first_bad; /* lowest failing index seen, SIZE_MAX if none */
} vec_job;

static void decode_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    vec_job *j = ctx;
    size_t ob = j->g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine);
    size_t ib = j->g2 ? G2B : G1B;
    for (size_t i = begin; i < end; i++) {
        if (decode_one(j->out + i * ob, j->in + i * ib, j->g2, j->trust, NULL) == CUZK_OK)
            continue;
        size_t cur = atomic_load(&j->first_bad);
        while (i < cur && !atomic_compare_exchange_weak(&j->first_bad, &cur, i)) {
        }
        return;
    }
}

typedef struct progress {
    cuzk_progress_fn fn;
    void *ctx;
    uint64_t done, total;
} progress;

/* Decodes the n points of section id (already size-checked) into out. */
static cuzk_status decode_vec(void *out, const zk_file *z, uint32_t id, const char *name,
                              size_t n, bool g2, cuzk_params_trust trust, cuzk_pool *pool,
                              progress *pr, cuzk_error *err)
{
    bin_cursor c;
    cuzk_status st = binfile_section(&z->bf, id, name, true, &c, NULL, err);
    if (st != CUZK_OK)
        return st;
    vec_job j = {.out = out, .in = c.base + c.pos, .g2 = g2, .trust = trust};
    size_t ob = g2 ? sizeof(cuzk_g2_affine) : sizeof(cuzk_g1_affine);
    size_t ib = g2 ? G2B : G1B;
    for (size_t at = 0; at < n; at += ZK_CHUNK) {
        size_t m = n - at < ZK_CHUNK ? n - at : ZK_CHUNK;
        vec_job part = {.out = j.out + at * ob, .in = j.in + at * ib, .g2 = g2, .trust = trust};
        atomic_init(&part.first_bad, SIZE_MAX);
        if ((st = cuzk_pool_for_stoppable(pool, m, decode_range, &part, 256)) != CUZK_OK)
            return cuzk_error_set(err, st, st == CUZK_ERR_CANCELLED
                                               ? "zkey reader: decode cancelled"
                                               : "zkey reader: worker pool failed");
        size_t bad = atomic_load(&part.first_bad);
        if (bad != SIZE_MAX) {
            size_t idx = at + bad;
            cuzk_error e;
            cuzk_status s2 = decode_one(j.out + idx * ob, j.in + idx * ib, g2, trust, &e);
            return cuzk_error_set(err, s2 != CUZK_OK ? s2 : CUZK_ERR_INTERNAL,
                                  "zkey file: %s point %zu at offset %zu: %s", name, idx,
                                  c.pos + idx * ib, e.msg);
        }
        if (z->mf) /* decoded: the file's copy of these points is no longer needed */
            mapped_file_drop(z->mf, part.in, m * ib);
        pr->done += m;
        if (pr->fn)
            pr->fn(pr->ctx, pr->done, pr->total);
    }
    return CUZK_OK;
}

/* Header points and IC (always fully checked, infinity refused) into vk, whose ic is
 * allocated. */
static cuzk_status read_vk_points(cuzk_groth16_vk *vk, const zk_file *z, cuzk_error *err)
{
    const uint8_t *p = z->bf.data + z->hdr_points;
    static const char *const names[6] = {"alpha1", "beta1", "beta2", "gamma2", "delta1",
                                         "delta2"};
    void *dst[6] = {&vk->alpha_g1, &vk->beta_g1, &vk->beta_g2, &vk->gamma_g2, &vk->delta_g1,
                    &vk->delta_g2};
    static const bool is_g2[6] = {false, false, true, true, false, true};
    size_t off = 0;
    for (int i = 0; i < 6; i++) {
        cuzk_error e;
        cuzk_status st = decode_one(dst[i], p + off, is_g2[i], CUZK_PARAMS_CHECKED, &e);
        if (st == CUZK_OK && (is_g2[i] ? cuzk_g2_affine_is_infinity(dst[i])
                                       : cuzk_g1_affine_is_infinity(dst[i])))
            st = cuzk_error_set(&e, CUZK_ERR_FORMAT, "the point at infinity is not allowed "
                                                     "in a verifying key");
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "zkey file: header point %s at offset %zu: %s",
                                  names[i], z->hdr_points + off, e.msg);
        off += is_g2[i] ? G2B : G1B;
    }
    bin_cursor c;
    cuzk_status st = binfile_section(&z->bf, ZK_SEC_IC, "IC", true, &c, NULL, err);
    if (st != CUZK_OK)
        return st;
    for (size_t i = 0; i < vk->n_ic; i++) {
        cuzk_error e;
        st = decode_one(&vk->ic[i], c.base + c.pos + i * G1B, false, CUZK_PARAMS_CHECKED, &e);
        if (st == CUZK_OK && cuzk_g1_affine_is_infinity(&vk->ic[i]))
            st = cuzk_error_set(&e, CUZK_ERR_FORMAT, "the point at infinity is not allowed "
                                                     "in a verifying key");
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "zkey file: IC point %zu at offset %zu: %s", i,
                                  c.pos + i * G1B, e.msg);
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_from_snarkjs_zkey(cuzk_groth16_vk *vk, const uint8_t *data,
                                              size_t len, cuzk_error *err)
{
    if (!vk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "zkey reader: vk is NULL");
    zk_file z;
    cuzk_status st = zk_open(&z, data, len, err);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_vk v;
    memset(&v, 0, sizeof v);
    if ((st = cuzk_groth16_vk_alloc(&v, (size_t)z.h.n_public + 1, err)) != CUZK_OK)
        return st;
    if ((st = read_vk_points(&v, &z, err)) != CUZK_OK) {
        cuzk_groth16_vk_free(&v);
        return st;
    }
    *vk = v;
    return CUZK_OK;
}

/* ---- section 4: the A and B matrices --------------------------------------------------- */

typedef struct term {
    uint32_t col;
    cuzk_fr coeff;
} term;

static int term_cmp(const void *a, const void *b)
{
    uint32_t x = ((const term *)a)->col, y = ((const term *)b)->col;
    return (x > y) - (x < y);
}

/* stored = coef * R^2 mod r. Read as Montgomery limbs it is the field element coef * R, whose
 * canonical integer coef * R mod r is in turn the Montgomery limbs of coef. */
static cuzk_status coef_from_double_mont(cuzk_fr *out, const uint8_t *in)
{
    cuzk_fr t;
    cuzk_status st = cuzk_fr_from_mont_le(&t, in);
    if (st != CUZK_OK)
        return st;
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_canonical(l, &t);
    memcpy(out->l, l, sizeof l);
    return CUZK_OK;
}

/* Builds ab's A and B from section 4 (validated entry by entry); C gets an empty CSR and
 * c_absent. */
static cuzk_status read_matrices(cuzk_r1cs *ab, const zk_file *z, cuzk_error *err)
{
    bin_cursor c;
    cuzk_status st = binfile_section(&z->bf, ZK_SEC_COEFFS, "coefficients", true, &c, NULL, err);
    if (st != CUZK_OK)
        return st;
    const uint8_t *base = c.base + c.pos + 4;
    size_t base_off = c.pos + 4;
    uint32_t n = z->h.n_coeffs, dom = z->h.domain_size;
    uint64_t cnt[2] = {0, 0};
    uint32_t rows = 0;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *e = base + (size_t)k * ZK_COEF_BYTES;
        uint32_t mat = e[0] | e[1] << 8 | e[2] << 16 | (uint32_t)e[3] << 24;
        uint32_t row = e[4] | e[5] << 8 | e[6] << 16 | (uint32_t)e[7] << 24;
        uint32_t sig = e[8] | e[9] << 8 | e[10] << 16 | (uint32_t)e[11] << 24;
        size_t at = base_off + (size_t)k * ZK_COEF_BYTES;
        cuzk_fr v;
        if (mat > 1)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "zkey file: coefficient %u at offset %zu names matrix %u (only "
                                  "0 = A and 1 = B exist)", k, at, mat);
        if (row >= dom)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "zkey file: coefficient %u at offset %zu is in constraint %u, "
                                  "outside the domain of %u", k, at, row, dom);
        if (sig >= z->h.n_vars)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "zkey file: coefficient %u at offset %zu uses signal %u, but "
                                  "nVars = %u", k, at, sig, z->h.n_vars);
        if (coef_from_double_mont(&v, e + 12) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                  "zkey file: coefficient %u value at offset %zu is not below r",
                                  k, at + 12);
        cnt[mat]++;
        if (row + 1 > rows)
            rows = row + 1;
    }
    ab->n_constraints = rows;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        ab->m[m].row_ptr = calloc((size_t)rows + 1, sizeof(uint64_t));
        if (!ab->m[m].row_ptr)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey reader: out of memory (%u rows)",
                                  rows);
    }
    for (int m = 0; m < 2; m++) {
        uint64_t *rp = ab->m[m].row_ptr;
        term *t = malloc((cnt[m] ? cnt[m] : 1) * sizeof *t);
        ab->m[m].col = malloc((cnt[m] ? cnt[m] : 1) * sizeof(uint32_t));
        ab->m[m].coeff = malloc((cnt[m] ? cnt[m] : 1) * sizeof(cuzk_fr));
        if (!t || !ab->m[m].col || !ab->m[m].coeff) {
            free(t);
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey reader: out of memory (%llu terms)",
                                  (unsigned long long)cnt[m]);
        }
        /* counting sort by row: rp[row + 1] counts, prefix sums give each row's start */
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *e = base + (size_t)k * ZK_COEF_BYTES;
            if (e[0] != (uint8_t)m)
                continue;
            uint32_t row = e[4] | e[5] << 8 | e[6] << 16 | (uint32_t)e[7] << 24;
            rp[row + 1]++;
        }
        for (uint32_t i = 0; i < rows; i++)
            rp[i + 1] += rp[i];
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *e = base + (size_t)k * ZK_COEF_BYTES;
            if (e[0] != (uint8_t)m)
                continue;
            uint32_t row = e[4] | e[5] << 8 | e[6] << 16 | (uint32_t)e[7] << 24;
            term *d = &t[rp[row]++];
            d->col = e[8] | e[9] << 8 | e[10] << 16 | (uint32_t)e[11] << 24;
            coef_from_double_mont(&d->coeff, e + 12); /* validated above */
        }
        /* rp[i] now holds row i's end; shift back while sorting, merging and compacting */
        uint64_t out = 0, start = 0;
        for (uint32_t i = 0; i < rows; i++) {
            uint64_t end = rp[i];
            qsort(t + start, end - start, sizeof *t, term_cmp);
            rp[i] = out;
            for (uint64_t k = start; k < end;) {
                cuzk_fr sum = t[k].coeff;
                uint32_t col = t[k].col;
                for (k++; k < end && t[k].col == col; k++)
                    cuzk_fr_add(&sum, &sum, &t[k].coeff);
                if (cuzk_fr_is_zero(&sum))
                    continue;
                ab->m[m].col[out] = col;
                ab->m[m].coeff[out++] = sum;
            }
            start = end;
        }
        rp[rows] = out;
        ab->m[m].nnz = out;
        free(t);
    }
    /* The circuit's C is not in a .zkey: an empty CSR, flagged, so nobody mistakes it for
     * the real C (the prover then takes c = a*b; the check refuses to run). */
    ab->c_absent = true;
    ab->m[CUZK_R1CS_C].col = malloc(sizeof(uint32_t));
    ab->m[CUZK_R1CS_C].coeff = malloc(sizeof(cuzk_fr));
    if (!ab->m[CUZK_R1CS_C].col || !ab->m[CUZK_R1CS_C].coeff)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey reader: out of memory");
    return r1cs_compute_density(ab, err);
}

/* mf: the mapping data comes from (its decoded ranges are dropped), or NULL. */
static cuzk_status pk_from_zkey(cuzk_groth16_pk *pk, cuzk_r1cs **ab_out,
                                cuzk_snarkjs_zkey_header *header, const uint8_t *data,
                                size_t len, const mapped_file *mf, cuzk_params_trust trust,
                                cuzk_pool *pool, cuzk_progress_fn progress_fn,
                                void *progress_ctx, cuzk_error *err)
{
    if (!pk || !ab_out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "zkey reader: NULL output");
    if (trust != CUZK_PARAMS_CHECKED && trust != CUZK_PARAMS_TRUSTED_ONCURVE &&
        trust != CUZK_PARAMS_UNCHECKED)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "zkey reader: bad trust level %d",
                              (int)trust);
    *ab_out = NULL;
    zk_file z;
    cuzk_status st = zk_open(&z, data, len, err);
    if (st != CUZK_OK)
        return st;
    z.mf = mf;
    const cuzk_snarkjs_zkey_header *h = &z.h;
    size_t n_l = (size_t)h->n_vars - h->n_public - 1;
    cuzk_groth16_pk k;
    memset(&k, 0, sizeof k);
    cuzk_r1cs *ab = calloc(1, sizeof *ab);
    if (!ab)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey reader: out of memory");
    ab->n_vars = h->n_vars;
    ab->n_public = h->n_public;
    ab->n_aux = (uint32_t)n_l;
    if ((st = cuzk_groth16_pk_alloc(&k, (size_t)h->n_public + 1, h->domain_size, n_l,
                                    h->n_vars, h->n_vars, err)) != CUZK_OK)
        goto fail;
    k.flavour = CUZK_GROTH16_SNARKJS;
    k.append_input_rows = false;
    for (k.log2n = 0; ((size_t)1 << k.log2n) < h->domain_size; k.log2n++) {
    }
    progress pr = {progress_fn, progress_ctx, 0,
                   (uint64_t)3 * h->n_vars + n_l + h->domain_size};
    if ((st = read_vk_points(&k.vk, &z, err)) != CUZK_OK ||
        (st = read_matrices(ab, &z, err)) != CUZK_OK ||
        (st = decode_vec(k.a, &z, ZK_SEC_A, "A", k.n_a, false, trust, pool, &pr, err)) !=
            CUZK_OK ||
        (st = decode_vec(k.b_g1, &z, ZK_SEC_B1, "B1", k.n_b_g1, false, trust, pool, &pr,
                         err)) != CUZK_OK ||
        (st = decode_vec(k.b_g2, &z, ZK_SEC_B2, "B2", k.n_b_g2, true, trust, pool, &pr, err)) !=
            CUZK_OK ||
        (st = decode_vec(k.l, &z, ZK_SEC_C, "C", k.n_l, false, trust, pool, &pr, err)) !=
            CUZK_OK ||
        (st = decode_vec(k.h, &z, ZK_SEC_H, "H", k.n_h, false, trust, pool, &pr, err)) !=
            CUZK_OK)
        goto fail;
    cuzk_error e;
    if (cuzk_groth16_pk_check_circuit(&k, ab, &e) != CUZK_OK) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "zkey file: section 4 does not fit the header: %s", e.msg);
        goto fail;
    }
    *pk = k;
    *ab_out = ab;
    if (header)
        *header = *h;
    return CUZK_OK;
fail:
    cuzk_groth16_pk_free(&k);
    cuzk_r1cs_destroy(ab);
    return st;
}

cuzk_status cuzk_groth16_pk_from_snarkjs_zkey(cuzk_groth16_pk *pk, cuzk_r1cs **ab_out,
                                              cuzk_snarkjs_zkey_header *header,
                                              const uint8_t *data, size_t len,
                                              cuzk_params_trust trust, cuzk_pool *pool,
                                              cuzk_progress_fn progress_fn, void *progress_ctx,
                                              cuzk_error *err)
{
    return pk_from_zkey(pk, ab_out, header, data, len, NULL, trust, pool, progress_fn,
                        progress_ctx, err);
}

cuzk_status cuzk_groth16_pk_load_snarkjs_zkey(cuzk_groth16_pk *pk, cuzk_r1cs **ab,
                                              cuzk_snarkjs_zkey_header *header,
                                              const char *path, cuzk_params_trust trust,
                                              cuzk_pool *pool, cuzk_progress_fn progress_fn,
                                              void *progress_ctx, cuzk_error *err)
{
    mapped_file mf;
    cuzk_status st = mapped_file_open(&mf, path, err);
    if (st != CUZK_OK)
        return st;
    st = pk_from_zkey(pk, ab, header, mf.data, mf.len, &mf, trust, pool, progress_fn,
                      progress_ctx, err);
    if (st == CUZK_OK && (st = mapped_file_check(&mf, st, err)) != CUZK_OK) {
        /* decoded from a file that changed under the read */
        cuzk_groth16_pk_free(pk);
        if (ab) {
            cuzk_r1cs_destroy(*ab);
            *ab = NULL;
        }
    }
    st = mapped_file_check(&mf, st, err); /* a failed parse of a changed file says so */
    mapped_file_close(&mf);
    return st;
}
