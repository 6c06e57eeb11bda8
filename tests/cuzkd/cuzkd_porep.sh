#!/usr/bin/env bash
# cuzkd_porep.sh CUZKD CUZK WORKDIR DEV_KEY_DIR — the README's main job as a test: a 2 KiB
# PoRep C2 through the real daemon and the CLI client. `cuzk gen-c1` writes a C1 output
# (synthetic test data, fresh seed, printed); cuzkd starts with srs.dev_key_dir =
# DEV_KEY_DIR (the build tree's, shared with test_engine_filecoin: the dev key is made once
# per build tree, minutes on 2 cores) and no Filecoin parameters; `cuzk submit --kind
# porep` + `cuzk await` return a 192-byte proof; `cuzk verify-porep` accepts it against the
# dev key and the C1's public inputs, and rejects it with one bit flipped and against
# another C1 output; SIGTERM stops cuzkd with exit 0.
# Exit 77 (skip) when the build has no gRPC client, or when CUZK_POREP_PROVE is set to
# anything but 1 (the ASan, portable and verify CI stages; the release stage runs it).
set -u
cuzkd=$1 cuzk=$2 devkeys=$4
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "skipped: CUZK_POREP_PROVE=$CUZK_POREP_PROVE"
    exit 77
fi
mkdir -p "$devkeys" || exit 1
cuzkd_workdir "$3"
cuzkd_need_client
cuzkd_seed cuzkd_porep
"$cuzk" gen-c1 --sector-size 2KiB --seed "$seed" --out c1.json || fail "gen-c1"
"$cuzk" gen-c1 --sector-size 2KiB --seed $((seed + 1)) --out other.json || fail "gen-c1 other"

cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
timeline = "$work/timeline.json"
[srs]
dev_key_dir = "$devkeys"
param_cache = ""
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
EOF
cuzkd_start

t0=$SECONDS
id=$("$cuzk" submit --addr "$addr" --kind porep --vanilla "$work/c1.json" 2>/dev/null) ||
    fail "submit"
out=$("$cuzk" await "$id" --addr "$addr" --out proof.bin) || fail "await: $out"
echo "$out"
echo "PoRep C2 job: $((SECONDS - t0)) s (dev key made or loaded included)"
grep -q "using a DEV KEY" d.log || fail "cuzkd did not say it used a dev key"
[ "$(stat -c %s proof.bin)" -eq 192 ] || fail "proof of $(stat -c %s proof.bin) bytes"

out=$("$cuzk" verify-porep --c1 c1.json --proof proof.bin --dev-key-dir "$devkeys") ||
    fail "verify-porep: $out"
[ "$out" = "OK (StackedDrg2KiBV1_1, 1 partition(s))" ] || fail "verify-porep said: $out"
echo "verify-porep: $out"

# the check can fail: another C1 output's public inputs, a proof with one bit flipped
out=$("$cuzk" verify-porep --c1 other.json --proof proof.bin --dev-key-dir "$devkeys") &&
    fail "verify-porep accepted the proof for another C1 output: $out"
case "$out" in INVALID*) ;; *) fail "verify-porep against other.json said: $out";; esac
cp proof.bin bad.bin
byte=$(( seed % 48 + 144 )) # inside C, a compressed G1 point
printf "$(printf '\\%03o' $(( $(od -An -tu1 -j$byte -N1 proof.bin) ^ 1 )))" |
    dd of=bad.bin bs=1 seek=$byte conv=notrunc status=none
cmp -s proof.bin bad.bin && fail "could not flip a bit"
"$cuzk" verify-porep --c1 c1.json --proof bad.bin --dev-key-dir "$devkeys" &&
    fail "verify-porep accepted a proof with byte $byte changed"

cuzkd_stop
[ -s timeline.json ] || fail "no timeline written"
echo "cuzkd_porep: OK"
