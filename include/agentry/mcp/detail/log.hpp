// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_LOG_HPP
#define AGENTRY_MCP_DETAIL_LOG_HPP

// The transports' log: one line per event, "agentry: mcp: ...", written in one piece. A log
// whose reader is gone fails quietly (no SIGPIPE, see sigpipe.hpp).

#include <agentry/mcp/detail/sigpipe.hpp>

#include <ostream>
#include <string>

namespace agentry::mcp::detail {

inline void log_line(std::ostream* log, const std::string& text) noexcept {
    if (!log) return;
    const sigpipe_blocked guard;
    try {
        *log << ("agentry: mcp: " + text + '\n') << std::flush;
    } catch (...) {
    }
}

} // namespace agentry::mcp::detail

#endif
