/*
 * fake_engine.h — a stand-in for the engine (cuzk/engine.h) in the server tests, so the
 * transport and service are tested on their own: jobs take a known time, fail or succeed
 * on request, and their "proof" carries a checksum of the input bytes so a test can tell
 * that a large message arrived intact.
 *
 * Behaviour (the fake's contract with the tests)
 *   SYNTHETIC: runs synthetic.seed milliseconds (queued for the first fifth); log2n 3
 *     makes it FAIL with "injected failure", log2n 4 with "injected failure: " and 'é's
 *     cut at 255 bytes in the middle of one (as a fixed engine buffer cuts); log2n 5 and
 *     6 are refused at submit as a full disk (CUZK_ERR_IO) and a tampered input
 *     (CUZK_ERR_INVALID_PROOF) are by the real engine; the proof is partitions x 192 bytes, byte i
 *     = (i + partitions) & 0xff.
 *   GROTH16: needs wtns bytes or wtns_path; completes at once; the proof is 192 bytes
 *     whose first 8 are the FNV-1a 64 of the wtns bytes (little-endian), then its length.
 *   Filecoin kinds: CUZK_ERR_UNSUPPORTED. Other kinds: CUZK_ERR_INVALID_ARG.
 *   Keys: "synthetic-<n>" exist (1 MiB x n), and "zkey:/<path>" (1 MiB: the fake opens no
 *   file); anything else is NOT_FOUND.
 * Thread-safe (one mutex + condition variable); no threads of its own.
 */
#ifndef CUZK_FAKE_ENGINE_H
#define CUZK_FAKE_ENGINE_H

#include <stdint.h>

#include "cuzk/engine.h"

cuzk_engine *fake_engine_create(void);
void fake_engine_destroy(cuzk_engine *e);
unsigned fake_engine_jobs(cuzk_engine *e);        /* submitted, duplicates excluded */
unsigned fake_engine_waiters(cuzk_engine *e);     /* threads inside cuzk_engine_await */
uint64_t fake_fnv1a(const uint8_t *p, size_t n);
/* The wtns_path of the last GROTH16 job submitted ("" for bytes). */
void fake_engine_last_wtns_path(cuzk_engine *e, char *out, size_t n);
/* The first bytes (up to 63, as a string) of the last GROTH16 witness, read through the
 * descriptor the server handed over ("" when none was). */
void fake_engine_last_wtns_head(cuzk_engine *e, char *out, size_t n);
/* The same for the key file of the last PreloadSRS "zkey:<path>" ("" when no descriptor). */
void fake_engine_last_key_head(cuzk_engine *e, char *out, size_t n);

#endif
