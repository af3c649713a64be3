// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_OBSERVER_HPP
#define AGENTRY_TELEMETRY_OBSERVER_HPP

// agentry::observer: what agents and MCP servers and clients tell about their work, as it
// happens. agentry::metrics (telemetry/metrics.hpp) and agentry::tracer (telemetry/tracer.hpp)
// are observers; observer_list tells several. An agent takes one in agent_options::observer,
// an MCP server or client in its options. The spans, outermost first:
//
//   run    invoke_agent {agent}        a run of an agent (a sub-run nests in its tool call)
//   turn   chat {model}                a model turn, its retries included
//   plan   plan {agent}                a plan of a planned run, its steps' calls nested
//   call   execute_tool {tool}         a tool call, through the whole call pipeline
//   mcp    {method} {target}           an MCP request, on the client and on the server
//
// Every function is called on the thread doing the work, may be called from several threads at
// once, must be cheap (a tool call's pair is on the dispatch path) and must not throw. Times
// are steady_clock readings the caller already took; an observer that needs wall time converts.

#include <agentry/outcome.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/trace_context.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace agentry {

/// A span begun by an observer: its context (not valid() when no observer traces), its
/// parent's span id (all zero for a root span) and when it began.
struct span_begun {
    using clock = std::chrono::steady_clock;

    trace_context context{};
    std::array<std::uint8_t, 8> parent{};
    clock::time_point start{};
};

/// A run of an agent (span invoke_agent).
struct run_event {
    /// agent_options::name (gen_ai.agent.name).
    std::string_view agent;
    std::string_view run_id;
    /// gen_ai.provider.name: "openai", "anthropic", "gcp.gemini", "ollama", ...
    std::string_view provider;
    /// gen_ai.request.model.
    std::string_view model;
};

struct run_end_event {
    /// to_string(stop_reason).
    std::string_view stop;
    /// The run ended by an error (a provider error retries did not cure, a callback that threw):
    /// the span's status is an error, of type `error_type`.
    bool failed = false;
    std::string_view error_type;
    std::uint32_t turns = 0;
    token_usage usage{};
    std::chrono::steady_clock::time_point end{};
};

/// A model turn (span chat {model}).
struct turn_event {
    std::string_view provider;
    std::string_view model;
    /// From 1.
    std::uint32_t turn = 0;
};

struct turn_end_event {
    token_usage usage{};
    /// Transient errors retried in this turn.
    std::uint32_t retries = 0;
    /// The error that ended the turn; null when it completed.
    const provider_error* error = nullptr;
    /// gen_ai.response.finish_reasons: "stop", "tool_calls", "length", ...
    std::string_view finish_reason;
    std::chrono::steady_clock::time_point end{};
};

/// One HTTP exchange with a provider (a turn's first request or a retry).
struct request_event {
    std::string_view provider;
    std::string_view model;
    /// The error it ended with; null when it completed.
    const provider_error* error = nullptr;
    /// It is a retry of a transient error.
    bool retry = false;
    token_usage usage{};
    std::chrono::steady_clock::duration duration{};
};

/// A tool call (span execute_tool {tool}), whatever its path: a model's call, a plan's step, a
/// call served over MCP.
struct call_event {
    std::string_view tool;
    std::string_view call_id;
    call_origin origin = call_origin::model;
    /// The arguments as the model wrote them (gen_ai.tool.call.arguments, opt-in).
    std::string_view arguments;
    /// A plan's step: its id and round (from 1); empty and 0 otherwise.
    std::string_view plan_step;
    std::uint32_t round = 0;
};

struct call_end_event {
    /// The call's record: status, failure kind, tries, timeout, the fallback that answered.
    const step* record = nullptr;
    /// What the model is sent (gen_ai.tool.call.result, opt-in).
    std::string_view result;
    std::chrono::steady_clock::time_point end{};
};

/// A plan of a planned run (span plan {agent}).
struct plan_event {
    std::string_view agent;
    /// The model turn that wrote it, and its steps.
    std::uint32_t turn = 0;
    std::size_t steps = 0;
};

struct plan_end_event {
    std::uint32_t rounds = 0;
    /// A step failed, or the plan was refused.
    bool failed = false;
    std::chrono::steady_clock::time_point end{};
};

/// An MCP request (span {mcp.method.name} {target}): kind client on the client, server on the
/// server.
struct mcp_event {
    bool server = false;
    /// mcp.method.name: "tools/call", "tools/list", "initialize", ...
    std::string_view method;
    /// The tool's or prompt's name, the resource's URI; empty when the method has none.
    std::string_view target;
    /// mcp.session.id; empty without a session.
    std::string_view session_id;
    /// jsonrpc.request.id as text; empty for a notification.
    std::string_view request_id;
};

struct mcp_end_event {
    /// The JSON-RPC error code of an error response; empty for a result.
    std::optional<int> error_code;
    /// A tools/call result with isError true.
    bool tool_error = false;
    std::chrono::steady_clock::time_point end{};
    /// On a client, a request that got no response: "timeout", "cancelled" or "transport";
    /// empty otherwise.
    std::string_view error_type;
};

class observer {
public:
    using clock = std::chrono::steady_clock;

    virtual ~observer() = default;

    /// False for an observer whose begin_* functions are the ones below (it makes no spans):
    /// observer_list then skips them.
    virtual bool makes_spans() const noexcept { return true; }

    /// `parent` is the caller's context when the run is a sub-run or was called with one; null
    /// otherwise (a root span).
    virtual span_begun begin_run(const trace_context* parent, const run_event&, clock::time_point start) noexcept {
        return inherit(parent, start);
    }
    virtual void end_run(const span_begun&, const run_event&, const run_end_event&) noexcept {}

    virtual span_begun begin_turn(const span_begun& run, const turn_event&, clock::time_point start) noexcept {
        return inherit(&run.context, start);
    }
    virtual void end_turn(const span_begun&, const turn_event&, const turn_end_event&) noexcept {}
    virtual void provider_request(const request_event&) noexcept {}

    virtual span_begun begin_plan(const span_begun& run, const plan_event&, clock::time_point start) noexcept {
        return inherit(&run.context, start);
    }
    virtual void end_plan(const span_begun&, const plan_event&, const plan_end_event&) noexcept {}

    /// `parent`: the run's or plan's span, or the MCP request's that carries the call; null for
    /// none.
    virtual span_begun begin_call(const trace_context* parent, const call_event&, clock::time_point start) noexcept {
        return inherit(parent, start);
    }
    virtual void end_call(const span_begun&, const call_event&, const call_end_event&) noexcept {}

    /// `parent`: on a client, the calling span; on a server, the request's params._meta.traceparent.
    virtual span_begun begin_mcp(const trace_context* parent, const mcp_event&, clock::time_point start) noexcept {
        return inherit(parent, start);
    }
    virtual void end_mcp(const span_begun&, const mcp_event&, const mcp_end_event&) noexcept {}

protected:
    /// A span that is not traced: the parent's context passes through, so that what is nested
    /// keeps the caller's trace.
    static span_begun inherit(const trace_context* parent, clock::time_point start) noexcept {
        span_begun out;
        if (parent) out.context = *parent;
        out.start = start;
        return out;
    }
};

/// Tells every observer of a list, in order; a span's context is the first observer's that
/// traces.
class observer_list final : public observer {
public:
    observer_list(std::initializer_list<observer*> list) : list_(list) {
        for (observer* o : list_)
            if (o->makes_spans()) spanning_.push_back(o);
    }

    span_begun begin_run(const trace_context* parent, const run_event& e, clock::time_point start) noexcept override {
        return first([&](observer& o) { return o.begin_run(parent, e, start); }, parent, start);
    }
    void end_run(const span_begun& s, const run_event& e, const run_end_event& end) noexcept override {
        for (observer* o : list_) o->end_run(s, e, end);
    }
    span_begun begin_turn(const span_begun& run, const turn_event& e, clock::time_point start) noexcept override {
        return first([&](observer& o) { return o.begin_turn(run, e, start); }, &run.context, start);
    }
    void end_turn(const span_begun& s, const turn_event& e, const turn_end_event& end) noexcept override {
        for (observer* o : list_) o->end_turn(s, e, end);
    }
    void provider_request(const request_event& e) noexcept override {
        for (observer* o : list_) o->provider_request(e);
    }
    span_begun begin_plan(const span_begun& run, const plan_event& e, clock::time_point start) noexcept override {
        return first([&](observer& o) { return o.begin_plan(run, e, start); }, &run.context, start);
    }
    void end_plan(const span_begun& s, const plan_event& e, const plan_end_event& end) noexcept override {
        for (observer* o : list_) o->end_plan(s, e, end);
    }
    span_begun begin_call(const trace_context* parent, const call_event& e, clock::time_point start) noexcept override {
        return first([&](observer& o) { return o.begin_call(parent, e, start); }, parent, start);
    }
    void end_call(const span_begun& s, const call_event& e, const call_end_event& end) noexcept override {
        for (observer* o : list_) o->end_call(s, e, end);
    }
    span_begun begin_mcp(const trace_context* parent, const mcp_event& e, clock::time_point start) noexcept override {
        return first([&](observer& o) { return o.begin_mcp(parent, e, start); }, parent, start);
    }
    void end_mcp(const span_begun& s, const mcp_event& e, const mcp_end_event& end) noexcept override {
        for (observer* o : list_) o->end_mcp(s, e, end);
    }

private:
    // Every observer that makes spans begins the span (a tracer keeps nothing between begin
    // and end); the first new context wins.
    template <class Begin>
    span_begun first(Begin&& begin, const trace_context* parent, clock::time_point start) noexcept {
        span_begun out = inherit(parent, start);
        bool taken = false;
        for (observer* o : spanning_) {
            span_begun s = begin(*o);
            if (!taken && s.context.valid() && (!parent || s.context.span_id != parent->span_id)) {
                out = s;
                taken = true;
            }
        }
        return out;
    }

    std::vector<observer*> list_;
    std::vector<observer*> spanning_;  // those of list_ that make spans
};

} // namespace agentry

#endif
