// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVER_OBSERVE_HPP
#define AGENTRY_MCP_DETAIL_SERVER_OBSERVE_HPP

// What an mcp::server tells its observer (telemetry/observer.hpp): a server span for each request
// it answers, a child of the request's params._meta.traceparent when it has one, and a call span
// for the tool a tools/call runs, inside it. Neither is made without an observer.

#include <agentry/mcp/session.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/trace_context.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {

/// The JSON-RPC error code of the server's response to request `id`, or nothing for a result:
/// message.hpp's write_error begins {"jsonrpc":"2.0","id":<id>,"error":{"code":<code>.
inline std::optional<int> response_error_code(std::string_view response, std::string_view id) noexcept {
    constexpr std::string_view head = R"({"jsonrpc":"2.0","id":)";
    constexpr std::string_view key = R"(,"error":{"code":)";
    if (!response.starts_with(head) || response.substr(head.size(), id.size()) != id ||
        response.substr(head.size() + id.size(), key.size()) != key)
        return std::nullopt;
    std::size_t i = head.size() + id.size() + key.size();
    const bool negative = i < response.size() && response[i] == '-';
    if (negative) ++i;
    long code = 0;
    const std::size_t first = i;
    for (; i < response.size() && i - first < 9 && response[i] >= '0' && response[i] <= '9'; ++i)
        code = code * 10 + (response[i] - '0');
    if (i == first) return std::nullopt;
    return int(negative ? -code : code);
}

/// The request a thread is serving with an observer: its span, and the target its method names
/// (a tools/call's tool), known once its params are read.
class observed_request {
public:
    using clock = std::chrono::steady_clock;

    observed_request(observer* o, std::string_view method, const std::optional<trace_context>& parent,
                     std::string_view id, const session& s)
        : observer_(o), previous_(current()) {
        if (!observer_) return;
        session_id_ = s.id();
        event_.server = true;
        event_.method = method;
        event_.request_id = id;
        event_.session_id = session_id_;
        span_ = observer_->begin_mcp(parent ? &*parent : nullptr, event_, clock::now());
        current() = this;
    }
    observed_request(const observed_request&) = delete;
    observed_request& operator=(const observed_request&) = delete;
    ~observed_request() {
        if (observer_) current() = previous_;
    }

    /// Ends the span with the response the server answers.
    void end(std::string_view response) noexcept {
        if (!observer_) return;
        event_.target = target_;
        mcp_end_event e;
        e.error_code = response_error_code(response, event_.request_id);
        e.tool_error = tool_error_;
        e.end = clock::now();
        observer_->end_mcp(span_, event_, e);
    }

    /// The request this thread serves with an observer, or null.
    static observed_request*& current() noexcept {
        thread_local observed_request* request = nullptr;
        return request;
    }

    observer* watcher() const noexcept { return observer_; }
    const span_begun& span() const noexcept { return span_; }
    void set_target(std::string_view target) { target_ = target; }
    void set_tool_error() noexcept { tool_error_ = true; }

private:
    observer* observer_;
    observed_request* previous_;
    mcp_event event_{};
    span_begun span_{};
    std::string target_;
    std::string session_id_;
    bool tool_error_ = false;
};

/// The call span and record of a tool a tools/call runs, when its request is observed.
class observed_call {
public:
    using clock = std::chrono::steady_clock;

    observed_call(std::string_view tool, std::string_view id, std::string_view arguments)
        : request_(observed_request::current()) {
        if (!request_) return;
        request_->set_target(tool);
        event_.tool = tool;
        event_.call_id = id;
        event_.arguments = arguments;
        start_ = clock::now();
        const trace_context& parent = request_->span().context;
        span_ = request_->watcher()->begin_call(parent.valid() ? &parent : nullptr, event_, start_);
    }

    /// The call's span, for the tool's call_scope; not valid() when not traced.
    trace_context trace() const noexcept { return span_.context; }

    /// The tools/call result `body` (detail/content_result.hpp) is sent: one with isError true
    /// marks the request's span.
    void answered(std::string_view body) noexcept {
        if (request_ && body.ends_with(R"("isError":true})")) request_->set_tool_error();
    }

    void end(const tool_result& r) noexcept {
        if (!request_) return;
        const auto t1 = clock::now();
        step record;
        record.tool = std::string(event_.tool);
        record.id = std::string(event_.call_id);
        record.status = r.status;
        record.failure = r.failure;
        record.duration = std::chrono::duration_cast<std::chrono::microseconds>(t1 - start_);
        if (r.status != tool_status::unknown_tool && r.status != tool_status::invalid_arguments)
            record.attempts.push_back({record.tool, 1, r.status, r.failure, false, record.duration});
        request_->watcher()->end_call(span_, event_, {&record, r.content, t1});
    }

private:
    observed_request* request_;
    call_event event_{};
    span_begun span_{};
    clock::time_point start_{};
};

} // namespace agentry::mcp::detail

#endif
