/*
 * listen_dir.h — the directories of cuzkd's unix socket addresses, made before listening.
 * cuzkd and the `cuzk` client share one default address, Curio's unix:///run/curio/cuzk.sock;
 * /run is a tmpfs, so /run/curio does not exist after a boot until someone makes it. cuzkd
 * makes it (and any missing parent, mode 0755 less the umask); when it cannot (not root, a
 * read-only /run), it stops with a message saying what to do, rather than listening
 * somewhere else: a client looking at the default would not find a socket moved silently.
 * Threading: start-up only.
 */
#ifndef CUZKD_LISTEN_DIR_H
#define CUZKD_LISTEN_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* For each unix:// address in listen (comma-separated), makes its socket's directory.
 * False with a message in why[cap] when one cannot be made. */
bool cuzkd_listen_dirs(const char *listen, char *why, size_t cap);

#endif
