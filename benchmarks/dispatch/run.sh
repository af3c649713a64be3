#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Run-time cost of one tool call: agentry against hand-written nlohmann::json and Boost.JSON
# dispatchers (all in one binary, one run per compiler) and against a Python registry
# (json.loads + jsonschema + json.dumps).
#
#   benchmarks/dispatch/run.sh
#
# 1. Copies <repo>/include to OUT/include (so that both compilers build the same headers while
#    others edit them) and, for each compiler, configures benchmarks/dispatch standalone
#    (CMake Release, -O2 -DNDEBUG) against that copy and builds agentry_dispatch_bench,
#    agentry_dispatch_print_fixture and agentry_dispatch_profile. When a build fails, the copy
#    is taken again after a minute and everything rebuilt (at most 3 attempts).
# 2. For each compiler runs
#      agentry_dispatch_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#    (the binary first checks every implementation: same values read, same results, invalid
#    arguments rejected, every allocation freed).
# 3. Runs python_baseline.py on the schema and arguments print_fixture prints.
# 4. Prints Markdown tables (report.py): medians of CPU time, allocations per call, ratios,
#    the targets; also written to OUT/report.md.
#
# Environment (all optional):
#   COMPILERS       compilers to use                      (default: "g++-12 clang++-14")
#   TOOL_COUNTS     sizes of the registries of many tools (default: "1 10 100 500")
#   REPETITIONS     --benchmark_repetitions               (default: 5)
#   BENCH_ARGS      more flags for the benchmark binary, e.g. --benchmark_filter=agentry
#   PYTHON          Python with the jsonschema package     (default: /usr/bin/python3, Debian's)
#   JOBS            parallel compile jobs                 (default: nproc)
#   OUT             builds, results and report.md         (default: ${TMPDIR:-/tmp}/agentry-dispatch-bench)
#   SKIP_BUILD=1    reuse the builds in OUT
#   GLAZE_DIR       include directory of a glaze checkout for C++20 (e.g. glaze 2.9.5): its
#                   cases join agentry_dispatch_bench for every compiler
#   GLAZE_COMPILER  compiler for the glaze cases of the Clang builds, which cannot build glaze
#                   2.9.5 themselves (e.g. g++-12): the rest of that binary is still built by Clang
#   GLAZE_CXX23_DIR include directory of a glaze that needs -std=c++2b (e.g. 6.4.0): with
#                   g++, agentry_dispatch_bench_cxx23 is built and run too (agentry,
#                   nlohmann::json and that glaze in one process)
#
# Works from any working directory.

set -euo pipefail

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)

COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
TOOL_COUNTS=${TOOL_COUNTS:-"1 10 100 500"}
REPETITIONS=${REPETITIONS:-5}
BENCH_ARGS=${BENCH_ARGS:-}
PYTHON=${PYTHON:-/usr/bin/python3}
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-${TMPDIR:-/tmp}/agentry-dispatch-bench}
GLAZE_DIR=${GLAZE_DIR:-}
GLAZE_CXX23_DIR=${GLAZE_CXX23_DIR:-}
GLAZE_COMPILER=${GLAZE_COMPILER:-}
FLAGS="-O2 -DNDEBUG"
ATTEMPTS=3
RETRY_WAIT=60

for cxx in $COMPILERS; do
    command -v "$cxx" >/dev/null || { echo "run.sh: compiler $cxx not found" >&2; exit 1; }
done
command -v cmake >/dev/null || { echo "run.sh: cmake not found" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "run.sh: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
"$PYTHON" -c "import jsonschema" 2>/dev/null ||
    { echo "run.sh: $PYTHON has no jsonschema module (apt-get install python3-jsonschema)" >&2; exit 1; }

mkdir -p "$OUT"
OUT=$(cd -- "$OUT" && pwd)
counts=$(echo "$TOOL_COUNTS" | tr ' ' ';')
headers="$OUT/include"

headers_checksum() {
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

# The glaze cases of a Clang build are built by GLAZE_COMPILER, when given.
glaze_compiler() {
    [[ "$1" == clang* ]] && echo "$GLAZE_COMPILER" || true
}

# The -std=c++2b glaze is built with g++ only.
cxx23_glaze() {
    [[ "$1" == g++* ]] && echo "$GLAZE_CXX23_DIR" || true
}

build_all() {
    for cxx in $COMPILERS; do
        local build="$OUT/$cxx"
        echo "== $cxx: configure and build in $build" >&2
        rm -f "$build/compile_times.txt"
        cmake -S "$script_dir" -B "$build" \
            -DCMAKE_CXX_COMPILER="$cxx" \
            -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_FLAGS_RELEASE="$FLAGS" \
            -DCMAKE_CXX_COMPILER_LAUNCHER="/usr/bin/time;-a;-o;$build/compile_times.txt;-f;%e s %U user %M KB %C" \
            -DDISPATCH_TOOL_COUNTS="$counts" \
            -DDISPATCH_AGENTRY_INCLUDE_DIR="$headers" \
            -DAGENTRY_BENCH_GLAZE_DIR="$GLAZE_DIR" \
            -DAGENTRY_BENCH_GLAZE_COMPILER="$(glaze_compiler "$cxx")" \
            -DAGENTRY_BENCH_GLAZE_CXX23_DIR="$(cxx23_glaze "$cxx")" >"$OUT/$cxx.configure.log" || return 1
        cmake --build "$build" -j "$JOBS" >"$OUT/$cxx.build.log" 2>&1 || {
            grep -m 5 -E "error" "$OUT/$cxx.build.log" >&2 || true
            echo "run.sh: the $cxx build failed; log: $OUT/$cxx.build.log" >&2
            return 1
        }
    done
}

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    attempt=1
    while :; do
        rm -rf "$headers"
        cp -r "$repo/include" "$headers"
        echo "== headers: copy of $repo/include, checksum $(headers_checksum "$headers")" >&2
        build_all && break
        if ((attempt == ATTEMPTS)); then
            echo "run.sh: the builds failed $ATTEMPTS times" >&2
            exit 1
        fi
        echo "run.sh: retrying in $RETRY_WAIT s with a new copy of the headers (they may be mid-edit)" >&2
        sleep "$RETRY_WAIT"
        attempt=$((attempt + 1))
    done
fi

bench_files=()
compile_files=()
loads=()
for cxx in $COMPILERS; do
    build="$OUT/$cxx"
    before=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "== $cxx: benchmark (load average before: $before)" >&2
    "$build/agentry_dispatch_bench" \
        --benchmark_repetitions="$REPETITIONS" \
        --benchmark_report_aggregates_only=true \
        --benchmark_out="$OUT/$cxx.bench.json" --benchmark_out_format=json \
        $BENCH_ARGS | tee "$OUT/$cxx.bench.txt" >&2
    after=$(cut -d' ' -f1-3 /proc/loadavg)
    loads+=("$cxx: $before before, $after after")
    bench_files+=(--bench "$cxx=$OUT/$cxx.bench.json")
    if [[ -x "$build/agentry_dispatch_bench_cxx23" && -n "$(cxx23_glaze "$cxx")" ]]; then
        echo "== $cxx -std=c++2b: benchmark" >&2
        "$build/agentry_dispatch_bench_cxx23" \
            --benchmark_repetitions="$REPETITIONS" \
            --benchmark_report_aggregates_only=true \
            --benchmark_out="$OUT/$cxx.cxx23.bench.json" --benchmark_out_format=json \
            $BENCH_ARGS | tee "$OUT/$cxx.cxx23.bench.txt" >&2
        bench_files+=(--bench "$cxx, c++2b=$OUT/$cxx.cxx23.bench.json")
    fi
    compile_files+=(--compile "$cxx=$build/compile_times.txt")
done

first=${COMPILERS%% *}
"$OUT/$first/agentry_dispatch_print_fixture" >"$OUT/fixture.json"
echo "== Python baseline ($PYTHON)" >&2
before=$(cut -d' ' -f1-3 /proc/loadavg)
"$PYTHON" "$script_dir/python_baseline.py" "$OUT/fixture.json" --repeat "$REPETITIONS" --json >"$OUT/python.json"
loads+=("python: $before before, $(cut -d' ' -f1-3 /proc/loadavg) after")

{
    echo "Machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(free -g | awk '/^Mem:/ {print $2}') GiB RAM"
    echo ""
    echo "Compilers: $(for cxx in $COMPILERS; do "$cxx" --version | head -1; done | paste -sd ';' | sed 's/;/; /g')"
    echo ""
    echo "Flags: -std=c++20 $FLAGS (CMake Release), every translation unit"
    echo ""
    echo "Headers: checksum $(headers_checksum "$headers") (copy of include/ in $headers)"
    echo ""
    echo "Load average (1, 5, 15 min): $(printf '%s; ' "${loads[@]}")"
    echo ""
    "$PYTHON" "$script_dir/report.py" "${bench_files[@]}" "${compile_files[@]}" --python "$OUT/python.json"
} | tee "$OUT/report.md"
