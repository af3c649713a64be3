#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The loop benchmark alone: benchmarks/provider/run.sh with BENCHES=loop (same environment
# variables; see there).
set -euo pipefail
script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
BENCHES=${BENCHES:-loop} exec "$script_dir/../provider/run.sh" "$@"
