/*
 * outputs.h — how the CLI's writing commands (prove, setup) handle their files: every
 * input and output is declared up front through a cuzk_outfiles set (cuzk/outfiles.h), so
 * an output that would overwrite an input or another output, or that cannot be written,
 * is refused (exit 2) before any work; outputs go to temporaries and are renamed only when
 * all of them are complete. While a set is active, SIGINT, SIGTERM and SIGHUP unlink its
 * temporaries before the process dies of the signal.
 *
 * Threading: main thread only (one active set per process).
 */
#ifndef CUZK_CMD_OUTPUTS_H
#define CUZK_CMD_OUTPUTS_H

#include <stddef.h>

#include "cuzk/outfiles.h"

/* Creates the set, declares the inputs then the outputs (NULL entries are skipped; output
 * k gets index k among the non-NULL ones, in order) and arms the signal cleanup. Returns
 * CUZK_EXIT_OK, or the exit code after printing "cuzk <cmd>: <message>". */
int cli_outputs_begin(const char *cmd, cuzk_outfiles **set, const char *const *inputs,
                      size_t n_inputs, const char *const *outputs, size_t n_outputs);

/* Commits the set (prints and returns the exit code on failure). */
int cli_outputs_commit(const char *cmd, cuzk_outfiles *set);

/* Disarms the signal cleanup and destroys the set (unlinking uncommitted temporaries). */
void cli_outputs_end(cuzk_outfiles *set);

#endif
