#!/usr/bin/env bash
# cuzkd_fault.sh CUZKD CUZK FIXTURE WORKDIR — a fault injected into a worker fails or
# retries that job only, through the real daemon. cuzkd runs on two CPU "devices" (one
# worker each) with CUZK_PROVER_FAULT (src/prover/fault.c) set, once per case:
#   start:1@9        the target job's (2^9) first prove start fails: it is retried on the
#                    other device (the timeline shows its starts on both devices' tracks)
#                    and completes; the 2^8 jobs in flight beside it complete untouched;
#                    GetStatus counts one failed partition, metrics one retry, no job failed;
#   finalize:all@9   every finalize of the target fails: the job FAILED with the injected
#                    message after one retry; the other jobs complete; the daemon then
#                    serves a new job; GetStatus counts the failed job;
#   wrong-proof:1    the proof of a bellperson Groth16 job is corrupted before the engine's
#                    self-check: the check rejects it, the retry's proof is returned and
#                    `cuzk verify` accepts it (no unverified proof leaves the daemon);
#   wrong-proof:2    both attempts corrupted: the job FAILED ("does not verify"), no proof
#                    bytes; a following job completes.
# And outside the daemon: a malformed value is reported and ignored, and "start" fails a
# local `cuzk prove` with the injected message.
# Refusals as a client sees them: a tampered C1 output is INVALID_ARGUMENT (never
# INTERNAL, which clients retry); a journal that cannot be written (a full disk, made here
# with RLIMIT_FSIZE 0) is UNAVAILABLE; both are logged with the method and the peer.
# Every run ends with SIGTERM and exit 0 (under ASan: no leak). Exit 77 (skip) without a
# gRPC client. Seeds drawn here and printed (CUZK_TEST_SEED replays).
set -u
cuzkd=$1 cuzk=$2 fixture=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$4"
cuzkd_need_client
command -v python3 >/dev/null || fail "python3 is needed to read the timeline"

cuzkd_seed cuzkd_fault

# start FAULT: cuzkd on two CPU devices with CUZK_PROVER_FAULT=FAULT, a fresh log/timeline
start() {
    rm -f d.log timeline.json
    cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = ""
timeline = "$work/timeline.json"
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu", "cpu"]
gpu_workers_per_device = 1
[synthesis]
threads = 2
workers = 2
EOF
    CUZK_PROVER_FAULT=$1 cuzkd_start
    grep -q "CUZK_PROVER_FAULT=$1 armed" d.log || fail "the fault hook did not announce itself"
}
metric() { C metrics | sed -n "s/^$1 //p"; }
# the sum of the per-device "failed N" counts in `cuzk status`
dev_failed() { C status | sed -n 's/^device [0-9]*:.* failed \([0-9]*\) .*/\1/p' |
               awk '{s += $1} END {print s + 0}'; }
# expect_done ID PARTITIONS: COMPLETED with PARTITIONS x 192 proof bytes
expect_done() {
    local out
    out=$(C await "$1" --out "r-$1.bin") || fail "job $1: $out"
    case "$out" in *"COMPLETED"*"partitions $2  proof $(($2 * 192)) bytes"*) ;;
        *) fail "job $1: $out";; esac
}
# the distinct device tracks the target job's prove starts ran on (from the timeline)
start_devices() {
    python3 - "$1" <<'EOF'
import json, sys
# the streamed timeline: "[", then one event per line, each followed by a comma
ev = [json.loads(l.rstrip().rstrip(",")) for l in open("timeline.json") if l.startswith("{")]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M"}
devs = {names.get(e["tid"], "?").split(" worker")[0] for e in ev
        if e.get("name") == "prove_start" and e["args"].get("job") == sys.argv[1]}
print(len(devs), " ".join(sorted(devs)))
EOF
}

# ---- start:1@9 — retried on the other device, completes; the others are untouched -----------
start "start:1@9"
a=$(submit --synthetic 8 --partitions 3 --seed "$seed")
t=$(submit --synthetic 9 --partitions 1 --seed "$seed")
b=$(submit --synthetic 8 --partitions 3 --seed "$((seed + 1))")
c=$(submit --synthetic 8 --partitions 2 --seed "$((seed + 2))")
expect_done "$t" 1
expect_done "$a" 3
expect_done "$b" 3
expect_done "$c" 2
grep -q "job $t partition 0 failed on device [01] (prover start: injected fault" d.log ||
    fail "no retry logged for the target job"
grep -q "retrying on another device" d.log || fail "the retry did not move to the other device"
[ "$(grep -c 'failed on device' d.log)" = 1 ] || fail "a fault hit more than the target job"
out=$(C status) || fail "status"
case "$out" in *"proofs completed 4  failed 0  cancelled 0"*) ;; *) fail "status: $out";; esac
[ "$(dev_failed)" = 1 ] || fail "devices report $(dev_failed) failed partitions, not 1"
[ "$(metric cuzk_partitions_retried_total)" = 1 ] || fail "retries: $(C metrics | grep retried)"
cuzkd_stop
set -- $(start_devices "$t")
[ "$1" = 2 ] || fail "the target job's starts ran on $* (want both devices)"

# ---- finalize:all@9 — the target fails with its message; the others complete ------------------
start "finalize:all@9"
a=$(submit --synthetic 8 --partitions 3 --seed "$seed")
t=$(submit --synthetic 9 --partitions 1 --seed "$seed")
b=$(submit --synthetic 8 --partitions 2 --seed "$((seed + 1))")
out=$(C await "$t" --out t.bin) && fail "a job whose every finalize faulted exited 0: $out"
case "$out" in *"job $t: FAILED"*"error: prover finalize: injected fault (CUZK_PROVER_FAULT=finalize)"*"proof 0 bytes"*) ;;
    *) fail "target job: $out";; esac
[ -e t.bin ] && fail "a failed job wrote a proof file"
expect_done "$a" 3
expect_done "$b" 2
[ "$(grep -c "job $t partition 0 failed on device" d.log)" = 1 ] || fail "not retried once"
d=$(submit --synthetic 8 --partitions 1 --seed "$((seed + 3))")
expect_done "$d" 1
out=$(C status) || fail "status"
case "$out" in *"proofs completed 3  failed 1  cancelled 0"*) ;; *) fail "status: $out";; esac
[ "$(dev_failed)" = 2 ] || fail "devices report $(dev_failed) failed partitions, not 2"
cuzkd_stop

# ---- wrong-proof: the engine's self-check catches a corrupted proof -------------------------
mkdir -p fx && "$fixture" fx > fx.log 2>&1 || fail "fixture: $(cat fx.log)"
"$cuzk" setup --r1cs fx/c.r1cs --params fx/b.params --vk fx/b.vk --threads 2 >/dev/null 2>&1 ||
    fail "cuzk setup"
"$cuzk" prove --params fx/b.params --r1cs fx/c.r1cs --wtns fx/w.wtns --out fx/local.bin \
    --public fx/bpub.json --threads 2 >/dev/null 2>&1 || fail "local bellperson prove"
# the hook outside the daemon: a malformed value is reported and ignored; "start" fails a
# local `cuzk prove` with the injected error
lp() { "$cuzk" prove --params fx/b.params --r1cs fx/c.r1cs --wtns fx/w.wtns --out fx/l2.bin \
           --threads 2 2>&1; }
out=$(CUZK_PROVER_FAULT=start:zero lp) || fail "a malformed CUZK_PROVER_FAULT broke prove: $out"
case "$out" in *"ignoring CUZK_PROVER_FAULT=start:zero"*) ;; *) fail "not reported: $out";; esac
out=$(CUZK_PROVER_FAULT=start lp) && fail "prove with an injected start fault exited 0: $out"
case "$out" in *"injected fault (CUZK_PROVER_FAULT=start)"*) ;; *) fail "local fault: $out";; esac
bp() { submit --params "$work/fx/b.params" --r1cs "$work/fx/c.r1cs" --wtns "$work/fx/w.wtns"; }

start "wrong-proof:1"
t=$(bp)
expect_done "$t" 1
grep -q "job $t partition 0 failed on device [01] (.*does not verify" d.log ||
    fail "the corrupted proof was not rejected by the self-check"
out=$("$cuzk" verify --vk fx/b.vk --public fx/bpub.json --proof "r-$t.bin" 2>&1) ||
    fail "the proof returned after a rejected one does not verify: $out"
[ "$(dev_failed)" = 1 ] || fail "devices report $(dev_failed) failed partitions, not 1"
cuzkd_stop

start "wrong-proof:2"
t=$(bp)
out=$(C await "$t" --out t.bin) && fail "a job with two corrupted proofs exited 0: $out"
case "$out" in *"job $t: FAILED"*"does not verify"*"proof 0 bytes"*) ;;
    *) fail "job with corrupted proofs: $out";; esac
[ -e t.bin ] && fail "a failed job wrote a proof file"
t=$(bp)
expect_done "$t" 1
"$cuzk" verify --vk fx/b.vk --public fx/bpub.json --proof "r-$t.bin" >/dev/null 2>&1 ||
    fail "the following job's proof does not verify"
out=$(C status) || fail "status"
case "$out" in *"proofs completed 1  failed 1  cancelled 0"*) ;; *) fail "status: $out";; esac
cuzkd_stop
# ---- refusals: a tampered C1 output, a full disk under the journal ------------------------
"$cuzk" gen-c1 --sector-size 2KiB --seed "$seed" --out c1.json >/dev/null 2>&1 || fail "gen-c1"
sed -E '0,/"leaf":\[[0-9]+,/s//"leaf":[1,/' c1.json > bad-c1.json
cmp -s c1.json bad-c1.json && sed -E '0,/"leaf":\[[0-9]+,/s//"leaf":[2,/' c1.json > bad-c1.json
rm -f d.log
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu"]
[srs]
param_cache = ""
EOF
# Every write to a regular file fails with EFBIG (SIGXFSZ ignored), as on a full disk; the
# log goes through a pipe, which the limit does not touch.
(trap '' XFSZ; ulimit -f 0; exec "$cuzkd" --config d.toml) > >(cat >> d.log) 2>&1 &
pid=$!
cuzkd_wait "cuzkd serving on" 300
out=$(C submit --kind porep --vanilla bad-c1.json 2>&1) && fail "a tampered C1 was accepted: $out"
case "$out" in *"INVALID_ARGUMENT: C1 "*) ;; *) fail "tampered C1: $out";; esac
out=$(C submit --synthetic 8 2>&1) && fail "a job was accepted without a journal: $out"
case "$out" in *"UNAVAILABLE: journal: cannot write"*) ;; *) fail "full disk: $out";; esac
cuzkd_stop "full disk"
sleep 0.2 # the log pipe's last lines
grep -q "WARN  refused /cuzk.v1.ProvingEngine/SubmitProof from unix uid .*INVALID_ARGUMENT: C1" \
    d.log || fail "the tampered C1 was not logged"
grep -q "WARN  refused /cuzk.v1.ProvingEngine/SubmitProof from unix uid .*UNAVAILABLE: journal" \
    d.log || fail "the full disk was not logged"
echo "cuzkd_fault: all passed"
