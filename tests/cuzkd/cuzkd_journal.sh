#!/usr/bin/env bash
# cuzkd_journal.sh CUZKD CUZK FIXTURE WORKDIR — the daemon under Curio's habits, through the
# CLI client against the real daemon (CPU, a journal in the work directory):
#   - retries with one request_id: a job that FAILED is not replayed (the retry, its witness
#     file fixed meanwhile, is a new job that completes and verifies); a different request
#     under the id of a running job is refused with INVALID_ARGUMENT; the same request joins;
#   - a failed --send-files job's request file loses its payload when the job fails;
#   - a damaged result: one proof byte of <id>.done flipped while cuzkd is stopped; after the
#     restart `cuzk await` still answers COMPLETED with a proof `cuzk verify` accepts (the
#     job is proved again; the damaged record is kept as <id>.done.bad, and logged);
#   - a <id>.req.tmp left by a kill -9 is removed at the next start;
#   - a sound result is verified against its key and witness at the restart and served
#     byte for byte; another job's <id>.done copied over it (a valid record of the same
#     circuit) is refused as written for another job, and the job is proved again.
# Exit 77 (skip) when the build has no gRPC client.
set -u
cuzkd=$1 cuzk=$2 fixture=$3
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$4"
cuzkd_need_client
cuzkd_seed cuzkd_journal
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
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
"$cuzk" setup --r1cs fx/c.r1cs --params fx/b.params --vk fx/b.vk --threads 2 >/dev/null 2>&1 ||
    fail "cuzk setup"
"$cuzk" prove --params fx/b.params --r1cs fx/c.r1cs --wtns fx/w.wtns --out fx/local.bin \
    --public fx/pub.json --threads 2 >/dev/null 2>&1 || fail "local prove"
verify() { "$cuzk" verify --vk fx/b.vk --public fx/pub.json --proof "$1" 2>&1; }
job=(--params "$work/fx/b.params" --r1cs "$work/fx/c.r1cs")
cuzkd_start 0

# ---- a FAILED job is not replayed: the retry is proved --------------------------------------
cp fx/bad.wtns fx/retry.wtns
rid="porep-1000-$seed"
f=$(submit "${job[@]}" --wtns "$work/fx/retry.wtns" --request-id "$rid")
out=$(C await "$f" 2>&1) && fail "a bad witness completed: $out"
case "$out" in *"job $f: FAILED"*) ;; *) fail "bad witness: $out";; esac
cp fx/w.wtns fx/retry.wtns # the cause fixed, Curio retries with the same id
r=$(submit "${job[@]}" --wtns "$work/fx/retry.wtns" --request-id "$rid")
[ "$r" != "$f" ] || fail "the retry was answered with the failed job $f"
out=$(C await "$r" --out retry.bin 2>&1) || fail "retry: $out"
out=$(verify retry.bin) || fail "the retry's proof does not verify: $out"
grep -q "request_id $rid: job $f failed; proving it as job $r" d.log || fail "no log of the retry"

# ---- a different request under a running job's id is refused; the same one joins ----------
long=$(submit --synthetic 14 --partitions 16 --seed "$seed" --request-id "wpost-$seed")
out=$(C submit --synthetic 14 --partitions 16 --seed "$((seed + 1))" --request-id "wpost-$seed" \
      2>&1) && fail "another request under a running job's id was accepted: $out"
case "$out" in *"INVALID_ARGUMENT"*"request_id wpost-$seed is in use by a different request"*) ;;
    *) fail "refusal: $out";; esac
same=$(submit --synthetic 14 --partitions 16 --seed "$seed" --request-id "wpost-$seed")
[ "$same" = "$long" ] || fail "the same request made job $same, not joined $long"
C cancel "$long" > /dev/null 2>&1 || fail "cancel"

# ---- a failed --send-files job keeps no payload on disk -------------------------------------
fs=$(submit "${job[@]}" --wtns "$work/fx/bad.wtns" --send-files)
C await "$fs" > /dev/null 2>&1 && fail "a bad witness completed"
payload=$(( $(size fx/b.params) + $(size fx/c.r1cs) + $(size fx/bad.wtns) ))
[ "$(size "state/$fs.req")" -lt 2048 ] ||
    fail "state/$fs.req is $(size "state/$fs.req") bytes after the job failed (payload $payload)"

# ---- a damaged result is proved again, never served -----------------------------------------
g=$(submit "${job[@]}" --wtns "$work/fx/w.wtns")
out=$(C await "$g" --out g.bin 2>&1) || fail "job $g: $out"
cuzkd_stop "before the damage"
done_file="state/$g.done"
n=$(size "$done_file")
# a byte inside the proof: the record ends with the 192-byte proof and a 32-byte SHA-256
at=$((n - 32 - 100))
b=$(od -An -tu1 -j "$at" -N1 "$done_file" | tr -d ' ')
printf "$(printf '\\%03o' $(( b ^ 1 )))" |
    dd of="$done_file" bs=1 seek="$at" conv=notrunc 2>/dev/null
# and a temporary of a write a kill -9 cut short
tmp="state/00000000-0000-4000-8000-00000000abcd.req.tmp"
head -c 4096 /dev/zero > "$tmp"
cuzkd_start 1
[ -e "$tmp" ] && fail "$tmp is still there after the start"
out=$(C await "$g" --out g2.bin 2>&1) || fail "the damaged job after the restart: $out"
case "$out" in *"job $g: COMPLETED"*) ;; *) fail "damaged job: $out";; esac
out=$(verify g2.bin) || fail "the proof served after the restart does not verify: $out"
grep -q "outcome of job $g cannot be used (checksum mismatch" d.log || fail "damage not logged"
[ -f "state/$g.done.bad" ] || fail "the damaged record was not kept aside"
cuzkd_stop "after the restart"

# ---- a sound result is served as it was; another job's record is not ------------------------
cuzkd_start 2
out=$(C await "$g" --out g3.bin 2>&1) || fail "job $g after a clean restart: $out"
cmp -s g2.bin g3.bin || fail "the verified result of $g was not served as it was (proved again?)"
cuzkd_stop "after the clean restart"
cp "state/$r.done" "state/$g.done"
cuzkd_start 3
out=$(C await "$g" --out g4.bin 2>&1) || fail "job $g with $r's record: $out"
case "$out" in *"job $g: COMPLETED"*) ;; *) fail "job $g with $r's record: $out";; esac
out=$(verify g4.bin) || fail "the proof served for $g does not verify: $out"
grep -q "outcome of job $g cannot be used (written for another job ($r)" d.log ||
    fail "another job's record was not refused as such"
cuzkd_stop "after the copied record"
echo "cuzkd_journal: all passed"
