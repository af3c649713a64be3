#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Builds and runs every test: GCC 12, Clang 14, and Clang 14 with ASan + UBSan.
# Usage: scripts/test.sh [gcc] [clang] [asan]   (default: all three)
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
apt_need g++-12 clang-14 cmake make pkgconf libboost1.81-dev libcurl4-openssl-dev doctest-dev nlohmann-json3-dev libsqlite3-dev libpq-dev postgresql
npm_need

configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(gcc clang asan)
jobs="$(nproc)"
for config in "${configs[@]}"; do
    echo "=== $config ==="
    cmake --preset "$config" -S "$agentry_root" >/dev/null
    cmake --build --preset "$config" -j"$jobs"
    (cd "$agentry_root" && ctest --preset "$config" -j"$jobs")
done
