#!/bin/sh
# Runs the hostile-deployment cases of issue 12 (cmd/agsh/hostile_test.go)
# against a non-race build of agsh and prints, per case, the exit status,
# peak RSS (getrusage of the child) and wall time.
#
#   scripts/hostile.sh                          # this checkout's agsh
#   AGSH_HOSTILE_BIN=/tmp/agsh-old scripts/hostile.sh   # another build ("before")
#   AGSH_TEST_SLOW=1 scripts/hostile.sh         # + the trickling GET, stalled POST (1 min each)
set -eu
cd "$(dirname "$0")/.."
go test ./cmd/agsh -run TestHostileDeployment -count=1 -v -timeout 20m "$@" 2>&1 |
	grep -E '\]: exit|^ *--- |^(ok|FAIL)' || true
