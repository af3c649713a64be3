// SPDX-License-Identifier: BSL-1.0
// Reasoning carried across the turns of a tool run: agentry::agent with the real provider classes
// over agentry::curl_transport against model_server.mjs, which answers 400 unless each request
// brings back what the earlier replies of the scenario held, value for value: the Responses
// API's reasoning items (statelessly, with their encrypted content, or by previous_response_id)
// and Anthropic's thinking and redacted_thinking blocks. Each run has three turns (two of tool
// calls, then the answer), whole and streamed, in one run, across save()/restore(), and across
// a durable resume in a new agent.

#include "harness.hpp"
#include "tools.hpp"

#include <agentry/agent.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/sqlite.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace agentry_test;
using agentry::stop_reason;

namespace {

struct responses_stateless {
    using provider = agentry::openai_responses;
    static constexpr const char* name = "responses";
    static provider make(const std::string& scenario) {
        provider p;
        p.model = "o-test";
        p.api_key = "sk-test";
        p.http.base_url = scenario_url(scenario) + "/v1";
        return p;
    }
    /// The kinds of the parts a reply with reasoning and a call keeps.
    static std::vector<std::string> kinds() { return {"reasoning", "function_call_id"}; }
};

struct responses_chained {
    using provider = agentry::openai_responses;
    static constexpr const char* name = "responses-chained";
    static provider make(const std::string& scenario) {
        provider p = responses_stateless::make(scenario);
        p.state = agentry::openai_responses::reasoning_state::previous_response;
        return p;
    }
    static std::vector<std::string> kinds() { return {"reasoning", "function_call_id", "response_id"}; }
};

struct anthropic_thinks {
    using provider = agentry::anthropic;
    static constexpr const char* name = "anthropic-thinking";
    static provider make(const std::string& scenario) {
        provider p;
        p.model = "claude-test";
        p.api_key = "ak-test";
        p.http.base_url = scenario_url(scenario);
        p.max_tokens = 8192;
        agentry::anthropic_thinking thinking;
        thinking.budget_tokens = 2048;
        p.thinking = thinking;
        return p;
    }
    static std::vector<std::string> kinds() { return {"thinking", "redacted_thinking"}; }
};

struct gemini_thinks {
    using provider = agentry::gemini;
    static constexpr const char* name = "gemini-thinks";
    static provider make(const std::string& scenario) {
        provider p;
        p.model = "gemini-test";
        p.api_key = "gk-test";
        p.http.base_url = scenario_url(scenario) + "/v1beta";
        return p;
    }
    /// Gemini's thought signatures ride on the calls (tool_call::signature), not in parts.
    static std::vector<std::string> kinds() { return {}; }
};

#define REASONING_APIS responses_stateless, responses_chained, anthropic_thinks, gemini_thinks

// Three turns; each API reads its own members (reasoning: Responses; thinking, redacted:
// Anthropic; a call's signature: Gemini). The text of the last reasoning is empty: an item with
// no summary.
constexpr const char* three_turns = R"([
    {"reasoning":"Weather first.","thinking":"Weather first.","redacted":"EmwKAhgBEgy3va3pzix/LafPsn4a\u00e9",
     "calls":[{"name":"get_weather","args":{"city":"Paris"},"signature":"CiQBcsjafA/+\u00e9sig1"}],
     "usage":{"input":20,"output":8,"cached":4,"reasoning":3}},
    {"reasoning":"Then the sum.","thinking":"Then the sum.","calls":[{"name":"add","args":{"a":1,"b":2},"signature":"Ci2sig2=="}],
     "usage":{"input":30,"output":6}},
    {"reasoning":"","thinking":"Both known.","text":"Rain in Paris; 3.","usage":{"input":40,"output":5}}])";

template <class Api>
agentry::agent<agentry::loop_config{}> make_agent(const std::string& scenario, agentry::agent_options options = {}) {
    options.system_prompt = "You are a test.";
    return agentry::agent<agentry::loop_config{}>{Api::make(scenario), tools, std::move(options), agentry::curl_transport{}};
}

/// The body of each request scenario `name` received.
std::vector<std::string> bodies(const std::string& name) {
    agentry::curl_transport http;
    agentry::http_request r;
    r.method = "GET";
    r.url = scenario_url(name) + "/requests";
    const agentry::transport_result result = http.send(r);
    REQUIRE_MESSAGE(result.ok(), result.error.message);
    std::vector<std::string> out;
    for (const recorded& one : read_json<std::vector<recorded>>(result.response.body)) out.push_back(one.body.text());
    return out;
}

/// The kinds of the provider parts of each assistant message of `conversation`.
std::vector<std::vector<std::string>> part_kinds(const std::vector<agentry::message>& conversation) {
    std::vector<std::vector<std::string>> out;
    for (const agentry::message& m : conversation) {
        if (m.role != agentry::role::assistant) continue;
        std::vector<std::string> kinds;
        for (const agentry::provider_part& p : m.parts.value_or(std::vector<agentry::provider_part>{}))
            kinds.push_back(p.kind);
        out.push_back(std::move(kinds));
    }
    return out;
}

template <class Api>
void check_finished(const agentry::run_result& r, const std::vector<agentry::message>& conversation) {
    CHECK_MESSAGE(r.stop == stop_reason::completed, r.text, " ", (r.error ? r.error->message : std::string()));
    CHECK(r.text == "Rain in Paris; 3.");
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].result_excerpt == "Paris: 18 C, rain");
    CHECK(r.steps[1].result_excerpt == "3");
    // Each reply keeps its parts; none reaches a tool's result or the answer.
    const auto kinds = part_kinds(conversation);
    REQUIRE(kinds.size() == 3);
    const std::vector<std::string> first = Api::kinds();
    CHECK(kinds[0] == first);
    for (const agentry::message& m : conversation)
        if (m.role == agentry::role::tool) CHECK(m.text.find("Weather first.") == std::string::npos);
}

/// What every request after the first must show of the scenario's earlier replies.
template <class Api>
void check_requests(const std::vector<std::string>& sent) {
    REQUIRE(sent.size() == 3);
    if constexpr (std::is_same_v<Api, responses_chained>) {
        CHECK(sent[0].find("previous_response_id") == std::string::npos);
        CHECK(sent[1].find(R"("previous_response_id":"resp_0")") != std::string::npos);
        CHECK(sent[2].find(R"("previous_response_id":"resp_1")") != std::string::npos);
        // Only what follows the previous response: its call's result, not the user's question.
        CHECK(sent[2].find("Umbrella") == std::string::npos);
        CHECK(sent[2].find("function_call_output") != std::string::npos);
    } else if constexpr (std::is_same_v<Api, responses_stateless>) {
        for (const std::string& body : sent) {
            CHECK(body.find(R"("store":false)") != std::string::npos);
            CHECK(body.find(R"("include":["reasoning.encrypted_content"])") != std::string::npos);
        }
        CHECK(sent[2].find(R"("id":"rs_0")") != std::string::npos);
        CHECK(sent[2].find(R"("id":"rs_1")") != std::string::npos);
    } else if constexpr (std::is_same_v<Api, gemini_thinks>) {
        CHECK(sent[2].find(R"("thoughtSignature":"Ci2sig2==")") != std::string::npos);
    } else {
        CHECK(sent[2].find(R"("type":"redacted_thinking")") != std::string::npos);
        CHECK(sent[2].find(R"("thinking":"Then the sum.")") != std::string::npos);
    }
}

} // namespace

TEST_CASE_TEMPLATE("a three-turn tool run brings each reply's reasoning back, whole and streamed", Api, REASONING_APIS) {
    for (const bool streamed : {false, true}) {
        CAPTURE(streamed);
        const std::string name = std::string("three-") + (streamed ? "streamed-" : "whole-") + Api::name;
        script(name, three_turns);
        agentry::agent_options options;
        std::string text;
        std::vector<std::pair<std::string, std::string>> pieces;  // per call, in order: its id and its pieces joined
        bool ran = false;
        if (streamed) {
            options.events.on_text = [&](std::string_view t) { text += t; };
            // Gemini's ids are per turn ("call_0" in each): a call that has run closes its entry.
            options.events.on_tool_arguments = [&](std::string_view id, std::string_view piece) {
                if (pieces.empty() || pieces.back().first != id || ran) pieces.emplace_back(id, "");
                ran = false;
                pieces.back().second += piece;
            };
            options.events.on_tool_start = [&](const agentry::tool_call&) { ran = true; };
        }
        auto agent = make_agent<Api>(name, std::move(options));
        const agentry::run_result r = agent.run("Umbrella in Paris? And 1+2.");
        check_finished<Api>(r, std::vector<agentry::message>(agent.conversation().begin(), agent.conversation().end()));
        check_requests<Api>(bodies(name));
        if (streamed) {
            CHECK(text == "Rain in Paris; 3.");
            REQUIRE(pieces.size() == 2);
            for (std::size_t i = 0; i != 2; ++i) CHECK(pieces[i].second == r.steps[i].arguments);
        }
        CHECK(r.turn_usage.at(0).input_tokens == 20);
        if constexpr (std::is_same_v<Api, responses_stateless> || std::is_same_v<Api, responses_chained>) {
            CHECK(r.turn_usage.at(0).cached_input_tokens == 4);
            CHECK(r.turn_usage.at(0).reasoning_tokens == 3);
        }
    }
}

TEST_CASE_TEMPLATE("the reasoning goes through save() and restore() between turns", Api, REASONING_APIS) {
    const std::string name = std::string("saved-") + Api::name;
    script(name, three_turns);
    std::string saved;
    {
        agentry::agent<agentry::loop_config{}>* self = nullptr;
        agentry::agent_options options;
        options.events.on_tool_end = [&](const agentry::step&) { self->cancel(); };
        auto agent = make_agent<Api>(name, std::move(options));
        self = &agent;
        const agentry::run_result first = agent.run("Umbrella in Paris? And 1+2.");
        REQUIRE(first.stop == stop_reason::cancelled);
        REQUIRE(first.steps.size() == 1);
        saved = agent.save();
    }
    CHECK(saved.find(std::is_same_v<Api, gemini_thinks> ? R"("signature":"CiQBcsjafA)" : R"("parts":)") != std::string::npos);
    auto agent = make_agent<Api>(name);
    REQUIRE(agent.restore(saved));
    const agentry::run_result r = agent.run(agentry::continuation{});
    CHECK_MESSAGE(r.stop == stop_reason::completed, r.text, " ", (r.error ? r.error->message : std::string()));
    CHECK(r.text == "Rain in Paris; 3.");
    check_requests<Api>(bodies(name));
    const auto kinds = part_kinds(std::vector<agentry::message>(agent.conversation().begin(), agent.conversation().end()));
    REQUIRE(kinds.size() == 3);
    CHECK(kinds[0] == Api::kinds());
}

TEST_CASE_TEMPLATE("the reasoning goes through a durable checkpoint and a resume in a new agent", Api, REASONING_APIS) {
    const std::string name = std::string("durable-") + Api::name;
    script(name, three_turns);
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("agentry-reasoning-" + std::string(Api::name) + ".db");
    std::filesystem::remove(file);
    agentry::sqlite_store store{{.path = file.string()}};
    std::string id;
    {
        agentry::agent<agentry::loop_config{}>* self = nullptr;
        agentry::agent_options options;
        options.events.on_tool_end = [&](const agentry::step&) { self->cancel(); };
        auto agent = make_agent<Api>(name, std::move(options));
        self = &agent;
        id = agentry::start_run(store, agent, "Umbrella in Paris? And 1+2.");
        const agentry::run_result first = agentry::resume_run(store, agent, id);
        REQUIRE(first.stop == stop_reason::cancelled);
    }
    auto agent = make_agent<Api>(name);
    const agentry::run_result r = agentry::resume_run(store, agent, id);
    CHECK_MESSAGE(r.stop == stop_reason::completed, r.text, " ", (r.error ? r.error->message : std::string()));
    CHECK(r.text == "Rain in Paris; 3.");
    check_requests<Api>(bodies(name));
    std::filesystem::remove(file);
}

/// The second request of a tool run whose first reply is sent back without its parts (and
/// without its calls' signatures).
template <class Api>
agentry::turn_result without_parts(const std::string& name) {
    script(name, three_turns);
    const typename Api::provider p = Api::make(name);
    agentry::curl_transport http;
    std::vector<agentry::message> conversation{agentry::message::user("Umbrella in Paris? And 1+2.")};
    agentry::chat_request request;
    request.messages = conversation;
    request.tools = tools.definitions<typename Api::provider::dialect>();
    agentry::turn_result first = agentry::complete(p, http, request);
    REQUIRE(first.ok());
    agentry::message reply = first.value->reply;
    REQUIRE(reply.tool_calls.size() == 1);
    REQUIRE((reply.parts.has_value() || !reply.tool_calls[0].signature.empty()));
    reply.parts.reset();
    reply.tool_calls[0].signature.clear();
    conversation.push_back(reply);
    conversation.push_back(agentry::message::tool_result(reply.tool_calls[0], "Paris: 18 C, rain"));
    request.messages = conversation;
    return agentry::complete(p, http, request);
}

TEST_CASE("a reply sent back without its reasoning is refused by the scripted server, as by the APIs") {
    // The check the tests above rely on: dropping the parts gets each API's 400.
    const agentry::turn_result responses = without_parts<responses_stateless>("dropped-responses");
    REQUIRE_FALSE(responses.ok());
    CHECK(responses.error.status == 400);
    CHECK(responses.error.message.find("without its required 'reasoning' item: 'rs_0'") != std::string::npos);
    const agentry::turn_result anthropic = without_parts<anthropic_thinks>("dropped-anthropic");
    REQUIRE_FALSE(anthropic.ok());
    CHECK(anthropic.error.status == 400);
    CHECK(anthropic.error.message.find("but found `tool_use`") != std::string::npos);
    const agentry::turn_result gemini = without_parts<gemini_thinks>("dropped-gemini");
    REQUIRE_FALSE(gemini.ok());
    CHECK(gemini.error.status == 400);
    CHECK(gemini.error.message.find("missing a thought_signature") != std::string::npos);
}
