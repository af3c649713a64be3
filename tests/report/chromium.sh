#!/bin/sh
# SPDX-License-Identifier: BSL-1.0
# The report of the planned run (runs.hpp) in headless Chromium: a screenshot, kept in OUT_DIR,
# and the DOM Chromium built, checked for the failure, the retries, the approvals, the sub-run
# and the plan graph. Skips (exit 77) without Chromium.
#   chromium.sh FIXTURE OUT_DIR
set -u
fixture=$1
out=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIP: chromium not found; install Debian's chromium package (scripts/test.sh does)"
    exit 77
fi
mkdir -p "$out"
rm -f "$out/report.png" "$out/report.dom.html"
"$fixture" html "$out/report.html" || { echo "FAIL: the fixture wrote no report"; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Bounded: a browser that hangs fails the test instead of holding it.
run() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --user-data-dir="$profile" "$@" "file://$out/report.html"
}
run --screenshot="$out/report.png" --window-size=1280,1600 >"$out/chromium.log" 2>&1 ||
    { echo "FAIL: chromium --screenshot failed:"; cat "$out/chromium.log"; exit 1; }
run --dump-dom >"$out/report.dom.html" 2>>"$out/chromium.log" ||
    { echo "FAIL: chromium --dump-dom failed:"; cat "$out/chromium.log"; exit 1; }

status=0
# The screenshot is a PNG of the window's size.
if [ "$(head -c 8 "$out/report.png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
    echo "FAIL: $out/report.png is not a PNG"
    status=1
fi
if [ "$(od -An -tu1 -j16 -N8 "$out/report.png" | tr -s ' ' | sed 's/^ //')" != "0 0 5 0 0 0 6 64" ]; then
    echo "FAIL: $out/report.png is not 1280x1600"
    status=1
fi
# Each element, as Chromium parsed it: count EXPECTED TEXT.
expect() {
    n=$(grep -oF -- "$2" "$out/report.dom.html" | wc -l)
    if [ "$n" -ne "$1" ]; then
        echo "FAIL: the DOM has $n of $2 (expected $1)"
        status=1
    fi
}
expect 1 '<section class="run" id="r1" data-depth="0"'
expect 1 '<div class="row call failed" data-call="p1/s2" data-tool="weather_at" data-status="tool_error"'
expect 1 '<div class="row turn" data-turn="1" data-retries="1">'
expect 1 'data-call="p1/s3" data-tool="quote" data-status="ok" data-turn="1" data-retries="1">'
expect 1 '<span class="attempt failed"></span><span class="attempt ok"></span>'
expect 1 'data-call="p1/s4" data-tool="book" data-status="ok" data-turn="1" data-retries="0" data-approval="approved">'
expect 1 'data-call="p2/s8" data-tool="book" data-status="ok" data-turn="2" data-retries="0" data-approval="edited">'
expect 1 '<div class="nested" data-step="p2/s7"><section class="run sub-run" id="r2" data-depth="1"'
expect 1 'data-step="p2/s7" data-tool="research" data-stop="completed">'
expect 2 '<svg class="plan-graph"'
expect 9 '<g class="node '
expect 1 '<g class="node failed" data-step="s2" data-round="1">'
expect 1 '<g class="node not_run" data-step="s5" data-round="0">'
expect 1 '<g class="node ok" data-step="s9" data-round="2">'
expect 3 '<path class="edge"'
expect 0 '<script'
if [ $status -eq 0 ]; then
    echo "report: the DOM has every element; screenshot: $out/report.png"
fi
exit $status
