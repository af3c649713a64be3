#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# MCP Streamable HTTP throughput, side by side: the same `quote` tool (a struct of 5 fields in,
# a struct out) served by agentry (server.cpp, g++-12 -O2), by the official TypeScript SDK
# (sdk_server.mjs, stateless and with sessions) and, as the limit, by nginx returning agentry's
# answer bytes. wrk (one thread) POSTs tools/call with 1, 16 and 256 connections, asking for
# JSON answers, then for SSE answers (Accept names both; the SSE request carries a progressToken
# and the tool reports progress once, so both servers answer with an event stream). Then each
# session server's resident memory (VmRSS) with SESSIONS sessions open.
#
#   benchmarks/mcp_http/run.sh
#
# Environment: DURATION (wrk -d, default 10s), CONNECTIONS (default "1 16 256"), SESSIONS
# (default 1000), THREADS (agentry's http_options::threads, default 2), BUILD (default
# /tmp/mcp-http-bench), PORT (the first of three ports, default 18080), NGINX_WORKERS (default
# auto), SERVERS (default "nginx agentry sdk"; agentry's answer is always checked, as nginx
# returns its bytes). Prints the tables as markdown; the wrk outputs stay in the printed work
# folder.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../scripts/deps.sh"
repo=$agentry_root

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-"1 16 256"}
SESSIONS=${SESSIONS:-1000}
THREADS=${THREADS:-2}
BUILD=${BUILD:-/tmp/mcp-http-bench}
PORT=${PORT:-18080}
NGINX_WORKERS=${NGINX_WORKERS:-auto}
SERVERS=${SERVERS:-"nginx agentry sdk"}

apt_need wrk nginx-light curl cmake make g++-12 libboost1.81-dev
command -v node >/dev/null || apt_need nodejs npm
if [ ! -d "$repo/node_modules/@modelcontextprotocol/sdk" ]; then
    (cd "$repo" && npm ci --no-audit --no-fund --loglevel=error)
fi

cmake -S "$here" -B "$BUILD" -DCMAKE_CXX_COMPILER=g++-12 >/dev/null
cmake --build "$BUILD" -j2 >/dev/null

work=$(mktemp -d /tmp/mcp-http-bench.XXXXXX)
echo "work folder: $work" >&2
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

agentry_port=$PORT
sdk_port=$((PORT + 1))
nginx_port=$((PORT + 2))
server_pid=

# start NAME PORT COMMAND...: starts a server and waits until it accepts connections.
start() {
    local name=$1 port=$2
    shift 2
    "$@" >"$work/$name.log" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    for _ in $(seq 100); do
        if curl -s -o /dev/null "http://127.0.0.1:$port/"; then return; fi
        sleep 0.1
    done
    echo "$name did not start; see $work/$name.log" >&2
    exit 1
}
stop() {
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

arguments='{"customer":"ACME Corp","sku":"X-100","quantity":3,"unit_price":19.99,"express":true}'
accept='Accept: application/json, text/event-stream'

# initialize URL: opens a session, prints its id.
initialize() {
    curl -s -D "$work/init.head" -o "$work/init.body" "$1" -H 'Content-Type: application/json' -H "$accept" \
        -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}'
    local id
    id=$(awk -F': *' 'tolower($1) == "mcp-session-id" {print $2}' "$work/init.head" | tr -d '\r')
    curl -s -o /dev/null "$1" -H 'Content-Type: application/json' -H "$accept" -H "Mcp-Session-Id: $id" \
        -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    echo "$id"
}

# request NAME ANSWERS VERSION SESSION META: writes NAME.headers and NAME.body, the request wrk
# sends. META is the members of params._meta besides the progressToken of an SSE request.
request() {
    local name=$1 answers=$2 version=$3 session=$4 meta=$5
    {
        echo 'Content-Type: application/json'
        echo "$accept"
        echo "MCP-Protocol-Version: $version"
        if [ -n "$session" ]; then echo "Mcp-Session-Id: $session"; fi
        # 2026-07-28 routes by the method and the tool's name in headers too.
        if [ "$version" = 2026-07-28 ]; then
            echo "Mcp-Method: tools/call"
            echo "Mcp-Name: quote"
        fi
    } >"$work/$name.headers"
    if [ "$answers" = sse ]; then meta="${meta:+$meta,}\"progressToken\":1"; fi
    local params="\"name\":\"quote\",\"arguments\":$arguments"
    if [ -n "$meta" ]; then params="$params,\"_meta\":{$meta}"; fi
    printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{%s}}' "$params" >"$work/$name.body"
}

# check NAME URL ANSWERS: one request with curl; the answer must be a 200 of the expected
# Content-Type holding the tool's result (and, for SSE, the progress notification).
check() {
    local name=$1 url=$2 answers=$3 type=application/json
    local -a headers=()
    local line
    while IFS= read -r line; do headers+=(-H "$line"); done <"$work/$name.headers"
    curl -s -D "$work/$name.answer.head" -o "$work/$name.answer" "${headers[@]}" --data-binary "@$work/$name.body" "$url"
    if [ "$answers" = sse ]; then type=text/event-stream; fi
    if ! head -1 "$work/$name.answer.head" | grep -q ' 200' ||
        ! grep -qi "^content-type: $type" "$work/$name.answer.head" ||
        ! grep -q '"structuredContent":{"customer":"ACME Corp","sku":"X-100","quantity":3,"total":69.97,"express":true}' "$work/$name.answer" ||
        { [ "$answers" = sse ] && ! grep -q '"method":"notifications/progress"' "$work/$name.answer"; }; then
        echo "$name: unexpected answer:" >&2
        cat "$work/$name.answer.head" "$work/$name.answer" >&2
        exit 1
    fi
}

# measure NAME URL ANSWERS: wrk at each number of connections; a row per run in results.tsv.
measure() {
    local name=$1 url=$2 answers=$3 c out
    check "$name" "$url" "$answers"
    for c in $CONNECTIONS; do
        out="$work/$name.c$c.wrk"
        BENCH_BODY="$work/$name.body" BENCH_HEADERS="$work/$name.headers" \
            wrk -t1 -c"$c" -d"$DURATION" --latency -s "$here/post.lua" "$url" >"$out"
        awk -v name="$name" -v answers="$answers" -v c="$c" '
            function ms(v) {
                if (v ~ /us$/) return v / 1000
                if (v ~ /ms$/) return v + 0
                if (v ~ /s$/) return v * 1000
                return v
            }
            $1 == "50%" {p50 = ms($2)}
            $1 == "99%" {p99 = ms($2)}
            /^Requests\/sec:/ {rps = $2}
            /Non-2xx or 3xx responses:/ {bad += $NF}
            /Socket errors:/ {gsub(",", ""); bad += $4 + $6 + $8 + $10}
            END {printf "%s\t%s\t%s\t%.0f\t%.3f\t%.3f\t%d\n", name, answers, c, rps, p50, p99, bad}' "$out" \
            >>"$work/results.tsv"
    done
}

# nginx with `return 200` of the given answer bytes, on /json and /sse.
nginx_conf() {
    local dir=$work/nginx
    mkdir -p "$dir/logs"
    # The answer in single quotes for nginx; the x keeps the trailing newlines.
    local json sse
    json=$(sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" "$1"; echo x)
    sse=$(sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" "$2"; echo x)
    cat >"$dir/nginx.conf" <<CONF
worker_processes $NGINX_WORKERS;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        location = /json { default_type application/json; return 200 '${json%x}'; }
        location = /sse {
            default_type text/event-stream;
            add_header Cache-Control no-cache;
            return 200 '${sse%x}';
        }
    }
}
CONF
}

: >"$work/results.tsv"

# agentry: one process for every row.
start agentry "$agentry_port" "$BUILD/agentry_mcp_http_bench" "$agentry_port" "$THREADS"
agentry_url=http://127.0.0.1:$agentry_port/mcp
sid=$(initialize "$agentry_url")
stateless_meta='"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}'
for answers in json sse; do
    request "agentry-session-$answers" $answers 2025-11-25 "$sid" ""
    request "agentry-stateless-$answers" $answers 2026-07-28 "" "$stateless_meta"
    check "agentry-session-$answers" "$agentry_url" $answers
done
cp "$work/agentry-session-json.answer" "$work/nginx-json.answer"
cp "$work/agentry-session-sse.answer" "$work/nginx-sse.answer"

serves() { [[ " $SERVERS " == *" $1 "* ]]; }

# nginx first, then agentry, then the SDK.
agentry_pid=$server_pid
if serves nginx; then
    nginx_conf "$work/nginx-json.answer" "$work/nginx-sse.answer"
    start nginx "$nginx_port" nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log"
    for answers in json sse; do
        request "nginx-$answers" $answers 2025-11-25 "" ""
        measure "nginx-$answers" "http://127.0.0.1:$nginx_port/$answers" $answers
        cmp -s "$work/nginx-$answers.answer" "$work/agentry-session-$answers.answer" ||
            { echo "nginx does not answer agentry's bytes" >&2; exit 1; }
    done
    stop
fi

server_pid=$agentry_pid
if serves agentry; then
    for answers in json sse; do
        measure "agentry-session-$answers" "$agentry_url" $answers
        measure "agentry-stateless-$answers" "$agentry_url" $answers
    done
fi
stop

sdk_url=http://127.0.0.1:$sdk_port/mcp
if serves sdk; then
    for mode in session stateless; do
        for answers in json sse; do
            start "sdk-$mode-$answers" "$sdk_port" node "$here/sdk_server.mjs" "$sdk_port" $mode $answers
            sid=
            if [ $mode = session ]; then sid=$(initialize "$sdk_url"); fi
            request "sdk-$mode-$answers" $answers 2025-11-25 "$sid" ""
            measure "sdk-$mode-$answers" "$sdk_url" $answers
            stop
        done
    done
fi

# Memory: a fresh process, idle, then with SESSIONS sessions open.
memory() {
    local name=$1 port=$2 idle
    shift 2
    start "$name-memory" "$port" "$@"
    idle=$(rss_kb "$server_pid")
    node "$here/open_sessions.mjs" "http://127.0.0.1:$port/mcp" "$SESSIONS" >/dev/null
    sleep 1
    printf '%s\t%s\t%s\n' "$name" "$idle" "$(rss_kb "$server_pid")" >>"$work/memory.tsv"
    stop
}
: >"$work/memory.tsv"
if serves agentry; then memory agentry "$agentry_port" "$BUILD/agentry_mcp_http_bench" "$agentry_port" "$THREADS"; fi
if serves sdk; then memory sdk "$sdk_port" node "$here/sdk_server.mjs" "$sdk_port" session json; fi

# The tables.
awk -F'\t' '
    function ratio(a, b, f) { return a > 0 && b > 0 ? sprintf(f, a / b) : "" }
    FNR == NR {rps[$1 "|" $3] = $4; p50[$1 "|" $3] = $5; p99[$1 "|" $3] = $6; bad[$1 "|" $3] = $7;
               if (!($3 in seen)) {seen[$3] = 1; cs[++n] = $3}; next}
    END {
        split("nginx agentry-session agentry-stateless sdk-session sdk-stateless", servers, " ")
        print "| answers | clients | server | req/s | p50 ms | p99 ms | errors | vs nginx |"
        print "|---|--:|---|--:|--:|--:|--:|--:|"
        for (a = 1; a <= 2; a++) {
            answers = a == 1 ? "json" : "sse"
            for (i = 1; i <= n; i++)
                for (s = 1; s <= 5; s++) {
                    k = servers[s] "-" answers "|" cs[i]
                    if (!(k in rps)) continue
                    ref = rps["nginx-" answers "|" cs[i]] + 0
                    printf "| %s | %s | %s | %d | %.2f | %.2f | %d | %s |\n", answers, cs[i], servers[s], rps[k], p50[k], p99[k], bad[k],
                        (ref > 0 ? sprintf("%.2fx", rps[k] / ref) : "")
                }
        }
        print ""
        print "| answers | clients | agentry session / nginx | agentry stateless / nginx | agentry session / SDK session | agentry stateless / SDK stateless |"
        print "|---|--:|--:|--:|--:|--:|"
        for (a = 1; a <= 2; a++) {
            answers = a == 1 ? "json" : "sse"
            for (i = 1; i <= n; i++) {
                k = "|" cs[i]
                as = rps["agentry-session-" answers k]; al = rps["agentry-stateless-" answers k]
                ng = rps["nginx-" answers k]; ss = rps["sdk-session-" answers k]; sl = rps["sdk-stateless-" answers k]
                printf "| %s | %s | %s | %s | %s | %s |\n", answers, cs[i], ratio(as, ng, "%.2fx"), ratio(al, ng, "%.2fx"),
                    ratio(as, ss, "%.1fx"), ratio(al, sl, "%.1fx")
            }
        }
    }' "$work/results.tsv" /dev/null
echo
echo "| server | VmRSS idle (MB) | VmRSS with $SESSIONS sessions (MB) |"
echo "|---|--:|--:|"
awk -F'\t' '{printf "| %s | %.1f | %.1f |\n", $1, $2 / 1024, $3 / 1024}' "$work/memory.tsv"
