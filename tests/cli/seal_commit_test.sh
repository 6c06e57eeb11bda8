#!/usr/bin/env bash
# seal_commit_test.sh CUZK WORKDIR DEV_KEY_DIR — `cuzk seal-commit` and `cuzk verify-seal`
# at 2 KiB, and the parameters.json digest checks of a Filecoin parameter directory:
#   1. gen-c1 (fresh seed, printed); seal-commit with a dev key (DEV_KEY_DIR, the build
#      tree's, shared with test_engine_filecoin and cuzkd_porep: made once, minutes on 2
#      cores); verify-seal --dev-key-dir says OK; the proof is 192 bytes;
#   2. a parameter directory holding that dev key under Filecoin's 2 KiB PoRep name (a
#      symlink), its .vk (the key's first bytes) and a parameters.json whose digests come
#      from coreutils' b2sum (BLAKE2b-512, first 32 hex: an oracle independent of OpenSSL):
#      seal-commit --no-dev-key proves with it and logs both digests as matching;
#      verify-seal --params-dir says OK and that the .vk's digest was remembered (the
#      sidecar the seal-commit process wrote);
#   3. a manifest whose .params digest has one character changed: seal-commit exits 1
#      naming the file, the expected and the actual digest, and writes no proof; a wrong
#      .vk digest: verify-seal --params-dir exits 1; an entry missing: exit 1;
#   4. no parameters.json: verify-seal --params-dir says OK and that the digest was not
#      checked; the old name verify-porep still works; a --out that is a directory is
#      refused before any work (exit 2).
# Exit 77 (skip) when CUZK_POREP_PROVE is set to anything but 1 (as the other 2 KiB PoRep
# proving tests: the ASan, portable and verify CI stages skip them), or without b2sum.
set -u
cuzk=$1 work=$2 devkeys=$3
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "skipped: CUZK_POREP_PROVE=$CUZK_POREP_PROVE"
    exit 77
fi
command -v b2sum >/dev/null || { echo "skipped: no b2sum"; exit 77; }
rm -rf "$work" && mkdir -p "$work" "$devkeys" && cd "$work" || exit 1
devkeys=$(cd "$devkeys" && pwd -P)
fail() { echo "FAIL: $*"; exit 1; }

seed=$(( ${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} & 0xffffff ))
echo "seal_commit: seed $seed (CUZK_TEST_SEED replays)"
"$cuzk" gen-c1 --sector-size 2KiB --seed "$seed" --out c1.json || fail "gen-c1"

# 1. dev key
mkdir empty
"$cuzk" seal-commit --c1 c1.json --params-dir empty --dev-key-dir "$devkeys" --devices cpu \
    --out dev.bin 2>dev.err || { cat dev.err; fail "seal-commit with a dev key"; }
grep -q "WARNING: proved with a DEV KEY" dev.err || fail "no dev key warning: $(cat dev.err)"
[ "$(wc -c <dev.bin)" = 192 ] || fail "dev.bin has $(wc -c <dev.bin) bytes"
out=$("$cuzk" verify-seal --c1 c1.json --proof dev.bin --dev-key-dir "$devkeys") ||
    fail "verify-seal --dev-key-dir: $out"
[ "$out" = "OK (StackedDrg2KiBV1_1, 1 partition(s))" ] || fail "verify-seal said: $out"
echo "1. dev key: $out"

# 2. a Filecoin-named parameter directory with parameters.json
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
key="$devkeys/cuzk-DEV-UNTRUSTED-porep-2k.dev.params"
[ -f "$key" ] || fail "no dev key at $key"
mkdir pd
ln -s "$key" "pd/$name.params"
n_ic=$(od -An -j864 -N4 -tu1 "$key" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
head -c $((864 + 4 + 96 * n_ic)) "$key" >"pd/$name.vk"
dp=$(b2sum "$key" | cut -c1-32)
dv=$(b2sum "pd/$name.vk" | cut -c1-32)
manifest() { # params-digest vk-digest [skip-params]
    {
        echo "{"
        [ -z "${3:-}" ] && printf '  "%s.params": {"cid": "Qm1", "digest": "%s", "sector_size": 2048},\n' "$name" "$1"
        printf '  "%s.vk": {"cid": "Qm2", "digest": "%s", "sector_size": 2048}\n}\n' "$name" "$2"
    } >pd/parameters.json
}
manifest "$dp" "$dv"
"$cuzk" seal-commit --c1 c1.json --params-dir pd --no-dev-key --devices cpu --out fil.bin \
    2>fil.err || { cat fil.err; fail "seal-commit with parameters.json"; }
grep -q "$name.params: digest $dp matches parameters.json" fil.err ||
    fail "no .params digest line: $(cat fil.err)"
grep -q "$name.vk: digest $dv matches parameters.json" fil.err ||
    fail "no .vk digest line: $(cat fil.err)"
grep -q "DEV KEY" fil.err && fail "a dev key was used: $(cat fil.err)"
out=$("$cuzk" verify-seal --c1 c1.json --proof fil.bin --params-dir pd 2>v.err) ||
    fail "verify-seal --params-dir: $out $(cat v.err)"
[ "$out" = "OK (StackedDrg2KiBV1_1, 1 partition(s))" ] || fail "verify-seal said: $out"
grep -q "$name.vk: digest $dv matches parameters.json (remembered)" v.err ||
    fail "the .vk digest was not remembered: $(cat v.err)"
echo "2. parameters.json: $out"

# 3. wrong digests, a missing entry
flip1() { printf '%s%s' "$(printf '%s' "${1:0:1}" | tr '0-9a-f' '1-9a-f0')" "${1:1}"; }
bad=$(flip1 "$dp")
manifest "$bad" "$dv"
"$cuzk" seal-commit --c1 c1.json --params-dir pd --no-dev-key --devices cpu --out bad.bin \
    2>bad.err && fail "seal-commit accepted a .params whose digest is not the manifest's"
grep -q "$name.params: digest $dp, parameters.json expects $bad" bad.err ||
    fail "mismatch message: $(cat bad.err)"
[ -e bad.bin ] && fail "bad.bin was written"
manifest "$dp" "$(flip1 "$dv")"
"$cuzk" verify-seal --c1 c1.json --proof fil.bin --params-dir pd 2>bad.err &&
    fail "verify-seal accepted a .vk whose digest is not the manifest's"
grep -q "$name.vk: digest $dv, parameters.json expects" bad.err ||
    fail "vk mismatch message: $(cat bad.err)"
manifest "$dp" "$dv" skip
"$cuzk" seal-commit --c1 c1.json --params-dir pd --no-dev-key --devices cpu --out bad.bin \
    2>bad.err && fail "seal-commit loaded a .params parameters.json does not list"
grep -q "has no entry" bad.err || fail "missing entry message: $(cat bad.err)"
echo "3. mismatches and a missing entry refused"

# 4. no parameters.json; the old names; a bad --out
rm pd/parameters.json
out=$("$cuzk" verify-porep --c1 c1.json --proof fil.bin --params-dir pd 2>v.err) ||
    fail "verify-porep --params-dir: $out $(cat v.err)"
grep -q "digest not checked: no parameters.json" v.err || fail "no 'not checked' note: $(cat v.err)"
mkdir outdir
"$cuzk" seal-commit --c1 c1.json --params-dir pd --no-dev-key --devices cpu --out outdir \
    2>bad.err
rc=$?
[ "$rc" = 2 ] || fail "seal-commit --out DIR exited $rc: $(cat bad.err)"
grep -q "seal-commit\|porep-prove" <("$cuzk" --help) || fail "help lists no seal-commit"
echo "4. $out without parameters.json; old names; bad --out refused"
echo "PASS"
