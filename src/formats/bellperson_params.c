/*
 * bellperson_params.c — bellperson / Filecoin Groth16 key files: .vk and .params, read
 * (from memory or a read-only mapping) and written (layout in cuzk/formats.h).
 *
 * Reading is two passes: first the structure (every u32 count checked against the bytes
 * that remain, in 64-bit arithmetic so no count can overflow an offset), then, with the
 * key allocated to the now-proven sizes, the points, decoded in parallel over the pool.
 * A failing point is found by an atomic minimum over indices and decoded again on the
 * calling thread to produce the message, so the error is the same for any thread count.
 *
 * Threading: pure functions of their input apart from the pool they are given.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "formats/mapped_file.h"

#define G1U CUZK_G1_UNCOMPRESSED_BYTES
#define G2U CUZK_G2_UNCOMPRESSED_BYTES

static uint32_t rd_u32_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void wr_u32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* ---- point decoding with a trust level ------------------------------------------------ */

static cuzk_status dec_g1(cuzk_g1_affine *r, const uint8_t *in, cuzk_params_trust trust,
                          cuzk_error *err)
{
    cuzk_status st = trust == CUZK_PARAMS_CHECKED
                         ? cuzk_g1_affine_from_zcash_uncompressed(r, in, G1U, err)
                         : cuzk_g1_affine_from_zcash_uncompressed_unchecked(r, in, G1U, err);
    if (st != CUZK_OK)
        return st;
    if (cuzk_g1_affine_is_infinity(r))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "point at infinity");
    if (trust == CUZK_PARAMS_TRUSTED_ONCURVE && !cuzk_g1_affine_on_curve(r))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G1 point is not on the curve");
    return CUZK_OK;
}

static cuzk_status dec_g2(cuzk_g2_affine *r, const uint8_t *in, cuzk_params_trust trust,
                          cuzk_error *err)
{
    cuzk_status st = trust == CUZK_PARAMS_CHECKED
                         ? cuzk_g2_affine_from_zcash_uncompressed(r, in, G2U, err)
                         : cuzk_g2_affine_from_zcash_uncompressed_unchecked(r, in, G2U, err);
    if (st != CUZK_OK)
        return st;
    if (cuzk_g2_affine_is_infinity(r))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "point at infinity");
    if (trust == CUZK_PARAMS_TRUSTED_ONCURVE && !cuzk_g2_affine_on_curve(r))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G2 point is not on the curve");
    return CUZK_OK;
}

/* A vector of points in the file: where it starts and how many. */
typedef struct pvec {
    const char *name;
    size_t count_off; /* offset of its u32 count */
    size_t off;       /* offset of point 0 */
    size_t count;
    bool g2;
} pvec;

/* Reads a count at *pos and checks that count points of psize bytes follow. */
static cuzk_status read_vec(pvec *v, const char *name, bool g2, const uint8_t *data, size_t len,
                            size_t *pos, cuzk_error *err)
{
    size_t psize = g2 ? G2U : G1U;
    v->name = name;
    v->g2 = g2;
    v->count_off = *pos;
    if (len - *pos < 4)
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "bellperson file: truncated at offset %zu: the count of %s needs 4 "
                              "bytes, %zu remain", *pos, name, len - *pos);
    v->count = rd_u32_be(data + *pos);
    *pos += 4;
    uint64_t need = (uint64_t)v->count * psize; /* < 2^32 * 192: no overflow */
    if (need > len - *pos)
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "bellperson file: %s declares %zu points (%llu bytes) at offset "
                              "%zu but only %zu bytes remain", name, v->count,
                              (unsigned long long)need, v->count_off, len - *pos);
    v->off = *pos;
    *pos += (size_t)need;
    return CUZK_OK;
}

typedef struct dec_job {
    const uint8_t *data;
    const pvec *v;
    void *out;
    cuzk_params_trust trust;
    atomic_size_t first_bad;
} dec_job;

static void dec_chunk(void *ctx, size_t begin, size_t end, unsigned wid)
{
    dec_job *j = ctx;
    (void)wid;
    for (size_t i = begin; i < end; i++) {
        cuzk_status st;
        if (j->v->g2)
            st = dec_g2((cuzk_g2_affine *)j->out + i, j->data + j->v->off + i * G2U, j->trust,
                        NULL);
        else
            st = dec_g1((cuzk_g1_affine *)j->out + i, j->data + j->v->off + i * G1U, j->trust,
                        NULL);
        if (st != CUZK_OK) {
            size_t cur = atomic_load(&j->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&j->first_bad, &cur, i))
                ;
            return; /* later indices of this chunk cannot beat i */
        }
    }
}

/* Decodes a whole vector; the error names the first bad index and its offset. */
static cuzk_status dec_vec(void *out, const uint8_t *data, const pvec *v,
                           cuzk_params_trust trust, cuzk_pool *pool, cuzk_error *err)
{
    dec_job j = {data, v, out, trust, SIZE_MAX};
    atomic_init(&j.first_bad, SIZE_MAX);
    /* stoppable: 44 GiB of points take tens of seconds; a stopping daemon does not wait */
    cuzk_status st = cuzk_pool_for_stoppable(pool, v->count, dec_chunk, &j, 256);
    if (st == CUZK_ERR_CANCELLED)
        return cuzk_error_set(err, st, "bellperson file: decode cancelled");
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "bellperson file: parallel decode failed");
    size_t bad = atomic_load(&j.first_bad);
    if (bad == SIZE_MAX)
        return CUZK_OK;
    size_t psize = v->g2 ? G2U : G1U;
    cuzk_error e;
    cuzk_error_clear(&e);
    if (v->g2) {
        cuzk_g2_affine p;
        st = dec_g2(&p, data + v->off + bad * psize, trust, &e);
    } else {
        cuzk_g1_affine p;
        st = dec_g1(&p, data + v->off + bad * psize, trust, &e);
    }
    if (st == CUZK_OK) /* cannot happen: decoding is deterministic */
        st = CUZK_ERR_INTERNAL;
    return cuzk_error_set(err, st, "bellperson file: %s[%zu] at offset %zu: %s", v->name, bad,
                          v->off + bad * psize, e.msg);
}

/* The six fixed vk points, always fully checked. */
static cuzk_status read_vk_fixed(cuzk_groth16_vk *vk, const uint8_t *d, cuzk_error *err)
{
    struct { const char *name; size_t off; bool g2; void *out; } pts[6] = {
        {"vk.alpha_g1", 0, false, &vk->alpha_g1},
        {"vk.beta_g1", G1U, false, &vk->beta_g1},
        {"vk.beta_g2", 2 * G1U, true, &vk->beta_g2},
        {"vk.gamma_g2", 2 * G1U + G2U, true, &vk->gamma_g2},
        {"vk.delta_g1", 2 * G1U + 2 * G2U, false, &vk->delta_g1},
        {"vk.delta_g2", 3 * G1U + 2 * G2U, true, &vk->delta_g2},
    };
    for (int i = 0; i < 6; i++) {
        cuzk_error e;
        cuzk_error_clear(&e);
        cuzk_status st = pts[i].g2 ? dec_g2(pts[i].out, d + pts[i].off, CUZK_PARAMS_CHECKED, &e)
                                   : dec_g1(pts[i].out, d + pts[i].off, CUZK_PARAMS_CHECKED, &e);
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "bellperson file: %s at offset %zu: %s", pts[i].name,
                                  pts[i].off, e.msg);
    }
    return CUZK_OK;
}

/* Structure of the vk part: fixed points, then ic. */
static cuzk_status scan_vk(pvec *ic, const uint8_t *data, size_t len, size_t *pos,
                           cuzk_error *err)
{
    if (!data && len)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson reader: NULL data");
    if (len < CUZK_BELLPERSON_VK_FIXED_BYTES)
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "bellperson file: %zu bytes, the verifying key alone needs %u",
                              len, CUZK_BELLPERSON_VK_FIXED_BYTES);
    *pos = CUZK_BELLPERSON_VK_FIXED_BYTES;
    cuzk_status st = read_vec(ic, "ic", false, data, len, pos, err);
    if (st == CUZK_OK && ic->count == 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "bellperson file: ic at offset %zu is empty (needs ONE's point)",
                              ic->count_off);
    return st;
}

cuzk_status cuzk_groth16_vk_from_bellperson(cuzk_groth16_vk *vk, const uint8_t *data,
                                            size_t len, size_t *consumed, cuzk_error *err)
{
    if (!vk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson vk reader: vk is NULL");
    pvec ic;
    size_t pos = 0;
    cuzk_status st = scan_vk(&ic, data, len, &pos, err);
    if (st != CUZK_OK)
        return st;
    if (!consumed && pos != len)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "bellperson vk: %zu trailing bytes at offset %zu", len - pos, pos);
    cuzk_groth16_vk out;
    memset(&out, 0, sizeof out);
    if ((st = read_vk_fixed(&out, data, err)) != CUZK_OK)
        return st;
    if ((st = cuzk_groth16_vk_alloc(&out, ic.count, err)) != CUZK_OK)
        return st;
    if ((st = dec_vec(out.ic, data, &ic, CUZK_PARAMS_CHECKED, NULL, err)) != CUZK_OK) {
        cuzk_groth16_vk_free(&out);
        return st;
    }
    *vk = out;
    if (consumed)
        *consumed = pos;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_pk_from_bellperson(cuzk_groth16_pk *pk, const uint8_t *data,
                                            size_t len, cuzk_params_trust trust,
                                            cuzk_pool *pool, cuzk_error *err)
{
    if (!pk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson params reader: pk is NULL");
    if (trust != CUZK_PARAMS_CHECKED && trust != CUZK_PARAMS_TRUSTED_ONCURVE &&
        trust != CUZK_PARAMS_UNCHECKED)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson params: bad trust level");
    pvec v[6];
    size_t pos = 0;
    cuzk_status st = scan_vk(&v[0], data, len, &pos, err);
    static const char *const names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    for (int i = 0; i < 5 && st == CUZK_OK; i++)
        st = read_vec(&v[i + 1], names[i], i == 4, data, len, &pos, err);
    if (st != CUZK_OK)
        return st;
    if (pos != len)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "bellperson params: %zu trailing bytes at offset %zu", len - pos,
                              pos);
    size_t n = v[1].count + 1; /* h has n - 1 points */
    if (n & (n - 1))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "bellperson params: h at offset %zu has %zu points; n_h + 1 must "
                              "be a power of two (the domain size)", v[1].count_off, v[1].count);
    if (v[4].count != v[5].count)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "bellperson params: b_g1 has %zu points (offset %zu) but b_g2 has "
                              "%zu (offset %zu)", v[4].count, v[4].count_off, v[5].count,
                              v[5].count_off);
    cuzk_groth16_pk out;
    memset(&out, 0, sizeof out);
    if ((st = read_vk_fixed(&out.vk, data, err)) != CUZK_OK)
        return st;
    cuzk_groth16_vk fixed = out.vk;
    if ((st = cuzk_groth16_pk_alloc(&out, v[0].count, v[1].count, v[2].count, v[3].count,
                                    v[4].count, err)) != CUZK_OK)
        return st;
    fixed.ic = out.vk.ic;
    fixed.n_ic = out.vk.n_ic;
    out.vk = fixed;
    out.flavour = CUZK_GROTH16_BELLPERSON;
    out.append_input_rows = true;
    out.log2n = 0;
    while (((size_t)1 << out.log2n) < n)
        out.log2n++;
    void *dst[6] = {out.vk.ic, out.h, out.l, out.a, out.b_g1, out.b_g2};
    for (int i = 0; i < 6 && st == CUZK_OK; i++)
        st = dec_vec(dst[i], data, &v[i], i == 0 ? CUZK_PARAMS_CHECKED : trust, pool, err);
    if (st != CUZK_OK) {
        cuzk_groth16_pk_free(&out);
        return st;
    }
    *pk = out;
    return CUZK_OK;
}

/* ---- files ------------------------------------------------------------------------- */

cuzk_status cuzk_groth16_vk_load_bellperson(cuzk_groth16_vk *vk, const char *path,
                                            cuzk_error *err)
{
    mapped_file mf;
    cuzk_status st = mapped_file_open(&mf, path, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_groth16_vk_from_bellperson(vk, mf.data, mf.len, NULL, err);
    if (st == CUZK_OK && (st = mapped_file_check(&mf, st, err)) != CUZK_OK)
        cuzk_groth16_vk_free(vk); /* decoded from a file that changed under the read */
    st = mapped_file_check(&mf, st, err); /* a failed parse of a changed file says so */
    mapped_file_close(&mf);
    return st;
}

cuzk_status cuzk_groth16_pk_load_bellperson(cuzk_groth16_pk *pk, const char *path,
                                            cuzk_params_trust trust, cuzk_pool *pool,
                                            cuzk_error *err)
{
    mapped_file mf;
    cuzk_status st = mapped_file_open(&mf, path, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_groth16_pk_from_bellperson(pk, mf.data, mf.len, trust, pool, err);
    if (st == CUZK_OK && (st = mapped_file_check(&mf, st, err)) != CUZK_OK)
        cuzk_groth16_pk_free(pk); /* decoded from a file that changed under the read */
    st = mapped_file_check(&mf, st, err); /* a failed parse of a changed file says so */
    mapped_file_close(&mf);
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

/* Output to a buffer or a FILE, point by point (a .params can be tens of GB). */
typedef struct sink {
    uint8_t *buf;
    size_t cap, pos;
    FILE *f;
    bool failed;
} sink;

static void put(sink *s, const void *p, size_t n)
{
    if (s->failed)
        return;
    if (s->f) {
        if (fwrite(p, 1, n, s->f) != n)
            s->failed = true;
    } else if (s->cap - s->pos < n) {
        s->failed = true;
    } else {
        memcpy(s->buf + s->pos, p, n);
    }
    s->pos += n;
}

static void put_count(sink *s, size_t n)
{
    uint8_t b[4];
    wr_u32_be(b, (uint32_t)n);
    put(s, b, 4);
}

static void put_g1s(sink *s, const cuzk_g1_affine *p, size_t n)
{
    put_count(s, n);
    for (size_t i = 0; i < n; i++) {
        uint8_t b[G1U];
        cuzk_g1_affine_to_zcash_uncompressed(b, &p[i]);
        put(s, b, sizeof b);
    }
}

static void put_g2(sink *s, const cuzk_g2_affine *p)
{
    uint8_t b[G2U];
    cuzk_g2_affine_to_zcash_uncompressed(b, p);
    put(s, b, sizeof b);
}

static void put_vk(sink *s, const cuzk_groth16_vk *vk)
{
    uint8_t b[G1U];
    cuzk_g1_affine_to_zcash_uncompressed(b, &vk->alpha_g1);
    put(s, b, G1U);
    cuzk_g1_affine_to_zcash_uncompressed(b, &vk->beta_g1);
    put(s, b, G1U);
    put_g2(s, &vk->beta_g2);
    put_g2(s, &vk->gamma_g2);
    cuzk_g1_affine_to_zcash_uncompressed(b, &vk->delta_g1);
    put(s, b, G1U);
    put_g2(s, &vk->delta_g2);
    put_g1s(s, vk->ic, vk->n_ic);
}

static cuzk_status put_pk(sink *s, const cuzk_groth16_pk *pk, cuzk_error *err)
{
    if (pk->flavour != CUZK_GROTH16_BELLPERSON || !pk->append_input_rows ||
        pk->n_b_g1 != pk->n_b_g2)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "bellperson params: only BELLPERSON-flavour keys can be written");
    put_vk(s, &pk->vk);
    put_g1s(s, pk->h, pk->n_h);
    put_g1s(s, pk->l, pk->n_l);
    put_g1s(s, pk->a, pk->n_a);
    put_g1s(s, pk->b_g1, pk->n_b_g1);
    put_count(s, pk->n_b_g2);
    for (size_t i = 0; i < pk->n_b_g2; i++)
        put_g2(s, &pk->b_g2[i]);
    return CUZK_OK;
}

static bool counts_fit(const cuzk_groth16_vk *vk) { return vk->n_ic <= UINT32_MAX; }

size_t cuzk_groth16_vk_bellperson_size(const cuzk_groth16_vk *vk)
{
    return vk ? CUZK_BELLPERSON_VK_FIXED_BYTES + 4 + vk->n_ic * G1U : 0;
}

size_t cuzk_groth16_pk_bellperson_size(const cuzk_groth16_pk *pk)
{
    if (!pk)
        return 0;
    return cuzk_groth16_vk_bellperson_size(&pk->vk) + 5 * 4 +
           (pk->n_h + pk->n_l + pk->n_a + pk->n_b_g1) * G1U + pk->n_b_g2 * G2U;
}

static cuzk_status check_writable(const cuzk_groth16_vk *vk, const void *out, size_t cap,
                                  size_t need, cuzk_error *err)
{
    if (!vk || (!out && cap) || (vk->n_ic && !vk->ic))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson writer: NULL argument");
    if (!counts_fit(vk))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "bellperson writer: count over 2^32");
    if (cap < need)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "bellperson writer: buffer of %zu bytes, need %zu", cap, need);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_to_bellperson(uint8_t *out, size_t cap, const cuzk_groth16_vk *vk,
                                          cuzk_error *err)
{
    cuzk_status st = check_writable(vk, out, cap, cuzk_groth16_vk_bellperson_size(vk), err);
    if (st != CUZK_OK)
        return st;
    sink s = {out, cap, 0, NULL, false};
    put_vk(&s, vk);
    return s.failed ? cuzk_error_set(err, CUZK_ERR_INTERNAL, "vk writer overflow") : CUZK_OK;
}

cuzk_status cuzk_groth16_pk_to_bellperson(uint8_t *out, size_t cap, const cuzk_groth16_pk *pk,
                                          cuzk_error *err)
{
    cuzk_status st =
        check_writable(pk ? &pk->vk : NULL, out, cap, cuzk_groth16_pk_bellperson_size(pk), err);
    if (st != CUZK_OK)
        return st;
    sink s = {out, cap, 0, NULL, false};
    if ((st = put_pk(&s, pk, err)) != CUZK_OK)
        return st;
    return s.failed ? cuzk_error_set(err, CUZK_ERR_INTERNAL, "params writer overflow") : CUZK_OK;
}

static cuzk_status save(const char *path, const cuzk_groth16_vk *vk, const cuzk_groth16_pk *pk,
                        cuzk_error *err)
{
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson writer: path is NULL");
    cuzk_status st = check_writable(vk, NULL, 0, 0, err);
    if (st != CUZK_OK)
        return st;
    FILE *f = fopen(path, "wb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot create %s", path);
    sink s = {NULL, 0, 0, f, false};
    if (pk)
        st = put_pk(&s, pk, err);
    else
        put_vk(&s, vk);
    if (fclose(f) != 0)
        s.failed = true;
    if (st == CUZK_OK && s.failed)
        st = cuzk_error_set(err, CUZK_ERR_IO, "write to %s failed", path);
    if (st != CUZK_OK)
        remove(path);
    return st;
}

/* ---- streaming a .params (tens of GB) ------------------------------------------------ */

/* The default block between calls of out: 64 MiB, large enough that the pool's start-up
 * and the callback's per-call cost do not show, small next to the key. */
#define STREAM_BLOCK ((size_t)64 << 20)

typedef struct enc_job {
    const void *pts;
    size_t first;
    uint8_t *buf;
    bool g2;
} enc_job;

static void enc_chunk(void *ctx, size_t begin, size_t end, unsigned wid)
{
    const enc_job *j = ctx;
    (void)wid;
    for (size_t i = begin; i < end; i++) {
        if (j->g2)
            cuzk_g2_affine_to_zcash_uncompressed(
                j->buf + i * G2U, (const cuzk_g2_affine *)j->pts + j->first + i);
        else
            cuzk_g1_affine_to_zcash_uncompressed(
                j->buf + i * G1U, (const cuzk_g1_affine *)j->pts + j->first + i);
    }
}

static cuzk_status stream_vec(const void *pts, size_t n, bool g2, uint8_t *buf, size_t block,
                              cuzk_bytes_out_fn out, void *ctx, cuzk_pool *pool,
                              cuzk_error *err)
{
    uint8_t cnt[4];
    wr_u32_be(cnt, (uint32_t)n);
    cuzk_status st = out(ctx, cnt, 4, err);
    size_t psize = g2 ? G2U : G1U, per = block / psize;
    for (size_t at = 0; at < n && st == CUZK_OK; at += per) {
        size_t k = n - at < per ? n - at : per;
        enc_job j = {pts, at, buf, g2};
        if ((st = cuzk_pool_for(pool, k, enc_chunk, &j, 4096)) != CUZK_OK)
            return cuzk_error_set(err, st, "bellperson writer: parallel encode failed");
        st = out(ctx, buf, k * psize, err);
    }
    return st;
}

cuzk_status cuzk_groth16_pk_stream_bellperson(const cuzk_groth16_pk *pk, size_t block,
                                              cuzk_bytes_out_fn out, void *ctx, cuzk_pool *pool,
                                              cuzk_error *err)
{
    if (!pk || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bellperson writer: NULL argument");
    cuzk_status st = check_writable(&pk->vk, NULL, 0, 0, err);
    if (st != CUZK_OK)
        return st;
    if (pk->flavour != CUZK_GROTH16_BELLPERSON || !pk->append_input_rows ||
        pk->n_b_g1 != pk->n_b_g2)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "bellperson params: only BELLPERSON-flavour keys can be written");
    if (block == 0)
        block = STREAM_BLOCK;
    if (block < G2U)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "bellperson writer: block of %zu bytes holds no G2 point", block);
    size_t vlen = cuzk_groth16_vk_bellperson_size(&pk->vk);
    uint8_t *buf = malloc(vlen > block ? vlen : block);
    if (!buf)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "bellperson writer: out of memory");
    if ((st = cuzk_groth16_vk_to_bellperson(buf, vlen, &pk->vk, err)) == CUZK_OK)
        st = out(ctx, buf, vlen, err);
    const struct { const void *p; size_t n; bool g2; } v[5] = {
        {pk->h, pk->n_h, false},     {pk->l, pk->n_l, false},       {pk->a, pk->n_a, false},
        {pk->b_g1, pk->n_b_g1, false}, {pk->b_g2, pk->n_b_g2, true},
    };
    for (int i = 0; i < 5 && st == CUZK_OK; i++)
        st = stream_vec(v[i].p, v[i].n, v[i].g2, buf, block, out, ctx, pool, err);
    free(buf);
    return st;
}

cuzk_status cuzk_groth16_vk_save_bellperson(const cuzk_groth16_vk *vk, const char *path,
                                            cuzk_error *err)
{
    return save(path, vk, NULL, err);
}

cuzk_status cuzk_groth16_pk_save_bellperson(const cuzk_groth16_pk *pk, const char *path,
                                            cuzk_error *err)
{
    return save(path, pk ? &pk->vk : NULL, pk, err);
}
