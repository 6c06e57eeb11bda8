/*
 * devices.c — the engine's devices: opened from cfg.devices at create ("auto", "all",
 * "cpu", "gpu:N", comma-separated), their backends' reports routed to the engine's log,
 * closed at destroy.
 * Threading: open and close run alone (create, destroy); engine_has_cpu_device reads what
 * open fixed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/prover.h"
#include "engine/devices.h"
#include "engine/log.h"
#include "engine/state.h"

/* The backends' reports (a key streamed from host memory, ...) in the engine's log. */
static void prover_log(void *ctx, bool warn, const char *msg)
{
    engine_log((const cuzk_engine *)ctx, warn ? CUZK_LOG_WARN : CUZK_LOG_INFO, "%s", msg);
}

cuzk_status engine_devices_open(cuzk_engine *e, cuzk_error *err)
{
    const char *spec = e->cfg.devices ? e->cfg.devices : "auto";
    char all[1024];
    if (strcmp(spec, "all") == 0) { /* every GPU, else the CPU */
        unsigned g = cuzk_prover_gpu_count();
        size_t k = 0;
        all[0] = 0;
        for (unsigned i = 0; i < g && k + 16 < sizeof all; i++)
            k += (size_t)snprintf(all + k, sizeof all - k, "%sgpu:%u", i ? "," : "", i);
        spec = g ? all : "cpu";
    }
    char *copy = strdup(spec);
    if (!copy)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    unsigned n = 1;
    for (const char *c = copy; *c; c++)
        n += *c == ',';
    if (!(e->devs = calloc(n, sizeof *e->devs))) {
        free(copy);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    cuzk_status st = CUZK_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && st == CUZK_OK;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        edevice *d = &e->devs[e->n_devs];
        if ((st = cuzk_prover_open(&d->prover, tok, e->pool, err)) != CUZK_OK)
            break;
        cuzk_prover_set_log(d->prover, prover_log, e);
        d->ordinal = (int)e->n_devs;
        d->is_gpu = cuzk_prover_kind(d->prover) == CUZK_BACKEND_CUDA;
        snprintf(d->name, sizeof d->name, "%s", cuzk_prover_describe(d->prover));
        e->n_devs++;
        e->devs_in_service++;
    }
    free(copy);
    if (st == CUZK_OK && e->n_devs == 0)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "devices: no device in \"%s\"", spec);
    return st;
}

void engine_devices_close(cuzk_engine *e)
{
    for (unsigned d = 0; d < e->n_devs; d++)
        cuzk_prover_close(e->devs[d].prover);
    free(e->devs);
    e->devs = NULL;
    e->n_devs = 0;
}

bool engine_has_cpu_device(const cuzk_engine *e)
{
    for (unsigned d = 0; d < e->n_devs; d++)
        if (!e->devs[d].is_gpu)
            return true;
    return false;
}
