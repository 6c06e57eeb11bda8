/*
 * r1cs_cache.c — the CSR cache file (cuzk/r1cs_cache.h): writer (temporary file, fsync,
 * rename) and reader (read-only mapping, layered checks, a cuzk_r1cs whose arrays point
 * into the mapping).
 * The coefficients travel only as the distinct-value table and per-term u32 indices (format
 * version 2): the loaded r1cs has m[].coeff NULL and the table set.
 * Threading: reentrant; checksums and bound checks split over the caller's pool.
 */
#define _DEFAULT_SOURCE /* mkstemp, fsync */

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/r1cs_cache.h"
#include "formats/formats_export.h"
#include "formats/r1cs_cache_hash.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the CSR cache stores native little-endian words"
#endif

#define HDR 4096u
#define ALIGN 4096u
#define HDR_SUM_AT (HDR - 8u)
#define TABLE_AT 152u
#define F_C_ABSENT 1u
#define F_MAP 2u

/* Section kinds, in file order. Version 2 dropped version 1's three 32-byte coefficient
 * sections (kinds 6..8 there): the table and its u32 indices carry every coefficient
 * (cuzk/r1cs.h, "Coefficients"), at ~28 % of the bytes. */
enum { S_ROW = 0, S_COL = 3, S_DENS = 6, S_MAP = 9, S_VALS = 10, S_IDX = 11, N_SEC = 14 };
_Static_assert(TABLE_AT + N_SEC * 32 <= HDR_SUM_AT, "the section table fits the header");

static const char k_magic[8] = {'C', 'U', 'Z', 'K', 'C', 'S', 'R', 0};

typedef struct shape {
    uint64_t rows, nnz[CUZK_R1CS_MATRICES];
    uint32_t n_vars, n_public, n_aux, flags, n_vals;
} shape;

static uint64_t sec_bytes(const shape *s, int k)
{
    uint64_t words = ((uint64_t)s->n_vars + 63) / 64;
    if (k < S_COL)
        return (s->rows + 1) * 8;
    if (k < S_DENS)
        return s->nnz[k - S_COL] * 4;
    if (k < S_MAP)
        return words * 8;
    if (k == S_MAP)
        return s->flags & F_MAP ? words * 8 : 0;
    if (k == S_VALS)
        return (uint64_t)s->n_vals * sizeof(cuzk_fr);
    return s->nnz[k - S_IDX] * 4;
}

/* Offsets of every section and the file size; sizes are bounded by the u32/u64 shape
 * (at most ~2^32 * 32 bytes a section), so the sums cannot overflow. */
static uint64_t layout(const shape *s, uint64_t off[N_SEC])
{
    uint64_t at = HDR;
    for (int k = 0; k < N_SEC; k++) {
        off[k] = at;
        at += (sec_bytes(s, k) + ALIGN - 1) / ALIGN * ALIGN;
    }
    return at;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- writer ---------------------------------------------------------------------------- */

static cuzk_status io_err(cuzk_error *err, const char *what, const char *path, int e)
{
    return cuzk_error_set(err, CUZK_ERR_IO, "csr cache: cannot %s %s: %s", what, path,
                          strerror(e));
}

/* false with errno set (ENOSPC for a write that made no progress) */
static bool write_all(int fd, const void *p, uint64_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w == 0)
            errno = ENOSPC;
        if (w <= 0)
            return false;
        b += w;
        n -= (uint64_t)w;
    }
    return true;
}

cuzk_status cuzk_r1cs_cache_write(const char *path, const char *circuit_id,
                                  const cuzk_r1cs *r, const cuzk_witness_map *map,
                                  cuzk_pool *pool, cuzk_error *err)
{
    if (!path || !circuit_id || !r)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "csr cache: NULL argument");
    if (strlen(circuit_id) > CUZK_R1CS_CACHE_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "csr cache: circuit id too long");
    if (map && map->n_vars != r->n_vars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "csr cache: witness map of %u variables for %u", map->n_vars,
                              r->n_vars);
    shape s = {.rows = r->n_constraints, .n_vars = r->n_vars, .n_public = r->n_public,
               .n_aux = r->n_aux, .flags = (r->c_absent ? F_C_ABSENT : 0) | (map ? F_MAP : 0)};
    const void *src[N_SEC];
    cuzk_fr *vals = NULL;
    uint32_t *idx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL};
    bool own_table = r->coeff_values != NULL;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        own_table = own_table && (r->coeff_index[m] || !r->m[m].nnz);
    if (own_table) {
        s.n_vals = r->n_coeff_values;
        src[S_VALS] = r->coeff_values;
        for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
            src[S_IDX + m] = r->coeff_index[m];
    } else {
        cuzk_status st = cuzk_r1cs_coeff_table(r, &vals, &s.n_vals, idx, err);
        if (st != CUZK_OK)
            return st;
        src[S_VALS] = vals;
        for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
            src[S_IDX + m] = idx[m];
    }
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        s.nnz[m] = r->m[m].nnz;
        src[S_ROW + m] = r->m[m].row_ptr;
        src[S_COL + m] = r->m[m].col;
        src[S_DENS + m] = r->density[m];
    }
    src[S_MAP] = map ? map->is_bit : NULL;

    uint64_t off[N_SEC], total = layout(&s, off);
    uint8_t *hdr = calloc(1, HDR);
    size_t plen = strlen(path) + 8;
    char *tmp = malloc(plen);
    cuzk_status st = CUZK_OK;
    int fd = -1;
    bool made_tmp = false;
    if (!hdr || !tmp) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "csr cache: out of memory");
        goto out;
    }
    memcpy(hdr, k_magic, 8);
    put32(hdr + 8, CUZK_R1CS_CACHE_VERSION);
    put32(hdr + 12, HDR);
    memcpy(hdr + 16, circuit_id, strlen(circuit_id));
    put64(hdr + 80, s.rows);
    put32(hdr + 88, s.n_vars);
    put32(hdr + 92, s.n_public);
    put32(hdr + 96, s.n_aux);
    put32(hdr + 100, s.flags);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        put64(hdr + 104 + 8 * m, s.nnz[m]);
    put32(hdr + 128, s.n_vals);
    put32(hdr + 132, N_SEC);
    put64(hdr + 136, total);
    put64(hdr + 144, ALIGN);
    for (int k = 0; k < N_SEC; k++) {
        uint8_t *e = hdr + TABLE_AT + 32 * k;
        uint64_t n = sec_bytes(&s, k);
        put32(e, (uint32_t)k);
        put64(e + 8, off[k]);
        put64(e + 16, n);
        uint64_t sum;
        if ((st = r1cs_cache_checksum(src[k], n, (uint64_t)k, pool, &sum, err)) != CUZK_OK)
            goto out;
        put64(e + 24, sum);
    }
    put64(hdr + HDR_SUM_AT, r1cs_cache_hash(hdr, HDR_SUM_AT, 0));

    snprintf(tmp, plen, "%s.XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        st = io_err(err, "create a temporary for", path, errno);
        goto out;
    }
    made_tmp = true;
    (void)fchmod(fd, 0644); /* mkstemp's 0600 would hide the cache from other users */
    static const uint8_t zeros[ALIGN];
    bool ok = write_all(fd, hdr, HDR);
    for (int k = 0; ok && k < N_SEC; k++) {
        uint64_t n = sec_bytes(&s, k), pad = (ALIGN - n % ALIGN) % ALIGN;
        ok = write_all(fd, src[k], n) && write_all(fd, zeros, pad);
    }
    if (!ok || fsync(fd) != 0) {
        st = io_err(err, "write", tmp, errno);
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        st = io_err(err, "close", tmp, errno);
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        st = io_err(err, "rename a temporary to", path, errno);
        goto out;
    }
    made_tmp = false; /* renamed: nothing to remove */
out:
    if (fd >= 0)
        close(fd);
    if (made_tmp)
        unlink(tmp);
    free(tmp);
    free(hdr);
    free(vals);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        free(idx[m]);
    return st;
}

/* ---- reader ---------------------------------------------------------------------------- */

typedef struct backing {
    mapped_file mf;
} backing;

static void backing_release(void *b)
{
    mapped_file_close(&((backing *)b)->mf);
    free(b);
}

bool cuzk_r1cs_cache_changed(const cuzk_r1cs *r)
{
    return r && r->backing_release == backing_release &&
           mapped_file_changed(&((const backing *)r->backing)->mf);
}

/* ---- the "checked in full" stamp (CHECK_ONCE) ------------------------------------------ */

/* <path>.ok holds the identity of the file a FULL check passed on: device, inode, size,
 * mtime (ns) and header checksum. Any rewrite, truncation or rename-over changes one of
 * them; only damage that bypasses the file system (bit rot under an unchanged mtime)
 * does not, which is the bet CHECK_ONCE makes (cuzk/r1cs_cache.h). */
static bool stamp_line(const struct stat *sp, const uint8_t *hdr, char *line, size_t cap)
{
    const struct stat st = *sp;
    return snprintf(line, cap, "cuzk csr checked v1 %llu %llu %llu %lld.%09ld %016llx\n",
                    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                    (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    (long)st.st_mtim.tv_nsec,
                    (unsigned long long)get64(hdr + HDR_SUM_AT)) < (int)cap;
}

static bool stamp_matches(const char *path, const char *line)
{
    char sp[4200], have[160] = {0};
    if (snprintf(sp, sizeof sp, "%s.ok", path) >= (int)sizeof sp)
        return false;
    FILE *f = fopen(sp, "r");
    if (!f)
        return false;
    bool ok = fgets(have, sizeof have, f) != NULL && strcmp(have, line) == 0;
    fclose(f);
    return ok;
}

/* Advisory: a stamp that cannot be written only costs the next load a FULL check. */
static void stamp_write(const char *path, const char *line)
{
    char sp[4200], tmp[4220];
    if (snprintf(sp, sizeof sp, "%s.ok", path) >= (int)sizeof sp ||
        snprintf(tmp, sizeof tmp, "%s.XXXXXX", sp) >= (int)sizeof tmp)
        return;
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    (void)fchmod(fd, 0644);
    bool ok = write_all(fd, line, strlen(line));
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, sp) != 0)
        unlink(tmp);
}

static cuzk_status bad(cuzk_error *err, const char *path, const char *what)
{
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "csr cache %s: %s", path, what);
}

typedef struct bounds_ctx {
    const cuzk_csr *c;
    const uint32_t *idx;
    uint32_t n_vars, n_vals;
    _Atomic uint64_t first_bad;
} bounds_ctx;

static void bounds_rows(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    bounds_ctx *x = vctx;
    const uint64_t *rp = x->c->row_ptr;
    const uint32_t *col = x->c->col;
    for (size_t r = begin; r < end; r++) {
        uint64_t b = rp[r], e = rp[r + 1];
        bool ok = b <= e && e <= x->c->nnz;
        for (uint64_t k = b; ok && k < e; k++)
            ok = col[k] < x->n_vars && (k == b || col[k] > col[k - 1]) && x->idx[k] < x->n_vals;
        if (!ok) {
            uint64_t cur = atomic_load(&x->first_bad);
            while (r < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, r))
                ;
            return;
        }
    }
}

/* Header fields into s, checked against each other and the file; the layout into off. */
static cuzk_status read_header(const mapped_file *mf, const char *path, const char *id,
                               shape *s, uint64_t off[N_SEC], cuzk_error *err)
{
    const uint8_t *h = mf->data;
    if (mf->len < HDR)
        return bad(err, path, "truncated header");
    if (memcmp(h, k_magic, 8) != 0)
        return bad(err, path, "not a cuzk CSR cache (bad magic)");
    if (get32(h + 8) != CUZK_R1CS_CACHE_VERSION) {
        char m[64];
        snprintf(m, sizeof m, "version %u, this build reads %u", get32(h + 8),
                 CUZK_R1CS_CACHE_VERSION);
        return bad(err, path, m);
    }
    if (get32(h + 12) != HDR || get64(h + 144) != ALIGN || get32(h + 132) != N_SEC)
        return bad(err, path, "unexpected header geometry");
    if (get64(h + HDR_SUM_AT) != r1cs_cache_hash(h, HDR_SUM_AT, 0))
        return bad(err, path, "header checksum mismatch");
    if (h[16 + CUZK_R1CS_CACHE_ID_MAX] != 0 || strcmp((const char *)h + 16, id) != 0) {
        char m[192];
        snprintf(m, sizeof m, "written for circuit %.63s, not %.40s", (const char *)h + 16, id);
        return bad(err, path, m);
    }
    s->rows = get64(h + 80);
    s->n_vars = get32(h + 88);
    s->n_public = get32(h + 92);
    s->n_aux = get32(h + 96);
    s->flags = get32(h + 100);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        s->nnz[m] = get64(h + 104 + 8 * m);
    s->n_vals = get32(h + 128);
    /* bounds that keep every derived size far from overflow and the fields consistent */
    if ((uint64_t)s->n_public + s->n_aux + 1 != s->n_vars || s->rows >= (1ull << 40) ||
        s->nnz[0] >= (1ull << 40) || s->nnz[1] >= (1ull << 40) || s->nnz[2] >= (1ull << 40) ||
        (s->flags & ~(F_C_ABSENT | F_MAP)) != 0 || ((s->flags & F_C_ABSENT) && s->nnz[2]) ||
        (s->n_vals == 0 && s->nnz[0] + s->nnz[1] + s->nnz[2] != 0))
        return bad(err, path, "inconsistent shape");
    uint64_t total = layout(s, off);
    if (get64(h + 136) != total)
        return bad(err, path, "file size field does not match the shape");
    if (mf->len != total) {
        char m[96];
        snprintf(m, sizeof m, "%zu bytes, the shape needs %llu (truncated or extended)",
                 mf->len, (unsigned long long)total);
        return bad(err, path, m);
    }
    for (int k = 0; k < N_SEC; k++) {
        const uint8_t *e = h + TABLE_AT + 32 * k;
        if (get32(e) != (uint32_t)k || get32(e + 4) != 0 || get64(e + 8) != off[k] ||
            get64(e + 16) != sec_bytes(s, k))
            return bad(err, path, "section table does not match the shape");
    }
    return CUZK_OK;
}

static cuzk_status check_sum(const mapped_file *mf, const char *path, const uint64_t off[N_SEC],
                             const shape *s, int k, cuzk_pool *pool, cuzk_error *err)
{
    uint64_t sum;
    cuzk_status st = r1cs_cache_checksum(mf->data + off[k], sec_bytes(s, k), (uint64_t)k, pool,
                                         &sum, err);
    if (st != CUZK_OK)
        return st;
    if (sum != get64(mf->data + TABLE_AT + 32 * k + 24)) {
        static const char *names[] = {"row_ptr", "col", "density"};
        char m[80];
        if (k < S_MAP)
            snprintf(m, sizeof m, "checksum mismatch in section %s %c", names[k / 3],
                     "ABC"[k % 3]);
        else
            snprintf(m, sizeof m, "checksum mismatch in section %s%s",
                     k == S_MAP ? "witness map" : k == S_VALS ? "coefficient values"
                                                                : "coefficient index ",
                     k >= S_IDX ? (const char *[]){"A", "B", "C"}[k - S_IDX] : "");
        return bad(err, path, m);
    }
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_cache_open(const char *path, const char *circuit_id,
                                 cuzk_r1cs_cache_check check, cuzk_r1cs **out,
                                 cuzk_witness_map *map, cuzk_pool *pool, cuzk_error *err)
{
    if (!path || !circuit_id || !out || (unsigned)check > CUZK_R1CS_CACHE_CHECK_ONCE)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "csr cache: bad argument");
    *out = NULL;
    if (map)
        memset(map, 0, sizeof *map);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "csr cache %s: no such file", path);
    backing *bk = calloc(1, sizeof *bk);
    cuzk_r1cs *r = calloc(1, sizeof *r);
    if (!bk || !r) {
        free(bk);
        free(r);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "csr cache: out of memory");
    }
    shape s;
    uint64_t off[N_SEC];
    /* CHECK_ONCE: the file's identity before and after mapping must agree, so the stamp
     * (read or written) names the file that was mapped, not one renamed over it since */
    struct stat st0, st1;
    bool same_file = check == CUZK_R1CS_CACHE_CHECK_ONCE && stat(path, &st0) == 0;
    char line[160], line1[160];
    cuzk_status st = mapped_file_open(&bk->mf, path, err);
    if (st == CUZK_OK)
        st = read_header(&bk->mf, path, circuit_id, &s, off, err);
    if (st == CUZK_OK && check == CUZK_R1CS_CACHE_CHECK_ONCE) {
        same_file = same_file && stat(path, &st1) == 0 &&
                    stamp_line(&st0, bk->mf.data, line, sizeof line) &&
                    stamp_line(&st1, bk->mf.data, line1, sizeof line1) &&
                    strcmp(line, line1) == 0;
        check = same_file && stamp_matches(path, line) ? CUZK_R1CS_CACHE_CHECK_BOUNDS
                                                       : CUZK_R1CS_CACHE_CHECK_FULL;
    } else {
        same_file = false;
    }
    if (st == CUZK_OK && map && !(s.flags & F_MAP))
        st = bad(err, path, "no witness map recorded");
    for (int k = S_DENS; k < S_IDX && st == CUZK_OK; k++) /* small sections: always */
        st = check_sum(&bk->mf, path, off, &s, k, pool, err);
    st = mapped_file_check(&bk->mf, st, err); /* truncated under the read: say so */
    if (st != CUZK_OK) {
        backing_release(bk);
        free(r);
        return st;
    }
    const uint8_t *d = bk->mf.data;
    r->n_constraints = s.rows;
    r->n_vars = s.n_vars;
    r->n_public = s.n_public;
    r->n_aux = s.n_aux;
    r->c_absent = (s.flags & F_C_ABSENT) != 0;
    r->coeff_values = (const cuzk_fr *)(d + off[S_VALS]);
    r->n_coeff_values = s.n_vals;
    uint64_t words = ((uint64_t)s.n_vars + 63) / 64;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        /* the mapping is read-only: the r1cs type's non-const pointers are read-only by
         * contract (cuzk/r1cs.h), so these casts only drop a const nobody writes through */
        r->m[m].nnz = s.nnz[m];
        r->m[m].row_ptr = (uint64_t *)(d + off[S_ROW + m]);
        r->m[m].col = (uint32_t *)(d + off[S_COL + m]);
        r->m[m].coeff = NULL; /* the table carries the coefficients (cuzk/r1cs.h) */
        r->density[m] = (uint64_t *)(d + off[S_DENS + m]);
        r->coeff_index[m] = (const uint32_t *)(d + off[S_IDX + m]);
        uint64_t cnt = 0;
        for (uint64_t i = 0; i < words; i++)
            cnt += (uint64_t)__builtin_popcountll(r->density[m][i]);
        r->density_count[m] = cnt;
        if (r->m[m].row_ptr[0] != 0 || r->m[m].row_ptr[s.rows] != s.nnz[m])
            st = bad(err, path, "row_ptr does not span the matrix");
        if (st == CUZK_OK && (s.n_vars & 63) && (r->density[m][words - 1] >> (s.n_vars & 63)))
            st = bad(err, path, "density bits beyond the variables");
    }
    for (int m = 0; m < CUZK_R1CS_MATRICES && st == CUZK_OK && check >= CUZK_R1CS_CACHE_CHECK_BOUNDS;
         m++) {
        bounds_ctx x = {.c = &r->m[m], .idx = r->coeff_index[m], .n_vars = s.n_vars,
                        .n_vals = s.n_vals};
        atomic_init(&x.first_bad, UINT64_MAX);
        (void)cuzk_pool_for(pool, s.rows, bounds_rows, &x, 4096);
        uint64_t fb = atomic_load(&x.first_bad);
        if (fb != UINT64_MAX) {
            char msg[96];
            snprintf(msg, sizeof msg, "matrix %c row %llu: index out of bounds or unsorted",
                     "ABC"[m], (unsigned long long)fb);
            st = bad(err, path, msg);
        }
    }
    for (int k = 0; k < N_SEC && st == CUZK_OK && check == CUZK_R1CS_CACHE_CHECK_FULL; k++)
        if (k < S_DENS || k >= S_IDX)
            st = check_sum(&bk->mf, path, off, &s, k, pool, err);
    if (st == CUZK_OK && map)
        st = cuzk_witness_map_init(map, (const uint64_t *)(d + off[S_MAP]), s.n_vars, err);
    if (st == CUZK_ERR_INVALID_ARG) /* the map's own check: bits it refuses */
        st = bad(err, path, "witness map marks ONE or bits beyond the variables");
    /* after the checks (and before the stamp): what they passed is what the file holds */
    st = mapped_file_check(&bk->mf, st, err);
    if (st != CUZK_OK) {
        backing_release(bk);
        free(r);
        return st;
    }
    if (same_file && check == CUZK_R1CS_CACHE_CHECK_FULL)
        stamp_write(path, line);
    r->backing = bk;
    r->backing_release = backing_release;
    *out = r;
    return CUZK_OK;
}
