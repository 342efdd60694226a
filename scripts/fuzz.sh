#!/usr/bin/env bash
# Gives every fuzz target of the module a short run: scripts/fuzz.sh [FUZZTIME]
# (default 4s a target; docs/testing.md#fuzz-targets).
#
# Each package's fuzzing test binary is built once (go test -c -fuzz) and
# its targets run from it, FUZZ_JOBS (default: the number of CPUs) side by
# side, one fuzzing worker each. The seed corpora already ran in the unit
# stage (go test runs every Fuzz function on its seeds); this stage looks for
# new inputs. The generated corpus is kept where go test -fuzz keeps it
# ($GOCACHE/fuzz/<package>), so later runs, and go test -fuzz itself, start
# from what earlier ones found.
#
# A run that fails only with "context deadline exceeded" and writes no
# failing input is the fuzzing engine's own flake at the end of -fuzztime on
# a loaded machine (a worker still busy when time is up), not a finding: it
# is retried once, and reported without failing if it happens again. A real
# finding always says "Failing input written to testdata/fuzz/…" (the
# failing input lands in the package's testdata/fuzz/<target>/, as with
# go test -fuzz, and its seed run fails in the unit stage from then on).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-4s}
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
cache=$(go env GOCACHE)/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The targets, one "package dir binary target" line each; the binaries
# built, $jobs at a time.
: >"$work/targets"
n=0
builds=()
while read -r pkg dir; do
  targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u || true)
  [ -n "$targets" ] || continue
  n=$((n + 1))
  bin="$work/$n.test"
  if [ ${#builds[@]} -ge "$jobs" ]; then
    wait "${builds[0]}"
    builds=("${builds[@]:1}")
  fi
  go test -c -fuzz . -o "$bin" "$pkg" &
  builds+=($!)
  for target in $targets; do
    echo "$pkg $dir $bin $target" >>"$work/targets"
  done
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)
for b in "${builds[@]}"; do
  wait "$b"
done

# run PKG DIR BIN TARGET LOG: one fuzz run, from the package's folder as
# go test runs it.
run() {
  (cd "$2" && "$3" -test.run '^$' -test.fuzz "^$4\$" -test.fuzztime "$fuzztime" \
    -test.parallel 1 -test.fuzzcachedir "$cache/$1") >"$5" 2>&1
}

# fuzz_one PKG DIR BIN TARGET OUT: a run and, on the deadline flake, one
# more, its lines written to OUT (printed when it ends: the runs go side by
# side). Fails on a finding.
fuzz_one() {
  local log="$5.log" out="$5"
  set -- "$1" "$2" "$3" "$4"
  {
    echo "fuzz $1 $4 ($fuzztime)"
    for attempt in 1 2; do
      if run "$@" "$log"; then
        tail -n 2 "$log"
        return 0
      fi
      cat "$log"
      if grep -q 'Failing input written' "$log" || ! grep -q 'context deadline exceeded' "$log"; then
        return 1
      fi
      if [ "$attempt" = 2 ]; then
        echo "fuzz $4: the fuzzing engine's deadline flake twice, no failing input; not a finding"
      else
        echo "fuzz $4: the fuzzing engine's deadline flake, no failing input; running it again"
      fi
    done
  } >"$out" 2>&1
}

status=0
finish() {
  local pid=$1 out=$2
  if ! wait "$pid"; then status=1; fi
  cat "$out"
}
pids=()
outs=()
i=0
while read -r pkg dir bin target; do
  i=$((i + 1))
  if [ ${#pids[@]} -ge "$jobs" ]; then
    finish "${pids[0]}" "${outs[0]}"
    pids=("${pids[@]:1}")
    outs=("${outs[@]:1}")
  fi
  fuzz_one "$pkg" "$dir" "$bin" "$target" "$work/$i.out" &
  pids+=($!)
  outs+=("$work/$i.out")
done <"$work/targets"
for i in "${!pids[@]}"; do
  finish "${pids[$i]}" "${outs[$i]}"
done
echo "fuzz: $(wc -l <"$work/targets") targets of $n packages, $fuzztime each, $jobs side by side"
exit $status
