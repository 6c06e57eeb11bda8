#!/usr/bin/env bash
# setup_fil_test.sh CUZK WORKDIR — `cuzk setup --circuit`: a dev key for a Filecoin circuit
# from a seed, written as Filecoin ships keys (cuzk_engine_write_fil_params):
#   1. winning-2k from seed 5 into p1: the .params and .vk under Filecoin's WinningPoSt
#      2 KiB name, parameters.json entries whose digests equal coreutils' b2sum (first 32
#      hex: an oracle independent of OpenSSL) with sector_size 2048; the .vk is the
#      .params' first bytes; stdout names the file, its size and digest;
#   2. the same seed into p2 gives the same bytes; seed 6 does not;
#   3. the files are used as official ones: gen-vanilla winning-post, winning-post
#      --params-dir p1 --no-dev-key proves (the log says both digests match), and `cuzk
#      verify` with p1's .vk says OK;
#   4. bad command lines exit 2 and write nothing: a bad seed, an unknown circuit, a
#      parameter directory that is not one.
# Exit 77 (skip) without b2sum.
set -u
cuzk=$1 work=$2
command -v b2sum >/dev/null || { echo "skipped: no b2sum"; exit 77; }
rm -rf "$work" && mkdir -p "$work/p1" "$work/p2" "$work/p3" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
NAME=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e

# 1.
"$cuzk" setup --circuit winning-2k --seed 5 --param-dir p1 --csr-cache csr --devices cpu \
    >s1.out 2>s1.err || { cat s1.err; fail "setup --circuit winning-2k"; }
grep -q "NOT Filecoin's trusted setup" s1.err || fail "not said dev: $(cat s1.err)"
[ -s "p1/$NAME.params" ] && [ -s "p1/$NAME.vk" ] || fail "files not under Filecoin's name: $(ls p1)"
for ext in params vk; do
    want=$(b2sum "p1/$NAME.$ext" | cut -c1-32)
    got=$(python3 -c "import json,sys; e=json.load(open('p1/parameters.json'))['$NAME.$ext']; print(e['digest'], e['sector_size'], 'cid' in e)")
    [ "$got" = "$want 2048 True" ] || fail "manifest entry of .$ext: $got, b2sum $want"
done
vkn=$(wc -c <"p1/$NAME.vk")
cmp -s -n "$vkn" "p1/$NAME.vk" "p1/$NAME.params" || fail ".vk is not the .params' head"
read -r path bytes digest _ <s1.out
[ "$path" = "p1/$NAME.params" ] && [ "$bytes" = "$(wc -c <"p1/$NAME.params")" ] &&
    [ "$digest" = "$(b2sum "p1/$NAME.params" | cut -c1-32)" ] || fail "stdout: $(cat s1.out)"
echo "1. winning-2k written under Filecoin's name, manifest digests = b2sum"

# 2.
"$cuzk" setup --circuit winning-2k --seed 5 --param-dir p2 --csr-cache csr --devices cpu \
    >/dev/null 2>s2.err || { cat s2.err; fail "second setup"; }
cmp -s "p1/$NAME.params" "p2/$NAME.params" || fail "the same seed gave another key"
"$cuzk" setup --circuit winning-2k --seed 6 --param-dir p3 --csr-cache csr --devices cpu \
    >/dev/null 2>s3.err || { cat s3.err; fail "third setup"; }
cmp -s "p1/$NAME.params" "p3/$NAME.params" && fail "seeds 5 and 6 gave the same key"
echo "2. same seed, same bytes; another seed, another key"

# 3.
"$cuzk" gen-vanilla --kind winning-post --sector-size 2KiB --seed 11 --out w.json \
    --public w.pub.json >/dev/null 2>&1 || fail "gen-vanilla"
"$cuzk" winning-post --vanilla w.json --params-dir p1 --no-dev-key --csr-cache csr --devices cpu \
    --out w.bin >p.out 2>p.err || { cat p.err; fail "winning-post with the written files"; }
grep -q "$NAME.params: digest .* matches parameters.json" p.err || fail "no digest match: $(cat p.err)"
grep -q "DEV KEY" p.err && fail "a dev key was used: $(cat p.err)"
out=$("$cuzk" verify --vk "p1/$NAME.vk" --public w.pub.json --proof w.bin) || fail "verify: $out"
[ "$out" = OK ] || fail "verify said $out"
echo "3. proved from the written files as official ones; verify OK"

# 4.
usage() { # what-to-find args...
    local want=$1
    shift
    rm -rf p4 && mkdir p4
    "$cuzk" setup "$@" >u.out 2>u.err
    local rc=$?
    [ "$rc" = 2 ] || fail "$*: exit $rc, want 2: $(cat u.err)"
    grep -q -- "$want" u.err || fail "$*: message lacks '$want': $(cat u.err)"
    [ -z "$(ls -A p4)" ] || fail "$*: wrote $(ls -A p4)"
}
usage "want 64 hex digits" --circuit winning-2k --seed 12x --param-dir p4
usage "unknown circuit id" --circuit winning-4k --seed 1 --param-dir p4 --csr-cache csr --devices cpu
usage "not a directory" --circuit winning-2k --seed 1 --param-dir p4/none
echo "4. bad command lines refused, nothing written"
echo "setup_fil: OK"
