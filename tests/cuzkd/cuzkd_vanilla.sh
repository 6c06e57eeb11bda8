#!/usr/bin/env bash
# cuzkd_vanilla.sh CUZKD CUZK WORKDIR DEV_KEY_DIR — the PoSt and SnapDeals kinds through the
# real daemon and the CLI client, on documents `cuzk gen-vanilla` writes (synthetic test
# data, fresh seed, printed): cuzkd starts with srs.dev_key_dir = DEV_KEY_DIR (the build
# tree's, shared with the engine and CLI tests) and no Filecoin parameters; for
# window-post, winning-post and snap, `cuzk remote-prove --kind K --vanilla JOB` (cuzkd's
# Prove) returns a 192-byte proof that `cuzk verify` accepts against the dev key and the
# public inputs gen-vanilla wrote (--public), and rejects against another seed's; a
# damaged document is refused by the daemon with the check's message; SIGTERM stops
# cuzkd with exit 0.
# Exit 77 (skip) when the build has no gRPC client, or when CUZK_POREP_PROVE is set to
# anything but 1 (the ASan, portable and verify CI stages).
set -u
cuzkd=$1 cuzk=$2 devkeys=$4
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "skipped: CUZK_POREP_PROVE=$CUZK_POREP_PROVE"
    exit 77
fi
mkdir -p "$devkeys" || exit 1
devkeys=$(cd "$devkeys" && pwd -P)
cuzkd_workdir "$3"
cuzkd_need_client
cuzkd_seed cuzkd_vanilla

cat > d.toml <<EOT
[daemon]
listen = "$addr"
state_dir = "$work/state"
[srs]
dev_key_dir = "$devkeys"
param_cache = ""
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
EOT
cuzkd_start

vk_of() { # the verifying key at the head of a dev key (.params)
    local n_ic
    n_ic=$(od -An -j864 -N4 -tu1 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
    head -c $((864 + 4 + 96 * n_ic)) "$1" >"$2"
}

for spec in "window-post wpost" "winning-post winning" "snap snap"; do
    set -- $spec
    kind=$1 tag=$2
    "$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --seed "$seed" --out "$kind.json" \
        --public "$kind.pub.json" >/dev/null 2>&1 || fail "gen-vanilla $kind"
    "$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --seed $((seed + 1)) \
        --out other.json --public "$kind.other.pub.json" >/dev/null 2>&1 ||
        fail "gen-vanilla $kind, other seed"
    t0=$SECONDS
    out=$(C remote-prove --kind "$kind" --vanilla "$work/$kind.json" --out "$kind.bin") ||
        fail "remote-prove $kind: $out"
    echo "$kind: $((SECONDS - t0)) s (dev key made or loaded included): $out"
    size=$(stat -c %s "$kind.bin")
    [ "$size" -eq 192 ] || fail "$kind: proof of $size bytes"
    vk_of "$devkeys/cuzk-DEV-UNTRUSTED-$tag-2k.dev.params" "$kind.vk"
    out=$("$cuzk" verify --vk "$kind.vk" --public "$kind.pub.json" --proof "$kind.bin")
    [ "$out" = OK ] || fail "verify $kind said: $out"
    out=$("$cuzk" verify --vk "$kind.vk" --public "$kind.other.pub.json" --proof "$kind.bin")
    [ "$out" = INVALID ] || fail "verify $kind against another seed's inputs said: $out"
done

# a damaged document: refused by the daemon's check, naming what
v=$(grep -o '"randomness":\[[0-9]*' window-post.json | grep -o '[0-9]*$')
sed "s/\"randomness\":\[$v,/\"randomness\":[$(( (v + 1) % 256 )),/" window-post.json >bad.json
out=$(C remote-prove --kind window-post --vanilla "$work/bad.json" --out bad.bin 2>&1) &&
    fail "a damaged document was proved: $out"
case "$out" in *"the randomness challenges leaf"*) ;; *) fail "damaged document: $out";; esac
[ -e bad.bin ] && fail "bad.bin written"

cuzkd_stop
echo "cuzkd_vanilla: OK"
