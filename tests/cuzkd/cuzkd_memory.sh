#!/usr/bin/env bash
# cuzkd_memory.sh CUZKD CUZK WORKDIR [--no-rss] — the memory budget is never exceeded under
# load. cuzkd runs on the CPU with a small budget (BUDGET_MIB) that binds: a partition's
# admission estimate is ~64 MiB + 900 n bytes (src/engine/kind_synthetic.c), so 96 MiB holds the
# key and one partition's estimate beside the shrunk reservations of synthesized ones —
# far fewer than the pipeline's slots (2 synthesis workers, a device queue of 4, 2 device
# workers, 2 finalizers). JOBS synthetic jobs of PARTS partitions at 2^LOG2N (dev-setup
# key: every proof self-checked) are submitted at once; while they run
#   - the daemon's VmRSS (/proc/PID/status) is sampled every 50 ms, and VmHWM read at the
#     end (the kernel's own peak, which no sampling gap can miss);
#   - the engine's reserved bytes (GetMetrics cuzk_memory_bytes{use="reserved"}) are polled.
# Checks: every job COMPLETED with its proof bytes; the engine's reserved bytes and its
# recorded peak never exceed the budget, and the peak came within one partition estimate of
# it (the budget is what held admission back: with a budget of 2 GiB this check fails, so
# the test measures something); and
#     peak RSS (sampled and VmHWM) <= budget + OVERHEAD,
#     OVERHEAD = idle RSS + 3 x key + 24 MiB,
# the memory the budget does not cover by design:
#   idle RSS   measured after start, before any job: code, the CPU pool's and the engine's
#              threads, the gRPC server (~5 MiB Release);
#   3 x key    the key's load-time transient: the budget charges a key as its decoded size
#              (cuzk_memory_bytes{use="hot"}, read at the end), but the dev setup that makes
#              it holds the QAP evaluations and the point tables being built beside it;
#   24 MiB     the allocator: glibc keeps freed working sets in its per-thread arenas for
#              reuse (about one ~3 MiB partition per arena for ~8 busy threads), and the
#              RPC buffers and results of JOBS concurrent calls (< 1 MiB).
# Measured on the dev box (Release, 2^12, 20 x 4): idle 5 MiB, peak RSS ~33 MiB against a
# bound of ~131 MiB; with the budget at 2 GiB the peak is ~58 MiB. At these sizes the
# engine's estimates are far above the real working sets, so the RSS bound catches gross
# excess (a working set or key kept per job: 80 partitions x ~1.5 MiB) rather than fine drift.
# --no-rss (the ASan stage: shadow memory and the quarantine of freed blocks inflate RSS by
# design) keeps every check but the RSS bound. Exit 77 without a gRPC client.
set -u
cuzkd=$1 cuzk=$2 work=$3 no_rss=${4:-}
JOBS=${JOBS:-20} PARTS=${PARTS:-4} LOG2N=${LOG2N:-12} BUDGET_MIB=${BUDGET_MIB:-96}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$work"
cuzkd_need_client
cuzkd_seed cuzkd_memory "; $JOBS jobs x $PARTS partitions at 2^$LOG2N, budget $BUDGET_MIB MiB"
budget=$((BUDGET_MIB << 20))
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = ""
[memory]
total_budget = "${BUDGET_MIB}MiB"
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 2
[synthesis]
threads = 2
workers = 2
EOF
cuzkd_start
kb() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$pid/status"; }
reserved() { C metrics | sed -n "s/^cuzk_memory_bytes{use=\"$1\"} //p"; }

C status > /dev/null || fail "status"
sleep 0.3
idle_kb=$(kb VmRSS)
echo "idle RSS $((idle_kb / 1024)) MiB"

# samplers: VmRSS every 50 ms, the engine's reservation every 200 ms (a client call each)
( while kill -0 "$pid" 2>/dev/null; do kb VmRSS; sleep 0.05; done ) > rss.txt 2>/dev/null &
sampler=$!
( while kill -0 "$pid" 2>/dev/null; do reserved reserved; sleep 0.2; done ) > reserved.txt 2>/dev/null &
poller=$!
extra_pids="$sampler $poller"

ids=()
for i in $(seq 1 "$JOBS"); do
    ids+=("$(C submit --synthetic "$LOG2N" --partitions "$PARTS" --seed "$seed" 2>/dev/null)") ||
        fail "submit $i"
done
for id in "${ids[@]}"; do
    out=$(C await "$id") || fail "job $id: $out"
    case "$out" in *"COMPLETED"*"partitions $PARTS  proof $((PARTS * 192)) bytes"*) ;;
        *) fail "job $id: $out";; esac
done
hwm_kb=$(kb VmHWM)
peak=$(reserved peak)
hot=$(reserved hot)
kill "$sampler" "$poller" 2>/dev/null
wait "$sampler" "$poller" 2>/dev/null
extra_pids=

samples=$(wc -l < rss.txt)
peak_kb=$(sort -n rss.txt | tail -n1)
max_res=$(sort -n reserved.txt | tail -n1)
overhead_kb=$((idle_kb + 3 * hot / 1024 + 24 * 1024))
echo "RSS: idle $((idle_kb / 1024)) MiB, sampled peak $((peak_kb / 1024)) MiB ($samples samples)," \
     "VmHWM $((hwm_kb / 1024)) MiB; engine: reserved max $((max_res >> 20)) MiB" \
     "($(wc -l < reserved.txt) polls), recorded peak $((peak >> 20)) MiB, budget $BUDGET_MIB MiB; key $((hot >> 10)) KiB," \
     "overhead allowed $((overhead_kb / 1024)) MiB"
[ "$samples" -ge 10 ] || fail "only $samples RSS samples"
[ -n "$peak" ] && [ "$peak" -le "$budget" ] || fail "engine peak $peak > budget $budget"
[ "$max_res" -le "$budget" ] || fail "engine reserved $max_res > budget $budget"
# the budget bound admission: the peak came within one partition's estimate of it
est=$(( (900 << LOG2N) + (64 << 20) ))
[ "$peak" -gt $((budget - est)) ] ||
    fail "the engine peaked at $((peak >> 20)) MiB: the budget never held admission back"
if [ "$no_rss" != --no-rss ]; then
    limit_kb=$((BUDGET_MIB * 1024 + overhead_kb))
    [ "$peak_kb" -le "$limit_kb" ] ||
        fail "sampled RSS peak $((peak_kb / 1024)) MiB > budget + overhead $((limit_kb / 1024)) MiB"
    [ "$hwm_kb" -le "$limit_kb" ] ||
        fail "VmHWM $((hwm_kb / 1024)) MiB > budget + overhead $((limit_kb / 1024)) MiB"
fi
cuzkd_stop
echo "cuzkd_memory: all passed"
