// SPDX-License-Identifier: BSL-1.0
// Typed final answers (loop/output.hpp) through the real provider classes: each provider
// builds its requests and reads responses as the API sends them, from a replay_transport.
// For OpenAI, Anthropic, Gemini and Ollama: the structured output each request carries, an
// answer valid the first time (after a tool turn), an invalid answer repaired with the
// reader's errors, an answer invalid past loop_config::max_output_repairs, and a refusal.

#include <agentry/agent.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct trip_plan {
    std::string city;
    agentry::constrained<int, agentry::minimum<1>, agentry::maximum<14>> days;
    std::vector<std::string> sights;
    std::optional<std::string> note;
};

struct forecast_query {
    std::string city;
};

std::string forecast(const forecast_query& q) { return q.city + ": dry all week"; }

constexpr agentry::registry tools{agentry::tool<"forecast", "The week's weather for a city">(forecast)};

// The agent keeps its transport by value; this one forwards to a replay_transport the test reads.
struct replay_at {
    agentry::replay_transport* to;
    agentry::transport_result send(const agentry::http_request& r) { return to->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return to->stream(r, h);
    }
};

std::string quoted(std::string_view text) {
    std::string out;
    agentry::json::write(out, text);
    return out;
}

// Each provider: the provider object, and its wire responses for an answer, a tool call and a
// refusal, as the API sends them (members agentry does not read included).
struct openai_wire {
    using provider = agentry::openai;
    static provider make() { return {.model = "gpt-4o-mini", .api_key = "sk-test"}; }
    static std::string body(std::string message, std::string_view finish) {
        return R"({"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini",)"
               R"("choices":[{"index":0,"message":)" +
               message + R"(,"logprobs":null,"finish_reason":")" + std::string(finish) +
               R"("}],"usage":{"prompt_tokens":20,"completion_tokens":8,"total_tokens":28}})";
    }
    static std::string answer(std::string_view text) {
        return body(R"({"role":"assistant","content":)" + quoted(text) + R"(,"refusal":null})", "stop");
    }
    static std::string call(std::string_view arguments) {
        return body(R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",)"
                    R"("function":{"name":"forecast","arguments":)" +
                        quoted(arguments) + "}}]}",
                    "tool_calls");
    }
    static std::string refusal() {
        return body(R"({"role":"assistant","content":null,"refusal":"I cannot help with that."})", "stop");
    }
};

struct anthropic_wire {
    using provider = agentry::anthropic;
    static provider make() { return {.model = "claude-sonnet-4-5", .api_key = "sk-ant-test"}; }
    static std::string body(std::string content, std::string_view stop) {
        return R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":)" +
               content + R"(,"stop_reason":")" + std::string(stop) +
               R"(","stop_sequence":null,"usage":{"input_tokens":20,"output_tokens":8}})";
    }
    static std::string answer(std::string_view text) {
        return body(R"([{"type":"text","text":)" + quoted(text) + "}]", "end_turn");
    }
    static std::string call(std::string_view arguments) {
        return body(R"([{"type":"tool_use","id":"toolu_1","name":"forecast","input":)" + std::string(arguments) + "}]",
                    "tool_use");
    }
    static std::string refusal() { return body(R"([{"type":"text","text":"I cannot help with that."}])", "refusal"); }
};

struct gemini_wire {
    using provider = agentry::gemini;
    static provider make() { return {.model = "gemini-3-flash", .api_key = "g-test"}; }
    static std::string body(std::string parts, std::string_view finish) {
        return R"({"candidates":[{"content":{"role":"model","parts":)" + parts + R"(},"finishReason":")" +
               std::string(finish) +
               R"(","index":0}],"usageMetadata":{"promptTokenCount":20,"candidatesTokenCount":8,"totalTokenCount":28},)"
               R"("modelVersion":"gemini-3-flash"})";
    }
    static std::string answer(std::string_view text) { return body(R"([{"text":)" + quoted(text) + "}]", "STOP"); }
    static std::string call(std::string_view arguments) {
        return body(R"([{"functionCall":{"name":"forecast","args":)" + std::string(arguments) + "}}]", "STOP");
    }
};

struct ollama_wire {
    using provider = agentry::ollama;
    static provider make() { return {.model = "qwen3"}; }
    static std::string body(std::string message) {
        return R"({"model":"qwen3","created_at":"2026-01-05T10:00:00Z","message":)" + message +
               R"(,"done":true,"done_reason":"stop","total_duration":1000,"prompt_eval_count":20,"eval_count":8})";
    }
    static std::string answer(std::string_view text) {
        return body(R"({"role":"assistant","content":)" + quoted(text) + "}");
    }
    static std::string call(std::string_view arguments) {
        return body(R"({"role":"assistant","content":"","tool_calls":[{"function":{"name":"forecast","arguments":)" +
                    std::string(arguments) + "}}]}");
    }
};

template <class Wire, agentry::loop_config Config = agentry::loop_config{}>
struct fixture {
    agentry::replay_transport http;
    agentry::agent<Config, trip_plan> agent;

    explicit fixture(std::vector<std::string> bodies)
        : http(responses(std::move(bodies))), agent(Wire::make(), tools, "Plan trips.", replay_at{&http}) {}

    static std::vector<agentry::replay_response> responses(std::vector<std::string> bodies) {
        std::vector<agentry::replay_response> out;
        for (std::string& b : bodies) out.push_back(agentry::replay_response::ok(std::move(b)));
        return out;
    }
};

// The structured output of a request body, as each provider writes it.
template <class Wire>
std::string expected_format() {
    using D = typename agentry::detail::output_dialect_of<typename Wire::provider>::type;
    const std::string schema(agentry::json_schema<trip_plan, D>());
    if constexpr (std::is_same_v<Wire, openai_wire>)
        return R"("response_format":{"type":"json_schema","json_schema":{"name":"final_answer","schema":)" + schema +
               R"(,"strict":true}})";
    else if constexpr (std::is_same_v<Wire, anthropic_wire>)
        return R"("output_config":{"format":{"type":"json_schema","schema":)" + schema + "}}";
    else if constexpr (std::is_same_v<Wire, gemini_wire>)
        return R"("generationConfig":{"responseMimeType":"application/json","responseSchema":)" + schema + "}";
    else
        return R"("format":)" + schema;
}

constexpr std::string_view valid_plan = R"({"city":"Lyon","days":3,"sights":["Fourviere","Vieux Lyon"]})";
// days is past its maximum and sights is missing.
constexpr std::string_view invalid_plan = R"({"city":"Lyon","days":30})";
constexpr std::string_view repair_text =
    "Your answer does not match the required JSON output format: /days: must be at most 14; "
    "/sights: missing required property. Answer again with the whole JSON object, corrected, and nothing else.";

} // namespace

TEST_CASE_TEMPLATE("typed output: a tool turn, then an answer valid the first time", Wire, openai_wire, anthropic_wire,
                   gemini_wire, ollama_wire) {
    fixture<Wire> f({Wire::call(R"({"city":"Lyon"})"), Wire::answer(valid_plan)});
    const agentry::typed_result<trip_plan> r = f.agent.run("Three days in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == valid_plan);
    REQUIRE(r.output);
    CHECK(r.output->city == "Lyon");
    CHECK(r.output->days == 3);
    CHECK(r.output->sights == std::vector<std::string>{"Fourviere", "Vieux Lyon"});
    CHECK(!r.output->note);
    CHECK(r.turns == 2);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "Lyon: dry all week");
    // Both requests carry the tools and the structured output: the calls come first.
    const std::vector<agentry::http_request> sent = f.http.requests();
    REQUIRE(sent.size() == 2);
    for (const agentry::http_request& request : sent) {
        CHECK(request.body.find(expected_format<Wire>()) != std::string::npos);
        CHECK(request.body.find("\"forecast\"") != std::string::npos);
    }
}

TEST_CASE_TEMPLATE("typed output: an invalid answer is repaired with the reader's errors", Wire, openai_wire,
                   anthropic_wire, gemini_wire, ollama_wire) {
    fixture<Wire> f({Wire::answer(invalid_plan), Wire::answer(valid_plan)});
    const agentry::typed_result<trip_plan> r = f.agent.run("Three days in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->days == 3);
    CHECK(r.turns == 2);
    // The model got its answer back, then the errors as a user message.
    const std::vector<agentry::message>& history = f.agent.conversation();
    REQUIRE(history.size() == 5);
    CHECK(history[2].role == agentry::role::assistant);
    CHECK(history[2].text == invalid_plan);
    CHECK(history[3].role == agentry::role::user);
    CHECK(history[3].text == repair_text);
    const std::vector<agentry::http_request> sent = f.http.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].body.find(quoted(repair_text)) != std::string::npos);
    CHECK(sent[1].body.find(expected_format<Wire>()) != std::string::npos);
}

TEST_CASE_TEMPLATE("typed output: invalid past loop_config::max_output_repairs stops the run", Wire, openai_wire,
                   anthropic_wire, gemini_wire, ollama_wire) {
    constexpr agentry::loop_config config{.max_output_repairs = 1};
    fixture<Wire, config> f({Wire::answer(invalid_plan), Wire::answer("Lyon, three days.")});
    const agentry::typed_result<trip_plan> r = f.agent.run("Three days in Lyon?");
    CHECK(r.stop == agentry::stop_reason::invalid_output_exhausted);
    CHECK(agentry::to_string(r.stop) == "invalid_output_exhausted");
    CHECK(!r.output);
    CHECK(r.turns == 2);
    CHECK(r.text ==
          "The model's answer did not match the output type after 1 repair: invalid JSON at byte 0: unexpected "
          "character");
    CHECK(f.http.requests().size() == 2);
    CHECK(f.http.pending() == 0);
}

TEST_CASE("typed output: max_output_repairs 0 stops at the first invalid answer") {
    constexpr agentry::loop_config config{.max_output_repairs = 0};
    fixture<openai_wire, config> f({openai_wire::answer(invalid_plan)});
    const agentry::typed_result<trip_plan> r = f.agent.run("Three days in Lyon?");
    CHECK(r.stop == agentry::stop_reason::invalid_output_exhausted);
    CHECK(r.text ==
          "The model's answer did not match the output type after 0 repairs: /days: must be at most 14; /sights: "
          "missing required property");
    CHECK(f.agent.conversation().size() == 3);
}

TEST_CASE_TEMPLATE("typed output: a refusal stays refused, without a repair", Wire, openai_wire, anthropic_wire) {
    fixture<Wire> f({Wire::refusal()});
    const agentry::typed_result<trip_plan> r = f.agent.run("Plan something awful.");
    CHECK(r.stop == agentry::stop_reason::refused);
    CHECK(r.text == "I cannot help with that.");
    CHECK(!r.output);
    CHECK(f.http.requests().size() == 1);
}

TEST_CASE("typed output: streamed, the JSON text arrives in pieces and is read whole") {
    agentry::replay_transport http{{agentry::replay_response::streamed(
        {R"(data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"{\"city\":\"Ly"}}]})"
         "\n\n",
         R"(data: {"choices":[{"index":0,"delta":{"content":"on\",\"days\":2,\"sights\":[],\"note\":\"rain\"}"}}]})"
         "\n\n",
         R"(data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"
         "\n\n",
         "data: [DONE]\n\n"})}};
    std::string streamed;
    agentry::agent_events events;
    events.on_text = [&](std::string_view t) { streamed += t; };
    agentry::agent<agentry::loop_config{}, trip_plan> agent{openai_wire::make(), tools, {.events = events},
                                                            replay_at{&http}};
    const agentry::typed_result<trip_plan> r = agent.run("Two days in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->city == "Lyon");
    CHECK(r.output->note == "rain");
    CHECK(streamed == r.text);
    CHECK(http.requests()[0].body.find(expected_format<openai_wire>()) != std::string::npos);
}

TEST_CASE("typed output: a continuation reads a restored conversation's final answer") {
    agentry::replay_transport http;
    agentry::agent<agentry::loop_config{}, trip_plan> agent{openai_wire::make(), tools, "", replay_at{&http}};
    std::vector<agentry::message> saved{agentry::message::user("Lyon?"), agentry::message::assistant(std::string(valid_plan))};
    std::string text;
    agentry::json::write(text, saved);
    REQUIRE(agent.restore(text));
    agentry::typed_result<trip_plan> r = agent.run(agentry::continuation{});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->city == "Lyon");

    saved.back().text = invalid_plan;
    text.clear();
    agentry::json::write(text, saved);
    REQUIRE(agent.restore(text));
    r = agent.run(agentry::continuation{});
    CHECK(r.stop == agentry::stop_reason::invalid_output_exhausted);
    CHECK(r.text ==
          "The model's answer did not match the output type: /days: must be at most 14; /sights: "
          "missing required property");
    CHECK(!r.output);
    CHECK(http.requests().empty());
}

TEST_CASE("typed output: OpenAI strict sends null for an absent optional member") {
    fixture<openai_wire> f({openai_wire::answer(R"({"city":"Lyon","days":1,"sights":[],"note":null})")});
    const agentry::typed_result<trip_plan> r = f.agent.run("Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(!r.output->note);
    // Every member is required in the strict schema, the optional one as ["string","null"].
    CHECK(f.http.requests()[0].body.find(R"("required":["city","days","sights","note"])") != std::string::npos);
}

TEST_CASE("typed output: an agent without an output type sends no structured output") {
    agentry::replay_transport http{{agentry::replay_response::ok(openai_wire::answer("Lyon is lovely."))}};
    agentry::agent<agentry::loop_config{}> agent{openai_wire::make(), tools, "", replay_at{&http}};
    const agentry::run_result r = agent.run("Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Lyon is lovely.");
    CHECK(http.requests()[0].body.find("response_format") == std::string::npos);
}

TEST_CASE("typed output: the schema is the one of the provider's structured-output dialect") {
    // Anthropic's structured outputs take the subset its strict tools take.
    static_assert(std::is_same_v<agentry::detail::output_dialect_of<agentry::anthropic>::type,
                                 agentry::dialect::anthropic_strict>);
    static_assert(std::is_same_v<agentry::detail::output_dialect_of<agentry::openai>::type,
                                 agentry::dialect::openai_strict>);
    static_assert(std::is_same_v<agentry::detail::output_dialect_of<agentry::gemini>::type, agentry::dialect::gemini>);
    static_assert(std::is_same_v<agentry::detail::output_dialect_of<agentry::ollama>::type, agentry::dialect::openai>);
    // Gemini's open objects: a member the schema does not name is not refused.
    fixture<gemini_wire> f({gemini_wire::answer(R"({"CITY":"x","city":"Lyon","days":1,"sights":[]})")});
    const agentry::typed_result<trip_plan> r = f.agent.run("Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->city == "Lyon");
}

namespace {

struct traveller {
    std::string home;
};

std::string home_city(agentry::context<traveller> who) { return who->home; }

constexpr agentry::registry with_context{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only, .needs_approval = true}>(
        agentry::tool<"home_city", "The traveller's home city">(home_city)),
};

} // namespace

TEST_CASE("typed output: run(input, ctx) and run(approvals, ctx) return the typed result") {
    agentry::replay_transport http{{
        agentry::replay_response::ok(openai_wire::body(
            R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_h","type":"function",)"
            R"("function":{"name":"home_city","arguments":"{}"}}]})",
            "tool_calls")),
        agentry::replay_response::ok(openai_wire::answer(R"({"city":"Nantes","days":2,"sights":[],"note":null})")),
    }};
    agentry::agent<agentry::loop_config{}, trip_plan> agent{openai_wire::make(), with_context, "", replay_at{&http}};
    traveller ada{"Nantes"};
    agentry::typed_result<trip_plan> r = agent.run("A weekend at home?", ada);
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    CHECK(!r.output);
    const std::vector<agentry::approval_decision> yes{agentry::decide(r.pending[0], agentry::approval::approve())};
    r = agent.run(agentry::approvals{yes}, ada);
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->city == "Nantes");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "Nantes");
}

TEST_CASE("typed output: a run without the tools' context stops at once with invalid_input and no output") {
    agentry::replay_transport http{{agentry::replay_response::ok(openai_wire::answer(R"({"city":"Nantes","days":2,"sights":[],"note":null})"))}};
    agentry::agent<agentry::loop_config{}, trip_plan> agent{openai_wire::make(), with_context, "", replay_at{&http}};
    const agentry::typed_result<trip_plan> r = agent.run("A weekend at home?");
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(r.text.starts_with("agentry: agent::run(input): this agent's tools take agentry::context<T>"));
    CHECK(!r.output);
    CHECK(http.requests().empty());
    int other = 0;
    const agentry::typed_result<trip_plan> wrong = agent.run("A weekend at home?", other);
    CHECK(wrong.stop == agentry::stop_reason::invalid_input);
    CHECK(wrong.text.starts_with("agentry: agent::run(input, ctx): ctx is not of the type the tools take"));
    CHECK(!wrong.output);
    CHECK(http.requests().empty());
    // With the context the tools take, the run goes to the model.
    traveller ada{"Nantes"};
    const agentry::typed_result<trip_plan> right = agent.run("A weekend at home?", ada);
    CHECK(right.stop == agentry::stop_reason::completed);
    REQUIRE(right.output);
    CHECK(right.output->city == "Nantes");
    CHECK(http.requests().size() == 1);
}
