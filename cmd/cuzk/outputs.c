/*
 * outputs.c — the CLI side of all-or-nothing outputs (see outputs.h): declaring a
 * command's files and removing its temporaries when a signal ends the process.
 *
 * The handler only calls async-signal-safe functions (unlink through
 * cuzk_outfiles_unlink_temps, signal, raise) and then lets the signal kill the process as
 * it would have, so the exit status still says which signal it was.
 * Threading: main thread; the handler may run on any thread, it reads one pointer.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "outputs.h"
#include "progress.h"

static cuzk_outfiles *volatile g_active;
static const int k_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIGNALS (sizeof k_signals / sizeof k_signals[0])
static struct sigaction g_old[NSIGNALS];

static void on_signal(int sig)
{
    cuzk_outfiles_unlink_temps(g_active);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void arm(cuzk_outfiles *set)
{
    g_active = set;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSIGNALS; i++)
        sigaction(k_signals[i], &sa, &g_old[i]);
}

static void disarm(void)
{
    for (size_t i = 0; i < NSIGNALS; i++)
        sigaction(k_signals[i], &g_old[i], NULL);
    g_active = NULL;
}

int cli_outputs_begin(const char *cmd, cuzk_outfiles **set, const char *const *inputs,
                      size_t n_inputs, const char *const *outputs, size_t n_outputs)
{
    cuzk_error e;
    cuzk_status st = cuzk_outfiles_create(set, &e);
    for (size_t i = 0; st == CUZK_OK && i < n_inputs; i++)
        if (inputs[i])
            st = cuzk_outfiles_add_input(*set, inputs[i], &e);
    for (size_t i = 0; st == CUZK_OK && i < n_outputs; i++)
        if (outputs[i])
            st = cuzk_outfiles_add(*set, outputs[i], NULL, &e);
    if (st != CUZK_OK) {
        cuzk_outfiles_destroy(*set);
        *set = NULL;
        return cli_fail(cmd, "", st, &e);
    }
    arm(*set);
    return CUZK_EXIT_OK;
}

int cli_outputs_commit(const char *cmd, cuzk_outfiles *set)
{
    cuzk_error e;
    cuzk_status st = cuzk_outfiles_commit(set, &e);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail(cmd, "", st, &e);
}

void cli_outputs_end(cuzk_outfiles *set)
{
    if (g_active == set)
        disarm();
    cuzk_outfiles_destroy(set);
}
