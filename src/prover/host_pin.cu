/*
 * host_pin.cu — the counted host registrations of host_pin.h: a small list of
 * (pointer, bytes, references); a job holds a few entries at a time, so a linear search
 * under the mutex costs nothing next to a registration.
 * Threading: one process-wide mutex around the list and the register/unregister calls.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>

#include "prover/host_pin.h"

typedef struct pin_entry {
    const void *ptr;
    size_t bytes;
    unsigned refs;
} pin_entry;

static pthread_mutex_t pin_mu = PTHREAD_MUTEX_INITIALIZER;
static pin_entry *pins;
static size_t n_pins, cap_pins;

static pin_entry *find(const void *ptr)
{
    for (size_t i = 0; i < n_pins; i++)
        if (pins[i].ptr == ptr)
            return &pins[i];
    return NULL;
}

bool host_pin_take(const void *ptr, size_t bytes)
{
    if (!ptr || !bytes)
        return false;
    bool ok = false;
    pthread_mutex_lock(&pin_mu);
    pin_entry *e = find(ptr);
    if (e) {
        ok = e->bytes >= bytes; /* a longer range over the same start is not ours to pin */
        if (ok)
            e->refs++;
        goto out;
    }
    if (n_pins == cap_pins) {
        size_t cap = cap_pins ? 2 * cap_pins : 16;
        pin_entry *np = (pin_entry *)realloc(pins, cap * sizeof *np);
        if (!np)
            goto out;
        pins = np;
        cap_pins = cap;
    }
    {
        /* pinned by its owner: use it as is (asking first keeps failing calls, which
         * compute-sanitizer reports, out of normal runs) */
        cudaPointerAttributes pa;
        if (cudaPointerGetAttributes(&pa, ptr) == cudaSuccess &&
            pa.type != cudaMemoryTypeUnregistered)
            goto out;
        (void)cudaGetLastError();
        /* A read-only file mapping (a circuit's CSR cache) is refused here, quickly, and
         * copied from pageable memory. It is not registered as read-only: the first GPU
         * run of that (s23, H100 box) hung for over 100 s on an 8 MiB mapping, as file
         * mappings' registrations hang elsewhere (llama.cpp, vLLM), and a stuck driver
         * call under this mutex would stop every upload of the daemon. */
        if (cudaHostRegister((void *)ptr, bytes, cudaHostRegisterDefault) != cudaSuccess) {
            (void)cudaGetLastError();
            goto out;
        }
    }
    pins[n_pins++] = (pin_entry){ptr, bytes, 1};
    ok = true;
out:
    pthread_mutex_unlock(&pin_mu);
    return ok;
}

void host_pin_drop(const void *ptr)
{
    pthread_mutex_lock(&pin_mu);
    pin_entry *e = find(ptr);
    if (e && --e->refs == 0) {
        if (cudaHostUnregister((void *)ptr) != cudaSuccess)
            (void)cudaGetLastError();
        *e = pins[--n_pins];
    }
    pthread_mutex_unlock(&pin_mu);
}
