/*
 * cuda_setup.cu — the CUDA backend's fixed-base hook (cuzk_prover_fixed_base_hook_open,
 * cuzk/prover.h): a development setup's point multiplications (cuzk/groth16.h,
 * cuzk_groth16_fixed_base_hook) on the prover's device, through the gpu layer's fixed-base
 * context (src/gpu/fixed_base.cu). The groth16 layer knows no GPU; this is where the two
 * meet, like the proving backend itself.
 *
 * Each multiplication runs under the prover's device mutex, as a proof's kernels do, so a
 * setup and proofs on the same device take turns. The context (table, staging, device
 * buffers: ~8 GiB of device memory and ~2 GiB of pinned host memory at the default 2^22-
 * point chunks) is made at the first call, after handing the stream-ordered pool's cached
 * memory back to the driver, and kept until the hook is closed: a setup makes six calls.
 * A sticky CUDA error takes the prover out of service, as a failed proof would. Lock order
 * as in backend_cuda.cu: device_gate, then cache_mu (the pool trim); closing wakes proofs
 * that wait in admission for device memory.
 *
 * Threading: one setup at a time per hook (the setup calls it from its own thread); any
 * number of hooks may be open on one prover.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "prover/cuda_resident.h"
#include "prover/prover_internal.h"

typedef struct cuda_fb_hook {
    cuzk_groth16_fixed_base_hook pub; /* first: the pointer handed out */
    cuda_prover *cp;
    cuzk_gpu_fixed_base *fb;
} cuda_fb_hook;

/* With device_gate held: the context, made on first use. */
static cuzk_status hook_ready(cuda_fb_hook *h, cuzk_error *err)
{
    cuda_prover *cp = h->cp;
    if (__atomic_load_n(&cp->broken, __ATOMIC_ACQUIRE))
        return cuzk_error_set(err, CUZK_ERR_CUDA, "gpu:%d is out of service after: %s",
                              cp->dev, cp->broken_msg);
    if (h->fb)
        return CUZK_OK;
    size_t free_b = 0, total_b = 0;
    pthread_mutex_lock(&cp->cache_mu);
    cuzk_status st = device_free(cp, FREE_TRIM, &free_b, &total_b, err);
    pthread_mutex_unlock(&cp->cache_mu);
    if (st != CUZK_OK)
        return st;
    cuzk_gpu_fixed_base_opts o;
    memset(&o, 0, sizeof o);
    o.pool = cp->owner->pool;
    return cuzk_gpu_fixed_base_create(&h->fb, cp->dev, &o, err);
}

static cuzk_status hook_g1s(void *ctx, cuzk_g1_affine *r, const cuzk_fr *k, size_t n,
                            cuzk_error *err)
{
    cuda_fb_hook *h = (cuda_fb_hook *)ctx;
    prio_gate_acquire(&h->cp->device_gate, 0);
    cuzk_status st = hook_ready(h, err);
    if (st == CUZK_OK)
        st = cuzk_gpu_g1s_fixed_mul(h->fb, r, NULL, k, n, err);
    if (st != CUZK_OK)
        cuda_note_sticky(h->cp, err);
    prio_gate_release(&h->cp->device_gate);
    return st;
}

static cuzk_status hook_g2s(void *ctx, cuzk_g2_affine *r, const cuzk_fr *k, size_t n,
                            cuzk_error *err)
{
    cuda_fb_hook *h = (cuda_fb_hook *)ctx;
    prio_gate_acquire(&h->cp->device_gate, 0);
    cuzk_status st = hook_ready(h, err);
    if (st == CUZK_OK)
        st = cuzk_gpu_g2s_fixed_mul(h->fb, r, NULL, k, n, err);
    if (st != CUZK_OK)
        cuda_note_sticky(h->cp, err);
    prio_gate_release(&h->cp->device_gate);
    return st;
}

extern "C" cuzk_status cuzk_prover_cuda_fixed_base_hook(cuzk_prover *p,
                                                        cuzk_groth16_fixed_base_hook **out,
                                                        cuzk_error *err)
{
    cuda_fb_hook *h = (cuda_fb_hook *)calloc(1, sizeof *h);
    if (!h)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
    h->cp = (cuda_prover *)p->impl;
    h->pub.ctx = h;
    h->pub.g1s = hook_g1s;
    h->pub.g2s = hook_g2s;
    snprintf(h->pub.name, sizeof h->pub.name, "%s", p->desc);
    *out = &h->pub;
    return CUZK_OK;
}

extern "C" void cuzk_prover_cuda_fixed_base_close(cuzk_groth16_fixed_base_hook *hook)
{
    cuda_fb_hook *h = (cuda_fb_hook *)hook;
    cuda_prover *cp = h->cp;
    prio_gate_acquire(&cp->device_gate, 0);
    cuzk_gpu_fixed_base_destroy(h->fb);
    prio_gate_release(&cp->device_gate);
    /* a proof waiting for device memory in admission looks again */
    pthread_mutex_lock(&cp->cache_mu);
    pthread_cond_broadcast(&cp->released);
    pthread_mutex_unlock(&cp->cache_mu);
    free(h);
}
