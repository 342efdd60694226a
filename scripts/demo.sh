#!/usr/bin/env bash
# Starts the development deployment over this repository and opens agsh against
# its executor agent. Extra arguments go to agsh (e.g. `scripts/demo.sh help`).
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
./bin/agsh-devserver --addr 127.0.0.1:0 --root . >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  grep -q '^ready$' "$log" && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
grep -q '^ready$' "$log" || { echo "agsh-devserver did not start:" >&2; cat "$log" >&2; exit 1; }
target=$(awk '$1 == "executor" { print $2 }' "$log")
echo "agsh-devserver: executor at $target (planner beside it); Ctrl-D leaves the shell" >&2
AGENT_SHELL_TARGET=$target ./bin/agsh "$@"
