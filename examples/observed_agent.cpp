// SPDX-License-Identifier: BSL-1.0
// An agent seen from outside: its calls and turns counted (agentry::metrics, read back in the
// Prometheus text format), traced (agentry::tracer: each span printed as it ends, with its
// parent), and its run written as an HTML report. The model is scripted: no network, no key.
//
//   observed_agent [report.html]

#include <agentry/agent.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/report/run_report.hpp>
#include <agentry/telemetry/metrics.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/telemetry/tracer.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

struct city {
    std::string name;
};

std::string weather(const city& c) { return "Sunny, 24 C in " + c.name; }

constexpr agentry::registry tools{agentry::tool<"weather", "The weather of a city.">(weather)};
constexpr agentry::loop_config config{};

// Calls the tool for the city asked about, then answers from its result.
agentry::completion model_turn(const agentry::chat_request& r) {
    const agentry::message& last = r.messages.back();
    if (last.role == agentry::role::tool) return agentry::scripted_model::answer(last.text + ".");
    return agentry::scripted_model::call("weather", R"({"name":"Lisbon"})", {.input_tokens = 120, .output_tokens = 18});
}

int main(int argc, char** argv) {
    agentry::tracer_options trace_options;
    trace_options.service_name = "weather-desk";
    trace_options.on_span = [](const agentry::span& s) {
        std::printf("span: %-26s %s\n", s.name.c_str(), s.parent_span_id == decltype(s.parent_span_id){} ? "(root)" : "");
    };

    agentry::metrics metrics;                                   // shared by every agent and server
    agentry::tracer tracer{std::move(trace_options)};
    agentry::observer_list observe{&metrics, &tracer};

    agentry::agent_options options;
    options.observer = &observe;
    options.name = "weather-desk";
    agentry::agent<config> agent{agentry::scripted_model{model_turn}, tools, options, agentry::scripted_transport{}};

    const agentry::run_result result = agent.run("Weather in Lisbon?");
    tracer.flush();  // the spans are printed on the tracer's thread: wait for them
    std::printf("answer: %s\n", result.text.c_str());

    std::istringstream exposition(metrics.prometheus());
    for (std::string line; std::getline(exposition, line);)
        if (line.starts_with("agentry_tool_calls_total") || line.starts_with("agentry_runs_total"))
            std::printf("metric: %s\n", line.c_str());

    const std::string page = agentry::render_report(result, {.title = "Weather in Lisbon"});
    std::ofstream(argc > 1 ? argv[1] : "observed_agent.html", std::ios::binary) << page;
    std::printf("report: %zu bytes\n", page.size());
}
