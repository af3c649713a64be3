#!/bin/sh
# SPDX-License-Identifier: BSL-1.0
# agentry-report on a SQLite store holding the durable run and the planned run (runs.hpp): the
# pages it writes, checked for their elements, and its errors and exit statuses.
#   program.sh FIXTURE AGENTRY_REPORT OUT_DIR
set -u
fixture=$1
program=$2
out=$3
mkdir -p "$out"
"$fixture" store "$out/runs.db" >"$out/ids.txt" || { echo "FAIL: the fixture made no store"; exit 1; }
durable=$(sed -n 's/^durable //p' "$out/ids.txt")
planned=$(sed -n 's/^planned //p' "$out/ids.txt")
status=0
fail() {
    echo "FAIL: $1"
    status=1
}
# has FILE COUNT TEXT: FILE holds TEXT COUNT times.
has() {
    n=$(grep -oF -- "$3" "$1" | wc -l)
    [ "$n" -eq "$2" ] || fail "$1 has $n of $3 (expected $2)"
}
# exits STATUS STDERR COMMAND...: the command exits with STATUS and writes STDERR (one line).
exits() {
    want_status=$1
    want_error=$2
    shift 2
    "$@" >"$out/stdout.txt" 2>"$out/stderr.txt"
    got=$?
    [ "$got" -eq "$want_status" ] || fail "$* exited $got (expected $want_status)"
    [ "$(cat "$out/stderr.txt")" = "$want_error" ] || fail "$* wrote: $(cat "$out/stderr.txt") (expected: $want_error)"
}

exits 0 "" "$program" --sqlite "$out/runs.db" "$durable" -o "$out/durable.html" --title "Durable run"
has "$out/durable.html" 1 '<title>Durable run</title>'
has "$out/durable.html" 1 "data-run-id=\"$durable\""
has "$out/durable.html" 1 '<dd class="status-done">done</dd>'
has "$out/durable.html" 1 '<div class="row call failed" data-call="c1" data-tool="weather_at" data-status="tool_error"'
has "$out/durable.html" 1 'data-call="c2" data-tool="quote" data-status="ok" data-turn="1" data-retries="1">'
has "$out/durable.html" 1 'data-call="c3" data-tool="book" data-status="ok" data-turn="1" data-retries="0" data-approval="edited">'
has "$out/durable.html" 1 '<div class="nested" data-step="c4"><section class="run sub-run"'
has "$out/durable.html" 1 '<div class="row turn" data-turn="1" data-retries="1">'

# To the standard output.
exits 0 "" "$program" --sqlite "$out/runs.db" "$planned"
cp "$out/stdout.txt" "$out/planned.html"
has "$out/planned.html" 2 '<svg class="plan-graph"'
has "$out/planned.html" 1 '<g class="node failed" data-step="s2" data-round="1">'
has "$out/planned.html" 1 '<path class="edge" data-from="s6" data-to="s9"'
has "$out/planned.html" 1 '<section class="run sub-run" id="r2"'

usage="usage: agentry-report (--sqlite FILE | --postgres CONNINFO) RUN_ID [-o OUT.html] [--title TEXT]"
exits 1 "agentry: render_report: no run nope in this store; give the id start_run returned (store.runs lists the runs by status)" \
    "$program" --sqlite "$out/runs.db" nope
exits 1 "agentry-report: cannot open $out/missing.db: No such file or directory; give the SQLite file the runs are stored in" \
    "$program" --sqlite "$out/missing.db" "$durable"
[ ! -e "$out/missing.db" ] || fail "agentry-report made $out/missing.db"
exits 1 "agentry-report: cannot write $out/no-dir/x.html: No such file or directory; give -o a path in a writable directory" \
    "$program" --sqlite "$out/runs.db" "$durable" -o "$out/no-dir/x.html"
exits 2 "agentry-report: give the store: one of --sqlite FILE or --postgres CONNINFO; $usage" "$program" "$durable"
exits 2 "agentry-report: give the store: one of --sqlite FILE or --postgres CONNINFO; $usage" \
    "$program" --sqlite a.db --postgres "host=x" "$durable"
exits 2 "agentry-report: give the run id (as start_run returned it); $usage" "$program" --sqlite "$out/runs.db"
exits 2 "agentry-report: unknown option --html; $usage" "$program" --html "$durable"
exits 2 "agentry-report: -o needs a value; $usage" "$program" --sqlite "$out/runs.db" "$durable" -o
exits 2 "agentry-report: one run id only (got a and b); $usage" "$program" --sqlite "$out/runs.db" a b
exits 0 "" "$program" --help
[ "$(cat "$out/stdout.txt")" = "$usage" ] || fail "--help wrote $(cat "$out/stdout.txt")"
if [ $status -eq 0 ]; then
    echo "agentry-report: every page and error as expected"
fi
exit $status
