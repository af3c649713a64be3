// SPDX-License-Identifier: BSL-1.0
// The native tool search end to end: an agent with agentry::anthropic, then one with
// agentry::openai_responses, over agentry::curl_transport, against a model served on 127.0.0.1
// by the test (the pet store's bounded one-request-per-connection server). The server reads
// each request body and checks what a provider would need: the tools not found yet deferred,
// the search tool never, the search result in the provider's own form and still in the history
// later; then it answers as the model would (search, call the tool found, answer). A failed
// check is answered with a 400 naming it and is reported by the test. Compiled only when the
// agentry::curl target exists.

#include "../../openapi/pet_server.hpp"

#include <agentry/agent.hpp>
#include <agentry/json/value.hpp>
#include <agentry/loop/tool_search_source.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/select/bm25.hpp>
#include <agentry/select/tool_search.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using agentry::json::value;

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city", "city">(+[](std::string city) { return "sunny in " + city; }),
    agentry::tool<"get_forecast", "Weather forecast for a city over the coming days", "city">(
        +[](std::string city) { return "rain in " + city; }),
    agentry::tool<"convert_currency", "Convert an amount of money at the exchange rate", "amount">(
        +[](double amount) { return amount * 2; }),
    agentry::tool<"send_email", "Send an email message to an address", "to">(+[](std::string to) { return "sent to " + to; }),
    agentry::tool<"create_event", "Add an event to the calendar", "title">(+[](std::string title) { return "added " + title; }),
    agentry::tool<"translate_text", "Translate text into another language", "text">(
        +[](std::string text) { return "translated " + text; }),
    agentry::tool<"list_files", "List the files in a folder", "folder">(+[](std::string folder) { return "none in " + folder; }),
};

constexpr std::string_view tool_names[] = {"get_weather", "get_forecast", "convert_currency", "send_email",
                                           "create_event", "translate_text", "list_files"};

// What the BM25 search finds for "weather", best first.
const std::vector<std::string> found_for_weather{"get_weather", "get_forecast"};

std::string text_of(const value& v) { return agentry::json::to_text(v); }

std::string string_at(const value& object, std::string_view key) {
    const value* v = object.find(key);
    return v && v->is_string() ? v->as_string() : std::string();
}

bool found(const std::vector<std::string>& names, std::string_view name) {
    for (const std::string& n : names)
        if (n == name) return true;
    return false;
}

// The model's side of the exchange: each request's body checked by the step's function, which
// returns the answer's body or sets `failure`; a failure is answered with a 400 naming it.
class model_script {
public:
    using step = std::function<std::string(const value& body, std::string& failure)>;

    /// `path`: where requests go; `key_header` and `key`: the credential header they carry.
    model_script(std::string path, std::string key_header, std::string key, std::vector<step> steps)
        : path_(std::move(path)), key_header_(std::move(key_header)), key_(std::move(key)), steps_(std::move(steps)) {}

    agentry_test::served_reply answer(const agentry_test::served_request& r) {
        std::lock_guard lock(mutex_);
        const std::size_t n = requests_++;
        std::string failure;
        std::string reply;
        const agentry::json::parsed body = agentry::json::parse(r.body);
        if (r.request_line() != "POST " + path_ + " HTTP/1.1")
            failure = "the request line is '" + r.request_line() + "', not POST " + path_;
        else if (r.header(key_header_) != key_)
            failure = "the " + key_header_ + " header is '" + r.header(key_header_) + "', not '" + key_ + "'";
        else if (!body.ok() || !body.value.is_object())
            failure = "the body is not a JSON object: " + r.body.substr(0, 200);
        else if (n >= steps_.size())
            failure = "an unexpected request " + std::to_string(n + 1) + ": " + r.body.substr(0, 200);
        else
            reply = steps_[n](body.value, failure);
        if (failure.empty()) return {200, reply};
        failures_.push_back("request " + std::to_string(n + 1) + ": " + failure);
        value error = value::object();
        error.set("type", "error");
        value detail = value::object();
        detail.set("type", "invalid_request_error");
        detail.set("message", failures_.back());
        error.set("error", std::move(detail));
        return {400, text_of(error)};
    }

    std::vector<std::string> failures() const {
        std::lock_guard lock(mutex_);
        return failures_;
    }
    std::size_t requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

private:
    std::string path_;
    std::string key_header_;
    std::string key_;
    std::vector<step> steps_;
    mutable std::mutex mutex_;
    std::size_t requests_ = 0;
    std::vector<std::string> failures_;
};

// Each of the registry's tools is in `tools_array` once (`name_of` reads its name), deferred
// unless `loaded` names it. Empty, or what is wrong.
std::string check_deferred(const value* tools_array, const std::vector<std::string>& loaded,
                           const std::function<std::string(const value&)>& name_of) {
    if (!tools_array || !tools_array->is_array()) return "the body has no tools array";
    for (std::string_view expected : tool_names) {
        const value* tool = nullptr;
        for (const value& t : tools_array->items())
            if (name_of(t) == expected) {
                if (tool) return "tool " + std::string(expected) + " is sent twice";
                tool = &t;
            }
        if (!tool) return "tool " + std::string(expected) + " is not sent";
        const value* defer = tool->find("defer_loading");
        if (found(loaded, expected)) {
            if (defer) return "tool " + std::string(expected) + " was found but is still deferred: " + text_of(*tool);
        } else if (!defer || !defer->is_bool() || !defer->as_bool()) {
            return "tool " + std::string(expected) + " is not found yet but lacks \"defer_loading\":true: " + text_of(*tool);
        }
    }
    return {};
}

// ---- Anthropic ------------------------------------------------------------------------------

std::string anthropic_tool_name(const value& tool) { return string_at(tool, "name"); }

// Request `n` of the Anthropic run: the tools, the search tool (never deferred) among them.
std::string check_anthropic_tools(const value& body, const std::vector<std::string>& loaded) {
    const value* tools_array = body.find("tools");
    if (std::string bad = check_deferred(tools_array, loaded, anthropic_tool_name); !bad.empty()) return bad;
    if (tools_array->size() != std::size(tool_names) + 1)
        return "the tools array has " + std::to_string(tools_array->size()) + " tools, not " +
               std::to_string(std::size(tool_names) + 1) + " (the registry's and search_tools)";
    for (const value& t : tools_array->items())
        if (anthropic_tool_name(t) == "search_tools") {
            if (t.find("defer_loading")) return "the search tool is deferred: " + text_of(t);
            return {};
        }
    return "the search tool search_tools is not sent";
}

// The tool_result block answering `id` in the request's messages, or null.
const value* anthropic_result(const value& body, std::string_view id) {
    const value* messages = body.find("messages");
    if (!messages) return nullptr;
    for (const value& m : messages->items()) {
        const value* content = m.find("content");
        if (string_at(m, "role") != "user" || !content || !content->is_array()) continue;
        for (const value& block : content->items())
            if (string_at(block, "type") == "tool_result" && string_at(block, "tool_use_id") == id) return &block;
    }
    return nullptr;
}

// The search's tool_result: its content exactly one tool_reference block per tool found.
std::string check_references(const value& body) {
    const value* result = anthropic_result(body, "toolu_s1");
    if (!result) return "no tool_result for the search call toolu_s1";
    if (result->find("is_error")) return "the search's tool_result is an error: " + text_of(*result);
    const value* content = result->find("content");
    if (!content || !content->is_array()) return "the search's tool_result content is not an array: " + text_of(*result);
    if (content->size() != found_for_weather.size())
        return "the search's tool_result holds " + std::to_string(content->size()) + " blocks, not " +
               std::to_string(found_for_weather.size()) + ": " + text_of(*content);
    for (std::size_t i = 0; i != found_for_weather.size(); ++i) {
        const value& block = content->items()[i];
        if (block.size() != 2 || string_at(block, "type") != "tool_reference" ||
            string_at(block, "tool_name") != found_for_weather[i])
            return "block " + std::to_string(i) + " of the search's tool_result is " + text_of(block) +
                   ", not {\"type\":\"tool_reference\",\"tool_name\":\"" + found_for_weather[i] + "\"}";
    }
    return {};
}

std::string anthropic_reply(const std::string& content, const std::string& stop) {
    return R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":)" + content +
           R"(,"stop_reason":")" + stop + R"(","usage":{"input_tokens":10,"output_tokens":5}})";
}

// ---- OpenAI Responses ------------------------------------------------------------------------

std::string responses_tool_name(const value& tool) {
    return string_at(tool, "type") == "function" ? string_at(tool, "name") : std::string();
}

const std::string search_call_item =
    R"({"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"weather"}})";

std::string check_responses_tools(const value& body, const std::vector<std::string>& loaded) {
    const value* tools_array = body.find("tools");
    if (std::string bad = check_deferred(tools_array, loaded, responses_tool_name); !bad.empty()) return bad;
    std::size_t searches = 0;
    for (const value& t : tools_array->items()) {
        const std::string type = string_at(t, "type");
        if (type == "tool_search") {
            ++searches;
            if (string_at(t, "execution") != "client") return "the tool_search tool is not in client execution: " + text_of(t);
            if (t.find("defer_loading")) return "the tool_search tool is deferred: " + text_of(t);
            const value* parameters = t.find("parameters");
            if (!parameters || !parameters->is_object()) return "the tool_search tool has no parameters: " + text_of(t);
        } else if (type != "function") {
            return "an unexpected tool: " + text_of(t);
        }
    }
    if (searches != 1) return "the tools hold " + std::to_string(searches) + " tool_search tools, not 1";
    return {};
}

// The input item of `type` whose call_id is `id`, or null.
const value* responses_item(const value& body, std::string_view type, std::string_view id) {
    const value* input = body.find("input");
    if (!input) return nullptr;
    for (const value& item : input->items())
        if (string_at(item, "type") == type && string_at(item, "call_id") == id) return &item;
    return nullptr;
}

// The tool_search_call item sent back as received, then its tool_search_output with the found
// tools' definitions.
std::string check_search_output(const value& body) {
    const value* input = body.find("input");
    if (!input || !input->is_array()) return "the body has no input array";
    const value expected_call = agentry::json::parse(search_call_item).value;
    std::size_t call_at = input->size();
    for (std::size_t i = 0; i != input->size(); ++i)
        if (input->items()[i] == expected_call) call_at = i;
    if (call_at == input->size()) return "the tool_search_call item is not sent back as received: " + text_of(*input);
    if (call_at + 1 == input->size()) return "nothing follows the tool_search_call item";
    const value& output = input->items()[call_at + 1];
    if (output.size() != 4 || string_at(output, "type") != "tool_search_output" ||
        string_at(output, "call_id") != "call_s1" || string_at(output, "execution") != "client")
        return "the item after the tool_search_call is " + text_of(output) +
               ", not {\"type\":\"tool_search_output\",\"call_id\":\"call_s1\",\"execution\":\"client\",\"tools\":[...]}";
    const value* found_tools = output.find("tools");
    if (!found_tools || !found_tools->is_array() || found_tools->size() != found_for_weather.size())
        return "the tool_search_output's tools are not the " + std::to_string(found_for_weather.size()) +
               " found: " + text_of(output);
    // Each found tool as the request's tools array defines it (not deferred there by now).
    const value* sent = body.find("tools");
    for (std::size_t i = 0; i != found_for_weather.size(); ++i) {
        const value& tool = found_tools->items()[i];
        const value* definition = nullptr;
        if (sent)
            for (const value& t : sent->items())
                if (responses_tool_name(t) == found_for_weather[i]) definition = &t;
        if (string_at(tool, "type") != "function" || string_at(tool, "name") != found_for_weather[i] ||
            !definition || !(tool == *definition))
            return "tools[" + std::to_string(i) + "] of the tool_search_output is " + text_of(tool) +
                   ", not the function definition of " + found_for_weather[i] + " in the tools array" +
                   (definition ? ": " + text_of(*definition) : std::string());
    }
    return {};
}

std::string responses_reply(const std::string& item) {
    return R"({"id":"resp_1","object":"response","status":"completed","output":[)" + item +
           R"(],"usage":{"input_tokens":10,"output_tokens":5}})";
}

// The run's two calls: the search, then the tool it found.
void check_steps(const agentry::run_result& result, std::string_view search_tool, std::string_view search_id,
                 std::string_view call_id) {
    REQUIRE(result.steps.size() == 2);
    CHECK(result.steps[0].tool == search_tool);
    CHECK(result.steps[0].id == search_id);
    CHECK(result.steps[0].arguments == R"({"query":"weather"})");
    CHECK(result.steps[0].status == agentry::tool_status::ok);
    CHECK(result.steps[1].tool == "get_weather");
    CHECK(result.steps[1].id == call_id);
    CHECK(result.steps[1].status == agentry::tool_status::ok);
    CHECK(result.steps[1].result_excerpt == "sunny in Oslo");
}

std::string failures_text(const std::vector<std::string>& failures) {
    std::string out;
    for (const std::string& f : failures) out += f + "\n";
    return out;
}

} // namespace

TEST_CASE("Anthropic over HTTP: deferred tools, a search answered with tool_reference blocks, the tool found called") {
    model_script model{
        "/v1/messages",
        "x-api-key",
        "test-key",
        {
            [](const value& body, std::string& failure) {
                failure = check_anthropic_tools(body, {});
                return anthropic_reply(
                    R"([{"type":"tool_use","id":"toolu_s1","name":"search_tools","input":{"query":"weather"}}])", "tool_use");
            },
            [](const value& body, std::string& failure) {
                failure = check_references(body);
                if (failure.empty()) failure = check_anthropic_tools(body, found_for_weather);
                return anthropic_reply(
                    R"([{"type":"tool_use","id":"toolu_w1","name":"get_weather","input":{"city":"Oslo"}}])", "tool_use");
            },
            [](const value& body, std::string& failure) {
                failure = check_references(body);
                const value* result = anthropic_result(body, "toolu_w1");
                if (failure.empty() && !result) failure = "no tool_result for the call toolu_w1";
                if (failure.empty()) {
                    const value* content = result->find("content");
                    if (!content || text_of(*content) != R"("sunny in Oslo")")
                        failure = "the tool_result of toolu_w1 is " + text_of(*result) + ", not the content \"sunny in Oslo\"";
                }
                if (failure.empty()) failure = check_anthropic_tools(body, found_for_weather);
                return anthropic_reply(R"([{"type":"text","text":"It is sunny in Oslo."}])", "end_turn");
            },
        }};
    agentry_test::pet_server server([&](const agentry_test::served_request& r) { return model.answer(r); }, 3);

    agentry::anthropic claude;
    claude.model = "claude-test";
    claude.api_key = "test-key";
    claude.http.base_url = "http://127.0.0.1:" + std::to_string(server.port());
    claude.http.total_timeout = std::chrono::seconds(20);
    constexpr agentry::loop_config config{.max_turns = 5};
    agentry::agent<config> agent{claude, tools, "You help.", agentry::curl_transport{}};
    const auto search = agentry::enable_tool_search(agent, agentry::bm25::of(tools));
    REQUIRE(search.has_value());

    const agentry::run_result result = agent.run("Weather in Oslo?");
    const std::vector<std::string> failures = model.failures();
    CHECK_MESSAGE(failures.empty(), failures_text(failures));
    CHECK(model.requests() == 3);
    CHECK(result.stop == agentry::stop_reason::completed);
    CHECK(result.text == "It is sunny in Oslo.");
    check_steps(result, "search_tools", "toolu_s1", "toolu_w1");
}

TEST_CASE("OpenAI Responses over HTTP: a client tool_search_call answered with the found functions, then called") {
    model_script model{
        "/responses",
        "Authorization",
        "Bearer test-key",
        {
            [](const value& body, std::string& failure) {
                failure = check_responses_tools(body, {});
                return responses_reply(search_call_item);
            },
            [](const value& body, std::string& failure) {
                failure = check_search_output(body);
                if (failure.empty()) failure = check_responses_tools(body, found_for_weather);
                return responses_reply(
                    R"({"type":"function_call","id":"fc_1","call_id":"call_w1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"})");
            },
            [](const value& body, std::string& failure) {
                failure = check_search_output(body);
                const value* output = responses_item(body, "function_call_output", "call_w1");
                const value* call = responses_item(body, "function_call", "call_w1");
                if (failure.empty() && (!call || string_at(*call, "name") != "get_weather" ||
                                        string_at(*call, "arguments") != R"({"city":"Oslo"})"))
                    failure = "the function_call call_w1 of get_weather is not sent back";
                if (failure.empty() && !output) failure = "no function_call_output for call_w1";
                if (failure.empty() && string_at(*output, "output") != "sunny in Oslo")
                    failure = "the function_call_output of call_w1 is " + text_of(*output) + ", not the output \"sunny in Oslo\"";
                if (failure.empty()) failure = check_responses_tools(body, found_for_weather);
                return responses_reply(
                    R"({"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"It is sunny in Oslo.","annotations":[]}]})");
            },
        }};
    agentry_test::pet_server server([&](const agentry_test::served_request& r) { return model.answer(r); }, 3);

    agentry::openai_responses gpt;
    gpt.model = "gpt-test";
    gpt.api_key = "test-key";
    gpt.http.base_url = "http://127.0.0.1:" + std::to_string(server.port());
    gpt.http.total_timeout = std::chrono::seconds(20);
    constexpr agentry::loop_config config{.max_turns = 5};
    agentry::agent<config> agent{gpt, tools, "You help.", agentry::curl_transport{}};
    const auto search = agentry::enable_tool_search(agent, agentry::bm25::of(tools));
    REQUIRE(search.has_value());

    const agentry::run_result result = agent.run("Weather in Oslo?");
    const std::vector<std::string> failures = model.failures();
    CHECK_MESSAGE(failures.empty(), failures_text(failures));
    CHECK(model.requests() == 3);
    CHECK(result.stop == agentry::stop_reason::completed);
    CHECK(result.text == "It is sunny in Oslo.");
    check_steps(result, "tool_search", "call_s1", "call_w1");
}
