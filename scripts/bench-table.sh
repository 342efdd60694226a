#!/usr/bin/env bash
# Compares the table benchmarks of render (BenchmarkTable100k: Write of a
# 100,000-row table; ...FromResult: decoding included; BenchmarkTable10k)
# between an older commit (default: main) and the working tree, alternated
# in one run on the same machine. Prints each figure and the ratio
# new/old; asserts nothing.
#   scripts/bench-table.sh [base-commit] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-main}
rounds=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$base" | tar -x -C "$work"
# The same benchmarks on both sides: bench_table_test.go alone (it uses
# render's exported API only), so that any older commit compiles with it.
rm -f "$work"/render/*_test.go
cp render/bench_table_test.go "$work/render/"
(cd "$work" && go test -c -o "$work/old.test" ./render)
go test -c -o "$work/new.test" ./render
run() { (cd render && "$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3" -test.count 1 | awk '/^Benchmark/ { print $3 }'); }
for bench in '^BenchmarkTable100k$:5x' '^BenchmarkTable100kFromResult$:5x' '^BenchmarkTable10k$:50x'; do
  name=${bench%%:*} times=${bench##*:}
  old=0 new=0
  for _ in $(seq "$rounds"); do
    old=$((old + $(run "$work/old.test" "$name" "$times")))
    new=$((new + $(run "$work/new.test" "$name" "$times")))
  done
  awk -v b="$(echo "$name" | tr -d '^$')" -v o="$old" -v n="$new" -v r="$rounds" 'BEGIN {
    printf "%-22s old %8.2f ms   new %8.2f ms   new/old %.2fx  (%d rounds, alternated)\n", b, o/r/1e6, n/r/1e6, n/o, r }'
done
