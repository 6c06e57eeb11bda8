#!/usr/bin/env bash
# keys.sh — Filecoin keys as a storage provider holds them, at full size, on the GPU machine
# (issue 31 item 6). Each stage fits one 10-minute command of the lent device:
#   write   `cuzk setup --circuit $CID --seed $KEYS_SEED`: a DEV key (NOT Filecoin's trusted
#           setup) written in the official format under Filecoin's name into $WORK/params
#           (FIL_PROOFS_PARAMETER_CACHE's layout: .params, .vk, parameters.json with the
#           real BLAKE2b digests; the .params streamed to disk once, ~47 GB for porep-32g);
#           skipped when the files and their manifest entries are there (KEYS_REWRITE=1
#           writes again). Also makes the C1 input (gen-c1, SYNTHETIC TEST DATA).
#   cold    the cold start: sync, drop the page cache (root only; a failure is noted),
#           forget any remembered digest (the sidecar .NAME.cuzk-digest: a box fresh from
#           paramfetch has none; KEYS_SIDECAR=keep keeps it), start cuzkd with
#           srs.param_cache = $WORK/params and NO dev_key_dir, and time daemon start ->
#           first PoRep proof answered (`cuzk remote-prove`); then cuzkd's peak RSS, the
#           srs/params log lines (decode, digest deferred or not), the wait for the
#           background digest's verdict, and `cuzk verify-seal --params-dir` on the proof.
#   tiers   the same daemon setup plus dev_key_dir for the PoSt keys (a 64 GiB disk holds
#           one 47 GB .params, not three): a PoRep, a WindowPoSt and a WinningPoSt job of
#           $KEYS_SIZE submitted at once; each job's seconds, the key table of `cuzk status`
#           after, peak RSS, and the srs lines (loads, evictions, tiers).
# Prints one summary line a stage (also appended to $WORK/keys.tsv).
#   usage: bash bench/keys.sh [stage...]      (default: write cold)
#   env:   KEYS_SIZE   sector size (default 32GiB; 2KiB or 8MiB for a run here on CPU)
#          KEYS_SEED   the dev key's seed (default 1)
#          DEVICES     cuzkd's devices (default gpu:0; cpu here)
#          BIN, WORK, OUT, E2E_THREADS   as bench/e2e.sh (WORK default ./e2e-work: its
#                      csr/ circuit cache and C1 input are shared with e2e.sh)
#          CUZK_PARAM_DIGEST_DEFER_ABOVE  passed to cuzkd (the trust policy's size floor for
#                      a deferred digest; kind_fil_load.c)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/out}
BIN=${BIN:-build}
WORK=${WORK:-$ROOT/e2e-work}
SIZE=${KEYS_SIZE:-32GiB}
SEED=${KEYS_SEED:-1}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
case $WORK in /*) ;; *) WORK=$ROOT/$WORK ;; esac
[ -d "$BIN/lib" ] && export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CUZK=$BIN/cuzk
CUZKD=$BIN/cuzkd
PDIR=$WORK/params
mkdir -p "$OUT" "$WORK/csr" "$WORK/devkeys" "$PDIR"
TSV=$WORK/keys.tsv
log() { printf '\n==> %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

case $SIZE in 2KiB) T=2k ;; 8MiB) T=8m ;; 512MiB) T=512m ;; 32GiB) T=32g ;; 64GiB) T=64g ;;
  *) echo "KEYS_SIZE $SIZE: want 2KiB 8MiB 512MiB 32GiB 64GiB" >&2; exit 2 ;; esac
CID=porep-$T
IN=$WORK/in-porep-$SIZE.json

# the official name of this size's PoRep .params (cuzk names it; empty before the write)
pfile() {
  local f
  for f in "$PDIR"/v28-stacked-proof-of-replication-*.params; do
    [ -e "$f" ] || continue
    grep -q "\"$(basename "$f")\"" "$PDIR/parameters.json" 2>/dev/null &&
      grep -A3 "\"$(basename "$f")\"" "$PDIR/parameters.json" | grep -q "\"sector_size\": $(bytes_of "$SIZE")" &&
      { echo "$f"; return; }
  done
}
bytes_of() { case $1 in 2KiB) echo 2048 ;; 8MiB) echo 8388608 ;; 512MiB) echo 536870912 ;;
  32GiB) echo 34359738368 ;; 64GiB) echo 68719476736 ;; esac; }

free_gib() { df -Pk "$PDIR" | awk 'NR == 2 { printf "%d", $4 / 1048576 }'; }

# The .params needs its size free (44.2 GiB for porep-32g: 47.4 GB) plus some slack; the
# 64 GiB disk also holds e2e.sh's circuit caches (wpost-32g's is 11.4 GiB), so the other
# circuits' caches go first, as e2e.sh's make_room does, keeping this one's.
make_room() {
  local need f
  case $SIZE in 32GiB) need=46 ;; 64GiB) need=96 ;; *) need=3 ;; esac
  for f in "$WORK"/csr/*.csr; do
    [ "$(free_gib)" -ge "$need" ] && return 0
    [ -e "$f" ] || continue
    [ "$(basename "$f" .csr)" = "$CID" ] && continue
    log "removing $f (free disk $(free_gib) GiB, the .params needs $need)"
    rm -f "$f" "$f.ok"
  done
  [ "$(free_gib)" -ge "$need" ] || { echo "write: $(free_gib) GiB free, need $need" >&2; return 1; }
}

stage_write() {
  local f t0 rc=0
  f=$(pfile)
  if [ -n "$f" ] && [ "${KEYS_REWRITE:-0}" != 1 ] && [ -s "${f%.params}.vk" ]; then
    log "write: $f is there (KEYS_REWRITE=1 writes again)"
  else
    rm -f "$PDIR"/.v28-*.params.* # a killed write's temporary
    make_room || return 1
    log "write: $CID from seed $SEED into $PDIR (free disk $(df -Pk "$PDIR" | awk 'NR==2{printf "%.0f", $4/1048576}') GiB)"
    t0=$(now)
    "$CUZK" setup --circuit "$CID" --seed "$SEED" --param-dir "$PDIR" --csr-cache "$WORK/csr" \
      --devices "${DEVICES:-gpu:0}" >"$OUT/keys-write.txt" 2>"$OUT/keys-write.log" || rc=1
    tail -5 "$OUT/keys-write.log" >&2
    cat "$OUT/keys-write.txt" >&2
    f=$(pfile)
    echo "write: ${f:-FAILED} in $(since "$t0") s" >&2
  fi
  [ -s "$IN" ] || "$CUZK" gen-c1 --sector-size "$SIZE" --out "$IN" >&2 || rc=1
  local sz=NA
  [ -n "$f" ] && sz=$(stat -c %s "$f" | awk '{ printf "%.2f", $1 / 1073741824 }')
  printf 'write\t%s\t%s GiB\t%s\t%s\n' "$CID" "$sz" "$(awk '{print $NF, $(NF-1), $(NF-2)}' "$OUT/keys-write.txt" 2>/dev/null)" \
    "$([ $rc = 0 ] && echo ok || echo FAILED)" | tee -a "$TSV"
  return $rc
}

start_daemon() { # stage devkeys(0/1)
  ADDR="unix://$WORK/keys.sock"
  DLOG=$OUT/cuzkd-keys-$1.log
  rm -f "$WORK/keys.sock"
  rm -rf "$WORK/keys-state"
  local dk=""
  [ "$2" = 1 ] && dk="$WORK/devkeys"
  cat >"$WORK/keys.toml" <<EOF
[daemon]
listen = "$ADDR"
state_dir = "$WORK/keys-state"
[gpus]
devices = ["${DEVICES:-gpu:0}"]
[synthesis]
threads = ${E2E_THREADS:-0}
[srs]
param_cache = "$PDIR"
dev_key_dir = "$dk"
csr_cache_dir = "$WORK/csr"
EOF
  "$CUZKD" --config "$WORK/keys.toml" >"$DLOG" 2>&1 &
  DAEMON=$!
  local i
  for i in $(seq 1 300); do
    grep -q "cuzkd serving on" "$DLOG" && return 0
    kill -0 "$DAEMON" 2>/dev/null || break
    sleep 0.2
  done
  echo "cuzkd did not start:" >&2
  tail -20 "$DLOG" >&2
  return 1
}

stop_daemon() {
  kill -TERM "$DAEMON" 2>/dev/null
  wait "$DAEMON" 2>/dev/null
}

rss_peak() { awk '/VmHWM/ { printf "%.1f", $2 / 1048576 }' "/proc/$DAEMON/status" 2>/dev/null || echo NA; }

# The anonymous part of cuzkd's RSS, its peak polled every 0.5 s: VmHWM also counts the
# .params' clean mapped pages (47 GB for porep-32g, touched once by the decode; the kernel
# can drop them), RssAnon is the memory the key really takes.
start_anon_poll() {
  ANON_MAX=$WORK/anon-max
  echo 0 >"$ANON_MAX"
  (
    m=0
    while kill -0 "$DAEMON" 2>/dev/null; do
      a=$(awk '/^RssAnon/ { print $2 }' "/proc/$DAEMON/status" 2>/dev/null)
      [ -n "$a" ] && [ "$a" -gt "$m" ] && m=$a && echo "$m" >"$ANON_MAX"
      sleep 0.5
    done
  ) &
  ANON_POLL=$!
}
anon_peak() { awk '{ printf "%.1f", $1 / 1048576 }' "$ANON_MAX"; }

stage_cold() {
  local f rc=0 t0 first dropped=no digest=NA ok=FAILED rss
  f=$(pfile)
  [ -n "$f" ] || { echo "cold: no $CID .params in $PDIR: run the write stage" >&2; return 1; }
  [ -s "$IN" ] || "$CUZK" gen-c1 --sector-size "$SIZE" --out "$IN" >&2 || return 1
  [ "${KEYS_SIDECAR:-drop}" = keep ] || rm -f "$(dirname "$f")/.$(basename "$f").cuzk-digest" \
    "$(dirname "$f")/.$(basename "${f%.params}").vk.cuzk-digest"
  sync
  if echo 3 2>/dev/null >/proc/sys/vm/drop_caches; then dropped=yes; fi
  log "cold: $(basename "$f") ($(stat -c %s "$f") bytes), page cache dropped: $dropped"
  t0=$(now)
  start_daemon cold 0 || return 1
  start_anon_poll
  "$CUZK" remote-prove --addr "$ADDR" --kind porep --vanilla "$IN" \
    --out "$WORK/proof-keys-cold.bin" >"$OUT/keys-cold.txt" 2>&1 || rc=1
  first=$(since "$t0")
  rss="$(rss_peak) (anon $(anon_peak))"
  cat "$OUT/keys-cold.txt" >&2
  # the background digest's verdict (deferred: up to ~80 s more for 47 GB on one core)
  local i
  for i in $(seq 1 600); do
    grep -qE "params: v28-stacked.*\.params: digest .* matches|DEFERRED DIGEST FAILED" "$DLOG" && break
    grep -q "checked in the background" "$DLOG" || break
    sleep 0.2
  done
  digest=$(grep -E "v28-stacked.*\.params: digest|DEFERRED DIGEST" "$DLOG" | tail -1 |
    sed -E 's/.*(matches parameters.json.*|DEFERRED DIGEST FAILED).*/\1/' | cut -c1-80)
  grep -q "checked in the background" "$DLOG" && digest="deferred (background); $digest"
  grep -E "params:|srs:|circuit|upload|resident" "$DLOG" | tail -14 >&2
  stop_daemon
  wait "$ANON_POLL" 2>/dev/null
  [ $rc = 0 ] && ok=$("$CUZK" verify-seal --c1 "$IN" --proof "$WORK/proof-keys-cold.bin" \
    --params-dir "$PDIR" 2>&1 | tail -1)
  echo "verify-seal: $ok" >&2
  printf 'cold\t%s\tfirst proof %s s from daemon start\tpeak RSS %s GiB\tcache dropped %s\tdigest: %s\tverify: %s\n' \
    "$CID" "$first" "$rss" "$dropped" "$digest" "$ok" | tee -a "$TSV"
  return $rc
}

stage_tiers() {
  local rc=0 k id t0 kinds=(porep window-post winning-post) ins=() ids=()
  [ -n "$(pfile)" ] || { echo "tiers: no $CID .params: run the write stage" >&2; return 1; }
  for k in window-post winning-post; do
    local f=$WORK/in-$k-$SIZE.json
    [ -s "$f" ] || "$CUZK" gen-vanilla --kind "$k" --sector-size "$SIZE" --out "$f" >&2 || return 1
  done
  ins=("$IN" "$WORK/in-window-post-$SIZE.json" "$WORK/in-winning-post-$SIZE.json")
  start_daemon tiers 1 || return 1
  start_anon_poll
  t0=$(now)
  for i in 0 1 2; do
    id=$("$CUZK" submit --addr "$ADDR" --kind "${kinds[$i]}" --vanilla "${ins[$i]}" \
      --request-id "keys-tiers-$i-$$") || { rc=1; continue; }
    ids+=("$id")
  done
  # each job's own submit -> proof (cuzkd's total): awaited one after another, a later
  # job's wall clock here would include the earlier ones' waits
  local times="" tot
  : >"$OUT/keys-tiers.txt"
  for i in "${!ids[@]}"; do
    "$CUZK" await "${ids[$i]}" --addr "$ADDR" --out "$WORK/proof-keys-tiers-$i.bin" \
      >"$OUT/keys-tiers-$i.txt" 2>&1 || rc=1
    cat "$OUT/keys-tiers-$i.txt" >>"$OUT/keys-tiers.txt"
    tot=$(sed -n 's/.*timings ms:.* total \([0-9]*\).*/\1/p' "$OUT/keys-tiers-$i.txt")
    times="$times ${kinds[$i]}=$(awk -v t="${tot:-NaN}" 'BEGIN { printf "%.1f", t / 1000 }')s"
  done
  times="$times (all answered $(since "$t0") s after the first submit)"
  "$CUZK" status --addr "$ADDR" >"$OUT/keys-tiers-status.txt" 2>&1
  grep -iE "key|srs|tier|hot|warm|cold|budget" "$OUT/keys-tiers-status.txt" | head -20 >&2
  local rss
  rss="$(rss_peak) (anon $(anon_peak))"
  grep -E "params:|srs:|evict|DEV KEY" "$DLOG" | tail -20 >&2
  stop_daemon
  wait "$ANON_POLL" 2>/dev/null
  printf 'tiers\t%s\t%s\tpeak RSS %s GiB\t%s\n' "$SIZE" "${times# }" "$rss" \
    "$([ $rc = 0 ] && echo ok || echo FAILED)" | tee -a "$TSV"
  return $rc
}

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(write cold)
rc=0
for s in "${stages[@]}"; do
  case $s in
    write) stage_write || rc=1 ;;
    cold) stage_cold || rc=1 ;;
    tiers) stage_tiers || rc=1 ;;
    *) echo "unknown stage $s (write cold tiers)" >&2; rc=2 ;;
  esac
done
exit $rc
