#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Where the time of a case goes: builds agentry_provider_profile and agentry_loop_profile with
# the benchmark flags plus -g -fno-omit-frame-pointer, runs each case under `perf record -g`
# and prints the top entries of `perf report --no-children --stdio`.
#
#   benchmarks/provider/profile.sh
#
# Cases: request, parse, turn, sse (agentry_provider_profile <case>) and loop
# (agentry_loop_profile: restore + run of 2 turns).
#
# Environment (all optional):
#   COMPILER  (default: g++-12)     CASES  (default: "turn sse loop")     TOP  entries (default: 15)
#   JOBS      (default: 1)          HEADERS (default: <repo>/include)
#   OUT       (default: ${TMPDIR:-/tmp}/agentry-provider-profile)         SKIP_BUILD=1  reuse the builds

set -euo pipefail

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)

COMPILER=${COMPILER:-g++-12}
CASES=${CASES:-"turn sse loop"}
TOP=${TOP:-15}
JOBS=${JOBS:-1}
HEADERS=${HEADERS:-$repo/include}
OUT=${OUT:-${TMPDIR:-/tmp}/agentry-provider-profile}
FLAGS="-O2 -DNDEBUG -g -fno-omit-frame-pointer"

command -v perf >/dev/null || { echo "profile.sh: perf not found (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(cd -- "$OUT" && pwd)

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    rm -rf "$OUT/include"
    cp -r "$HEADERS" "$OUT/include"
    for b in provider loop; do
        src=$([[ $b == provider ]] && echo "$script_dir" || echo "$repo/benchmarks/loop")
        var=$([[ $b == provider ]] && echo PROVIDER_BENCH_AGENTRY_INCLUDE_DIR || echo LOOP_BENCH_AGENTRY_INCLUDE_DIR)
        echo "== $b, $COMPILER: build in $OUT/$b" >&2
        cmake -S "$src" -B "$OUT/$b" -DCMAKE_CXX_COMPILER="$COMPILER" -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_FLAGS_RELEASE="$FLAGS" -D"$var"="$OUT/include" >"$OUT/$b.configure.log"
        cmake --build "$OUT/$b" -j "$JOBS" --target "agentry_${b}_profile" >"$OUT/$b.build.log" 2>&1 || {
            echo "profile.sh: the build failed; log: $OUT/$b.build.log" >&2
            exit 1
        }
    done
fi

for c in $CASES; do
    if [[ $c == loop ]]; then
        cmd=("$OUT/loop/agentry_loop_profile" 30000)
    else
        cmd=("$OUT/provider/agentry_provider_profile" "$c" 100000)
    fi
    echo "### $c: perf record -g ${cmd[*]##*/}"
    echo ""
    echo '```'
    perf record -g -o "$OUT/$c.perf.data" "${cmd[@]}" 2>/dev/null | sed 's/^/# /'
    perf report -i "$OUT/$c.perf.data" --no-children --stdio 2>/dev/null |
        grep -E '^ +[0-9.]+%' | head -n "$TOP" | sed -E 's/ +/ /g' | cut -c1-180 || true  # head ends the pipe early
    echo '```'
    echo ""
done
