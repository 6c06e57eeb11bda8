#!/usr/bin/env bash
# bench_synth_test.sh CUZK — `cuzk bench synth --kind porep --sector-size 2KiB` (witness
# only, one run) reports the plain and fast witness rows without failures in its JSON; the
# PoSt and SnapDeals kinds report their plain rows with the bit share of aux (PoSt below
# 5 %, SnapDeals above 90 %); bad --kind / --sector-size values are usage errors (exit 2)
# naming the option.
set -u
cuzk=$1
out=$("$cuzk" bench synth --kind porep --sector-size 2KiB --threads 2 --runs 1 --min-time 0 \
      --witness-only --json 2>&1) || { echo "FAIL: bench: $out"; exit 1; }
for name in "plain dense 2KiB" "plain compact 2KiB" "fast dense 2KiB" "fast compact 2KiB"; do
    grep -q "\"name\": \"$name\"" <<<"$out" || { echo "FAIL: no row $name: $out"; exit 1; }
done
if grep -q '"error"' <<<"$out"; then echo "FAIL: a row failed: $out"; exit 1; fi
# kind, row tag, bits % range of the compact row
for spec in "window-post wpost 0 5" "winning-post winning 0 5" "snap snap 90 100"; do
    read -r kind tag lo hi <<<"$spec"
    out=$("$cuzk" bench synth --kind "$kind" --sector-size 2KiB --threads 1 --runs 1 \
          --min-time 0 --witness-only --json 2>&1) || { echo "FAIL: $kind: $out"; exit 1; }
    grep -q "\"name\": \"plain dense $tag 2KiB\"" <<<"$out" ||
        { echo "FAIL: $kind: no dense row: $out"; exit 1; }
    row=$(grep "\"name\": \"plain compact $tag 2KiB\"" <<<"$out") ||
        { echo "FAIL: $kind: no compact row: $out"; exit 1; }
    bits=$(sed -n 's/.*"bits %": \([0-9.]*\).*/\1/p' <<<"$row")
    awk -v b="$bits" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(b != "" && b > lo && b < hi) }' ||
        { echo "FAIL: $kind: bits % '$bits' not in ($lo, $hi): $row"; exit 1; }
    if grep -q '"error"' <<<"$out"; then echo "FAIL: $kind: a row failed: $out"; exit 1; fi
done
for bad in "--kind nope" "--sector-size 3KiB,x" "--sector-size"; do
    # shellcheck disable=SC2086
    msg=$("$cuzk" bench synth $bad 2>&1); rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: '$bad' exit $rc: $msg"; exit 1; }
    grep -q -- "${bad%% *}" <<<"$msg" || { echo "FAIL: '$bad': $msg"; exit 1; }
done
echo "bench_synth_test: all passed"
