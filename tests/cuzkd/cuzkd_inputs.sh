#!/usr/bin/env bash
# cuzkd_inputs.sh CUZKD CUZK FIXTURE WORKDIR — what a client may hand the daemon as inputs,
# through the CLI client against the real daemon (CPU, one synthesis worker, a journal):
#   - a FIFO as an input path (`mkfifo f; cuzk submit --params .. --r1cs .. --wtns f`) is
#     refused at submit with INVALID_ARGUMENT naming it, so no synthesis worker ever sits in
#     open() waiting for a writer; so is a directory; the daemon then still proves (a
#     Groth16 job on the fixture circuit completes, its proof verifies) and stops on SIGTERM.
# Exit 77 (skip) when the build has no gRPC client.
set -u
cuzkd=$1 cuzk=$2 fixture=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$4"
cuzkd_need_client
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
[memory]
total_budget = "1GiB"
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
[synthesis]
threads = 2
workers = 1
EOF
mkdir -p fx && "$fixture" fx > fx.log 2>&1 || fail "fixture: $(cat fx.log)"
"$cuzk" setup --r1cs fx/c.r1cs --params fx/b.params --vk fx/b.vk --threads 2 >/dev/null 2>&1 ||
    fail "cuzk setup"
"$cuzk" prove --params fx/b.params --r1cs fx/c.r1cs --wtns fx/w.wtns --out fx/local.bin \
    --public fx/pub.json --threads 2 >/dev/null 2>&1 || fail "local prove"
cuzkd_start

# ---- a FIFO and a directory as inputs: refused at submit ------------------------------------
mkfifo fx/f.fifo || fail "mkfifo"
job=(--params "$work/fx/b.params" --r1cs "$work/fx/c.r1cs")
out=$(C submit "${job[@]}" --wtns "$work/fx/f.fifo" 2>&1) && fail "a FIFO was accepted: $out"
case "$out" in *"INVALID_ARGUMENT"*"wtns file $work/fx/f.fifo is a FIFO"*) ;;
    *) fail "FIFO refusal: $out";; esac
out=$(C submit --params "$work/fx" --r1cs "$work/fx/c.r1cs" --wtns "$work/fx/w.wtns" 2>&1) &&
    fail "a directory was accepted: $out"
case "$out" in *"INVALID_ARGUMENT"*"params file $work/fx is a directory"*) ;;
    *) fail "directory refusal: $out";; esac

# ---- the only synthesis worker is free: a job completes and verifies -------------------------
id=$(submit "${job[@]}" --wtns "$work/fx/w.wtns")
out=$(C await "$id" --wait-ms 60000 --out p.bin 2>&1) || fail "job after the refusals: $out"
out=$("$cuzk" verify --vk fx/b.vk --public fx/pub.json --proof p.bin 2>&1) ||
    fail "the daemon's proof does not verify: $out"

# ---- SIGTERM stops it (a worker blocked in open() kept it up for good) ----------------------
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "cuzkd still running 10 s after SIGTERM"
wait "$pid"; rc=$?
pid=
[ $rc -eq 0 ] || fail "exit $rc after SIGTERM"
echo "cuzkd_inputs: all passed"
