#!/usr/bin/env python3
"""mont_x86_gen.py -- writes mont_x86_fp.h and mont_x86_fr.h, the x86-64 ADX Montgomery
multipliers for Fp (6 limbs) and Fr (4 limbs) as GCC inline asm, one header per field.
Development-time only: run `python3 src/ff/mont_x86_gen.py fp > src/ff/mont_x86_fp.h` and
`python3 src/ff/mont_x86_gen.py fr > src/ff/mont_x86_fr.h` after editing; the build never
runs it.

Why a generator: the multiplier is fully unrolled and the accumulator registers rotate by
one limb per round (the limb that reduction zeroes becomes the next round's top limb), so
every round uses different operand names; writing that by hand is error-prone.
"""

import sys

FIELDS = {
    # field: (limbs, modulus, name in the header comment)
    "fp": (6, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab, "Fp"),
    "fr": (4, 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001, "Fr"),
}


def m0inv(m):
    return (-pow(m, -1, 2**64)) % 2**64


def reduce_round(n, A, out):
    """t += q*m with q = t0 * m0inv, so that limb 0 becomes zero (dropped by rotation)."""
    out.append("movq %%[%s], %%%%rdx" % A[0])
    out.append("imulq %[m0inv], %%rdx")
    out.append("xorq %[lo], %[lo]")          # clears CF and OF for the two chains
    for j in range(n):
        out.append("mulxq %d+%%[m], %%[lo], %%[hi]" % (8 * j))
        out.append("adcxq %%[lo], %%[%s]" % A[j])
        out.append("adoxq %%[hi], %%[%s]" % A[j + 1])
    out.append("adcq $0, %%[%s]" % A[n])


def final_sub(n, A, out, scratch5="%[b]"):
    """t < 2m: subtract m into scratch registers and keep the difference unless it borrowed."""
    s = ["%[lo]", "%[hi]", "%%rdx", "%%[%s]" % A[n], "%[a]", scratch5][:n]
    for j in range(n):
        out.append("movq %%[%s], %s" % (A[j], s[j]))
    for j in range(n):
        out.append("%s %d+%%[m], %s" % ("subq" if j == 0 else "sbbq", 8 * j, s[j]))
    for j in range(n):
        out.append("cmovncq %s, %%[%s]" % (s[j], A[j]))


def gen_mul(n, suffix):
    A = ["t%d" % i for i in range(n + 1)]
    out = []
    # round 0: t = a * b[0] (a plain carry chain: nothing to accumulate yet)
    out.append("movq (%[b]), %%rdx")
    out.append("mulxq (%%[a]), %%[%s], %%[%s]" % (A[0], A[1]))
    for j in range(1, n):
        out.append("mulxq %d(%%[a]), %%[lo], %%[%s]" % (8 * j, A[j + 1]))
        out.append("%s %%[lo], %%[%s]" % ("addq" if j == 1 else "adcq", A[j]))
    out.append("adcq $0, %%[%s]" % A[n])
    reduce_round(n, A, out)
    A = A[1:] + A[:1]
    for i in range(1, n):
        # t += a * b[i]: low halves on the CF chain (adcx), high halves on the OF chain (adox)
        out.append("xorq %%[%s], %%[%s]" % (A[n], A[n]))  # top limb was zeroed by reduction
        out.append("movq %d(%%[b]), %%%%rdx" % (8 * i))
        for j in range(n):
            out.append("mulxq %d(%%[a]), %%[lo], %%[hi]" % (8 * j))
            out.append("adcxq %%[lo], %%[%s]" % A[j])
            out.append("adoxq %%[hi], %%[%s]" % A[j + 1])
        out.append("adcq $0, %%[%s]" % A[n])
        reduce_round(n, A, out)
        A = A[1:] + A[:1]
    final_sub(n, A, out)
    return emit(n, "mul" + suffix, out, A, two_inputs=True)


def gen_sqr(n, suffix):
    """a^2 as 2n limbs (cross products once, then doubled with the squares added), then
    Montgomery reduction of the low half and addition of the high half."""
    out = []
    pool = ["t%d" % i for i in range(n + 1)]
    at = {}                      # position -> register holding that limb of the cross sum

    def take(pos):
        at[pos] = pool.pop(0)
        return at[pos]

    def spill(pos):
        out.append("movq %%[%s], %d(%%[tp])" % (at[pos], 8 * pos))
        pool.append(at.pop(pos))

    # phase 1: c = sum_{i<j} a_i a_j 2^(64(i+j)), rows by a_i; limbs that no later row
    # touches are spilled to the buffer
    out.append("movq (%[a]), %%rdx")
    out.append("mulxq 8(%%[a]), %%[%s], %%[%s]" % (take(1), take(2)))
    for j in range(2, n):
        out.append("mulxq %d(%%[a]), %%[lo], %%[%s]" % (8 * j, take(j + 1)))
        out.append("%s %%[lo], %%[%s]" % ("addq" if j == 2 else "adcq", at[j]))
    out.append("adcq $0, %%[%s]" % at[n])
    spill(1)
    spill(2)
    for i in range(1, n - 1):
        top = take(i + n)
        out.append("xorq %%[%s], %%[%s]" % (top, top))
        out.append("movq %d(%%[a]), %%%%rdx" % (8 * i))
        for j in range(i + 1, n):
            out.append("mulxq %d(%%[a]), %%[lo], %%[hi]" % (8 * j))
            out.append("adcxq %%[lo], %%[%s]" % at[i + j])
            out.append("adoxq %%[hi], %%[%s]" % at[i + j + 1])
        out.append("adcq $0, %%[%s]" % top)
        spill(2 * i + 1)
        spill(2 * i + 2)
    assert not at
    # phase 2: T = 2c + sum a_i^2 2^(128 i): doubling on the CF chain, squares on the OF
    # chain; T[0..n-1] stay in registers for the reduction, T[n..2n-1] go to the buffer.
    # (mov never touches flags, so limbs can be loaded and stored mid-chain.)
    A = ["t%d" % i for i in range(n + 1)]
    for i in range(n):
        lo_r = A[2 * i] if 2 * i < n else "t%d" % n
        hi_r = A[2 * i + 1] if 2 * i + 1 < n else "t%d" % n
        out.append("movq %d(%%[a]), %%%%rdx" % (8 * i))
        out.append("mulxq %%rdx, %[lo], %[hi]")
        if i == 0:
            out.append("xorq %%[%s], %%[%s]" % (lo_r, lo_r))   # c_0 = 0; clears CF, OF
        else:
            out.append("movq %d(%%[tp]), %%[%s]" % (16 * i, lo_r))
        out.append("adcxq %%[%s], %%[%s]" % (lo_r, lo_r))
        out.append("adoxq %%[lo], %%[%s]" % lo_r)
        if 2 * i >= n:
            out.append("movq %%[%s], %d(%%[tp])" % (lo_r, 16 * i))
        if i == n - 1:
            out.append("movq $0, %%[%s]" % hi_r)                # c_{2n-1} = 0
        else:
            out.append("movq %d(%%[tp]), %%[%s]" % (16 * i + 8, hi_r))
        out.append("adcxq %%[%s], %%[%s]" % (hi_r, hi_r))
        out.append("adoxq %%[hi], %%[%s]" % hi_r)
        if 2 * i + 1 >= n:
            out.append("movq %%[%s], %d(%%[tp])" % (hi_r, 16 * i + 8))
    # phase 3: n reduction rounds on the low half (top limb starts at zero)
    out.append("xorq %%[%s], %%[%s]" % (A[n], A[n]))
    for i in range(n):
        reduce_round(n, A, out)
        A = A[1:] + A[:1]
    # phase 4: + high half; (T_low + Q m)/R <= m and T_high < m, so the sum is < 2m
    for j in range(n):
        out.append("%s %d(%%[tp]), %%[%s]" % ("addq" if j == 0 else "adcq", 8 * (n + j), A[j]))
    final_sub(n, A, out, scratch5="%[tp]")
    return emit(n, "sqr" + suffix, out, A, two_inputs=False)


def gen_linear(n):
    """add, dbl, sub, neg: short carry chains, results selected with cmov/masks."""
    m = "%[m]"
    fns = []
    t = ["%%[t%d]" % i for i in range(n)]

    def emit_lin(name, args, asm, extra_out, ins, pre):
        s = ["static inline void mont_x86_%s%d(%s)" % (name, n, args), "{"]
        s.append("    uint64_t %s;" % ", ".join("t%d" % i for i in range(n)))
        s += pre
        s.append("    __asm__(")
        s += ['        "%s\\n\\t"' % line for line in asm]
        outs = ", ".join('[t%d] "=&r"(t%d)' % (i, i) for i in range(n))
        s.append("        : %s%s" % (outs, extra_out))
        s.append('        : [m] "m"(*(const uint64_t(*)[%d])mont_x86_m%d)%s' % (n, n, ins))
        s.append('        : "cc", "memory");')
        for j in range(n):
            s.append("    r[%d] = t%d;" % (j, j))
        s.append("}")
        return "\n".join(s)

    def csub(out, scratch):
        # t < 2m: keep t - m unless it borrowed
        for j in range(n):
            out.append("movq %s, %s" % (t[j], scratch[j]))
        for j in range(n):
            out.append("%s %d+%s, %s" % ("subq" if j == 0 else "sbbq", 8 * j, m, scratch[j]))
        for j in range(n):
            out.append("cmovncq %s, %s" % (scratch[j], t[j]))

    scratch = ["%%[s%d]" % i for i in range(n - 2)] + ["%[a]", "%[b]"]
    sdecl = "    uint64_t %s;" % ", ".join("s%d" % i for i in range(n - 2))
    souts = "".join(', [s%d] "=&r"(s%d)' % (i, i) for i in range(n - 2))

    # add: a + b < 2m < 2^(64n) (m has spare top bits), so there is no carry limb
    out = ["movq %d(%%[a]), %s" % (8 * j, t[j]) for j in range(n)]
    out += ["%s %d(%%[b]), %s" % ("addq" if j == 0 else "adcq", 8 * j, t[j]) for j in range(n)]
    csub(out, scratch)
    fns.append(emit_lin("add", "uint64_t *r, const uint64_t *a, const uint64_t *b", out,
                        souts + ', [a] "+r"(pa), [b] "+r"(pb)', "",
                        [sdecl, "    const uint64_t *pa = a, *pb = b;"]))
    # dbl: 2a by a self-add chain
    out = ["movq %d(%%[a]), %s" % (8 * j, t[j]) for j in range(n)]
    out += ["%s %s, %s" % ("addq" if j == 0 else "adcq", t[j], t[j]) for j in range(n)]
    csub(out, scratch)
    fns.append(emit_lin("dbl", "uint64_t *r, const uint64_t *a", out,
                        souts + ', [a] "+r"(pa), [b] "=&r"(pb)', "",
                        [sdecl, "    const uint64_t *pa = a, *pb;"]))
    # sub: a - b, and m added back under the borrow mask (the masked limbs are formed
    # before the add chain because and clears CF)
    out = ["movq %d(%%[a]), %s" % (8 * j, t[j]) for j in range(n)]
    out += ["%s %d(%%[b]), %s" % ("subq" if j == 0 else "sbbq", 8 * j, t[j]) for j in range(n)]
    out.append("sbbq %[k], %[k]")
    for j in range(n):
        out.append("movq %d+%s, %s" % (8 * j, m, scratch[j]))
        out.append("andq %%[k], %s" % scratch[j])
    for j in range(n):
        out.append("%s %s, %s" % ("addq" if j == 0 else "adcq", scratch[j], t[j]))
    fns.append(emit_lin("sub", "uint64_t *r, const uint64_t *a, const uint64_t *b", out,
                        souts + ', [k] "=&r"(k), [a] "+r"(pa), [b] "+r"(pb)', "",
                        [sdecl, "    uint64_t k;", "    const uint64_t *pa = a, *pb = b;"]))
    # neg: (m - a) masked to zero when a = 0
    out = ["movq %d+%s, %s" % (8 * j, m, t[j]) for j in range(n)]
    out += ["%s %d(%%[a]), %s" % ("subq" if j == 0 else "sbbq", 8 * j, t[j]) for j in range(n)]
    out.append("movq (%[a]), %[x]")
    out += ["orq %d(%%[a]), %%[x]" % (8 * j) for j in range(1, n)]
    out.append("negq %[x]")            # CF = (a != 0)
    out.append("sbbq %[k], %[k]")
    out += ["andq %%[k], %s" % t[j] for j in range(n)]
    fns.append(emit_lin("neg", "uint64_t *r, const uint64_t *a", out,
                        ', [k] "=&r"(k), [x] "=&r"(x)', ', [a] "r"(a)',
                        ["    uint64_t k, x;"]))
    return "\n\n".join(fns)


def emit(n, name, asm, A, two_inputs):
    regs = ", ".join("t%d" % i for i in range(n + 1))
    args = "uint64_t *r, const uint64_t *a, const uint64_t *b" if two_inputs else \
        "uint64_t *r, const uint64_t *a"
    s = []
    s.append("static inline void mont_x86_%s(%s)" % (name, args))
    s.append("{")
    s.append("    uint64_t %s, lo, hi, rdx;" % regs)
    if two_inputs:
        s.append("    const uint64_t *pa = a, *pb = b;")
    else:
        s.append("    uint64_t buf[%d];" % (2 * n))
        s.append("    const uint64_t *pa = a;")
        s.append("    uint64_t *tp = buf;")
    s.append("    __asm__(")
    for line in asm:
        s.append('        "%s\\n\\t"' % line)
    outs = ", ".join('[t%d] "=&r"(t%d)' % (i, i) for i in range(n + 1))
    s.append('        : %s,' % outs)
    s.append('          [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx), [a] "+r"(pa), %s' %
             ('[b] "+r"(pb)' if two_inputs else '[tp] "+r"(tp)'))
    s.append('        : [m] "m"(*(const uint64_t(*)[%d])mont_x86_m%d), [m0inv] "m"(mont_x86_m0inv%d)' % (n, n, n))
    s.append('        : "cc", "memory");')
    s.append("    (void)lo;")
    s.append("    (void)hi;")
    s.append("    (void)rdx;")
    for j in range(n):
        s.append("    r[%d] = %s;" % (j, A[j]))
    s.append("}")
    return "\n".join(s)


def limbs(x, n):
    return ", ".join("0x%016xULL" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(n))


def main(field):
    n, m, name = FIELDS[field]
    guard = "CUZK_FF_MONT_X86_%s_H" % field.upper()
    print(HEADER % {"field": field, "name": name, "n": n, "guard": guard})
    print("static const uint64_t mont_x86_m%d[%d] = {%s};" % (n, n, limbs(m, n)))
    print("static const uint64_t mont_x86_m0inv%d = 0x%016xULL;" % (n, m0inv(m)))
    print()
    print(gen_mul(n, str(n)))
    print()
    print(gen_sqr(n, str(n)))
    print()
    print(gen_linear(n))
    print()
    print("#endif /* %s */" % guard)


HEADER = """/*
 * mont_x86_%(field)s.h — x86-64 Montgomery arithmetic for %(name)s (%(n)d limbs) with BMI2 mulx and
 * ADX adcx/adox. GENERATED by src/ff/mont_x86_gen.py; edit that instead.
 *
 * Algorithm: CIOS, fully unrolled. Each round adds a*b[i] (low product halves ride the CF
 * chain, high halves the OF chain, so two carry chains run interleaved without saving
 * flags), then adds q*m with q = t0 * (-m^-1 mod 2^64), which zeroes limb 0; the register
 * holding it becomes the next round's top limb (register rotation instead of moves).
 * m < 2^(64n-1) keeps the accumulator below 2m after every round, so one final
 * subtraction of m, kept with cmovnc unless it borrowed, gives the reduced result —
 * branch-free, constant-time. Inputs must be < m; r may alias a or b (the result is
 * stored after all loads). Bit-identical to mont_mul() in mont.h (both return the unique
 * reduced value). Pure functions; thread-safe.
 */
#ifndef %(guard)s
#define %(guard)s

#include <stdint.h>

/* The modulus and -m^-1 mod 2^64 as private copies so the asm can address them RIP-relative. */"""

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FIELDS:
        sys.exit("usage: mont_x86_gen.py fp|fr > src/ff/mont_x86_<field>.h")
    main(sys.argv[1])
