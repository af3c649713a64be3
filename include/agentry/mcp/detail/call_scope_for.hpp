// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CALL_SCOPE_FOR_HPP
#define AGENTRY_MCP_DETAIL_CALL_SCOPE_FOR_HPP

// The call_scope a served tool runs with: its request's stop token and its progress sink.

#include <agentry/call_scope.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/session.hpp>
#include <agentry/mcp/version.hpp>

#include <string>
#include <string_view>

namespace agentry::mcp::detail {

// The call's scope: the request's stop token (signalled by notifications/cancelled) and, when
// the request has a progress token, a sink writing notifications/progress (increasing only).
inline call_scope call_scope_for(session& s, std::string_view id, const protocol_features& f, const request_meta& meta,
                                 double& last, bool& reported) {
    const message_sink* out = current_request_ ? current_request_->out : nullptr;
    call_scope scope{s.stop_token(id), {}};
    if (!meta.progress_token.empty() && out && *out)
        scope.on_progress = [out, &f, &meta, &last, &reported](const progress_update& u) {
            if (reported && !(u.progress > last)) return;  // progress must increase
            reported = true;
            last = u.progress;
            std::string note = R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)";
            note += meta.progress_token;
            note += R"(,"progress":)";
            json::write(note, u.progress);
            if (u.total) {
                note += R"(,"total":)";
                json::write(note, *u.total);
            }
            if (f.progress_message && !u.message.empty()) {
                note += R"(,"message":)";
                json::write(note, u.message);
            }
            note += "}}";
            (*out)(note);
        };
    return scope;
}

} // namespace agentry::mcp::detail

#endif
