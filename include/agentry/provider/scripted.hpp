// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_SCRIPTED_HPP
#define AGENTRY_PROVIDER_SCRIPTED_HPP

// agentry::scripted_model: a model for tests, examples and offline development, with no HTTP
// and no wire format. It answers each turn from a function of the request (the conversation so
// far, the tools payload, the tool choice, ...) or from a list of replies, and keeps every
// conversation it was asked about. It is a provider; agentry::scripted_transport carries its
// turns:
//
//   agentry::scripted_model model{[](const agentry::chat_request& r) {
//       if (r.messages.back().role == agentry::role::tool)               // a tool has answered
//           return agentry::scripted_model::answer("It is " + r.messages.back().text + ".");
//       return agentry::scripted_model::call("get_time", R"({"city":"Paris"})");
//   }};
//   agentry::agent<config> agent{model, tools, options, agentry::scripted_transport{}};
//
// Copies share their script and their record of requests, so a copy kept beside the agent
// reads what the agent sent. Tool definitions are those of dialect::standard. Streamed turns
// (chat_request::stream) hand the reply's text to stream_events::on_text and, for each call,
// its id and name to on_tool_call and its arguments, whole, to on_tool_arguments, then return
// the same reply. Safe from several threads.

#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/tool_call.hpp>
#include <agentry/transport/transport.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

class scripted_model {
    struct state;

public:
    using dialect = agentry::dialect::standard;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "scripted";

    /// The reply to one turn, from the request.
    using answer_function = std::function<completion(const chat_request&)>;

    /// Answers every turn with `answer(request)`; an exception it throws fails the turn
    /// (provider_error_kind::malformed, its what() in the message).
    explicit scripted_model(answer_function answer) : state_(std::make_shared<state>()) {
        state_->answer = std::move(answer);
    }

    /// Answers the turns with `replies`, in order; a turn past the last fails
    /// (provider_error_kind::malformed, "no reply left").
    explicit scripted_model(std::vector<completion> replies) : state_(std::make_shared<state>()) {
        state_->replies.assign(std::make_move_iterator(replies.begin()), std::make_move_iterator(replies.end()));
    }

    /// A text answer (finish_reason::stop).
    static completion answer(std::string text, token_usage usage = {}) {
        completion c;
        c.reply = message::assistant(std::move(text));
        c.usage = usage;
        return c;
    }

    /// A reply that calls one tool with `arguments` (JSON text), with id "call_<n>" (n from 1 in
    /// each reply).
    static completion call(std::string name, std::string arguments, token_usage usage = {}) {
        return calls({{"", std::move(name), std::move(arguments), {}}}, usage);
    }

    /// A reply that calls several tools; a call without an id gets "call_<n>".
    static completion calls(std::vector<tool_call> calls, token_usage usage = {}) {
        for (std::size_t i = 0; i != calls.size(); ++i)
            if (calls[i].id.empty()) calls[i].id = "call_" + std::to_string(i + 1);
        completion c;
        c.reply = message::assistant({}, std::move(calls));
        c.finish = finish_reason::tool_calls;
        c.usage = usage;
        return c;
    }

    /// The conversations of the turns asked so far, in order (each as the request had it).
    std::vector<std::vector<message>> conversations() const {
        std::lock_guard<std::mutex> lock(state_->mutex);
        return state_->conversations;
    }

    /// The replies not used yet (a model made from a list).
    std::size_t pending() const {
        std::lock_guard<std::mutex> lock(state_->mutex);
        return state_->replies.size();
    }

    /// The provider's request: the turn is answered here, and the request carries the key under
    /// which parse() finds the answer.
    http_request request(const chat_request& request) const {
        turn_result turn;
        std::uint64_t key = 0;
        answer_function answer;
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            state_->conversations.emplace_back(request.messages.begin(), request.messages.end());
            key = ++state_->last_key;
            if (state_->answer) {
                answer = state_->answer;
            } else if (state_->replies.empty()) {
                turn.error.message = "agentry: scripted_model has no reply left for turn " +
                                     std::to_string(state_->conversations.size());
            } else {
                turn.value = std::move(state_->replies.front());
                state_->replies.pop_front();
            }
        }
        if (answer) {
            try {
                turn.value = answer(request);
            } catch (const std::exception& e) {
                turn.error.message = std::string("agentry: scripted_model's answer function threw: ") + e.what();
            } catch (...) {
                turn.error.message = "agentry: scripted_model's answer function threw";
            }
        }
        {
            std::lock_guard<std::mutex> lock(state_->mutex);
            state_->turns.emplace(key, std::move(turn));
        }
        http_request http;
        http.method = "POST";
        http.url = "scripted://model";
        http.body = std::to_string(key);
        return http;
    }

    /// The answer the request under this key was given.
    turn_result parse(const http_response& response) const { return take(*state_, response.body); }

    /// A streamed turn: the bytes carry the key; finish() gives the events the reply's text and
    /// calls (each call's arguments as one piece), then the reply.
    class stream {
    public:
        void feed(std::string_view bytes) { key_.append(bytes); }
        turn_result finish(const http_response&) {
            turn_result turn = take(*state_, key_);
            if (turn.ok()) {
                if (events_.on_text && !turn.value->reply.text.empty()) events_.on_text(turn.value->reply.text);
                for (const tool_call& c : turn.value->reply.tool_calls) {
                    if (events_.on_tool_call) events_.on_tool_call(c.id, c.name);
                    if (events_.on_tool_arguments) events_.on_tool_arguments(c.id, c.arguments);
                }
            }
            return turn;
        }

    private:
        friend class scripted_model;
        stream(std::shared_ptr<state> s, stream_events events) : state_(std::move(s)), events_(std::move(events)) {}
        std::shared_ptr<state> state_;
        stream_events events_;
        std::string key_;
    };

    stream start_stream(stream_events events) const { return stream(state_, std::move(events)); }

private:
    struct state {
        std::mutex mutex;
        answer_function answer;
        std::deque<completion> replies;
        std::vector<std::vector<message>> conversations;
        std::map<std::uint64_t, turn_result> turns;
        std::uint64_t last_key = 0;
    };

    static turn_result take(state& s, std::string_view body) {
        std::uint64_t key = 0;
        const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), key);
        std::lock_guard<std::mutex> lock(s.mutex);
        const auto found = s.turns.find(key);
        if (ec != std::errc{} || end != body.data() + body.size() || found == s.turns.end()) {
            turn_result missing;
            missing.error.message = "agentry: scripted_model: no turn under this key (use scripted_transport, "
                                    "which returns the request's body)";
            return missing;
        }
        turn_result turn = std::move(found->second);
        s.turns.erase(found);
        return turn;
    }

    std::shared_ptr<state> state_;
};

static_assert(provider<scripted_model>);

/// The transport of agentry::scripted_model's turns: a 200 whose body is the request's.
struct scripted_transport {
    transport_result send(const http_request& request) const {
        transport_result r;
        r.response.status = 200;
        r.response.body = request.body;
        return r;
    }
    transport_result stream(const http_request& request, stream_handlers& handlers) const {
        transport_result r;
        r.response.status = 200;
        if (handlers.on_head && !handlers.on_head(static_cast<const http_response&>(r.response))) {
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by a stream handler"};
            return r;
        }
        if (handlers.on_chunk && !handlers.on_chunk(std::string_view(request.body)))
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by a stream handler"};
        return r;
    }
};

static_assert(transport<scripted_transport>);

} // namespace agentry

#endif
