#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Tool selection on the fixture (benchmarks/select/fixture): recall@k per selector, tokens per
# turn, and BM25's time per turn for 200 and 2,000 tools, built with each compiler.
#
#   benchmarks/select/run.sh [requests|tuning]
#
# Each compiler builds main.cpp with
#   <compiler> -std=c++20 -O2 -DNDEBUG -DSELECT_BENCH_EMBEDDINGS -DAGENTRY_WITH_CURL -I<repo>/include main.cpp -lcurl
# and runs it once against the deterministic embedding server (fixture/embedding_server.mjs,
# Node 20), started here on 127.0.0.1 and stopped at exit. Recall is the same with every
# compiler; the times are theirs. The requests are fixture/requests.json (held out) unless
# "tuning" is given.
#
# Environment (optional): COMPILERS (default: "g++-12 clang++-14").
set -euo pipefail
script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)
COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
set_name=${1:-requests}
work=$(mktemp -d)
server_pid=
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

command -v node >/dev/null || { echo "run.sh: node (Node.js 20) is needed for the embedding server" >&2; exit 1; }
mkfifo "$work/stdin"
node "$script_dir/fixture/embedding_server.mjs" 0 1000000 900 < "$work/stdin" > "$work/port" &
server_pid=$!
exec 3> "$work/stdin"  # the server stops when this closes
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
port=$(head -1 "$work/port")
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(uname -sr)"
for cxx in $COMPILERS; do
    "$cxx" -std=c++20 -O2 -DNDEBUG -DSELECT_BENCH_EMBEDDINGS -DAGENTRY_WITH_CURL -I"$repo/include" \
        "$script_dir/main.cpp" -o "$work/bench" -lcurl
    echo
    echo "## $cxx -std=c++20 -O2 -DNDEBUG"
    "$work/bench" "$script_dir/fixture" "$set_name" --embeddings "http://127.0.0.1:$port/v1"
done
