#!/usr/bin/env python3
"""model_fp_sqr.py SRC_DIR -- checks the device Fp squaring's generated carry chains without a
GPU: it executes the PTX of every row of src/gpu/fp_sqr.cuh (the subset used: add/addc,
mad/madc .lo/.hi, mul, mov, with the carry flag; a carry out of an instruction without
.cc fails) and composes them, as gpu_fp_sqr does, with fp.cuh's first row, reduction and
merge modelled on their contracts. The result must equal a^2 / 2^384 mod p (Python
integers: the independent reference) on edge values and fresh random ones; the GPU tests
check the compiled code the same way on a device (test_gpu_fp).
"""
import os
import random
import re
import sys

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
M32 = (1 << 32) - 1
PINV = (-pow(P, -1, 1 << 32)) % (1 << 32)
PL = [(P >> (32 * i)) & M32 for i in range(12)]


def limbs(v):
    return [(v >> (32 * i)) & M32 for i in range(12)]


def value(l):
    return sum(x << (32 * i) for i, x in enumerate(l))


def parse_rows(text):
    rows = {}
    pat = r"gpu_fp_sqr_row(\d+)_\(uint32_t \*x.*?asm\(\n(.*?)\n\s+: GPU_FP_EO_X"
    for m in re.finditer(pat, text, re.S):
        lines = re.findall(r'"([^"]*?)(?:\\n\\t)?"', m.group(2))
        rows[int(m.group(1))] = [l.strip().rstrip(";") for l in lines]
    if sorted(rows) != list(range(1, 12)):
        sys.exit("fp_sqr.cuh: expected rows 1..11, found %s" % sorted(rows))
    return rows


def execute(lines, regs, inputs):
    """regs: operands %0..%23 (x then y), inputs: %24.. in order; returns regs."""
    cf = 0

    def val(o):
        if o.startswith("%"):
            k = int(o[1:])
            return regs[k] if k < 24 else inputs[k - 24]
        return int(o, 0)

    for line in lines:
        op, args = line.split(None, 1)
        a = [t.strip() for t in args.split(",")]
        d = int(a[0][1:])
        if d >= 24:
            raise AssertionError("writes an input: " + line)
        if op == "mov.u32":
            regs[d] = val(a[1])
            continue
        carry_in = cf if op.startswith(("addc", "madc")) else 0
        if op.startswith("add"):
            s = val(a[1]) + val(a[2]) + carry_in
        elif op.startswith("mad"):
            pr = val(a[1]) * val(a[2])
            s = (pr & M32 if ".lo" in op else pr >> 32) + val(a[3]) + carry_in
        else:
            raise AssertionError("unmodelled instruction: " + line)
        regs[d] = s & M32
        if ".cc" in op:
            cf = s >> 32
        elif s >> 32:
            raise AssertionError("carry lost by " + line)
    return regs


def first(a_vec, b):
    """fp.cuh gpu_fp_eo_first_: x = a_even * b, y = a_odd * b"""
    x = sum((a_vec[2 * k] * b) << (64 * k) for k in range(6))
    y = sum((a_vec[2 * k + 1] * b) << (64 * k) for k in range(6))
    return limbs(x), limbs(y)


def reduce(x, y):
    """fp.cuh gpu_fp_eo_reduce_: t += m p, m = x_0 * pinv; y must not carry out"""
    m = (x[0] * PINV) & M32
    Y = value(y) + sum((PL[2 * k + 1] * m) << (64 * k) for k in range(6))
    X = value(x) + sum((PL[2 * k] * m) << (64 * k) for k in range(6))
    Y += (X >> 384) << (32 * 11)
    if Y >> 384:
        raise AssertionError("y carries out of 12 limbs")
    x, y = limbs(X), limbs(Y)
    assert x[0] == 0
    return x, y


def square(rows, a_int):
    a = limbs(a_int)
    d = [((a[k] << 1) & M32) | (a[k - 1] >> 31 if k else 0) for k in range(12)]

    def vec(j):  # gpu_fp_sqr_vec_
        w = [0] * 12
        w[j] = a[j]
        if j + 1 < 12:
            w[j + 1] = (a[j + 1] << 1) & M32
        for r in range(j + 2, 12):
            w[r] = d[r]
        return w

    u, v = first(vec(0), a[0])
    u, v = reduce(u, v)
    for j in range(1, 12):
        w = vec(j)
        if j % 2:  # row(u, v): the new limb-0 part lands in v
            regs = execute(rows[j], u + v, w[j:] + [a[j]])
            u, v = regs[:12], regs[12:]
            v, u = reduce(v, u)
        else:
            regs = execute(rows[j], v + u, w[j:] + [a[j]])
            v, u = regs[:12], regs[12:]
            u, v = reduce(u, v)
    r = value(u) + (value(v) >> 32)  # gpu_fp_eo_merge_
    if r >= 2 * P:
        raise AssertionError("merge result not below 2p")
    return r - P if r >= P else r


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
    rows = parse_rows(open(os.path.join(src, "src/gpu/fp_sqr.cuh")).read())
    seed = int(os.environ.get("CUZK_TEST_SEED", "0"), 0) or random.SystemRandom().getrandbits(63)
    print("model_fp_sqr: CUZK_TEST_SEED=%#x (set it to replay)" % seed)
    rng = random.Random(seed)
    rinv = pow(1 << 384, -1, P)
    cases = [0, 1, 2, 3, P - 1, P - 2, (P - 1) // 2, (P + 1) // 2, 1 << 31, 1 << 32, 1 << 63,
             (1 << 380) + 1, (1 << 381) % P, ((1 << 384) - 1) % P, ((1 << 32) - 1)]
    cases += [value([M32] * k + [0] * (12 - k)) % P for k in range(1, 13)]
    cases += [rng.randrange(P) for _ in range(3000)]
    cases += [rng.randrange(P) | 0x80000000808080808080808080808080 for _ in range(200)]
    for c in cases:
        c %= P
        got = square(rows, c)
        want = c * c * rinv % P
        if got != want:
            sys.exit("FAIL: a = %#x: got %#x, want %#x" % (c, got, want))
    print("model_fp_sqr: %d squarings match" % len(cases))


main()
