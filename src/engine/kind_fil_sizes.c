/*
 * kind_fil_sizes.c — what a Filecoin key and partition are charged at admission
 * (kind_fil.h: fil_key_bytes, fil_partition_bytes), taken from the memory plan
 * (plan.c, cuzk/plan.h) so that admission, `cuzk plan` and the loaded key count the same
 * bytes; the key differs by whether the engine maps circuits from a CSR cache, the
 * partition by whether it is proved on a GPU or the CPU.
 * Threading: pure functions of the engine's configuration.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cuzk/groth16.h"
#include "cuzk/plan.h"
#include "engine/dev_setup.h"
#include "engine/devices.h"
#include "engine/kind_fil.h"
#include "engine/state.h"

static cuzk_proof_kind kind_of(fil_circuit c)
{
    static const cuzk_proof_kind k[] = {CUZK_PROOF_POREP_SEAL_COMMIT,
                                        CUZK_PROOF_WINDOW_POST_PARTITION,
                                        CUZK_PROOF_WINNING_POST, CUZK_PROOF_SNAP_DEALS_UPDATE};
    return k[c];
}

const cuzk_fil_counts *fil_counts(fil_circuit c, uint64_t sector_size)
{
    return cuzk_fil_counts_get(kind_of(c), sector_size);
}

uint64_t fil_key_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size)
{
    cuzk_fil_memory mem;
    if (cuzk_fil_memory_get(kind_of(c), sector_size, 1, &mem, NULL) != CUZK_OK)
        return 0;
    return mem.key_host + (e && fil_csr_cached(e) ? mem.circuit_host : mem.circuit_recorded);
}

bool fil_circuit_of(cuzk_proof_kind kind, fil_circuit *c)
{
    for (int i = FIL_POREP; i <= FIL_SNAP; i++)
        if (kind_of((fil_circuit)i) == kind) {
            *c = (fil_circuit)i;
            return true;
        }
    return false;
}

uint64_t fil_partition_bytes_on(const cuzk_engine *e, fil_circuit c, uint64_t sector_size,
                                bool gpu)
{
    cuzk_fil_memory mem;
    unsigned threads = e && e->pool ? (unsigned)cuzk_pool_nthreads(e->pool) : 1;
    if (cuzk_fil_memory_get(kind_of(c), sector_size, threads, &mem, NULL) != CUZK_OK)
        return 0;
    return gpu ? mem.partition_host_gpu : mem.partition_host_cpu;
}

uint64_t fil_partition_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size)
{
    /* without an engine (tests), the larger: the CPU's */
    return fil_partition_bytes_on(e, c, sector_size, e && !engine_has_cpu_device(e));
}

unsigned fil_log2_domain(fil_circuit c, uint64_t sector_size)
{
    const cuzk_fil_counts *n = fil_counts(c, sector_size);
    return n ? n->log2n : 0;
}

bool fil_key_estimate(const cuzk_engine *e, const char *id, uint64_t *bytes)
{
    fil_circuit c;
    uint64_t size;
    if (!fil_parse_id(id, &c, &size))
        return false;
    *bytes = fil_key_bytes(e, c, size); /* points (from the file or a dev setup) + circuit */
    return true;
}

uint64_t fil_key_make_bytes(const cuzk_engine *e, const char *id)
{
    fil_circuit c;
    uint64_t size;
    char path[4096];
    struct stat sb;
    if (!e || !e->cfg.dev_key_dir || !fil_parse_id(id, &c, &size) ||
        fil_key_file(e, id, path, sizeof path))
        return 0; /* an official .params is decoded straight into the key's arrays */
    /* a PARAMS-form dev key is read back, no setup (a stale one made again is not
     * counted: a circuit revision, once) */
    if (fil_dev_key_path(e->cfg.dev_key_dir, id, path, sizeof path) && stat(path, &sb) == 0)
        return 0;
    const cuzk_fil_counts *n = fil_counts(c, size);
    if (!n)
        return 0;
    uint64_t nh, nl, na, nb;
    cuzk_fil_counts_key(n, &nh, &nl, &na, &nb);
    uint64_t mx = nh;
    const uint64_t more[4] = {nl, na, nb, n->inputs};
    for (int i = 0; i < 4; i++)
        mx = more[i] > mx ? more[i] : mx;
    uint64_t hook = engine_setup_hook_host_bytes(e);
    unsigned cpu = hook ? 0 : (e->pool ? (unsigned)cuzk_pool_nthreads(e->pool) : 1);
    return cuzk_groth16_setup_dev_host_bytes(n->log2n, n->inputs + n->aux, mx, cpu) + hook;
}
