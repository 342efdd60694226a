#!/bin/sh
# Runs the attacks on the development deployment at full size
# (cmd/agsh-devserver/hostile_memory_test.go: 30 sessions x one 60 MB call,
# the same through an echo tool, 12 faults with 200 MB bodies, 8 reads of a
# 250 MB file, 1,024 slow-loris connections) against a non-race build and
# prints, per attack, the answers, the server's peak RSS and the time.
#
#   scripts/hostile-devserver.sh                     # this checkout's build
#   AGSH_HOSTILE_DEVSERVER_BIN=/tmp/old scripts/hostile-devserver.sh   # another build
#   AGSH_HOSTILE_ONLY=faults,reads scripts/hostile-devserver.sh        # some attacks
set -eu
cd "$(dirname "$0")/.."
AGSH_HOSTILE_DEVSERVER=1 go test ./cmd/agsh-devserver -run 'TestHostileAttacks' -count=1 -v -timeout 30m "$@" 2>&1 |
	sed -nE 's/^ *hostile_memory_test.go:[0-9]+: (attack .*)$/\1/p
/^ *--- |^(ok|FAIL)/p'
