/*
 * test_gpu_spmv.cu — cuzk_gpu_spmv (src/gpu/spmv.cu) against the CPU evaluator, bit for bit:
 *   - hand-made matrices whose row lengths straddle every border of the two kernels (0, 1,
 *     CUZK_GPU_SPMV_SHORT_MAX and one more, multiples of the warp's 32 and one off, rows of
 *     thousands of terms, long rows side by side and at the first and last row), random
 *     coefficients with the table's ONE at index 0, random witnesses; each evaluated with
 *     the long rows listed (a warp each) and without the list (a thread each);
 *   - the real 2 KiB PoRep circuit (rows of up to 929 terms in A, 256 in C), all three
 *     matrices, with a random witness;
 *   - cuzk_gpu_csr_long_rows against a count made here.
 * Single-threaded host; one stream.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"
#include "cuzk/gpu.h"
#include "cuzk/porep.h"
#include "cuzk/r1cs.h"
#include "gpu_test.h"

typedef struct host_csr {
    uint64_t rows, nnz;
    uint64_t *row_ptr;
    uint32_t *col, *ci;
} host_csr;

/* The device copies of one matrix and its long-row list. */
typedef struct dev_csr {
    uint64_t *row_ptr;
    uint32_t *col, *ci, *longs;
    uint64_t n_long;
} dev_csr;

template <typename T> static T *up(const T *h, size_t n)
{
    T *d = NULL;
    CK(cudaMalloc((void **)&d, (n ? n : 1) * sizeof(T)));
    if (n)
        CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static dev_csr dev_upload(const uint64_t *row_ptr, uint64_t rows, const uint32_t *col,
                          const uint32_t *ci, uint64_t nnz)
{
    dev_csr d;
    d.row_ptr = up(row_ptr, rows + 1);
    d.col = up(col, nnz);
    d.ci = up(ci, nnz);
    uint64_t cap = cuzk_gpu_csr_long_bound(nnz);
    uint32_t *list = (uint32_t *)malloc((cap ? cap : 1) * sizeof *list);
    d.n_long = cuzk_gpu_csr_long_rows(row_ptr, rows, list);
    uint64_t want = 0;
    for (uint64_t r = 0; r < rows; r++)
        want += row_ptr[r + 1] - row_ptr[r] > CUZK_GPU_SPMV_SHORT_MAX;
    GPU_CHECK(d.n_long == want && d.n_long <= cap, "long rows: %llu listed, %llu counted, "
              "bound %llu", (unsigned long long)d.n_long, (unsigned long long)want,
              (unsigned long long)cap);
    d.longs = up(list, d.n_long);
    free(list);
    return d;
}

static void dev_free(dev_csr *d)
{
    CK(cudaFree(d->row_ptr));
    CK(cudaFree(d->col));
    CK(cudaFree(d->ci));
    CK(cudaFree(d->longs));
}

/* out = M w on the device, with (listed) or without the long-row list; into h_out. */
static void gpu_eval(const dev_csr *d, uint64_t rows, uint64_t nnz, const cuzk_fr *d_table,
                     const cuzk_fr *d_w, cuzk_fr *d_out, cuzk_fr *h_out, bool listed)
{
    cuzk_gpu_csr m;
    memset(&m, 0, sizeof m);
    m.rows = rows;
    m.nnz = nnz;
    m.d_row_ptr = d->row_ptr;
    m.d_col = d->col;
    m.d_coeff_idx = d->ci;
    m.d_table = d_table;
    m.d_long = listed && d->n_long ? d->longs : NULL;
    m.n_long = listed ? d->n_long : 0;
    CK(cudaMemset(d_out, 0xa5, rows * sizeof(cuzk_fr))); /* a skipped row shows */
    cuzk_error err;
    cuzk_status st = cuzk_gpu_spmv(&m, d_w, d_out, NULL, &err);
    GPU_CHECK(st == CUZK_OK, "spmv: %s", err.msg);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_out, d_out, rows * sizeof(cuzk_fr), cudaMemcpyDeviceToHost));
}

static void expect_equal(const cuzk_fr *want, const cuzk_fr *got, uint64_t rows,
                         const uint64_t *row_ptr, const char *what)
{
    uint64_t bad = 0, first = 0;
    for (uint64_t r = 0; r < rows; r++)
        if (memcmp(&want[r], &got[r], sizeof(cuzk_fr)) != 0 && bad++ == 0)
            first = r;
    GPU_CHECK(bad == 0, "%s: %llu of %llu rows differ, first %llu (%llu terms)", what,
              (unsigned long long)bad, (unsigned long long)rows, (unsigned long long)first,
              (unsigned long long)(bad ? row_ptr[first + 1] - row_ptr[first] : 0));
}

static const uint64_t k_lengths[] = {
    0, 1, 2, 3, 4, CUZK_GPU_SPMV_SHORT_MAX, CUZK_GPU_SPMV_SHORT_MAX + 1, 16, 31, 32, 33, 63,
    64, 65, 256, 929, 1000, 4097};

/* Hand-made matrices: row lengths from k_lengths, in runs and alone, long rows first and
 * last; columns anywhere in the witness (repeats allowed), coefficient indices anywhere in
 * the table (index 0, ONE, a third of the time). */
static void test_borders(void)
{
    const uint32_t n_vars = 5000, n_table = 300;
    const uint64_t rows = 3000;
    const size_t nl = sizeof k_lengths / sizeof k_lengths[0];
    host_csr h;
    h.rows = rows;
    h.row_ptr = (uint64_t *)malloc((rows + 1) * sizeof(uint64_t));
    h.row_ptr[0] = 0;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t len;
        if (r == 0 || r == rows - 1)
            len = k_lengths[nl - 1];
        else if (r < 200) /* every length, runs of one */
            len = k_lengths[r % nl];
        else if (r < 600) /* long rows side by side */
            len = k_lengths[6 + test_rng_u64() % (nl - 6)];
        else /* mostly short, a long one now and then */
            len = test_rng_u64() % 50 == 0 ? k_lengths[6 + test_rng_u64() % (nl - 6)]
                                             : test_rng_u64() % 5;
        h.row_ptr[r + 1] = h.row_ptr[r] + len;
    }
    h.nnz = h.row_ptr[rows];
    h.col = (uint32_t *)malloc(h.nnz * sizeof(uint32_t));
    h.ci = (uint32_t *)malloc(h.nnz * sizeof(uint32_t));
    for (uint64_t k = 0; k < h.nnz; k++) {
        h.col[k] = (uint32_t)(test_rng_u64() % n_vars);
        h.ci[k] = test_rng_u64() % 3 == 0 ? 0 : (uint32_t)(test_rng_u64() % n_table);
    }
    cuzk_fr *table = (cuzk_fr *)malloc(n_table * sizeof(cuzk_fr));
    cuzk_fr *w = (cuzk_fr *)malloc(n_vars * sizeof(cuzk_fr));
    table[0] = CUZK_FR_ONE;
    for (uint32_t i = 1; i < n_table; i++)
        test_rand_fr(&table[i]);
    for (uint32_t v = 0; v < n_vars; v++)
        test_rand_fr(&w[v]);
    w[0] = CUZK_FR_ONE;

    cuzk_fr *want = (cuzk_fr *)calloc(rows, sizeof(cuzk_fr));
    cuzk_fr *got = (cuzk_fr *)malloc(rows * sizeof(cuzk_fr));
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t k = h.row_ptr[r]; k < h.row_ptr[r + 1]; k++) {
            cuzk_fr t;
            cuzk_fr_mul(&t, &w[h.col[k]], &table[h.ci[k]]);
            cuzk_fr_add(&want[r], &want[r], &t);
        }
    dev_csr d = dev_upload(h.row_ptr, rows, h.col, h.ci, h.nnz);
    GPU_CHECK(d.n_long > 100, "the borders matrix has %llu long rows",
              (unsigned long long)d.n_long);
    cuzk_fr *d_table = up(table, n_table), *d_w = up(w, n_vars), *d_out = NULL;
    CK(cudaMalloc((void **)&d_out, rows * sizeof(cuzk_fr)));
    gpu_eval(&d, rows, h.nnz, d_table, d_w, d_out, got, true);
    expect_equal(want, got, rows, h.row_ptr, "borders, long rows a warp each");
    gpu_eval(&d, rows, h.nnz, d_table, d_w, d_out, got, false);
    expect_equal(want, got, rows, h.row_ptr, "borders, every row a thread");
    printf("borders: %llu rows, %llu terms, %llu long rows: checked\n",
           (unsigned long long)rows, (unsigned long long)h.nnz, (unsigned long long)d.n_long);
    dev_free(&d);
    CK(cudaFree(d_table));
    CK(cudaFree(d_w));
    CK(cudaFree(d_out));
    free(h.row_ptr);
    free(h.col);
    free(h.ci);
    free(table);
    free(w);
    free(want);
    free(got);
}

/* The real 2 KiB PoRep partition circuit: the CPU evaluator's A.w, B.w, C.w against the
 * device's, for a random (unsatisfying: only the products matter) witness. */
static void test_porep(void)
{
    cuzk_r1cs *r1cs = NULL;
    cuzk_witness_map map;
    memset(&map, 0, sizeof map);
    cuzk_error err;
    if (cuzk_porep_record(2048, NULL, &r1cs, &map, &err) != CUZK_OK) {
        GPU_CHECK(false, "porep 2 KiB record: %s", err.msg);
        return;
    }
    const uint64_t rows = r1cs->n_constraints;
    cuzk_fr *w = (cuzk_fr *)malloc(r1cs->n_vars * sizeof(cuzk_fr));
    for (uint32_t v = 0; v < r1cs->n_vars; v++)
        test_rand_fr(&w[v]);
    w[0] = CUZK_FR_ONE;
    cuzk_fr *want[3], *got = (cuzk_fr *)malloc(rows * sizeof(cuzk_fr));
    for (int m = 0; m < 3; m++)
        want[m] = (cuzk_fr *)malloc(rows * sizeof(cuzk_fr));
    cuzk_witness wit = cuzk_witness_dense(w, r1cs->n_vars);
    GPU_CHECK(cuzk_r1cs_eval(r1cs, &wit, want[0], want[1], want[2], NULL) == CUZK_OK,
              "cpu eval");
    cuzk_fr *table = NULL;
    uint32_t n_table = 0, *ci[3] = {NULL, NULL, NULL};
    GPU_CHECK(cuzk_r1cs_coeff_table(r1cs, &table, &n_table, ci, &err) == CUZK_OK,
              "coefficient table: %s", err.msg);
    GPU_CHECK(memcmp(&table[0], &CUZK_FR_ONE, sizeof(cuzk_fr)) == 0, "table[0] is ONE");
    cuzk_fr *d_table = up(table, n_table), *d_w = up(w, r1cs->n_vars), *d_out = NULL;
    CK(cudaMalloc((void **)&d_out, rows * sizeof(cuzk_fr)));
    static const char *const names[3] = {"A", "B", "C"};
    for (int m = 0; m < 3; m++) {
        const cuzk_csr *c = &r1cs->m[m];
        dev_csr d = dev_upload(c->row_ptr, rows, c->col, ci[m], c->nnz);
        char what[64];
        snprintf(what, sizeof what, "porep 2 KiB %s, listed", names[m]);
        gpu_eval(&d, rows, c->nnz, d_table, d_w, d_out, got, true);
        expect_equal(want[m], got, rows, c->row_ptr, what);
        snprintf(what, sizeof what, "porep 2 KiB %s, a thread a row", names[m]);
        gpu_eval(&d, rows, c->nnz, d_table, d_w, d_out, got, false);
        expect_equal(want[m], got, rows, c->row_ptr, what);
        printf("porep 2 KiB %s: %llu rows, %llu terms, %llu long rows: checked\n", names[m],
               (unsigned long long)rows, (unsigned long long)c->nnz,
               (unsigned long long)d.n_long);
        if (m == 0)
            GPU_CHECK(d.n_long > 1000, "PoRep's A has long rows (%llu)",
                      (unsigned long long)d.n_long);
        dev_free(&d);
    }
    CK(cudaFree(d_table));
    CK(cudaFree(d_w));
    CK(cudaFree(d_out));
    for (int m = 0; m < 3; m++) {
        free(want[m]);
        free(ci[m]);
    }
    free(table);
    free(got);
    free(w);
    cuzk_witness_map_free(&map);
    cuzk_r1cs_destroy(r1cs);
}

int main(void)
{
    GPU_TEST_BEGIN("spmv");
    test_borders();
    test_porep();
    GPU_TEST_END();
}
