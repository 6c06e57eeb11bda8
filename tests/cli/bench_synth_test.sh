#!/usr/bin/env bash
# bench_synth_test.sh CUZK — `cuzk bench synth --kind porep --sector-size 2KiB` (witness
# only, one run) reports the plain and fast witness rows without failures in its JSON, and
# bad --kind / --sector-size values are usage errors (exit 2) naming the option.
set -u
cuzk=$1
out=$("$cuzk" bench synth --kind porep --sector-size 2KiB --threads 2 --runs 1 --min-time 0 \
      --witness-only --json 2>&1) || { echo "FAIL: bench: $out"; exit 1; }
for name in "plain dense 2KiB" "plain compact 2KiB" "fast dense 2KiB" "fast compact 2KiB"; do
    grep -q "\"name\": \"$name\"" <<<"$out" || { echo "FAIL: no row $name: $out"; exit 1; }
done
if grep -q '"error"' <<<"$out"; then echo "FAIL: a row failed: $out"; exit 1; fi
for bad in "--kind snap" "--sector-size 3KiB,x" "--sector-size"; do
    # shellcheck disable=SC2086
    msg=$("$cuzk" bench synth $bad 2>&1); rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: '$bad' exit $rc: $msg"; exit 1; }
    grep -q -- "${bad%% *}" <<<"$msg" || { echo "FAIL: '$bad': $msg"; exit 1; }
done
echo "bench_synth_test: all passed"
