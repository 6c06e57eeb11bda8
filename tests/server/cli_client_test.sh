#!/usr/bin/env bash
# cli_client_test.sh — the `cuzk` client commands (submit, await, remote-prove, cancel,
# status, metrics) against cuzk_fake_server: outputs, written proof files, exit codes
# (0 done, 1 failed call or job, 2 bad command line).
#   usage: cli_client_test.sh CUZK FAKE_SERVER
set -uo pipefail
cuzk=$1 server=$2
dir=$(mktemp -d /tmp/cuzk-cli-XXXXXX)
pid=
tpid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$tpid" ] && kill "$tpid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
export CUZK_ADDR="unix://$dir/cuzk.sock"
"$server" "$CUZK_ADDR" >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q ready "$dir/out" && break; sleep 0.1; done
fails=0
check() { # check NAME EXPECTED_RC COMMAND...
  local name=$1 want=$2 rc=0
  shift 2
  "$@" >"$dir/stdout" 2>"$dir/stderr" || rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc, expected $want"; cat "$dir/stdout" "$dir/stderr"
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
seed=$(( (RANDOM % 4) + 1 ))
echo "partitions from seed: $seed"
check submit 0 "$cuzk" submit --synthetic 10 --partitions "$seed" --seed 50
id=$(cat "$dir/stdout")
check await 0 "$cuzk" await "$id" --out "$dir/proof.bin"
[ "$(stat -c %s "$dir/proof.bin")" = $((seed * 192)) ] || { echo "FAIL proof size"; fails=$((fails + 1)); }
grep -q COMPLETED "$dir/stdout" || { echo "FAIL await output"; fails=$((fails + 1)); }
check remote-prove 0 "$cuzk" remote-prove --synthetic 12 --partitions 2 --seed 5 --priority high --out "$dir/p2.bin"
[ "$(stat -c %s "$dir/p2.bin")" = 384 ] || { echo "FAIL remote-prove proof size"; fails=$((fails + 1)); }
check remote-prove-failed 1 "$cuzk" remote-prove --synthetic 3
grep -q "injected failure" "$dir/stdout" || { echo "FAIL failure message"; fails=$((fails + 1)); }
check no-out-on-failure 1 "$cuzk" remote-prove --synthetic 3 --out "$dir/none.bin"
[ ! -e "$dir/none.bin" ] || { echo "FAIL proof file written for a failed job"; fails=$((fails + 1)); }
check submit-long 0 "$cuzk" submit --synthetic 10 --seed 60000 --request-id "cli-$$"
long=$(cat "$dir/stdout")
check await-wait 1 "$cuzk" await "$long" --wait-ms 50
grep -q TIMEOUT "$dir/stdout" || { echo "FAIL await timeout output"; fails=$((fails + 1)); }
check cancel 0 "$cuzk" cancel "$long"
check cancel-unknown 1 "$cuzk" cancel no-such-job
grep -q NOT_FOUND "$dir/stderr" || { echo "FAIL NOT_FOUND message"; fails=$((fails + 1)); }
check status 0 "$cuzk" status
grep -q "device 0: fake-cpu" "$dir/stdout" || { echo "FAIL status output"; fails=$((fails + 1)); }
check metrics 0 "$cuzk" metrics
grep -q "^cuzk_rpc_calls_total " "$dir/stdout" || { echo "FAIL metrics output"; fails=$((fails + 1)); }
check deadline 1 "$cuzk" remote-prove --synthetic 10 --seed 5000 --timeout 200
grep -q DEADLINE_EXCEEDED "$dir/stderr" || { echo "FAIL deadline message"; fails=$((fails + 1)); }
check porep-not-built 1 "$cuzk" submit --kind porep --vanilla "$dir/out"
check no-job 2 "$cuzk" submit
check two-jobs 2 "$cuzk" submit --synthetic 10 --zkey x --wtns y
check bad-kind 2 "$cuzk" submit --kind nope --vanilla x
check bad-number 2 "$cuzk" submit --synthetic ten
check await-no-id 2 "$cuzk" await
check unknown-option 2 "$cuzk" status --bogus
check unreachable 1 "$cuzk" status --addr "unix://$dir/nobody.sock"
check bad-addr 1 "$cuzk" status --addr "nonsense"
# a TCP listener with a shared token: --token, else $CUZK_TOKEN
CUZK_FAKE_AUTH_TOKEN=cli-token-0123456789 "$server" 127.0.0.1:0 >"$dir/tout" 2>&1 &
tpid=$!
for _ in $(seq 100); do grep -q ready "$dir/tout" && break; sleep 0.1; done
taddr=127.0.0.1:$(sed -n 's/^ready //p' "$dir/tout")
check no-token 1 "$cuzk" status --addr "$taddr"
grep -q UNAUTHENTICATED "$dir/stderr" || { echo "FAIL no-token message"; fails=$((fails + 1)); }
check wrong-token 1 "$cuzk" status --addr "$taddr" --token cli-token-0123456780
check token 0 "$cuzk" status --addr "$taddr" --token cli-token-0123456789
check env-token 0 env CUZK_TOKEN=cli-token-0123456789 "$cuzk" status --addr "$taddr"
check bad-token 2 "$cuzk" status --addr "$taddr" --token "a b"
kill -TERM "$tpid"; wait "$tpid" || { echo "FAIL token server exit"; fails=$((fails + 1)); }
tpid=
kill -TERM "$pid"; wait "$pid" || { echo "FAIL server exit"; fails=$((fails + 1)); }
pid=
echo "$fails failed"
[ "$fails" = 0 ]
