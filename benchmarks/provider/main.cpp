// SPDX-License-Identifier: BSL-1.0
// agentry_provider_bench: checks that agentry::openai, agentry::openai_responses and
// agentry::anthropic and their nlohmann::json baselines build the same requests and read the
// same completions (aborts on any difference), then runs the benchmarks (Google Benchmark
// flags apply; --self-test runs only the checks).

#include "alloc_counter.hpp"
#include "cases.hpp"
#include "reasoning.hpp"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "self-test: FAILED: %s\n", what.c_str());
    ++failures;
}

std::string describe(const agentry::turn_result& r) {
    if (!r.ok()) return "error: " + r.error.message;
    const agentry::completion& c = *r.value;
    std::string s = "finish " + std::to_string(int(c.finish)) + " (" + c.provider_finish + "), text " +
                    std::to_string(c.reply.text.size()) + " B, refusal " + std::to_string(c.refusal.size()) +
                    " B, usage " + std::to_string(c.usage.input_tokens) + "/" + std::to_string(c.usage.output_tokens) +
                    ", calls:";
    for (const agentry::tool_call& t : c.reply.tool_calls) s += " " + t.id + " " + t.name + " " + t.arguments;
    if (c.reply.parts)
        for (const agentry::provider_part& p : *c.reply.parts)
            s += ", part " + p.provider + " " + p.kind + " at " + std::to_string(p.position) + ": " + p.raw.substr(0, 80);
    return s;
}

/// The same parts, their raw texts compared as JSON values.
bool same_parts(const std::optional<std::vector<agentry::provider_part>>& a,
                const std::optional<std::vector<agentry::provider_part>>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    if (a->size() != b->size()) return false;
    for (std::size_t i = 0; i != a->size(); ++i) {
        const agentry::provider_part& p = (*a)[i];
        const agentry::provider_part& q = (*b)[i];
        const nlohmann::json x = nlohmann::json::parse(p.raw, nullptr, false);
        const nlohmann::json y = nlohmann::json::parse(q.raw, nullptr, false);
        if (p.provider != q.provider || p.kind != q.kind || p.position != q.position || x.is_discarded() ||
            y.is_discarded() || x != y)
            return false;
    }
    return true;
}

/// The same text, or the same JSON value (a baseline that dumps an object it parsed, as
/// Anthropic's tool_use input, writes its members in its own order).
bool same_arguments(const std::string& a, const std::string& b) {
    if (a == b) return true;
    const nlohmann::json x = nlohmann::json::parse(a, nullptr, false);
    const nlohmann::json y = nlohmann::json::parse(b, nullptr, false);
    return !x.is_discarded() && !y.is_discarded() && x == y;
}

bool same_completion(const agentry::turn_result& a, const agentry::turn_result& b) {
    if (!a.ok() || !b.ok()) return false;
    const agentry::completion& x = *a.value;
    const agentry::completion& y = *b.value;
    if (x.reply.tool_calls.size() != y.reply.tool_calls.size()) return false;
    for (std::size_t i = 0; i != x.reply.tool_calls.size(); ++i) {
        const agentry::tool_call& p = x.reply.tool_calls[i];
        const agentry::tool_call& q = y.reply.tool_calls[i];
        if (p.id != q.id || p.name != q.name || !same_arguments(p.arguments, q.arguments)) return false;
    }
    return x.reply.text == y.reply.text && x.refusal == y.refusal && x.finish == y.finish &&
           x.provider_finish == y.provider_finish && x.usage == y.usage &&
           x.incomplete_tool_call == y.incomplete_tool_call && same_parts(x.reply.parts, y.reply.parts);
}

bool same_headers(std::vector<agentry::http_header> a, std::vector<agentry::http_header> b) {
    const auto order = [](const agentry::http_header& x, const agentry::http_header& y) {
        return x.name != y.name ? x.name < y.name : x.value < y.value;
    };
    std::sort(a.begin(), a.end(), order);
    std::sort(b.begin(), b.end(), order);
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const auto& x, const auto& y) { return x.name == y.name && x.value == y.value; });
}

/// `f` frees every allocation it makes.
void check_balanced(const std::string& what, const std::function<void()>& f) {
    const bench::heap_counts before = bench::heap();
    f();
    const bench::heap_counts after = bench::heap();
    check(after.allocations - before.allocations == after.frees - before.frees, what + " frees what it allocates");
}

void check_request(const std::string& what, const agentry::chat_request& request) {
    namespace nl = bench::nlohmann_impl;
    const agentry::http_request ours = bench::agentry_impl::build(request);
    const nlohmann::json expected = nlohmann::json::parse(ours.body, nullptr, false);
    check(!expected.is_discarded(), what + ": agentry's body is JSON");
    for (nl::tools_mode mode : {nl::tools_mode::parse_each_request, nl::tools_mode::cached_dom}) {
        const std::string who = what + (mode == nl::tools_mode::cached_dom ? " (cached tools DOM)" : "");
        const agentry::http_request theirs = nl::build(request, mode);
        const nlohmann::json got = nlohmann::json::parse(theirs.body, nullptr, false);
        check(!got.is_discarded() && got == expected, who + ": same JSON body\n  agentry:  " + ours.body.substr(0, 300) +
                                                          "\n  nlohmann: " + theirs.body.substr(0, 300));
        check(ours.url == theirs.url, who + ": same URL " + ours.url + " / " + theirs.url);
        check(ours.method == theirs.method, who + ": same method");
        check(same_headers(ours.headers, theirs.headers), who + ": same headers");
    }
}

void check_parse(const std::string& what, std::string_view body) {
    const agentry::http_response response = bench::make_response(body);
    const agentry::turn_result ours = bench::agentry_impl::parse(response);
    const agentry::turn_result theirs = bench::nlohmann_impl::parse(response);
    check(ours.ok(), what + ": agentry reads it: " + describe(ours));
    check(same_completion(ours, theirs),
          what + ": same completion\n  agentry:  " + describe(ours) + "\n  nlohmann: " + describe(theirs));
}

template <class Turn>
void check_reasoning_request(const std::string& what, const Turn& f, const agentry::chat_request& request) {
    namespace nl = bench::nlohmann_impl;
    check(!f.provider.refuse(request).has_value(), what + ": the provider takes it");
    const agentry::http_request ours = bench::agentry_impl::build(f, request);
    const nlohmann::json expected = nlohmann::json::parse(ours.body, nullptr, false);
    check(!expected.is_discarded(), what + ": agentry's body is JSON");
    for (nl::reasoning_mode mode :
         {nl::reasoning_mode::parts_dom, nl::reasoning_mode::cached_tools_dom, nl::reasoning_mode::parts_text}) {
        const std::string who = what + " (nlohmann mode " + std::to_string(int(mode)) + ")";
        const agentry::http_request theirs = nl::build(f, request, mode);
        const nlohmann::json got = nlohmann::json::parse(theirs.body, nullptr, false);
        check(!got.is_discarded() && got == expected, who + ": same JSON body\n  agentry:  " + ours.body.substr(0, 300) +
                                                          "\n  nlohmann: " + theirs.body.substr(0, 300) +
                                                          "\n  diff: " + nlohmann::json::diff(expected, got).dump().substr(0, 600));
        check(ours.url == theirs.url, who + ": same URL " + ours.url + " / " + theirs.url);
        check(ours.method == theirs.method, who + ": same method");
        check(same_headers(ours.headers, theirs.headers), who + ": same headers");
    }
}

/// The requests, the response and the stream of one reasoning fixture; `parts` the parts its
/// reply must have.
template <class Turn>
void check_reasoning(const std::string& what, const Turn& f, std::size_t parts) {
    std::size_t with_parts = 0;
    for (const agentry::message& m : f.messages) with_parts += m.parts.has_value();
    check(f.messages.size() == 20 && with_parts == 4, what + ": 20 messages, 4 of them with parts");
    check_reasoning_request(what + " request", f, f.request);
    agentry::chat_request variant = f.request;
    variant.stream = true;
    variant.parallel_tool_calls = false;
    check_reasoning_request(what + " streamed request without parallel calls", f, variant);

    const agentry::turn_result ours = bench::agentry_impl::parse(f, f.response);
    const agentry::turn_result theirs = bench::nlohmann_impl::parse(f, f.response);
    check(ours.ok() && ours.value->reply.tool_calls.size() == 2 && ours.value->finish == agentry::finish_reason::tool_calls &&
              ours.value->reply.parts && ours.value->reply.parts->size() == parts && !ours.value->reply.text.empty(),
          what + " response: agentry reads text, two calls and " + std::to_string(parts) + " parts: " + describe(ours));
    check(same_completion(ours, theirs),
          what + " response: same completion\n  agentry:  " + describe(ours) + "\n  nlohmann: " + describe(theirs));

    const agentry::turn_result streamed = bench::agentry_impl::assemble(f, f.stream);
    const agentry::turn_result nl_streamed = bench::nlohmann_impl::assemble(f, f.stream);
    check(streamed.ok(), what + " stream: agentry assembles it: " + describe(streamed));
    check(same_completion(streamed, nl_streamed), what + " stream: same completion\n  agentry:  " + describe(streamed) +
                                                      "\n  nlohmann: " + describe(nl_streamed));
    check(same_completion(streamed, ours),
          what + " stream: the same turn as the whole response\n  stream:   " + describe(streamed) +
              "\n  response: " + describe(ours));

    check_balanced("agentry " + what + " request", [&] { (void)bench::agentry_impl::build(f, f.request); });
    check_balanced("agentry " + what + " parse", [&] { (void)bench::agentry_impl::parse(f, f.response); });
    check_balanced("agentry " + what + " stream", [&] { (void)bench::agentry_impl::assemble(f, f.stream); });
}

/// The sizes the fixtures are meant to have.
void check_reasoning_sizes() {
    for (const agentry::message& m : bench::responses_fixture().messages)
        if (m.parts)
            for (const agentry::provider_part& p : *m.parts) {
                if (p.kind != "reasoning") continue;
                const std::string e = nlohmann::json::parse(p.raw)["encrypted_content"];
                check(e.size() >= 1500 && e.size() <= 3000, "encrypted content of 1.5 to 3 KB: " + std::to_string(e.size()));
            }
    for (const agentry::message& m : bench::anthropic_fixture().messages)
        if (m.parts)
            for (const agentry::provider_part& p : *m.parts) {
                if (p.kind != "thinking") continue;
                const nlohmann::json b = nlohmann::json::parse(p.raw);
                const std::size_t t = b["thinking"].get_ref<const std::string&>().size();
                const std::size_t s = b["signature"].get_ref<const std::string&>().size();
                check(t >= 800 && t <= 1200 && s >= 380 && s <= 440,
                      "thinking of about 1 KB and a signature of about 400 bytes: " + std::to_string(t) + ", " +
                          std::to_string(s));
            }
}

void self_test(const std::vector<bench::recorded_stream>& streams) {
    check_reasoning_sizes();
    check_reasoning("responses", bench::responses_fixture(), 3);
    check_reasoning("anthropic", bench::anthropic_fixture(), 1);

    const bench::turn_fixture& f = bench::fixture();
    check(f.messages.size() == 20, "the conversation has 20 messages");
    for (std::size_t i = 0; i != f.messages.size(); ++i) {
        std::size_t next = i + 1;
        for (const agentry::tool_call& c : f.messages[i].tool_calls) {
            check(next < f.messages.size() && f.messages[next].role == agentry::role::tool &&
                      f.messages[next].tool_call_id == c.id,
                  "tool call " + c.id + " is answered by the next tool message");
            ++next;
            const agentry::tool_result r =
                bench::tools.with_options({.arguments = {.null_as_absent = true}}).call(c.name, c.arguments);
            check(r.ok(), "the arguments of " + c.id + " are valid: " + r.content);
        }
    }
    check_request("request with 20 messages and 10 tools", f.request);
    agentry::chat_request variant = f.request;
    variant.stream = true;
    variant.tool_choice = agentry::tool_choice::one("get_weather");
    variant.temperature = 0.25;
    check_request("streamed request with a named tool choice", variant);

    check_parse("response with two tool calls", bench::tool_calls_response);
    check_parse("final answer", bench::final_answer_response);
    const agentry::turn_result calls = bench::agentry_impl::parse(f.response);
    check(calls.ok() && calls.value->reply.tool_calls.size() == 2 &&
              calls.value->finish == agentry::finish_reason::tool_calls,
          "the response has two tool calls");
    check(f.response.body.size() >= 1800 && f.response.body.size() <= 2300, "the response is about 2 KB");

    for (const bench::recorded_stream& s : streams) {
        const agentry::turn_result ours = bench::agentry_impl::assemble(s.body);
        const agentry::turn_result theirs = bench::nlohmann_impl::assemble(s.body);
        check(ours.ok(), "stream " + s.name + ": agentry assembles it: " + describe(ours));
        check(same_completion(ours, theirs), "stream " + s.name + ": same completion\n  agentry:  " + describe(ours) +
                                                 "\n  nlohmann: " + describe(theirs));
    }

    check_balanced("agentry request", [&] { (void)bench::agentry_impl::build(f.request); });
    check_balanced("agentry parse", [&] { (void)bench::agentry_impl::parse(f.response); });
    for (const bench::recorded_stream& s : streams)
        check_balanced("agentry stream " + s.name, [&] { (void)bench::agentry_impl::assemble(s.body); });
}

void add_context(const std::vector<bench::recorded_stream>& streams, const std::string& directory) {
    const bench::turn_fixture& f = bench::fixture();
    std::size_t history = 0;
    for (const agentry::message& m : f.messages) {
        history += m.text.size() + m.tool_call_id.size();
        for (const agentry::tool_call& c : m.tool_calls) history += c.id.size() + c.name.size() + c.arguments.size();
    }
    const agentry::http_request ours = bench::agentry_impl::build(f.request);
    const agentry::http_request theirs =
        bench::nlohmann_impl::build(f.request, bench::nlohmann_impl::tools_mode::parse_each_request);
    benchmark::AddCustomContext("fixture_messages", std::to_string(f.messages.size()));
    benchmark::AddCustomContext("fixture_history_bytes", std::to_string(history));
    benchmark::AddCustomContext("fixture_tools", std::to_string(bench::tools.size()));
    benchmark::AddCustomContext("fixture_tools_bytes", std::to_string(bench::tools_payload.size()));
    benchmark::AddCustomContext("fixture_request_bytes", std::to_string(ours.body.size()));
    benchmark::AddCustomContext("fixture_request_bytes_nlohmann", std::to_string(theirs.body.size()));
    benchmark::AddCustomContext("fixture_response_bytes", std::to_string(f.response.body.size()));
    benchmark::AddCustomContext("streams_dir", directory);
    for (const bench::recorded_stream& s : streams)
        benchmark::AddCustomContext("stream:" + s.name, std::to_string(s.body.size()) + " " + std::to_string(s.events));
}

/// The sizes of a reasoning fixture, as "<name>:<what>" context entries.
template <class Turn>
void add_reasoning_context(const std::string& name, const Turn& f, std::string_view tools) {
    std::size_t parts = 0, count = 0;
    for (const agentry::message& m : f.messages)
        if (m.parts)
            for (const agentry::provider_part& p : *m.parts) {
                parts += p.raw.size();
                ++count;
            }
    const agentry::turn_result reply = bench::agentry_impl::parse(f, f.response);
    std::size_t reply_parts = 0;
    if (reply.ok() && reply.value->reply.parts)
        for (const agentry::provider_part& p : *reply.value->reply.parts) reply_parts += p.raw.size();
    const auto add = [&](const std::string& key, std::size_t value) {
        benchmark::AddCustomContext(name + ":" + key, std::to_string(value));
    };
    add("history_parts", count);
    add("history_parts_bytes", parts);
    add("tools_bytes", tools.size());
    add("request_bytes", bench::agentry_impl::build(f, f.request).body.size());
    add("request_bytes_nlohmann",
        bench::nlohmann_impl::build(f, f.request, bench::nlohmann_impl::reasoning_mode::parts_dom).body.size());
    add("response_bytes", f.response.body.size());
    add("reply_parts_bytes", reply_parts);
    add("stream_bytes", f.stream.size());
    add("stream_events", f.stream_events);
}

} // namespace

int main(int argc, char** argv) {
    bool only_self_test = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--self-test") == 0) only_self_test = true;
        else args.push_back(argv[i]);
    }
    int count = int(args.size());
    args.push_back(nullptr);

    std::string directory, why_not;
    const std::vector<bench::recorded_stream> streams = bench::load_streams(directory, why_not);
    if (streams.empty())
        std::fprintf(stderr, "agentry_provider_bench: SSE assembly benchmarks skipped: %s\n", why_not.c_str());

    self_test(streams);
    if (failures != 0) {
        std::fprintf(stderr, "self-test: %d failures; no benchmark run\n", failures);
        return 1;
    }
    std::fprintf(stderr, "self-test: passed (request, 2 responses, %zu streams; Responses and Anthropic with thinking: "
                         "requests, response, stream)\n", streams.size());
    if (only_self_test) return 0;

    bench::agentry_impl::register_benchmarks(streams);
    bench::nlohmann_impl::register_benchmarks(streams);
    bench::agentry_impl::register_reasoning_benchmarks();
    bench::nlohmann_impl::register_reasoning_benchmarks();
    add_context(streams, directory);
    add_reasoning_context("responses", bench::responses_fixture(), bench::responses_tools_payload);
    add_reasoning_context("anthropic", bench::anthropic_fixture(), bench::anthropic_tools_payload);
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
