#!/usr/bin/env bash
# cuzkd_e2e.sh CUZKD CUZK FIXTURE WORKDIR — the real daemon driven by the CLI client: cuzkd
# starts on a temporary unix socket with a temporary journal and a small CPU config; then
#   a synthetic job (dev setup: real proof bytes, 192 per partition) submitted and awaited;
#   a bellperson and a snarkjs Groth16 job on the CLI fixture's circuit, whose returned
#     proofs `cuzk verify` accepts (keys and public inputs made locally by cuzk setup/prove);
#   a queued job cancelled behind a long one (await reports CANCELLED), the long one too;
#   status and metrics printed with the numbers of what ran;
#   SIGTERM: exit 0, "cuzkd stopped", the socket file removed;
#   restart: jobs submitted, cuzkd killed with SIGKILL at once, started again on the same
#     state directory: every accepted job completes (the journal).
# Exit 77 (skip) when the build has no gRPC client. Random seeds: the fixture prints its
# own (CUZK_TEST_SEED replays); the synthetic seeds are drawn here and printed.
set -u
cuzkd=$1 cuzk=$2 fixture=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$4"
cuzkd_need_client
cuzkd_seed cuzkd_e2e
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
timeline = "$work/timeline.json"
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
[synthesis]
threads = 2
workers = 1
EOF

size() { stat -c %s "$1"; }

mkdir -p fx && "$fixture" fx > fx.log 2>&1 || fail "fixture: $(cat fx.log)"
cat fx.log
cuzkd_start 0

# ---- a synthetic job: COMPLETED, 3 x 192 proof bytes ---------------------------------------
id=$(submit --synthetic 8 --partitions 3 --seed "$seed")
[ -n "$id" ] || fail "no job id"
out=$(C await "$id" --out syn.bin) || fail "await synthetic: $out"
echo "$out"
case "$out" in *"job $id: COMPLETED"*"partitions 3  proof 576 bytes"*) ;;
    *) fail "synthetic result: $out";; esac
[ "$(size syn.bin)" = 576 ] || fail "syn.bin is $(size syn.bin) bytes"

# ---- Groth16 jobs on the fixture circuit, verified by `cuzk verify` --------------------------
"$cuzk" setup --r1cs fx/c.r1cs --params fx/b.params --vk fx/b.vk --threads 2 >/dev/null 2>&1 ||
    fail "cuzk setup"
"$cuzk" prove --params fx/b.params --r1cs fx/c.r1cs --wtns fx/w.wtns --out fx/local.bin \
    --public fx/bpub.json --threads 2 >/dev/null 2>&1 || fail "local bellperson prove"
id=$(submit --params "$work/fx/b.params" --r1cs "$work/fx/c.r1cs" --wtns "$work/fx/w.wtns")
out=$(C await "$id" --out bp.bin) || fail "await bellperson job: $out"
[ "$(size bp.bin)" = 192 ] || fail "bp.bin is $(size bp.bin) bytes"
out=$("$cuzk" verify --vk fx/b.vk --public fx/bpub.json --proof bp.bin 2>&1) ||
    fail "the daemon's bellperson proof does not verify: $out"
# the same proof checked against another public input must fail (the check can fail)
sed 's/"\([0-9]\)/"1\1/' fx/bpub.json > fx/bpub_bad.json
cmp -s fx/bpub.json fx/bpub_bad.json && fail "could not alter the public inputs"
"$cuzk" verify --vk fx/b.vk --public fx/bpub_bad.json --proof bp.bin >/dev/null 2>&1 &&
    fail "a proof verified against wrong public inputs"

done_jobs=2
if [ -f fx/vk.json ]; then
    done_jobs=3
    "$cuzk" prove --zkey fx/k.zkey --wtns fx/w.wtns --proof fx/p.json --public fx/pub.json \
        --threads 2 >/dev/null 2>&1 || fail "local snarkjs prove"
    id=$(submit --zkey fx/k.zkey --wtns fx/w.wtns --send-files)
    out=$(C await "$id" --out zk.bin) || fail "await zkey job: $out"
    [ "$(size zk.bin)" = 192 ] || fail "zk.bin is $(size zk.bin) bytes"
    out=$("$cuzk" verify --vk fx/vk.json --public fx/pub.json --proof zk.bin 2>&1) ||
        fail "the daemon's snarkjs-key proof does not verify: $out"
fi

# ---- cancel: a job queued behind a long one ------------------------------------------------
long=$(submit --synthetic 16 --partitions 16 --seed "$seed")
queued=$(submit --synthetic 9 --partitions 2 --priority low)
out=$(C cancel "$queued" 2>&1) || fail "cancel queued: $out"
case "$out" in *"cancelled $queued"*) ;; *) fail "cancel output: $out";; esac
out=$(C await "$queued" 2>&1) && fail "await of a cancelled job exited 0: $out"
case "$out" in *"job $queued: CANCELLED"*) ;; *) fail "cancelled job: $out";; esac

# ---- status and metrics ---------------------------------------------------------------------
out=$(C status 2>&1) || fail "status: $out"
echo "$out"
case "$out" in *"proofs completed $done_jobs "*"cancelled 1"*) ;;
    *) fail "status counts: $out";; esac
case "$out" in *"device 0: cpu"*) ;; *) fail "status device: $out";; esac
out=$(C cancel "$long" 2>&1) || fail "cancel long job: $out"
out=$(C metrics 2>&1) || fail "metrics: $out"
echo "$out" | grep -q '^# TYPE ' || fail "metrics are not Prometheus text: $out"
echo "$out" | grep -Eq '^cuzk_[a-z_]*(\{[^}]*\})? [0-9]' || fail "no cuzk_ metric: $out"

# ---- SIGTERM: clean exit --------------------------------------------------------------------
cuzkd_stop
grep -q "cuzkd stopped" d.log || fail "no clean stop"
[ -e cuzk.sock ] && fail "socket file left behind"
[ -s timeline.json ] || fail "no timeline written"

# ---- kill -9 while working, restart on the same journal: nothing accepted is lost ----------
cuzkd_start 1
ids=()
for p in 2 1 3; do
    ids+=("$(submit --synthetic 10 --partitions $p --seed $((seed + p)))")
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
cuzkd_start 2
# the jobs were still queued or running when killed: the restart resumes them
grep "journal: resumed" d.log | tail -n1 | grep -q "resumed [1-9]" ||
    fail "no job resumed after kill -9: $(grep 'journal:' d.log | tail -n1)"
i=0
for p in 2 1 3; do
    id=${ids[$i]}
    i=$((i + 1))
    out=$(C await "$id" --out r.bin) || fail "job $id after the restart: $out"
    case "$out" in *"COMPLETED"*"partitions $p  proof $((p * 192)) bytes"*) ;;
        *) fail "job $id after the restart: $out";; esac
done
cuzkd_stop "second run"
echo "cuzkd_e2e: all passed"
