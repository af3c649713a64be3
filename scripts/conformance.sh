#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# tests/mcp/conformance/package.json with the Node 22 it needs, both from npm) against
# examples/conformance_server, built with GCC 12 (preset gcc): every active server scenario, or
# the one named; then every client scenario (auth/ included) against examples/conformance_client
# (with agentry::tls, for https:// and private_key_jwt). A failure not listed in
# tests/mcp/conformance/expected-failures.yml, or a listed one that passes, makes it fail. ctest
# runs the same as mcp.conformance.server and mcp.conformance.client.
# Usage: scripts/conformance.sh [SCENARIO]   (a server scenario; the client scenarios run only
#        without one)
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
apt_need g++-12 cmake make libboost1.81-dev libcurl4-openssl-dev libssl-dev doctest-dev
npm_need
cmake --preset gcc -S "$agentry_root" >/dev/null
cmake --build --preset gcc -j"$(nproc)" --target conformance_server conformance_client
status=0
"$agentry_root/tests/mcp/conformance/run_server.sh" "$agentry_root/build/gcc/examples/conformance_server" \
    "$agentry_root/tests/mcp/conformance/expected-failures.yml" "$@" || status=1
if [ $# -eq 0 ]; then
    "$agentry_root/tests/mcp/conformance/run_client.sh" "$agentry_root/build/gcc/examples/conformance_client" \
        "$agentry_root/tests/mcp/conformance/expected-failures.yml" || status=1
fi
exit $status
