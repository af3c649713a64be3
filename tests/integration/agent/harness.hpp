// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_INTEGRATION_AGENT_HARNESS_HPP
#define AGENTRY_TESTS_INTEGRATION_AGENT_HARNESS_HPP

// What the provider and agent tests share: model_server.mjs (started once per test program),
// scripting its scenarios, and the requests it recorded, read from each API's wire format into
// one form (sent_request) so that a check can be written once for the four APIs.

#include "node_server.hpp"

#include <agentry/json/reader.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry_test {

inline node_server& model_server() {
    static node_server server(AGENTRY_NODE, AGENTRY_MODEL_SERVER);
    return server;
}

/// The base of a scenario's URLs: http://127.0.0.1:<port>/scenario/<name>.
inline std::string scenario_url(const std::string& name) { return model_server().url("/scenario/" + name); }

/// Gives scenario `name` its turns (a JSON array, see model_server.mjs) and clears its record.
inline void script(const std::string& name, const std::string& turns) {
    agentry::curl_transport http;
    agentry::http_request r;
    r.method = "PUT";
    r.url = scenario_url(name);
    r.headers = {{"Content-Type", "application/json"}};
    r.body = "{\"turns\":" + turns + "}";
    const agentry::transport_result result = http.send(r);
    REQUIRE_MESSAGE(result.ok(), result.error.message);
    REQUIRE_MESSAGE(result.response.status == 200, result.response.body);
}

inline constexpr agentry::json::read_options lenient{
    .max_size = std::numeric_limits<std::size_t>::max() / 2,
    .max_depth = 64,
    .max_errors = 1,
    .null_as_absent = true,
    .ignore_unknown_properties = true,
};

template <class T>
T read_json(std::string_view text) {
    auto r = agentry::json::read<T>(text, lenient);
    REQUIRE_MESSAGE(r.ok(), ((r.errors.empty() ? std::string() : r.errors.front().to_string()) + " in " + std::string(text)));
    return std::move(r.value);
}

/// A JSON value as text: a string decoded, anything else as written.
inline std::string plain(const agentry::raw_json& value) {
    if (!value.text().empty() && value.text().front() == '"') return read_json<std::string>(value.text());
    return value.text();
}

struct recorded {
    std::string method;
    std::string path;
    std::vector<std::vector<std::string>> headers;
    agentry::raw_json body;
};

// ---- one form for the four APIs -------------------------------------------------------------

struct sent_call {
    std::string id;  // empty where the API sent none
    std::string name;
    std::string arguments;  // as JSON text (OpenAI's string decoded)
    std::string signature;
};

struct sent_result {
    std::string id;
    std::string name;
    std::string content;  // the result text (Gemini's output or error value)
    std::optional<bool> is_error;  // absent where the API has no such mark
};

/// "user" (text), "assistant" (text and calls) or "results" (the tool results of one turn).
struct sent_message {
    std::string role;
    std::string text;
    std::vector<sent_call> calls;
    std::vector<sent_result> results;
};

struct sent_request {
    std::string path;
    std::vector<std::vector<std::string>> headers;
    std::string body;
    std::string model;
    std::string system;
    std::vector<sent_message> messages;
    bool tools = false;
    bool stream = false;

    std::string header(std::string_view name) const {
        for (const auto& h : headers)
            if (h.size() == 2 && h[0] == name) return h[1];
        return {};
    }
    /// The results of the last message, which must be a "results" message.
    const std::vector<sent_result>& last_results() const {
        REQUIRE(!messages.empty());
        REQUIRE(messages.back().role == "results");
        return messages.back().results;
    }
};

inline void add_result(std::vector<sent_message>& out, sent_result r) {
    if (out.empty() || out.back().role != "results") out.push_back({"results", {}, {}, {}});
    out.back().results.push_back(std::move(r));
}

inline void add_text(std::vector<sent_message>& out, const std::string& role, const std::string& text) {
    out.push_back({role, text, {}, {}});
}

inline void add_system(std::string& system, const std::string& text) {
    if (!system.empty()) system += "\n\n";
    system += text;
}

namespace wire_openai {
struct function {
    std::optional<std::string> name;
    std::optional<std::string> arguments;
};
struct call {
    std::optional<std::string> id;
    std::optional<std::string> type;
    std::optional<wire_openai::function> function;
};
struct message {
    std::string role;
    std::optional<agentry::raw_json> content;
    std::optional<std::vector<call>> tool_calls;
    std::optional<std::string> tool_call_id;
};
struct body {
    std::string model;
    std::vector<message> messages;
    std::optional<agentry::raw_json> tools;
    std::optional<bool> stream;
};
} // namespace wire_openai

namespace wire_anthropic {
struct block {
    std::string type;
    std::optional<std::string> text;
    std::optional<std::string> id;
    std::optional<std::string> name;
    std::optional<agentry::raw_json> input;
    std::optional<std::string> tool_use_id;
    std::optional<agentry::raw_json> content;
    std::optional<bool> is_error;
};
struct message {
    std::string role;
    agentry::raw_json content;
};
struct body {
    std::string model;
    /// A string, or text blocks (one with a cache breakpoint).
    std::optional<agentry::raw_json> system;
    std::vector<message> messages;
    std::optional<agentry::raw_json> tools;
    std::optional<bool> stream;
};
} // namespace wire_anthropic

namespace wire_gemini {
struct function_call {
    std::string name;
    std::optional<agentry::raw_json> args;
    std::optional<std::string> id;
};
struct function_response {
    std::string name;
    agentry::raw_json response;
    std::optional<std::string> id;
};
struct response_value {
    std::optional<agentry::raw_json> output;
    std::optional<agentry::raw_json> error;
};
struct part {
    std::optional<std::string> text;
    std::optional<function_call> functionCall;
    std::optional<function_response> functionResponse;
    std::optional<std::string> thoughtSignature;
};
struct content {
    std::optional<std::string> role;
    std::vector<part> parts;
};
struct body {
    std::vector<content> contents;
    std::optional<content> systemInstruction;
    std::optional<agentry::raw_json> tools;
};
} // namespace wire_gemini

namespace wire_ollama {
struct function {
    std::string name;
    agentry::raw_json arguments;
};
struct call {
    std::optional<std::string> id;
    wire_ollama::function function;
};
struct message {
    std::string role;
    std::optional<std::string> content;
    std::optional<std::vector<call>> tool_calls;
    std::optional<std::string> tool_name;
    std::optional<std::string> tool_call_id;
};
struct body {
    std::string model;
    std::vector<message> messages;
    std::optional<agentry::raw_json> tools;
    std::optional<bool> stream;
};
} // namespace wire_ollama

inline sent_request from_openai(const recorded& r) {
    const auto b = read_json<wire_openai::body>(r.body.text());
    sent_request s;
    s.model = b.model;
    for (const wire_openai::message& m : b.messages) {
        const std::string text = m.content ? plain(*m.content) : std::string();
        if (m.role == "system") {
            add_system(s.system, text);
        } else if (m.role == "tool") {
            add_result(s.messages, {m.tool_call_id.value_or(""), "", text, std::nullopt});
        } else if (m.role == "assistant") {
            sent_message out{"assistant", text, {}, {}};
            for (const wire_openai::call& c : m.tool_calls.value_or(std::vector<wire_openai::call>{})) {
                REQUIRE(c.type == "function");
                REQUIRE(c.function);
                out.calls.push_back({c.id.value_or(""), c.function->name.value_or(""), c.function->arguments.value_or(""), {}});
            }
            s.messages.push_back(std::move(out));
        } else {
            add_text(s.messages, m.role, text);
        }
    }
    s.tools = b.tools.has_value();
    s.stream = b.stream.value_or(false);
    return s;
}

inline sent_request from_anthropic(const recorded& r) {
    const auto b = read_json<wire_anthropic::body>(r.body.text());
    sent_request s;
    s.model = b.model;
    if (b.system && b.system->text().front() == '"') {
        s.system = plain(*b.system);
    } else if (b.system) {
        for (const wire_anthropic::block& block : read_json<std::vector<wire_anthropic::block>>(b.system->text()))
            s.system += block.text.value_or("");
    }
    for (const wire_anthropic::message& m : b.messages) {
        if (m.content.text().front() == '"') {
            add_text(s.messages, m.role, plain(m.content));
            continue;
        }
        sent_message out{m.role, {}, {}, {}};
        for (const wire_anthropic::block& block : read_json<std::vector<wire_anthropic::block>>(m.content.text())) {
            if (block.type == "tool_result") {
                // Results come before anything else of their message.
                REQUIRE(out.text.empty());
                add_result(s.messages, {block.tool_use_id.value_or(""), "", block.content ? plain(*block.content) : "",
                                        block.is_error.value_or(false)});
            } else if (block.type == "text") {
                out.text += block.text.value_or("");
            } else if (block.type == "tool_use") {
                out.calls.push_back({block.id.value_or(""), block.name.value_or(""),
                                     block.input ? block.input->text() : "", {}});
            }
        }
        if (!out.text.empty() || !out.calls.empty()) s.messages.push_back(std::move(out));
    }
    s.tools = b.tools.has_value();
    s.stream = b.stream.value_or(false);
    return s;
}

inline sent_request from_gemini(const recorded& r) {
    const auto b = read_json<wire_gemini::body>(r.body.text());
    sent_request s;
    if (b.systemInstruction)
        for (const wire_gemini::part& p : b.systemInstruction->parts) add_system(s.system, p.text.value_or(""));
    for (const wire_gemini::content& c : b.contents) {
        const std::string role = c.role.value_or("user") == "model" ? "assistant" : "user";
        sent_message out{role, {}, {}, {}};
        for (const wire_gemini::part& p : c.parts) {
            if (p.functionResponse) {
                REQUIRE(out.text.empty());
                const auto value = read_json<wire_gemini::response_value>(p.functionResponse->response.text());
                REQUIRE(value.output.has_value() != value.error.has_value());
                add_result(s.messages, {p.functionResponse->id.value_or(""), p.functionResponse->name,
                                        plain(value.output ? *value.output : *value.error), value.error.has_value()});
            } else if (p.functionCall) {
                out.calls.push_back({p.functionCall->id.value_or(""), p.functionCall->name,
                                     p.functionCall->args ? p.functionCall->args->text() : "", p.thoughtSignature.value_or("")});
            } else if (p.text) {
                out.text += *p.text;
            }
        }
        if (!out.text.empty() || !out.calls.empty()) s.messages.push_back(std::move(out));
    }
    s.tools = b.tools.has_value();
    s.stream = r.path.find(":streamGenerateContent?alt=sse") != std::string::npos;
    s.model = r.path.substr(r.path.rfind('/') + 1);
    s.model = s.model.substr(0, s.model.find(':'));
    return s;
}

inline sent_request from_ollama(const recorded& r) {
    const auto b = read_json<wire_ollama::body>(r.body.text());
    sent_request s;
    s.model = b.model;
    for (const wire_ollama::message& m : b.messages) {
        const std::string text = m.content.value_or("");
        if (m.role == "system") {
            add_system(s.system, text);
        } else if (m.role == "tool") {
            add_result(s.messages, {m.tool_call_id.value_or(""), m.tool_name.value_or(""), text, std::nullopt});
        } else if (m.role == "assistant") {
            sent_message out{"assistant", text, {}, {}};
            for (const wire_ollama::call& c : m.tool_calls.value_or(std::vector<wire_ollama::call>{}))
                out.calls.push_back({c.id.value_or(""), c.function.name, c.function.arguments.text(), {}});
            s.messages.push_back(std::move(out));
        } else {
            add_text(s.messages, m.role, text);
        }
    }
    s.tools = b.tools.has_value();
    REQUIRE(b.stream.has_value());  // Ollama streams when it is absent
    s.stream = *b.stream;
    return s;
}

// ---- the four APIs --------------------------------------------------------------------------

struct openai_api {
    using provider = agentry::openai;
    static constexpr const char* name = "openai";
    /// Call ids go to the model and come back with the results.
    static constexpr bool ids = true;
    /// Tool results carry an error mark.
    static constexpr bool marks_errors = false;
    static provider make(const std::string& scenario) {
        return {.model = "gpt-test", .api_key = "sk-test", .http = {.base_url = scenario_url(scenario) + "/v1"}};
    }
    static sent_request read(const recorded& r) { return from_openai(r); }
};

struct anthropic_api {
    using provider = agentry::anthropic;
    static constexpr const char* name = "anthropic";
    static constexpr bool ids = true;
    static constexpr bool marks_errors = true;
    static provider make(const std::string& scenario) {
        return {.model = "claude-test", .api_key = "ak-test", .http = {.base_url = scenario_url(scenario)}};
    }
    static sent_request read(const recorded& r) { return from_anthropic(r); }
};

struct gemini_api {
    using provider = agentry::gemini;
    static constexpr const char* name = "gemini";
    static constexpr bool ids = false;
    static constexpr bool marks_errors = true;
    static provider make(const std::string& scenario) {
        return {.model = "gemini-test", .api_key = "gk-test", .http = {.base_url = scenario_url(scenario) + "/v1beta"}};
    }
    static sent_request read(const recorded& r) { return from_gemini(r); }
};

struct ollama_api {
    using provider = agentry::ollama;
    static constexpr const char* name = "ollama";
    static constexpr bool ids = false;
    static constexpr bool marks_errors = false;
    static provider make(const std::string& scenario) {
        return {.model = "llama-test", .http = {.base_url = scenario_url(scenario)}};
    }
    static sent_request read(const recorded& r) { return from_ollama(r); }
};

/// The API requests scenario `name` received, in order, in the form of API `Api`.
template <class Api>
std::vector<sent_request> requests(const std::string& name) {
    agentry::curl_transport http;
    agentry::http_request r;
    r.method = "GET";
    r.url = scenario_url(name) + "/requests";
    const agentry::transport_result result = http.send(r);
    REQUIRE_MESSAGE(result.ok(), result.error.message);
    REQUIRE(result.response.status == 200);
    std::vector<sent_request> out;
    for (const recorded& one : read_json<std::vector<recorded>>(result.response.body)) {
        sent_request s = Api::read(one);
        s.path = one.path;
        s.headers = one.headers;
        s.body = one.body.text();
        out.push_back(std::move(s));
    }
    return out;
}

/// Whether a result answers a call: by id where the API sends ids, else by name (and position).
template <class Api>
bool answers(const sent_result& result, const sent_call& call) {
    if constexpr (Api::ids) return !call.id.empty() && result.id == call.id;
    else return result.name == call.name;
}

/// Every call of `request` is followed at once by its results, in the call order, and every
/// result follows its call.
template <class Api>
void check_pairs(const sent_request& request) {
    const auto& m = request.messages;
    for (std::size_t i = 0; i != m.size(); ++i) {
        if (m[i].role == "results") {
            REQUIRE(i > 0);
            const sent_message& before = m[i - 1];
            REQUIRE(before.role == "assistant");
            REQUIRE(before.calls.size() == m[i].results.size());
            for (std::size_t k = 0; k != before.calls.size(); ++k) CHECK(answers<Api>(m[i].results[k], before.calls[k]));
        }
        if (!m[i].calls.empty()) {
            REQUIRE(i + 1 < m.size());
            CHECK(m[i + 1].role == "results");
        }
    }
}

} // namespace agentry_test

TYPE_TO_STRING_AS("openai", agentry_test::openai_api);
TYPE_TO_STRING_AS("anthropic", agentry_test::anthropic_api);
TYPE_TO_STRING_AS("gemini", agentry_test::gemini_api);
TYPE_TO_STRING_AS("ollama", agentry_test::ollama_api);

#endif
