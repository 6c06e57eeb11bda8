/*
 * snarkjs_json.c — snarkjs's proof.json, public.json and verification_key.json (shapes in
 * cuzk/formats.h), read strictly and written the way snarkjs 0.7.6 writes them
 * (JSON.stringify(x, null, 1): one-space indent, keys in snarkjs's order), plus the small
 * whole-file helpers the CLI uses for them.
 *
 * Numbers are decimal strings of canonical integers. The decimal <-> limb conversions are
 * schoolbook: multiply-by-10-and-add on parse (rejecting anything >= 2^384 on the way, the
 * modulus check comes after), repeated division by 10^19 on print.
 *
 * JSON itself is jansson's job; without it (CUZK_HAVE_JANSSON undefined, e.g. the GPU
 * machine) the JSON functions return CUZK_ERR_UNSUPPORTED and the library still links.
 *
 * Threading: pure functions; jansson is thread-safe for independent objects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "cuzk/pairing.h"

cuzk_status cuzk_file_read_text(char **out, size_t *len, const char *path, size_t max_len,
                                cuzk_error *err)
{
    if (!out || !len || !path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "read file: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    cuzk_status st = CUZK_OK;
    while (buf) {
        if (n == cap) {
            if (cap > max_len) {
                st = cuzk_error_set(err, CUZK_ERR_LENGTH, "%s: larger than %zu bytes", path,
                                    max_len);
                break;
            }
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb)
                break;
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                st = cuzk_error_set(err, CUZK_ERR_IO, "%s: read error", path);
            break;
        }
    }
    fclose(f);
    if (!buf)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory", path);
    if (st == CUZK_OK && n > max_len)
        st = cuzk_error_set(err, CUZK_ERR_LENGTH, "%s: larger than %zu bytes", path, max_len);
    if (st != CUZK_OK) {
        free(buf);
        return st;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return CUZK_OK;
}

cuzk_status cuzk_file_write(const char *path, const void *data, size_t len, cuzk_error *err)
{
    if (!path || (!data && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "write file: NULL argument");
    FILE *f = fopen(path, "wb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: write failed: %s", path, strerror(errno));
    return CUZK_OK;
}

#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>

/* ---- decimal <-> limbs ----------------------------------------------------------------- */

#define DEC_LIMBS 6 /* 384 bits: the wider field */

/* Parses a canonical decimal ("0" or [1-9][0-9]*) into DEC_LIMBS little-endian limbs;
 * false on a bad character, a leading zero, or a value >= 2^384. */
static bool dec_parse(uint64_t l[DEC_LIMBS], const char *s)
{
    memset(l, 0, DEC_LIMBS * sizeof *l);
    size_t n = strlen(s);
    if (n == 0 || n > 116 || (s[0] == '0' && n > 1)) /* 2^384 has 116 digits */
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned __int128 carry = (unsigned)(s[i] - '0');
        for (int k = 0; k < DEC_LIMBS; k++) {
            unsigned __int128 t = (unsigned __int128)l[k] * 10 + carry;
            l[k] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry)
            return false;
    }
    return true;
}

/* Decimal of nlimbs little-endian limbs into out (>= 117 bytes). */
static void dec_print(char *out, const uint64_t *limbs, size_t nlimbs)
{
    uint64_t t[DEC_LIMBS] = {0};
    memcpy(t, limbs, nlimbs * sizeof *t);
    char rev[128];
    size_t n = 0;
    const uint64_t base = 10000000000000000000ull; /* 10^19, the largest power of 10 < 2^64 */
    for (;;) {
        bool zero = true;
        unsigned __int128 rem = 0;
        for (int k = DEC_LIMBS - 1; k >= 0; k--) {
            unsigned __int128 cur = (rem << 64) | t[k];
            t[k] = (uint64_t)(cur / base);
            rem = cur % base;
            zero = zero && t[k] == 0;
        }
        uint64_t chunk = (uint64_t)rem;
        for (int d = 0; d < 19; d++) {
            rev[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
            if (zero && chunk == 0)
                break;
        }
        if (zero)
            break;
    }
    while (n > 1 && rev[n - 1] == '0')
        n--;
    for (size_t i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    out[n] = 0;
}

/* ---- reading --------------------------------------------------------------------------- */

static cuzk_status parse_json(json_t **root, const char *data, size_t len, const char *what,
                              cuzk_error *err)
{
    if (!data && len)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: NULL data", what);
    json_error_t je;
    *root = json_loadb(data ? data : "", len, JSON_REJECT_DUPLICATES, &je);
    if (!*root)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: invalid JSON at line %d column %d: %s",
                              what, je.line, je.column, je.text);
    return CUZK_OK;
}

static cuzk_status get_dec(uint64_t l[DEC_LIMBS], const json_t *v, const char *what,
                           cuzk_error *err)
{
    if (!json_is_string(v))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: expected a decimal string", what);
    if (!dec_parse(l, json_string_value(v)))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: \"%.40s\" is not a canonical decimal",
                              what, json_string_value(v));
    return CUZK_OK;
}

static cuzk_status get_fp(cuzk_fp *r, const json_t *v, const char *what, cuzk_error *err)
{
    uint64_t l[DEC_LIMBS];
    cuzk_status st = get_dec(l, v, what, err);
    if (st != CUZK_OK)
        return st;
    if (cuzk_fp_from_canonical(r, l) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "%s: not below the field prime q",
                              what);
    return CUZK_OK;
}

static cuzk_status get_fr(cuzk_fr *r, const json_t *v, const char *what, cuzk_error *err)
{
    uint64_t l[DEC_LIMBS];
    cuzk_status st = get_dec(l, v, what, err);
    if (st != CUZK_OK)
        return st;
    if (l[4] || l[5] || cuzk_fr_from_canonical(r, l) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "%s: not below the scalar field prime r", what);
    return CUZK_OK;
}

static cuzk_status get_fp2(cuzk_fp2 *r, const json_t *v, const char *what, cuzk_error *err)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: expected [c0, c1]", what);
    cuzk_status st = get_fp(&r->c0, json_array_get(v, 0), what, err);
    return st != CUZK_OK ? st : get_fp(&r->c1, json_array_get(v, 1), what, err);
}

static bool fp_is_small(const cuzk_fp *a, uint64_t v)
{
    cuzk_fp t;
    cuzk_fp_from_u64(&t, v);
    return cuzk_fp_eq(a, &t);
}

/* Every point these readers take (proof A, B, C; vk alpha, beta, gamma, delta, IC) must be
 * finite, as bellperson's readers require: with gamma = delta = infinity, for one, the
 * proof (alpha, beta, anything) verifies for every public input. */
static cuzk_status infinity_refused(const char *what, cuzk_error *err)
{
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: the point at infinity is not allowed here",
                          what);
}

/* [x, y, z] with z = 1, on curve and in the subgroup. snarkjs's infinity [0, 1, 0] is
 * recognised and refused (CUZK_ERR_FORMAT); another z = 0 form is BAD_INFINITY. */
static cuzk_status get_g1(cuzk_g1_affine *r, const json_t *v, const char *what, cuzk_error *err)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: expected a G1 point [x, y, z]", what);
    cuzk_fp x, y, z;
    cuzk_status st;
    if ((st = get_fp(&x, json_array_get(v, 0), what, err)) != CUZK_OK ||
        (st = get_fp(&y, json_array_get(v, 1), what, err)) != CUZK_OK ||
        (st = get_fp(&z, json_array_get(v, 2), what, err)) != CUZK_OK)
        return st;
    if (cuzk_fp_is_zero(&z)) {
        if (!cuzk_fp_is_zero(&x) || !fp_is_small(&y, 1))
            return cuzk_error_set(err, CUZK_ERR_BAD_INFINITY,
                                  "%s: z = 0 but the point is not [0, 1, 0]", what);
        return infinity_refused(what, err);
    }
    if (!cuzk_fp_is_one(&z))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: z must be 1 (affine) or 0", what);
    cuzk_g1_affine p = {x, y};
    /* (0, 0) is cuzk's infinity encoding, and it is not on y^2 = x^3 + 4 */
    if (cuzk_g1_affine_is_infinity(&p) || !cuzk_g1_affine_on_curve(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: point is not on the curve", what);
    if (!cuzk_g1_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: point is not in G1", what);
    *r = p;
    return CUZK_OK;
}

static cuzk_status get_g2(cuzk_g2_affine *r, const json_t *v, const char *what, cuzk_error *err)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: expected a G2 point [x, y, z]", what);
    cuzk_fp2 x, y, z;
    cuzk_status st;
    if ((st = get_fp2(&x, json_array_get(v, 0), what, err)) != CUZK_OK ||
        (st = get_fp2(&y, json_array_get(v, 1), what, err)) != CUZK_OK ||
        (st = get_fp2(&z, json_array_get(v, 2), what, err)) != CUZK_OK)
        return st;
    if (!cuzk_fp_is_zero(&z.c1))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: z must be [1, 0] or [0, 0]", what);
    if (cuzk_fp_is_zero(&z.c0)) {
        if (!cuzk_fp_is_zero(&x.c0) || !cuzk_fp_is_zero(&x.c1) || !fp_is_small(&y.c0, 1) ||
            !cuzk_fp_is_zero(&y.c1))
            return cuzk_error_set(err, CUZK_ERR_BAD_INFINITY,
                                  "%s: z = 0 but the point is not [[0,0],[1,0],[0,0]]", what);
        return infinity_refused(what, err);
    }
    if (!cuzk_fp_is_one(&z.c0))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: z must be [1, 0] or [0, 0]", what);
    cuzk_g2_affine p = {x, y};
    if (cuzk_g2_affine_is_infinity(&p) || !cuzk_g2_affine_on_curve(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: point is not on the curve", what);
    if (!cuzk_g2_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: point is not in G2", what);
    *r = p;
    return CUZK_OK;
}

/* Optional "protocol" and "curve" members must name Groth16 over BLS12-381. */
static cuzk_status check_tags(const json_t *root, bool required, const char *what,
                              cuzk_error *err)
{
    const json_t *p = json_object_get(root, "protocol"), *c = json_object_get(root, "curve");
    if ((!p || !c) && required)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: \"protocol\" and \"curve\" are required",
                              what);
    if (p && (!json_is_string(p) || strcmp(json_string_value(p), "groth16") != 0))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: protocol is not \"groth16\"", what);
    if (c && (!json_is_string(c) || strcmp(json_string_value(c), "bls12381") != 0))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: wrong curve \"%.20s\" (expected \"bls12381\")", what,
                              json_is_string(c) ? json_string_value(c) : "?");
    return CUZK_OK;
}

cuzk_status cuzk_groth16_proof_from_snarkjs_json(cuzk_groth16_proof *proof, const char *data,
                                                 size_t len, cuzk_error *err)
{
    if (!proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "proof.json: proof is NULL");
    json_t *root;
    cuzk_status st = parse_json(&root, data, len, "proof.json", err);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_proof p;
    if (!json_is_object(root))
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "proof.json: expected an object");
    else if ((st = check_tags(root, false, "proof.json", err)) == CUZK_OK &&
             (st = get_g1(&p.a, json_object_get(root, "pi_a"), "proof.json pi_a", err)) ==
                 CUZK_OK &&
             (st = get_g2(&p.b, json_object_get(root, "pi_b"), "proof.json pi_b", err)) ==
                 CUZK_OK &&
             (st = get_g1(&p.c, json_object_get(root, "pi_c"), "proof.json pi_c", err)) ==
                 CUZK_OK)
        *proof = p;
    json_decref(root);
    return st;
}

cuzk_status cuzk_frs_from_snarkjs_json(cuzk_fr **out, size_t *n, const char *data, size_t len,
                                       cuzk_error *err)
{
    if (!out || !n)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "public.json: NULL output");
    *out = NULL;
    *n = 0;
    json_t *root;
    cuzk_status st = parse_json(&root, data, len, "public.json", err);
    if (st != CUZK_OK)
        return st;
    if (!json_is_array(root)) {
        json_decref(root);
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "public.json: expected an array");
    }
    size_t m = json_array_size(root);
    cuzk_fr *v = malloc((m ? m : 1) * sizeof *v);
    if (!v) {
        json_decref(root);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "public.json: out of memory");
    }
    for (size_t i = 0; i < m && st == CUZK_OK; i++) {
        char what[48];
        snprintf(what, sizeof what, "public.json value %zu", i);
        st = get_fr(&v[i], json_array_get(root, i), what, err);
    }
    json_decref(root);
    if (st != CUZK_OK) {
        free(v);
        return st;
    }
    *out = v;
    *n = m;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_from_snarkjs_json(cuzk_groth16_vk *vk, const char *data, size_t len,
                                              cuzk_error *err)
{
    if (!vk)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "verification_key.json: vk is NULL");
    json_t *root;
    const char *w = "verification_key.json";
    cuzk_status st = parse_json(&root, data, len, w, err);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_vk v;
    memset(&v, 0, sizeof v);
    const json_t *ic = json_object_get(root, "IC"), *np = json_object_get(root, "nPublic");
    if (!json_is_object(root)) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: expected an object", w);
        goto done;
    }
    if ((st = check_tags(root, true, w, err)) != CUZK_OK)
        goto done;
    if (!json_is_array(ic) || json_array_size(ic) == 0) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: IC must be a non-empty array", w);
        goto done;
    }
    if (!json_is_integer(np) || json_integer_value(np) < 0 ||
        (size_t)json_integer_value(np) + 1 != json_array_size(ic)) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: nPublic must equal IC's length - 1 (%zu)",
                            w, json_array_size(ic) - 1);
        goto done;
    }
    if ((st = cuzk_groth16_vk_alloc(&v, json_array_size(ic), err)) != CUZK_OK)
        goto done;
    cuzk_g1_affine_set_infinity(&v.beta_g1);
    cuzk_g1_affine_set_infinity(&v.delta_g1);
    if ((st = get_g1(&v.alpha_g1, json_object_get(root, "vk_alpha_1"), "vk_alpha_1", err)) !=
            CUZK_OK ||
        (st = get_g2(&v.beta_g2, json_object_get(root, "vk_beta_2"), "vk_beta_2", err)) !=
            CUZK_OK ||
        (st = get_g2(&v.gamma_g2, json_object_get(root, "vk_gamma_2"), "vk_gamma_2", err)) !=
            CUZK_OK ||
        (st = get_g2(&v.delta_g2, json_object_get(root, "vk_delta_2"), "vk_delta_2", err)) !=
            CUZK_OK)
        goto done;
    for (size_t i = 0; i < v.n_ic && st == CUZK_OK; i++) {
        char what[48];
        snprintf(what, sizeof what, "%s IC[%zu]", w, i);
        st = get_g1(&v.ic[i], json_array_get(ic, i), what, err);
    }
done:
    json_decref(root);
    if (st != CUZK_OK) {
        cuzk_groth16_vk_free(&v);
        return st;
    }
    *vk = v;
    return CUZK_OK;
}

/* ---- writing --------------------------------------------------------------------------- */

static json_t *dec_fp(const cuzk_fp *a)
{
    uint64_t l[CUZK_FP_LIMBS];
    char s[128];
    cuzk_fp_to_canonical(l, a);
    dec_print(s, l, CUZK_FP_LIMBS);
    return json_string(s);
}

static json_t *dec_fr(const cuzk_fr *a)
{
    uint64_t l[CUZK_FR_LIMBS];
    char s[128];
    cuzk_fr_to_canonical(l, a);
    dec_print(s, l, CUZK_FR_LIMBS);
    return json_string(s);
}

static json_t *pair(json_t *a, json_t *b) { return json_pack("[oo]", a, b); }

static json_t *enc_fp2(const cuzk_fp2 *a) { return pair(dec_fp(&a->c0), dec_fp(&a->c1)); }

static json_t *enc_g1(const cuzk_g1_affine *p)
{
    if (cuzk_g1_affine_is_infinity(p))
        return json_pack("[sss]", "0", "1", "0");
    return json_pack("[oos]", dec_fp(&p->x), dec_fp(&p->y), "1");
}

static json_t *enc_g2(const cuzk_g2_affine *p)
{
    if (cuzk_g2_affine_is_infinity(p))
        return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[oo[ss]]", enc_fp2(&p->x), enc_fp2(&p->y), "1", "0");
}

static json_t *enc_fp6(const cuzk_fp6 *a)
{
    return json_pack("[ooo]", enc_fp2(&a->c0), enc_fp2(&a->c1), enc_fp2(&a->c2));
}

/* Dumps root (consumed) as snarkjs's JSON.stringify(x, null, 1) would. */
static cuzk_status dump(char **out, json_t *root, const char *what, cuzk_error *err)
{
    if (!root)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory", what);
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory", what);
    *out = s;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_proof_to_snarkjs_json(char **out, const cuzk_groth16_proof *proof,
                                               cuzk_error *err)
{
    if (!out || !proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "proof.json: NULL argument");
    json_t *root = json_pack("{s:o,s:o,s:o,s:s,s:s}", "pi_a", enc_g1(&proof->a), "pi_b",
                             enc_g2(&proof->b), "pi_c", enc_g1(&proof->c), "protocol",
                             "groth16", "curve", "bls12381");
    return dump(out, root, "proof.json", err);
}

cuzk_status cuzk_frs_to_snarkjs_json(char **out, const cuzk_fr *v, size_t n, cuzk_error *err)
{
    if (!out || (!v && n))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "public.json: NULL argument");
    json_t *root = json_array();
    for (size_t i = 0; root && i < n; i++)
        if (json_array_append_new(root, dec_fr(&v[i])) != 0) {
            json_decref(root);
            root = NULL;
        }
    return dump(out, root, "public.json", err);
}

cuzk_status cuzk_groth16_vk_to_snarkjs_json(char **out, const cuzk_groth16_vk *vk,
                                            cuzk_error *err)
{
    if (!out || !vk || !vk->ic || vk->n_ic == 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "verification_key.json: bad argument");
    cuzk_fp12 ab;
    cuzk_pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    json_t *ic = json_array();
    for (size_t i = 0; ic && i < vk->n_ic; i++)
        if (json_array_append_new(ic, enc_g1(&vk->ic[i])) != 0) {
            json_decref(ic);
            ic = NULL;
        }
    if (!ic)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "verification_key.json: out of memory");
    json_t *root = json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "protocol", "groth16",
                             "curve", "bls12381", "nPublic", (json_int_t)(vk->n_ic - 1),
                             "vk_alpha_1", enc_g1(&vk->alpha_g1), "vk_beta_2",
                             enc_g2(&vk->beta_g2), "vk_gamma_2", enc_g2(&vk->gamma_g2),
                             "vk_delta_2", enc_g2(&vk->delta_g2), "vk_alphabeta_12",
                             pair(enc_fp6(&ab.c0), enc_fp6(&ab.c1)), "IC", ic);
    return dump(out, root, "verification_key.json", err);
}

#else /* !CUZK_HAVE_JANSSON */

static cuzk_status no_json(cuzk_error *err)
{
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "built without JSON support (jansson)");
}

cuzk_status cuzk_groth16_proof_from_snarkjs_json(cuzk_groth16_proof *proof, const char *data,
                                                 size_t len, cuzk_error *err)
{
    (void)proof, (void)data, (void)len;
    return no_json(err);
}
cuzk_status cuzk_groth16_proof_to_snarkjs_json(char **out, const cuzk_groth16_proof *proof,
                                               cuzk_error *err)
{
    (void)out, (void)proof;
    return no_json(err);
}
cuzk_status cuzk_frs_from_snarkjs_json(cuzk_fr **out, size_t *n, const char *data, size_t len,
                                       cuzk_error *err)
{
    (void)out, (void)n, (void)data, (void)len;
    return no_json(err);
}
cuzk_status cuzk_frs_to_snarkjs_json(char **out, const cuzk_fr *v, size_t n, cuzk_error *err)
{
    (void)out, (void)v, (void)n;
    return no_json(err);
}
cuzk_status cuzk_groth16_vk_from_snarkjs_json(cuzk_groth16_vk *vk, const char *data, size_t len,
                                              cuzk_error *err)
{
    (void)vk, (void)data, (void)len;
    return no_json(err);
}
cuzk_status cuzk_groth16_vk_to_snarkjs_json(char **out, const cuzk_groth16_vk *vk,
                                            cuzk_error *err)
{
    (void)out, (void)vk;
    return no_json(err);
}

#endif /* CUZK_HAVE_JANSSON */
