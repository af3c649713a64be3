// SPDX-License-Identifier: BSL-1.0
// agentry::tool_search in its three forms: the definitions, the results, the chooser and the
// payloads it gives, the Anthropic and OpenAI Responses requests that carry them (exact
// bodies), and the portable form end to end with an agent and a scripted model.

#include <agentry/agent.hpp>
#include <agentry/loop/tool_search_source.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/select/tool_search.hpp>

#include <doctest/doctest.h>

#include <cctype>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Scores an entry by the query's words found in its name and description.
struct keyword_scorer {
    void score(const agentry::tool_catalog& catalog, const agentry::turn_query& query, std::span<double> out) {
        std::vector<std::string> words;
        std::string word;
        for (char c : std::string(query.text) + " ") {
            if (std::isalnum(static_cast<unsigned char>(c))) {
                word.push_back(char(std::tolower(static_cast<unsigned char>(c))));
            } else if (!word.empty()) {
                words.push_back(word);
                word.clear();
            }
        }
        for (std::size_t i = 0; i != catalog.size(); ++i) {
            std::string text = std::string(catalog[i].name) + " " + std::string(catalog[i].description);
            for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
            for (const std::string& w : words)
                if (text.find(w) != std::string::npos) out[i] += 1;
        }
    }
};

struct sample_tool {
    std::string_view name;
    std::string_view description;
    std::string_view parameters;
};

constexpr sample_tool sample_tools[] = {
    {"get_weather", "Current weather for a city", R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"},
    {"convert_currency", "Convert an amount between currencies", R"({"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]})"},
    {"send_email", "Send an email message", R"({"type":"object","properties":{"to":{"type":"string"}},"required":["to"]})"},
};

std::string definition_of(agentry::dialect_kind kind, const sample_tool& t) {
    const std::string head = R"("name":")" + std::string(t.name) + R"(","description":")" + std::string(t.description) + "\"";
    switch (kind) {
    case agentry::dialect_kind::anthropic: return "{" + head + R"(,"input_schema":)" + std::string(t.parameters) + "}";
    case agentry::dialect_kind::openai_responses:
        return R"({"type":"function",)" + head + R"(,"parameters":)" + std::string(t.parameters) + R"(,"strict":false})";
    case agentry::dialect_kind::openai:
        return R"({"type":"function","function":{)" + head + R"(,"parameters":)" + std::string(t.parameters) + "}}";
    default: return "{" + head + R"(,"parameters":)" + std::string(t.parameters) + "}";
    }
}

agentry::tool_catalog catalog_of(agentry::dialect_kind kind) {
    agentry::tool_catalog catalog(kind);
    for (const sample_tool& t : sample_tools)
        catalog.add_owned(std::string(t.name), definition_of(kind, t), std::string(t.description), "", false, false);
    return catalog;
}

agentry::tool_search search_of(agentry::dialect_kind kind, agentry::tool_search_options options = {}) {
    return agentry::tool_search(catalog_of(kind), keyword_scorer{}, std::move(options));
}

agentry::tool_call call_of(std::string id, std::string name, std::string arguments) {
    agentry::tool_call c;
    c.id = std::move(id);
    c.name = std::move(name);
    c.arguments = std::move(arguments);
    return c;
}

const std::string anthropic_definition =
    R"({"name":"search_tools","description":"Search the tools you can use by what they do, in a few words. Returns the tools that match; call it before you need a tool you have not been given.","input_schema":{"type":"object","properties":{"query":{"type":"string","description":"What the tool must do, in a few words"},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to return"}},"required":["query"],"additionalProperties":false}})";

} // namespace

TEST_CASE("the form follows the dialect and the native option") {
    CHECK(search_of(agentry::dialect_kind::anthropic).form() == agentry::tool_search_form::anthropic);
    CHECK(search_of(agentry::dialect_kind::openai_responses).form() == agentry::tool_search_form::openai_responses);
    CHECK(search_of(agentry::dialect_kind::openai).form() == agentry::tool_search_form::portable);
    CHECK(search_of(agentry::dialect_kind::gemini).form() == agentry::tool_search_form::portable);
    agentry::tool_search_options portable;
    portable.native = false;
    CHECK(search_of(agentry::dialect_kind::anthropic, portable).form() == agentry::tool_search_form::portable);
    CHECK(search_of(agentry::dialect_kind::openai_responses).name() == "tool_search");
    CHECK(search_of(agentry::dialect_kind::anthropic).name() == "search_tools");
}

TEST_CASE("the definitions: Anthropic, Chat Completions strict, Gemini, the Responses tool_search") {
    CHECK(search_of(agentry::dialect_kind::anthropic).definition() == anthropic_definition);
    agentry::tool_search_options o;
    o.name = "find_tools";
    o.description = "Find tools";
    CHECK(search_of(agentry::dialect_kind::openai_strict, o).definition() ==
          R"({"type":"function","function":{"name":"find_tools","description":"Find tools","parameters":{"type":"object","properties":{"query":{"type":"string","description":"What the tool must do, in a few words"},"limit":{"type":["integer","null"],"description":"The most tools to return, 1 to 20"}},"required":["query","limit"],"additionalProperties":false},"strict":true}})");
    CHECK(search_of(agentry::dialect_kind::gemini, o).definition() ==
          R"({"name":"find_tools","description":"Find tools","parameters":{"type":"object","properties":{"query":{"type":"string","description":"What the tool must do, in a few words"},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to return"}},"required":["query"]}})");
    CHECK(search_of(agentry::dialect_kind::openai_responses, o).definition() ==
          R"({"type":"tool_search","execution":"client","description":"Find tools","parameters":{"type":"object","properties":{"query":{"type":"string","description":"What the tool must do, in a few words"},"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to return"}},"required":["query"],"additionalProperties":false}})");
}

TEST_CASE("bad options throw, naming the option") {
    agentry::tool_search_options o;
    o.limit = 21;
    CHECK_THROWS_WITH_AS(search_of(agentry::dialect_kind::openai, o),
                         "agentry: tool_search: tool_search_options::limit is 21; give a limit from 1 to 20",
                         std::invalid_argument);
    o.limit = 5;
    o.name = "send_email";
    CHECK_THROWS_WITH_AS(search_of(agentry::dialect_kind::openai, o),
                         "agentry: tool_search: the catalog already has a tool named 'send_email'; give the search "
                         "tool another name (tool_search_options::name)",
                         std::invalid_argument);
}

TEST_CASE("the results of each form, the limit, no evidence, bad arguments") {
    const agentry::tool_result portable = search_of(agentry::dialect_kind::openai).call(R"({"query":"weather city"})");
    CHECK(portable.ok());
    CHECK_FALSE(portable.content_blocks);
    CHECK(portable.content == R"([{"name":"get_weather","description":"Current weather for a city"}])");

    const agentry::tool_result two = search_of(agentry::dialect_kind::openai).call(R"({"query":"send currency email","limit":1})");
    CHECK(two.content == R"([{"name":"send_email","description":"Send an email message"}])");

    const agentry::tool_result references = search_of(agentry::dialect_kind::anthropic).call(R"({"query":"weather"})");
    CHECK(references.content_blocks);
    CHECK(references.content == R"([{"type":"tool_reference","tool_name":"get_weather"}])");

    const agentry::tool_result definitions =
        search_of(agentry::dialect_kind::openai_responses).call(R"({"query":"currency","limit":null})");
    CHECK_FALSE(definitions.content_blocks);
    CHECK(definitions.content ==
          R"([{"type":"function","name":"convert_currency","description":"Convert an amount between currencies","parameters":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]},"strict":false}])");

    CHECK(search_of(agentry::dialect_kind::openai).call(R"({"query":"juggling"})").content == "[]");

    const agentry::tool_result bad = search_of(agentry::dialect_kind::openai).call(R"({"query":"x","limit":40})");
    CHECK(bad.status == agentry::tool_status::invalid_arguments);
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0].pointer == "/limit");
    CHECK(bad.errors[0].message == "40 is not between 1 and 20");
    const agentry::tool_result missing = search_of(agentry::dialect_kind::openai).call(R"({"limit":2})");
    CHECK(missing.status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("Anthropic: unfound tools deferred, the search tool not, tool_reference results kept in later requests") {
    const agentry::tool_search search = search_of(agentry::dialect_kind::anthropic);
    const agentry::tool_call search_call = call_of("toolu_1", "search_tools", R"({"query":"weather"})");
    std::vector<agentry::message> conversation{agentry::message::user("Weather in Oslo?")};
    std::vector<std::string> called;

    // Turn 1: nothing found yet.
    agentry::active_tools chosen =
        search.choose(search.catalog(), agentry::turn_query::of(conversation, 1, called));
    CHECK(chosen.indices.empty());
    const std::string first_tools = search.payload(search.catalog(), chosen);
    CHECK(first_tools ==
          "[" + definition_of(agentry::dialect_kind::anthropic, sample_tools[0]).insert(
                    definition_of(agentry::dialect_kind::anthropic, sample_tools[0]).size() - 1, R"(,"defer_loading":true)") +
              "," +
              definition_of(agentry::dialect_kind::anthropic, sample_tools[1]).insert(
                  definition_of(agentry::dialect_kind::anthropic, sample_tools[1]).size() - 1, R"(,"defer_loading":true)") +
              "," +
              definition_of(agentry::dialect_kind::anthropic, sample_tools[2]).insert(
                  definition_of(agentry::dialect_kind::anthropic, sample_tools[2]).size() - 1, R"(,"defer_loading":true)") +
              "," + anthropic_definition + "]");

    // The model searches; the result goes back as tool_reference blocks.
    conversation.push_back(agentry::message::assistant("", {search_call}));
    conversation.push_back(agentry::message::tool_result(search_call, search.call(search_call.arguments)));
    CHECK(search.found(conversation) == std::vector<std::string>{"get_weather"});
    chosen = search.choose(search.catalog(), agentry::turn_query::of(conversation, 2, called));
    CHECK(chosen.indices == std::vector<std::size_t>{0});
    const std::string second_tools = search.payload(search.catalog(), chosen);
    CHECK(second_tools.find(R"("defer_loading")") > second_tools.find("convert_currency"));
    CHECK(second_tools.starts_with("[" + definition_of(agentry::dialect_kind::anthropic, sample_tools[0]) + ","));

    // The provider marks the last tool and the last block for its prompt cache.
    const std::string cached_tools =
        second_tools.substr(0, second_tools.size() - 2) + R"(,"cache_control":{"type":"ephemeral","ttl":"5m"}}])";
    agentry::anthropic claude;
    claude.model = "claude-test";
    claude.api_key = "k";
    agentry::chat_request request;
    request.messages = conversation;
    request.tools = second_tools;
    const std::string body = claude.request(request).body;
    CHECK(body ==
          R"({"model":"claude-test","max_tokens":4096,"messages":[{"role":"user","content":"Weather in Oslo?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"search_tools","input":{"query":"weather"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":"get_weather"}],"cache_control":{"type":"ephemeral","ttl":"5m"}}]}],"tools":)" +
              cached_tools + "}");

    // The model calls the tool it found; the next request still has the references.
    const agentry::tool_call weather = call_of("toolu_2", "get_weather", R"({"city":"Oslo"})");
    conversation.push_back(agentry::message::assistant("", {weather}));
    conversation.push_back(agentry::message::tool_result(weather, std::string("Sunny")));
    called = {"get_weather"};
    chosen = search.choose(search.catalog(), agentry::turn_query::of(conversation, 3, called));
    CHECK(chosen.indices == std::vector<std::size_t>{0});
    request.messages = conversation;
    const std::string third_tools = search.payload(search.catalog(), chosen);
    CHECK(third_tools == second_tools);
    request.tools = third_tools;
    CHECK(claude.request(request).body ==
          R"({"model":"claude-test","max_tokens":4096,"messages":[{"role":"user","content":"Weather in Oslo?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"search_tools","input":{"query":"weather"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":"get_weather"}]}]},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Oslo"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"Sunny","cache_control":{"type":"ephemeral","ttl":"5m"}}]}],"tools":)" +
              cached_tools + "}");
    CHECK_FALSE(claude.refuse(request).has_value());
}

TEST_CASE("other providers send a tool_reference result as text") {
    const agentry::tool_call c = call_of("call_1", "search_tools", R"({"query":"weather"})");
    std::vector<agentry::message> conversation{agentry::message::user("Weather?"),
                                               agentry::message::assistant("", {c})};
    agentry::tool_result r;
    r.content = R"([{"type":"tool_reference","tool_name":"get_weather"}])";
    r.content_blocks = true;
    conversation.push_back(agentry::message::tool_result(c, r));
    agentry::openai gpt;
    gpt.model = "gpt-test";
    gpt.api_key = "k";
    agentry::chat_request request;
    request.messages = conversation;
    CHECK_FALSE(gpt.refuse(request).has_value());
    CHECK(gpt.request(request).body ==
          R"({"model":"gpt-test","messages":[{"role":"user","content":"Weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_tools","arguments":"{\"query\":\"weather\"}"}}]},{"role":"tool","content":"{\"type\":\"tool_reference\",\"tool_name\":\"get_weather\"}","tool_call_id":"call_1"}]})");
}

TEST_CASE("OpenAI Responses: the tool_search tool, deferred functions, the call read, the output item sent") {
    const agentry::tool_search search = search_of(agentry::dialect_kind::openai_responses);
    agentry::openai_responses gpt;
    gpt.model = "gpt-test";
    gpt.api_key = "k";

    // The model's client-executed tool_search_call becomes a call named tool_search.
    const std::string item =
        R"({"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"currency"}})";
    agentry::http_response response;
    response.status = 200;
    response.body = R"({"id":"resp_1","status":"completed","output":[)" + item + R"(],"usage":{"input_tokens":10,"output_tokens":5}})";
    const agentry::turn_result turn = gpt.parse(response);
    REQUIRE(turn.ok());
    const agentry::message& reply = turn.value->reply;
    CHECK(turn.value->finish == agentry::finish_reason::tool_calls);
    REQUIRE(reply.tool_calls.size() == 1);
    CHECK(reply.tool_calls[0].id == "call_s1");
    CHECK(reply.tool_calls[0].name == "tool_search");
    CHECK(reply.tool_calls[0].arguments == R"({"query":"currency"})");
    REQUIRE(reply.parts.has_value());
    REQUIRE(reply.parts->size() == 1);
    CHECK((*reply.parts)[0].kind == "tool_search_call");
    CHECK((*reply.parts)[0].raw == item);
    CHECK((*reply.parts)[0].position == 1);

    // A server-executed search is OpenAI's own: no call.
    response.body = R"({"id":"resp_2","status":"completed","output":[{"type":"tool_search_call","id":"tsc_2","execution":"server","arguments":{"paths":["x"]}},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}]})";
    const agentry::turn_result server = gpt.parse(response);
    REQUIRE(server.ok());
    CHECK(server.value->reply.tool_calls.empty());

    std::vector<agentry::message> conversation{agentry::message::user("Convert 10 EUR")};
    conversation.push_back(reply);
    conversation.push_back(agentry::message::tool_result(reply.tool_calls[0], search.call(reply.tool_calls[0].arguments)));
    std::vector<std::string> called{"tool_search"};
    const agentry::active_tools chosen = search.choose(search.catalog(), agentry::turn_query::of(conversation, 2, called));
    CHECK(chosen.indices == std::vector<std::size_t>{1});
    agentry::chat_request request;
    request.messages = conversation;
    const std::string tools = search.payload(search.catalog(), chosen);
    CHECK(tools ==
          R"([{"type":"function","name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"strict":false,"defer_loading":true},{"type":"function","name":"convert_currency","description":"Convert an amount between currencies","parameters":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]},"strict":false},{"type":"function","name":"send_email","description":"Send an email message","parameters":{"type":"object","properties":{"to":{"type":"string"}},"required":["to"]},"strict":false,"defer_loading":true},)" +
              std::string(search.definition()) + "]");
    request.tools = tools;
    CHECK(gpt.request(request).body ==
          R"({"model":"gpt-test","input":[{"role":"user","content":"Convert 10 EUR"},)" + item +
              R"(,{"type":"tool_search_output","call_id":"call_s1","execution":"client","tools":[{"type":"function","name":"convert_currency","description":"Convert an amount between currencies","parameters":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]},"strict":false}]}],"tools":)" +
              tools + R"(,"include":["reasoning.encrypted_content"],"store":false})");

    // A search that failed (denied, bad arguments) answers with no tools.
    conversation.back().is_error = true;
    conversation.back().text = "denied";
    request.messages = conversation;
    CHECK(gpt.request(request).body.find(R"({"type":"tool_search_output","call_id":"call_s1","execution":"client","tools":[]})") !=
          std::string::npos);
}

TEST_CASE("portable form end to end: the model searches, then the tool found is sent and called") {
    std::vector<std::string> sent_tools;
    agentry::scripted_model model{[&](const agentry::chat_request& r) {
        sent_tools.emplace_back(r.tools);
        const agentry::message& back = r.messages.back();
        if (back.role == agentry::role::user) return agentry::scripted_model::call("search_tools", R"({"query":"weather"})");
        if (back.tool_name == "search_tools") return agentry::scripted_model::call("get_weather", R"({"city":"Oslo"})");
        return agentry::scripted_model::answer("It is " + back.text + ".");
    }};
    static constexpr agentry::registry tools{
        agentry::tool<"get_weather", "Current weather for a city", "city">(+[](std::string city) { return "sunny in " + city; }),
        agentry::tool<"send_email", "Send an email message", "to">(+[](std::string to) { return "sent to " + to; }),
    };
    constexpr auto fragments = tools.definition_fragments<agentry::dialect::standard>();
    agentry::tool_catalog catalog(agentry::dialect_kind::standard);
    catalog.add_owned("get_weather", std::string(fragments[0]), "Current weather for a city", "", false, false);
    catalog.add_owned("send_email", std::string(fragments[1]), "Send an email message", "", false, false);
    const agentry::tool_search search(catalog, keyword_scorer{});

    constexpr agentry::loop_config config{.max_turns = 5};
    agentry::agent_options options;
    options.system_prompt = "You help.";
    options.select_tools = agentry::searched_tools(search);
    agentry::agent<config> agent{model, tools, std::move(options), agentry::scripted_transport{}};
    REQUIRE(agent.add_tools(agentry::tool_search_source(search)).has_value());
    const agentry::run_result result = agent.run("Weather in Oslo?");
    CHECK(result.stop == agentry::stop_reason::completed);
    CHECK(result.text == "It is sunny in Oslo.");

    // Turn 1: the search tool alone; turn 2: the tool found too; turn 3: the tool called.
    const std::string search_definition(search.definition());
    const std::string weather_definition(fragments[0]);
    REQUIRE(sent_tools.size() == 3);
    CHECK(sent_tools[0] == "[" + search_definition + "]");
    CHECK(sent_tools[1] == "[" + weather_definition + "," + search_definition + "]");
    CHECK(sent_tools[2] == "[" + weather_definition + "," + search_definition + "]");

    const std::vector<agentry::message> asked = model.conversations().back();
    REQUIRE(asked.size() == 6);
    CHECK(asked[3].tool_name == "search_tools");
    CHECK(asked[3].text == R"([{"name":"get_weather","description":"Current weather for a city"}])");

    // A restored conversation keeps what was found: the next turn sends the same tools.
    agentry::scripted_model next{[&](const agentry::chat_request& r) {
        sent_tools.emplace_back(r.tools);
        return agentry::scripted_model::answer("done");
    }};
    agentry::agent_options restored_options;
    restored_options.select_tools = agentry::searched_tools(search);
    agentry::agent<config> restored{next, tools, std::move(restored_options), agentry::scripted_transport{}};
    REQUIRE(restored.add_tools(agentry::tool_search_source(search)).has_value());
    REQUIRE(restored.restore(agent.save()));
    CHECK(restored.run("And tomorrow?").text == "done");
    REQUIRE(sent_tools.size() == 4);
    CHECK(sent_tools[3] == "[" + weather_definition + "," + search_definition + "]");
}

TEST_CASE("Anthropic through the agent: the search tool always sent, the others deferred until found") {
    std::vector<std::string> sent_tools;
    const agentry::tool_search search = search_of(agentry::dialect_kind::anthropic);
    agentry::tool_catalog agent_catalog = catalog_of(agentry::dialect_kind::anthropic);
    agent_catalog.add_owned("search_tools", std::string(search.definition()), "", "", true, true);
    std::vector<agentry::message> conversation{agentry::message::user("Weather?")};
    std::vector<std::string> called;
    const agentry::active_tools first = agentry::searched_tools(search)(agent_catalog, agentry::turn_query::of(conversation, 1, called));
    CHECK(first.defer_others);
    CHECK(first.indices == std::vector<std::size_t>{3});
    const std::string payload = agent_catalog.deferred_payload(first.indices);
    CHECK(payload == search.payload(agent_catalog, first));
    CHECK(payload.ends_with("," + std::string(search.definition()) + "]"));
    CHECK(payload.find(R"("required":["to"]},"defer_loading":true})") != std::string::npos);
}

TEST_CASE("a search source refuses an agent of another dialect") {
    agentry::scripted_model model{[](const agentry::chat_request&) { return agentry::scripted_model::answer("x"); }};
    static constexpr agentry::registry tools{
        agentry::tool<"noop", "Does nothing">(+[] { return 0; }),
    };
    constexpr agentry::loop_config config{};
    agentry::agent<config> agent{model, tools, "You help.", agentry::scripted_transport{}};
    const auto added = agent.add_tools(agentry::tool_search_source(search_of(agentry::dialect_kind::anthropic)));
    REQUIRE_FALSE(added.has_value());
    CHECK(added.error().message ==
          "agentry: tool_search_source: the search's catalog is in another dialect than the agent's; build the "
          "catalog for the agent's provider");
}
