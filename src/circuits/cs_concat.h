/*
 * cs_concat.h — one assignment from several witness constraint systems (cs.h, CS_WITNESS)
 * that ran consecutive pieces of one circuit: their inputs, dense aux values and aux bits
 * concatenated in order. Valid because the witness backend numbers nothing across pieces:
 * a piece's variables are its own allocations, in the circuit's order. Used by the
 * parallel witnesses (PoRep segments, PoSt sectors).
 * Threading: the copies run on the pool; the pieces are only read, then released.
 */
#ifndef CUZK_CIRCUITS_CS_CONCAT_H
#define CUZK_CIRCUITS_CS_CONCAT_H

#include "circuits/cs.h"
#include "cuzk/pool.h"

/* The concatenation of cs[0..n): *dense_out = ONE, the inputs, the aux values (dense: all;
 * compact: the unmarked ones), and for compact, *bits_out the marked aux values' bitmap;
 * *n_vars_out / *n_bits_out their counts. The first piece with a failed status is the
 * error (its message in err). Every piece is released (cs_release), on success and error.
 * Errors: that piece's, NOMEM, UNSUPPORTED (2^32 variables). */
cuzk_status cs_concat(cuzk_cs **cs, size_t n, bool compact, cuzk_pool *pool,
                      cuzk_fr **dense_out, uint64_t **bits_out, uint64_t *n_vars_out,
                      uint64_t *n_bits_out, cuzk_error *err);

/* The constraint system of cs[0..n): RECORD pieces of one circuit, piece s made with
 * cs_init_at(cs[s], inputs of pieces < s, aux of pieces < s) (cs[0] may be a plain
 * cs_init RECORD cs: bases 0), so their rows already carry final variable numbers. The
 * result is what one cs running the pieces in order records, row for row and bit for bit
 * (rows concatenated; the bit marks of the witness map shifted into place). A base that
 * does not match the pieces before it is CUZK_ERR_INTERNAL (a wrong count upstream, never
 * a wrong circuit). map as in cuzk_circuit_record (NULL: none). Every piece is released,
 * on success and error. Copies run on the pool, one piece a task, each piece released as
 * soon as it is copied (the pieces and the result together are the peak).
 * Errors: the first failed piece's, NOMEM, UNSUPPORTED (2^32 variables), INTERNAL. */
cuzk_status cs_record_concat(cuzk_cs **cs, size_t n, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err);

#endif
