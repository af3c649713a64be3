// SPDX-License-Identifier: BSL-1.0
// A tool whose result is longer than loop_config::max_result_size: kept whole, the model gets
// its first page and a note, and reads the others with the built-in tool read_result.
#include <agentry/agent.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>

#include <iostream>
#include <string>

std::string read_log() {
    std::string log;
    for (int i = 1; i <= 400; ++i) log += "request " + std::to_string(i) + ": ok\n";
    return log + "request 401: failed (disk full)\n";
}

constexpr agentry::registry tools{agentry::tool<"read_log", "The server's request log.">(read_log)};

constexpr agentry::loop_config config{.max_result_size = 4096, .large_results = agentry::large_result::page};

int main() {
    // A model that reads every page, then answers with the log's last line.
    agentry::scripted_model model{[](const agentry::chat_request& r) {
        const agentry::message& last = r.messages.back();
        if (last.role != agentry::role::tool) return agentry::scripted_model::call("read_log", "{}");
        const std::size_t next = last.text.find("the next is page ");
        if (last.text.find("above is page 1 of") != std::string::npos || next != std::string::npos) {
            const std::string page = next == std::string::npos ? "2" : last.text.substr(next + 17, 1);
            return agentry::scripted_model::call("read_result", R"({"call_id":"call_1","page":)" + page + "}");
        }
        const std::size_t failed = last.text.rfind("request 401");
        return agentry::scripted_model::answer(last.text.substr(failed, last.text.find('\n', failed) - failed));
    }};
    agentry::agent<config> agent{model, tools, "You read logs.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Why did the last request fail?");
    for (const agentry::step& s : r.steps) std::cout << "step: " << s.tool << ' ' << s.arguments << '\n';
    std::cout << "kept: " << r.steps.front().kept_result.size() << " bytes\n";
    std::cout << "answer: " << r.text << '\n';
}
