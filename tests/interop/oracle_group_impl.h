/*
 * oracle_group_impl.h — G1/G2 oracle checks, instantiated by oracle_g1.c and oracle_g2.c.
 *
 * The includer defines:
 *   GRP                 "g1" / "g2" (the op prefix in the vector file)
 *   G(name)             cuzk_g1_##name (types and functions)
 *   GS(name)            cuzk_g1s_##name (batch functions)
 *   ORACLE_GROUP_ENTRY  the area function (oracle_g1)
 *   COORD, COORD_BYTES  coordinate type and its canonical byte length (48 or 96)
 *   coord_parse, coord_hex   oracle_fp_parse/oracle_fp_hex or the Fp2 pair
 *   COMP_BYTES, UNCOMP_BYTES zcash encoding lengths
 *
 * Every result is computed through each cuzk entry point that must agree with noble:
 * Jacobian and XYZZ arithmetic, constant-time and variable-time scalar multiplication,
 * single and batch affine conversion, the specific and the generic zcash decoders.
 * Threading: single-threaded (checker only).
 */
#include <stdio.h>
#include <string.h>

#define PT_HEX ORACLE_HEX(2 * COORD_BYTES)

static bool pt_parse(G(affine) *p, const oracle_line *ln, const char *hex)
{
    char half[ORACLE_HEX(COORD_BYTES)];
    if (strlen(hex) != 4 * COORD_BYTES) {
        oracle_bad_vector(ln, "point has the wrong number of hex digits");
        return false;
    }
    memcpy(half, hex, 2 * COORD_BYTES);
    half[2 * COORD_BYTES] = 0;
    if (!coord_parse(&p->x, ln, half))
        return false;
    return coord_parse(&p->y, ln, hex + 2 * COORD_BYTES);
}

static void pt_hex(char *out, const G(affine) *p)
{
    coord_hex(out, &p->x);
    coord_hex(out + 2 * COORD_BYTES, &p->y);
}

static bool expect_pt(const oracle_line *ln, const char *what, const G(affine) *p,
                      const char *want)
{
    char h[PT_HEX];
    pt_hex(h, p);
    return oracle_expect(ln, what, h, want);
}

static bool expect_jac(const oracle_line *ln, const char *what, const G(jac) *p,
                       const char *want)
{
    G(affine) a;
    G(jac_to_affine)(&a, p);
    return expect_pt(ln, what, &a, want);
}

static bool expect_xyzz(const oracle_line *ln, const char *what, const G(xyzz) *p,
                        const char *want)
{
    G(jac) j;
    G(xyzz_to_jac)(&j, p);
    return expect_jac(ln, what, &j, want);
}

static void grp_add(const oracle_line *ln, bool unused)
{
    G(affine) p, q, nq;
    G(jac) jp, jq, jr;
    G(xyzz) xp, xq, xr;
    if (ln->n != 4 || !pt_parse(&p, ln, ln->f[1]) || !pt_parse(&q, ln, ln->f[2]))
        return;
    G(jac_from_affine)(&jp, &p);
    G(jac_from_affine)(&jq, &q);
    G(jac_add)(&jr, &jp, &jq);
    expect_jac(ln, "jac_add", &jr, ln->f[3]);
    jr = jp;
    G(jac_add)(&jr, &jr, &jq);
    expect_jac(ln, "jac_add in place", &jr, ln->f[3]);

    /* The mixed and XYZZ forms promise no more than the generic case (P, Q finite and
     * P != +-Q); the complete jac_add above covers the exceptional ones. */
    G(affine_neg)(&nq, &q);
    if (G(affine_is_infinity)(&p) || G(affine_is_infinity)(&q) || G(affine_eq)(&p, &q) ||
        G(affine_eq)(&p, &nq))
        return;
    G(jac_add_affine)(&jr, &jp, &q);
    expect_jac(ln, "jac_add_affine", &jr, ln->f[3]);
    G(xyzz_from_affine)(&xp, &p);
    G(xyzz_from_affine)(&xq, &q);
    G(xyzz_add)(&xr, &xp, &xq);
    expect_xyzz(ln, "xyzz_add", &xr, ln->f[3]);
    G(xyzz_add_affine)(&xr, &xp, &q);
    expect_xyzz(ln, "xyzz_add_affine", &xr, ln->f[3]);
}

static void grp_dbl(const oracle_line *ln, bool unused)
{
    G(affine) p;
    G(jac) jp, jr;
    G(xyzz) xp, xr;
    if (ln->n != 3 || !pt_parse(&p, ln, ln->f[1]))
        return;
    G(jac_from_affine)(&jp, &p);
    G(jac_dbl)(&jr, &jp);
    expect_jac(ln, "jac_dbl", &jr, ln->f[2]);
    G(jac_dbl)(&jp, &jp);
    expect_jac(ln, "jac_dbl in place", &jp, ln->f[2]);
    G(xyzz_from_affine)(&xp, &p);
    G(xyzz_dbl)(&xr, &xp);
    expect_xyzz(ln, "xyzz_dbl", &xr, ln->f[2]);
}

static void grp_mul(const oracle_line *ln, bool unused)
{
    G(affine) p, out[3];
    G(jac) jp, r[3];
    COORD scratch[3];
    cuzk_fr k;
    uint64_t limbs[CUZK_FR_LIMBS];
    if (ln->n != 4 || !pt_parse(&p, ln, ln->f[1]) || !oracle_fr_parse(&k, ln, ln->f[2]))
        return;
    G(jac_from_affine)(&jp, &p);
    G(jac_mul)(&r[0], &jp, &k);
    expect_jac(ln, "jac_mul (constant-time)", &r[0], ln->f[3]);
    G(jac_mul_var)(&r[1], &jp, &k);
    expect_jac(ln, "jac_mul_var", &r[1], ln->f[3]);
    cuzk_fr_to_canonical(limbs, &k);
    G(jac_mul_u64s_var)(&r[2], &jp, limbs, CUZK_FR_LIMBS);
    expect_jac(ln, "jac_mul_u64s_var", &r[2], ln->f[3]);
    GS(jac_to_affine)(out, r, 3, scratch);
    for (int i = 0; i < 3; i++)
        expect_pt(ln, "batch jac_to_affine of the three products", &out[i], ln->f[3]);
}

static void grp_to_bytes(const oracle_line *ln, bool compressed)
{
    G(affine) p;
    uint8_t buf[UNCOMP_BYTES];
    char h[ORACLE_HEX(UNCOMP_BYTES)];
    if (ln->n != 3 || !pt_parse(&p, ln, ln->f[1]))
        return;
    if (compressed) {
        G(affine_to_zcash_compressed)(buf, &p);
        oracle_bytes_to_hex(h, buf, COMP_BYTES);
    } else {
        G(affine_to_zcash_uncompressed)(buf, &p);
        oracle_bytes_to_hex(h, buf, UNCOMP_BYTES);
    }
    oracle_expect(ln, compressed ? "to_zcash_compressed" : "to_zcash_uncompressed", h,
                  ln->f[2]);
}

static void expect_decoded(const oracle_line *ln, const char *what, cuzk_status st,
                           const cuzk_error *err, const G(affine) *r, const char *want)
{
    if (st != CUZK_OK) {
        char msg[CUZK_ERROR_MSG_MAX + 64];
        snprintf(msg, sizeof msg, "%s (%s)", cuzk_status_name(st), err->msg);
        oracle_fail(ln, what, msg, "CUZK_OK");
        return;
    }
    expect_pt(ln, what, r, want);
}

static void grp_from_bytes(const oracle_line *ln, bool compressed)
{
    G(affine) r;
    cuzk_error err;
    uint8_t buf[UNCOMP_BYTES];
    size_t len = compressed ? COMP_BYTES : UNCOMP_BYTES;
    if (ln->n != 3 || !oracle_hex_to_bytes(buf, len, ln->f[1])) {
        oracle_bad_vector(ln, "encoding has the wrong number of hex digits");
        return;
    }
    cuzk_status st = compressed ? G(affine_from_zcash_compressed)(&r, buf, len, &err)
                                : G(affine_from_zcash_uncompressed)(&r, buf, len, &err);
    expect_decoded(ln, compressed ? "from_zcash_compressed" : "from_zcash_uncompressed", st,
                   &err, &r, ln->f[2]);
    st = G(affine_from_zcash)(&r, buf, len, &err);
    expect_decoded(ln, "from_zcash", st, &err, &r, ln->f[2]);
    if (!compressed) {
        st = G(affine_from_zcash_uncompressed_unchecked)(&r, buf, len, &err);
        expect_decoded(ln, "from_zcash_uncompressed_unchecked", st, &err, &r, ln->f[2]);
    }
    if (st == CUZK_OK) {
        if (!G(affine_on_curve)(&r))
            oracle_fail(ln, "affine_on_curve of a decoded point", "false", "true");
        else if (!G(affine_in_subgroup)(&r))
            oracle_fail(ln, "affine_in_subgroup of a decoded point", "false", "true");
    }
}

/* want is '|'-separated status names without the CUZK_ERR_ prefix. */
static bool status_in(cuzk_status st, const char *want)
{
    const char *name = cuzk_status_name(st);
    if (strncmp(name, "CUZK_ERR_", 9) != 0)
        return false;
    name += 9;
    size_t n = strlen(name);
    for (const char *w = want; *w;) {
        const char *bar = strchr(w, '|');
        size_t wl = bar ? (size_t)(bar - w) : strlen(w);
        if (wl == n && strncmp(w, name, n) == 0)
            return true;
        w += wl + (bar ? 1 : 0);
    }
    return false;
}

static void expect_reject(const oracle_line *ln, const char *what, cuzk_status st,
                          const cuzk_error *err, const char *want)
{
    if (status_in(st, want) && err->code == st && err->msg[0])
        return;
    char got[CUZK_ERROR_MSG_MAX + 64];
    snprintf(got, sizeof got, "%s (error record: %s, \"%s\")", cuzk_status_name(st),
             cuzk_status_name(err->code), err->msg);
    oracle_fail(ln, what, got, want);
}

static void grp_reject(const oracle_line *ln, bool compressed)
{
    G(affine) r;
    cuzk_error err;
    uint8_t buf[UNCOMP_BYTES];
    size_t len = compressed ? COMP_BYTES : UNCOMP_BYTES;
    if (ln->n != 3 || !oracle_hex_to_bytes(buf, len, ln->f[1])) {
        oracle_bad_vector(ln, "encoding has the wrong number of hex digits");
        return;
    }
    cuzk_error_clear(&err);
    cuzk_status st = compressed ? G(affine_from_zcash_compressed)(&r, buf, len, &err)
                                : G(affine_from_zcash_uncompressed)(&r, buf, len, &err);
    expect_reject(ln, compressed ? "from_zcash_compressed" : "from_zcash_uncompressed", st,
                  &err, ln->f[2]);
    cuzk_error_clear(&err);
    st = G(affine_from_zcash)(&r, buf, len, &err);
    expect_reject(ln, "from_zcash", st, &err, ln->f[2]);
    if (compressed)
        return;
    /* The unchecked decoder skips exactly the curve and subgroup checks. */
    bool structural = !status_in(CUZK_ERR_NOT_ON_CURVE, ln->f[2]) &&
                      !status_in(CUZK_ERR_NOT_IN_SUBGROUP, ln->f[2]);
    cuzk_error_clear(&err);
    st = G(affine_from_zcash_uncompressed_unchecked)(&r, buf, len, &err);
    if (structural) {
        expect_reject(ln, "from_zcash_uncompressed_unchecked", st, &err, ln->f[2]);
    } else if (st != CUZK_OK) {
        oracle_fail(ln, "from_zcash_uncompressed_unchecked", cuzk_status_name(st), "CUZK_OK");
    } else if (status_in(CUZK_ERR_NOT_IN_SUBGROUP, ln->f[2])) {
        if (!G(affine_on_curve)(&r))
            oracle_fail(ln, "affine_on_curve of an on-curve point", "false", "true");
        if (G(affine_in_subgroup)(&r))
            oracle_fail(ln, "affine_in_subgroup of a point outside it", "true", "false");
    } else if (G(affine_on_curve)(&r)) {
        oracle_fail(ln, "affine_on_curve of an off-curve point", "true", "false");
    }
}

bool ORACLE_GROUP_ENTRY(const oracle_line *ln)
{
    static const struct {
        const char *op;
        void (*check)(const oracle_line *, bool);
        bool compressed;
    } ops[] = {
        {"add", grp_add, false},
        {"dbl", grp_dbl, false},
        {"mul", grp_mul, false},
        {"to_compressed", grp_to_bytes, true},
        {"to_uncompressed", grp_to_bytes, false},
        {"from_compressed", grp_from_bytes, true},
        {"from_uncompressed", grp_from_bytes, false},
        {"reject_compressed", grp_reject, true},
        {"reject_uncompressed", grp_reject, false},
    };
    const size_t plen = sizeof GRP; /* strlen("g1_") */
    if (strncmp(ln->op, GRP "_", plen) != 0)
        return false;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(ln->op + plen, ops[i].op) == 0) {
            ops[i].check(ln, ops[i].compressed);
            return true;
        }
    }
    return false;
}
