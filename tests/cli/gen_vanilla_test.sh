#!/usr/bin/env bash
# gen_vanilla_test.sh CUZK WORKDIR DEV_KEY_DIR — `cuzk gen-vanilla` (synthetic PoSt and
# SnapDeals job documents) end to end at 2 KiB:
#   1. for window-post, winning-post and snap (fresh seed, printed): gen-vanilla --public
#      writes the document and the public inputs a verifier derives; the local prover
#      (window-post / winning-post / snap-prove, CPU, a dev key in DEV_KEY_DIR: the build
#      tree's, shared with the engine tests) proves it; `cuzk verify` with the dev key's
#      verifying key says OK for those public inputs and INVALID (exit 1) for another
#      seed's; the JSON form proves too (window-post);
#   2. the same seed gives the same bytes, another seed other bytes; the help text and the
#      run say SYNTHETIC TEST DATA;
#   3. a damaged document (the randomness, comm_d_new changed) is refused by the prover's
#      check before any proving, naming what, and no proof is written;
#   4. bad command lines exit 2 before any work: unknown kind, a size no kind has, --sectors
#      beyond a partition, --public for a many-partition SnapDeals document, an --out that
#      is a directory.
# Exit 77 (skip) when CUZK_POREP_PROVE is set to anything but 1 (as the other 2 KiB
# proving tests: the ASan, portable and verify CI stages skip them).
set -u
cuzk=$1 work=$2 devkeys=$3
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "skipped: CUZK_POREP_PROVE=$CUZK_POREP_PROVE"
    exit 77
fi
rm -rf "$work" && mkdir -p "$work" "$devkeys" && cd "$work" || exit 1
devkeys=$(cd "$devkeys" && pwd -P)
fail() { echo "FAIL: $*"; exit 1; }
mkdir empty csr

seed=$(( ${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} & 0xffffff ))
echo "gen_vanilla: seed $seed (CUZK_TEST_SEED replays)"

# the verifying key at the head of a dev key (.params): 864 fixed bytes, n_ic, n_ic x 96
vk_of() {
    local n_ic
    n_ic=$(od -An -j864 -N4 -tu1 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
    head -c $((864 + 4 + 96 * n_ic)) "$1" >"$2"
}

prove() { # prove CMD DOC PROOF
    "$cuzk" "$1" --vanilla "$2" --params-dir empty --dev-key-dir "$devkeys" --csr-cache csr \
        --devices cpu --out "$3"
}

# 1. each kind: generate, prove, verify independently
for spec in "window-post window-post wpost" "winning-post winning-post winning" \
            "snap snap-prove snap"; do
    set -- $spec
    kind=$1 cmd=$2 tag=$3
    "$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --seed "$seed" --out "$kind.json" \
        --public "$kind.pub.json" >gen.out 2>gen.err || fail "gen-vanilla $kind: $(cat gen.err)"
    cat gen.out
    grep -q "SYNTHETIC TEST DATA" gen.err || fail "$kind: not said synthetic: $(cat gen.err)"
    "$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --seed $((seed + 1)) \
        --out "$kind.other.json" --public "$kind.other.pub.json" 2>/dev/null >/dev/null ||
        fail "gen-vanilla $kind, other seed"
    prove "$cmd" "$kind.json" "$kind.bin" >p.out 2>p.err || { cat p.err; fail "$cmd"; }
    grep -q "verified" p.out || fail "$cmd: $(cat p.out)"
    [ "$(wc -c <"$kind.bin")" = 192 ] || fail "$kind.bin has $(wc -c <"$kind.bin") bytes"
    key="$devkeys/cuzk-DEV-UNTRUSTED-$tag-2k.dev.params"
    [ -f "$key" ] || fail "no dev key at $key"
    vk_of "$key" "$kind.vk"
    out=$("$cuzk" verify --vk "$kind.vk" --public "$kind.pub.json" --proof "$kind.bin") ||
        fail "verify $kind: $out"
    [ "$out" = OK ] || fail "verify $kind said: $out"
    out=$("$cuzk" verify --vk "$kind.vk" --public "$kind.other.pub.json" --proof "$kind.bin")
    rc=$?
    [ "$rc" = 1 ] && [ "$out" = INVALID ] ||
        fail "verify $kind against another seed's inputs: exit $rc, $out"
    echo "1. $kind: proved, verify OK, another seed's inputs INVALID"
done
"$cuzk" gen-vanilla --kind window-post --sector-size 2KiB --seed "$seed" --form json \
    --out wj.json >/dev/null 2>&1 || fail "gen-vanilla --form json"
grep -q '"vanilla_proof":{"sectors":\[{"inclusion_proofs":\[{"data":{"Single"' wj.json ||
    fail "json form: $(head -c 300 wj.json)"
prove window-post wj.json wj.bin >/dev/null 2>p.err || { cat p.err; fail "prove json form"; }
out=$("$cuzk" verify --vk window-post.vk --public window-post.pub.json --proof wj.bin)
[ "$out" = OK ] || fail "json form: verify said $out"
echo "1. json form: proved, verify OK"

# 2. reproducible; said loudly
"$cuzk" gen-vanilla --kind snap --sector-size 2KiB --seed "$seed" --out again.json \
    >/dev/null 2>&1 || fail "gen-vanilla again"
cmp -s snap.json again.json || fail "same seed, other bytes"
cmp -s snap.json snap.other.json && fail "another seed, same bytes"
"$cuzk" help gen-vanilla >help.out || fail "help gen-vanilla"
grep -q "SYNTHETIC TEST DATA, NOT PROOFS OF ANY STORED SECTOR" help.out ||
    fail "help: $(cat help.out)"
"$cuzk" --help | grep -q "gen-vanilla *SYNTHETIC TEST DATA" || fail "--help lists no gen-vanilla"
echo "2. same seed same bytes, another seed other bytes; help says synthetic"

# 3. damaged documents: refused by the check, no proof written
bump() { # bump FILE FIELD OUT: the first integer of "FIELD":[...] plus one (mod 256)
    local v
    v=$(grep -o "\"$2\":\[[0-9]*" "$1" | grep -o '[0-9]*$')
    sed "s/\"$2\":\[$v,/\"$2\":[$(( (v + 1) % 256 )),/" "$1" >"$3"
}
bump window-post.json randomness bad-w.json
cmp -s window-post.json bad-w.json && fail "could not damage the randomness"
prove window-post bad-w.json bad.bin >/dev/null 2>bad.err && fail "a damaged randomness proved"
grep -q "the path proves leaf .* but the randomness challenges leaf" bad.err ||
    fail "damaged randomness: $(cat bad.err)"
[ -e bad.bin ] && fail "bad.bin written"
bump snap.json comm_d_new bad-s.json
prove snap-prove bad-s.json bad.bin >/dev/null 2>bad.err && fail "a damaged comm_d_new proved"
grep -q "tree D-new root differs from comm_d_new" bad.err ||
    fail "damaged comm_d_new: $(cat bad.err)"
[ -e bad.bin ] && fail "bad.bin written"
echo "3. damaged randomness and comm_d_new refused before proving"

# 4. bad command lines: exit 2, before any work
usage() { # usage "what" needle args...
    local what=$1 needle=$2
    shift 2
    "$cuzk" gen-vanilla "$@" >u.out 2>u.err
    local rc=$?
    [ "$rc" = 2 ] || fail "$what: exit $rc: $(cat u.err)"
    grep -q -- "$needle" u.err || fail "$what: $(cat u.err)"
}
usage "unknown kind" "not window-post, winning-post or snap" --kind porep --sector-size 2KiB \
    --out x.json
usage "4KiB" "not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB" --kind window-post --sector-size 4KiB \
    --out x.json
usage "3 sectors" "partition has 1..2 sectors" --kind window-post --sector-size 2KiB \
    --sectors 3 --out x.json
usage "--public, 4 partitions" "has 4 partitions" --kind snap --sector-size 8MiB \
    --public p.json --out x.json
mkdir outdir
usage "--out a directory" "outdir" --kind snap --sector-size 2KiB --out outdir
[ -e x.json ] && fail "x.json written"
echo "4. bad command lines refused (exit 2), nothing written"
echo "PASS"
