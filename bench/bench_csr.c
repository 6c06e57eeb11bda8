/*
 * bench_csr.c — `cuzk bench csr --sector-size S[,S..] [--threads T,..]`: the CSR cache
 * (cuzk/r1cs_cache.h) of one PoRep partition (the placeholder circuit the engine records):
 *   record           cuzk_porep_record on a pool of the first thread count, once (what a
 *                    cache saves; the engine records the same way);
 *   write            cuzk_r1cs_cache_write, once (coefficient table, checksums, fsync);
 * and per pool size, the file in the page cache (it was just written and read):
 *   load shape /     cuzk_r1cs_cache_open + destroy at each check level: map and the
 *   load bounds /    header, every index, every checksum (the engine loads at ONCE: full
 *   load full        the first time, bounds afterwards).
 * The file goes to $TMPDIR (else /var/tmp) and is removed afterwards. "file MB" is its
 * size (format version 2: no 32-byte coefficients, ~70 bytes a row), "GB/s" the file
 * bytes over the best load time; the write row also gives the non-zeros of A+B+C and the
 * size of the coefficient table.
 * Threading: record and write on a pool of the first thread count; loads on pools of t
 * participants.
 */
#include "bench.h"
#include "bench_sized.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "cuzk/porep.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_cache.h"

#define MB (1024.0 * 1024.0)

typedef struct csr_ctx {
    const char *path, *id;
    cuzk_r1cs_cache_check level;
    cuzk_pool *pool;
} csr_ctx;

static bool run_load(void *p)
{
    csr_ctx *x = p;
    cuzk_r1cs *r = NULL;
    cuzk_witness_map m;
    if (cuzk_r1cs_cache_open(x->path, x->id, x->level, &r, &m, x->pool, NULL) != CUZK_OK)
        return false;
    cuzk_witness_map_free(&m);
    cuzk_r1cs_destroy(r);
    return true;
}

static bench_sized_result *once(const char *name, uint64_t rows, double ms, double file_mb)
{
    bench_sized_result *r = bench_sized_add("csr", name, 0, 1, rows);
    r->runs = 1;
    r->best_ms = r->median_ms = ms;
    r->extra_name[0] = "file MB";
    r->extra[0] = file_mb;
    return r;
}

static void one_size(const bench_sized_opts *o, uint64_t size, const unsigned *thr, size_t nt)
{
    char sz[24], id[32], path[512], name[48];
    snprintf(sz, sizeof sz, "%lluMiB", (unsigned long long)(size >> 20));
    if (size < (1u << 20))
        snprintf(sz, sizeof sz, "%lluKiB", (unsigned long long)(size >> 10));
    snprintf(id, sizeof id, "porep-%s", sz);
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/cuzk-bench-%d-%s.csr", tmp && *tmp ? tmp : "/var/tmp",
             (int)getpid(), sz);
    cuzk_error e = {0};
    cuzk_r1cs *m = NULL;
    cuzk_witness_map map = {0};
    csr_ctx x = {.path = path, .id = id};
    if (!bench_sized_pool(&x.pool, nt ? thr[0] : 1))
        x.pool = NULL;
    double t0 = bench_now_ns();
    cuzk_status st = cuzk_porep_record(size, x.pool, &m, &map, &e);
    double rec_ms = (bench_now_ns() - t0) * 1e-6;
    snprintf(name, sizeof name, "record %s", sz);
    if (st != CUZK_OK) {
        cuzk_pool_destroy(x.pool);
        bench_sized_fail(o, bench_sized_add("csr", name, 0, 1, 0), "%s", e.msg);
        return;
    }
    uint64_t rows = m->n_constraints;
    t0 = bench_now_ns();
    st = cuzk_r1cs_cache_write(path, id, m, &map, x.pool, &e);
    double wr_ms = (bench_now_ns() - t0) * 1e-6;
    cuzk_pool_destroy(x.pool);
    x.pool = NULL;
    FILE *f = fopen(path, "rb");
    double file_mb = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        file_mb = (double)ftell(f) / MB;
        fclose(f);
    }
    bench_sized_done(o, once(name, rows, rec_ms, file_mb));
    snprintf(name, sizeof name, "write %s", sz);
    if (st != CUZK_OK) {
        bench_sized_fail(o, bench_sized_add("csr", name, 0, 1, 0), "%s", e.msg);
        goto out;
    }
    bench_sized_result *wr = once(name, rows, wr_ms, file_mb);
    cuzk_r1cs *back = NULL;
    if (cuzk_r1cs_cache_open(path, id, CUZK_R1CS_CACHE_CHECK_SHAPE, &back, NULL, NULL, NULL) ==
        CUZK_OK) {
        wr->extra_name[1] = "nnz M";
        wr->extra[1] = (double)(back->m[0].nnz + back->m[1].nnz + back->m[2].nnz) / 1e6;
        wr->extra_name[2] = "table";
        wr->extra[2] = back->n_coeff_values;
    }
    cuzk_r1cs_destroy(back);
    bench_sized_done(o, wr);
    cuzk_r1cs_destroy(m);
    m = NULL;
    static const char *const lvl[] = {"shape", "bounds", "full"};
    for (size_t ti = 0; ti < nt; ti++) {
        if (!bench_sized_pool(&x.pool, thr[ti]))
            continue;
        for (int l = 0; l <= CUZK_R1CS_CACHE_CHECK_FULL; l++) {
            snprintf(name, sizeof name, "load %s %s", lvl[l], sz);
            bench_sized_result *r = bench_sized_add("csr", name, 0, thr[ti], rows);
            x.level = (cuzk_r1cs_cache_check)l;
            if (!bench_sized_time(o, r, run_load, &x)) {
                bench_sized_fail(o, r, "load failed");
                continue;
            }
            r->extra_name[0] = "file MB";
            r->extra[0] = file_mb;
            r->extra_name[1] = "GB/s";
            r->extra[1] = file_mb * MB / 1e9 / (r->best_ms * 1e-3);
            bench_sized_done(o, r);
        }
        cuzk_pool_destroy(x.pool);
        x.pool = NULL;
    }
out:
    unlink(path);
    cuzk_r1cs_destroy(m);
    cuzk_witness_map_free(&map);
}

static void csr_group(const bench_sized_opts *o)
{
    unsigned thr[BENCH_SIZED_MAX_LIST];
    uint64_t sz[BENCH_SIZED_MAX_LIST];
    size_t nt = bench_sized_threads(o, thr), ns = bench_sized_sectors(o, sz, 2048);
    for (size_t i = 0; i < ns; i++)
        one_size(o, sz[i], thr, nt);
}

const bench_sized_group bench_group_csr = {"csr", csr_group, true};
