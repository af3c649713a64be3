#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# One model turn with agentry::openai, and with agentry::openai_responses and agentry::anthropic
# with thinking blocks (reasoning.hpp), against the same work written with nlohmann::json
# (agentry_provider_bench), and the agent loop's cost per turn over an in-memory transport
# (agentry_loop_bench, benchmarks/loop/); one run per compiler, both implementations in it.
#
#   benchmarks/provider/run.sh
#   BENCHES=provider BENCH_ARGS='--benchmark_filter=/(responses|anthropic)/' benchmarks/provider/run.sh
#                                       # the Responses and Anthropic turns only
#
# 1. Copies <repo>/include (or $HEADERS) to OUT/include, so that both compilers build the same
#    headers while others edit them; for each compiler, configures benchmarks/provider and
#    benchmarks/loop standalone (CMake Release, -O2 -DNDEBUG) against that copy and builds them.
# 2. For each compiler runs each binary with
#      --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#    (each binary first checks that its implementations agree and aborts if they do not).
# 3. Prints the machine, compilers, flags and commands, then Markdown tables (report.py):
#    medians of CPU time, allocations per iteration, ratios, targets; a table is left out when
#    none of its cases ran. Also in OUT/report.md.
#
# Environment (all optional):
#   BENCHES       which benchmarks                     (default: "provider loop")
#   COMPILERS     compilers to use                     (default: "g++-12 clang++-14")
#   REPETITIONS   --benchmark_repetitions              (default: 5)
#   BENCH_ARGS    more flags for the benchmark binaries, e.g. --benchmark_filter=agentry
#   JOBS          parallel compile jobs                (default: 1)
#   HEADERS       the agentry headers to copy          (default: <repo>/include)
#   OUT           builds, results and report.md        (default: ${TMPDIR:-/tmp}/agentry-provider-bench)
#   SKIP_BUILD=1  reuse the builds in OUT
#   SEPARATE=1    build the providers once, in provider/provider_src.cpp, with
#                 AGENTRY_SEPARATE_COMPILATION (default: header-only)
#   AGENTRY_PROVIDER_STREAMS  the recorded OpenAI streams (default: ../shared/testdata/provider-streams/openai
#                 beside the repository); without them the SSE cases are skipped with a message
#
# Works from any working directory.

set -euo pipefail

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)

BENCHES=${BENCHES:-"provider loop"}
COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
REPETITIONS=${REPETITIONS:-5}
BENCH_ARGS=${BENCH_ARGS:-}
JOBS=${JOBS:-1}
HEADERS=${HEADERS:-$repo/include}
OUT=${OUT:-${TMPDIR:-/tmp}/agentry-provider-bench}
FLAGS="-O2 -DNDEBUG"

for cxx in $COMPILERS; do
    command -v "$cxx" >/dev/null || { echo "run.sh: compiler $cxx not found" >&2; exit 1; }
done
command -v cmake >/dev/null || { echo "run.sh: cmake not found" >&2; exit 1; }

mkdir -p "$OUT"
OUT=$(cd -- "$OUT" && pwd)
headers="$OUT/include"

source_dir() { [[ $1 == provider ]] && echo "$script_dir" || echo "$repo/benchmarks/$1"; }
include_var() { [[ $1 == provider ]] && echo PROVIDER_BENCH_AGENTRY_INCLUDE_DIR || echo LOOP_BENCH_AGENTRY_INCLUDE_DIR; }
separate_var() { [[ $1 == provider ]] && echo PROVIDER_BENCH_SEPARATE_COMPILATION || echo LOOP_BENCH_SEPARATE_COMPILATION; }
SEPARATE=${SEPARATE:-0}
separate_value=OFF
[[ "$SEPARATE" == 1 ]] && separate_value=ON
binary() { echo "agentry_$1_bench"; }

headers_checksum() {
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    rm -rf "$headers"
    cp -r "$HEADERS" "$headers"
    for cxx in $COMPILERS; do
        for b in $BENCHES; do
            build="$OUT/$b-$cxx"
            echo "== $b, $cxx: configure and build in $build" >&2
            cmake -S "$(source_dir "$b")" -B "$build" \
                -DCMAKE_CXX_COMPILER="$cxx" \
                -DCMAKE_BUILD_TYPE=Release \
                -DCMAKE_CXX_FLAGS_RELEASE="$FLAGS" \
                -D"$(include_var "$b")"="$headers" \
                -D"$(separate_var "$b")"="$separate_value" >"$OUT/$b-$cxx.configure.log"
            rm -f "$build/$(binary "$b")"
            cmake --build "$build" -j "$JOBS" --target "$(binary "$b")" >"$OUT/$b-$cxx.build.log" 2>&1 || {
                grep -m 5 error "$OUT/$b-$cxx.build.log" >&2 || true
                echo "run.sh: the $b build with $cxx failed (log: $OUT/$b-$cxx.build.log); the others go on" >&2
            }
        done
    done
fi

args=(--benchmark_repetitions="$REPETITIONS" --benchmark_report_aggregates_only=true)
report_args=()
loads=()
failed=()
for cxx in $COMPILERS; do
    for b in $BENCHES; do
        if [[ ! -x "$OUT/$b-$cxx/$(binary "$b")" ]]; then
            failed+=("$b, $cxx: not built ($(grep -E -m 2 'Generating code|failed with exit code|error:' "$OUT/$b-$cxx.build.log" 2>/dev/null | sed -E 's/^ *[0-9]+\.\s*//' | cut -c1-200 | paste -sd ';' ))")
            continue
        fi
        before=$(uptime | sed 's/.*load average: //')
        echo "== $b, $cxx: $(binary "$b") ${args[*]} $BENCH_ARGS (load average before: $before)" >&2
        status=0
        "$OUT/$b-$cxx/$(binary "$b")" "${args[@]}" \
            --benchmark_out="$OUT/$b-$cxx.json" --benchmark_out_format=json \
            $BENCH_ARGS 2>&1 | tee "$OUT/$b-$cxx.txt" >&2 || status=$?
        if ((status != 0)); then
            failed+=("$b, $cxx: exit status $status ($(grep -m 1 'FAILED' "$OUT/$b-$cxx.txt" | cut -c1-200))")
            continue
        fi
        loads+=("$b, $cxx: $before before, $(uptime | sed 's/.*load average: //') after")
        report_args+=(--"$b" "$cxx=$OUT/$b-$cxx.json")
    done
done

{
    echo "Machine: nproc $(nproc); $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(free -g | awk '/^Mem:/ {print $2}') GiB RAM; $(uname -sr)"
    echo ""
    echo "Load average (1, 5, 15 min, from uptime): $(printf '%s; ' "${loads[@]}")"
    echo ""
    echo "Compilers: $(for cxx in $COMPILERS; do "$cxx" --version | head -1; done | paste -sd ';' | sed 's/;/; /g')"
    echo ""
    echo "Libraries: Google Benchmark $(dpkg-query -W -f '${Version}' libbenchmark-dev 2>/dev/null || echo '?'), nlohmann::json $(dpkg-query -W -f '${Version}' nlohmann-json3-dev 2>/dev/null || echo '?'), Boost $(sed -n 's/^#define BOOST_LIB_VERSION "\(.*\)"/\1/p' /usr/include/boost/version.hpp | tr _ .)"
    echo ""
    echo "Flags: -std=c++20 $FLAGS (CMake Release), every translation unit; providers $([[ $separate_value == ON ]] && echo 'compiled once (AGENTRY_SEPARATE_COMPILATION)' || echo header-only)"
    echo ""
    echo "Headers: copy of $HEADERS in $headers, checksum $(headers_checksum "$headers")"
    echo ""
    echo "Command: <binary> ${args[*]} $BENCH_ARGS; binaries: $(for b in $BENCHES; do binary "$b"; done | paste -sd ' ')"
    echo ""
    for f in "${failed[@]}"; do echo "**Not measured.** $f"; echo ""; done
    python3 "$script_dir/report.py" "${report_args[@]}"
} | tee "$OUT/report.md"
