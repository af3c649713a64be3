// SPDX-License-Identifier: BSL-1.0
// An agent as a tool of another: a researcher agent with its own tools and a typed answer is
// the "research" tool of a lead agent. The researcher's run is nested in the lead's result,
// its tokens count in the lead's usage and budget. Both models are replayed from recorded
// OpenAI replies, so this runs without a network.

#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

// Answers each request with the next recorded reply.
struct replay {
    std::vector<std::string> replies;
    std::size_t next = 0;

    agentry::transport_result send(const agentry::http_request&) {
        const std::string body = next < replies.size() ? replies[next++] : replies.back();
        return {{200, {}, body}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

struct archive_query {
    std::string term;
};

std::string search_archive(const archive_query& q) { return "3 articles on " + q.term + ", the latest from 2024"; }

constexpr agentry::registry archive_tools{agentry::tool<"search_archive", "Searches the news archive">(search_archive)};

// The researcher's typed answer: the lead's model gets it as JSON.
struct findings {
    std::string summary;
    agentry::in_range<int, 0, 100> sources;
};

// The research tool's input: its fields are the tool's parameters.
struct research_request {
    std::string topic;
    agentry::in_range<int, 1, 10> max_sources;
};

constexpr agentry::loop_config researcher_config{.max_turns = 4};
constexpr agentry::loop_config lead_config{.max_turns = 6, .max_total_tokens = 2000};

int main() {
    replay researcher_model{{
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"r1","type":"function",)"
        R"("function":{"name":"search_archive","arguments":"{\"term\":\"tram line\"}"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":90,"completion_tokens":12}})",
        R"({"choices":[{"message":{"role":"assistant","content":"{\"summary\":\"The tram line opens in 2026.\",)"
        R"(\"sources\":3}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":140,"completion_tokens":20}})",
    }};
    replay lead_model{{
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"l1","type":"function",)"
        R"("function":{"name":"research","arguments":"{\"topic\":\"tram line\",\"max_sources\":3}"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":15}})",
        R"({"choices":[{"message":{"role":"assistant","content":"The new tram line opens in 2026 (3 sources)."},)"
        R"("finish_reason":"stop"}],"usage":{"prompt_tokens":160,"completion_tokens":14}})",
    }};
    const agentry::openai model{.model = "gpt-4o-mini"};

    agentry::agent<researcher_config, findings> researcher{model, archive_tools, "You research the news archive.",
                                                           researcher_model};
    const agentry::registry lead_tools{agentry::agent_tool<"research", "Researches a topic in the news archive">(
        researcher, [](const research_request& r) {
            return "Research " + r.topic + "; cite at most " + std::to_string(*r.max_sources) + " sources.";
        })};
    agentry::agent<lead_config> lead{model, lead_tools, "You answer questions about the city.", lead_model};

    const agentry::run_result r = lead.run("When does the new tram line open?");
    std::printf("%s: %s\n", std::string(agentry::to_string(r.stop)).c_str(), r.text.c_str());
    for (const agentry::sub_run& s : r.sub_runs)
        std::printf("sub-run of %s (step %s): %s, %zu steps, %llu + %llu tokens\n", s.tool.c_str(), s.step_id.c_str(),
                    std::string(agentry::to_string(s.result.stop)).c_str(), s.result.steps.size(),
                    static_cast<unsigned long long>(s.result.usage.input_tokens),
                    static_cast<unsigned long long>(s.result.usage.output_tokens));
    std::printf("total: %llu + %llu tokens\n", static_cast<unsigned long long>(r.usage.input_tokens),
                static_cast<unsigned long long>(r.usage.output_tokens));
    return r.stop == agentry::stop_reason::completed ? 0 : 1;
}
