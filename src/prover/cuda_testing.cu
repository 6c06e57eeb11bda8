/*
 * cuda_testing.cu — the GPU tests' hooks into the CUDA backend's device cache
 * (cuda_testing.h). Every hook takes cache_mu, as the backend does.
 */
#include <string.h>

#include "prover/cuda_resident.h"
#include "prover/cuda_testing.h"

static cuda_prover *impl(cuzk_prover *p) { return (cuda_prover *)p->impl; }

extern "C" void cuzk_prover_cuda_force_stream(cuzk_prover *p, bool srs, bool csr)
{
    cuda_prover *cp = impl(p);
    pthread_mutex_lock(&cp->cache_mu);
    cp->force_stream = srs;
    cp->force_stream_csr = csr;
    pthread_mutex_unlock(&cp->cache_mu);
}

extern "C" bool cuzk_prover_cuda_hold(cuzk_prover *p, const cuzk_groth16_pk *pk,
                                      const cuzk_r1cs *r1cs, cuzk_cuda_hold *h)
{
    cuda_prover *cp = impl(p);
    memset(h, 0, sizeof *h);
    pthread_mutex_lock(&cp->cache_mu);
    dev_key *k = NULL;
    dev_circuit *c = NULL;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        if (cp->keys[i].slot.owner == pk && !cp->keys[i].slot.retired)
            k = &cp->keys[i];
        if (cp->circuits[i].slot.owner == r1cs && !cp->circuits[i].slot.retired)
            c = &cp->circuits[i];
    }
    if (k && c) {
        k->slot.in_use++;
        c->slot.in_use++;
        h->key = k;
        h->circuit = c;
    }
    pthread_mutex_unlock(&cp->cache_mu);
    return k && c;
}

extern "C" void cuzk_prover_cuda_unhold(cuzk_prover *p, cuzk_cuda_hold *h)
{
    cuda_prover *cp = impl(p);
    pthread_mutex_lock(&cp->cache_mu);
    (void)cudaSetDevice(cp->dev);
    if (h->key)
        key_unuse((dev_key *)h->key);
    if (h->circuit)
        circuit_unuse((dev_circuit *)h->circuit);
    pthread_mutex_unlock(&cp->cache_mu);
    memset(h, 0, sizeof *h);
}

extern "C" void cuzk_prover_cuda_slots(cuzk_prover *p, cuzk_cuda_slots *out)
{
    cuda_prover *cp = impl(p);
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&cp->cache_mu);
    for (int i = 0; i < MAX_RESIDENT; i++) {
        if (cp->keys[i].slot.owner) {
            out->keys++;
            out->streamed_keys += cp->keys[i].streamed;
        }
        if (cp->circuits[i].slot.owner) {
            out->circuits++;
            out->streamed_circuits += cp->circuits[i].streamed;
        }
    }
    pthread_mutex_unlock(&cp->cache_mu);
}
