#!/usr/bin/env bash
# CPU per command of an agsh script against one keep-alive curl doing the
# same requests, and the one-shot start-up floor, on the development
# deployment over loopback. Every figure is the median of the runs, the
# builds (and curl) alternated run by run in one run, so that a loaded
# machine distorts the ratios less than the figures. Asserts nothing but
# identical output between the builds.
#
#   scripts/bench-script.sh [-n runs] [-c commands] [-o old-agsh] [-e NAME=ENV...] [rows...]
#
# rows (default: all):
#   script   a script of -c commands (default 1,000) `read /repo/README.md`
#            (a small file) against one curl of as many POSTs on one
#            keep-alive connection: user+system CPU and peak RSS
#            (/usr/bin/time), per command, agsh/curl and new/old.
#   tables   the same with `list_changes` answering a JSON array of 20
#            objects (armed through the fault route), rendered as a table.
#   startup  one-shot `agsh --version` and `agsh help` against a tiny
#            program that links only the packages agsh requires whose init
#            is the floor (glamour, chroma's lexers, styles and formatters,
#            bubbletea, lipgloss) and prints a line: CPU, wall, agsh/floor;
#            floor-get is that program also making the three GETs of
#            `agsh help` (the listing, the sessions, /v1/info) with
#            net/http, the floor of help; floor-read makes the three
#            requests of a one-shot `agsh read /repo/README.md` (the
#            tool's detail, the sessions, the POST), the floor of read.
#
# -e NAME=ENV runs the new build once more per round with the environment
# ENV (space-separated assignments), as the variant NAME: e.g.
#   -e 'procs1=GOMAXPROCS=1' -e 'gogc100=GOGC=100'
# Needs: curl, awk, md5sum, /usr/bin/time (GNU time), go (for the floor).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7 cmds=1000 old="" variants=()
while getopts "n:c:o:e:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    c) cmds=$OPTARG ;;
    o) old=$(realpath "$OPTARG") ;;
    e) variants+=("$OPTARG") ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
rows=${*:-script tables startup}
make -s build
new=$PWD/bin/agsh
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/root"
printf '# bench\nhello\n' > "$work/root/README.md"
./bin/agsh-devserver --addr 127.0.0.1:0 --root "$work/root" > "$work/log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q '^ready$' "$work/log" && break; sleep 0.1; done
exe=$(awk '$1 == "executor" { print $2 }' "$work/log")
export AGENT_SHELL_TARGET=$exe NO_COLOR= CLICOLOR_FORCE= COLUMNS=120
unset AGENT_SHELL_BEARER_TOKEN

# once LABEL CMD...: runs the command once, standard input from $work/in,
# output to $work/out.LABEL (the first run's kept for the comparison), and
# appends "wall-µs user sys maxrss-KiB" to $work/times.LABEL.
once() {
  local label=$1; shift
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S %M' -o "$work/t1" "$@" < "$work/in" > "$work/o" 2> "$work/err" || {
    echo "$label failed:" >&2; tail -n 5 "$work/err" >&2; exit 1; }
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 "$work/t1")" >> "$work/times.$label"
  [ -e "$work/out.$label" ] || mv "$work/o" "$work/out.$label"
}

# median LABEL COLUMN: the median of a column of $work/times.LABEL
# (1 wall µs, 2 CPU s (user+sys), 3 peak RSS KiB).
median() {
  awk -v c="$2" '{ v = c == 1 ? $1 : c == 2 ? $2 + $3 : $4; print v }' "$work/times.$1" |
    sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# row LABEL PER: prints LABEL's medians, CPU and wall divided by PER.
row() {
  awk -v l="$1" -v w="$(median "$1" 1)" -v c="$(median "$1" 2)" -v m="$(median "$1" 3)" -v p="$2" 'BEGIN {
    printf "%-22s cpu %8.3f ms  wall %8.3f ms  peak RSS %6.1f MiB\n", l, c * 1000 / p, w / 1000 / p, m / 1024 }'
}

# ratio A B WHAT: A's median CPU, wall and RSS over B's.
ratio() {
  awk -v a="$(median "$1" 2)" -v b="$(median "$2" 2)" -v c="$(median "$1" 1)" -v d="$(median "$2" 1)" \
      -v e="$(median "$1" 3)" -v f="$(median "$2" 3)" -v l="$1/$2" 'BEGIN {
    printf "%-30s cpu %.2fx  wall %.2fx  RSS %.2fx\n", l, a / b, c / d, e / f }'
}

# same A B: whether A's and B's outputs are the same bytes.
same() {
  if cmp -s "$work/out.$1" "$work/out.$2"; then echo "$1 and $2: identical output"
  else echo "$1 and $2: DIFFERENT output"; fi
}

for r in $rows; do
  rm -f "$work"/times.* "$work"/out.*
  case $r in
  script|tables)
    tool=read body='{"input":{"path":"/repo/README.md"}}' line='read /repo/README.md'
    if [ "$r" = tables ]; then
      # A JSON text result (an array of 20 objects) rendered as a table:
      # the deployment's list_changes answer armed through its fault route.
      tool=list_changes body='{"input":{}}' line=list_changes
      awk 'BEGIN {
        printf "{\"route\":\"POST /v1/tools/list_changes\",\"count\":1000000,\"status\":200,\"body\":"
        printf "{\"ok\":true,\"toolName\":\"list_changes\",\"callId\":\"c1\",\"isError\":false,\"result\":\"["
        for (i = 0; i < 20; i++) {
          if (i > 0) printf ","
          printf "{\\\"sha\\\":\\\"%040d\\\",\\\"author\\\":\\\"dev%d\\\",\\\"subject\\\":\\\"change number %d\\\",\\\"files\\\":[\\\"a.go\\\"]}", i, i % 5, i
        }
        printf "]\"}}"
      }' > "$work/fault.json"
      curl -sf -X POST -H 'Content-Type: application/json' --data-binary @"$work/fault.json" "$exe/v1/dev/faults" > /dev/null
    fi
    for _ in $(seq "$cmds"); do echo "$line"; done > "$work/in"
    for _ in $(seq "$cmds"); do echo "url = \"$exe/v1/tools/$tool\""; done > "$work/curl.cfg"
    for _ in $(seq "$runs"); do
      once new "$new"
      [ -z "$old" ] || once old "$old"
      once curl curl -s -X POST -H 'Content-Type: application/json' -d "$body" -K "$work/curl.cfg"
      for v in ${variants[@]+"${variants[@]}"}; do
        # shellcheck disable=SC2086 # the assignments are words
        once "${v%%=*}" env ${v#*=} "$new"
      done
    done
    echo "$r: a script of $cmds ${line%% *}s, $runs runs each (per command; RSS whole process):"
    row new "$cmds"
    [ -z "$old" ] || row old "$cmds"
    row curl "$cmds"
    for v in ${variants[@]+"${variants[@]}"}; do row "${v%%=*}" "$cmds"; done
    ratio new curl
    [ -z "$old" ] || { ratio old curl; ratio new old; same new old; }
    for v in ${variants[@]+"${variants[@]}"}; do ratio "${v%%=*}" curl; ratio "${v%%=*}" new; same "${v%%=*}" new; done
    [ "$r" != tables ] || curl -sf -X DELETE "$exe/v1/dev/faults" > /dev/null
    ;;
  startup)
    # The floor: the same module (so the same versions), built from a
    # directory the ./... patterns skip.
    floor=$(mktemp -d "$PWD/.floor.XXXXXX")
    cat > "$floor/main.go" <<'EOF'
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	_ "github.com/alecthomas/chroma/v2/formatters"
	_ "github.com/alecthomas/chroma/v2/lexers"
	_ "github.com/alecthomas/chroma/v2/styles"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/glamour"
	_ "github.com/charmbracelet/lipgloss"
)

// With URLs, it GETs each on one client and prints the bytes received;
// "-d BODY URL" POSTs BODY (JSON) to URL instead.
func main() {
	n := 0
	for args := os.Args[1:]; len(args) > 0; args = args[1:] {
		u, body := args[0], ""
		if u == "-d" && len(args) > 2 {
			body, u, args = args[1], args[2], args[2:]
		}
		resp, err := http.Get(u)
		if body != "" {
			resp, err = http.Post(u, "application/json", strings.NewReader(body))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		n += len(b)
	}
	fmt.Println("floor", n)
}
EOF
    go build -o "$work/floor" "./$(basename "$floor")"
    rm -rf "$floor"
    : > "$work/in"
    # One measurement is 20 runs in a row (GNU time counts the children's
    # CPU): a single run is below its 10 ms resolution.
    loop() { local b=$1; shift; once "$@" sh -c "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do $b >/dev/null || exit 1; done"; }
    for _ in $(seq "$runs"); do
      loop "'$new' --version" version
      loop "'$new' help" help
      loop "'$work/floor'" floor
      loop "'$work/floor' '$exe/v1/tools' '$exe/v1/sessions' '$exe/v1/info'" floor-get
      loop "'$new' read /repo/README.md" read
      loop "'$work/floor' '$exe/v1/tools/read' '$exe/v1/sessions' -d '{\"input\":{\"path\":\"/repo/README.md\"}}' '$exe/v1/tools/read'" floor-read
      [ -z "$old" ] || { loop "'$old' --version" old-version; loop "'$old' help" old-help; loop "'$old' read /repo/README.md" old-read; }
    done
    echo "start-up, $runs x 20 runs each (per run):"
    row version 20; row help 20; row read 20; row floor 20; row floor-get 20; row floor-read 20
    [ -z "$old" ] || { row old-version 20; row old-help 20; row old-read 20; }
    ratio version floor; ratio help floor; ratio help floor-get; ratio read floor-read
    [ -z "$old" ] || { ratio version old-version; ratio help old-help; ratio read old-read; }
    ;;
  *) echo "unknown row $r" >&2; exit 2 ;;
  esac
done
