/*
 * dev_setup.c — where the engine's development setups run (engine_setup_opts,
 * dev_setup.h): the dev keys of the Filecoin kinds (kind_fil_load.c) and of the
 * synthetic kind (kind_synthetic.c) take their point multiplications to the engine's first
 * in-service GPU through the prover layer's fixed-base hook (cuzk/prover.h), and stay on
 * the CPU pool when the engine has no GPU. Either way the key is byte-identical for a
 * given seed (cuzk/groth16.h), so the choice is only a matter of time: a 32 GiB PoRep key
 * takes seconds of GPU instead of many CPU minutes. The setup's phase times go to the
 * engine's log. The key load's cancel flag (set when the engine stops or when every job
 * that wanted the key is over: srs.c) becomes the setup's, so neither waits for a key
 * nobody will use.
 * Threading: reentrant; each setup opens its own hook (a hook serves one setup).
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/prover.h"
#include "engine/dev_setup.h"
#include "engine/log.h"
#include "engine/state.h"

static void setup_log(void *ctx, const char *msg)
{
    engine_log((const cuzk_engine *)ctx, CUZK_LOG_INFO, "%s", msg);
}

uint64_t engine_setup_hook_host_bytes(const cuzk_engine *e)
{
    /* the device engine_setup_opts would open a hook on */
    for (unsigned i = 0; i < e->n_devs; i++) {
        const edevice *d = &e->devs[i];
        if (d->is_gpu && cuzk_prover_in_service(d->prover, NULL, 0))
            return cuzk_prover_fixed_base_hook_host_bytes(d->prover);
    }
    return 0;
}

void engine_setup_opts(const cuzk_engine *e, const char *what, const volatile int *cancel,
                       cuzk_groth16_setup_opts *opts, cuzk_groth16_fixed_base_hook **hook)
{
    memset(opts, 0, sizeof *opts);
    *hook = NULL;
    opts->cancel = cancel;
    opts->log = setup_log;
    opts->log_ctx = (void *)(uintptr_t)e;
    for (unsigned i = 0; i < e->n_devs; i++) {
        const edevice *d = &e->devs[i];
        if (!d->is_gpu || !cuzk_prover_in_service(d->prover, NULL, 0))
            continue;
        cuzk_error err = {0};
        if (cuzk_prover_fixed_base_hook_open(d->prover, hook, &err) == CUZK_OK) {
            opts->fixed_base = *hook;
            engine_log(e, CUZK_LOG_INFO, "%s: development setup on %s", what, d->name);
            return;
        }
        engine_log(e, CUZK_LOG_WARN, "%s: no GPU setup on %s: %s", what, d->name, err.msg);
    }
    engine_log(e, CUZK_LOG_INFO, "%s: development setup on the CPU (%u threads)", what,
               cuzk_pool_nthreads(e->pool));
}
