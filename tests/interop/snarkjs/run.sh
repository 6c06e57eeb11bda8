#!/usr/bin/env bash
# run.sh — interop of the `cuzk` CLI with snarkjs 0.7.6 and circom2 0.2.23 (--prime
# bls12381), the matrix of issue 3:
#   snarkjs setup -> cuzk prove -> `snarkjs groth16 verify` OK (and cuzk verify OK)
#   snarkjs prove -> cuzk verify OK
#   a changed proof (valid point, wrong value; off-curve point) or public input: both reject
#   bellperson round trip: cuzk setup -> cuzk prove --params -> cuzk verify OK; the proof is
#   rejected under a second setup's vk; flipped bits in proof.bin are rejected
#   bad input exits 2: truncated zkey, witness of the wrong size, a witness that does not
#   satisfy the r1cs (bellperson form, message names the constraint), a bn128 circuit
#   `cuzk inspect` describes every file kind and refuses a header the loader refuses
#
#   usage: run.sh SRC_DIR CUZK_BIN WORK_DIR MKPTAU_BIN
#   env:   CUZK_REQUIRE_ORACLE=1  fail (instead of skip, exit 77) without node/node_modules
#          CUZK_INTEROP_BIG_N     links of the size test circuit (default 8000: a 2^13
#                                 domain, which needs the 2^14 ptau; 16000 would need 2^15,
#                                 whose phase-2 preparation takes minutes)
#          CUZK_PTAU_CACHE        where prepared ptau files are kept (default WORK_DIR/ptau);
#                                 scripts/test.sh shares one across its build stages
# The ptau files are cached per power, so reruns skip the slow part.
set -uo pipefail

SRC=$(cd "$1" && pwd)
CUZK=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
WORK=$3
MKPTAU=$4
BIG_N=${CUZK_INTEROP_BIG_N:-8000}

skip() {
  echo "SKIP: $*"
  if [ "${CUZK_REQUIRE_ORACLE:-0}" = 1 ]; then exit 1; fi
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node not found"
[ -x "$SRC/node_modules/.bin/snarkjs" ] && [ -x "$SRC/node_modules/.bin/circom2" ] ||
  skip "snarkjs/circom2 not installed (npm ci --prefix $SRC)"
export PATH="$SRC/node_modules/.bin:$PATH"
PTAU_DIR=${CUZK_PTAU_CACHE:-$WORK/ptau}
mkdir -p "$WORK" "$PTAU_DIR"
cd "$WORK" || exit 1

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*"; }
# expect CODE DESCRIPTION CMD...: runs CMD, compares its exit status with CODE.
expect() {
  local want=$1 what=$2
  shift 2
  "$@" >last.out 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else
    bad "$what: exit $rc, expected $want"
    sed 's/^/       | /' last.out | tail -n 8
  fi
}
# snarkjs groth16 verify must print OK! (accept) or not (reject).
snark_verify() {
  local want=$1 what=$2
  shift 2
  snarkjs groth16 verify "$@" >last.out 2>&1
  local rc=$?
  if grep -q 'OK!' last.out && [ "$rc" = 0 ]; then got=accept; else got=reject; fi
  if [ "$got" = "$want" ]; then ok "snarkjs $what ($got)"; else
    bad "snarkjs $what: $got, expected $want"
    sed 's/^/       | /' last.out | tail -n 8
  fi
}
quiet() { "$@" >>steps.log 2>&1 || { echo "step failed: $*"; tail -n 20 steps.log; exit 1; }; }

# ptau POWER -> path of a prepared (phase 2) ptau, cached. Powers up to 8 go through
# snarkjs's own ceremony commands; larger ones come from mkptau (a known-tau test ptau,
# see mkptau.c), since snarkjs's phase-2 preparation takes tens of minutes at power 14 on
# a 2-core machine. CUZK_INTEROP_SNARKJS_PTAU=1 uses snarkjs for every power.
ptau() {
  local p=$1 f="$PTAU_DIR/pot${1}_final.ptau"
  if [ ! -s "$f" ] && [ "$p" -gt 8 ] && [ "${CUZK_INTEROP_SNARKJS_PTAU:-0}" != 1 ]; then
    f="$PTAU_DIR/pot${p}_mk.ptau"
    if [ ! -s "$f" ]; then
      echo "  writing ptau 2^$p with mkptau (cached in $PTAU_DIR)" >&2
      quiet "$MKPTAU" "$p" "$f.tmp"
      mv "$f.tmp" "$f"
    fi
  elif [ ! -s "$f" ]; then
    echo "  preparing ptau 2^$p with snarkjs (cached in $PTAU_DIR)" >&2
    quiet snarkjs powersoftau new bls12381 "$p" "$PTAU_DIR/pot${p}_0.ptau"
    quiet snarkjs powersoftau contribute "$PTAU_DIR/pot${p}_0.ptau" "$PTAU_DIR/pot${p}_1.ptau" \
      --name=cuzk-ci -e="cuzk interop $p"
    quiet snarkjs powersoftau prepare phase2 "$PTAU_DIR/pot${p}_1.ptau" "$f.tmp"
    mv "$f.tmp" "$f"
    rm -f "$PTAU_DIR/pot${p}_0.ptau" "$PTAU_DIR/pot${p}_1.ptau"
  fi
  echo "$f"
}

# Rewrites a snarkjs JSON file with a JS expression over `j` and `q`/`r` (BigInt moduli).
tamper() {
  node -e '
    const fs = require("fs");
    const q = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
    const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    (function () { '"$3"' })();
    fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));
  ' "$1" "$2"
}

# circuit NAME SOURCE INPUT_JSON
circuit() {
  local name=$1 src=$2 input=$3
  echo "== $name"
  local d="$WORK/$name"
  rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
  quiet circom2 "$src" --r1cs --wasm --prime bls12381 -o .
  local base
  base=$(basename "$src" .circom)
  echo "$input" >input.json
  quiet snarkjs wtns calculate "${base}_js/${base}.wasm" input.json w.wtns
  # power: domain = 2^ceil(log2(constraints + public + 1)), the ptau one power above
  local info rows cons pw=1
  info=$("$CUZK" inspect "$base.r1cs")
  cons=$(sed -n 's/^constraints: *\([0-9]*\).*/\1/p' <<<"$info")
  rows=$(sed -n 's/.*(\([0-9]*\) rows with the public-input rows).*/\1/p' <<<"$info")
  while [ $((1 << pw)) -lt "$rows" ]; do pw=$((pw + 1)); done
  pw=$((pw + 1))
  [ "$pw" -lt 8 ] && pw=8
  echo "  $cons constraints, $rows rows, ptau 2^$pw"
  local pt
  pt=$(ptau "$pw") || exit 1
  quiet snarkjs groth16 setup "$base.r1cs" "$pt" k0.zkey
  quiet snarkjs zkey contribute k0.zkey k.zkey --name=c1 -e="randomise delta $name"
  quiet snarkjs zkey export verificationkey k.zkey vk.json

  # snarkjs setup -> cuzk prove -> both verifiers accept
  expect 0 "cuzk prove --zkey" "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof p.json \
    --public pub.json --threads 2
  snark_verify accept "verifies cuzk's proof" vk.json pub.json p.json
  expect 0 "cuzk verify (own proof)" "$CUZK" verify --vk vk.json --public pub.json --proof p.json
  # snarkjs prove -> cuzk verify accepts; public signals agree
  quiet snarkjs groth16 prove k.zkey w.wtns sp.json spub.json
  expect 0 "cuzk verify (snarkjs proof)" "$CUZK" verify --vk vk.json --public spub.json \
    --proof sp.json
  if cmp -s <(tr -d ' \n' <pub.json) <(tr -d ' \n' <spub.json); then ok "public.json matches snarkjs"
  else bad "public.json differs from snarkjs's"; fi

  # tampering: both must reject
  tamper sp.json neg.json 'j.pi_a[1] = (q - BigInt(j.pi_a[1])).toString();'
  expect 1 "cuzk rejects -A (valid point)" "$CUZK" verify --vk vk.json --public spub.json \
    --proof neg.json
  snark_verify reject "rejects -A" vk.json spub.json neg.json
  tamper sp.json swap.json 'const t = j.pi_a; j.pi_a = j.pi_c; j.pi_c = t;'
  expect 1 "cuzk rejects A<->C" "$CUZK" verify --vk vk.json --public spub.json --proof swap.json
  snark_verify reject "rejects A<->C" vk.json spub.json swap.json
  tamper sp.json off.json 'j.pi_c[0] = ((BigInt(j.pi_c[0]) ^ 1n) % q).toString();'
  expect 2 "cuzk rejects an off-curve C as malformed" "$CUZK" verify --vk vk.json \
    --public spub.json --proof off.json
  snark_verify reject "rejects an off-curve C" vk.json spub.json off.json
  tamper spub.json pub1.json 'j[j.length - 1] = ((BigInt(j[j.length - 1]) ^ 1n) % r).toString();'
  expect 1 "cuzk rejects a changed public input" "$CUZK" verify --vk vk.json --public pub1.json \
    --proof sp.json
  snark_verify reject "rejects a changed public input" vk.json pub1.json sp.json
  tamper spub.json pubr.json 'j[0] = r.toString();'
  expect 2 "cuzk rejects a public input >= r" "$CUZK" verify --vk vk.json --public pubr.json \
    --proof sp.json
  tamper spub.json pubn.json 'j.push("1");'
  expect 2 "cuzk rejects a wrong input count" "$CUZK" verify --vk vk.json --public pubn.json \
    --proof sp.json

  # bellperson round trip on the same circuit
  expect 0 "cuzk setup" "$CUZK" setup --r1cs "$base.r1cs" --params b.params --vk b.vk --threads 2
  expect 0 "cuzk prove --params" "$CUZK" prove --params b.params --r1cs "$base.r1cs" \
    --wtns w.wtns --out proof.bin --public bpub.json
  expect 0 "cuzk verify (bellperson)" "$CUZK" verify --vk b.vk --proof proof.bin --public bpub.json
  expect 0 "cuzk setup (second key)" "$CUZK" setup --r1cs "$base.r1cs" --params b2.params \
    --vk b2.vk
  expect 1 "proof rejected under another key" "$CUZK" verify --vk b2.vk --proof proof.bin \
    --public bpub.json
  for bit in 7 300 1000 1530; do
    node -e 'const fs=require("fs"); const b=fs.readFileSync("proof.bin");
      b[process.argv[1]>>3] ^= 1 << (process.argv[1] & 7); fs.writeFileSync("flip.bin", b);' "$bit"
    "$CUZK" verify --vk b.vk --proof flip.bin --public bpub.json >last.out 2>&1
    rc=$?
    if [ "$rc" = 1 ] || [ "$rc" = 2 ]; then ok "flipped proof bit $bit rejected (exit $rc)"
    else bad "flipped proof bit $bit: exit $rc"; fi
  done

  # bad input
  local sz
  sz=$(wc -c <k.zkey)
  head -c $((sz / 2)) k.zkey >trunc.zkey
  expect 2 "truncated zkey" "$CUZK" prove --zkey trunc.zkey --wtns w.wtns --proof x.json \
    --public y.json
  # the last witness value (an internal signal) changed: unsatisfied, constraint named
  node -e 'const fs=require("fs"); const b=fs.readFileSync("w.wtns");
    b[b.length - 32] ^= 1; fs.writeFileSync("bad.wtns", b);'
  expect 2 "unsatisfied witness (bellperson form)" "$CUZK" prove --params b.params \
    --r1cs "$base.r1cs" --wtns bad.wtns --out x.bin
  if grep -q 'constraint' last.out; then ok "the message names the constraint"
  else bad "no constraint named: $(cat last.out)"; fi
  [ -e x.bin ] && bad "a proof was written for an unsatisfied witness" || ok "no proof written"
  for f in k.zkey "$base.r1cs" w.wtns b.params b.vk; do
    expect 0 "inspect $f" "$CUZK" inspect "$f"
  done
  # inspect validates a header as the loader does: nPubOut = 2^32 - 1 is refused
  node -e 'const fs=require("fs"); const b=fs.readFileSync(process.argv[1]);
    let p = 12;
    for (let i = 0; i < b.readUInt32LE(8); i++) {
      const id = b.readUInt32LE(p), n = Number(b.readBigUInt64LE(p + 4));
      if (id === 1) b.writeUInt32LE(0xffffffff, p + 12 + 40); /* nPubOut */
      p += 12 + n;
    }
    fs.writeFileSync("badhdr.r1cs", b);' "$base.r1cs"
  expect 2 "inspect refuses nPubOut = 2^32-1" "$CUZK" inspect badhdr.r1cs
  cd "$WORK" || exit 1
}

circuit mul_chain "$SRC/circuits/mul_chain.circom" '{"a": "3", "b": "11"}'
circuit multi_io "$SRC/circuits/multi_io.circom" \
  '{"pub": ["1", "2", "3", "4", "5"], "secret": "123456789"}'
circuit bits "$SRC/circuits/bits.circom" \
  '{"x": "1234567890123456789012345678901234567890123456789012345"}'
sed "s/BIG_N/$BIG_N/" "$SRC/circuits/big.circom" >"$WORK/big.circom"
circuit big "$WORK/big.circom" '{"a": "5", "b": "7"}'

# a witness of another circuit (wrong size)
expect 2 "witness of another circuit" "$CUZK" prove --zkey "$WORK/mul_chain/k.zkey" \
  --wtns "$WORK/multi_io/w.wtns" --proof x.json --public y.json
# wrong curve: the same circuit compiled for bn128
echo "== bn128"
mkdir -p "$WORK/bn128" && cd "$WORK/bn128" || exit 1
quiet circom2 "$SRC/circuits/mul_chain.circom" --r1cs --prime bn128 -o .
expect 2 "bn128 r1cs: setup" "$CUZK" setup --r1cs mul_chain.r1cs --params x.params --vk x.vk
grep -q 'wrong curve' last.out && ok "message says wrong curve" || bad "no 'wrong curve' message"
expect 2 "bn128 r1cs: inspect" "$CUZK" inspect mul_chain.r1cs
cd "$WORK" || exit 1

echo "interop: $passed passed, $failed failed"
[ "$failed" = 0 ]
