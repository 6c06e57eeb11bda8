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

#include "cuzk/plan.h"
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
