#!/usr/bin/env bash
# cli_test.sh — the `cuzk` command line end to end, one group per ctest (tests/cli):
#   unsatisfied  a witness that does not satisfy the circuit: exit 2, no proof written (and
#                an existing one left as it was), the failing constraint named, for the
#                bellperson form and the snarkjs form with --r1cs
#   selfcheck    the same for the snarkjs form without --r1cs, where only the prover's
#                pairing check of its own proof can catch it
#   outputs      an output never destroys an input or another output (same path, other
#                spellings, hard and symbolic links), a missing directory fails before any
#                work, a failed write (ulimit -f) leaves the old files byte-identical and no
#                temporaries, a good run replaces files and keeps their mode
#   messages     the missing option is named, `cuzk CMD --help` = `cuzk help CMD`, a path is
#                printed once per error, verify takes --threads
#   inspect      every kind cuzk reads is named; other files are "not a file cuzk reads"
#   circuit      `inspect circuit --kind porep`: the 2 KiB partition's counts (Filecoin's
#                2 KiB parameters: 2,687,961 constraints, 2,685,673 aux, 40 inputs, 2^22),
#                sizes as bytes, an unknown kind or size or a missing option is exit 2
#   backend      --backend cpu proves through the prover interface; an unknown backend,
#                or gpu:N past the devices present (every N on a machine without a GPU), is
#                exit 2 with the reason and nothing written
#   plan         `cuzk plan`: on a 128 GiB host with a 141 GiB GPU every kind fits at 32 GiB
#                (and PoRep at 64 GiB), exit 0; a 40 GiB host or a 16 GiB card does not,
#                exit 1 with what is short; --json has the fields scripts read; sizes in
#                bytes; bad arguments are exit 2 naming what is wrong
#
#   usage: cli_test.sh GROUP CUZK_BIN FIXTURE_BIN WORK_DIR
# The fixture (cuzk_cli_fixture) draws its circuit and keys from the test RNG and prints
# the seed (CUZK_TEST_SEED=... replays it).
set -uo pipefail

GROUP=$1
CUZK=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
FIXTURE=$3
WORK=$4

rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
"$FIXTURE" . || { echo "fixture failed"; exit 1; }
if [ ! -f vk.json ]; then
  echo "SKIP: built without JSON support"
  exit 77
fi
umask 022

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*"; }
# expect CODE DESCRIPTION CMD...: runs CMD (stdout in last.out, stderr in last.err) and
# compares its exit status with CODE.
expect() {
  local want=$1 what=$2
  shift 2
  "$@" >last.out 2>last.err
  local rc=$?
  if [ "$rc" = "$want" ]; then ok "$what (exit $rc)"; else
    bad "$what: exit $rc, expected $want"
    sed 's/^/       | /' last.out last.err | tail -n 8
  fi
}
# says WORDS: the last command's stderr contains WORDS.
says() {
  if grep -qF -- "$1" last.err; then ok "message says '$1'"; else
    bad "message does not say '$1': $(head -c 400 last.err)"
  fi
}
absent() {
  local f
  for f in "$@"; do
    if [ -e "$f" ] || [ -L "$f" ]; then bad "$f was written"; else ok "$f not written"; fi
  done
}
same() { # same FILE COPY: FILE is byte-identical to COPY
  if cmp -s "$1" "$2"; then ok "$1 untouched"; else bad "$1 changed"; fi
}
no_temps() {
  local t
  t=$(find . -name '.*.cuzk-*' | head -n 5)
  if [ -z "$t" ]; then ok "no temporaries left"; else bad "temporaries left: $t"; fi
}
finish() {
  echo "cli $GROUP: $passed passed, $failed failed"
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}

# Bellperson keys for the same circuit, and one good proof of each form.
keys() {
  "$CUZK" setup --r1cs c.r1cs --params b.params --vk b.vk --threads 2 >/dev/null 2>setup.err ||
    { cat setup.err; echo "setup failed"; exit 1; }
  expect 0 "prove (snarkjs form)" "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof p.json \
    --public pub.json --threads 2
  expect 0 "its proof verifies" "$CUZK" verify --vk vk.json --public pub.json --proof p.json
  expect 0 "prove (bellperson form)" "$CUZK" prove --params b.params --r1cs c.r1cs \
    --wtns w.wtns --out proof.bin --public bpub.json --threads 2
  expect 0 "its proof verifies" "$CUZK" verify --vk b.vk --public bpub.json --proof proof.bin
}

group_unsatisfied() {
  keys
  expect 2 "bellperson form, unsatisfied witness" "$CUZK" prove --params b.params --r1cs c.r1cs \
    --wtns bad.wtns --out x.bin --public x.json
  says "does not satisfy"
  says "constraint"
  absent x.bin x.json
  expect 2 "snarkjs form with --r1cs, unsatisfied witness" "$CUZK" prove --zkey k.zkey \
    --r1cs c.r1cs --wtns bad.wtns --proof x.json --public y.json
  says "constraint"
  absent x.json y.json
  # an existing proof stays as it was
  cp proof.bin proof.bin.orig
  cp bpub.json bpub.json.orig
  expect 2 "unsatisfied witness over existing outputs" "$CUZK" prove --params b.params \
    --r1cs c.r1cs --wtns bad.wtns --out proof.bin --public bpub.json
  same proof.bin proof.bin.orig
  same bpub.json bpub.json.orig
  no_temps
}

group_selfcheck() {
  cp w.wtns w0.wtns
  expect 0 "prove (snarkjs form)" "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof p.json \
    --public pub.json
  cp p.json p.json.orig
  cp pub.json pub.json.orig
  expect 2 "snarkjs form, unsatisfied witness, no .r1cs" "$CUZK" prove --zkey k.zkey \
    --wtns bad.wtns --proof x.json --public y.json
  says "no proof written"
  absent x.json y.json
  expect 2 "the same over existing outputs" "$CUZK" prove --zkey k.zkey --wtns bad.wtns \
    --proof p.json --public pub.json
  same p.json p.json.orig
  same pub.json pub.json.orig
  no_temps
}

group_outputs() {
  keys
  local f
  for f in c.r1cs k.zkey w.wtns b.params b.vk p.json pub.json proof.bin; do cp "$f" "$f.orig"; done

  # two outputs, one file
  expect 2 "setup --params X --vk X (X exists)" "$CUZK" setup --r1cs c.r1cs --params b.params \
    --vk b.params
  says "b.params"
  same b.params b.params.orig
  expect 2 "setup --params X --vk ./X (X new)" "$CUZK" setup --r1cs c.r1cs --params new.params \
    --vk ./new.params
  absent new.params
  expect 2 "prove --proof X --public X" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof p.json --public p.json
  same p.json p.json.orig
  mkdir -p sub
  expect 2 "prove --out X --public sub/../X (X new)" "$CUZK" prove --params b.params \
    --r1cs c.r1cs --wtns w.wtns --out n.bin --public sub/../n.bin
  absent n.bin

  # an output that is an input
  expect 2 "setup --params C.r1cs" "$CUZK" setup --r1cs c.r1cs --params c.r1cs --vk v.vk
  same c.r1cs c.r1cs.orig
  absent v.vk
  expect 2 "prove --proof K.zkey" "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof k.zkey \
    --public q.json
  says "k.zkey"
  same k.zkey k.zkey.orig
  absent q.json
  expect 2 "prove --public W.wtns" "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof q.json \
    --public "$PWD/w.wtns"
  same w.wtns w.wtns.orig
  expect 2 "prove --out P.params" "$CUZK" prove --params b.params --r1cs c.r1cs --wtns w.wtns \
    --out ./sub/../b.params
  same b.params b.params.orig
  ln b.params hard.params
  expect 2 "prove --out (a hard link to the .params)" "$CUZK" prove --params b.params \
    --r1cs c.r1cs --wtns w.wtns --out hard.params
  same b.params b.params.orig
  ln -s k.zkey link.json
  expect 2 "prove --proof (a symlink to the .zkey)" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof link.json --public q.json
  same k.zkey k.zkey.orig
  ln -s nowhere/x.json dangling.json
  expect 2 "prove --proof (a dangling symlink)" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof dangling.json --public q.json
  expect 2 "prove --out DIR" "$CUZK" prove --params b.params --r1cs c.r1cs --wtns w.wtns \
    --out sub
  says "not a regular file"
  absent q.json

  # a missing directory fails before the proof is written
  expect 2 "prove --public nodir/pub.json" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof fresh.json --public nodir/pub.json
  says "nodir"
  absent fresh.json
  expect 2 "bellperson prove --public nodir/pub.json" "$CUZK" prove --params b.params \
    --r1cs c.r1cs --wtns w.wtns --out fresh.bin --public nodir/pub.json
  absent fresh.bin
  expect 2 "setup --vk nodir/x.vk" "$CUZK" setup --r1cs c.r1cs --params fresh.params \
    --vk nodir/x.vk
  absent fresh.params

  # write failures: a file-size limit fails the write; the old files stay, no temporaries.
  # 4 KiB lets the .vk through but not the .params (a partial write).
  local sz
  sz=$(wc -c <b.params)
  [ "$sz" -gt 8192 ] || bad ".params too small ($sz bytes) for the size-limit test"
  expect 2 "setup under ulimit -f 4" bash -c 'ulimit -f 4; exec "$@"' _ "$CUZK" setup \
    --r1cs c.r1cs --params b.params --vk b.vk
  says "b.params"
  same b.params b.params.orig
  same b.vk b.vk.orig
  expect 2 "setup under ulimit -f 4, new files" bash -c 'ulimit -f 4; exec "$@"' _ "$CUZK" \
    setup --r1cs c.r1cs --params fresh.params --vk fresh.vk
  absent fresh.params fresh.vk
  expect 2 "prove (snarkjs) under ulimit -f 0" bash -c 'ulimit -f 0; exec "$@"' _ "$CUZK" \
    prove --zkey k.zkey --wtns w.wtns --proof p.json --public pub.json
  same p.json p.json.orig
  same pub.json pub.json.orig
  expect 2 "prove (bellperson) under ulimit -f 0" bash -c 'ulimit -f 0; exec "$@"' _ "$CUZK" \
    prove --params b.params --r1cs c.r1cs --wtns w.wtns --out proof.bin
  same proof.bin proof.bin.orig
  no_temps

  # a good run replaces the files (a new proof: new randomness) and keeps their mode
  chmod 600 p.json
  expect 0 "prove over existing outputs" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof p.json --public pub.json
  if cmp -s p.json p.json.orig; then bad "p.json not replaced"; else ok "p.json replaced"; fi
  [ "$(stat -c %a p.json)" = 600 ] && ok "mode 600 kept" || bad "mode now $(stat -c %a p.json)"
  [ "$(stat -c %a pub.json)" = 644 ] && ok "mode 644 (umask 022)" ||
    bad "pub.json mode $(stat -c %a pub.json)"
  expect 0 "the new proof verifies" "$CUZK" verify --vk vk.json --public pub.json --proof p.json
  ln -sf b.vk vk.link
  expect 0 "setup over existing keys, --vk a symlink" "$CUZK" setup --r1cs c.r1cs \
    --params b.params --vk vk.link
  [ -L vk.link ] && ok "the link stays a link" || bad "the link was replaced"
  if cmp -s b.vk b.vk.orig; then bad "b.vk not replaced"; else ok "b.vk replaced"; fi
  no_temps
}

group_messages() {
  keys
  local c
  expect 2 "prove without a key" "$CUZK" prove --wtns w.wtns --proof a.json --public b.json
  says "--zkey or --params is required"
  expect 2 "prove without --wtns" "$CUZK" prove --zkey k.zkey --proof a.json --public b.json
  says "--wtns is required"
  expect 2 "prove --zkey without --proof" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --public b.json
  says "--proof is required"
  expect 2 "prove --zkey without --public" "$CUZK" prove --zkey k.zkey --wtns w.wtns \
    --proof a.json
  says "--public is required"
  expect 2 "prove --params without --r1cs" "$CUZK" prove --params b.params --wtns w.wtns \
    --out a.bin
  says "--r1cs is required"
  expect 2 "prove --params without --out" "$CUZK" prove --params b.params --r1cs c.r1cs \
    --wtns w.wtns
  says "--out is required"
  expect 2 "setup without --vk" "$CUZK" setup --r1cs c.r1cs --params a.params
  says "--vk is required"
  expect 2 "setup without --r1cs" "$CUZK" setup --params a.params --vk a.vk
  says "--r1cs is required"
  expect 2 "setup --backend bogus" "$CUZK" setup --r1cs c.r1cs --params bb.params --vk bb.vk \
    --backend bogus
  says "--backend bogus"
  [ ! -e bb.params ] && [ ! -e bb.vk ] && ok "setup --backend bogus wrote nothing" ||
    bad "setup --backend bogus left files"
  expect 0 "setup --backend cpu" "$CUZK" setup --r1cs c.r1cs --params bc.params --vk bc.vk \
    --backend cpu --threads 2
  says "point multiplications on cpu"
  rm -f bc.params bc.vk
  # a binary .vk is told from JSON by its bytes, not by a '{' after a first byte that
  # happens to be a tab, CR or LF (an uncompressed point's first byte may be)
  { printf '\n{'; tail -c +3 b.vk; } >nl.vk
  expect 2 "verify --vk with a binary .vk that starts '\\n{'" "$CUZK" verify --vk nl.vk \
    --public bpub.json --proof proof.bin
  if grep -q "JSON" last.err; then bad "read as JSON: $(head -c 300 last.err)"; else
    ok "read as a bellperson .vk: $(head -c 120 last.err)"
  fi
  rm -f nl.vk
  expect 2 "verify without --proof" "$CUZK" verify --vk vk.json --public pub.json
  says "--proof is required"
  expect 2 "verify without --vk" "$CUZK" verify --proof p.json --public pub.json
  says "--vk is required"
  for c in prove setup verify; do
    expect 2 "$c --bogus" "$CUZK" "$c" --bogus
    says "--bogus"
  done
  absent a.json b.json a.bin a.params a.vk

  for c in prove verify setup inspect bench; do
    "$CUZK" help "$c" >help.txt 2>&1
    expect 0 "cuzk $c --help" "$CUZK" "$c" --help
    if cmp -s help.txt last.out && [ -s help.txt ]; then ok "cuzk $c --help = cuzk help $c"
    else bad "cuzk $c --help differs from cuzk help $c"; fi
    expect 0 "cuzk $c ... -h" "$CUZK" "$c" --threads 2 -h
    cmp -s help.txt last.out && ok "same text" || bad "cuzk $c -h differs"
  done

  # each error names its path once
  local n
  once() {
    n=$(grep -o -F -- "$1" last.err | wc -l)
    [ "$n" = 1 ] && ok "'$1' printed once" || bad "'$1' printed $n times: $(cat last.err)"
  }
  expect 2 "missing .zkey" "$CUZK" prove --zkey missing.zkey --wtns w.wtns --proof a.json \
    --public b.json
  once missing.zkey
  expect 2 "missing .wtns" "$CUZK" prove --zkey k.zkey --wtns missing.wtns --proof a.json \
    --public b.json
  once missing.wtns
  expect 2 "missing .r1cs" "$CUZK" setup --r1cs missing.r1cs --params a.params --vk a.vk
  once missing.r1cs
  expect 2 "missing vk" "$CUZK" verify --vk missing.json --public pub.json --proof p.json
  once missing.json
  expect 2 "missing proof" "$CUZK" verify --vk vk.json --public pub.json --proof missing.bin
  once missing.bin
  expect 2 "inspect missing" "$CUZK" inspect missing.file
  once missing.file
  head -c 100 k.zkey >trunc.zkey
  expect 2 "truncated .zkey" "$CUZK" prove --zkey trunc.zkey --wtns w.wtns --proof a.json \
    --public b.json
  once trunc.zkey
  absent a.json b.json

  expect 0 "verify --threads 2" "$CUZK" verify --vk vk.json --public pub.json --proof p.json \
    --threads 2
  expect 2 "verify --threads x" "$CUZK" verify --vk vk.json --public pub.json --proof p.json \
    --threads x
  says "--threads"

  # a parameters.json beside a bellperson key (Filecoin's directory): checked first
  if command -v b2sum >/dev/null; then
    mkdir -p pd
    cp b.params b.vk pd/
    local dp dv
    dp=$(b2sum pd/b.params | cut -c1-32)
    dv=$(b2sum pd/b.vk | cut -c1-32)
    printf '{"b.params": {"cid": "Qm1", "digest": "%s", "sector_size": 2048},\n "b.vk": {"cid": "Qm2", "digest": "%s", "sector_size": 2048}}\n' \
      "$dp" "$dv" >pd/parameters.json
    expect 0 "prove --params, digest listed" "$CUZK" prove --params pd/b.params --r1cs c.r1cs \
      --wtns w.wtns --out pd.bin
    says "digest $dp matches parameters.json"
    expect 0 "verify --vk, digest listed" "$CUZK" verify --vk pd/b.vk --public bpub.json \
      --proof pd.bin
    printf '{"b.params": {"cid": "Qm1", "digest": "%s", "sector_size": 2048},\n "b.vk": {"cid": "Qm2", "digest": "%s", "sector_size": 2048}}\n' \
      "$dv" "$dp" >pd/parameters.json
    expect 2 "prove --params, another digest" "$CUZK" prove --params pd/b.params --r1cs c.r1cs \
      --wtns w.wtns --out pd2.bin
    says "b.params: digest $dp, parameters.json expects $dv"
    absent pd2.bin
    expect 2 "verify --vk, another digest" "$CUZK" verify --vk pd/b.vk --public bpub.json \
      --proof pd.bin
    says "b.vk: digest $dv, parameters.json expects $dp"
    printf '{}\n' >pd/parameters.json
    expect 2 "verify --vk, not listed" "$CUZK" verify --vk pd/b.vk --public bpub.json \
      --proof pd.bin
    says "has no entry"
  fi
}

group_inspect() {
  keys
  local f
  expect 0 "inspect vk.json" "$CUZK" inspect vk.json
  grep -qF "a snarkjs verification key (JSON)" last.out && ok "named" || bad "$(cat last.out)"
  expect 0 "inspect p.json" "$CUZK" inspect p.json
  grep -qF "a snarkjs proof (JSON)" last.out && ok "named" || bad "$(cat last.out)"
  expect 0 "inspect pub.json" "$CUZK" inspect pub.json
  grep -qF "snarkjs public inputs (JSON)" last.out && grep -q "values: *3" last.out &&
    ok "named, 3 values" || bad "$(cat last.out)"
  expect 0 "inspect proof.bin" "$CUZK" inspect proof.bin
  grep -qF "a 192-byte proof" last.out && ok "named" || bad "$(cat last.out)"
  expect 0 "inspect b.vk" "$CUZK" inspect b.vk
  grep -qF "bellperson .vk" last.out && grep -q "public: *3 inputs" last.out && ok "named" ||
    bad "$(cat last.out)"
  expect 0 "inspect b.params" "$CUZK" inspect b.params
  grep -qF "bellperson .params" last.out && ok "named" || bad "$(cat last.out)"
  for f in k.zkey c.r1cs w.wtns; do
    expect 0 "inspect $f" "$CUZK" inspect "$f"
  done

  # files cuzk does not read
  head -c 1000 /dev/urandom >rand.bin
  head -c 192 /dev/urandom >rand192.bin
  { head -c 864 /dev/zero; printf '\0\0\0\001'; head -c 96 /dev/zero; } >zero.vk
  printf 'hello, world\n' >hello.txt
  printf '{"a": 1}\n' >other.json
  : >empty.bin
  for f in rand.bin rand192.bin zero.vk hello.txt other.json empty.bin; do
    expect 2 "inspect $f" "$CUZK" inspect "$f"
    says "not a file cuzk reads"
    if [ -s last.out ]; then bad "stdout not empty: $(head -c 200 last.out)"; fi
  done
  # a broken key of a known kind says what is wrong with it
  sed '0,/"[0-9][0-9]*"/s//"1"/' vk.json >broken.json # vk_alpha_1's x: off the curve
  cmp -s vk.json broken.json && bad "broken.json not changed"
  expect 2 "inspect a broken verification key" "$CUZK" inspect broken.json
  grep -qF "not a file cuzk reads" last.err && bad "a broken key is called not ours" ||
    ok "the reader's complaint is shown: $(head -c 200 last.err)"
}

group_backend() {
  "$CUZK" setup --r1cs c.r1cs --params b.params --vk b.vk --threads 2 >/dev/null 2>setup.err ||
    { cat setup.err; echo "setup failed"; exit 1; }
  expect 0 "prove --backend cpu" "$CUZK" prove --params b.params --r1cs c.r1cs --wtns w.wtns \
    --out proof.bin --public pub.json --backend cpu
  expect 0 "its proof verifies" "$CUZK" verify --vk b.vk --proof proof.bin --public pub.json
  expect 2 "unknown backend" "$CUZK" prove --params b.params --r1cs c.r1cs --wtns w.wtns \
    --out x.bin --backend tpu
  says "unknown backend"
  absent x.bin
  expect 2 "a device that is not there" "$CUZK" prove --params b.params --r1cs c.r1cs \
    --wtns w.wtns --out x.bin --backend gpu:999
  absent x.bin
  expect 2 "backend with a bad device number" "$CUZK" prove --params b.params --r1cs c.r1cs \
    --wtns w.wtns --out x.bin --backend gpu:x
  says "bad backend"
  absent x.bin
  expect 2 "unsatisfied witness on the cpu backend" "$CUZK" prove --params b.params \
    --r1cs c.r1cs --wtns bad.wtns --out x.bin --backend cpu
  says "constraint"
  absent x.bin
}

group_circuit() {
  expect 0 "inspect circuit porep 2KiB" "$CUZK" inspect circuit --kind porep --sector-size 2KiB
  grep -q "^constraints: 2687961 " last.out && grep -q "^aux: *2685673$" last.out &&
    grep -q "^inputs: *40 " last.out && grep -q "^domain: *2^22$" last.out &&
    ok "2 KiB counts" || bad "$(cat last.out)"
  grep -q "^A-aux: *2674908 " last.out && grep -q "^B-aux: *685521 " last.out &&
    ok "2 KiB densities (a/b query sizes less the inputs)" || bad "$(cat last.out)"
  cp last.out kib.out
  expect 0 "sector size in bytes" "$CUZK" inspect circuit --kind porep --sector-size 2048
  if diff <(grep -v "counted in" kib.out) <(grep -v "counted in" last.out) >/dev/null; then
    ok "2048 = 2KiB"; else bad "2048 differs from 2KiB"; fi
  # PoSt rows: rust-fil-proofs' figures (filecoin-proofs constants: 32 GiB WindowPoSt
  # 125,279,217 rows, extended from 1-3 counted sectors; WinningPoSt counted in full)
  expect 0 "inspect circuit window-post 32GiB" "$CUZK" inspect circuit --kind window-post \
    --sector-size 32GiB
  grep -q "^constraints: 125305057 (125279217 circuit rows + 25840 input rows)" last.out &&
    grep -q "extended exactly to 2349" last.out && grep -q "^domain: *2^27$" last.out &&
    ok "32 GiB WindowPoSt rows" || bad "$(cat last.out)"
  expect 0 "inspect circuit winning-post 2KiB" "$CUZK" inspect circuit --kind winning-post \
    --sector-size 2KiB
  grep -q "(90750 circuit rows + 133 input rows)" last.out && ok "2 KiB WinningPoSt rows" ||
    bad "$(cat last.out)"
  expect 0 "inspect circuit window-post 2KiB" "$CUZK" inspect circuit --kind window-post \
    --sector-size 2KiB
  grep -q "(21866 circuit rows + 23 input rows)" last.out && ok "2 KiB WindowPoSt rows" ||
    bad "$(cat last.out)"
  # SnapDeals: rust-fil-proofs' 2 KiB figure (storage-proofs-update tests), 4 inputs + ONE
  expect 0 "inspect circuit snap 2KiB" "$CUZK" inspect circuit --kind snap --sector-size 2KiB
  grep -q "(1705039 circuit rows + 5 input rows)" last.out && ok "2 KiB SnapDeals rows" ||
    bad "$(cat last.out)"
  expect 2 "unknown kind" "$CUZK" inspect circuit --kind nope --sector-size 2KiB
  says "unknown kind 'nope'"
  expect 2 "unsupported size" "$CUZK" inspect circuit --kind porep --sector-size 4KiB
  says "no circuit for sector size 4096"
  expect 2 "bad size" "$CUZK" inspect circuit --kind porep --sector-size 2XB
  says "bad sector size"
  expect 2 "missing kind" "$CUZK" inspect circuit --sector-size 2KiB
  says "missing --kind"
  expect 0 "help inspect" "$CUZK" help inspect
  grep -q "inspect circuit --kind KIND" last.out && ok "usage names it" || bad "$(cat last.out)"
  # gen-c1: synthetic C1 test data, said loudly, reproducible from --seed
  expect 0 "help gen-c1" "$CUZK" help gen-c1
  grep -q "SYNTHETIC TEST DATA, NOT A SEALED SECTOR" last.out && ok "help says synthetic" ||
    bad "$(cat last.out)"
  local seed=$((RANDOM * 32768 + RANDOM))
  expect 0 "gen-c1 2KiB seed $seed" "$CUZK" gen-c1 --sector-size 2KiB --seed "$seed" --out a.json
  says "SYNTHETIC TEST DATA"
  grep -q '^{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{"StackedDrg2KiBV1":' \
    a.json && ok "filecoin-ffi's JSON" || bad "$(head -c 200 a.json)"
  expect 0 "gen-c1 same seed" "$CUZK" gen-c1 --sector-size 2KiB --seed "$seed" --out b.json
  cmp -s a.json b.json && ok "same seed, same bytes" || bad "same seed, other bytes"
  expect 0 "gen-c1 other seed" "$CUZK" gen-c1 --sector-size 2KiB --seed $((seed + 1)) --out b.json
  cmp -s a.json b.json && bad "another seed, same bytes" || ok "another seed, other bytes"
  expect 2 "gen-c1 4KiB" "$CUZK" gen-c1 --sector-size 4KiB --out c.json
  says "not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB"
  absent c.json
  # snap-prove: inputs refused before any proving work, nothing written
  expect 2 "snap-prove without --vanilla" "$CUZK" snap-prove --out p.bin
  says "needs --vanilla FILE and --out PROOF"
  expect 1 "snap-prove on a C1 output" "$CUZK" snap-prove --vanilla a.json --out p.bin \
    --no-dev-key --devices cpu
  says "SnapDeals .registered_proof: unknown registered update proof \"StackedDrg2KiBV1_1\""
  echo '{"registered_proof": "StackedDrg2KiBV1"}' > s.json
  expect 1 "snap-prove without commitments" "$CUZK" snap-prove --vanilla s.json --out p.bin \
    --no-dev-key --devices cpu
  says 'missing field "comm_r_old"'
  absent p.bin
  expect 0 "help snap-prove" "$CUZK" help snap-prove
  grep -q "SnapDeals job document" last.out && ok "usage names the input" || bad "$(cat last.out)"
  # verify-porep: the key must be the PoRep circuit's, the proof one 192-byte partition
  expect 2 "verify-porep without a key" "$CUZK" verify-porep --c1 a.json --proof a.json
  says "one of --params-dir DIR, --dev-key-dir DIR or --key FILE"
  expect 2 "verify-seal with two keys" "$CUZK" verify-seal --c1 a.json --proof a.json \
    --params-dir . --key b.vk
  says "cuzk verify-seal: needs"
  keys
  head -c 192 /dev/zero > zero.bin
  expect 1 "verify-porep, another circuit's key" "$CUZK" verify-porep --c1 a.json \
    --proof zero.bin --key b.vk
  says "public inputs, StackedDrg2KiBV1_1 has 39"
  head -c 100 /dev/zero > short.bin
  expect 1 "verify-porep, 100-byte proof" "$CUZK" verify-porep --c1 a.json --proof short.bin \
    --key b.vk
  says "the proof has 100 bytes"
}

# stdout_has WORDS: the last command's stdout contains WORDS.
stdout_has() {
  if grep -qF -- "$1" last.out; then ok "output says '$1'"; else
    bad "output does not say '$1': $(head -c 600 last.out)"
  fi
}

group_plan() {
  local h200=(--memory 128GiB --devices gpu --device-memory 141GiB) k
  for k in porep window-post winning-post snap; do
    expect 0 "plan $k 32GiB, 128 GiB host, 141 GiB GPU" "$CUZK" plan --kind "$k" \
      --sector-size 32GiB "${h200[@]}"
    stdout_has "fits: host: key "
  done
  expect 0 "plan porep 64GiB" "$CUZK" plan --kind porep --sector-size 64GiB "${h200[@]}"
  stdout_has "10 partition(s)"
  stdout_has "budget 111.00 GiB"
  stdout_has "(12.00 GiB of pinned host staging off the budget)"
  cp last.out g64.out
  expect 0 "sector size in bytes" "$CUZK" plan --kind porep --sector-size 68719476736 \
    --memory 137438953472 --devices gpu --device-memory 141GiB
  if cmp -s g64.out last.out; then ok "68719476736 = 64GiB"; else bad "bytes differ from GiB"; fi
  expect 0 "plan porep 32GiB --json" "$CUZK" plan --kind porep --sector-size 32GiB \
    "${h200[@]}" --json
  local f
  for f in '"fits": true' '"reason": "host: key 44.12 GiB' '"key_host_bytes": ' \
    '"key_device_bytes": ' '"circuit_host_bytes": ' '"partition_host_bytes": ' \
    '"partition_device_bytes": ' '"partitions_in_flight": 8' '"constraints": 130278541' \
    '"inputs": 328' '"aux": 130169893' '"log2n": 27' '"devices": "gpu"' \
    '"stage_host_bytes": 12884901888'; do
    stdout_has "$f"
  done
  if command -v python3 >/dev/null; then
    python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["fits"] and d["counts"]["bits"] == 128470791' \
      <last.out && ok "--json parses" || bad "--json does not parse: $(head -c 300 last.out)"
  fi
  expect 0 "plan porep 32GiB on the CPU" "$CUZK" plan --kind porep --sector-size 32GiB \
    --memory 128GiB --devices cpu
  stdout_has "the CPU"
  # does not fit: exit 1, the reason says what is short
  expect 1 "plan porep 32GiB, 40 GiB host" "$CUZK" plan --kind porep --sector-size 32GiB \
    --memory 40GiB --devices gpu --device-memory 141GiB
  stdout_has "does not fit: "
  stdout_has "the memory budget is 30.00 GiB" # 40 less the 5 GiB margin and 5 of staging
  stdout_has "GiB short"
  expect 1 "--json, does not fit" "$CUZK" plan --kind porep --sector-size 32GiB \
    --memory 40GiB --devices gpu --device-memory 141GiB --json
  stdout_has '"fits": false'
  stdout_has '"partitions_in_flight": 0'
  expect 1 "plan porep 32GiB, 16 GiB card" "$CUZK" plan --kind porep --sector-size 32GiB \
    --memory 128GiB --devices gpu --device-memory 16GiB
  stdout_has "device: one working set"
  stdout_has "GiB short"
  # bad arguments: exit 2, nothing on stdout
  expect 2 "unknown kind" "$CUZK" plan --kind nope --sector-size 32GiB
  says "unknown kind 'nope'"
  expect 2 "missing --sector-size" "$CUZK" plan --kind porep
  says "missing --sector-size"
  expect 2 "unsupported size" "$CUZK" plan --kind porep --sector-size 4KiB
  says "bad sector size '4KiB'"
  expect 2 "bad --memory" "$CUZK" plan --kind porep --sector-size 2KiB --memory 12XB
  says "bad --memory '12XB'"
  expect 2 "bad --devices" "$CUZK" plan --kind porep --sector-size 2KiB --devices tpu
  says "bad --devices 'tpu'"
  expect 2 "--device-memory on the CPU" "$CUZK" plan --kind porep --sector-size 2KiB \
    --devices cpu --device-memory 16GiB
  says "--device-memory is for --devices gpu"
  expect 2 "unknown option" "$CUZK" plan --kind porep --sector-size 2KiB --budget 1
  says "unknown option '--budget'"
  expect 2 "option without its value" "$CUZK" plan --kind porep --sector-size
  says "--sector-size needs a value"
  [ -s last.out ] && bad "bad arguments printed a plan" || ok "nothing on stdout"
  # a GPU plan on a machine without one needs the card's memory
  "$CUZK" plan --kind porep --sector-size 2KiB --memory 128GiB --devices gpu >last.out 2>last.err
  local rc=$?
  case $rc in
  0 | 1) ok "a GPU here: measured" ;;
  2) says "give --device-memory" ;;
  *) bad "gpu without --device-memory: exit $rc" ;;
  esac
  expect 0 "help plan" "$CUZK" help plan
  grep -q "usage: cuzk plan --kind KIND --sector-size SIZE" last.out && ok "usage" ||
    bad "$(cat last.out)"
  expect 0 "plan --help" "$CUZK" plan --help
  grep -q "Exit: 0 fits, 1 does not fit, 2 bad arguments." last.out && ok "exit codes" ||
    bad "$(cat last.out)"
}

case "$GROUP" in
unsatisfied | selfcheck | outputs | messages | inspect | backend | circuit | plan) "group_$GROUP" ;;
*) echo "unknown group $GROUP"; exit 1 ;;
esac
finish
