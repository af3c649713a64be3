// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVER_REQUESTS_HPP
#define AGENTRY_MCP_DETAIL_SERVER_REQUESTS_HPP

// The requests a server sends to its client (elicitation/create, sampling/createMessage) and
// waits on: one table per session (session::requests()), ids 1, 2, ... per session, and the
// routing of the client's answer (a JSON-RPC response) to the thread waiting for it. An answer
// whose id no request waits on (unknown, timed out, cancelled) is dropped.
//
// The thread serving a request finds its session's table, its transport's sink and its stop
// token through the thread-local current_asking_, set by server::handle while it serves a
// request (as logging.hpp's current_request_). ask() sends the request through the sink and
// waits for the answer, the timeout, the stop token, or close(). In a stateless (2026-07-28)
// tools/call, ask() takes the answer the client sent with the call, or adds the question to
// the call's InputRequiredResult (input_rounds.hpp).
//
// Memory: one entry per request waiting, removed when its wait ends.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/ask.hpp>
#include <agentry/mcp/detail/input_rounds.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/stop_token.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// What the client declared in `initialize` that requests of the server need.
struct client_abilities {
    /// elicitation in form mode: `capabilities.elicitation` empty (2025-06-18, or 2025-11-25's
    /// form-only default) or with `form`.
    bool elicitation_form = false;
    /// elicitation in URL mode: `capabilities.elicitation.url` (2025-11-25).
    bool elicitation_url = false;
    /// `capabilities.sampling`.
    bool sampling = false;
    /// `capabilities.sampling.tools` (2025-11-25): tools and toolChoice in sampling/createMessage.
    bool sampling_tools = false;
};

/// The client's answer to one request: its result or its error object, JSON text.
struct client_answer {
    std::string result;
    std::string error;
};

enum class wait_status : unsigned char { answered, timed_out, stopped, closed };

class server_requests {
public:
    server_requests() = default;
    server_requests(const server_requests&) = delete;
    server_requests& operator=(const server_requests&) = delete;

    void declare(client_abilities abilities) {
        std::lock_guard lock(mutex_);
        abilities_ = abilities;
    }
    client_abilities abilities() const {
        std::lock_guard lock(mutex_);
        return abilities_;
    }

    /// A new request waiting for its answer: its id (JSON text); empty once closed.
    std::string open() {
        std::lock_guard lock(mutex_);
        if (closed_) return {};
        std::string id = std::to_string(++next_);
        pending_.push_back({id, false, {}});
        return id;
    }

    /// The answer to the request `id` (JSON text); false when no request waits on that id,
    /// and the answer is dropped.
    bool deliver(std::string_view id, std::string result, std::string error) {
        std::lock_guard lock(mutex_);
        const auto it = find(id);
        if (it == pending_.end() || it->answered) return false;
        it->answered = true;
        it->answer = {std::move(result), std::move(error)};
        changed_.notify_all();
        return true;
    }

    /// Waits for the answer to `id` until `deadline`, a stop of `stop`, or close(); the request
    /// no longer waits afterwards (a later answer is dropped).
    wait_status wait(std::string_view id, std::chrono::steady_clock::time_point deadline, const agentry::stop_token& stop,
                     client_answer& answer) {
        const agentry::stop_callback wake(stop, [this] {
            std::lock_guard lock(mutex_);
            changed_.notify_all();
        });
        std::unique_lock lock(mutex_);
        for (;;) {
            const auto it = find(id);
            if (it == pending_.end()) return wait_status::closed;
            if (it->answered) {
                answer = std::move(it->answer);
                pending_.erase(it);
                return wait_status::answered;
            }
            const bool stopped = stop.stop_requested();
            if (closed_ || stopped || std::chrono::steady_clock::now() >= deadline) {
                pending_.erase(it);
                return closed_ ? wait_status::closed : stopped ? wait_status::stopped : wait_status::timed_out;
            }
            changed_.wait_until(lock, deadline);
        }
    }

    /// The request `id` no longer waits (it could not be sent).
    void forget(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (const auto it = find(id); it != pending_.end()) pending_.erase(it);
    }

    /// The client can no longer answer, for `reason` ("its input ended"): every wait ends, and
    /// no request is sent from now on.
    void close(std::string_view reason) {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        closed_ = true;
        reason_ = std::string(reason);
        changed_.notify_all();
    }
    /// Why close() was called; empty before.
    std::string closed_reason() const {
        std::lock_guard lock(mutex_);
        return reason_;
    }

    /// Requests waiting for their answer.
    std::size_t waiting() const {
        std::lock_guard lock(mutex_);
        return pending_.size();
    }

private:
    struct entry {
        std::string id;
        bool answered;
        client_answer answer;
    };
    std::vector<entry>::iterator find(std::string_view id) {
        return std::find_if(pending_.begin(), pending_.end(), [&](const entry& e) { return e.id == id; });
    }

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<entry> pending_;
    std::uint64_t next_ = 0;
    bool closed_ = false;
    std::string reason_;
    client_abilities abilities_;
};

// The request a thread is serving, for ask(): set by server::handle.
struct asking_scope {
    server_requests* requests = nullptr;
    /// The transport's sink for messages to the client while the request is served.
    const message_sink* out = nullptr;
    /// The served request's stop token (notifications/cancelled).
    agentry::stop_token stop;
    /// The session's protocol version; empty for a stateless (2026-07-28) request.
    std::string_view version;
    /// A stateless tools/call: its questions and the client's answers (input_rounds.hpp); null
    /// elsewhere, where a stateless request cannot ask.
    input_rounds* rounds = nullptr;
    /// What a stateless request's _meta declares the client can do.
    client_abilities stateless_abilities{};

    /// The protocol version the request is served in.
    std::string_view protocol() const noexcept { return version.empty() ? stateless_protocol_version : version; }
    /// What the client can answer: declared in initialize, or in a stateless request's _meta.
    client_abilities abilities() const { return version.empty() ? stateless_abilities : requests->abilities(); }
};

inline thread_local const asking_scope* current_asking_ = nullptr;

class asking_scope_guard {
public:
    explicit asking_scope_guard(const asking_scope* scope) noexcept : previous_(current_asking_) {
        current_asking_ = scope;
    }
    ~asking_scope_guard() { current_asking_ = previous_; }
    asking_scope_guard(const asking_scope_guard&) = delete;
    asking_scope_guard& operator=(const asking_scope_guard&) = delete;

private:
    const asking_scope* previous_;
};

// `capabilities` of initialize's params, as far as the server's requests need them.
struct elicitation_capability {
    std::optional<raw_json> form;
    std::optional<raw_json> url;
};
struct sampling_capability {
    std::optional<raw_json> tools;
};
struct client_capabilities_params {
    std::optional<elicitation_capability> elicitation;
    std::optional<raw_json> sampling;
};
struct initialize_capabilities {
    std::optional<client_capabilities_params> capabilities;
};

/// What the client of `initialize` (its params, JSON text) declared; nothing when they cannot
/// be read (elicitation and sampling are then not asked for).
inline client_abilities read_client_abilities(std::string_view params) {
    if (params.empty()) return {};
    json::read_options options;
    options.max_size = params.size();
    options.max_depth = 128;
    options.ignore_unknown_properties = true;
    const auto r = json::read<initialize_capabilities>(params, options);
    if (!r.ok() || !r.value.capabilities) return {};
    const client_capabilities_params& c = *r.value.capabilities;
    client_abilities out;
    out.elicitation_form = c.elicitation && (c.elicitation->form || !c.elicitation->url);
    out.elicitation_url = c.elicitation && c.elicitation->url;
    out.sampling = c.sampling.has_value();
    if (c.sampling && c.sampling->text().starts_with('{')) {
        json::read_options inner = options;
        inner.max_size = c.sampling->text().size();
        const auto s = json::read<sampling_capability>(c.sampling->text(), inner);
        out.sampling_tools = s.ok() && s.value.tools.has_value();
    }
    return out;
}

/// The failure when the thread serves no request, or one whose transport cannot carry a request
/// to the client; nothing when it can ask.
inline std::optional<ask_error> cannot_ask(const asking_scope* scope, std::string_view who) {
    const std::string head = "agentry: " + std::string(who) + ": ";
    if (!scope || !scope->requests)
        return ask_error{ask_failure::outside_request, head + "called outside a request served by an mcp::server"};
    if (scope->version.empty()) {
        if (scope->rounds) return std::nullopt;
        return ask_error{ask_failure::no_channel,
                         head + "a stateless (2026-07-28) request asks its client only in tools/call (an "
                                "InputRequiredResult); this request cannot"};
    }
    if (!scope->out || !*scope->out)
        return ask_error{ask_failure::no_channel,
                             head + "the transport cannot carry a request to the client here (over Streamable HTTP, "
                                    "the client must accept text/event-stream on the POST being answered)"};
    return std::nullopt;
}

struct rpc_error {
    long long code = 0;
    std::string message;
};

/// "-32601 Method not found" from a JSON-RPC error object (JSON text), cut at 200 bytes.
inline std::string describe_error(std::string_view error) {
    json::read_options options;
    options.max_size = error.size();
    options.ignore_unknown_properties = true;
    const auto r = json::read<rpc_error>(error, options);
    if (!r.ok()) return "(an error object that is not {code, message})";
    return std::to_string(r.value.code) + " " + r.value.message.substr(0, 200);
}

/// The result of ask(): the client's result (JSON text), or why there is none.
struct asked {
    std::string result;
    std::optional<ask_error> error;
};

/// How an answer's result is read: its whole size, members the type does not name ignored.
inline json::read_options answer_reading(std::string_view result) noexcept {
    json::read_options reading;
    reading.max_size = result.size();
    reading.ignore_unknown_properties = true;
    return reading;
}

/// Sends the request `method` with `params` (a JSON object) to the client of the request
/// `scope` serves, and waits for its answer at most `timeout`. In a stateless call the question
/// is keyed `round_key`, or "input-<n>" without one. A request that times out or
/// whose served request is cancelled is cancelled on the client (notifications/cancelled).
/// Messages start with "agentry: <who>: ".
inline asked ask(const asking_scope& scope, std::string_view who, std::string_view method, std::string_view params,
                 std::chrono::milliseconds timeout, std::string_view round_key = {}) {
    const std::string head = "agentry: " + std::string(who) + ": ";
    asked out;
    if (scope.version.empty() && scope.rounds) {
        const std::string key = round_key.empty() ? scope.rounds->next_key() : std::string(round_key);
        if (const auto answer = scope.rounds->answer(key)) {
            out.result = std::string(*answer);
            return out;
        }
        scope.rounds->ask(key, method, params);
        out.error = {ask_failure::input_required,
                     head + "asked in the call's InputRequiredResult (" + key + "); the client calls again with its answer"};
        return out;
    }
    if (scope.stop.stop_requested()) {
        out.error = {ask_failure::cancelled, head + "the request being served was cancelled"};
        return out;
    }
    server_requests& table = *scope.requests;
    const std::string id = table.open();
    if (id.empty()) {
        out.error = {ask_failure::closed, head + "the client can no longer answer (" + table.closed_reason() + ")"};
        return out;
    }
    std::string message = R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":)";
    json::write(message, method);
    message += R"(,"params":)";
    message += params;
    message += '}';
    // At most a year: a deadline past the clock's range would overflow.
    const auto deadline =
        std::chrono::steady_clock::now() + std::min(timeout, std::chrono::milliseconds(std::chrono::hours(24 * 365)));
    try {
        (*scope.out)(message);
    } catch (...) {
        table.forget(id);
        throw;
    }
    client_answer answer;
    const wait_status status = table.wait(id, deadline, scope.stop, answer);
    const auto cancel_on_client = [&](std::string_view reason) {
        std::string note = R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" + id +
                           R"(,"reason":)";
        json::write(note, reason);
        note += "}}";
        try {
            (*scope.out)(note);
        } catch (...) {
        }
    };
    switch (status) {
    case wait_status::answered:
        if (!answer.error.empty())
            out.error = {ask_failure::client_error,
                         head + "the client answered " + std::string(method) + " with the error " + describe_error(answer.error)};
        else out.result = std::move(answer.result);
        break;
    case wait_status::timed_out:
        cancel_on_client("timed out");
        out.error = {ask_failure::timeout, head + "the client did not answer " + std::string(method) + " within " +
                                                   std::to_string(timeout.count()) + " ms"};
        break;
    case wait_status::stopped:
        cancel_on_client("the request that asked was cancelled");
        out.error = {ask_failure::cancelled, head + "the request being served was cancelled"};
        break;
    case wait_status::closed:
        out.error = {ask_failure::closed, head + "the client can no longer answer (" + table.closed_reason() + ")"};
        break;
    }
    return out;
}

} // namespace agentry::mcp::detail

#endif
