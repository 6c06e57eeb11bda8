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

/* Whether the current device takes read-only host registrations. */
static bool read_only_ok(void)
{
    int dev = 0, v = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&v, cudaDevAttrHostRegisterReadOnlySupported, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return v != 0;
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
        if (cudaHostRegister((void *)ptr, bytes, cudaHostRegisterDefault) != cudaSuccess) {
            (void)cudaGetLastError();
            /* a read-only mapping (a circuit's CSR cache, mapped PROT_READ) registers only
             * as read-only, where the device supports it: the device only reads it */
            if (!read_only_ok() ||
                cudaHostRegister((void *)ptr, bytes, cudaHostRegisterReadOnly) != cudaSuccess) {
                (void)cudaGetLastError();
                goto out;
            }
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
