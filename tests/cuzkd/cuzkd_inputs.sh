#!/usr/bin/env bash
# cuzkd_inputs.sh CUZKD CUZK FIXTURE WORKDIR — what a client may hand the daemon as inputs,
# through the CLI client against the real daemon (CPU, one synthesis worker, a journal):
#   - a FIFO as an input path (`mkfifo f; cuzk submit --params .. --r1cs .. --wtns f`) is
#     refused at submit with INVALID_ARGUMENT naming it, so no synthesis worker ever sits in
#     open() waiting for a writer (and with --send-files the client refuses to read it
#     rather than waiting in open() itself); so is a directory; the daemon then still proves (a
#     Groth16 job on the fixture circuit completes, its proof verifies) and stops on SIGTERM;
#     the daemon runs on the smallest budget it takes (64 MiB), in which that 15-constraint
#     circuit must fit;
#   - `cuzk submit --sector-size` takes sizes as gen-c1 does (32GiB, 32 GiB, bytes): a 2 KiB
#     C1 output (cuzk gen-c1) submitted as 32GiB is refused by the daemon for its size, not
#     by the client as "not a number";
#   - a registered proof that the kind and size do not name (--registered-proof 999, or 8 =
#     StackedDrg32GiBV1_1 for a 2 KiB C1) is refused with INVALID_ARGUMENT; 5
#     (StackedDrg2KiBV1_1) gets on to the key (none here: NOT_FOUND naming its file; the
#     parameter directory's name is short because with a long one, as under the build tree,
#     the client prints "NOT_FOUND: (no message)", a server-layer matter of its own).
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
total_budget = "64MiB" # the smallest budget cuzkd takes: the demo circuit must fit
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
[synthesis]
threads = 2
workers = 1
[srs]
param_cache = "/nonexistent/cuzk-params"
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
# the server refuses it before the engine sees it, with the one message every unusable file
# gets (missing, unreadable or not a regular file look alike to a client: issue 21 item 4);
# the engine's own refusal naming the FIFO is test_engine_groth16's
case "$out" in *"NOT_FOUND"*"wtns_path $work/fx/f.fifo: no such file, or not a regular file"*) ;;
    *) fail "FIFO refusal: $out";; esac
out=$(timeout 10 "$cuzk" submit --addr "$addr" "${job[@]}" --wtns "$work/fx/f.fifo" --send-files \
      2>&1) && fail "the client sent a FIFO: $out"
case "$out" in *"fx/f.fifo: not a regular file"*) ;; *) fail "client FIFO refusal: $out";; esac
out=$(C submit --params "$work/fx" --r1cs "$work/fx/c.r1cs" --wtns "$work/fx/w.wtns" 2>&1) &&
    fail "a directory was accepted: $out"
case "$out" in *"NOT_FOUND"*"params_path $work/fx: no such file, or not a regular file"*) ;;
    *) fail "directory refusal: $out";; esac

# ---- the only synthesis worker is free: a job completes and verifies -------------------------
id=$(submit "${job[@]}" --wtns "$work/fx/w.wtns")
out=$(C await "$id" --wait-ms 60000 --out p.bin 2>&1) || fail "job after the refusals: $out"
out=$("$cuzk" verify --vk fx/b.vk --public fx/pub.json --proof p.bin 2>&1) ||
    fail "the daemon's proof does not verify: $out"

# ---- sector sizes as every command takes them; registered proofs the size names ------------
"$cuzk" gen-c1 --sector-size 2KiB --seed "$RANDOM" --out c1.json > /dev/null 2>&1 || fail "gen-c1"
porep=(--kind porep --vanilla c1.json)
for size in 32GiB "32 GiB" 34359738368; do
    out=$(C submit "${porep[@]}" --sector-size "$size" 2>&1) && fail "32 GiB accepted: $out"
    case "$out" in *"INVALID_ARGUMENT"*"sector_size 34359738368 but the C1 output is"*) ;;
        *) fail "--sector-size $size: $out";; esac
done
out=$(C submit "${porep[@]}" --sector-size 2KiB --registered-proof 999 2>&1) &&
    fail "registered proof 999 accepted: $out"
case "$out" in *"INVALID_ARGUMENT"*"registered_proof 999 is no registered seal proof"*) ;;
    *) fail "--registered-proof 999: $out";; esac
out=$(C submit "${porep[@]}" --registered-proof 8 2>&1) && fail "registered proof 8 accepted: $out"
case "$out" in *"INVALID_ARGUMENT"*"registered_proof 8 is StackedDrg32GiBV1_1"*) ;;
    *) fail "--registered-proof 8: $out";; esac
out=$(C submit "${porep[@]}" --sector-size 2048 --registered-proof 5 2>&1) &&
    fail "a 2 KiB PoRep job was accepted without a key: $out"
case "$out" in *"NOT_FOUND"*".params not found"*) ;; *) fail "--registered-proof 5: $out";; esac

# ---- SIGTERM stops it (a worker blocked in open() kept it up for good) ----------------------
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "cuzkd still running 10 s after SIGTERM"
wait "$pid"; rc=$?
pid=
[ $rc -eq 0 ] || fail "exit $rc after SIGTERM"
echo "cuzkd_inputs: all passed"
