/*
 * gpu_need.c — the device memory rules of the CUDA backend as plain arithmetic, built in
 * every build: what a resident key, a resident constraint system, a compact-witness map
 * and one start's working set take on the device, and what streaming adds. The backend
 * (backend_cuda.cu, cuda_resident.cu, cuda_partition.cu) sizes its uploads, admission and
 * allocations with these functions, and cuzk_prover_gpu_need (cuzk/prover.h) adds them up
 * for a plan made from counts alone, so a plan and a run count the same bytes.
 * Threading: pure functions.
 */
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "gpu/gpu_export.h"
#include "prover/prover_internal.h"

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }
static size_t chunks(size_t n, size_t chunk) { return (n + chunk - 1) / chunk; }

void gpu_shape_of(cuzk_gpu_shape *s, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                  const cuzk_witness *w0, size_t batch)
{
    memset(s, 0, sizeof *s);
    s->log2n = pk->log2n;
    s->snarkjs = pk->flavour == CUZK_GROTH16_SNARKJS;
    s->n_constraints = r1cs->n_constraints;
    s->n_vars = r1cs->n_vars;
    s->compact = w0 && w0->kind == CUZK_WITNESS_COMPACT;
    s->n_bits = s->compact ? w0->map->n_bits : 0;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        s->nnz[m] = r1cs->m[m].nnz;
    s->n_coeff_values = r1cs->coeff_values ? r1cs->n_coeff_values : 0;
    s->n_ic = pk->vk.n_ic;
    s->n_h = pk->n_h;
    s->n_l = pk->n_l;
    s->n_a = pk->n_a;
    s->n_b_g1 = pk->n_b_g1;
    s->n_b_g2 = pk->n_b_g2;
    s->batch = batch;
}

void gpu_ws_plan(gpu_ws *w, const cuzk_gpu_shape *s)
{
    size_t n = (size_t)1 << s->log2n;
    size_t wbytes = (size_t)s->n_vars * sizeof(cuzk_fr);
    /* compact witnesses cross PCIe as bitmap + dense values and are expanded on the device */
    w->up_bytes[0] = s->compact ? (s->n_bits + 63) / 64 * 8 : wbytes;
    w->up_bytes[1] = s->compact ? (s->n_vars - s->n_bits) * sizeof(cuzk_fr) : 0;
    w->slots = s->batch > 1 ? 2 : 1;
    w->w_bytes = s->compact ? wbytes : 0;
    /* bellperson: two n-vectors, c evaluated into b's buffer once a*b is on the coset;
     * snarkjs: c = a*b before the transforms, three (cuda_partition.cu prove_one) */
    w->nvec = s->snarkjs ? 3 : 2;
    w->abc_bytes = w->nvec * n * sizeof(cuzk_fr);
    /* the density gathers run after H, when b (and c) are dead */
    w->g_len = max2(s->n_a, s->n_b_g1);
    w->g_bytes = w->g_len <= (w->nvec - 1) * n ? 0 : w->g_len * sizeof(cuzk_fr);
    w->res_bytes = s->batch * sizeof(cuzk_groth16_msm_results);
    w->g1_max = max2(max2(s->n_h, s->n_l), w->g_len);
    w->base = w->slots * (w->up_bytes[0] + w->up_bytes[1]) + w->w_bytes + w->abc_bytes +
              w->g_bytes + w->res_bytes;
}

void gpu_msm_sizes(const cuzk_gpu_shape *s, size_t *h, size_t *g1_split, size_t *g2_split)
{
    *h = s->n_h;
    *g1_split = max2(s->n_l, max2(s->n_a, s->n_b_g1));
    *g2_split = s->n_b_g2;
}

void gpu_stage_plan(gpu_stage *g, size_t g1_max, size_t n_b_g2, size_t batch, size_t want,
                    size_t csr_max)
{
    size_t vec_max = max2(g1_max * sizeof(cuzk_g1_affine), n_b_g2 * sizeof(cuzk_g2_affine));
    vec_max = max2(vec_max, csr_max + sizeof(cuzk_g2_affine));
    size_t sb = want < vec_max ? want : vec_max;
    sb = sb / sizeof(cuzk_g2_affine) * sizeof(cuzk_g2_affine);
    g->stage_bytes = sb > sizeof(cuzk_g2_affine) ? sb : sizeof(cuzk_g2_affine);
    g->maxc1 = chunks(g1_max, g->stage_bytes / sizeof(cuzk_g1_affine));
    g->maxc2 = chunks(n_b_g2, g->stage_bytes / sizeof(cuzk_g2_affine));
    g->bytes = 2 * g->stage_bytes +
               batch * (4 * g->maxc1 * sizeof(cuzk_g1_jac) + g->maxc2 * sizeof(cuzk_g2_jac));
}

size_t gpu_key_bytes(size_t n_h, size_t n_l, size_t n_a, size_t n_b_g1, size_t n_b_g2)
{
    return (n_h + n_l + n_a + n_b_g1) * sizeof(cuzk_g1_affine) + n_b_g2 * sizeof(cuzk_g2_affine);
}

size_t gpu_csr_tables_bytes(size_t n_table, size_t n_vars, bool bellperson)
{
    return n_table * sizeof(cuzk_fr) + (bellperson ? 2 * n_vars * 4 : 0);
}

size_t gpu_csr_matrix_bytes(uint64_t rows, const uint64_t nnz[CUZK_R1CS_MATRICES],
                            bool bellperson)
{
    size_t b = 0;
    for (int m = 0; m < (bellperson ? CUZK_R1CS_MATRICES : CUZK_R1CS_C); m++)
        b += (rows + 1) * 8 + nnz[m] * 8 /* row_ptr, col + coefficient index */
             + cuzk_gpu_csr_long_bound(nnz[m]) * 4; /* the long rows' list, at most */
    return b;
}

size_t gpu_map_bytes(size_t n_vars) { return (n_vars + 63) / 64 * 12; }

/* The device MSM's scratch from its layout (msm_plan.h) with CUB bounded: what
 * cuzk_gpu_g1s_msm_scratch_size(n) and the *_auto_* sizes give on a device, plus at most
 * the bound's margin. */
static size_t msm_plain(size_t n, size_t xyzz, unsigned c)
{
    if (n == 0)
        return 0;
    msm_plan pl;
    msm_plan_layout(&pl, n, n, xyzz, c, msm_cub_bytes_bound(msm_pairs_cap(n, c)));
    return pl.total;
}

static size_t msm_split(size_t n, size_t xyzz, unsigned c)
{
    if (n == 0)
        return 0;
    msm_auto_plan pl;
    msm_auto_plan_layout(&pl, n, xyzz, c, msm_cub_bytes_bound(msm_pairs_cap(n, c)),
                         msm_cub_bytes_bound(n));
    return pl.total;
}

uint64_t cuzk_prover_gpu_msm_scratch(const cuzk_gpu_shape *s, unsigned max_bits)
{
    /* the clamp of msm_entry.cuh's msm_cap_bits */
    unsigned c = max_bits < MSM_MIN_C ? MSM_MIN_C : max_bits > MSM_MAX_C ? MSM_MAX_C : max_bits;
    size_t h, g1, g2;
    gpu_msm_sizes(s, &h, &g1, &g2);
    return max2(max2(msm_plain(h, sizeof(cuzk_g1_xyzz), c), msm_split(g1, sizeof(cuzk_g1_xyzz), c)),
                msm_split(g2, sizeof(cuzk_g2_xyzz), c));
}

/* The device NTT domain's tables (src/gpu/ntt.cu, cuzk_gpu_domain_create): twiddles of
 * the last pass (at most 2^(10-1) each way: passes of at most 2^10), four power tables
 * split in a low half of 2^ceil(k/2) and a high half of 2^floor(k/2), and a one-level
 * twist table of at most 2^19 entries. */
static size_t domain_bytes(unsigned k)
{
    size_t lo = (size_t)1 << ((k + 1) / 2), hi = (size_t)1 << (k / 2);
    size_t n1 = (size_t)1 << (k < 19 ? k : 19);
    return (2 * ((size_t)1 << 9) + 4 * (lo + hi) + n1) * sizeof(cuzk_fr);
}

void cuzk_prover_gpu_need(const cuzk_gpu_shape *shape, uint64_t msm_scratch,
                          cuzk_gpu_need *out)
{
    memset(out, 0, sizeof *out);
    if (!shape)
        return;
    cuzk_gpu_shape one = *shape;
    if (!one.batch)
        one.batch = 1;
    const cuzk_gpu_shape *s = &one;
    gpu_ws w;
    gpu_ws_plan(&w, s);
    if (!msm_scratch)
        msm_scratch = cuzk_prover_gpu_msm_scratch(s, MSM_MAX_C);
    bool bell = !s->snarkjs;
    /* a table always holds ONE, even when the counts do not say */
    size_t n_table = s->n_coeff_values ? s->n_coeff_values : 1;
    out->key = gpu_key_bytes(s->n_h, s->n_l, s->n_a, s->n_b_g1, s->n_b_g2);
    out->circuit_tables = gpu_csr_tables_bytes(n_table, s->n_vars, bell);
    out->circuit = out->circuit_tables + gpu_csr_matrix_bytes(s->n_constraints, s->nnz, bell);
    out->map = s->compact ? gpu_map_bytes(s->n_vars) : 0;
    out->domain = domain_bytes(s->log2n);
    out->msm_scratch = msm_scratch;
    out->working_set = w.base + msm_scratch;
    gpu_stage st;
    gpu_stage_plan(&st, w.g1_max, s->n_b_g2, s->batch, STAGE_BYTES_MIN, 0);
    out->stream_key = st.bytes;
    /* a streamed matrix is copied a block of rows at a time: a buffer may hold all of it */
    size_t csr_max = 0;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        csr_max = max2(csr_max, (s->n_constraints + 1) * 8 + s->nnz[m] * 8);
    gpu_stage_plan(&st, w.g1_max, s->n_b_g2, s->batch, STAGE_BYTES_MIN, csr_max);
    out->stream_circuit = 2 * st.stage_bytes;
    out->headroom = HEADROOM_BYTES;
}

uint64_t cuzk_prover_gpu_stage_for(uint64_t memory)
{
    /* two workers' 32 GiB WindowPoSt witnesses (3.75 GiB each) and their results fit */
    const uint64_t cap = (uint64_t)12 << 30;
    return memory && memory / 8 < cap ? memory / 8 : cap;
}

uint64_t cuzk_prover_gpu_stage_default(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return cuzk_prover_gpu_stage_for(pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
                                                           : 0);
}
