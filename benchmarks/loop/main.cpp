// SPDX-License-Identifier: BSL-1.0
// agentry_loop_bench: the cost of the agent loop per turn, with the transport replaced by
// canned_transport (loop_fixture.hpp). Checks the run first (two turns, two tool calls with
// results, the final answer; the first request is the one the provider benchmark builds),
// then runs the benchmarks (Google Benchmark flags apply; --self-test runs only the checks).
//
//   loop/restore_and_run      agent.restore(19 messages) + agent.run(20th): 2 turns
//   loop/restore              agent.restore(19 messages) alone
//   loop/provider_work        what openai::request and openai::parse do in those 2 turns
//   loop/dispatch             registry::call of the 2 tool calls
//   loop/restore_and_run_parallel   as the first, with loop_config::parallel_tool_calls

#include "alloc_counter.hpp"
#include "loop_fixture.hpp"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "self-test: FAILED: %s\n", what.c_str());
    ++failures;
}

/// The histories of the two requests of a run: 20 messages, then 23.
struct two_requests {
    std::vector<agentry::message> first, second;
};

two_requests requests_of_a_run() {
    auto agent = bench::make_agent<bench::sequential>();
    agent.restore(bench::saved_conversation());
    (void)agent.run(bench::last_user_input());
    const std::vector<agentry::message>& all = agent.conversation();
    return {{all.begin(), all.begin() + 20}, {all.begin(), all.begin() + 23}};
}

agentry::chat_request loop_request(const std::vector<agentry::message>& messages) {
    agentry::chat_request r = bench::make_request(messages);
    r.parallel_tool_calls = bench::sequential.parallel_tool_calls;
    return r;
}

template <agentry::loop_config Config>
void check_run(const char* label) {
    const std::string who = label;
    std::vector<std::string> seen;
    auto agent = bench::make_agent<Config>(&seen);
    const std::string saved = bench::saved_conversation();
    for (int round = 0; round != 3; ++round) {
        seen.clear();
        check(agent.restore(saved), who + ": restore");
        check(agent.conversation().size() == 19, who + ": 19 messages restored");
        const agentry::run_result r = agent.run(bench::last_user_input());
        check(r.stop == agentry::stop_reason::completed, who + ": run completed: " + r.text);
        check(r.turns == 2, who + ": 2 turns");
        check(r.steps.size() == 2 && r.steps[0].tool == "get_weather" && r.steps[1].tool == "search_restaurants",
              who + ": the two tool calls ran");
        for (const agentry::step& s : r.steps)
            check(s.status == agentry::tool_status::ok, who + ": " + s.tool + " succeeded: " + s.result_excerpt);
        check(r.text.starts_with("The evening you arrive"), who + ": the final answer");
        check(agent.conversation().size() == 24, who + ": 24 messages after the run");
        check(seen.size() == 2, who + ": 2 requests");
    }
    // The first request is the provider benchmark's (20 messages, 10 tools), with
    // parallel_tool_calls as the config says.
    const two_requests h = requests_of_a_run();
    agentry::chat_request first = bench::make_request(h.first);
    // Through a constexpr copy: Clang 14 misreads members of a class-type template argument.
    static constexpr agentry::loop_config config = Config;
    first.parallel_tool_calls = config.parallel_tool_calls;
    const std::string expected = bench::make_provider().request(first).body;
    const std::string sent = seen.empty() ? std::string{} : seen[0];
    std::size_t at = 0;
    while (at < sent.size() && at < expected.size() && sent[at] == expected[at]) ++at;
    const std::size_t from = at < 120 ? 0 : at - 120;
    check(!sent.empty() && nlohmann::json::parse(sent) == nlohmann::json::parse(expected),
          who + ": the first request is the provider benchmark's; they differ at byte " + std::to_string(at) +
              ":\n  sent:     ..." + sent.substr(from, 240) + "\n  expected: ..." + expected.substr(from, 240));
    const auto& tool_message = agent.conversation()[21];
    check(tool_message.role == agentry::role::tool && tool_message.text.find("\"temperature\":23.5") != std::string::npos,
          who + ": the get_weather result is in the history: " + tool_message.text);
}

void restore_and_run_case(benchmark::State& state) {
    auto agent = bench::make_agent<bench::sequential>();
    const std::string saved = bench::saved_conversation();
    const std::string input = bench::last_user_input();
    bench::timed(state, [&] {
        agent.restore(saved);
        return agent.run(input).turns;
    });
}

void restore_and_run_parallel_case(benchmark::State& state) {
    auto agent = bench::make_agent<bench::parallel>();
    const std::string saved = bench::saved_conversation();
    const std::string input = bench::last_user_input();
    bench::timed(state, [&] {
        agent.restore(saved);
        return agent.run(input).turns;
    });
}

void restore_case(benchmark::State& state) {
    auto agent = bench::make_agent<bench::sequential>();
    const std::string saved = bench::saved_conversation();
    bench::timed(state, [&] { return agent.restore(saved); });
}

void provider_work_case(benchmark::State& state) {
    const two_requests h = requests_of_a_run();
    const agentry::chat_request first = loop_request(h.first);
    const agentry::chat_request second = loop_request(h.second);
    const agentry::openai provider = bench::make_provider();
    const agentry::http_response calls = bench::make_response(bench::tool_calls_response);
    const agentry::http_response answer = bench::make_response(bench::final_answer_response);
    bench::timed(state, [&] {
        agentry::http_request a = provider.request(first);
        benchmark::DoNotOptimize(a);
        agentry::turn_result b = provider.parse(calls);
        benchmark::DoNotOptimize(b);
        agentry::http_request c = provider.request(second);
        benchmark::DoNotOptimize(c);
        return provider.parse(answer);
    });
}

void dispatch_case(benchmark::State& state) {
    const agentry::turn_result r = bench::make_provider().parse(bench::make_response(bench::tool_calls_response));
    const std::vector<agentry::tool_call>& calls = r.value->reply.tool_calls;
    const auto registry = bench::strict_tools;
    bench::timed(state, [&] {
        std::size_t ok = 0;
        for (const agentry::tool_call& c : calls) ok += registry.call(c.name, c.arguments).ok();
        return ok;
    });
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

    check_run<bench::sequential>("sequential");
    check_run<bench::parallel>("parallel");
    if (failures != 0) {
        std::fprintf(stderr, "self-test: %d failures; no benchmark run\n", failures);
        return 1;
    }
    std::fprintf(stderr, "self-test: passed\n");
    if (only_self_test) return 0;

    const two_requests h = requests_of_a_run();
    benchmark::AddCustomContext("restored_messages", "19");
    benchmark::AddCustomContext("request_messages", std::to_string(h.first.size()) + " " + std::to_string(h.second.size()));
    benchmark::AddCustomContext("saved_bytes", std::to_string(bench::saved_conversation().size()));
    benchmark::RegisterBenchmark("loop/restore_and_run", restore_and_run_case);
    benchmark::RegisterBenchmark("loop/restore", restore_case);
    benchmark::RegisterBenchmark("loop/provider_work", provider_work_case);
    benchmark::RegisterBenchmark("loop/dispatch", dispatch_case);
    benchmark::RegisterBenchmark("loop/restore_and_run_parallel", restore_and_run_parallel_case);
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
