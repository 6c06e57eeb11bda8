/*
 * state_lock.h — one cuzkd per state directory: an exclusive flock on STATE_DIR/cuzkd.lock,
 * taken before the engine touches the journal and held for the daemon's life.
 * Threading: start-up only (the descriptor then stays open until exit).
 */
#ifndef CUZKD_STATE_LOCK_H
#define CUZKD_STATE_LOCK_H

#include <stdbool.h>
#include <stddef.h>

#define CUZKD_LOCK_NAME "cuzkd.lock"

/* Makes state_dir (mkdir -p, 0700) and locks its cuzkd.lock, writing this process's pid
 * into it (best effort: a full disk leaves it empty, the lock holds all the same); *fd keeps the lock (never closed: the kernel drops it when the process ends,
 * however it ends). False with a message in why[cap] when the directory cannot be made or
 * the file opened, or when another process holds the lock: the message names that
 * process's pid (as it wrote it) and nothing in the directory is changed. */
bool cuzkd_state_lock(const char *state_dir, int *fd, char *why, size_t cap);

#endif
