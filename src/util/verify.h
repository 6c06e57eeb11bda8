/*
 * verify.h — the CUZK_VERIFY build's invariant checks at layer boundaries (internal to
 * src/; any layer may include it).
 *
 * With -DCUZK_VERIFY=ON, CUZK_VERIFY_CHECK(cond, fmt, ...) prints the file, line, function,
 * the condition and the message to stderr and aborts when cond is false; in other builds it
 * compiles to nothing and cond is never evaluated, so a check may cost as much as it needs
 * (a whole-array scan, an on-curve test per point). Code used only by checks goes in
 * `#if CUZK_VERIFY_ON` blocks.
 *
 * Why abort and not an error status: these are the contracts between layers that the types
 * promise but cannot enforce (a cuzk_fp is reduced below p, the points handed to an MSM or a
 * pairing are on the curve, a routine stays inside the scratch it said it needs). A
 * violation is a bug in the calling code, found by running the tests in this build (CI
 * stage `verify`); bad input data is rejected by the readers with an error in every build.
 *
 * What is checked (tests/unit/test_verify.c shows each one firing):
 *   ff       cuzk_{fp,fr}s_inv_var: every element reduced
 *   ec       cuzk_g{1,2}s_jac_to_affine: coordinates reduced, points on the curve
 *   poly     NTTs (every transform): every element reduced
 *   msm      MSMs and bitmap sums: points reduced and on the curve, Montgomery scalars
 *            reduced (the 0/1 split compares raw limbs); the scratch carving ends inside
 *            the scratch size the routine reported
 *   pairing  Miller loop inputs reduced and on their curves
 *   groth16  verify: public inputs reduced (proof and key points reach the pairing's
 *            checks; the proving key's points reach the MSMs')
 *   r1cs     builder coefficients reduced (an error there, in r1cs/builder.c)
 * Threading: the checks read caller memory only; cuzk_verify_fail may run on any thread.
 */
#ifndef CUZK_UTIL_VERIFY_H
#define CUZK_UTIL_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#ifdef CUZK_VERIFY
#define CUZK_VERIFY_ON 1
#else
#define CUZK_VERIFY_ON 0
#endif

/* Reports a failed check and aborts (src/util/verify.c). */
_Noreturn void cuzk_verify_fail(const char *file, int line, const char *func, const char *cond,
                                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#if CUZK_VERIFY_ON
#define CUZK_VERIFY_CHECK(cond, ...)                                                       \
    do {                                                                                   \
        if (!(cond))                                                                       \
            cuzk_verify_fail(__FILE__, __LINE__, __func__, #cond, __VA_ARGS__);            \
    } while (0)
#else
#define CUZK_VERIFY_CHECK(cond, ...) ((void)0)
#endif

/*
 * Index of the first of count elements of nl little-endian limbs each (contiguous from l)
 * that is not below the modulus m, or SIZE_MAX when all are. Any struct made only of field
 * elements (cuzk_fp2, affine and Jacobian points) is such an array, so
 *   verify_first_unreduced(pts->x.l, n * sizeof *pts / sizeof(cuzk_fp), CUZK_FP_MODULUS, 6)
 * checks every coordinate of n points.
 */
static inline size_t verify_first_unreduced(const uint64_t *l, size_t count, const uint64_t *m,
                                            size_t nl)
{
    for (size_t i = 0; i < count; i++, l += nl) {
        size_t j = nl;
        while (j-- > 0 && l[j] == m[j]) {
        }
        if (j == (size_t)-1 || l[j] > m[j])
            return i;
    }
    return SIZE_MAX;
}

#endif /* CUZK_UTIL_VERIFY_H */
