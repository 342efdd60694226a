#!/usr/bin/env bash
# Starts the development deployment over this repository (mounted at /repo)
# on 127.0.0.1:39400 when that port is free, else on a free port; prints how
# to point agsh at it from a second terminal; then opens agsh against its
# executor agent, with 30 demo sessions for :top (AGSH_DEMO_SESSIONS=N says
# how many; 0 none), bound to the operator's own idle demo session (the
# latest session is soon a busy demo turn, which a call bound by default
# would meet). Extra arguments go to agsh (`scripts/demo.sh help`). The
# server stops when agsh exits.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -f "$log"
}
trap cleanup EXIT

# start ADDR: runs agsh-devserver on ADDR; succeeds once it printed "ready",
# fails when it exited first (the port was taken).
start() {
  : >"$log"
  ./bin/agsh-devserver --addr "$1" --root . --demo-sessions "${AGSH_DEMO_SESSIONS:-30}" >"$log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do
    grep -q '^ready$' "$log" && return 0
    kill -0 "$server" 2>/dev/null || { wait "$server" 2>/dev/null || true; server=; return 1; }
    sleep 0.05
  done
  return 1
}

if ! start 127.0.0.1:39400; then
  echo "agsh-devserver: 127.0.0.1:39400 is taken; using a free port" >&2
  start 127.0.0.1:0 || { echo "agsh-devserver did not start:" >&2; cat "$log" >&2; exit 1; }
fi
target=$(awk '$1 == "executor" { print $2 }' "$log")
planner=$(awk '$1 == "planner" { print $2 }' "$log")
own=$(awk '$1 == "demo-session" { print $2 }' "$log")
# The operator's own session, unless the arguments bind one themselves.
bind=()
if [ -n "$own" ]; then
  bind=(--session "$own")
  for a in "$@"; do
    case $a in --session | --session=* | --continuation-token | --continuation-token=*) bind=() ;; esac
  done
fi
cat >&2 <<MSG
agsh-devserver serves $(pwd) at /repo:
  executor  $target
  planner   $planner
The agsh binary is $(pwd)/bin/agsh (or run: go install ./cmd/agsh). From a second terminal:
  export AGENT_SHELL_TARGET=$target
  $(pwd)/bin/agsh help
MSG
if [ -n "$own" ]; then
  cat >&2 <<MSG
The demo sessions keep calling tools, so the latest session is a busy one: bind a call to
your own idle session, $own, with --session:
  $(pwd)/bin/agsh --session $own ls /repo
Opening the agsh shell on the executor, in session $own; Ctrl-D leaves it and stops the server.
MSG
else
  echo "Opening the agsh shell on the executor; Ctrl-D leaves it and stops the server." >&2
fi
AGENT_SHELL_TARGET=$target ./bin/agsh ${bind[@]+"${bind[@]}"} "$@"
