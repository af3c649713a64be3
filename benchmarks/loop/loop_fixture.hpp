// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_LOOP_FIXTURE_HPP
#define AGENTRY_BENCH_LOOP_FIXTURE_HPP

// The loop benchmark's agent: agentry::openai over a transport that answers from memory, the
// 10 tools of the provider benchmark, and the first 19 messages of its conversation, saved as
// agent::save() writes them. run() with the 20th message as input then takes two turns: the
// response with two tool calls (get_weather, search_restaurants), then the final answer.

#include "fixture.hpp"

#include <agentry/agent.hpp>
#include <agentry/json/writer.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// An agentry::transport that answers send() with the responses of its script in turn, over
/// and over, and records nothing (unless `seen` is set); stream() is not used.
struct canned_transport {
    std::shared_ptr<const std::vector<agentry::http_response>> script;
    std::vector<std::string>* seen = nullptr;  // request bodies, for the self-test
    std::size_t next = 0;

    agentry::transport_result send(const agentry::http_request& request) {
        if (seen != nullptr) seen->push_back(request.body);
        agentry::transport_result r;
        r.response = (*script)[next];
        next = (next + 1) % script->size();
        return r;
    }

    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        agentry::transport_result r;
        r.error = {agentry::transport_error_kind::other, "canned_transport: streaming is not scripted"};
        return r;
    }
};
static_assert(agentry::transport<canned_transport>);

/// The registry as agent<> calls it with agentry::openai (dialect openai_strict, which makes
/// every parameter required): null arguments mean absent.
inline constexpr auto strict_tools = tools.with_options({.arguments = {.null_as_absent = true}});

/// Sequential tool calls; the output limit of the provider benchmark's request.
inline constexpr agentry::loop_config sequential{.max_turns = 8, .max_output_tokens = 1024};
/// The same with the two calls of a turn run concurrently.
inline constexpr agentry::loop_config parallel{.max_turns = 8, .parallel_tool_calls = true, .max_output_tokens = 1024};

inline std::shared_ptr<const std::vector<agentry::http_response>> two_turn_script() {
    return std::make_shared<const std::vector<agentry::http_response>>(
        std::vector<agentry::http_response>{make_response(tool_calls_response), make_response(final_answer_response)});
}

/// The agent with `options`, its system prompt conversation()'s first message.
template <agentry::loop_config Config>
agentry::agent<Config> make_agent(std::vector<std::string>* seen = nullptr, agentry::agent_options options = {}) {
    options.system_prompt = conversation().front().text;
    return agentry::agent<Config>(make_provider(), tools, std::move(options), canned_transport{two_turn_script(), seen});
}

/// The first 19 messages of conversation(), as agent::save() writes them.
inline std::string saved_conversation() {
    std::vector<agentry::message> m = conversation();
    m.pop_back();
    std::string out;
    agentry::json::write(out, m, {.max_size = 0, .omit_empty_optionals = true});  // as agent::save() writes it
    return out;
}

} // namespace bench

#endif
