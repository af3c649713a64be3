// SPDX-License-Identifier: BSL-1.0
// mcp::answer_sampling_with: the client's sampling hook answered by one of agentry's providers
// (here agentry::scripted_model): the request mapped into one provider turn, the turn into the
// CreateMessageResult, tool use, a provider error, the approval's refusal; and end to end, an
// agentry server's tool that samples with tools and an mcp::client whose on_sample is the hook.
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/sample.hpp>
#include <agentry/mcp/sampling_provider.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include "doc_block.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

// The JSON-RPC answer of the client to sampling/createMessage with `params`.
std::string answer(const mcp::sampling_hook& hook, std::string_view params) {
    const std::string request = R"({"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":)" + std::string(params) + "}";
    const agentry::json::parsed parsed = agentry::json::parse(request);
    return mcp::detail::answer_server_request(parsed.value, {}, hook);
}

constexpr std::string_view plain_params =
    R"({"messages":[{"role":"user","content":{"type":"text","text":"Hi"}},{"role":"assistant","content":{"type":"text","text":"Hello."}},)"
    R"({"role":"user","content":[{"type":"text","text":"Summarise "},{"type":"text","text":"this"}]}],)"
    R"("systemPrompt":"Be brief.","modelPreferences":{"hints":[{"name":"small-model"}]},"maxTokens":50,"temperature":0.5,"stopSequences":["END"]})";

} // namespace

TEST_CASE("answer_sampling_with: the request as one provider turn, the reply as a CreateMessageResult") {
    std::vector<agentry::chat_request> seen;
    std::vector<std::string> tools_seen;
    agentry::scripted_model model{[&](const agentry::chat_request& r) {
        seen.push_back(r);
        tools_seen.emplace_back(r.tools);
        return agentry::scripted_model::answer("Short.");
    }};
    const mcp::sampling_hook hook = mcp::answer_sampling_with(model, agentry::scripted_transport{}, {.approve = {}, .model_from_hints = false, .model_name = "scripted-1"});
    CHECK(answer(hook, plain_params) ==
          R"({"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":{"type":"text","text":"Short."},"model":"scripted-1","stopReason":"endTurn"}})");
    REQUIRE(seen.size() == 1);
    const auto conversation = model.conversations().at(0);
    REQUIRE(conversation.size() == 4);
    CHECK(conversation[0].role == agentry::role::system);
    CHECK(conversation[0].text == "Be brief.");
    CHECK(conversation[1].role == agentry::role::user);
    CHECK(conversation[1].text == "Hi");
    CHECK(conversation[2].role == agentry::role::assistant);
    CHECK(conversation[2].text == "Hello.");
    CHECK(conversation[3].text == "Summarise this");
    CHECK(seen[0].max_tokens == 50u);
    CHECK(seen[0].temperature == 0.5);
    CHECK(tools_seen[0].empty());
    CHECK(seen[0].tool_choice.kind == agentry::tool_choice_kind::automatic);
}

TEST_CASE("answer_sampling_with: tools in the provider's dialect, tool calls as tool_use, tool results as tool messages") {
    std::vector<std::string> tools_seen;
    std::vector<agentry::tool_choice_kind> choices;
    agentry::scripted_model model{[&](const agentry::chat_request& r) {
        tools_seen.emplace_back(r.tools);
        choices.push_back(r.tool_choice.kind);
        if (r.messages.back().role == agentry::role::tool)
            return agentry::scripted_model::answer("It is " + r.messages.back().text + ".");
        // A strict dialect's null for the optional "unit" is left out of the tool use.
        return agentry::scripted_model::calls({{"c1", "get_weather", R"({"city":"Paris","unit":null})", {}}});
    }};
    const mcp::sampling_hook hook = mcp::answer_sampling_with(model, agentry::scripted_transport{});
    const std::string tools =
        R"("tools":[{"name":"get_weather","description":"Weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"]}}],"toolChoice":{"mode":"required"})";
    CHECK(answer(hook, R"({"messages":[{"role":"user","content":{"type":"text","text":"Paris?"}}],"maxTokens":10,)" + tools + "}") ==
          R"({"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}],"model":"agentry","stopReason":"toolUse"}})");
    REQUIRE(tools_seen.size() == 1);
    CHECK(tools_seen[0] ==
          R"([{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"]}}])");
    CHECK(choices[0] == agentry::tool_choice_kind::required);
    CHECK(answer(hook, R"({"messages":[{"role":"user","content":{"type":"text","text":"Paris?"}},)"
                       R"({"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}]},)"
                       R"({"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[{"type":"text","text":"rainy"}],"isError":false}]}],)"
                       R"("maxTokens":10,)" +
                           tools + "}") ==
          R"({"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":{"type":"text","text":"It is rainy."},"model":"agentry","stopReason":"endTurn"}})");
    const auto conversation = model.conversations().at(1);
    REQUIRE(conversation.size() == 3);
    REQUIRE(conversation[1].tool_calls.size() == 1);
    CHECK(conversation[1].tool_calls[0].id == "c1");
    CHECK(conversation[1].tool_calls[0].arguments == R"({"city":"Paris"})");
    CHECK(conversation[2].role == agentry::role::tool);
    CHECK(conversation[2].tool_call_id == "c1");
    CHECK(conversation[2].tool_name == "get_weather");
    CHECK(conversation[2].text == "rainy");
    CHECK(!conversation[2].is_error);
}

namespace {

// A transport answering every request with `reply`, keeping the bodies it was sent.
struct canned_transport {
    std::shared_ptr<std::vector<std::string>> bodies = std::make_shared<std::vector<std::string>>();
    std::string reply;
    agentry::transport_result send(const agentry::http_request& request) const {
        bodies->push_back(request.body);
        agentry::transport_result r;
        r.response.status = 200;
        r.response.body = reply;
        return r;
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) const {
        return send(request);
    }
};

} // namespace

TEST_CASE("answer_sampling_with an OpenAI provider: strict tools, the hint as model, nulls of optional arguments dropped") {
    canned_transport transport;
    transport.reply =
        R"({"id":"c","object":"chat.completion","model":"small-model","choices":[{"index":0,"message":{"role":"assistant","content":null,)"
        R"("tool_calls":[{"id":"call_9","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":null}"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":4}})";
    const auto bodies = transport.bodies;
    mcp::sampling_provider_options options;
    options.model_from_hints = true;
    const mcp::sampling_hook hook =
        mcp::answer_sampling_with(agentry::openai{.model = "gpt-default", .api_key = "k"}, transport, options);
    CHECK(answer(hook, R"({"messages":[{"role":"user","content":{"type":"text","text":"Paris?"}}],"maxTokens":10,)"
                       R"("modelPreferences":{"hints":[{"name":"small-model"}]},)"
                       R"("tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"]}}],)"
                       R"("toolChoice":{"mode":"required"}})") ==
          R"({"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":[{"type":"tool_use","id":"call_9","name":"get_weather","input":{"city":"Paris"}}],"model":"small-model","stopReason":"toolUse"}})");
    REQUIRE(bodies->size() == 1);
    const std::string& body = bodies->front();
    CHECK(body.find(R"("model":"small-model")") != std::string::npos);
    CHECK(body.find(R"("tool_choice":"required")") != std::string::npos);
    CHECK(body.find(R"({"type":"function","function":{"name":"get_weather","description":"",)") != std::string::npos);
    CHECK(body.find(R"("strict":true)") != std::string::npos);
    CHECK(body.find(R"("max_completion_tokens":10)") != std::string::npos);
    // Without model_from_hints, the provider's model.
    const mcp::sampling_hook fixed = mcp::answer_sampling_with(agentry::openai{.model = "gpt-default", .api_key = "k"}, transport);
    CHECK(answer(fixed, R"({"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10,"modelPreferences":{"hints":[{"name":"small-model"}]}})")
              .find(R"("model":"gpt-default")") != std::string::npos);
    REQUIRE(bodies->size() == 2);
    CHECK(bodies->back().find(R"("model":"gpt-default")") != std::string::npos);
}

namespace {

// The example of docs/mcp.md (answering sampling with a provider), byte for byte.
template <agentry::transport T>
agentry::mcp::client_options answering_with_a_model(T transport, std::function<bool(std::string_view)> ask_the_user) {
    agentry::mcp::client_options options;
    agentry::mcp::sampling_provider_options sampling;
    sampling.approve = std::move(ask_the_user);  // a person reviews each request first
    options.on_sample = agentry::mcp::answer_sampling_with(agentry::openai{.model = "gpt-4o-mini"},
                                                           std::move(transport), sampling);
    options.sampling_tools = true;  // the server may offer the model tools
    return options;
}

} // namespace

TEST_CASE("docs/mcp.md: the example of answering sampling with a provider is in this file, and answers") {
    const std::string block = mcp_test::doc_block("**Answering sampling with a provider.**");
    CHECK(block.starts_with("template <agentry::transport T>"));
    CHECK(mcp_test::in_test_file(block, "sampling_provider.cpp"));
    canned_transport transport;
    transport.reply =
        R"({"id":"c","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Hello."},)"
        R"("finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4}})";
    bool allow = true;
    const mcp::client_options options = answering_with_a_model(transport, [&](std::string_view) { return allow; });
    CHECK(options.sampling_tools);
    const std::string params = R"({"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10})";
    CHECK(answer(options.on_sample, params) ==
          R"({"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":{"type":"text","text":"Hello."},"model":"gpt-4o-mini","stopReason":"endTurn"}})");
    allow = false;
    CHECK(answer(options.on_sample, params) ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"User rejected sampling request"}})");
    CHECK(transport.bodies->size() == 1);
}

TEST_CASE("answer_sampling_with: the tools payload of the Gemini and Anthropic dialects") {
    const agentry::json::parsed params = agentry::json::parse(
        R"({"messages":[],"tools":[{"name":"now","description":"The time","inputSchema":{"type":"object","properties":{}}},)"
        R"({"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]})");
    mcp::detail::sampling_turn gemini;
    CHECK_FALSE(mcp::detail::read_sampling_turn(params.value, agentry::dialect::gemini::kind, agentry::dialect::gemini::rules, gemini));
    CHECK(gemini.tools ==
          R"([{"functionDeclarations":[{"name":"now","description":"The time"},)"
          R"({"name":"get_weather","description":"","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING"}},"required":["city"]}}]}])");
    mcp::detail::sampling_turn anthropic;
    CHECK_FALSE(mcp::detail::read_sampling_turn(params.value, agentry::dialect::anthropic::kind, agentry::dialect::anthropic::rules, anthropic));
    CHECK(anthropic.tools.starts_with(R"([{"name":"now","description":"The time","input_schema":{"type":"object")"));
    const auto bad = mcp::detail::read_sampling_turn(agentry::json::parse(R"({"messages":[],"tools":[{"name":"no spaces","inputSchema":{}}]})").value,
                                                     agentry::dialect::gemini::kind, agentry::dialect::gemini::rules, gemini);
    REQUIRE(bad.has_value());
    REQUIRE(bad->error.has_value());
    CHECK(bad->error->code == -32602);
    CHECK(bad->error->message == "agentry: mcp::answer_sampling_with: the tool name \"no spaces\" is not valid in the gemini dialect");
}

TEST_CASE("answer_sampling_with: refusals, a provider error, the approval") {
    agentry::scripted_model failing{std::vector<agentry::completion>{}};
    const mcp::sampling_hook hook = mcp::answer_sampling_with(failing, agentry::scripted_transport{});
    CHECK(answer(hook, R"({"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10})") ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"agentry: mcp::answer_sampling_with: the provider failed: agentry: scripted_model has no reply left for turn 1"}})");
    CHECK(answer(hook, R"({"messages":[{"role":"user","content":{"type":"image","data":"AAAA","mimeType":"image/png"}}],"maxTokens":10})") ==
          R"~({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"agentry: mcp::answer_sampling_with: message 1 holds image content from the user, which agentry's providers do not take (text, an assistant's tool_use and a user's tool_result only)"}})~");
    CHECK(answer(hook, R"({"messages":[],"maxTokens":10,"tools":[{"name":"x","inputSchema":[]}]})") ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"agentry: mcp::answer_sampling_with: the tool \"x\" has no inputSchema object"}})");

    std::string reviewed;
    agentry::scripted_model unused{std::vector<agentry::completion>{agentry::scripted_model::answer("never")}};
    mcp::sampling_provider_options options;
    options.approve = [&](std::string_view params) {
        reviewed = std::string(params);
        return false;
    };
    const mcp::sampling_hook refusing = mcp::answer_sampling_with(unused, agentry::scripted_transport{}, options);
    CHECK(answer(refusing, R"({"messages":[],"maxTokens":1})") ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"User rejected sampling request"}})");
    CHECK(reviewed == R"({"messages":[],"maxTokens":1})");
    CHECK(unused.pending() == 1);
}

namespace {

constexpr agentry::registry weather{
    agentry::tool<"get_weather", "Current weather for a city", "city">(+[](const std::string& city) {
        return city == "Paris" ? std::string("rain") : std::string("sun");
    }),
};

// The server's tool: asks the client's model with weather's tools, runs the ones it uses, asks again.
std::string pack(const std::string& city) {
    mcp::sampling_request request;
    request.messages = {{mcp::role::user, "Pack for " + city}};
    request.tools = mcp::sampling_tools(weather);
    for (int round = 0; round != 3; ++round) {
        const mcp::sample_result r = mcp::sample(request);
        if (r.error) return r.error->message;
        if (r.tool_uses.empty()) return r.model + " " + r.stop_reason + ": " + r.text;
        request.messages.push_back(mcp::sampling_message::assistant(r));
        std::vector<mcp::sampling_tool_result> results;
        for (const mcp::sampling_tool_use& use : r.tool_uses)
            results.push_back({use.id, weather.call(use.name, use.input).content, false});
        request.messages.push_back(mcp::sampling_message::results(std::move(results)));
    }
    return "too many rounds";
}

constexpr agentry::registry packing{agentry::tool<"pack", "Packs with the client's model", "city">(pack)};

} // namespace

TEST_CASE("answer_sampling_with end to end: an agentry server's tool samples with tools from an mcp::client") {
    const mcp::server server{packing, {.name = "packing", .version = "1"}};
    mcp::http_options http_options;
    http_options.port = 0;
    http_options.threads = 3;
    http_options.log = nullptr;
    mcp::http_server http(server, http_options);
    std::thread serving([&] { http.run(); });

    agentry::scripted_model model{[](const agentry::chat_request& r) {
        if (r.messages.back().role == agentry::role::tool)
            return agentry::scripted_model::answer("Take an umbrella: " + r.messages.back().text + ".");
        return agentry::scripted_model::call("get_weather", R"({"city":"Paris"})");
    }};
    mcp::client_options options;
    options.on_sample = mcp::answer_sampling_with(model, agentry::scripted_transport{}, {.approve = {}, .model_from_hints = false, .model_name = "scripted"});
    options.sampling_tools = true;
    auto c = mcp::client::connect(mcp::http_url{http.url()}, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    const auto r = (*c)->call_tool("pack", R"({"city":"Paris"})");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text == "scripted endTurn: Take an umbrella: rain.");
    const auto conversations = model.conversations();
    REQUIRE(conversations.size() == 2);
    REQUIRE(conversations[1].size() == 3);
    CHECK(conversations[1][0].text == "Pack for Paris");
    CHECK(conversations[1][1].tool_calls.at(0).name == "get_weather");
    CHECK(conversations[1][2].tool_call_id == "call_1");
    (*c)->close();

    // Without sampling_tools the client does not declare capabilities.sampling.tools.
    options.sampling_tools = false;
    auto plain = mcp::client::connect(mcp::http_url{http.url()}, options);
    REQUIRE(plain.has_value());
    const auto refused = (*plain)->call_tool("pack", R"({"city":"Paris"})");
    REQUIRE(refused.has_value());
    CHECK(refused->text == "agentry: mcp::sample: the request offers the tool \"get_weather\", but the client does not "
                           "support sampling with tools (it did not declare capabilities.sampling.tools in initialize); "
                           "send the request without tools");
    (*plain)->close();
    http.stop();
    serving.join();
}
