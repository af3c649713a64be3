// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_LOOP_SCRIPTED_HPP
#define AGENTRY_TESTS_LOOP_SCRIPTED_HPP

// A provider that answers from a script and records what it was asked, and a transport that
// does nothing: the loop without a network.

#include <agentry/agent.hpp>
#include <agentry/registry.hpp>

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace scripted {

struct asked {
    std::vector<agentry::message> messages;
    bool tools = false;
    agentry::tool_choice_kind choice = agentry::tool_choice_kind::automatic;
    bool stream = false;
};

struct script {
    std::deque<agentry::turn_result> turns;
    std::vector<asked> requests;
    std::mutex mutex;
};

inline agentry::turn_result answer(std::string text, agentry::token_usage usage = {10, 5}) {
    agentry::completion c;
    c.reply.text = std::move(text);
    c.usage = usage;
    return {c, {}};
}

inline agentry::turn_result calls(std::vector<agentry::tool_call> calls, agentry::token_usage usage = {10, 5}) {
    agentry::completion c;
    c.reply.tool_calls = std::move(calls);
    c.finish = agentry::finish_reason::tool_calls;
    c.usage = usage;
    return {c, {}};
}

inline agentry::turn_result failure(int status, bool retryable, int retry_after_ms = -1) {
    agentry::provider_error e;
    e.kind = status == 429 ? agentry::provider_error_kind::rate_limited : agentry::provider_error_kind::authentication;
    e.status = status;
    e.message = "HTTP " + std::to_string(status);
    e.retryable = retryable;
    if (retry_after_ms >= 0) e.retry_after = std::chrono::milliseconds(retry_after_ms);
    return {std::nullopt, e};
}

struct model {
    using dialect = agentry::dialect::openai;
    std::shared_ptr<script> s;

    agentry::http_request request(const agentry::chat_request& r) const {
        std::lock_guard lock(s->mutex);
        s->requests.push_back({{r.messages.begin(), r.messages.end()}, !r.tools.empty(), r.tool_choice.kind, r.stream});
        return {};
    }
    agentry::turn_result next() const {
        std::lock_guard lock(s->mutex);
        if (s->turns.empty()) return answer("(script ended)");
        agentry::turn_result r = std::move(s->turns.front());
        s->turns.pop_front();
        return r;
    }
    agentry::turn_result parse(const agentry::http_response&) const { return next(); }

    struct stream {
        const model* m;
        agentry::stream_events events;
        void feed(std::string_view) {}
        agentry::turn_result finish(const agentry::http_response&) {
            agentry::turn_result r = m->next();
            if (r.ok() && events.on_text) {
                const std::string& t = r.value->reply.text;
                for (std::size_t i = 0; i < t.size(); i += 3) events.on_text(std::string_view(t).substr(i, 3));
            }
            return r;
        }
    };
    stream start_stream(agentry::stream_events events) const { return {this, std::move(events)}; }
};

struct quiet_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers& h) {
        agentry::http_response head{200, {}, ""};
        if (h.on_head) h.on_head(head);
        return {head, {}};
    }
};

static_assert(agentry::provider<model>);
static_assert(agentry::transport<quiet_transport>);

inline agentry::tool_call call(std::string id, std::string name, std::string arguments) {
    return {std::move(id), std::move(name), std::move(arguments), {}};
}

} // namespace scripted

#endif
