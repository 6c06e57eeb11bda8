// noble_vectors.mjs — writes BLS12-381 test vectors computed by @noble/curves, for the C
// checker test_noble_oracle.c to compare against the cuzk API.
//
// usage: node noble_vectors.mjs SEED COUNT OUT
//   SEED   decimal or 0x-hex integer; the same seed gives the same file (replay)
//   COUNT  random vectors per op (expensive ops use a quarter of it, at least 8)
//   OUT    output path
//
// File format (one vector per line, space separated, '#' starts a comment line):
//   <op> <arg>... <expected>
// The last line is "# end: N vectors"; the checker requires it (with the right N), so a
// truncated or empty file fails instead of passing on whatever it holds.
// Every value is lower-case hex without 0x, canonical (not Montgomery), big-endian:
//   Fp  96 hex digits             Fr (scalars) 64 hex digits
//   Fp2 c0 || c1 (192 digits: the in-memory order, NOT the zcash c1-first order)
//   Fp12 the 12 Fp coefficients in c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 order
//        (noble's tower is the same as cuzk's: u^2 = -1, v^3 = u+1, w^2 = v)
//   G1 affine x || y, G2 affine x || y (each an Fp2 as above); infinity is all zeros
//   bytes (encodings) as they are; "none" where no value exists (sqrt of a non-square)
// The pairing values are noble's e(P,Q), whose final exponentiation (the Hayashida-
// Hayasaka-Teruya hard part) raises to 3(p^12-1)/r, like zkcrypto and blst do.
//
// Randomness: SHA-256 in counter mode over the seed, so vectors depend only on SEED and
// COUNT. Single-threaded, run once per test.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

const { Fp, Fr, Fp2, Fp12 } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;

if (process.argv.length !== 5) {
  console.error('usage: node noble_vectors.mjs SEED COUNT OUT');
  process.exit(2);
}
const seed = BigInt(process.argv[2]);
const count = Number(process.argv[3]);
const outPath = process.argv[4];
const heavy = Math.max(8, Math.ceil(count / 4));

// ---- deterministic randomness ------------------------------------------------------------
let ctr = 0n;
function randBytes(n) {
  const chunks = [];
  for (let have = 0; have < n; have += 32) {
    chunks.push(createHash('sha256').update(`cuzk-noble:${seed}:${ctr++}`).digest());
  }
  return Buffer.concat(chunks).subarray(0, n);
}
// 64 bytes reduced mod m: bias below 2^-130 for both moduli.
const randMod = (m) => BigInt('0x' + randBytes(64).toString('hex')) % m;
const randFp = () => randMod(P);
const randFr = () => randMod(R);
const randFrNonZero = () => { for (;;) { const k = randFr(); if (k !== 0n) return k; } };
const randFp2 = () => Fp2.create({ c0: randFp(), c1: randFp() });

// ---- hex encoders (see the header comment) -----------------------------------------------
const hexN = (v, digits) => v.toString(16).padStart(digits, '0');
const hFp = (v) => hexN(v, 96);
const hFr = (v) => hexN(v, 64);
const hFp2 = (v) => hFp(v.c0) + hFp(v.c1);
const hFp6 = (v) => hFp2(v.c0) + hFp2(v.c1) + hFp2(v.c2);
const hFp12 = (v) => hFp6(v.c0) + hFp6(v.c1);
const hBytes = (u) => Buffer.from(u).toString('hex');
const hG1 = (pt) => { const a = pt.toAffine(); return hFp(a.x) + hFp(a.y); };
const hG2 = (pt) => { const a = pt.toAffine(); return hFp2(a.x) + hFp2(a.y); };

const lines = [];
const emit = (...fields) => lines.push(fields.join(' '));
// Variable-time multiplication: the generator has no secrets, and it is 2x faster.
const mul = (pt, k) => pt.multiplyUnsafe(k);

// Legendre symbols, computed from the definition (Euler's criterion).
const fpIsSquare = (a) => Fp.pow(a, (P - 1n) / 2n) !== Fp.neg(Fp.ONE);
const fp2IsSquare = (a) => fpIsSquare(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1)));

// ---- Fp / Fr / Fp2 -----------------------------------------------------------------------
const fpEdge = [0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, (P + 1n) / 2n];
const fpArgs = (n) => [...fpEdge, ...Array.from({ length: n }, randFp)];
const frEdge = [0n, 1n, 2n, R - 1n, R - 2n, (R - 1n) / 2n];
const frArgs = (n) => [...frEdge, ...Array.from({ length: n }, randFr)];

function genFp() {
  const a = fpArgs(count);
  const b = [...fpEdge.slice().reverse(), ...Array.from({ length: count }, randFp)];
  for (let i = 0; i < a.length; i++) {
    emit('fp_add', hFp(a[i]), hFp(b[i]), hFp(Fp.add(a[i], b[i])));
    emit('fp_sub', hFp(a[i]), hFp(b[i]), hFp(Fp.sub(a[i], b[i])));
    emit('fp_mul', hFp(a[i]), hFp(b[i]), hFp(Fp.mul(a[i], b[i])));
    emit('fp_sqr', hFp(a[i]), hFp(Fp.sqr(a[i])));
    emit('fp_neg', hFp(a[i]), hFp(Fp.neg(a[i])));
    // cuzk's contract: inv(0) = 0 (noble throws there).
    emit('fp_inv', hFp(a[i]), hFp(a[i] === 0n ? 0n : Fp.inv(a[i])));
    emit('fp_sqrt', hFp(a[i]), fpIsSquare(a[i]) ? hFp(Fp.sqrt(a[i])) : 'none');
  }
  // Squares and non-squares in equal measure (random elements are each half the time).
  for (let i = 0; i < count; i++) {
    const s = Fp.sqr(randFp());
    emit('fp_sqrt', hFp(s), hFp(Fp.sqrt(s)));
    let n = randFp();
    while (fpIsSquare(n)) n = randFp();
    emit('fp_sqrt', hFp(n), 'none');
  }
}

function genFr() {
  const a = frArgs(count);
  const b = [...frEdge.slice().reverse(), ...Array.from({ length: count }, randFr)];
  for (let i = 0; i < a.length; i++) {
    emit('fr_add', hFr(a[i]), hFr(b[i]), hFr(Fr.add(a[i], b[i])));
    emit('fr_mul', hFr(a[i]), hFr(b[i]), hFr(Fr.mul(a[i], b[i])));
    emit('fr_inv', hFr(a[i]), hFr(a[i] === 0n ? 0n : Fr.inv(a[i])));
  }
}

function genFp2() {
  const fp2 = (c0, c1) => Fp2.create({ c0, c1 });
  const edge = [Fp2.ZERO, Fp2.ONE, fp2(0n, 1n), fp2(P - 1n, P - 1n), fp2(5n, 0n), fp2(0n, P - 1n)];
  const a = [...edge, ...Array.from({ length: count }, randFp2)];
  for (let i = 0; i < a.length; i++) {
    const b = randFp2();
    emit('fp2_mul', hFp2(a[i]), hFp2(b), hFp2(Fp2.mul(a[i], b)));
    emit('fp2_sqr', hFp2(a[i]), hFp2(Fp2.sqr(a[i])));
    emit('fp2_inv', hFp2(a[i]), hFp2(Fp2.is0(a[i]) ? Fp2.ZERO : Fp2.inv(a[i])));
    emit('fp2_sqrt', hFp2(a[i]), fp2IsSquare(a[i]) ? hFp2(Fp2.sqrt(a[i])) : 'none');
  }
  for (let i = 0; i < count; i++) {
    const s = Fp2.sqr(randFp2());
    emit('fp2_sqrt', hFp2(s), hFp2(Fp2.sqrt(s)));
    let n = randFp2();
    while (fp2IsSquare(n)) n = randFp2();
    emit('fp2_sqrt', hFp2(n), 'none');
  }
}

// ---- G1 / G2 -----------------------------------------------------------------------------
// Points off the prime-order subgroup or off the curve, for the decoders' reject paths.
// Returns a compressed and an uncompressed encoding of each bad kind, with the status class
// the checker expects.
function badEncodings(Pt, g) {
  const out = [];
  const F = g === 'g1' ? Fp : Fp2;
  const b = g === 'g1' ? 4n : Fp2.create({ c0: 4n, c1: 4n });
  const rhs = (x) => F.add(F.mul(F.sqr(x), x), b);
  const rnd = g === 'g1' ? randFp : randFp2;
  const isSq = g === 'g1' ? fpIsSquare : fp2IsSquare;
  const coords = g === 'g1' ? (v) => hFp(v) : (v) => hFp(v.c1) + hFp(v.c0); // zcash order
  const flag = (hex, bits) =>
    (parseInt(hex.slice(0, 2), 16) | bits).toString(16).padStart(2, '0') + hex.slice(2);
  const rejects = (bytesHex) => {
    try { Pt.fromBytes(Buffer.from(bytesHex, 'hex')); return false; } catch { return true; }
  };
  for (let i = 0; i < Math.max(4, heavy / 2); i++) {
    // x with x^3 + b a non-square: no point at all.
    let x = rnd();
    while (isSq(rhs(x))) x = rnd();
    out.push(['compressed', flag(coords(x), 0x80), 'NOT_SQUARE|NOT_ON_CURVE']);
    // On the curve but (with overwhelming probability, cofactor > 1) not in the subgroup.
    x = rnd();
    while (!isSq(rhs(x))) x = rnd();
    const y = F.sqrt(rhs(x));
    out.push(['compressed', flag(coords(x), 0x80), 'NOT_IN_SUBGROUP']);
    out.push(['uncompressed', coords(x) + coords(y), 'NOT_IN_SUBGROUP']);
    // (x, y+1) is not on the curve.
    out.push(['uncompressed', coords(x) + coords(F.add(y, F.ONE)), 'NOT_ON_CURVE']);
  }
  // Non-canonical coordinates: values in [p, 2^381) (bigger ones would spill into the flag
  // bits); the decoders must reject them before any curve arithmetic.
  const big = [P, P + 1n, (1n << 381n) - 1n];
  for (const v of big) {
    if (g === 'g1') {
      out.push(['compressed', flag(hFp(v), 0x80), 'NONCANONICAL']);
      out.push(['uncompressed', hFp(v) + hFp(2n), 'NONCANONICAL']);
    } else {
      out.push(['compressed', flag(hFp(v) + hFp(0n), 0x80), 'NONCANONICAL']);      // x.c1
      out.push(['compressed', flag(hFp(0n) + hFp(v), 0x80), 'NONCANONICAL']);      // x.c0
      out.push(['uncompressed', hFp(1n) + hFp(0n) + hFp(0n) + hFp(v), 'NONCANONICAL']); // y.c0
    }
  }
  // Infinity flag with a non-zero body, and an uncompressed encoding carrying the sign bit.
  const len = g === 'g1' ? 48 : 96;
  out.push(['compressed', 'c0' + '00'.repeat(len - 2) + '01', 'BAD_INFINITY']);
  out.push(['uncompressed', flag(hBytes(Pt.BASE.toBytes(false)), 0x20), 'BAD_FLAGS']);
  // Compressed length with the compressed flag cleared.
  out.push(['compressed', hBytes(Pt.BASE.toBytes(true)).replace(/^(..)/, (m) =>
    (parseInt(m, 16) & 0x7f).toString(16).padStart(2, '0')), 'BAD_FLAGS|LENGTH']);
  for (const [, hex] of out) {
    if (!rejects(hex)) throw new Error(`noble accepted a supposedly bad ${g} encoding ${hex}`);
  }
  return out;
}

function genGroup(g) {
  const Pt = g === 'g1' ? G1 : G2;
  const hP = g === 'g1' ? hG1 : hG2;
  // Points are kept with their discrete log s (P = [s]G) so that [k]P can be computed as
  // [s*k]G on noble's precomputed generator table: the same value, a fraction of the time.
  const dlog = new Map();
  const rndPt = () => {
    const s = randFrNonZero();
    const p = Pt.BASE.multiplyUnsafe(s);
    dlog.set(p, s);
    return p;
  };
  const mulKnown = (p, k) => mul(Pt.BASE, Fr.mul(dlog.get(p), k));
  const pts = [Pt.ZERO, Pt.BASE, Pt.BASE.negate(), ...Array.from({ length: count }, rndPt)];

  for (const p of pts) {
    const q = rndPt();
    emit(`${g}_add`, hP(p), hP(q), hP(p.add(q)));
    emit(`${g}_dbl`, hP(p), hP(p.double()));
  }
  // The exceptional cases of addition: equal operands, opposite operands, infinities.
  for (const p of pts.slice(0, 8)) {
    emit(`${g}_add`, hP(p), hP(p), hP(p.add(p)));
    emit(`${g}_add`, hP(p), hP(p.negate()), hP(Pt.ZERO));
    emit(`${g}_add`, hP(Pt.ZERO), hP(p), hP(p));
    emit(`${g}_add`, hP(p), hP(Pt.ZERO), hP(p));
  }
  const kEdge = [0n, 1n, 2n, R - 1n, R - 2n];
  for (const k of kEdge) {
    emit(`${g}_mul`, hP(Pt.BASE), hFr(k), hP(mul(Pt.BASE, k)));
    const p = rndPt();
    emit(`${g}_mul`, hP(p), hFr(k), hP(mul(p, k)));  // the direct path, for a few
  }
  emit(`${g}_mul`, hP(Pt.ZERO), hFr(randFrNonZero()), hP(Pt.ZERO));
  for (let i = 0; i < count; i++) {
    const p = rndPt();
    const k = randFr();
    emit(`${g}_mul`, hP(p), hFr(k), hP(mulKnown(p, k)));
  }
  // The decoders must give back the point noble encoded; noble's own decoder (with its
  // subgroup check, slow for G2) confirms that on the first few.
  pts.forEach((p, i) => {
    const c = hBytes(p.toBytes(true));
    const u = hBytes(p.toBytes(false));
    if (i < 8 && !(Pt.fromBytes(Buffer.from(c, 'hex')).equals(p) &&
                   Pt.fromBytes(Buffer.from(u, 'hex')).equals(p))) {
      throw new Error(`noble ${g} encoding does not round-trip`);
    }
    emit(`${g}_to_compressed`, hP(p), c);
    emit(`${g}_to_uncompressed`, hP(p), u);
    emit(`${g}_from_compressed`, c, hP(p));
    emit(`${g}_from_uncompressed`, u, hP(p));
  });
  for (const [form, hex, why] of badEncodings(Pt, g)) emit(`${g}_reject_${form}`, hex, why);
}

// ---- pairing -----------------------------------------------------------------------------
function genPairing() {
  const one = hFp12(Fp12.ONE);
  emit('pairing', hG1(G1.BASE), hG2(G2.BASE), hFp12(bls.pairing(G1.BASE, G2.BASE)));
  emit('pairing', hG1(G1.ZERO), hG2(G2.BASE), one);
  emit('pairing', hG1(G1.BASE), hG2(G2.ZERO), one);
  for (let i = 0; i < heavy; i++) {
    const p = G1.BASE.multiplyUnsafe(randFrNonZero());
    const q = G2.BASE.multiplyUnsafe(randFrNonZero());
    emit('pairing', hG1(p), hG2(q), hFp12(bls.pairing(p, q)));
  }
  // pairing_bilinear P Q a b e(aP, bQ): the checker also evaluates e(abP, Q).
  for (let i = 0; i < heavy; i++) {
    const s = randFrNonZero();
    const t = randFrNonZero();
    const a = randFrNonZero();
    const b = randFrNonZero();
    const ap = G1.BASE.multiplyUnsafe(Fr.mul(s, a));  // = [a]P for P = [s]G1
    const bq = G2.BASE.multiplyUnsafe(Fr.mul(t, b));
    const p = G1.BASE.multiplyUnsafe(s);
    const q = G2.BASE.multiplyUnsafe(t);
    emit('pairing_bilinear', hG1(p), hG2(q), hFr(a), hFr(b), hFp12(bls.pairing(ap, bq)));
  }
}

const version = JSON.parse(readFileSync(
  new URL('./node_modules/@noble/curves/package.json', import.meta.url), 'utf8')).version;
emit(`# cuzk oracle vectors: @noble/curves ${version}, seed ${seed}, count ${count}`);
genFp();
genFr();
genFp2();
genGroup('g1');
genGroup('g2');
genPairing();
emit(`# end: ${lines.length - 1} vectors`);
writeFileSync(outPath, lines.join('\n') + '\n');
console.error(`noble_vectors: ${lines.length - 2} vectors (seed ${seed}, ` +
  `@noble/curves ${version}) -> ${outPath}`);
