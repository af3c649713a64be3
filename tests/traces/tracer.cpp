// SPDX-License-Identifier: BSL-1.0
// agentry::tracer driven by direct observer calls, as an agent and MCP servers and clients
// make them: ids, the span tree with exact names, kinds, parents and attributes, on_span, a full
// queue, and the exact OTLP request through a recording transport.

#include <agentry/telemetry/tracer.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using agentry::span;
using agentry::span_kind;
using agentry::span_status;
using agentry::trace_context;
using agentry::tracer;
using agentry::tracer_options;
using clock_type = std::chrono::steady_clock;

namespace {

/// Keeps what on_span is given.
struct collected {
    std::mutex mutex;
    std::vector<span> spans;

    std::function<void(const span&)> hook() {
        return [this](const span& s) {
            std::lock_guard lock(mutex);
            spans.push_back(s);
        };
    }

    const span& named(const std::string& name) {
        std::lock_guard lock(mutex);
        const auto it = std::find_if(spans.begin(), spans.end(), [&](const span& s) { return s.name == name; });
        if (it == spans.end()) FAIL("no span named " << name);
        return *it;
    }
};

std::string hex(const auto& bytes) {
    std::string out;
    for (std::uint8_t b : bytes) {
        out += "0123456789abcdef"[b >> 4];
        out += "0123456789abcdef"[b & 15];
    }
    return out;
}

/// The attributes, one "key=value" a line: strings quoted, arrays in brackets.
std::string attributes(const span& s) {
    std::string out;
    for (const agentry::span_attribute& a : s.attributes) {
        out += a.key;
        out += '=';
        std::visit(
            [&](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::string>) out += '"' + v + '"';
                else if constexpr (std::is_same_v<T, std::int64_t>) out += std::to_string(v);
                else if constexpr (std::is_same_v<T, double>) out += std::to_string(v);
                else if constexpr (std::is_same_v<T, bool>) out += v ? "true" : "false";
                else {
                    out += '[';
                    for (std::size_t i = 0; i != v.size(); ++i) out += (i ? ",\"" : "\"") + v[i] + '"';
                    out += ']';
                }
            },
            a.value);
        out += '\n';
    }
    return out;
}

agentry::call_event call_of(std::string_view tool, std::string_view id, std::string_view arguments = {}) {
    agentry::call_event e;
    e.tool = tool;
    e.call_id = id;
    e.arguments = arguments;
    return e;
}

const clock_type::time_point t0 = clock_type::now();
clock_type::time_point at(int ms) { return t0 + std::chrono::milliseconds(ms); }

} // namespace

TEST_CASE("ids: a root span starts a trace, a child keeps it, traceparent round trips") {
    tracer t{tracer_options{}};
    const agentry::span_begun run = t.begin_run(nullptr, {"a", "r", "openai", "m"}, at(0));
    CHECK(run.context.valid());
    CHECK(run.context.flags == 1);
    CHECK(run.parent == std::array<std::uint8_t, 8>{});
    CHECK(run.start == at(0));
    CHECK(trace_context::from_traceparent(run.context.traceparent()) == run.context);

    const agentry::span_begun turn = t.begin_turn(run, {"openai", "m", 1}, at(1));
    CHECK(turn.context.trace_id == run.context.trace_id);
    CHECK(turn.parent == run.context.span_id);
    CHECK(turn.context.span_id != run.context.span_id);

    // An incoming traceparent: the trace and the flags are the caller's.
    const auto remote = trace_context::from_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    REQUIRE(remote);
    const agentry::span_begun served = t.begin_mcp(&*remote, {true, "tools/call", "x", "", "1"}, at(2));
    CHECK(served.context.trace_id_hex() == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(hex(served.parent) == "00f067aa0ba902b7");
    CHECK(served.context.flags == 0);

    // An invalid parent starts a trace of its own.
    const trace_context none{};
    const agentry::span_begun call = t.begin_call(&none, call_of("tool", "c"), at(3));
    CHECK(call.context.valid());
    CHECK(call.parent == std::array<std::uint8_t, 8>{});

    std::set<std::string> seen;
    for (int i = 0; i != 1000; ++i) seen.insert(t.begin_run(nullptr, {}, at(0)).context.traceparent());
    CHECK(seen.size() == 1000);
}

TEST_CASE("tree: run, turn, plan, step, sub-run, MCP client and server, exactly") {
    collected got;
    tracer_options options;
    options.on_span = got.hook();
    tracer t{std::move(options)};

    const agentry::run_event run_e{"travel", "run-1", "openai", "gpt-4o-mini"};
    const agentry::span_begun run = t.begin_run(nullptr, run_e, at(0));

    const agentry::turn_event turn_e{"openai", "gpt-4o-mini", 1};
    const agentry::span_begun turn = t.begin_turn(run, turn_e, at(1));
    agentry::turn_end_event turn_end;
    turn_end.usage = {100, 20, 30, 4, 5};
    turn_end.retries = 1;
    turn_end.finish_reason = "tool_calls";
    turn_end.end = at(3);
    t.end_turn(turn, turn_e, turn_end);

    const agentry::plan_event plan_e{"travel", 1, 2};
    const agentry::span_begun plan = t.begin_plan(run, plan_e, at(4));

    agentry::call_event call_e{"get_weather", "call_1", agentry::call_origin::plan, R"({"city":"Paris"})", "s1", 1};
    const agentry::span_begun call = t.begin_call(&plan.context, call_e, at(5));

    // An agent called as a tool: its run nests in the call.
    const agentry::run_event sub_e{"researcher", "run-2", "anthropic", "claude-x"};
    const agentry::span_begun sub = t.begin_run(&call.context, sub_e, at(6));
    const agentry::turn_event sub_turn_e{"anthropic", "claude-x", 1};
    const agentry::span_begun sub_turn = t.begin_turn(sub, sub_turn_e, at(7));
    agentry::provider_error limited;
    limited.kind = agentry::provider_error_kind::rate_limited;
    limited.status = 429;
    limited.message = "slow down";
    agentry::turn_end_event sub_turn_end;
    sub_turn_end.usage = {10, 0, 0, 0, 0};
    sub_turn_end.retries = 3;
    sub_turn_end.error = &limited;
    sub_turn_end.end = at(8);
    t.end_turn(sub_turn, sub_turn_e, sub_turn_end);
    agentry::run_end_event sub_end;
    sub_end.stop = "error";
    sub_end.failed = true;
    sub_end.error_type = "rate_limited";
    sub_end.turns = 1;
    sub_end.usage = {10, 0, 0, 0, 0};
    sub_end.end = at(9);
    t.end_run(sub, sub_e, sub_end);

    // An MCP call: the server reads its parent from params._meta.traceparent.
    const agentry::mcp_event client_e{false, "tools/call", "lookup", "sess-1", "7"};
    const agentry::span_begun client = t.begin_mcp(&call.context, client_e, at(10));
    const auto meta = trace_context::from_traceparent(client.context.traceparent());
    REQUIRE(meta);
    const agentry::mcp_event server_e{true, "tools/call", "lookup", "sess-1", "7"};
    const agentry::span_begun server = t.begin_mcp(&*meta, server_e, at(11));
    agentry::mcp_end_event server_end;
    server_end.error_code = -32602;
    server_end.end = at(12);
    t.end_mcp(server, server_e, server_end);
    agentry::mcp_end_event client_end;
    client_end.tool_error = true;
    client_end.end = at(13);
    t.end_mcp(client, client_e, client_end);

    agentry::step record;
    record.status = agentry::tool_status::tool_error;
    record.failure = agentry::failure_kind::transient;
    record.attempts.resize(2);
    record.fallback = "get_weather_cached";
    agentry::call_end_event call_end;
    call_end.record = &record;
    call_end.result = "boom";
    call_end.end = at(14);
    t.end_call(call, call_e, call_end);

    agentry::plan_end_event plan_end;
    plan_end.rounds = 1;
    plan_end.failed = true;
    plan_end.end = at(15);
    t.end_plan(plan, plan_e, plan_end);

    agentry::run_end_event run_end;
    run_end.stop = "final_answer";
    run_end.turns = 1;
    run_end.usage = {110, 20, 30, 4, 5};
    run_end.end = at(16);
    t.end_run(run, run_e, run_end);

    REQUIRE(t.flush());
    CHECK(t.delivered() == 8);
    CHECK(t.dropped() == 0);
    REQUIRE(got.spans.size() == 8);

    const span& s_run = got.named("invoke_agent travel");
    CHECK(s_run.kind == span_kind::internal);
    CHECK(to_string(s_run.kind) == "internal");
    CHECK(to_string(span_status::error) == "error");
    CHECK(s_run.root());
    CHECK(s_run.trace_id == run.context.trace_id);
    CHECK(s_run.span_id == run.context.span_id);
    CHECK(s_run.status == span_status::unset);
    CHECK(s_run.end_unix_ns - s_run.start_unix_ns == 16'000'000);
    CHECK(s_run.start_unix_ns > 1'700'000'000'000'000'000ull);
    CHECK(attributes(s_run) == "gen_ai.operation.name=\"invoke_agent\"\n"
                               "gen_ai.agent.name=\"travel\"\n"
                               "gen_ai.provider.name=\"openai\"\n"
                               "gen_ai.request.model=\"gpt-4o-mini\"\n"
                               "agentry.run.id=\"run-1\"\n"
                               "gen_ai.usage.input_tokens=110\n"
                               "gen_ai.usage.output_tokens=20\n"
                               "gen_ai.usage.cache_read.input_tokens=30\n"
                               "gen_ai.usage.cache_creation.input_tokens=4\n"
                               "gen_ai.usage.reasoning.output_tokens=5\n"
                               "agentry.run.turns=1\n"
                               "agentry.run.stop=\"final_answer\"\n");

    const span& s_turn = got.named("chat gpt-4o-mini");
    CHECK(s_turn.kind == span_kind::client);
    CHECK(to_string(s_turn.kind) == "client");
    CHECK(s_turn.parent_span_id == run.context.span_id);
    CHECK(s_turn.trace_id == run.context.trace_id);
    CHECK(s_turn.status == span_status::unset);
    CHECK(s_turn.end_unix_ns - s_turn.start_unix_ns == 2'000'000);
    CHECK(s_turn.start_unix_ns - s_run.start_unix_ns == 1'000'000);
    CHECK(attributes(s_turn) == "gen_ai.operation.name=\"chat\"\n"
                                "gen_ai.provider.name=\"openai\"\n"
                                "gen_ai.request.model=\"gpt-4o-mini\"\n"
                                "gen_ai.usage.input_tokens=100\n"
                                "gen_ai.usage.output_tokens=20\n"
                                "gen_ai.usage.cache_read.input_tokens=30\n"
                                "gen_ai.usage.cache_creation.input_tokens=4\n"
                                "gen_ai.usage.reasoning.output_tokens=5\n"
                                "gen_ai.response.finish_reasons=[\"tool_calls\"]\n"
                                "agentry.turn=1\n"
                                "agentry.retries=1\n");

    const span& s_plan = got.named("plan travel");
    CHECK(s_plan.kind == span_kind::internal);
    CHECK(s_plan.parent_span_id == run.context.span_id);
    CHECK(s_plan.status == span_status::error);
    CHECK(attributes(s_plan) == "gen_ai.operation.name=\"plan\"\n"
                                "gen_ai.agent.name=\"travel\"\n"
                                "agentry.plan.turn=1\n"
                                "agentry.plan.steps=2\n"
                                "agentry.plan.rounds=1\n"
                                "error.type=\"plan_failed\"\n");

    const span& s_call = got.named("execute_tool get_weather");
    CHECK(s_call.kind == span_kind::internal);
    CHECK(s_call.parent_span_id == plan.context.span_id);
    CHECK(s_call.status == span_status::error);
    CHECK(s_call.status_message.empty());
    CHECK(attributes(s_call) == "gen_ai.operation.name=\"execute_tool\"\n"
                                "gen_ai.tool.name=\"get_weather\"\n"
                                "gen_ai.tool.call.id=\"call_1\"\n"
                                "gen_ai.tool.type=\"function\"\n"
                                "agentry.tool.status=\"tool_error\"\n"
                                "agentry.tool.attempts=2\n"
                                "agentry.tool.fallback=\"get_weather_cached\"\n"
                                "agentry.plan.step=\"s1\"\n"
                                "agentry.plan.round=1\n"
                                "error.type=\"transient\"\n");

    const span& s_sub = got.named("invoke_agent researcher");
    CHECK(s_sub.kind == span_kind::internal);
    CHECK(s_sub.parent_span_id == call.context.span_id);
    CHECK(s_sub.trace_id == run.context.trace_id);
    CHECK(s_sub.status == span_status::error);
    CHECK(attributes(s_sub) == "gen_ai.operation.name=\"invoke_agent\"\n"
                               "gen_ai.agent.name=\"researcher\"\n"
                               "gen_ai.provider.name=\"anthropic\"\n"
                               "gen_ai.request.model=\"claude-x\"\n"
                               "agentry.run.id=\"run-2\"\n"
                               "gen_ai.usage.input_tokens=10\n"
                               "gen_ai.usage.output_tokens=0\n"
                               "agentry.run.turns=1\n"
                               "agentry.run.stop=\"error\"\n"
                               "error.type=\"rate_limited\"\n");

    const span& s_sub_turn = got.named("chat claude-x");
    CHECK(s_sub_turn.parent_span_id == sub.context.span_id);
    CHECK(s_sub_turn.status == span_status::error);
    CHECK(s_sub_turn.status_message == "slow down");
    CHECK(attributes(s_sub_turn) == "gen_ai.operation.name=\"chat\"\n"
                                    "gen_ai.provider.name=\"anthropic\"\n"
                                    "gen_ai.request.model=\"claude-x\"\n"
                                    "gen_ai.usage.input_tokens=10\n"
                                    "gen_ai.usage.output_tokens=0\n"
                                    "agentry.turn=1\n"
                                    "agentry.retries=3\n"
                                    "error.type=\"rate_limited\"\n");

    std::vector<const span*> mcp;
    for (const span& s : got.spans)
        if (s.name == "tools/call lookup") mcp.push_back(&s);
    REQUIRE(mcp.size() == 2);
    const span& s_client = mcp[0]->kind == span_kind::client ? *mcp[0] : *mcp[1];
    const span& s_server = mcp[0]->kind == span_kind::server ? *mcp[0] : *mcp[1];
    CHECK(s_client.kind == span_kind::client);
    CHECK(s_server.kind == span_kind::server);
    CHECK(s_client.parent_span_id == call.context.span_id);
    CHECK(s_server.parent_span_id == client.context.span_id);
    CHECK(s_server.trace_id == run.context.trace_id);
    CHECK(s_client.status == span_status::error);
    CHECK(attributes(s_client) == "mcp.method.name=\"tools/call\"\n"
                                  "mcp.session.id=\"sess-1\"\n"
                                  "jsonrpc.request.id=\"7\"\n"
                                  "gen_ai.operation.name=\"execute_tool\"\n"
                                  "gen_ai.tool.name=\"lookup\"\n"
                                  "error.type=\"tool_error\"\n");
    CHECK(s_server.status == span_status::error);
    CHECK(attributes(s_server) == "mcp.method.name=\"tools/call\"\n"
                                  "mcp.session.id=\"sess-1\"\n"
                                  "jsonrpc.request.id=\"7\"\n"
                                  "gen_ai.operation.name=\"execute_tool\"\n"
                                  "gen_ai.tool.name=\"lookup\"\n"
                                  "rpc.response.status_code=\"-32602\"\n"
                                  "error.type=\"-32602\"\n");
}

TEST_CASE("names: no agent, no target, a resource's URI kept out of the name, a timed-out call") {
    collected got;
    tracer_options options;
    options.on_span = got.hook();
    tracer t{std::move(options)};

    const agentry::run_event run_e{};
    const agentry::span_begun run = t.begin_run(nullptr, run_e, at(0));
    t.end_run(run, run_e, {"final_answer", false, "", 0, {}, at(1)});

    const agentry::mcp_event read_e{false, "resources/read", "file:///tmp/a.txt", "", "3"};
    t.end_mcp(t.begin_mcp(nullptr, read_e, at(0)), read_e, {std::nullopt, false, at(1), {}});
    const agentry::mcp_event list_e{true, "tools/list", "", "", ""};
    t.end_mcp(t.begin_mcp(nullptr, list_e, at(0)), list_e, {std::nullopt, false, at(1), {}});
    const agentry::mcp_event prompt_e{false, "prompts/get", "review", "", "4"};
    t.end_mcp(t.begin_mcp(nullptr, prompt_e, at(0)), prompt_e, {std::nullopt, false, at(1), {}});
    const agentry::mcp_event ping_e{false, "ping", "", "", "5"};
    t.end_mcp(t.begin_mcp(nullptr, ping_e, at(0)), ping_e, {std::nullopt, false, at(1), "timeout"});

    agentry::step slow;
    slow.status = agentry::tool_status::tool_error;
    slow.timed_out = true;
    slow.attempts.resize(1);
    const agentry::call_event call_e = call_of("fetch", "c9");
    t.end_call(t.begin_call(&run.context, call_e, at(0)), call_e, {&slow, "", at(1)});
    agentry::step denied;
    denied.status = agentry::tool_status::denied;
    const agentry::call_event denied_e = call_of("delete_all", "c10");
    t.end_call(t.begin_call(&run.context, denied_e, at(0)), denied_e, {&denied, "", at(1)});
    agentry::step fine;
    const agentry::call_event fine_e = call_of("add", "c11");
    fine.attempts.resize(1);
    t.end_call(t.begin_call(&run.context, fine_e, at(0)), fine_e, {&fine, "3", at(1)});

    REQUIRE(t.flush());
    REQUIRE(got.spans.size() == 8);
    // A client's request that got no response.
    CHECK(attributes(got.named("ping")) == "mcp.method.name=\"ping\"\n"
                                           "jsonrpc.request.id=\"5\"\n"
                                           "error.type=\"timeout\"\n");
    CHECK(got.named("ping").status == span_status::error);
    CHECK(attributes(got.named("invoke_agent")) == "gen_ai.operation.name=\"invoke_agent\"\n"
                                                   "gen_ai.usage.input_tokens=0\n"
                                                   "gen_ai.usage.output_tokens=0\n"
                                                   "agentry.run.turns=0\n"
                                                   "agentry.run.stop=\"final_answer\"\n");
    CHECK(attributes(got.named("resources/read")) == "mcp.method.name=\"resources/read\"\n"
                                                     "jsonrpc.request.id=\"3\"\n"
                                                     "mcp.resource.uri=\"file:///tmp/a.txt\"\n");
    CHECK(got.named("resources/read").status == span_status::unset);
    CHECK(got.named("tools/list").kind == span_kind::server);
    CHECK(attributes(got.named("tools/list")) == "mcp.method.name=\"tools/list\"\n");
    CHECK(attributes(got.named("prompts/get review")) == "mcp.method.name=\"prompts/get\"\n"
                                                         "jsonrpc.request.id=\"4\"\n"
                                                         "gen_ai.prompt.name=\"review\"\n");
    CHECK(attributes(got.named("execute_tool fetch")) == "gen_ai.operation.name=\"execute_tool\"\n"
                                                         "gen_ai.tool.name=\"fetch\"\n"
                                                         "gen_ai.tool.call.id=\"c9\"\n"
                                                         "gen_ai.tool.type=\"function\"\n"
                                                         "agentry.tool.status=\"tool_error\"\n"
                                                         "agentry.tool.attempts=1\n"
                                                         "error.type=\"timeout\"\n");
    CHECK(attributes(got.named("execute_tool delete_all")) == "gen_ai.operation.name=\"execute_tool\"\n"
                                                              "gen_ai.tool.name=\"delete_all\"\n"
                                                              "gen_ai.tool.call.id=\"c10\"\n"
                                                              "gen_ai.tool.type=\"function\"\n"
                                                              "agentry.tool.status=\"denied\"\n"
                                                              "agentry.tool.attempts=0\n"
                                                              "error.type=\"denied\"\n");
    CHECK(got.named("execute_tool add").status == span_status::unset);
    CHECK(attributes(got.named("execute_tool add")) == "gen_ai.operation.name=\"execute_tool\"\n"
                                                       "gen_ai.tool.name=\"add\"\n"
                                                       "gen_ai.tool.call.id=\"c11\"\n"
                                                       "gen_ai.tool.type=\"function\"\n"
                                                       "agentry.tool.status=\"ok\"\n"
                                                       "agentry.tool.attempts=1\n");
}

TEST_CASE("content: arguments and result only with capture_content, long texts cut") {
    for (const bool capture : {false, true}) {
        collected got;
        tracer_options options;
        options.on_span = got.hook();
        options.capture_content = capture;
        tracer t{std::move(options)};
        const std::string long_name(100, 'x');
        // "é" straddles byte 63 of a 64-byte buffer: it is cut whole.
        const std::string call_id = std::string(62, 'c') + "\xC3\xA9" + "tail";
        const agentry::call_event e = call_of(long_name, call_id, R"({"a":1})");
        agentry::step ok;
        t.end_call(t.begin_call(nullptr, e, at(0)), e, {&ok, "{\"sum\":2}", at(1)});
        REQUIRE(t.flush());
        REQUIRE(got.spans.size() == 1);
        const span& s = got.spans[0];
        CHECK(s.name == "execute_tool " + std::string(63, 'x'));
        CHECK(std::get<std::string>(*s.find("gen_ai.tool.call.id")) == std::string(62, 'c'));
        if (capture) {
            REQUIRE(s.find("gen_ai.tool.call.arguments"));
            CHECK(std::get<std::string>(*s.find("gen_ai.tool.call.arguments")) == R"({"a":1})");
            CHECK(std::get<std::string>(*s.find("gen_ai.tool.call.result")) == R"({"sum":2})");
        } else {
            CHECK(s.find("gen_ai.tool.call.arguments") == nullptr);
            CHECK(s.find("gen_ai.tool.call.result") == nullptr);
        }
    }
}

TEST_CASE("content: max_content bounds what is kept of each") {
    collected got;
    tracer_options options;
    options.on_span = got.hook();
    options.capture_content = true;
    options.max_content = 5;
    tracer t{std::move(options)};
    const agentry::call_event e = call_of("t", "c", "abcd\xC3\xA9" "fgh");
    agentry::step ok;
    t.end_call(t.begin_call(nullptr, e, at(0)), e, {&ok, "0123456789", at(1)});
    REQUIRE(t.flush());
    REQUIRE(got.spans.size() == 1);
    CHECK(std::get<std::string>(*got.spans[0].find("gen_ai.tool.call.arguments")) == "abcd");
    CHECK(std::get<std::string>(*got.spans[0].find("gen_ai.tool.call.result")) == "01234");
}

TEST_CASE("sampling: what the caller did not sample (trace-flags 00) is not recorded, nor what nests in it") {
    collected got;
    tracer_options options;
    options.on_span = got.hook();
    tracer t{std::move(options)};
    const auto remote = trace_context::from_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    REQUIRE(remote);
    const agentry::mcp_event e{true, "tools/call", "x", "", "1"};
    const agentry::span_begun served = t.begin_mcp(&*remote, e, at(0));
    const agentry::call_event call_e = call_of("x", "");
    const agentry::span_begun call = t.begin_call(&served.context, call_e, at(1));
    CHECK(call.context.flags == 0);
    agentry::step ok;
    t.end_call(call, call_e, {&ok, "", at(2)});
    t.end_mcp(served, e, {std::nullopt, false, at(3), {}});
    const auto sampled = trace_context::from_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    t.end_mcp(t.begin_mcp(&*sampled, e, at(0)), e, {std::nullopt, false, at(3), {}});
    REQUIRE(t.flush());
    CHECK(got.spans.size() == 1);
    CHECK(t.delivered() == 1);
    CHECK(t.dropped() == 0);
}

TEST_CASE("flush: from on_span it returns false at once") {
    std::atomic<int> result{-1};
    tracer* self = nullptr;
    tracer_options options;
    options.on_span = [&](const span&) { result = self->flush() ? 1 : 0; };
    tracer t{std::move(options)};
    self = &t;
    const agentry::plan_event e{"a", 1, 1};
    t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(result.load() == 0);
}

TEST_CASE("on_span: what it throws is counted, and delivery goes on") {
    std::atomic<int> calls{0};
    tracer_options options;
    options.on_span = [&](const span&) {
        if (calls.fetch_add(1) % 2 == 0) throw std::runtime_error("hook");
    };
    tracer t{std::move(options)};
    const agentry::plan_event e{"a", 1, 1};
    for (int i = 0; i != 4; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(calls.load() == 4);
    CHECK(t.delivered() == 4);
    CHECK(t.hook_failures() == 2);
}

TEST_CASE("overflow: a blocked hook fills the queue, end calls return at once and count the drops") {
    std::promise<void> entered;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> calls{0};
    tracer_options options;
    options.queue_capacity = 64;
    options.on_span = [&](const span&) {
        if (calls.fetch_add(1) == 0) {
            entered.set_value();
            released.wait();
        }
    };
    tracer t{std::move(options)};
    const agentry::call_event e = call_of("add", "c");
    agentry::step ok;
    const agentry::call_end_event end{&ok, "", at(1)};
    t.end_call(t.begin_call(nullptr, e, at(0)), e, end);
    entered.get_future().wait();

    // The tracer's thread is held by the hook with the first span: 64 cells are free.
    for (int i = 0; i != 10'000; ++i) t.end_call(t.begin_call(nullptr, e, at(0)), e, end);
    CHECK(t.dropped() == 10'000 - 64);
    CHECK(t.delivered() == 0);

    release.set_value();
    REQUIRE(t.flush());
    CHECK(t.delivered() == 65);
    CHECK(calls.load() == 65);
    CHECK(t.dropped() == 10'000 - 64);
}

TEST_CASE("options: the ones that cannot work are refused with what to do") {
    tracer_options zero;
    zero.queue_capacity = 0;
    CHECK_THROWS_WITH_AS(tracer{zero}, "agentry: tracer_options::queue_capacity is 0; give it at least 1 (4096 by default)",
                         std::invalid_argument);
    tracer_options no_url;
    no_url.otlp.emplace();
    no_url.otlp->send = [](const agentry::http_request&) { return agentry::transport_result{}; };
    CHECK_THROWS_WITH_AS(tracer{no_url},
                         "agentry: otlp_options::url is empty; give the collector's traces endpoint, e.g. "
                         "http://127.0.0.1:4318/v1/traces",
                         std::invalid_argument);
    tracer_options no_send;
    no_send.otlp.emplace();
    no_send.otlp->url = "http://127.0.0.1:4318/v1/traces";
    CHECK_THROWS_WITH_AS(tracer{no_send},
                         "agentry: otlp_options::send is empty; give it a transport, e.g. "
                         "agentry::send_with(agentry::curl_transport{})",
                         std::invalid_argument);
}

TEST_CASE("otlp: the request body, exactly, by the OTLP JSON mapping") {
    span s;
    s.trace_id = {0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36};
    s.span_id = {0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7};
    s.name = "chat \"m\"\n";
    s.kind = span_kind::client;
    s.start_unix_ns = 1'700'000'000'123'456'789ull;
    s.end_unix_ns = 1'700'000'001'000'000'000ull;
    s.attributes = {{"s", std::string("a\\b")},
                    {"i", std::int64_t{-9'007'199'254'740'993}},
                    {"d", 0.5},
                    {"b", true},
                    {"a", std::vector<std::string>{"stop", "length"}}};
    span child = s;
    child.span_id = {1, 2, 3, 4, 5, 6, 7, 8};
    child.parent_span_id = s.span_id;
    child.name = "c";
    child.kind = span_kind::server;
    child.attributes.clear();
    child.status = span_status::error;
    child.status_message = "why";
    const span both[] = {s, child};
    CHECK(agentry::detail::otlp_request("svc", both, 2) ==
          R"x({"resourceSpans":[{"resource":{"attributes":[)x"
          R"x({"key":"service.name","value":{"stringValue":"svc"}},)x"
          R"x({"key":"telemetry.sdk.name","value":{"stringValue":"agentry"}},)x"
          R"x({"key":"telemetry.sdk.language","value":{"stringValue":"cpp"}},)x"
          R"x({"key":"telemetry.sdk.version","value":{"stringValue":"0.1.0"}}]},)x"
          R"x("scopeSpans":[{"scope":{"name":"agentry","version":"0.1.0"},"spans":[)x"
          R"x({"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","name":"chat \"m\"\n","kind":3,)x"
          R"x("startTimeUnixNano":"1700000000123456789","endTimeUnixNano":"1700000001000000000","attributes":[)x"
          R"x({"key":"s","value":{"stringValue":"a\\b"}},{"key":"i","value":{"intValue":"-9007199254740993"}},)x"
          R"x({"key":"d","value":{"doubleValue":0.5}},{"key":"b","value":{"boolValue":true}},)x"
          R"x({"key":"a","value":{"arrayValue":{"values":[{"stringValue":"stop"},{"stringValue":"length"}]}}}]},)x"
          R"x({"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"0102030405060708","parentSpanId":"00f067aa0ba902b7",)x"
          R"x("name":"c","kind":2,"startTimeUnixNano":"1700000000123456789","endTimeUnixNano":"1700000001000000000",)x"
          R"x("attributes":[],"status":{"code":2,"message":"why"}}]}]}]})x");
}

TEST_CASE("otlp: batches of max_batch through the transport, failures dropped and counted") {
    struct recorded {
        std::mutex mutex;
        std::vector<agentry::http_request> requests;
        int status = 200;
    } rec;
    tracer_options options;
    options.service_name = "svc";
    options.otlp.emplace();
    options.otlp->url = "http://collector.invalid/v1/traces";
    options.otlp->headers = {{"Authorization", "Bearer k"}};
    options.otlp->max_batch = 2;
    options.otlp->timeout = 1500ms;
    options.otlp->send = [&](const agentry::http_request& r) {
        std::lock_guard lock(rec.mutex);
        rec.requests.push_back(r);
        agentry::transport_result out;
        out.response.status = rec.status;
        out.response.body = rec.status == 200 ? R"({"partialSuccess":{}})" : "no";
        return out;
    };
    collected got;
    options.on_span = got.hook();
    tracer t{std::move(options)};
    const agentry::plan_event e{"a", 1, 1};
    for (int i = 0; i != 5; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.exported() == 5);
    CHECK(t.export_failures() == 0);
    {
        std::lock_guard lock(rec.mutex);
        REQUIRE(rec.requests.size() == 3);
        const agentry::http_request& r = rec.requests[0];
        CHECK(r.method == "POST");
        CHECK(r.url == "http://collector.invalid/v1/traces");
        REQUIRE(r.headers.size() == 2);
        CHECK(r.headers[0].name == "Authorization");
        CHECK(r.headers[0].value == "Bearer k");
        CHECK(r.headers[1].name == "Content-Type");
        CHECK(r.headers[1].value == "application/json");
        CHECK(r.total_timeout == 1500ms);
        CHECK(r.connect_timeout == 1500ms);
        std::lock_guard spans_lock(got.mutex);
        REQUIRE(got.spans.size() == 5);
        CHECK(r.body == agentry::detail::otlp_request("svc", got.spans.data(), 2));
        CHECK(rec.requests[1].body == agentry::detail::otlp_request("svc", got.spans.data() + 2, 2));
        CHECK(rec.requests[2].body == agentry::detail::otlp_request("svc", got.spans.data() + 4, 1));
        rec.status = 503;
    }
    for (int i = 0; i != 3; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.exported() == 5);
    CHECK(t.export_failures() == 2);
    CHECK(t.export_dropped() == 3);
    CHECK(t.last_export_error() ==
          "agentry: OTLP export to http://collector.invalid/v1/traces failed, 1 spans dropped: HTTP 503: no");
}

TEST_CASE("otlp: spans past max_queue are dropped and counted") {
    std::atomic<int> sent{0};
    tracer_options options;
    options.otlp.emplace();
    options.otlp->url = "http://collector.invalid/v1/traces";
    options.otlp->max_queue = 3;
    // No batch is due before the flush: the 10 spans meet a queue of 3.
    options.otlp->interval = std::chrono::hours(1);
    options.otlp->send = [&](const agentry::http_request&) {
        sent.fetch_add(1);
        agentry::transport_result out;
        out.response.status = 200;
        return out;
    };
    tracer t{std::move(options)};
    const agentry::plan_event e{"a", 1, 1};
    for (int i = 0; i != 10; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.delivered() == 10);
    CHECK(t.exported() == 3);
    CHECK(t.export_dropped() == 7);
    CHECK(t.export_failures() == 0);
    CHECK(sent.load() == 1);
}

TEST_CASE("otlp: what the transport throws fails the batch, and is told") {
    tracer_options options;
    options.otlp.emplace();
    options.otlp->url = "http://collector.invalid/v1/traces";
    options.otlp->send = [](const agentry::http_request&) -> agentry::transport_result {
        throw std::runtime_error("down");
    };
    tracer t{std::move(options)};
    const agentry::plan_event e{"a", 1, 1};
    t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.delivered() == 1);
    CHECK(t.export_failures() == 1);
    CHECK(t.export_dropped() == 1);
    CHECK(t.last_export_error() == "agentry: OTLP export to http://collector.invalid/v1/traces failed, 1 spans dropped: down");
}

TEST_CASE("shutdown: the destructor delivers and exports what is left") {
    std::mutex mutex;
    std::vector<std::string> bodies;
    std::atomic<int> hooked{0};
    {
        tracer_options options;
        options.on_span = [&](const span&) { ++hooked; };
        options.otlp.emplace();
        options.otlp->url = "http://collector.invalid/v1/traces";
        options.otlp->interval = std::chrono::hours(1);
        options.otlp->send = [&](const agentry::http_request& r) {
            std::lock_guard lock(mutex);
            bodies.push_back(r.body);
            agentry::transport_result out;
            out.response.status = 200;
            return out;
        };
        tracer t{std::move(options)};
        const agentry::plan_event e{"a", 1, 1};
        for (int i = 0; i != 3; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    }
    CHECK(hooked.load() == 3);
    REQUIRE(bodies.size() == 1);
    std::size_t spans = 0;
    for (std::size_t at = 0; (at = bodies[0].find("\"spanId\"", at)) != std::string::npos; ++at) ++spans;
    CHECK(spans == 3);
}

TEST_CASE("shutdown: past shutdown_timeout what is unsent is dropped, not sent") {
    std::atomic<int> sent{0};
    std::atomic<int> hooked{0};
    {
        tracer_options options;
        options.on_span = [&](const span&) { ++hooked; };
        options.shutdown_timeout = 0ms;
        options.otlp.emplace();
        options.otlp->url = "http://collector.invalid/v1/traces";
        options.otlp->interval = std::chrono::hours(1);
        options.otlp->send = [&](const agentry::http_request&) {
            ++sent;
            return agentry::transport_result{};
        };
        tracer t{std::move(options)};
        const agentry::plan_event e{"a", 1, 1};
        for (int i = 0; i != 3; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    }
    CHECK(hooked.load() == 3);
    CHECK(sent.load() == 0);
}

TEST_CASE("delivery: with neither on_span nor an exporter, spans are taken and counted, not made") {
    tracer_options options;
    options.capture_content = true;
    tracer t{std::move(options)};
    const agentry::call_event e = call_of("add", "c", "{}");
    agentry::step ok;
    for (int i = 0; i != 5; ++i) t.end_call(t.begin_call(nullptr, e, at(0)), e, {&ok, "3", at(1)});
    REQUIRE(t.flush());
    CHECK(t.delivered() == 5);
    CHECK(t.dropped() == 0);
}
