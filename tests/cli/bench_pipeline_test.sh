#!/usr/bin/env bash
# bench_pipeline_test.sh CUZK — `cuzk bench pipeline` at a small size reports, for the
# engine row, the host peak RSS (VmHWM, > 0) and the per-stage busy ratios read from the
# engine's timeline (synth, start, device, finalize: each a share of the timed window, in
# [0, 1]; start and device above 0 since every proof went through them), in its JSON;
# with --devices cpu,cpu, the scaling note with each device's busy ratio.
set -u
cuzk=$1
out=$("$cuzk" bench pipeline --log2 8 --threads 1 --json 2>&1) || { echo "FAIL: bench: $out"; exit 1; }
row=$(grep '"name": "engine s/proof"' <<<"$out") || { echo "FAIL: no engine row: $out"; exit 1; }
echo "$row"
field() { sed -n "s/.*\"$1\": \([-0-9.e+]*\).*/\1/p" <<<"$row"; }
for f in peak_rss_mib synth_busy start_busy device_busy finalize_busy; do
    v=$(field "$f")
    [ -n "$v" ] || { echo "FAIL: no $f"; exit 1; }
    case $f in
        peak_rss_mib) lo=0 lo_open=1 hi=1e9 ;;
        start_busy|device_busy) lo=0 lo_open=1 hi=1 ;;
        *) lo=0 lo_open=0 hi=1 ;;
    esac
    awk -v v="$v" -v lo="$lo" -v o="$lo_open" -v hi="$hi" \
        'BEGIN { exit !((o ? v > lo : v >= lo) && v <= hi + 1e-9) }' ||
        { echo "FAIL: $f = $v out of range"; exit 1; }
done

# two CPU "devices": the note says how many, the scaling, and one busy ratio in [0, 1]
# per device (both took work: the device tracks of the timeline are told apart)
out=$("$cuzk" bench pipeline --devices cpu,cpu --log2 8 --threads 1 --json 2>&1) ||
    { echo "FAIL: bench --devices: $out"; exit 1; }
row=$(grep '"name": "engine s/proof"' <<<"$out") || { echo "FAIL: no engine row: $out"; exit 1; }
echo "$row"
busy=$(sed -n 's/.*2 devices: [0-9.]* x one (scaling [0-9]*%), busy \([0-9.]*\) \([0-9.]*\).*/\1 \2/p' <<<"$row")
[ -n "$busy" ] || { echo "FAIL: no per-device busy ratios in the note"; exit 1; }
for v in $busy; do
    awk -v v="$v" 'BEGIN { exit !(v > 0 && v <= 1 + 1e-9) }' ||
        { echo "FAIL: device busy $v out of (0, 1]"; exit 1; }
done
out=$("$cuzk" bench pipeline --devices 2>&1) && { echo "FAIL: --devices without a list"; exit 1; }
grep -q "devices needs" <<<"$out" || { echo "FAIL: message: $out"; exit 1; }
echo "bench_pipeline_test: all passed"
