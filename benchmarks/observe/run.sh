#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The cost of observing a tool call, with each compiler: builds agentry_observe_bench (-O2
# -DNDEBUG) against a copy of the headers, runs it with --benchmark_repetitions (medians of CPU
# time), and prints a Markdown table: each case's time, and what metrics, the tracer and both
# add to the call without an observer (observe/call/X - observe/call/off), beside their own cost
# alone (observe/record/X).
#
#   benchmarks/observe/run.sh
#
# Environment: COMPILERS (default "g++-12 clang++-14"), REPETITIONS (default 10), OUT (default
# ${TMPDIR:-/tmp}/agentry-observe-bench).
set -euo pipefail
script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)
COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
REPETITIONS=${REPETITIONS:-10}
OUT=${OUT:-${TMPDIR:-/tmp}/agentry-observe-bench}
mkdir -p "$OUT"
for cxx in $COMPILERS; do
    build="$OUT/build-$cxx"
    cmake -S "$script_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
    cmake --build "$build" -j"$(nproc)" >/dev/null
    "$build/agentry_observe_bench" --benchmark_repetitions="$REPETITIONS" --benchmark_report_aggregates_only=true \
        --benchmark_format=json --benchmark_out="$OUT/$cxx.json" --benchmark_out_format=json >/dev/null
done
python3 - "$OUT" $COMPILERS <<'PY'
import json, sys
out, compilers = sys.argv[1], sys.argv[2:]
for cxx in compilers:
    data = json.load(open(f"{out}/{cxx}.json"))
    med = {b["run_name"]: b["cpu_time"] for b in data["benchmarks"] if b.get("aggregate_name") == "median"}
    print(f"\n{cxx} (median CPU time of {data['benchmarks'][0].get('repetitions', '?')} repetitions, ns)\n")
    print("| case | ns | added to observe/call/off | ratio to off |")
    print("|---|---:|---:|---:|")
    off = med["observe/call/off"]
    for name in ["observe/call/plain", "observe/call/off", "observe/call/metrics", "observe/call/tracer", "observe/call/both",
                 "observe/record/metrics", "observe/record/tracer", "observe/record/both"]:
        t = med[name]
        added = f"{t - off:+.1f}" if name.startswith("observe/call/") and name not in ("observe/call/off",) else ""
        ratio = f"{t / off:.3f}" if name.startswith("observe/call/") else ""
        print(f"| {name} | {t:.1f} | {added} | {ratio} |")
PY
