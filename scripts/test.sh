#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Builds and runs every test in four configurations:
#   gcc     GCC 12 and libstdc++: builds everything, runs every test but each header alone.
#   clang   Clang 14: builds nothing and runs the compile-only tests whose result is the
#           compiler's (compile-fail messages and error counts, in header-only mode, and static
#           checks). Clang 14 builds every target, and runs their tests, in asan.
#   asan    Clang 14 with ASan + UBSan: builds everything, runs every test that runs a program.
#   libcxx  Clang 19 and libc++ 19: builds everything, runs every test that runs a program, each
#           header alone (libc++ includes less of itself than libstdc++, so a missing #include
#           shows here), the strict-warnings check and, in C++26 mode, the compile-fail cases whose
#           messages name a tool and a field (computed static_assert messages). It installs Clang 19,
#           libc++ and fast_float (agentry's reader of doubles where libc++ has no std::from_chars
#           for them).
# Only gcc runs the install consumers, the compile-fail twins (valid C++ but for the marked lines)
# and the layering checks: each shows the same with any compiler.
# quick (alone): GCC 12 only, the unit, loop and MCP tests, no compile-fail suite; it installs
# only what those need (no PostgreSQL, no Clang).
# Usage: scripts/test.sh [gcc] [clang] [asan] [libcxx]   (default: all four)
#        scripts/test.sh quick
# Prints each configuration's build and ctest wall times, and a summary of them at the end.
# The gcc, clang and libcxx presets build without debug information (-g0: a fifth less compile
# time with GCC); the asan preset keeps line tables (-gline-tables-only), the file:line of the
# sanitizers' reports, without the rest of the debug information.
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
if [ "${1:-}" = quick ]; then
    apt_need g++-12 cmake make libboost1.81-dev libcurl4-openssl-dev libssl-dev doctest-dev
    npm_need
    start=$(date +%s)
    cmake --preset gcc -S "$agentry_root" >/dev/null
    cmake --build --preset gcc -j"$(nproc)" --target agentry_unit agentry_loop_tests agentry_mcp_unit \
        agentry_mcp_client agentry_mcp_client_tls agentry_mcp_feature_server agentry_mcp_noisy_server agentry_mcp_requests_server mcp_server conformance_server
    built=$(date +%s)
    (cd "$agentry_root" && ctest --preset gcc -j"$(nproc)" -R '^(unit|loop|mcp)\.' -LE '^compile$')
    echo "test.sh: quick build $((built - start)) s, ctest $(($(date +%s) - built)) s"
    exit 0
fi
apt_need g++-12 clang-14 cmake make pkgconf libboost1.81-dev libcurl4-openssl-dev libssl-dev doctest-dev nlohmann-json3-dev libsqlite3-dev libpq-dev postgresql prometheus chromium
npm_need

configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(gcc clang asan libcxx)
for config in "${configs[@]}"; do
    if [ "$config" = libcxx ]; then apt_need clang-19 libc++-19-dev libc++abi-19-dev libfast-float-dev; fi
done
jobs="$(nproc)"
times=()
summary() {
    local rc=$?
    [ ${#times[@]} -eq 0 ] || printf 'test.sh: %s\n' "${times[@]}"
    exit "$rc"
}
trap summary EXIT
for config in "${configs[@]}"; do
    echo "=== $config ==="
    start=$(date +%s)
    cmake --preset "$config" -S "$agentry_root" >/dev/null
    [ "$config" = clang ] || cmake --build --preset "$config" -j"$jobs"
    built=$(date +%s)
    times+=("$config build $((built - start)) s")
    echo "=== $config: build $((built - start)) s ==="
    (cd "$agentry_root" && ctest --preset "$config" -j"$jobs")
    tested=$(date +%s)
    times+=("$config ctest $((tested - built)) s")
    echo "=== $config: ctest $((tested - built)) s ==="
done
