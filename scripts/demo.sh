#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The main job: builds the travel assistant agent and runs it end to end. Without
# AGENTRY_BASE_URL or an API key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY), it starts
# a scripted OpenAI-compatible model server on 127.0.0.1 (examples/demo_model_server.mjs) and
# points the agent at it: no key and no network needed. The scripted model plans one trip; a
# request of your own needs a real provider.
# Usage: scripts/demo.sh ["request"]
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
apt_need g++ cmake make libboost1.81-dev libcurl4-openssl-dev
command -v node >/dev/null || apt_need nodejs
build="$agentry_root/build/demo"
provider="${AGENTRY_BASE_URL:-}${OPENAI_API_KEY:-}${ANTHROPIC_API_KEY:-}${GEMINI_API_KEY:-}"
if [ -z "$provider" ] && [ $# -gt 0 ]; then
    echo "demo: no provider is configured, and the scripted model answers only its scripted trip" \
         "(Paris to Lisbon), not \"$1\"." >&2
    echo "demo: to ask your own question, set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or" \
         "AGENTRY_BASE_URL (with AGENTRY_MODEL) and run scripts/demo.sh \"$1\" again;" \
         "scripts/demo.sh alone runs the scripted trip." >&2
    exit 2
fi
if [ ! -f "$build/examples/travel_agent" ]; then
    echo "demo: building the travel assistant agent (examples/travel_agent.cpp) in build/demo;"
    echo "demo: the first build compiles the tools' schemas and the agent and takes about a minute"
fi
cmake -S "$agentry_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF --log-level=WARNING >/dev/null
cmake --build "$build" --target travel_agent -j"$(nproc)"

if [ -z "$provider" ]; then
    echo "demo: no provider is configured: starting the scripted model server on 127.0.0.1"
    log="$(mktemp)"
    node "$agentry_root/examples/demo_model_server.mjs" 0 >"$log" &
    server=$!
    trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
    for _ in $(seq 100); do
        grep -q '^listening' "$log" && break
        sleep 0.1
    done
    port="$(awk '/^listening/ {print $2}' "$log")"
    [ -n "$port" ] || { echo "demo: the model server did not start" >&2; exit 1; }
    export AGENTRY_BASE_URL="http://127.0.0.1:$port/v1" AGENTRY_MODEL="scripted-travel-model"
fi
echo "demo: running the agent"
"$build/examples/travel_agent" "$@"
