/*
 * cuzk/gpu.h — the device layer (CUDA C, src/gpu): NTTs, MSMs and SpMV on data that
 * already lives on one GPU. The prover backend (cuzk/prover.h) and `cuzk bench` drive it;
 * it knows nothing of jobs or files.
 *
 * Model
 *   Every routine works on device memory and is asynchronous on the given stream: it
 *   enqueues kernels (and, where documented, small copies) and returns; results are ready
 *   when the stream has reached that point. Nothing synchronises the host unless its
 *   comment says so (the MSMs do: see the MSM family). Device buffers use the host's
 *   bytes: cuzk_fr / cuzk_fp elements in Montgomery form, little-endian limbs (read as
 *   32-bit limbs by the kernels), affine points with infinity = (0, 0), results as
 *   Jacobian points (Z = 0: infinity).
 *
 * Memory
 *   Nothing here allocates device memory behind the caller's back: each routine that
 *   needs temporary device memory has a *_scratch_size and takes caller device scratch.
 *   The exceptions are the objects with create/destroy pairs (a device domain), which
 *   own what they allocate.
 *
 * Errors
 *   Every CUDA call is checked (src/gpu/gpu_check.cuh); a failure returns CUZK_ERR_CUDA
 *   (CUZK_ERR_NOMEM for an allocation) with "expr failed at file:line: message" in err.
 *   The stream may then hold failed work: the caller discards the results.
 *
 * Threading
 *   Routines may be called from several host threads on different streams; the caller
 *   orders work that shares buffers. The device is selected by the caller
 *   (cudaSetDevice) before the call.
 */
#ifndef CUZK_GPU_H
#define CUZK_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/poly.h"
#include <stdio.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same type as cudaStream_t, without making every includer depend on the CUDA headers. */
typedef struct CUstream_st *cuzk_gpu_stream;

/* Number of CUDA devices (0 when there is no driver or no device; never an error). */
int cuzk_gpu_device_count(void);
/* Total memory of device `device` in bytes (0 when there is no such device). */
uint64_t cuzk_gpu_device_memory(int device);

/* Phase profile (benchmarks): when the environment has CUZK_GPU_PROFILE set, the device
 * routines record CUDA events at their phase borders (digits, sort, accumulate, ... for
 * the MSM; the NTT passes); this waits for the device, prints to out under title the
 * device time per phase since the last report divided by runs, and forgets it (out NULL
 * or runs 0: forget only). A no-op without the variable. */
void cuzk_gpu_profile_report(FILE *out, const char *title, unsigned runs);

/* ---------------------------------------------------------------------------------------
 * NTT family (src/gpu/ntt.cu). A device domain mirrors a host cuzk_domain (same omega,
 * coset shift, convention) plus whatever twiddle tables the kernels want on the device.
 * All transforms are in place on n = 2^log2n elements, natural order in and out, and give
 * exactly the host results of cuzk/poly.h.
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_gpu_domain cuzk_gpu_domain;

/* Builds the device copy of d on the current device (allocates; synchronous). */
cuzk_status cuzk_gpu_domain_create(cuzk_gpu_domain **out, const cuzk_domain *d,
                                   cuzk_error *err);
void cuzk_gpu_domain_destroy(cuzk_gpu_domain *gd); /* NULL is a no-op */

typedef enum cuzk_gpu_ntt_kind {
    CUZK_GPU_NTT = 0,        /* cuzk_ntt */
    CUZK_GPU_INTT = 1,       /* cuzk_intt */
    CUZK_GPU_COSET_NTT = 2,  /* cuzk_coset_ntt */
    CUZK_GPU_COSET_INTT = 3, /* cuzk_coset_intt */
} cuzk_gpu_ntt_kind;

cuzk_status cuzk_gpu_ntt(const cuzk_gpu_domain *gd, cuzk_fr *d_a, cuzk_gpu_ntt_kind kind,
                         cuzk_gpu_stream s, cuzk_error *err);

/* The Groth16 quotient on the device: same contract as cuzk_poly_h_bellperson /
 * cuzk_poly_h_snarkjs (a, b, c overwritten, the result in d_a). */
cuzk_status cuzk_gpu_h_bellperson(const cuzk_gpu_domain *gd, cuzk_fr *d_a, cuzk_fr *d_b,
                                  cuzk_fr *d_c, cuzk_gpu_stream s, cuzk_error *err);
cuzk_status cuzk_gpu_h_snarkjs(const cuzk_gpu_domain *gd, cuzk_fr *d_a, cuzk_fr *d_b,
                               cuzk_fr *d_c, cuzk_gpu_stream s, cuzk_error *err);
/* cuzk_gpu_h_bellperson in two halves, so a, b, c never need to be on the device at once
 * (4 GiB less at 2^27): begin leaves a*b on the coset in d_a and clobbers d_b; the caller
 * then evaluates c (into d_b's buffer if it likes); end leaves the quotient's coefficients
 * in d_a and clobbers d_c. The same transforms and memory traffic as the one-call form,
 * which is begin + end. */
cuzk_status cuzk_gpu_h_bellperson_begin(const cuzk_gpu_domain *gd, cuzk_fr *d_a, cuzk_fr *d_b,
                                        cuzk_gpu_stream s, cuzk_error *err);
cuzk_status cuzk_gpu_h_bellperson_end(const cuzk_gpu_domain *gd, cuzk_fr *d_a, cuzk_fr *d_c,
                                      cuzk_gpu_stream s, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * MSM family (src/gpu/msm*.cu). d_out receives one Jacobian point in device memory.
 * Scalars are cuzk_fr in Montgomery form (converted on the device). n may be 0
 * (infinity). Results equal the host's cuzk_g{1,2}s_msm as group elements; the Jacobian
 * representation may differ (compare after conversion to affine).
 * Scratch: *_scratch_size(n) is the fastest plan's. A smaller scratch is accepted down to
 * *_scratch_size_least(n): the MSM then uses the widest window that fits it (narrower
 * windows need fewer buckets and run longer: a card too small for the default working set
 * still proves); *_scratch_size_capped(n, bits) is the scratch with windows of at most
 * `bits` (4..22, clamped). The result is the same group element for every plan.
 * Each MSM (and the tail MSM inside *_msm_auto) waits on the stream for its window sums,
 * adds them up on the host ((W - 1) c doublings in a chain: milliseconds in one
 * device thread, a tenth of that on the host) and copies the result up, waiting for it.
 * ------------------------------------------------------------------------------------- */
size_t cuzk_gpu_g1s_msm_scratch_size(size_t n);
size_t cuzk_gpu_g1s_msm_scratch_size_capped(size_t n, unsigned bits);
size_t cuzk_gpu_g1s_msm_scratch_size_least(size_t n);
cuzk_status cuzk_gpu_g1s_msm(cuzk_g1_jac *d_out, const cuzk_g1_affine *d_points,
                             const cuzk_fr *d_scalars, size_t n, void *d_scratch,
                             size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);
size_t cuzk_gpu_g2s_msm_scratch_size(size_t n);
size_t cuzk_gpu_g2s_msm_scratch_size_capped(size_t n, unsigned bits);
size_t cuzk_gpu_g2s_msm_scratch_size_least(size_t n);
cuzk_status cuzk_gpu_g2s_msm(cuzk_g2_jac *d_out, const cuzk_g2_affine *d_points,
                             const cuzk_fr *d_scalars, size_t n, void *d_scratch,
                             size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);

/* Sum of the points whose bit is set in d_bitmap (ceil(n/64) words, bit i of word i/64). */
size_t cuzk_gpu_g1s_sum_bitmap_scratch_size(size_t n);
cuzk_status cuzk_gpu_g1s_sum_bitmap(cuzk_g1_jac *d_out, const cuzk_g1_affine *d_points,
                                    const uint64_t *d_bitmap, size_t n, void *d_scratch,
                                    size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);
size_t cuzk_gpu_g2s_sum_bitmap_scratch_size(size_t n);
cuzk_status cuzk_gpu_g2s_sum_bitmap(cuzk_g2_jac *d_out, const cuzk_g2_affine *d_points,
                                    const uint64_t *d_bitmap, size_t n, void *d_scratch,
                                    size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);

/* The whole witness-driven MSM with the 0/1 split done on the device: classify the
 * scalars (0 / 1 / other) into a ones bitmap and a compacted tail, decide with the msm
 * layer's rule (cuzk_msm_split_pays, shared with the CPU path) whether the split pays,
 * then sum_bitmap + tail MSM over the tail points (read in place), or one plain MSM.
 * The decision reads the ones count back: this routine synchronises the stream once. */
size_t cuzk_gpu_g1s_msm_auto_scratch_size(size_t n);
size_t cuzk_gpu_g1s_msm_auto_scratch_size_capped(size_t n, unsigned bits);
size_t cuzk_gpu_g1s_msm_auto_scratch_size_least(size_t n);
cuzk_status cuzk_gpu_g1s_msm_auto(cuzk_g1_jac *d_out, const cuzk_g1_affine *d_points,
                                  const cuzk_fr *d_scalars, size_t n, void *d_scratch,
                                  size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);
size_t cuzk_gpu_g2s_msm_auto_scratch_size(size_t n);
size_t cuzk_gpu_g2s_msm_auto_scratch_size_capped(size_t n, unsigned bits);
size_t cuzk_gpu_g2s_msm_auto_scratch_size_least(size_t n);
cuzk_status cuzk_gpu_g2s_msm_auto(cuzk_g2_jac *d_out, const cuzk_g2_affine *d_points,
                                  const cuzk_fr *d_scalars, size_t n, void *d_scratch,
                                  size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Constraint evaluation (src/gpu/spmv.cu): one r1cs matrix in CSR form on the device: the
 * host's row_ptr (rows + 1 entries) and col arrays, and for coefficients a 4-byte index
 * per term into a table of the distinct values (cuzk_r1cs_coeff_table; index 0 is ONE).
 * A block of rows copied on its own (a streamed constraint system) keeps the whole
 * matrix's offsets in its row_ptr slice: term k of the block is d_col[k - nz_base]; 0 for
 * a whole matrix.
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_gpu_csr {
    uint64_t rows, nnz, nz_base;
    const uint64_t *d_row_ptr;
    const uint32_t *d_col;
    const uint32_t *d_coeff_idx;
    const cuzk_fr *d_table;
    /* The rows of more than CUZK_GPU_SPMV_SHORT_MAX terms, ascending (cuzk_gpu_csr_long_rows),
     * evaluated a warp each; NULL: every row a thread (a block of a streamed matrix). */
    const uint32_t *d_long;
    uint64_t n_long;
} cuzk_gpu_csr;

/* Rows longer than this get a warp each in cuzk_gpu_spmv. Filecoin's PoRep rows are 1-4
 * terms or 9 and more (packing, sums), so any value from 4 to 8 splits them alike. */
#define CUZK_GPU_SPMV_SHORT_MAX 8

/* Writes the rows of more than CUZK_GPU_SPMV_SHORT_MAX terms, ascending, into out (host
 * memory, at least cuzk_gpu_csr_long_bound(nnz) entries) and returns their count. */
uint64_t cuzk_gpu_csr_long_rows(const uint64_t *row_ptr, uint64_t rows, uint32_t *out);
/* At most this many rows have more than CUZK_GPU_SPMV_SHORT_MAX of nnz terms. */
static inline uint64_t cuzk_gpu_csr_long_bound(uint64_t nnz)
{
    return nnz / (CUZK_GPU_SPMV_SHORT_MAX + 1);
}

/* d_out[i] = <row i, w> for i < m->rows (d_w: the dense witness on the device). */
cuzk_status cuzk_gpu_spmv(const cuzk_gpu_csr *m, const cuzk_fr *d_w, cuzk_fr *d_out,
                          cuzk_gpu_stream s, cuzk_error *err);

/* d_r[i] = d_a[i] * d_b[i] for i < n (d_r may alias either input). */
cuzk_status cuzk_gpu_fr_mul_pointwise(cuzk_fr *d_r, const cuzk_fr *d_a, const cuzk_fr *d_b,
                                      size_t n, cuzk_gpu_stream s, cuzk_error *err);

/* d_dst[t] = d_src[d_idx[t]] for t < m (density gathers of the A and B scalars). */
cuzk_status cuzk_gpu_fr_gather(cuzk_fr *d_dst, const cuzk_fr *d_src, const uint32_t *d_idx,
                               size_t m, cuzk_gpu_stream s, cuzk_error *err);

/* The dense witness from a compact one (src/gpu/witness.cu): d_w[v] for v < n_vars, from
 * the circuit's map (d_is_bit, d_rank: the arrays of a cuzk_witness_map) and the proof's
 * d_bits / d_dense (the arrays of a COMPACT cuzk_witness), all on the device. */
cuzk_status cuzk_gpu_witness_expand(cuzk_fr *d_w, uint32_t n_vars, const uint64_t *d_is_bit,
                                    const uint32_t *d_rank, const uint64_t *d_bits,
                                    const cuzk_fr *d_dense, cuzk_gpu_stream s,
                                    cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Fixed-base batch multiplication (src/gpu/fixed_base.cu), for key generation: r[i] =
 * k[i] * B for one base B (the standard generator by default) and millions of scalars.
 * The exception to the model above: these routines take HOST arrays and are synchronous.
 * A context owns what the work needs on one device (the table of B's multiples, streams,
 * device buffers and pinned staging for two chunks, so the copies of one chunk overlap
 * the kernels of the other) and keeps it between calls; destroy releases it.
 *
 * Results are affine points with the host's bytes (Montgomery, fully reduced; infinity =
 * (0, 0) for a zero scalar): exactly what cuzk_g1s_fixed_mul_var / cuzk_g2s_fixed_mul_var
 * give, byte for byte. Scalars are cuzk_fr (Montgomery, reduced) as the host holds them.
 * VARIABLE-TIME in the scalars, like the CPU routine: for a development setup only.
 * ------------------------------------------------------------------------------------- */
typedef struct cuzk_gpu_fixed_base cuzk_gpu_fixed_base;

typedef struct cuzk_gpu_fixed_base_opts {
    /* Points per chunk (what one kernel launch and one pair of copies covers). 0: the
     * environment's CUZK_GPU_FIXED_BASE_CHUNK (a count, suffix K or M allowed), else
     * 2^22. Device memory: 2 chunks x (32 + 4 coordinates + 2 coordinates) bytes a point
     * (G1: 320 B, G2: 608 B; 2^22: 2.5 / 4.8 GiB), pinned host memory 2 chunks x (32 +
     * one affine point) bytes. */
    size_t chunk;
    /* Table window width in bits, 8..22 (0: the environment's CUZK_GPU_FIXED_BASE_WINDOW,
     * else 20): ceil(256/w) windows of 2^(w-1) affine multiples of B (w = 20: 13 windows,
     * 624 MiB for G1, 1.2 GiB for G2; w = 8: 32 windows, 384 KiB), so a point costs at most
     * ceil(256/w) - 1 additions and no doublings. */
    unsigned window;
    /* Host threads for the staging copies (NULL: the calling thread); it must outlive the
     * context. */
    cuzk_pool *pool;
} cuzk_gpu_fixed_base_opts;

/* The pinned host memory a context with these options holds at most (opts NULL: the
 * defaults, the environment's chunk included; a malformed environment counts 2^22):
 * 2 chunks x (32 + a G2 affine point) bytes, 1.75 GiB at 2^22. */
size_t cuzk_gpu_fixed_base_host_bytes(const cuzk_gpu_fixed_base_opts *opts);

/* A context on CUDA device `device` (opts NULL: all defaults). Allocates no device memory
 * yet (the first multiplication does). Errors: INVALID_ARG (no such device, bad options, a
 * malformed CUZK_GPU_FIXED_BASE_CHUNK or _WINDOW), CUDA, NOMEM. */
cuzk_status cuzk_gpu_fixed_base_create(cuzk_gpu_fixed_base **out, int device,
                                       const cuzk_gpu_fixed_base_opts *opts, cuzk_error *err);
/* Waits for the device, wipes the scalar staging, frees everything (NULL is a no-op). */
void cuzk_gpu_fixed_base_destroy(cuzk_gpu_fixed_base *fb);

/* r[i] = k[i] * base for i < n (host arrays; base NULL = CUZK_G1_GENERATOR; it must be a
 * point of G1, not infinity). The table is built on the device the first time a base is
 * used and kept for the next call with the same base. Selects the context's device on the
 * calling thread. One call at a time per context. Errors: INVALID_ARG, CUDA, NOMEM; r is
 * then unspecified. */
cuzk_status cuzk_gpu_g1s_fixed_mul(cuzk_gpu_fixed_base *fb, cuzk_g1_affine *r,
                                   const cuzk_g1_affine *base, const cuzk_fr *k, size_t n,
                                   cuzk_error *err);
cuzk_status cuzk_gpu_g2s_fixed_mul(cuzk_gpu_fixed_base *fb, cuzk_g2_affine *r,
                                   const cuzk_g2_affine *base, const cuzk_fr *k, size_t n,
                                   cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_GPU_H */
