// SPDX-License-Identifier: BSL-1.0
// The OTLP exporter through curl_transport to otlp_collector.mjs, a stand-in collector that
// checks every request strictly against the OTLP JSON mapping: the span tree and attributes
// read back from what it accepted, what it refuses, a dead collector and a slow one. Without
// node each case prints why and exits with 77 (skipped).

#include <agentry/agent.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/telemetry/tracer.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace std::chrono_literals;
using agentry::json::value;

namespace {

/// otlp_collector.mjs in a child process, stopped by the destructor.
class collector {
public:
    explicit collector(std::vector<std::string> extra = {}) {
        static std::atomic<int> count{0};
        out_ = (std::filesystem::temp_directory_path() /
                ("agentry_otlp_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".json"))
                   .string();
        const std::string node = AGENTRY_NODE;
        if (node.empty()) skip("node was not found when the project was configured");
        std::vector<std::string> args = {node, AGENTRY_OTLP_COLLECTOR, "--out", out_};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        int in[2], out[2];
        REQUIRE(::pipe2(in, O_CLOEXEC) == 0);
        REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        const int spawned = ::posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        stdin_ = in[1];
        if (spawned != 0) {
            pid_ = 0;
            skip(("node could not be started: " + node).c_str());
        }
        std::string line;
        char c = 0;
        while (line.size() < 100) {
            const ssize_t n = ::read(out[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == '\n') break;
            line.push_back(c);
        }
        ::close(out[0]);
        REQUIRE_MESSAGE(std::sscanf(line.c_str(), "port %d", &port_) == 1, "otlp_collector.mjs printed: " << line);
    }

    collector(const collector&) = delete;
    collector& operator=(const collector&) = delete;

    ~collector() {
        stop();
        std::filesystem::remove(out_);
    }

    std::string url(const std::string& path = "/v1/traces") const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

    /// Stops it (its standard input closed) and waits for it to exit.
    void stop() {
        if (stdin_ >= 0) ::close(std::exchange(stdin_, -1));
        if (pid_ > 0) {
            int status = 0;
            ::waitpid(std::exchange(pid_, 0), &status, 0);
        }
    }

    /// What it wrote: {"accepted": [...], "errors": [...]}.
    value record() const {
        std::ifstream in(out_);
        std::stringstream text;
        text << in.rdbuf();
        agentry::json::parsed p = agentry::json::parse(text.str());
        REQUIRE(p.ok());
        return p.value;
    }

private:
    [[noreturn]] static void skip(const char* why) {
        std::printf("SKIP: %s; the OTLP export tests need Node.js for otlp_collector.mjs\n", why);
        std::fflush(stdout);
        std::exit(77);
    }

    std::string out_;
    pid_t pid_ = 0;
    int stdin_ = -1;
    int port_ = 0;
};

/// A port on 127.0.0.1 nothing listens on (bound, then closed).
int closed_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t size = sizeof address;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
    ::close(fd);
    return ntohs(address.sin_port);
}

const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
std::chrono::steady_clock::time_point at(int ms) { return t0 + std::chrono::milliseconds(ms); }

agentry::tracer_options exporting(const std::string& url) {
    agentry::tracer_options options;
    options.service_name = "travel-service";
    options.otlp.emplace();
    options.otlp->url = url;
    options.otlp->send = agentry::send_with(agentry::curl_transport{});
    return options;
}

const value& member(const value& v, std::string_view key) {
    const value* m = v.find(key);
    REQUIRE_MESSAGE(m, "no member " << key << " in " << agentry::json::to_text(v));
    return *m;
}

/// "key=<its AnyValue as JSON>" a line.
std::string attributes(const value& list) {
    std::string out;
    for (const value& kv : list.items())
        out += member(kv, "key").as_string() + "=" + agentry::json::to_text(member(kv, "value")) + "\n";
    return out;
}

/// The first ```cpp block of the "## Traces" section of docs/observability.md.
std::string doc_block() {
    std::ifstream in(AGENTRY_TEST_SOURCE_DIR "/docs/observability.md", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const std::size_t section = doc.find("\n## Traces\n");
    std::size_t start = doc.find("```cpp\n", section == std::string::npos ? doc.size() : section);
    if (start == std::string::npos) return {};
    start += 7;
    return doc.substr(start, doc.find("```", start) - start);
}

std::string this_file() {
    std::ifstream in(AGENTRY_TEST_SOURCE_DIR "/tests/traces/otlp_collector.cpp", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The example of docs/observability.md, "Traces", as it is there.
// A tracer that prints each span's name and exports to the collector at `url`.
std::unique_ptr<agentry::tracer> make_tracer(std::string url) {
    agentry::tracer_options options;
    options.service_name = "travel-service";
    options.on_span = [](const agentry::span& s) { std::puts(s.name.c_str()); };
    options.otlp = agentry::otlp_options{};
    options.otlp->url = std::move(url);  // e.g. "http://127.0.0.1:4318/v1/traces"
    options.otlp->send = agentry::send_with(agentry::curl_transport{});
    return std::make_unique<agentry::tracer>(std::move(options));
}

agentry::transport_result post(const std::string& url, std::string body) {
    agentry::http_request r;
    r.url = url;
    r.headers = {{"Content-Type", "application/json"}};
    r.body = std::move(body);
    return agentry::curl_transport{}.send(r);
}

} // namespace

TEST_CASE("otlp collector: the span tree and attributes, read back from what it accepted") {
    collector c;
    agentry::tracer_options options = exporting(c.url());
    options.capture_content = true;
    agentry::tracer t{std::move(options)};

    const agentry::run_event run_e{"travel", "run-1", "openai", "gpt-4o-mini"};
    const agentry::span_begun run = t.begin_run(nullptr, run_e, at(0));
    const agentry::turn_event turn_e{"openai", "gpt-4o-mini", 1};
    const agentry::span_begun turn = t.begin_turn(run, turn_e, at(1));
    agentry::turn_end_event turn_end;
    turn_end.usage = {1200, 35, 1024, 0, 0};
    turn_end.finish_reason = "tool_calls";
    turn_end.end = at(2);
    t.end_turn(turn, turn_e, turn_end);

    agentry::call_event call_e;
    call_e.tool = "get_weather";
    call_e.call_id = "call_1";
    call_e.arguments = "{\"city\":\"S\xC3\xA3o Paulo\",\"note\":\"a \\\"q\\\"\\n\"}";
    const agentry::span_begun call = t.begin_call(&run.context, call_e, at(3));
    const agentry::mcp_event client_e{false, "tools/call", "get_weather", "sess-9", "12"};
    const agentry::span_begun client = t.begin_mcp(&call.context, client_e, at(4));
    const auto meta = agentry::trace_context::from_traceparent(client.context.traceparent());
    REQUIRE(meta);
    const agentry::mcp_event server_e{true, "tools/call", "get_weather", "sess-9", "12"};
    const agentry::span_begun server = t.begin_mcp(&*meta, server_e, at(5));
    t.end_mcp(server, server_e, {std::nullopt, false, at(6), {}});
    t.end_mcp(client, client_e, {std::nullopt, false, at(7), {}});
    agentry::step ok;
    ok.attempts.resize(1);
    t.end_call(call, call_e, {&ok, "{\"temperature\":21.5}", at(8)});
    agentry::run_end_event run_end;
    run_end.stop = "final_answer";
    run_end.turns = 1;
    run_end.usage = {1200, 35, 1024, 0, 0};
    run_end.end = at(9);
    t.end_run(run, run_e, run_end);

    REQUIRE(t.flush());
    CHECK(t.last_export_error() == "");
    CHECK(t.exported() == 5);
    CHECK(t.export_failures() == 0);
    c.stop();

    const value record = c.record();
    CHECK(member(record, "errors").size() == 0);
    REQUIRE(member(record, "accepted").size() == 1);
    const value& rs = member(member(record, "accepted").items()[0], "resourceSpans").items().at(0);
    CHECK(attributes(member(member(rs, "resource"), "attributes")) ==
          "service.name={\"stringValue\":\"travel-service\"}\n"
          "telemetry.sdk.name={\"stringValue\":\"agentry\"}\n"
          "telemetry.sdk.language={\"stringValue\":\"cpp\"}\n"
          "telemetry.sdk.version={\"stringValue\":\"0.1.0\"}\n");
    const value& ss = member(rs, "scopeSpans").items().at(0);
    CHECK(agentry::json::to_text(member(ss, "scope")) == R"({"name":"agentry","version":"0.1.0"})");
    const value& spans = member(ss, "spans");
    REQUIRE(spans.size() == 5);

    std::map<std::string, const value*> by_name;
    const value* mcp_client = nullptr;
    const value* mcp_server = nullptr;
    for (const value& s : spans.items()) {
        CHECK(member(s, "traceId").as_string() == run.context.trace_id_hex());
        const std::string name = member(s, "name").as_string();
        if (name == "tools/call get_weather")
            (member(s, "kind").number_text() == "3" ? mcp_client : mcp_server) = &s;
        else by_name[name] = &s;
    }
    REQUIRE(by_name.size() == 3);
    REQUIRE(mcp_client);
    REQUIRE(mcp_server);
    const value& s_run = *by_name.at("invoke_agent travel");
    const value& s_turn = *by_name.at("chat gpt-4o-mini");
    const value& s_call = *by_name.at("execute_tool get_weather");

    CHECK(s_run.find("parentSpanId") == nullptr);
    CHECK(member(s_run, "spanId").as_string() == run.context.span_id_hex());
    CHECK(member(s_turn, "parentSpanId").as_string() == run.context.span_id_hex());
    CHECK(member(s_call, "parentSpanId").as_string() == run.context.span_id_hex());
    CHECK(member(*mcp_client, "parentSpanId").as_string() == call.context.span_id_hex());
    CHECK(member(*mcp_server, "parentSpanId").as_string() == member(*mcp_client, "spanId").as_string());
    CHECK(member(s_run, "kind").number_text() == "1");
    CHECK(member(s_turn, "kind").number_text() == "3");
    CHECK(member(s_call, "kind").number_text() == "1");
    CHECK(member(*mcp_server, "kind").number_text() == "2");
    for (const value* s : {&s_run, &s_turn, &s_call, mcp_client, mcp_server}) CHECK(s->find("status") == nullptr);

    const auto ns = [](const value& s, std::string_view key) { return std::stoull(member(s, key).as_string()); };
    CHECK(ns(s_run, "endTimeUnixNano") - ns(s_run, "startTimeUnixNano") == 9'000'000);
    CHECK(ns(s_turn, "startTimeUnixNano") - ns(s_run, "startTimeUnixNano") == 1'000'000);

    CHECK(attributes(member(s_run, "attributes")) == "gen_ai.operation.name={\"stringValue\":\"invoke_agent\"}\n"
                                                     "gen_ai.agent.name={\"stringValue\":\"travel\"}\n"
                                                     "gen_ai.provider.name={\"stringValue\":\"openai\"}\n"
                                                     "gen_ai.request.model={\"stringValue\":\"gpt-4o-mini\"}\n"
                                                     "agentry.run.id={\"stringValue\":\"run-1\"}\n"
                                                     "gen_ai.usage.input_tokens={\"intValue\":\"1200\"}\n"
                                                     "gen_ai.usage.output_tokens={\"intValue\":\"35\"}\n"
                                                     "gen_ai.usage.cache_read.input_tokens={\"intValue\":\"1024\"}\n"
                                                     "agentry.run.turns={\"intValue\":\"1\"}\n"
                                                     "agentry.run.stop={\"stringValue\":\"final_answer\"}\n");
    CHECK(attributes(member(s_turn, "attributes")) ==
          "gen_ai.operation.name={\"stringValue\":\"chat\"}\n"
          "gen_ai.provider.name={\"stringValue\":\"openai\"}\n"
          "gen_ai.request.model={\"stringValue\":\"gpt-4o-mini\"}\n"
          "gen_ai.usage.input_tokens={\"intValue\":\"1200\"}\n"
          "gen_ai.usage.output_tokens={\"intValue\":\"35\"}\n"
          "gen_ai.usage.cache_read.input_tokens={\"intValue\":\"1024\"}\n"
          "gen_ai.response.finish_reasons={\"arrayValue\":{\"values\":[{\"stringValue\":\"tool_calls\"}]}}\n"
          "agentry.turn={\"intValue\":\"1\"}\n"
          "agentry.retries={\"intValue\":\"0\"}\n");
    CHECK(attributes(member(s_call, "attributes")) ==
          "gen_ai.operation.name={\"stringValue\":\"execute_tool\"}\n"
          "gen_ai.tool.name={\"stringValue\":\"get_weather\"}\n"
          "gen_ai.tool.call.id={\"stringValue\":\"call_1\"}\n"
          "gen_ai.tool.type={\"stringValue\":\"function\"}\n"
          "gen_ai.tool.call.arguments={\"stringValue\":\"{\\\"city\\\":\\\"S\xC3\xA3o Paulo\\\",\\\"note\\\":\\\"a "
          "\\\\\\\"q\\\\\\\"\\\\n\\\"}\"}\n"
          "gen_ai.tool.call.result={\"stringValue\":\"{\\\"temperature\\\":21.5}\"}\n"
          "agentry.tool.status={\"stringValue\":\"ok\"}\n"
          "agentry.tool.attempts={\"intValue\":\"1\"}\n");
    // The arguments arrived byte for byte.
    for (const value& kv : member(s_call, "attributes").items())
        if (member(kv, "key").as_string() == "gen_ai.tool.call.arguments")
            CHECK(member(member(kv, "value"), "stringValue").as_string() == call_e.arguments);
    const std::string mcp_attributes = "mcp.method.name={\"stringValue\":\"tools/call\"}\n"
                                       "mcp.session.id={\"stringValue\":\"sess-9\"}\n"
                                       "jsonrpc.request.id={\"stringValue\":\"12\"}\n"
                                       "gen_ai.operation.name={\"stringValue\":\"execute_tool\"}\n"
                                       "gen_ai.tool.name={\"stringValue\":\"get_weather\"}\n";
    CHECK(attributes(member(*mcp_client, "attributes")) == mcp_attributes);
    CHECK(attributes(member(*mcp_server, "attributes")) == mcp_attributes);
}

TEST_CASE("otlp collector: the example of docs/observability.md is in this file, and exports") {
    const std::string block = doc_block();
    CHECK(block.starts_with("// A tracer that prints each span's name"));
    CHECK(this_file().find(block) != std::string::npos);
    collector c;
    const std::unique_ptr<agentry::tracer> t = make_tracer(c.url());
    const agentry::plan_event e{"a", 1, 1};
    t->end_plan(t->begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t->flush());
    CHECK(t->delivered() == 1);
    CHECK(t->exported() == 1);
}

TEST_CASE("otlp collector: an error span's status, as accepted") {
    collector c;
    agentry::tracer t{exporting(c.url())};
    agentry::provider_error e;
    e.kind = agentry::provider_error_kind::server;
    e.message = "upstream \"overloaded\"";
    const agentry::turn_event turn_e{"anthropic", "claude-x", 2};
    agentry::turn_end_event end;
    end.error = &e;
    end.end = at(1);
    t.end_turn(t.begin_turn({}, turn_e, at(0)), turn_e, end);
    REQUIRE(t.flush());
    CHECK(t.exported() == 1);
    c.stop();
    const value record = c.record();
    REQUIRE(member(record, "accepted").size() == 1);
    const value& s = member(
        member(member(member(record, "accepted").items()[0], "resourceSpans").items()[0], "scopeSpans").items()[0],
        "spans").items().at(0);
    CHECK(agentry::json::to_text(member(s, "status")) == R"({"code":2,"message":"upstream \"overloaded\""})");
    CHECK(s.find("parentSpanId") == nullptr);
}

TEST_CASE("otlp collector: what breaks the OTLP JSON mapping is refused, with why") {
    collector c;
    const std::string good_span =
        R"("traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","name":"x","kind":1,)"
        R"("startTimeUnixNano":"1","endTimeUnixNano":"2")";
    const auto body = [](const std::string& span) {
        return R"({"resourceSpans":[{"scopeSpans":[{"spans":[{)" + span + "}]}]}]}";
    };
    const std::string where = "$.resourceSpans[0].scopeSpans[0].spans[0]";
    struct refused {
        std::string span;
        std::string why;
    };
    const refused cases[] = {
        {R"("traceId":"S/kvNXezTaajzpKdDg5HNg==","spanId":"00f067aa0ba902b7","name":"x","startTimeUnixNano":"1","endTimeUnixNano":"2")",
         where + ".traceId: must be 32 lower-case hex digits"},
        {R"("traceId":"4BF92F3577B34DA6A3CE929D0E0E4736","spanId":"00f067aa0ba902b7","name":"x","startTimeUnixNano":"1","endTimeUnixNano":"2")",
         where + ".traceId: must be 32 lower-case hex digits"},
        {good_span + R"(,"parentSpanId":"0000000000000000")", where + ".parentSpanId: must not be all zero"},
        {R"("traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","name":"x","kind":"SPAN_KIND_CLIENT","startTimeUnixNano":"1","endTimeUnixNano":"2")",
         where + ".kind: must be an integer enum value 0..5"},
        {R"("traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","name":"x","startTimeUnixNano":1,"endTimeUnixNano":"2")",
         where + ".startTimeUnixNano: must be a 64-bit integer as a decimal string"},
        {good_span + R"(,"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736")", where + ": unknown field \"trace_id\""},
        {good_span + R"(,"attributes":[{"key":"k","value":{"stringValue":"a","intValue":"1"}}])",
         where + ".attributes[0].value: must have exactly one of stringValue, boolValue, intValue, doubleValue, "
                 "arrayValue, kvlistValue, bytesValue"},
        {good_span + R"(,"attributes":[{"key":"k","value":{"intValue":7}}])",
         where + ".attributes[0].value.intValue: must be a 64-bit integer as a decimal string"},
        {good_span + R"(,"status":{"code":3})", where + ".status.code: must be an integer enum value 0..2"},
    };
    for (const refused& r : cases) {
        const agentry::transport_result got = post(c.url(), body(r.span));
        REQUIRE(got.ok());
        CHECK(got.response.status == 400);
        value expected = value::object();
        expected.set("error", r.why);
        CHECK(got.response.body == agentry::json::to_text(expected));
    }
    const agentry::transport_result fine = post(c.url(), body(good_span));
    CHECK(fine.response.status == 200);
    CHECK(fine.response.body == R"({"partialSuccess":{}})");
    c.stop();
    CHECK(member(c.record(), "errors").size() == std::size(cases));
    CHECK(member(c.record(), "accepted").size() == 1);
}

TEST_CASE("otlp collector: a dead collector drops the batch and counts it") {
    const std::string url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1/traces";
    agentry::tracer t{exporting(url)};
    const agentry::plan_event e{"a", 1, 1};
    for (int i = 0; i != 3; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.delivered() == 3);
    CHECK(t.exported() == 0);
    CHECK(t.export_failures() == 1);
    CHECK(t.export_dropped() == 3);
    CHECK(t.dropped() == 0);
    const std::string prefix = "agentry: OTLP export to " + url + " failed, 3 spans dropped: ";
    CHECK(t.last_export_error().substr(0, prefix.size()) == prefix);
}

TEST_CASE("otlp collector: a slow collector, past the timeout, drops the batch and counts it") {
    collector c({"--delay-ms", "3000"});
    agentry::tracer_options options = exporting(c.url());
    options.otlp->timeout = 300ms;
    agentry::tracer t{std::move(options)};
    const agentry::plan_event e{"a", 1, 1};
    for (int i = 0; i != 4; ++i) t.end_plan(t.begin_plan({}, e, at(0)), e, {1, false, at(1)});
    REQUIRE(t.flush());
    CHECK(t.delivered() == 4);
    CHECK(t.exported() == 0);
    CHECK(t.export_failures() == 1);
    CHECK(t.export_dropped() == 4);
    const std::string prefix = "agentry: OTLP export to " + c.url() + " failed, 4 spans dropped: ";
    CHECK(t.last_export_error().substr(0, prefix.size()) == prefix);
    // The collector did read it, and it was valid: only the answer came too late.
    c.stop();
    CHECK(member(c.record(), "errors").size() == 0);
}

namespace {

constexpr agentry::registry remote_tools{
    agentry::tool<"add", "Adds two integers.", "a", "b">(+[](int a, int b) { return a + b; })};

struct exported_span {
    std::string trace, parent, name;
    int kind = 0;
};

/// Every span the collector accepted, by span id.
std::map<std::string, exported_span> spans_of(const value& record) {
    std::map<std::string, exported_span> out;
    for (const value& request : member(record, "accepted").items())
        for (const value& rs : member(request, "resourceSpans").items())
            for (const value& ss : member(rs, "scopeSpans").items())
                for (const value& s : member(ss, "spans").items()) {
                    exported_span e;
                    e.trace = member(s, "traceId").as_string();
                    if (const value* p = s.find("parentSpanId")) e.parent = p->as_string();
                    e.name = member(s, "name").as_string();
                    e.kind = int(member(s, "kind").as_double());
                    out[member(s, "spanId").as_string()] = e;
                }
    return out;
}

/// The id of the one span named `name` whose parent is `parent`.
std::string child(const std::map<std::string, exported_span>& spans, const std::string& parent, const std::string& name) {
    std::string found;
    for (const auto& [id, s] : spans)
        if (s.parent == parent && s.name == name) {
            CHECK_MESSAGE(found.empty(), "two spans named " << name << " under " << parent);
            found = id;
        }
    REQUIRE_MESSAGE(!found.empty(), "no span named " << name << " under " << (parent.empty() ? "(root)" : parent));
    return found;
}

} // namespace

TEST_CASE("otlp collector: an agent, its MCP client and an agentry MCP server export one trace") {
    collector c;
    agentry::tracer t{exporting(c.url())};
    agentry::mcp::server server{remote_tools, {.name = "remote", .version = "1"}};
    server.set_observer(&t);
    agentry::mcp::http_options http_options;
    http_options.port = 0;
    http_options.log = nullptr;
    agentry::mcp::http_server http(server, http_options);
    std::thread serving([&] { http.run(); });
    {
        agentry::mcp::client_options client_options;
        client_options.observer = &t;
        auto client = agentry::mcp::client::connect(agentry::mcp::http_url{http.url()}, client_options);
        REQUIRE(client);
        agentry::mcp::toolset remote;
        REQUIRE(remote.add(*client));
        const agentry::scripted_model model{[](const agentry::chat_request& r) {
            if (r.messages.back().role == agentry::role::user)
                return agentry::scripted_model::call("add", R"({"a":2,"b":3})");
            return agentry::scripted_model::answer("5");
        }};
        agentry::agent_options options;
        options.observer = &t;
        options.name = "desk";
        agentry::agent<agentry::loop_config{}> agent{model, agentry::registry{}, options, agentry::scripted_transport{}};
        REQUIRE(agent.add_tools(remote));
        REQUIRE(agent.run("2 + 3?").stop == agentry::stop_reason::completed);
    }
    http.stop();
    serving.join();
    REQUIRE(t.flush());
    CHECK(t.export_failures() == 0);
    c.stop();

    const value record = c.record();
    CHECK(member(record, "errors").size() == 0);
    const std::map<std::string, exported_span> spans = spans_of(record);
    // invoke_agent desk > chat (each turn), execute_tool add > tools/call add (client) >
    // tools/call add (server) > execute_tool add.
    const std::string run = child(spans, "", "invoke_agent desk");
    const std::string call = child(spans, run, "execute_tool add");
    const std::string sent = child(spans, call, "tools/call add");
    const std::string served = child(spans, sent, "tools/call add");
    const std::string ran = child(spans, served, "execute_tool add");
    std::size_t turns = 0;
    for (const auto& [id, s] : spans) turns += s.parent == run && s.name.starts_with("chat") ? 1 : 0;
    CHECK(turns == 2);
    CHECK(spans.at(sent).kind == 3);    // client
    CHECK(spans.at(served).kind == 2);  // server
    CHECK(spans.at(ran).kind == 1);     // internal
    for (const std::string& id : {call, sent, served, ran}) CHECK(spans.at(id).trace == spans.at(run).trace);
}
