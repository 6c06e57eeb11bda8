/*
 * plan.c — the memory plan of the Filecoin kinds (cuzk/plan.h): what a key, its circuit
 * and a partition take in host and device memory, and whether a machine fits them. The
 * engine's admission estimates are built on it (kind_fil_sizes.c).
 *
 * Every number comes from the exact counts of fil_counts.c through the formulas that hold
 * the memory: engine_pk_bytes_of, engine_r1cs_bytes_of and engine_wmap_bytes (what a
 * loaded key is charged, sizes.c), the compact witness as engine_fil_witness_adopt counts
 * it, cuzk_groth16_prove_scratch_size_for (the CPU prover's scratch) and
 * cuzk_prover_gpu_need (the CUDA backend's device memory). Nothing here is a per-row
 * factor: a plan and a run count the same bytes.
 * Threading: pure functions (reads /proc/meminfo for cuzk_plan_host_memory).
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/plan.h"
#include "cuzk/porep.h"
#include "cuzk/snap.h"
#include "cuzk/prover.h"
#include "engine/sizes.h"

#define GIB 1073741824.0
/* What a partition is charged beyond its data (the scheduler's engine_sched_resize): the job
 * record, the MSM results, the proof. */
#define PART_MARGIN ((uint64_t)1 << 20)

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

void cuzk_fil_counts_key(const cuzk_fil_counts *c, uint64_t *n_h, uint64_t *n_l,
                         uint64_t *n_a, uint64_t *n_b)
{
    /* bellperson keys (groth16 g16_shape_of): h over the domain less one point, l over
     * aux, a over every input (their input rows) and the aux A uses, b over what B uses */
    *n_h = ((uint64_t)1 << c->log2n) - 1;
    *n_l = c->aux;
    *n_a = c->inputs + c->a_aux;
    *n_b = c->b_inputs + c->b_aux;
}

void cuzk_fil_counts_gpu_shape(const cuzk_fil_counts *c, cuzk_gpu_shape *s)
{
    memset(s, 0, sizeof *s);
    s->log2n = c->log2n;
    s->n_constraints = c->constraints;
    s->n_vars = c->inputs + c->aux;
    s->compact = true; /* every Filecoin kind proves from compact witnesses */
    s->n_bits = c->bits;
    for (int m = 0; m < 3; m++)
        s->nnz[m] = c->nnz[m];
    s->n_coeff_values = c->coeffs;
    s->n_ic = c->inputs;
    cuzk_fil_counts_key(c, &s->n_h, &s->n_l, &s->n_a, &s->n_b_g1);
    s->n_b_g2 = s->n_b_g1;
    s->batch = 1; /* the engine starts one partition at a time */
}

cuzk_status cuzk_fil_memory_get(cuzk_proof_kind kind, uint64_t sector_size,
                                unsigned cpu_threads, cuzk_fil_memory *out, cuzk_error *err)
{
    const cuzk_fil_counts *c = cuzk_fil_counts_get(kind, sector_size);
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "plan: out is NULL");
    memset(out, 0, sizeof *out);
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "plan: no %s circuit of %llu bytes",
                              cuzk_proof_kind_name(kind), (unsigned long long)sector_size);
    uint64_t n_h, n_l, n_a, n_b, n_vars = c->inputs + c->aux;
    cuzk_fil_counts_key(c, &n_h, &n_l, &n_a, &n_b);
    out->key_host = engine_pk_bytes_of(c->inputs, n_h, n_l, n_a, n_b, n_b);
    /* the circuit as fil_load_key (kind_fil_load.c) keeps it: mapped from the cache (indices + table), or
     * as the recorder made it (values); with its witness map */
    out->circuit_host = engine_r1cs_bytes_of(c->constraints, n_vars, c->nnz, false, c->coeffs) +
                        engine_wmap_bytes(n_vars);
    out->circuit_recorded = engine_r1cs_bytes_of(c->constraints, n_vars, c->nnz, true, 0) +
                            engine_wmap_bytes(n_vars);
    out->witness = engine_compact_witness_bytes(n_vars, c->bits);
    out->partition_host_gpu = out->witness + PART_MARGIN;
    /* the CPU backend expands the witness to dense and proves in its own scratch */
    cuzk_groth16_pk sizes;
    memset(&sizes, 0, sizeof sizes);
    sizes.flavour = CUZK_GROTH16_BELLPERSON;
    sizes.log2n = c->log2n;
    sizes.n_h = n_h;
    sizes.n_l = n_l;
    sizes.n_a = n_a;
    sizes.n_b_g1 = sizes.n_b_g2 = n_b;
    out->partition_host_cpu = out->partition_host_gpu + n_vars * sizeof(cuzk_fr) +
                              cuzk_groth16_prove_scratch_size_for(&sizes, cpu_threads);
    cuzk_gpu_shape s;
    cuzk_fil_counts_gpu_shape(c, &s);
    cuzk_prover_gpu_need(&s, 0, &out->device);
    return CUZK_OK;
}

uint64_t cuzk_plan_budget(uint64_t memory, uint64_t margin)
{
    if (!margin)
        margin = 5ull << 30;
    return memory > margin ? memory - margin : memory / 2;
}

uint64_t cuzk_plan_host_memory(void)
{
    /* MemTotal, as the engine reads it for its automatic budget (budget.c) */
    FILE *f = fopen("/proc/meminfo", "r");
    unsigned long long kb = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kb * 1024;
}

/* Partitions of one job: PoRep's interactive variant (V1_1; NI-PoRep has more of the same
 * circuit), SnapDeals' main variant; a PoSt job is one partition. */
static uint32_t job_partitions(cuzk_proof_kind kind, uint64_t size)
{
    if (kind == CUZK_PROOF_POREP_SEAL_COMMIT) {
        static const struct { uint64_t size; const char *name; } names[] = {
            {2048ull, "StackedDrg2KiBV1_1"}, {8ull << 20, "StackedDrg8MiBV1_1"},
            {512ull << 20, "StackedDrg512MiBV1_1"}, {32ull << 30, "StackedDrg32GiBV1_1"},
            {64ull << 30, "StackedDrg64GiBV1_1"}};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            cuzk_porep_info in;
            if (names[i].size == size && cuzk_porep_info_from_name(names[i].name, &in, NULL) ==
                                             CUZK_OK)
                return in.partitions;
        }
        return 1;
    }
    if (kind == CUZK_PROOF_SNAP_DEALS_UPDATE) {
        cuzk_snap_info in;
        return cuzk_snap_info_get(size, CUZK_SNAP_MAIN, &in, NULL) == CUZK_OK ? in.partitions : 1;
    }
    return 1;
}

/* The backend's residency decisions on an empty device of `dev` bytes (cuda_start:
 * circuit_get, then key_get, each resident when it fits next to the working set and what
 * streaming would add; then the working set is admitted), the working set's window cap
 * when the default one does not fit (0: none), and whether it fits at all. */
static bool device_plan(const cuzk_fil_counts *c, const cuzk_gpu_need *nd, uint64_t dev,
                        cuzk_plan *p, unsigned *cap_bits)
{
    uint64_t reserve = nd->working_set + nd->stream_key + nd->headroom;
    p->circuit_streamed = nd->circuit + reserve > dev;
    uint64_t used = (p->circuit_streamed ? nd->circuit_tables : nd->circuit) + nd->map + nd->domain;
    p->key_streamed = used > dev || nd->key + reserve > dev - used;
    uint64_t stream = p->key_streamed      ? nd->stream_key
                      : p->circuit_streamed ? nd->stream_circuit
                                            : 0;
    p->key_device_bytes = p->key_streamed ? 0 : nd->key;
    p->circuit_device_bytes = p->circuit_streamed ? nd->circuit_tables : nd->circuit;
    used += p->key_device_bytes;
    uint64_t ws = nd->working_set + stream;
    *cap_bits = 0;
    if (used + ws + nd->headroom > dev) {
        /* msm_window_cap: the widest cap whose working set fits */
        cuzk_gpu_shape s;
        cuzk_fil_counts_gpu_shape(c, &s);
        for (unsigned bits = 21; bits >= 4; bits--) {
            uint64_t w = nd->working_set - nd->msm_scratch +
                         cuzk_prover_gpu_msm_scratch(&s, bits) + stream;
            if (used + w + nd->headroom <= dev) {
                *cap_bits = bits;
                ws = w;
                break;
            }
        }
    }
    p->partition_device_bytes = ws;
    if (used + ws + nd->headroom > dev) {
        p->device_working_sets = 0;
        return false;
    }
    p->device_working_sets = used + 2 * ws + nd->headroom <= dev ? 2 : 1;
    return true;
}

cuzk_status cuzk_plan_make(cuzk_proof_kind kind, uint64_t sector_size,
                           const cuzk_plan_machine *m, cuzk_plan *out, cuzk_error *err)
{
    if (!m || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "plan: NULL argument");
    memset(out, 0, sizeof *out);
    if (!m->budget && !m->memory)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "plan: neither memory nor a budget");
    if (m->gpu && !m->device_memory)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "plan: a GPU without its memory");
    cuzk_status st = cuzk_fil_memory_get(kind, sector_size, m->cpu_threads, &out->mem, err);
    if (st != CUZK_OK)
        return st;
    out->counts = *cuzk_fil_counts_get(kind, sector_size);
    out->partitions = job_partitions(kind, sector_size);
    out->budget = m->budget ? m->budget : cuzk_plan_budget(m->memory, m->safety_margin);
    /* the GPU prover's pinned staging comes off the budget (engine.c does the same) */
    bool stage_fits = true;
    if (m->gpu) {
        out->stage_host_bytes = cuzk_prover_gpu_stage_for(m->memory ? m->memory : out->budget);
        stage_fits = out->stage_host_bytes <= out->budget / 2;
        if (stage_fits)
            out->budget -= out->stage_host_bytes;
    }
    out->key_host_bytes = out->mem.key_host;
    out->circuit_host_bytes = m->no_csr_cache ? out->mem.circuit_recorded : out->mem.circuit_host;
    out->partition_host_bytes = m->gpu ? out->mem.partition_host_gpu : out->mem.partition_host_cpu;

    /* host: the key and circuit once, then partitions while the budget and the stages
     * (synthesis, the device queue, the device workers, the finalizers) hold them */
    uint64_t fixed = out->key_host_bytes + out->circuit_host_bytes;
    uint64_t need = fixed + out->partition_host_bytes;
    out->host_fits = stage_fits && need <= out->budget;
    unsigned wpd = m->workers_per_device ? m->workers_per_device : 2;
    unsigned stages = (m->synthesis_workers ? m->synthesis_workers : 2) +
                      (m->device_queue_depth ? m->device_queue_depth : wpd) + wpd +
                      (m->finalizers ? m->finalizers : 2);
    if (out->host_fits)
        out->partitions_in_flight = (uint32_t)min64(
            min64(stages, out->partitions), (out->budget - fixed) / out->partition_host_bytes);

    unsigned cap = 0;
    out->device_fits = true;
    if (m->gpu)
        out->device_fits = device_plan(&out->counts, &out->mem.device, m->device_memory, out, &cap);
    out->fits = out->host_fits && out->device_fits;

    char *r = out->reason;
    size_t rc = sizeof out->reason;
    int k = 0;
    if (!stage_fits)
        k = snprintf(r, rc,
                     "the GPU's pinned staging (%.2f GiB) is more than half the memory budget "
                     "(%.2f GiB): the engine does not start (lower CUZK_GPU_STAGE)",
                     out->stage_host_bytes / GIB, out->budget / GIB);
    else if (!out->host_fits)
        k = snprintf(r, rc,
                     "the key (%.2f GiB), its circuit (%.2f GiB) and one partition (%.2f GiB) "
                     "need %.2f GiB of host memory but the memory budget is %.2f GiB: "
                     "%.2f GiB short",
                     out->key_host_bytes / GIB, out->circuit_host_bytes / GIB,
                     out->partition_host_bytes / GIB, need / GIB, out->budget / GIB,
                     (need - out->budget) / GIB);
    else
        k = snprintf(r, rc,
                     "host: key %.2f GiB + circuit %.2f GiB + %u partition(s) x %.2f GiB in a "
                     "%.2f GiB budget%s",
                     out->key_host_bytes / GIB, out->circuit_host_bytes / GIB,
                     out->partitions_in_flight, out->partition_host_bytes / GIB,
                     out->budget / GIB, m->gpu ? " (the GPU's pinned staging taken off)" : "");
    if (!m->gpu || k < 0 || (size_t)k >= rc)
        return CUZK_OK;
    const cuzk_gpu_need *nd = &out->mem.device;
    if (!out->device_fits) {
        uint64_t dn = out->circuit_device_bytes + nd->map + nd->domain +
                      out->partition_device_bytes + nd->headroom;
        snprintf(r + k, rc - (size_t)k,
                 "; device: one working set (%.2f GiB, key and circuit streamed) with %.2f GiB "
                 "of tables and 1 GiB of headroom needs %.2f GiB but the device has %.2f GiB: "
                 "%.2f GiB short",
                 out->partition_device_bytes / GIB,
                 (out->circuit_device_bytes + nd->map + nd->domain) / GIB, dn / GIB,
                 m->device_memory / GIB, (dn - m->device_memory) / GIB);
        return CUZK_OK;
    }
    char capped[48] = "";
    if (cap)
        snprintf(capped, sizeof capped, ", MSM windows capped at %u bits", cap);
    snprintf(r + k, rc - (size_t)k,
             "; device: key %s, circuit %s, %u working set(s) of %.2f GiB at once%s, in "
             "%.2f GiB",
             out->key_streamed ? "streamed" : "resident",
             out->circuit_streamed ? "streamed" : "resident", out->device_working_sets,
             out->partition_device_bytes / GIB, capped, m->device_memory / GIB);
    return CUZK_OK;
}
