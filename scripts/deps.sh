# SPDX-License-Identifier: BSL-1.0
# Sourced by the other scripts: installs what is missing, from Debian packages and npm.
set -euo pipefail

agentry_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt_need PACKAGE...: installs the packages that are not installed yet.
apt_need() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -ne 0 ]; then
        echo "installing: ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# npm_need: the pinned npm test tools in node_modules: package-lock.json at the root, and the MCP
# conformance suite with the Node 22 it runs on (tests/mcp/conformance/package-lock.json).
npm_need() {
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        apt_need nodejs npm
    fi
    local dir
    for dir in "$agentry_root" "$agentry_root/tests/mcp/conformance"; do
        if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
            (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
            touch "$dir/node_modules"
        fi
    done
}
