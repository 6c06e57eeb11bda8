/*
 * mont_eo.cuh — PTX string builders for the "even/odd" Montgomery multipliers of fp.cuh
 * (12 limbs) and fr.cuh (8 limbs).
 *
 * Why even/odd: a 32x32 product a_j*b is 64 bits. Written as two separate chains (all the
 * low halves, then all the high halves, as before), ptxas emits IMAD + IMAD.HI and a third
 * instruction per limb to carry between them (IADD3.X). If instead the accumulator is
 * split into two arrays whose 64-bit limb pairs are aligned with the products (x holds
 * the products a_{2k}*b at limbs 2k..2k+1, y holds a_{2k+1}*b, i.e. sits one limb higher),
 * each product adds into one register pair: "madc.lo.cc d, a, b, d; madc.hi.cc d+1, a, b,
 * d+1", one carry chain of 64-bit steps that ptxas can issue as a single wide
 * multiply-add with carry. The value is x + 2^32*y until the very end, where one 12-limb
 * addition merges them.
 *
 * Operands are numbered by the caller's asm statement; every builder below expands to
 * a string literal. A chain stays within one asm statement (the carry flag never
 * crosses statements).
 */
#ifndef CUZK_GPU_MONT_EO_CUH
#define CUZK_GPU_MONT_EO_CUH

#define EO_S_(x) #x
#define EO_S(x) EO_S_(x)
#define EO_OP(x) "%" EO_S(x)

/* (l,h) = a*b, no carries */
#define EO_MUL(l, h, a, b)                                                                \
    "mul.lo.u32 " EO_OP(l) ", " EO_OP(a) ", " EO_OP(b) ";\n\t"                            \
    "mul.hi.u32 " EO_OP(h) ", " EO_OP(a) ", " EO_OP(b) ";\n\t"
/* (l,h) += a*b, starting a chain (no carry in), carry out */
#define EO_MAD(l, h, a, b)                                                                \
    "mad.lo.cc.u32 " EO_OP(l) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(l) ";\n\t"           \
    "madc.hi.cc.u32 " EO_OP(h) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(h) ";\n\t"
/* (l,h) += a*b + carry, carry out */
#define EO_MADC(l, h, a, b)                                                               \
    "madc.lo.cc.u32 " EO_OP(l) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(l) ";\n\t"          \
    "madc.hi.cc.u32 " EO_OP(h) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(h) ";\n\t"
/* (l,h) = a*b + (sl,sh) + carry, carry out: the multiply-add that also shifts */
#define EO_MADC_SH(l, h, a, b, sl, sh)                                                    \
    "madc.lo.cc.u32 " EO_OP(l) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(sl) ";\n\t"         \
    "madc.hi.cc.u32 " EO_OP(h) ", " EO_OP(a) ", " EO_OP(b) ", " EO_OP(sh) ";\n\t"
/* (l,h) = a*b + carry, ending the chain (the bound guarantees no carry out) */
#define EO_MADC_TOP(l, h, a, b)                                                           \
    "madc.lo.cc.u32 " EO_OP(l) ", " EO_OP(a) ", " EO_OP(b) ", 0;\n\t"                     \
    "madc.hi.u32 " EO_OP(h) ", " EO_OP(a) ", " EO_OP(b) ", 0;\n\t"
/* the same with k an immediate (a modulus limb, as a string literal) */
#define EO_MADI(l, h, m, k)                                                               \
    "mad.lo.cc.u32 " EO_OP(l) ", " EO_OP(m) ", " k ", " EO_OP(l) ";\n\t"                  \
    "madc.hi.cc.u32 " EO_OP(h) ", " EO_OP(m) ", " k ", " EO_OP(h) ";\n\t"
#define EO_MADCI(l, h, m, k)                                                              \
    "madc.lo.cc.u32 " EO_OP(l) ", " EO_OP(m) ", " k ", " EO_OP(l) ";\n\t"                 \
    "madc.hi.cc.u32 " EO_OP(h) ", " EO_OP(m) ", " k ", " EO_OP(h) ";\n\t"
#define EO_MADCI_END(l, h, m, k)                                                          \
    "madc.lo.cc.u32 " EO_OP(l) ", " EO_OP(m) ", " k ", " EO_OP(l) ";\n\t"                 \
    "madc.hi.u32 " EO_OP(h) ", " EO_OP(m) ", " k ", " EO_OP(h) ";\n\t"

#endif /* CUZK_GPU_MONT_EO_CUH */
