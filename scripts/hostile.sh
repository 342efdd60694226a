#!/bin/sh
# Runs the hostile-deployment cases (internal/cli/hostile_test.go) against a
# non-race build of agsh and prints, per case, the mode and arguments, the
# exit status, the peak RSS (GNU time's %M when /usr/bin/time is installed,
# else getrusage of the child: an upper bound) and the wall time; then the
# test's verdicts.
#
#   scripts/hostile.sh                          # this checkout's agsh
#   AGSH_HOSTILE_BIN=/tmp/agsh-old scripts/hostile.sh   # another build ("before")
#   AGSH_TEST_SLOW=1 scripts/hostile.sh         # + the trickling GET, stalled POST (1 min each)
set -eu
cd "$(dirname "$0")/.."
go test ./internal/cli -run TestHostileDeployment -count=1 -v -timeout 30m "$@" 2>&1 |
	sed -nE 's/^ *hostile_test.go:[0-9]+: case ([^:]*): exit (-?[0-9]+), peak RSS ([0-9]+) MiB, ([^ ]+) ?(.*)$/\1 | exit \2 | \3 MiB | \4 \5/p
/^ *--- |^(ok|FAIL)/p'
