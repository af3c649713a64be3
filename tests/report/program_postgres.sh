#!/bin/sh
# SPDX-License-Identifier: BSL-1.0
# agentry-report --postgres: the durable run (runs.hpp) in a PostgreSQL server the fixture
# starts, rendered by the program, checked for its elements. Skips (exit 77) without a server.
#   program_postgres.sh FIXTURE AGENTRY_REPORT OUT_DIR
set -u
out=$3
mkdir -p "$out"
rm -f "$out/durable.html"
"$1" postgres "$2" "$out/durable.html" >"$out/ids.txt"
rc=$?
cat "$out/ids.txt"
[ $rc -eq 0 ] || exit $rc
durable=$(sed -n 's/^durable //p' "$out/ids.txt")
status=0
has() {
    n=$(grep -oF -- "$1" "$out/durable.html" | wc -l)
    [ "$n" -eq 1 ] || { echo "FAIL: $out/durable.html has $n of $1 (expected 1)"; status=1; }
}
has "data-run-id=\"$durable\""
has '<dd class="status-done">done</dd>'
has '<div class="row call failed" data-call="c1" data-tool="weather_at" data-status="tool_error"'
has 'data-call="c2" data-tool="quote" data-status="ok" data-turn="1" data-retries="1">'
has 'data-approval="edited">'
has '<div class="nested" data-step="c4"><section class="run sub-run"'
[ $status -eq 0 ] && echo "agentry-report --postgres: the page as expected"
exit $status
