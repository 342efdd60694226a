#!/usr/bin/env bash
# Built-binary benchmarks of large answers and per-command work, against the
# development deployment on loopback with canned answers armed through its
# fault routes. Each row runs the built agsh (bin/agsh) and, when given, a
# previous build of it, alternated run by run in one run; it prints the median
# wall and CPU time, the peak RSS (/usr/bin/time -v's
# "Maximum resident set size" of the agsh process) and the ratio new/old.
# Outputs of both builds are compared by md5. Asserts nothing but identical
# output. The rows read200, json50 and table100k also run curl for the same
# answer into the same output, alternated with the others: the floor of
# receiving and writing the bytes; table100k also runs `curl | jq @tsv`,
# the peer that makes a table of it. Each build's ratio to the floor (and
# to the peer) is printed, wall and CPU, so that before and after compare
# in one run.
#
#   scripts/bench-large.sh [-n runs] [-o old-agsh] [-O file|null] [rows...]
#
# -O: where standard output goes: a file (the default; its md5 is compared)
# or /dev/null (the text goes straight out; no md5).
#
# rows: read200 read50 json50 json50held table100k script1000 color50k color50kpty
# help10k tab10k trace100k tail100k (default: all). color50k writes the colored read to a file
# (CLICOLOR_FORCE); color50kpty writes it to a terminal (script(1)'s pty,
# COLORFGBG set so that no build asks the terminal for its background).
# tab10k is a warm Tab of the login shells' completion (a tool name, a flag's
# enum value) against a 10-tool and a 10,000-tool catalog (a second
# development deployment, the listings and the tool's detail armed), each
# build with its own filled cache; it prints large/small per build, and the
# refresh of each catalog (wall time and the cache's bytes). trace100k is
# `:trace` of a 100,000-event record (17 MB, the events route armed), as the
# timeline and as --output json, against curl fetching the record; tail100k
# is `:tail` of a stream of 100,000 events (NDJSON, the stream route armed,
# the last event the session's wait that ends a piped tail), as text lines
# and as NDJSON, with the events a second. Builds without the console (no
# :trace) are skipped in those two rows.
# Needs: curl, awk, md5sum, /usr/bin/time (GNU time), strace (color50k's
# write count; skipped without it), jq (table100k's peer; skipped without
# it).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 old="" sink=file
while getopts "n:o:O:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    o) old=$(realpath "$OPTARG") ;;
    O) sink=$OPTARG; [ "$sink" = file ] || [ "$sink" = null ] || exit 2 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
rows=${*:-read200 read50 json50 json50held table100k script1000 color50k color50kpty help10k tab10k trace100k tail100k}
wrap=()
make -s build
new=$PWD/bin/agsh
work=$(mktemp -d)
server=""
server2=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "$server2" ] && kill "$server2" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/root"
./bin/agsh-devserver --addr 127.0.0.1:0 --root "$work/root" > "$work/log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q '^ready$' "$work/log" && break; sleep 0.1; done
exe=$(awk '$1 == "executor" { print $2 }' "$work/log")
export AGENT_SHELL_TARGET=$exe NO_COLOR= CLICOLOR_FORCE= COLUMNS=120
unset AGENT_SHELL_BEARER_TOKEN

# arm ROUTE FILE COUNT [EXECUTOR]: the next COUNT requests of ROUTE answer
# 200 with the JSON body in FILE (of $exe's deployment, or EXECUTOR's).
arm() {
  local at=${4:-$exe}
  { printf '{"route":"%s","count":%d,"status":200,"body":' "$1" "$3"; cat "$2"; printf '}'; } > "$work/fault.json"
  curl -sf -X POST -H 'Content-Type: application/json' --data-binary @"$work/fault.json" "$at/v1/dev/faults" > /dev/null
  rm -f "$work/fault.json"
}
disarm() { curl -sf -X DELETE "$exe/v1/dev/faults" > /dev/null; }

# envelope FILE MB [held]: a read answer whose result is MB MiB of numbered
# lines ("     1|log line 1 of the big file …"), no final newline; with
# "held", "result" comes before "ok" and "isError" (the answer is held).
envelope() {
  awk -v size=$(($2 << 20)) -v held="${3:-}" 'BEGIN {
    if (held == "") printf "{\"ok\":true,\"toolName\":\"read\",\"callId\":\"c1\",\"isError\":false,\"result\":\""
    else printf "{\"result\":\""
    n = 0
    for (i = 1; n < size; i++) {
      line = sprintf("%6d|log line %d of the big file, with some text to make it longer", i, i)
      if (i > 1) printf "\\n"
      printf "%s", line
      n += length(line) + 1
    }
    if (held == "") printf "\",\"durationMs\":12}"
    else printf "\",\"ok\":true,\"toolName\":\"read\",\"callId\":\"c1\",\"isError\":false,\"durationMs\":12}"
  }' > "$1"
}

# record FILE N FORM: a session record of N events like an agent's (turns,
# calls of read and grep, their results, messages, waits), as the events
# route's envelope (FORM envelope) or as the stream's NDJSON inside a JSON
# string, ready to arm (FORM ndjson: no wait but the last event's).
record() {
  awk -v n="$2" -v form="$3" 'BEGIN {
    if (form == "envelope") printf "{\"ok\":true,\"sessionId\":\"ses_bench\",\"firstIndex\":0,\"nextIndex\":%d,\"events\":[", n
    else printf "\""
    for (i = 0; i < n; i++) {
      s = int(i / 1000)
      ts = sprintf("2026-01-02T%02d:%02d:%02d.%03dZ", 3 + int(s / 3600), int(s / 60) % 60, s % 60, i % 1000)
      k = i % 7
      if (form == "ndjson" && k == 6) k = 4
      if (form == "ndjson" && i == n - 1) k = 6
      if (k == 0) d = "\"type\":\"turn.started\",\"data\":{\"turnId\":\"t\",\"source\":\"message\",\"message\":\"look at the repo\"}"
      else if (k == 1) d = sprintf("\"type\":\"actions.requested\",\"data\":{\"turnId\":\"t\",\"calls\":[{\"callId\":\"call_%016x\",\"toolName\":\"read\",\"input\":{\"path\":\"/repo/src/file%d.go\",\"limit\":40}},{\"callId\":\"call_%016x\",\"toolName\":\"grep\",\"input\":{\"pattern\":\"TODO|FIXME\",\"path\":\"/repo\",\"-i\":true}}]}", i, i, i + 1)
      else if (k == 2) d = sprintf("\"type\":\"action.result\",\"data\":{\"callId\":\"call_%016x\",\"toolName\":\"read\",\"isError\":false,\"result\":\"package main\\nfunc main() {}\",\"durationMs\":12}", i - 1)
      else if (k == 3) d = sprintf("\"type\":\"action.result\",\"data\":{\"callId\":\"call_%016x\",\"toolName\":\"grep\",\"isError\":false,\"result\":\"Found 2 matching lines\",\"durationMs\":40}", i - 1)
      else if (k == 4) d = "\"type\":\"message.completed\",\"data\":{\"text\":\"I looked at the file and found two TODOs.\",\"finishReason\":\"stop\"}"
      else if (k == 5) d = "\"type\":\"turn.completed\",\"data\":{\"turnId\":\"t\"}"
      else d = "\"type\":\"session.waiting\",\"data\":{}"
      e = sprintf("{\"index\":%d,%s,\"at\":\"%s\"}", i, d, ts)
      if (form == "envelope") { if (i > 0) printf ","; printf "%s", e; continue }
      gsub(/\\/, "&&", e); gsub(/"/, "\\\\&", e)
      printf "%s\\n", e
    }
    if (form == "envelope") printf "]}"
    else printf "\""
  }' > "$1"
}

# once LABEL CMD...: runs the command once (output to $work/out, or
# /dev/null with -O null) and keeps its wall time (ns clock), CPU time and
# peak RSS (/usr/bin/time), and the md5 of its first output.
once() {
  local label=$1; shift
  local out=$work/out t0 t1
  [ "$sink" = null ] && out=/dev/null
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S %M' -o "$work/t1" "${wrap[@]}" "$@" > "$out" 2> "$work/err" || true
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 "$work/t1")" >> "$work/times.$label"
  if [ ! -e "$work/md5.$label" ]; then
    if [ "$sink" = file ]; then md5sum < "$work/out" | cut -d' ' -f1; else echo "-"; fi > "$work/md5.$label"
  fi
}

# summary LABEL: prints the median wall time, the mean CPU time and the
# peak RSS of LABEL's runs (and keeps them in $work/last).
summary() {
  local label=$1 w c m n
  n=$(wc -l < "$work/times.$label")
  w=$(awk '{ print $1 / 1e6 }' "$work/times.$label" | sort -n | awk -v n="$n" 'NR == int((n+1)/2)')
  c=$(awk '{ c += $2 + $3 } END { print c / NR }' "$work/times.$label")
  m=$(awk '$4 > m { m = $4 } END { print m }' "$work/times.$label")
  awk -v l="$label" -v w="$w" -v c="$c" -v m="$m" 'BEGIN {
    printf "%-34s wall %8.4f s  cpu %8.4f s  peak RSS %7.1f MiB\n", l, w, c, m/1024 }'
  echo "$w $c $m" > "$work/last"
}

# measure LABEL CMD...: runs the command $runs times and prints summary.
measure() {
  local label=$1; shift
  rm -f "$work/times.$label" "$work/md5.$label"
  for _ in $(seq "$runs"); do once "$label" "$@"; done
  summary "$label"
}

# pair ROW CMD-ARGS...: measures new (and old) agsh with the same
# arguments, run by run alternated (and curl, when $floor is set: the curl
# arguments fetching the same answer).
pair() {
  local row=$1; shift
  rm -f "$work/times.$row "* "$work/md5.$row "*
  # The order turns each round (new, old, curl, jq; then old, curl, jq,
  # new; …): whichever runs first after another row's runs is not always
  # the same one.
  local jobs=(new) r j k
  [ -n "$old" ] && jobs+=(old)
  [ ${#floor[@]} -gt 0 ] && jobs+=(curl)
  [ -n "$peer" ] && jobs+=(jq)
  for r in $(seq 0 $((runs - 1))); do
    for k in $(seq 0 $((${#jobs[@]} - 1))); do
      j=${jobs[$(( (k + r) % ${#jobs[@]} ))]}
      case $j in
      new) once "$row new" "$new" "$@" ;;
      old) once "$row old" "$old" "$@" ;;
      curl) once "$row curl" curl "${floor[@]}" ;;
      jq) once "$row curl|jq" sh -c "$peer" ;;
      esac
    done
  done
  summary "$row new"; read -r nw nc nm < "$work/last"
  if [ -n "$old" ]; then summary "$row old"; read -r ow oc om < "$work/last"; fi
  if [ ${#floor[@]} -gt 0 ]; then
    summary "$row curl"; read -r cw cc cm < "$work/last"
    for b in new old; do
      [ $b = old ] && [ -z "$old" ] && continue
      local bw=$nw bc=$nc
      [ $b = old ] && bw=$ow bc=$oc
      awk -v a="$bw" -v b="$cw" -v c="$bc" -v d="$cc" -v r="$row $b" 'BEGIN {
        printf "%-34s agsh/curl: wall %.2fx  cpu %.2fx\n", r, a/b, c/d }'
    done
  fi
  if [ -n "$peer" ]; then
    summary "$row curl|jq"; read -r jw jc jm < "$work/last"
    for b in new old; do
      [ $b = old ] && [ -z "$old" ] && continue
      local bw=$nw bc=$nc
      [ $b = old ] && bw=$ow bc=$oc
      awk -v a="$bw" -v b="$jw" -v c="$bc" -v d="$jc" -v r="$row $b" 'BEGIN {
        printf "%-34s agsh/(curl|jq): wall %.3fx  cpu %.3fx\n", r, a/b, c/d }'
    done
  fi
  if [ -n "$old" ]; then
    local same=identical
    cmp -s "$work/md5.$row new" "$work/md5.$row old" || same=DIFFERENT
    if [ "$sink" = null ]; then same="not compared: -O null"; fi
    awk -v a="$nw" -v b="$ow" -v c="$nc" -v d="$oc" -v e="$nm" -v f="$om" -v r="$row" -v s="$same" 'BEGIN {
      printf "%-34s new/old: wall %.2fx  cpu %.2fx  RSS %.2fx  (output %s)\n", r, a/b, c/d, e/f, s }'
    if [ ${#floor[@]} -gt 0 ]; then
      awk -v a="$cw" -v b="$ow" -v r="$row" 'BEGIN { printf "%-34s curl/old: wall %.2fx (the floor)\n", r, a/b }'
    fi
  fi
  floor=() peer=""
}

floor=() peer=""
for row in $rows; do
  disarm
  case $row in
  read200|read50)
    envelope "$work/env" "${row#read}"
    arm "POST /v1/tools/read" "$work/env" 1000
    floor=(-s -X POST -H 'Content-Type: application/json' -d '{"input":{"path":"/repo/big.log"}}' "$exe/v1/tools/read")
    pair "$row" read /repo/big.log
    ;;
  json50)
    envelope "$work/env" 50
    arm "POST /v1/tools/read" "$work/env" 1000
    floor=(-s -X POST -H 'Content-Type: application/json' -d '{"input":{"path":"/repo/big.log"}}' "$exe/v1/tools/read")
    pair json50 --output json read /repo/big.log
    ;;
  json50held)
    envelope "$work/env" 50 held
    arm "POST /v1/tools/read" "$work/env" 1000
    pair json50held --output json read /repo/big.log
    ;;
  table100k)
    awk 'BEGIN {
      printf "{\"ok\":true,\"toolName\":\"list_changes\",\"callId\":\"c1\",\"isError\":false,\"result\":["
      for (i = 0; i < 100000; i++) {
        if (i > 0) printf ","
        printf "{\"id\":%d,\"name\":\"item-%d\",\"status\":\"active\",\"owner\":\"user%d@example.com\",\"score\":%d.5,\"tags\":[\"a\",\"b\"],\"region\":\"eu-west-%d\",\"note\":\"row %d of the benchmark table\"}", i, i, i % 97, i % 1000, i % 3, i
      }
      printf "]}"
    }' > "$work/env"
    arm "POST /v1/tools/list_changes" "$work/env" 1000
    floor=(-s -X POST -H 'Content-Type: application/json' -d '{"input":{}}' "$exe/v1/tools/list_changes")
    if command -v jq > /dev/null; then
      peer="curl -s -X POST -H 'Content-Type: application/json' -d '{\"input\":{}}' '$exe/v1/tools/list_changes' | jq -r '.result[] | [.[] | tostring] | @tsv'"
    fi
    pair table100k list_changes
    ;;
  script1000)
    # A JSON text result (an MCP-style text part holding a JSON array of
    # 20 objects), rendered as a table, 1,000 times in one script.
    awk 'BEGIN {
      printf "{\"ok\":true,\"toolName\":\"list_changes\",\"callId\":\"c1\",\"isError\":false,\"result\":\"["
      for (i = 0; i < 20; i++) {
        if (i > 0) printf ","
        printf "{\\\"sha\\\":\\\"%040d\\\",\\\"author\\\":\\\"dev%d\\\",\\\"date\\\":\\\"2026-11-%02dT10:00:00Z\\\",\\\"subject\\\":\\\"change number %d\\\",\\\"files\\\":[\\\"a.go\\\",\\\"b.go\\\"]}", i, i % 5, i % 28 + 1, i
      }
      printf "]\"}"
    }' > "$work/env"
    arm "POST /v1/tools/list_changes" "$work/env" 100000
    for _ in $(seq 1000); do echo list_changes; done > "$work/script.agsh"
    measure "script1000 new" sh -c "exec '$new' < '$work/script.agsh'"; read -r nw nc nm < "$work/last"
    if [ -n "$old" ]; then
      measure "script1000 old" sh -c "exec '$old' < '$work/script.agsh'"; read -r ow oc om < "$work/last"
      awk -v a="$nc" -v b="$oc" -v c="$nw" -v d="$ow" 'BEGIN { printf "%-34s new/old: cpu %.2fx  wall %.2fx\n", "script1000", a/b, c/d }'
    fi
    ;;
  color50k)
    : > "$work/root/big.go"
    for f in $(git ls-files '*.go'); do
      [ "$(wc -c < "$work/root/big.go")" -gt 48000 ] && break
      cat "$f" >> "$work/root/big.go"
    done
    head -c 50000 "$work/root/big.go" | sed '$d' > "$work/root/b.go" && mv "$work/root/b.go" "$work/root/big.go"
    export CLICOLOR_FORCE=1
    pair color50k read /repo/big.go
    if command -v strace > /dev/null; then
      for b in new old; do
        bin=$new; [ $b = old ] && bin=$old
        [ -z "$bin" ] && continue
        strace -f -c -e trace=write -o "$work/strace" "$bin" read /repo/big.go > /dev/null 2>&1
        awk -v b=$b '$NF == "write" { printf "%-34s write calls %d\n", "color50k " b, $4 }' "$work/strace"
      done
    fi
    export CLICOLOR_FORCE=
    ;;
  color50kpty)
    [ -e "$work/root/big.go" ] || { echo "color50kpty: run it with color50k (it reads that row's file)" >&2; continue; }
    printf '#!/usr/bin/env bash\nexec script -qfec "$(printf "%%q " "$@")" /dev/null\n' > "$work/pty"
    chmod +x "$work/pty"
    wrap=("$work/pty")
    export COLORFGBG='15;0'
    pair color50kpty read /repo/big.go
    unset COLORFGBG
    wrap=()
    ;;
  help10k)
    awk 'BEGIN {
      printf "{\"ok\":true,\"tools\":["
      for (i = 0; i < 10000; i++) {
        if (i > 0) printf ","
        if (i % 4 == 0) printf "{\"name\":\"tool_%05d\",\"title\":\"Does thing number %d\",\"source\":{\"kind\":\"authored\"}}", i, i
        else printf "{\"name\":\"conn%02d_tool_%05d\",\"title\":\"A connection tool, number %d\",\"source\":{\"kind\":\"connection\",\"connection\":\"conn%02d\"}}", i % 40, i, i, i % 40
      }
      printf "]}"
    }' > "$work/env"
    arm "GET /v1/tools" "$work/env" 100000
    local_runs=$runs; runs=$((runs * 5))
    measure "help10k agsh" "$new" help; read -r nw nc nm < "$work/last"
    measure "help10k curl" curl -sf "$exe/v1/info" "$exe/v1/tools" "$exe/v1/sessions"; read -r cw cc cm < "$work/last"
    awk -v a="$nw" -v b="$cw" 'BEGIN { printf "%-34s agsh/curl: wall %.2fx\n", "help10k new", a/b }'
    if [ -n "$old" ]; then
      measure "help10k old" "$old" help; read -r ow oc om < "$work/last"
      measure "help10k curl" curl -sf "$exe/v1/info" "$exe/v1/tools" "$exe/v1/sessions"; read -r cw cc cm < "$work/last"
      awk -v a="$ow" -v b="$cw" -v c="$nw" 'BEGIN { printf "%-34s agsh/curl: wall %.2fx   new/old %.2fx\n", "help10k old", a/b, c/a }'
    fi
    runs=$local_runs
    ;;
  tab10k)
    mkdir -p "$work/root2"
    ./bin/agsh-devserver --addr 127.0.0.1:0 --root "$work/root2" > "$work/log2" 2>&1 &
    server2=$!
    for _ in $(seq 100); do grep -q '^ready$' "$work/log2" && break; sleep 0.1; done
    exe2=$(awk '$1 == "executor" { print $2 }' "$work/log2")
    # The catalogs: n connection tools; the last one's detail has five
    # flags, one an enum (the shape of internal/cli's completion benchmark).
    catalog() {
      awk -v n="$1" 'BEGIN {
        printf "{\"ok\":true,\"tools\":["
        for (i = 0; i < n; i++) {
          if (i > 0) printf ","
          printf "{\"name\":\"conn_tool_%05d\",\"title\":\"Does thing number %d for the operator\",\"source\":{\"kind\":\"connection\",\"connection\":\"conn\"}}", i, i
        }
        printf "]}"
      }' > "$work/listing.$1"
      printf '{"ok":true,"tool":{"name":"%s","description":"Does a thing.","source":{"kind":"connection","connection":"conn"},"inputSchema":{"type":"object","properties":{"state":{"type":"string","enum":["No Data","OK","Alert","Warn"],"description":"The state of the monitors to list."},"query":{"type":"string","description":"A search query."},"limit":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}},"verbose":{"type":"boolean"}},"required":["query"]}}}' \
        "$(printf 'conn_tool_%05d' $(($1 - 1)))" > "$work/detail.$1"
    }
    catalog 10; catalog 10000
    arm "GET /v1/tools" "$work/listing.10" 100000 "$exe"
    arm "GET /v1/tools/conn_tool_00009" "$work/detail.10" 100000 "$exe"
    arm "GET /v1/tools" "$work/listing.10000" 100000 "$exe2"
    arm "GET /v1/tools/conn_tool_09999" "$work/detail.10000" 100000 "$exe2"
    builds=(new); [ -n "$old" ] && builds+=(old)
    for n in 10 10000; do
      at=$exe; [ "$n" = 10000 ] && at=$exe2
      last=$(printf 'conn_tool_%05d' $((n - 1)))
      for b in "${builds[@]}"; do
        bin=$new; [ "$b" = old ] && bin=$old
        mkdir -p "$work/cache.$b.$n"
        tabenv=(env "XDG_CACHE_HOME=$work/cache.$b.$n" "AGENT_SHELL_TARGET=$at")
        measure "refresh$n $b" "${tabenv[@]}" "$bin" --__complete-refresh
        echo "refresh$n $b: cache $(cat "$work/cache.$b.$n"/agsh/* | wc -c) bytes in $(ls "$work/cache.$b.$n/agsh" | wc -l) files"
        # The first flag Tab may fetch the tool's detail: the runs are warm.
        "${tabenv[@]}" "$bin" --__complete bash -- "agsh $last --state N" N > /dev/null
      done
    done
    # Each build, catalog and word, alternated run by run.
    for kind in name flag; do
      for n in 10 10000; do for b in "${builds[@]}"; do rm -f "$work/times.tab$n-$kind $b" "$work/md5.tab$n-$kind $b"; done; done
    done
    for _ in $(seq "$runs"); do
      for kind in name flag; do
        for n in 10 10000; do
          at=$exe; [ "$n" = 10000 ] && at=$exe2
          last=$(printf 'conn_tool_%05d' $((n - 1)))
          line="agsh ${last%?}" cur=${last%?}
          [ "$kind" = flag ] && line="agsh $last --state N" cur=N
          for b in "${builds[@]}"; do
            bin=$new; [ "$b" = old ] && bin=$old
            once "tab$n-$kind $b" env "XDG_CACHE_HOME=$work/cache.$b.$n" "AGENT_SHELL_TARGET=$at" "$bin" --__complete bash -- "$line" "$cur"
          done
        done
      done
    done
    for kind in name flag; do
      for b in "${builds[@]}"; do
        summary "tab10-$kind $b"; read -r sw sc sm < "$work/last"
        summary "tab10000-$kind $b"; read -r lw lc lm < "$work/last"
        awk -v a="$lw" -v b="$sw" -v c="$lc" -v d="$sc" -v r="tab-$kind $b" 'BEGIN {
          printf "%-34s 10000/10: wall %.2fx  cpu %.2fx\n", r, a/b, c/d }'
        eval "tab_${kind}_$b=\$lw"
      done
      if [ -n "$old" ]; then
        same=identical
        cmp -s "$work/md5.tab10000-$kind new" "$work/md5.tab10000-$kind old" || same=DIFFERENT
        awk -v a="$(eval echo "\$tab_${kind}_new")" -v b="$(eval echo "\$tab_${kind}_old")" -v r="tab10000-$kind" -v s="$same" 'BEGIN {
          printf "%-34s new/old: wall %.2fx  (output %s)\n", r, a/b, s }'
      fi
    done
    kill "$server2" 2>/dev/null; server2=""
    ;;
  trace100k|tail100k)
    # The console's views: builds without them (no :trace) sit out.
    keep=$old
    if [ -n "$old" ] && "$old" :trace --help > /dev/null 2>&1; then :; else old=""; fi
    if [ "$row" = trace100k ]; then
      record "$work/env" 100000 envelope
      arm "GET /v1/session/ses_bench/events" "$work/env" 100000
      floor=(-s "$exe/v1/session/ses_bench/events")
      pair trace100k :trace ses_bench
      floor=(-s "$exe/v1/session/ses_bench/events")
      pair trace100kjson --output json :trace ses_bench
    else
      printf '{"ok":true,"sessionId":"ses_bench","firstIndex":0,"nextIndex":0,"events":[]}' > "$work/env"
      arm "GET /v1/session/ses_bench/events" "$work/env" 100000
      record "$work/env" 100000 ndjson
      arm "GET /v1/session/ses_bench/stream" "$work/env" 100000
      for form in text ndjson; do
        o=(); [ "$form" = ndjson ] && o=(--output json)
        floor=(-s "$exe/v1/session/ses_bench/stream")
        pair "tail100k$form" "${o[@]}" :tail ses_bench
        for b in new old; do
          [ -e "$work/times.tail100k$form $b" ] || continue
          sort -n "$work/times.tail100k$form $b" | awk -v r="tail100k$form $b" '{ a[NR] = $1 } END {
            printf "%-34s %.0f events/s (median wall, the whole process)\n", r, 100000 / (a[int((NR + 1) / 2)] / 1e6) }'
        done
      done
    fi
    old=$keep
    ;;
  *) echo "unknown row $row" >&2; exit 2 ;;
  esac
done
