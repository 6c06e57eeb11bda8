/*
 * cuzk/r1cs.h — rank-1 constraint systems over Fr: a builder that records constraints,
 * the frozen CSR form (the pre-compiled constraint evaluator), witness vectors, the
 * products A·w, B·w, C·w, density bitmaps and a satisfaction check.
 *
 * Model
 *   A constraint system has n_constraints rows; row i states <A_i,w> * <B_i,w> = <C_i,w>.
 *   Variables are numbered in bellperson order:
 *       0                      ONE (the constant 1)
 *       1 .. n_public          public inputs
 *       1+n_public .. n_vars-1 aux (private) variables
 *   so n_vars = 1 + n_public + n_aux. bellperson's "inputs" are variables 0..n_public (ONE
 *   is input 0) and its aux index j is our variable 1 + n_public + j.
 *
 *   Each matrix is stored in CSR form: row i's terms are [row_ptr[i], row_ptr[i+1]) of
 *   col/coeff. Within a row, columns are strictly increasing (duplicates recorded by the
 *   builder are merged by adding their coefficients) and every stored coefficient is
 *   non-zero (terms that are, or merge to, zero are dropped). Coefficients are Montgomery.
 *
 * Coefficients
 *   Term k of matrix m has its coefficient in m[m].coeff[k], or, when the r1cs carries the
 *   distinct-coefficient table (coeff_values non-NULL), in
 *   coeff_values[coeff_index[m][k]]. At least one of the two is present for every matrix
 *   with terms; m[m].coeff may be NULL only when the table is present. A mapped CSR cache
 *   (cuzk/r1cs_cache.h) carries the table alone: a Filecoin circuit has ~1,500 distinct
 *   coefficients, so 32 bytes a term would be ~70 % of its bytes for nothing. Builder-made
 *   constraint systems (cuzk_r1cs_builder_finish, cuzk_r1cs_from_csr, the format readers)
 *   have coeff and no table until cuzk_r1cs_compact trades the one for the other. Read
 *   one coefficient with cuzk_r1cs_coeff; loops over all terms of a matrix test coeff
 *   once and take the direct or the indexed path.
 *
 * Density
 *   density[m] has bit v set iff variable v has a non-zero coefficient in some row of
 *   matrix m. This is exactly bellperson's DensityTracker semantics (a term counts only when
 *   its merged coefficient is non-zero): a_aux_density = A bits [1+n_public, n_vars),
 *   b_input_density = B bits [0, 1+n_public), b_aux_density = B bits [1+n_public, n_vars).
 *   B's density serves both the B-in-G1 and the B-in-G2 MSM. bellperson's A-input density
 *   is "all inputs" because its prover appends the rows input_i * 0 = 0; those rows are not
 *   part of this constraint system (the groth16 layer adds them), so A bits for inputs here
 *   only reflect the recorded constraints.
 *
 * Witness
 *   cuzk_witness is a non-owning view of an assignment to all n_vars variables, value 0
 *   being ONE, in one of two kinds:
 *     DENSE    n_vars Montgomery values;
 *     COMPACT  the variables a circuit always assigns 0 or 1 (its cuzk_witness_map, fixed
 *              per circuit and recorded with it) as a packed bitmap of their values, the
 *              rest as a dense array, both in variable order. A Filecoin PoRep partition's
 *              aux values are ~98.7% bits: ~70 MB instead of ~4.2 GB, and that is what
 *              crosses PCIe to the GPU, which expands it on the device.
 *   Code that reads a witness goes through cuzk_witness_value, cuzk_witness_expand, or
 *   switches on kind. The evaluators (cuzk_r1cs_eval*) read DENSE witnesses; a COMPACT one
 *   is expanded first (the prover backends do that).
 *
 * Ownership
 *   cuzk_r1cs_builder_finish consumes the builder and hands back a cuzk_r1cs that owns all
 *   its arrays; a CSR cache file (cuzk/r1cs_cache.h) gives one whose arrays (the
 *   coefficient table, no m[].coeff) point into a read-only mapping it owns (backing). Release either with cuzk_r1cs_destroy. The struct's fields are public so that
 *   provers (and the GPU upload) can read the arrays, but they are read-only: only the
 *   builder and the file readers (cuzk/formats.h) create a cuzk_r1cs.
 *   Building allocates (checked: CUZK_ERR_NOMEM); eval and check do not. Nothing
 *   modifies a cuzk_r1cs after it is built.
 *
 * Threading
 *   A builder is used by one thread at a time. A frozen cuzk_r1cs is immutable: any number
 *   of threads may eval/check it concurrently. cuzk_r1cs_eval and cuzk_r1cs_eval_check
 *   split rows over the given worker pool (NULL: the calling thread does all rows).
 */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cuzk_r1cs_matrix {
    CUZK_R1CS_A = 0,
    CUZK_R1CS_B = 1,
    CUZK_R1CS_C = 2,
    CUZK_R1CS_MATRICES = 3
} cuzk_r1cs_matrix;

typedef struct cuzk_csr {
    uint64_t nnz;
    uint64_t *row_ptr; /* n_constraints + 1 entries, row_ptr[0] = 0, row_ptr[n] = nnz */
    uint32_t *col;     /* nnz variable indices */
    cuzk_fr *coeff;    /* nnz non-zero coefficients, Montgomery; NULL when the r1cs carries
                          the coefficient table instead (see "Coefficients" above) */
} cuzk_csr;

typedef struct cuzk_r1cs {
    uint64_t n_constraints;
    uint32_t n_vars;   /* 1 + n_public + n_aux */
    uint32_t n_public; /* public inputs, ONE excluded */
    uint32_t n_aux;
    cuzk_csr m[CUZK_R1CS_MATRICES];               /* indexed by cuzk_r1cs_matrix */
    uint64_t *density[CUZK_R1CS_MATRICES];        /* ceil(n_vars/64) words, bit v = var v */
    uint64_t density_count[CUZK_R1CS_MATRICES];   /* popcount of density[m] */
    /* true when the circuit's C is unknown: a .zkey holds only A and B (snarkjs folds C
     * into the key). m[C] is then an empty CSR (every row without terms, density empty),
     * not the circuit's C; eval refuses a C output and the check refuses to run. */
    bool c_absent;
    /* The distinct-coefficient table of cuzk_r1cs_coeff_table when this r1cs carries one
     * (a CSR cache file stores it instead of m[].coeff, cuzk/r1cs_cache.h):
     * coeff_values[n_coeff_values] and, per matrix, coeff_index[m][k] < n_coeff_values for
     * each stored term. NULL when absent (the builder does not make one; call
     * cuzk_r1cs_coeff_table). */
    const cuzk_fr *coeff_values;
    uint32_t n_coeff_values;
    const uint32_t *coeff_index[CUZK_R1CS_MATRICES];
    /* Who owns the arrays. backing_release NULL: every array is malloc'd and owned by this
     * struct. Otherwise they live in memory that backing owns (a read-only file mapping):
     * cuzk_r1cs_destroy calls backing_release(backing) and frees none of them. */
    void *backing;
    void (*backing_release)(void *backing);
} cuzk_r1cs;

void cuzk_r1cs_destroy(cuzk_r1cs *r1cs); /* NULL is a no-op */

/* The coefficient of term k (< m[m].nnz, unchecked) of matrix m, whichever form carries
 * it (the rule under "Coefficients" above). */
static inline const cuzk_fr *cuzk_r1cs_coeff(const cuzk_r1cs *r1cs, cuzk_r1cs_matrix m,
                                             uint64_t k)
{
    const cuzk_fr *c = r1cs->m[m].coeff;
    return c ? &c[k] : &r1cs->coeff_values[r1cs->coeff_index[m][k]];
}

/* Number of variables in [begin, end) set in density[m]; end is clamped to n_vars. */
uint64_t cuzk_r1cs_density_count(const cuzk_r1cs *r1cs, cuzk_r1cs_matrix m, uint32_t begin,
                                 uint32_t end);

static inline bool cuzk_r1cs_density_test(const cuzk_r1cs *r1cs, cuzk_r1cs_matrix m, uint32_t v)
{
    return v < r1cs->n_vars && ((r1cs->density[m][v >> 6] >> (v & 63)) & 1) != 0;
}

/* ---------------------------------------------------------------------------------------
 * Builder (the constraint recorder)
 *
 * Variables are named by kind while recording, because circuits allocate public inputs
 * and aux variables interleaved and the final number of public inputs (which fixes every
 * aux variable's index) is only known at the end. A cuzk_r1cs_var packs the kind in bits
 * 32..33 and the index within its kind in bits 0..31; adding k to a var names the k-th
 * next variable of the same kind.
 * ------------------------------------------------------------------------------------- */
typedef uint64_t cuzk_r1cs_var;
#define CUZK_R1CS_VAR_ONE ((cuzk_r1cs_var)0)
#define CUZK_R1CS_VAR_PUBLIC(i) (((cuzk_r1cs_var)1 << 32) | (uint32_t)(i)) /* i-th public, 0-based */
#define CUZK_R1CS_VAR_AUX(j) (((cuzk_r1cs_var)2 << 32) | (uint32_t)(j))    /* j-th aux, 0-based */

typedef struct cuzk_r1cs_builder cuzk_r1cs_builder;

cuzk_status cuzk_r1cs_builder_create(cuzk_r1cs_builder **out, cuzk_error *err);
/* Frees a builder that was not finished (NULL is a no-op). */
void cuzk_r1cs_builder_destroy(cuzk_r1cs_builder *b);

/* Declares count more public inputs / aux variables; *first (optional) names the first
 * new one. The total of 1 + public + aux must stay below 2^32 (else CUZK_ERR_UNSUPPORTED). */
cuzk_status cuzk_r1cs_builder_alloc_public(cuzk_r1cs_builder *b, uint32_t count,
                                           cuzk_r1cs_var *first, cuzk_error *err);
cuzk_status cuzk_r1cs_builder_alloc_aux(cuzk_r1cs_builder *b, uint32_t count,
                                        cuzk_r1cs_var *first, cuzk_error *err);

/* Starts a new constraint row (all three linear combinations empty). */
cuzk_status cuzk_r1cs_builder_begin_row(cuzk_r1cs_builder *b, cuzk_error *err);

/* Adds coeff * var to matrix m of the current row. var must be allocated
 * (CUZK_ERR_INVALID_ARG otherwise, also without a current row); coeff is Montgomery and
 * reduced. Zero coefficients and repeated variables are allowed (merged at finish). */
cuzk_status cuzk_r1cs_builder_add_term(cuzk_r1cs_builder *b, cuzk_r1cs_matrix m,
                                       cuzk_r1cs_var var, const cuzk_fr *coeff,
                                       cuzk_error *err);

uint64_t cuzk_r1cs_builder_rows(const cuzk_r1cs_builder *b);

/* Freezes to CSR: maps vars to final indices, sorts and merges each row, computes the
 * density bitmaps. Always consumes b (also on failure); *out is set only on success. */
cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, cuzk_r1cs **out, cuzk_error *err);

/* Adopts CSR arrays built elsewhere (malloc'd; ownership passes to the result, or they
 * are freed on failure): m[k].row_ptr has n_constraints + 1 entries. Every invariant above
 * is checked (in parallel on pool) before *out is created, and the density bitmaps are
 * computed. Errors: CUZK_ERR_FORMAT naming the first offending row, NOMEM, INVALID_ARG. */
cuzk_status cuzk_r1cs_from_csr(cuzk_r1cs **out, uint64_t n_constraints, uint32_t n_public,
                               uint32_t n_aux, cuzk_csr m[CUZK_R1CS_MATRICES],
                               cuzk_pool *pool, cuzk_error *err);

/* The distinct coefficients of all three matrices (*values, *n_values of them, ONE
 * first) and, per matrix, an index into them for every stored term (index[m] has
 * r1cs->m[m].nnz entries): the compact coefficient form the GPU keeps resident. Allocates
 * *values and index[0..2] (the caller frees them). Works from m[].coeff or, where that is
 * NULL, from r1cs's own table (then the result is that table, deduplicated, ONE first).
 * Errors: NOMEM, INVALID_ARG (also a matrix with terms and neither form). */
cuzk_status cuzk_r1cs_coeff_table(const cuzk_r1cs *r1cs, cuzk_fr **values, uint32_t *n_values,
                                  uint32_t *index[CUZK_R1CS_MATRICES], cuzk_error *err);

/* Rewrites an owned r1cs (no backing) that carries m[].coeff into the table form a CSR
 * cache file holds (coeff_values / coeff_index set, m[].coeff freed and NULL): 4 bytes a
 * term instead of 32, the same circuit (every reader takes either form). A recorded
 * circuit the cache could not take (a full disk) is kept this way, so it occupies what
 * the memory budget counted for a mapped one (11.4 GiB for a 32 GiB WindowPoSt, not 41.3).
 * A no-op for a mapped r1cs or one already in table form. While it runs the indices are
 * held beside the values (+4 bytes a term). On error (NOMEM) r1cs is unchanged. */
cuzk_status cuzk_r1cs_compact(cuzk_r1cs *r1cs, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Witness
 * ------------------------------------------------------------------------------------- */
typedef enum cuzk_witness_kind {
    CUZK_WITNESS_DENSE = 0,  /* values[v] for every variable v, Montgomery */
    CUZK_WITNESS_COMPACT = 1 /* bits + dense, laid out by a cuzk_witness_map */
} cuzk_witness_kind;

/* Which variables a circuit always assigns 0 or 1. ONE (variable 0) is never marked. */
typedef struct cuzk_witness_map {
    uint32_t n_vars;
    uint32_t n_bits;   /* marked variables */
    uint64_t *is_bit;  /* ceil(n_vars/64) words: bit v set = variable v is a bit */
    uint32_t *rank;    /* ceil(n_vars/64) entries: marked variables before word i */
} cuzk_witness_map;

/* Builds a map from is_bit (ceil(n_vars/64) words, copied; bits >= n_vars and bit 0 must
 * be clear, else CUZK_ERR_INVALID_ARG). Allocates; release with cuzk_witness_map_free. */
cuzk_status cuzk_witness_map_init(cuzk_witness_map *m, const uint64_t *is_bit,
                                  uint32_t n_vars, cuzk_error *err);
void cuzk_witness_map_free(cuzk_witness_map *m); /* NULL or zeroed is a no-op */
/* Marked variables below v (v <= n_vars). */
uint32_t cuzk_witness_map_bits_before(const cuzk_witness_map *m, uint32_t v);

typedef struct cuzk_witness {
    cuzk_witness_kind kind;
    uint32_t n_vars;
    const cuzk_fr *values;       /* DENSE: n_vars values, values[0] = ONE */
    const cuzk_witness_map *map; /* COMPACT: the circuit's map */
    const uint64_t *bits;        /* COMPACT: n_bits bits, the k-th marked variable's value */
    const cuzk_fr *dense;        /* COMPACT: n_vars - n_bits values of the others, dense[0]
                                    = ONE */
} cuzk_witness;

/* A dense view of n_vars caller-owned values (ONE, public inputs, aux). */
cuzk_witness cuzk_witness_dense(const cuzk_fr *values, uint32_t n_vars);
/* A compact view (arrays as described above, caller-owned). */
cuzk_witness cuzk_witness_compact(const cuzk_witness_map *map, const uint64_t *bits,
                                  const cuzk_fr *dense);

/* The value of variable v (v < n_vars, unchecked). */
void cuzk_witness_value(cuzk_fr *r, const cuzk_witness *w, uint32_t v);

/* out[v] = the value of every variable (n_vars elements), in parallel on pool. */
cuzk_status cuzk_witness_expand(cuzk_fr *out, const cuzk_witness *w, cuzk_pool *pool);

/* Splits a dense assignment into compact form under map: bits_out (ceil(n_bits/64) words)
 * and dense_out (n_vars - n_bits values). CUZK_ERR_FORMAT naming the first marked variable
 * whose value is not 0 or 1. */
cuzk_status cuzk_witness_compress(uint64_t *bits_out, cuzk_fr *dense_out,
                                  const cuzk_witness_map *map, const cuzk_fr *values,
                                  cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Evaluation and checking
 * ------------------------------------------------------------------------------------- */

/* a_out[i] = <A_i,w>, b_out[i] = <B_i,w>, c_out[i] = <C_i,w> for every row i (each output
 * n_constraints elements; pass NULL to skip a matrix, e.g. C for snarkjs-style provers).
 * Outputs must not overlap each other or the witness. pool: rows are split over its
 * workers; NULL runs on the calling thread. CUZK_ERR_INVALID_ARG if w->n_vars !=
 * r1cs->n_vars, or c_out is given but r1cs->c_absent. */
cuzk_status cuzk_r1cs_eval(const cuzk_r1cs *r1cs, const cuzk_witness *w, cuzk_fr *a_out,
                           cuzk_fr *b_out, cuzk_fr *c_out, cuzk_pool *pool);

/* The same products (each output optional) and the satisfaction check in one parallel
 * pass: <A_i,w>*<B_i,w> = <C_i,w> for every row. Errors: CUZK_ERR_INVALID_ARG (NULL,
 * w->n_vars != r1cs->n_vars, or r1cs->c_absent: there is no C to check against),
 * CUZK_ERR_FORMAT (w[0] != 1), CUZK_ERR_UNSATISFIED "constraint 7 unsatisfied" naming the
 * lowest failing row, whatever the thread count; if first_failing_row is non-NULL it
 * receives that row (UINT64_MAX when none failed). The message names the row only: the
 * values A.w, B.w, C.w derive from the witness, which is secret. After a failure the
 * outputs are unspecified. Results are bit-identical to cuzk_r1cs_eval's. */
cuzk_status cuzk_r1cs_eval_check(const cuzk_r1cs *r1cs, const cuzk_witness *w,
                                 cuzk_fr *a_out, cuzk_fr *b_out, cuzk_fr *c_out,
                                 uint64_t *first_failing_row, cuzk_pool *pool,
                                 cuzk_error *err);

/* The check alone on the calling thread (cuzk_r1cs_eval_check without outputs or pool),
 * for debugging circuits; the prover uses cuzk_r1cs_eval_check. */
cuzk_status cuzk_r1cs_check(const cuzk_r1cs *r1cs, const cuzk_witness *w,
                            uint64_t *first_failing_row, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_R1CS_H */
