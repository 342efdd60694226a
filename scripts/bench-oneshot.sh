#!/usr/bin/env bash
# Measures a one-shot agsh call against a plain curl of the same POST on
# loopback, alternated in one run, and a 1,000-command script against 1,000
# one-shot invocations. Prints the figures and ratios; asserts nothing.
#   scripts/bench-oneshot.sh [iterations]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
make -s build
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
printf '# bench\nhello\n' > "$work/README.md"
./bin/agsh-devserver --addr 127.0.0.1:0 --root "$work" > "$work/log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q '^ready$' "$work/log" && break; sleep 0.1; done
target=$(awk '$1 == "executor" { print $2 }' "$work/log")
export AGENT_SHELL_TARGET=$target

now() { date +%s%N; }
agsh_total=0 curl_total=0
for _ in $(seq "$n"); do
  t0=$(now); ./bin/agsh read /repo/README.md >/dev/null 2>&1; t1=$(now)
  curl -s -X POST -H 'Content-Type: application/json' -d '{"input":{"path":"/repo/README.md"}}' "$target/v1/tools/read" >/dev/null; t2=$(now)
  agsh_total=$((agsh_total + t1 - t0)); curl_total=$((curl_total + t2 - t1))
done
awk -v a="$agsh_total" -v c="$curl_total" -v n="$n" 'BEGIN {
  printf "one-shot agsh read: %.2f ms   curl POST: %.2f ms   ratio %.2fx  (%d runs each, alternated)\n", a/n/1e6, c/n/1e6, a/c, n }'

cmds=1000
: > "$work/script.agsh"
for _ in $(seq "$cmds"); do echo 'read /repo/README.md' >> "$work/script.agsh"; done
t0=$(now); ./bin/agsh < "$work/script.agsh" >/dev/null 2>&1; t1=$(now)
for _ in $(seq "$cmds"); do ./bin/agsh read /repo/README.md >/dev/null 2>&1; done; t2=$(now)
awk -v s="$((t1 - t0))" -v o="$((t2 - t1))" -v n="$cmds" 'BEGIN {
  printf "%d commands: one script %.0f ms, %d one-shot runs %.0f ms: the script is %.1fx faster\n", n, s/1e6, n, o/1e6, o/s }'
