/*
 * snarkjs_writer.c — the test-only .r1cs / .wtns writers and their byte buffer (see
 * snarkjs_writer.h).
 * Threading: pure functions on caller memory.
 */
#include "snarkjs_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bytes ------------------------------------------------------------------------------ */

void sw_put(sw_buf *b, const void *d, size_t n)
{
    /* an empty body may come with p == NULL, which memcpy must not see */
    if (n == 0)
        return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            fprintf(stderr, "snarkjs_writer: out of memory\n");
            abort();
        }
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

void sw_put_u32(sw_buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sw_put(b, x, 4);
}

void sw_put_u64(sw_buf *b, uint64_t v)
{
    sw_put_u32(b, (uint32_t)v);
    sw_put_u32(b, (uint32_t)(v >> 32));
}

void sw_put_section(sw_buf *f, uint32_t id, const sw_buf *body)
{
    sw_put_u32(f, id);
    sw_put_u64(f, body->n);
    sw_put(f, body->p, body->n);
}

void sw_prime_r(uint8_t out[32], bool bn128)
{
    static const uint64_t bn[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                   0x30644e72e131a029};
    const uint64_t *l = bn128 ? bn : CUZK_FR_MODULUS;
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

/* u32 n8 = 32, then the prime: how both headers start. */
static void put_field(sw_buf *h, bool bn128)
{
    uint8_t prime[32];
    sw_prime_r(prime, bn128);
    sw_put_u32(h, 32);
    sw_put(h, prime, 32);
}

/* ---- .r1cs ------------------------------------------------------------------------------ */

void sw_r1cs_put_lc(sw_buf *c, const sw_term *t, uint32_t n)
{
    sw_put_u32(c, n);
    for (uint32_t j = 0; j < n; j++) {
        sw_put_u32(c, t[j].wire);
        sw_put(c, t[j].coeff, 32);
    }
}

void sw_r1cs_header_body(sw_buf *h, const sw_r1cs_header *hd)
{
    put_field(h, hd->bn128);
    sw_put_u32(h, hd->n_wires);
    sw_put_u32(h, hd->n_pub_out);
    sw_put_u32(h, hd->n_pub_in);
    sw_put_u32(h, hd->n_prv_in);
    sw_put_u64(h, hd->n_labels);
    sw_put_u32(h, hd->n_constraints);
}

sw_buf sw_r1cs_write(const sw_r1cs_header *hd, const sw_buf *c, const sw_r1cs_layout *l)
{
    static const sw_r1cs_layout plain = {0};
    if (!l)
        l = &plain;
    sw_buf f = {0}, h = {0}, m = {0};
    sw_r1cs_header_body(&h, hd);
    for (uint32_t i = 0; i < hd->n_wires; i++)
        sw_put_u64(&m, i);
    uint32_t n = 3u - l->no_constraints - l->no_map + l->dup_header + l->custom_gates +
                 l->unknown_section;
    sw_put(&f, "r1cs", 4);
    sw_put_u32(&f, l->version ? l->version : 1);
    sw_put_u32(&f, n);
    if (l->unknown_section)
        sw_put_section(&f, 77, &h);
    if (l->circom_order && !l->no_constraints)
        sw_put_section(&f, 2, c);
    sw_put_section(&f, 1, &h);
    if (l->dup_header)
        sw_put_section(&f, 1, &h);
    if (!l->circom_order && !l->no_constraints)
        sw_put_section(&f, 2, c);
    if (!l->no_map)
        sw_put_section(&f, 3, &m);
    if (l->custom_gates)
        sw_put_section(&f, 4, &m);
    free(h.p);
    free(m.p);
    return f;
}

sw_buf sw_r1cs_of(const cuzk_r1cs *r)
{
    sw_buf c = {0};
    for (uint64_t i = 0; i < r->n_constraints; i++)
        for (int m = 0; m < 3; m++) {
            const cuzk_csr *csr = &r->m[m];
            sw_put_u32(&c, (uint32_t)(csr->row_ptr[i + 1] - csr->row_ptr[i]));
            for (uint64_t k = csr->row_ptr[i]; k < csr->row_ptr[i + 1]; k++) {
                uint8_t coeff[32];
                cuzk_fr_to_bytes_le(coeff, cuzk_r1cs_coeff(r, (cuzk_r1cs_matrix)m, k));
                sw_put_u32(&c, csr->col[k]);
                sw_put(&c, coeff, 32);
            }
        }
    sw_r1cs_header hd = {.n_wires = r->n_vars,
                         .n_pub_out = r->n_public,
                         .n_labels = r->n_vars,
                         .n_constraints = (uint32_t)r->n_constraints};
    sw_buf f = sw_r1cs_write(&hd, &c, NULL);
    free(c.p);
    return f;
}

/* ---- .wtns ------------------------------------------------------------------------------ */

sw_buf sw_wtns_write(const uint8_t (*vals)[32], uint32_t n, const sw_wtns_layout *l)
{
    static const sw_wtns_layout plain = {0};
    if (!l)
        l = &plain;
    sw_buf f = {0}, h = {0}, v = {0};
    put_field(&h, l->bn128);
    sw_put_u32(&h, (uint32_t)((int64_t)n + l->count_delta));
    for (uint32_t i = 0; i < n; i++)
        sw_put(&v, vals[i], 32);
    sw_put(&f, "wtns", 4);
    sw_put_u32(&f, l->version ? l->version : 2);
    sw_put_u32(&f, 2);
    sw_put_section(&f, 1, &h);
    sw_put_section(&f, 2, &v);
    free(h.p);
    free(v.p);
    return f;
}

sw_buf sw_wtns_of(const cuzk_fr *w, uint32_t n)
{
    uint8_t(*vals)[32] = malloc((n ? n : 1) * sizeof *vals);
    if (!vals) {
        fprintf(stderr, "snarkjs_writer: out of memory\n");
        abort();
    }
    for (uint32_t i = 0; i < n; i++)
        cuzk_fr_to_bytes_le(vals[i], &w[i]);
    sw_buf f = sw_wtns_write((const uint8_t(*)[32])vals, n, NULL);
    free(vals);
    return f;
}
