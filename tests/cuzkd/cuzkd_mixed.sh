#!/usr/bin/env bash
# cuzkd_mixed.sh CUZKD CUZK WORKDIR DEV_KEY_DIR — the mixed-day benchmark (bench/mixed.sh) as
# a CI smoke run, CPU mode: a LOW synthetic stream through the real daemon with WinningPoSt
# (CRITICAL), a WindowPoSt partition (HIGH) and a SnapDeals job (NORMAL) at 2 KiB arriving
# under it, each kind first run alone (about a minute on 2 quiet cores). It fails when a job fails or is lost, a proof does not verify (`cuzk verify`
# against the dev key and gen-vanilla's public inputs; the synthetic stream by cuzkd's
# self-check), or cuzkd dies or does not stop cleanly; it prints the timing report and
# never judges it.
# Dev keys: the build tree's DEV_KEY_DIR, shared with the engine and CLI tests (made when
# missing). Exit 77 (skip) when the build has no gRPC client, or when CUZK_POREP_PROVE is set
# to anything but 1 (the ASan, portable and verify CI stages, as cuzkd_vanilla).
set -u
cuzkd=$1 cuzk=$2 devkeys=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "skipped: CUZK_POREP_PROVE=$CUZK_POREP_PROVE"
    exit 77
fi
mkdir -p "$devkeys" || exit 1
devkeys=$(cd "$devkeys" && pwd -P)
cuzkd_workdir "$3"
cuzkd_need_client
log=out/cuzkd-cpu.log
# the timing knobs are the script's CPU defaults; only the kinds and the folders are set
CUZK=$cuzk CUZKD=$cuzkd WORK=$work/w OUT=$work/out MIXED_MODE=cpu MIXED_DEVKEYS=$devkeys \
    MIXED_KINDS="winning wpost snap" MIXED_K=6 MIXED_WIN_ALONE=3 MIXED_WPOST_ALONE=2 \
    MIXED_SNAP_ALONE=1 \
    bash "$here/../../bench/mixed.sh" alone mixed report >report.txt 2>&1
rc=$?
cat report.txt
[ $rc = 0 ] || fail "bench/mixed.sh exited $rc"
# a second look at the report's count, against what the run must have proved: the warm-ups
# (one each), 3 + 2 PoSt jobs and a SnapDeals alone, at least one WinningPoSt, the WindowPoSt
# and the SnapDeals under load, verified by `cuzk verify` (>= 12); the warm-up and 2 x 6
# stream jobs self-checked (13)
line=$(grep -- '- proofs: ' report.txt) || fail "no proof count in the report"
read -r n v s f < <(sed -E 's/^- proofs: ([0-9]+) jobs, ([0-9]+) verified outside cuzkd, ([0-9]+) self-checked by cuzkd, ([0-9]+) failed.*/\1 \2 \3 \4/' <<<"$line")
[ "${f:-x}" = 0 ] || fail "report: $line"
[ "$v" -ge 12 ] && [ "$s" -eq 13 ] && [ "$n" -eq $((v + s)) ] || fail "report: $line"
echo "cuzkd_mixed: OK"
