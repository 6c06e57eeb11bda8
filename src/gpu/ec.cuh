/*
 * ec.cuh — G1 (over Fp) and G2 (over Fp2) points on the device, with the host's bytes:
 *   affine (x, y), infinity = (0, 0)          == cuzk_g{1,2}_affine
 *   Jacobian (X, Y, Z), x = X/Z^2, y = Y/Z^3   == cuzk_g{1,2}_jac   (Z = 0: infinity)
 *   XYZZ (X, Y, ZZ, ZZZ), x = X/ZZ, y = Y/ZZZ  == cuzk_g{1,2}_xyzz  (ZZ = 0: infinity)
 * The point code is written once as templates over the coordinate field F (gpu_fp or
 * gpu_fp2; DESIGN.md §3 allows templates for exactly this), using the gf_* overloads below.
 *
 * Formulas (a = 0 curves; explicit-formulas database, "xyzz" coordinates):
 *   mixed add XYZZ + affine   madd-2008-s   8M + 2S
 *   add XYZZ + XYZZ           add-2008-s   12M + 2S
 *   doubling                  dbl-2008-s-1  6M + 3S
 * The additions detect P == Q (falls back to doubling) and P == -Q (infinity), so they are
 * complete for MSM buckets, where a bucket may meet its own point again.
 * Threading: pure per-thread functions on registers.
 */
#ifndef CUZK_GPU_EC_CUH
#define CUZK_GPU_EC_CUH

#include "gpu/fp2.cuh"

/* ---- field overloads the templates use --------------------------------------------- */
static __device__ __forceinline__ gpu_fp gf_add(gpu_fp a, gpu_fp b) { return gpu_fp_add(a, b); }
static __device__ __forceinline__ gpu_fp gf_sub(gpu_fp a, gpu_fp b) { return gpu_fp_sub(a, b); }
static __device__ __forceinline__ gpu_fp gf_dbl(gpu_fp a) { return gpu_fp_dbl(a); }
static __device__ __forceinline__ gpu_fp gf_neg(gpu_fp a) { return gpu_fp_neg(a); }
static __device__ __forceinline__ gpu_fp gf_mul(gpu_fp a, gpu_fp b) { return gpu_fp_mul(a, b); }
static __device__ __forceinline__ gpu_fp gf_sqr(gpu_fp a) { return gpu_fp_sqr(a); }
static __device__ __forceinline__ bool gf_is_zero(gpu_fp a) { return gpu_fp_is_zero(a); }
static __device__ __forceinline__ void gf_set_zero(gpu_fp *a) { *a = gpu_fp_zero(); }
static __device__ __forceinline__ void gf_set_one(gpu_fp *a) { *a = gpu_fp_one(); }

static __device__ __forceinline__ gpu_fp2 gf_add(gpu_fp2 a, gpu_fp2 b) { return gpu_fp2_add(a, b); }
static __device__ __forceinline__ gpu_fp2 gf_sub(gpu_fp2 a, gpu_fp2 b) { return gpu_fp2_sub(a, b); }
static __device__ __forceinline__ gpu_fp2 gf_dbl(gpu_fp2 a) { return gpu_fp2_dbl(a); }
static __device__ __forceinline__ gpu_fp2 gf_neg(gpu_fp2 a) { return gpu_fp2_neg(a); }
static __device__ __forceinline__ gpu_fp2 gf_mul(gpu_fp2 a, gpu_fp2 b) { return gpu_fp2_mul(a, b); }
static __device__ __forceinline__ gpu_fp2 gf_sqr(gpu_fp2 a) { return gpu_fp2_sqr(a); }
static __device__ __forceinline__ bool gf_is_zero(gpu_fp2 a) { return gpu_fp2_is_zero(a); }
static __device__ __forceinline__ void gf_set_zero(gpu_fp2 *a) { *a = gpu_fp2_zero(); }
static __device__ __forceinline__ void gf_set_one(gpu_fp2 *a) { *a = gpu_fp2_one(); }

/* ---- point types -------------------------------------------------------------------- */
template <class F> struct gpu_aff { F x, y; };
template <class F> struct gpu_jac { F x, y, z; };
template <class F> struct gpu_xyzz { F x, y, zz, zzz; };

typedef gpu_aff<gpu_fp> gpu_g1_aff;
typedef gpu_jac<gpu_fp> gpu_g1_jac;
typedef gpu_xyzz<gpu_fp> gpu_g1_xyzz;
typedef gpu_aff<gpu_fp2> gpu_g2_aff;
typedef gpu_jac<gpu_fp2> gpu_g2_jac;
typedef gpu_xyzz<gpu_fp2> gpu_g2_xyzz;

template <class F> static __device__ __forceinline__ bool gpu_aff_is_inf(const gpu_aff<F> &a)
{
    return gf_is_zero(a.x) && gf_is_zero(a.y);
}

template <class F> static __device__ __forceinline__ gpu_aff<F> gpu_aff_neg(const gpu_aff<F> &a)
{
    gpu_aff<F> r = {a.x, gf_neg(a.y)};
    return r;
}

template <class F> static __device__ __forceinline__ void gpu_xyzz_set_inf(gpu_xyzz<F> *p)
{
    gf_set_zero(&p->x);
    gf_set_zero(&p->y);
    gf_set_zero(&p->zz);
    gf_set_zero(&p->zzz);
}

template <class F> static __device__ __forceinline__ bool gpu_xyzz_is_inf(const gpu_xyzz<F> &p)
{
    return gf_is_zero(p.zz);
}

template <class F>
static __device__ __forceinline__ gpu_xyzz<F> gpu_xyzz_from_aff(const gpu_aff<F> &a)
{
    gpu_xyzz<F> r;
    if (gpu_aff_is_inf(a)) {
        gpu_xyzz_set_inf(&r);
    } else {
        r.x = a.x;
        r.y = a.y;
        gf_set_one(&r.zz);
        gf_set_one(&r.zzz);
    }
    return r;
}

template <class F> static __device__ __forceinline__ gpu_xyzz<F> gpu_xyzz_neg(const gpu_xyzz<F> &p)
{
    gpu_xyzz<F> r = p;
    r.y = gf_neg(p.y);
    return r;
}

/* dbl-2008-s-1: U = 2Y, V = U^2, W = U V, S = X V, M = 3 X^2,
 * X3 = M^2 - 2S, Y3 = M (S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ.
 * Infinity maps to infinity (ZZ3 = 0); so does a 2-torsion point (Y = 0). */
template <class F> static __device__ __noinline__ gpu_xyzz<F> gpu_xyzz_dbl(const gpu_xyzz<F> &p)
{
    F u = gf_dbl(p.y);
    F v = gf_sqr(u);
    F w = gf_mul(u, v);
    F s = gf_mul(p.x, v);
    F x2 = gf_sqr(p.x);
    F m = gf_add(gf_dbl(x2), x2);
    gpu_xyzz<F> r;
    r.x = gf_sub(gf_sqr(m), gf_dbl(s));
    r.y = gf_sub(gf_mul(m, gf_sub(s, r.x)), gf_mul(w, p.y));
    r.zz = gf_mul(v, p.zz);
    r.zzz = gf_mul(w, p.zzz);
    return r;
}

/* madd-2008-s: U2 = x2 ZZ1, S2 = y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2, PPP = P PP,
 * Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - Y1 PPP, ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP. */
template <class F>
static __device__ __forceinline__ gpu_xyzz<F> gpu_xyzz_add_aff(const gpu_xyzz<F> &p,
                                                               const gpu_aff<F> &a)
{
    if (gpu_aff_is_inf(a))
        return p;
    if (gpu_xyzz_is_inf(p))
        return gpu_xyzz_from_aff(a);
    F u2 = gf_mul(a.x, p.zz);
    F s2 = gf_mul(a.y, p.zzz);
    F pd = gf_sub(u2, p.x);
    F rd = gf_sub(s2, p.y);
    if (gf_is_zero(pd)) {
        if (gf_is_zero(rd))
            return gpu_xyzz_dbl(gpu_xyzz_from_aff(a));
        gpu_xyzz<F> inf;
        gpu_xyzz_set_inf(&inf);
        return inf;
    }
    F pp = gf_sqr(pd);
    F ppp = gf_mul(pd, pp);
    F q = gf_mul(p.x, pp);
    gpu_xyzz<F> r;
    r.x = gf_sub(gf_sub(gf_sqr(rd), ppp), gf_dbl(q));
    r.y = gf_sub(gf_mul(rd, gf_sub(q, r.x)), gf_mul(p.y, ppp));
    r.zz = gf_mul(p.zz, pp);
    r.zzz = gf_mul(p.zzz, ppp);
    return r;
}

/* add-2008-s: U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1,
 * R = S2 - S1, PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q,
 * Y3 = R (Q - X3) - S1 PPP, ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP. */
template <class F>
static __device__ __noinline__ gpu_xyzz<F> gpu_xyzz_add(const gpu_xyzz<F> &p,
                                                        const gpu_xyzz<F> &q2)
{
    if (gpu_xyzz_is_inf(q2))
        return p;
    if (gpu_xyzz_is_inf(p))
        return q2;
    F u1 = gf_mul(p.x, q2.zz);
    F u2 = gf_mul(q2.x, p.zz);
    F s1 = gf_mul(p.y, q2.zzz);
    F s2 = gf_mul(q2.y, p.zzz);
    F pd = gf_sub(u2, u1);
    F rd = gf_sub(s2, s1);
    if (gf_is_zero(pd)) {
        if (gf_is_zero(rd))
            return gpu_xyzz_dbl(p);
        gpu_xyzz<F> inf;
        gpu_xyzz_set_inf(&inf);
        return inf;
    }
    F pp = gf_sqr(pd);
    F ppp = gf_mul(pd, pp);
    F q = gf_mul(u1, pp);
    gpu_xyzz<F> r;
    r.x = gf_sub(gf_sub(gf_sqr(rd), ppp), gf_dbl(q));
    r.y = gf_sub(gf_mul(rd, gf_sub(q, r.x)), gf_mul(s1, ppp));
    r.zz = gf_mul(gf_mul(p.zz, q2.zz), pp);
    r.zzz = gf_mul(gf_mul(p.zzz, q2.zzz), ppp);
    return r;
}

/* Jacobian with Z = ZZZ: X = X ZZ^2 and Y = Y ZZZ^2 (uses ZZ^3 = ZZZ^2). Infinity (ZZ = 0)
 * gives Z = 0. */
template <class F>
static __device__ __forceinline__ gpu_jac<F> gpu_xyzz_to_jac(const gpu_xyzz<F> &p)
{
    gpu_jac<F> r;
    r.x = gf_mul(p.x, gf_sqr(p.zz));
    r.y = gf_mul(p.y, gf_sqr(p.zzz));
    r.z = p.zzz;
    return r;
}

#endif /* CUZK_GPU_EC_CUH */
