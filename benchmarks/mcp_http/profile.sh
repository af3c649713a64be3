#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Instructions per request of agentry's MCP HTTP server, under callgrind: the benchmark server
# (server.cpp, -O2 -g) serves wrk -c1 for DURATION, once per kind of request, and once with no
# request at all; instructions per request = (Ir of the run - Ir of the idle run) / requests.
# Instruction counts do not depend on the machine's load. Prints one line per kind and leaves
# the callgrind files (callgrind_annotate --inclusive=yes FILE) in the printed work folder.
#
#   benchmarks/mcp_http/profile.sh [KIND...]     KIND: session-json stateless-json session-sse
#
# Environment: DURATION (default 5s), BUILD (default /tmp/mcp-http-profile), PORT (default 18090).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../scripts/deps.sh"
DURATION=${DURATION:-5s}
BUILD=${BUILD:-/tmp/mcp-http-profile}
PORT=${PORT:-18090}
kinds=("$@")
if [ ${#kinds[@]} -eq 0 ]; then kinds=(session-json stateless-json session-sse); fi

apt_need wrk valgrind curl cmake make g++-12 libboost1.81-dev
cmake -S "$here" -B "$BUILD" -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_CXX_FLAGS=-g >/dev/null
cmake --build "$BUILD" -j2 >/dev/null

work=$(mktemp -d /tmp/mcp-http-profile.XXXXXX)
echo "work folder: $work" >&2
url=http://127.0.0.1:$PORT/mcp
arguments='{"customer":"ACME Corp","sku":"X-100","quantity":3,"unit_price":19.99,"express":true}'
accept='Accept: application/json, text/event-stream'

# run NAME: the server under callgrind until `serve NAME` returns; prints the total Ir.
run() {
    local name=$1 pid
    valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" "$BUILD/agentry_mcp_http_bench" "$PORT" 2 \
        >"$work/$name.log" 2>&1 &
    pid=$!
    until curl -s -o /dev/null "http://127.0.0.1:$PORT/"; do sleep 0.2; done
    serve "$name"
    kill -TERM "$pid"
    wait "$pid" || true
    awk '/^summary:|^totals:/ {print $2; exit}' "$work/$name.out"
}

serve() {
    local name=$1 sid meta='' version=2025-11-25
    [ "$name" = idle ] && return
    printf 'Content-Type: application/json\n%s\n' "$accept" >"$work/$name.headers"
    case $name in
    session-*)
        curl -s -D "$work/init.head" -o /dev/null "$url" -H 'Content-Type: application/json' -H "$accept" \
            -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}'
        sid=$(awk -F': *' 'tolower($1) == "mcp-session-id" {print $2}' "$work/init.head" | tr -d '\r')
        curl -s -o /dev/null "$url" -H 'Content-Type: application/json' -H "$accept" -H "Mcp-Session-Id: $sid" \
            -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
        echo "Mcp-Session-Id: $sid" >>"$work/$name.headers"
        ;;
    stateless-*)
        version=2026-07-28
        meta='"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}'
        ;;
    esac
    echo "MCP-Protocol-Version: $version" >>"$work/$name.headers"
    case $name in *-sse) meta="${meta:+$meta,}\"progressToken\":1" ;; esac
    local params="\"name\":\"quote\",\"arguments\":$arguments"
    if [ -n "$meta" ]; then params="$params,\"_meta\":{$meta}"; fi
    printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{%s}}' "$params" >"$work/$name.body"
    BENCH_BODY="$work/$name.body" BENCH_HEADERS="$work/$name.headers" \
        wrk -t1 -c1 -d"$DURATION" -s "$here/post.lua" "$url" >"$work/$name.wrk"
}

idle=$(run idle)
for kind in "${kinds[@]}"; do
    total=$(run "$kind")
    requests=$(awk '/requests in/ {print $1}' "$work/$kind.wrk")
    # The session's initialize and notifications/initialized are counted as requests too.
    case $kind in session-*) requests=$((requests + 2)) ;; esac
    printf '%s: %s requests, %d instructions per request\n' "$kind" "$requests" $(((total - idle) / requests))
done
