// SPDX-License-Identifier: BSL-1.0
// A model that finds its tools: the agent sends a search tool, the model searches, then calls
// the tool it found. The scripted model stands in for a real one; the catalog's tools are
// scored by the words of the query found in their names and descriptions.
#include <agentry/agent.hpp>
#include <agentry/loop/tool_search_source.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/select/tool_search.hpp>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

struct words_scorer {
    void score(const agentry::tool_catalog& catalog, const agentry::turn_query& query, std::span<double> out) {
        std::string word;
        for (char c : std::string(query.text) + " ") {
            if (c != ' ') {
                word.push_back(c);
                continue;
            }
            for (std::size_t i = 0; i != catalog.size() && !word.empty(); ++i)
                if (catalog[i].description.find(word) != std::string_view::npos) out[i] += 1;
            word.clear();
        }
    }
};

std::string weather(std::string city) { return "sunny in " + city; }
std::string send_email(std::string to) { return "sent to " + to; }

constexpr agentry::registry tools{
    agentry::tool<"weather", "Current weather for a city", "city">(weather),
    agentry::tool<"send_email", "Sends an email", "to">(send_email),
};

int main() {
    agentry::scripted_model model{[](const agentry::chat_request& r) {
        const bool weather_sent = r.tools.find(R"("name":"weather")") != std::string_view::npos;
        std::printf("tools sent: search_tools%s\n", weather_sent ? ", weather" : "");
        const agentry::message& last = r.messages.back();
        if (last.role == agentry::role::user) return agentry::scripted_model::call("search_tools", R"({"query":"weather"})");
        if (last.tool_name == "search_tools") return agentry::scripted_model::call("weather", R"({"city":"Oslo"})");
        return agentry::scripted_model::answer("It is " + last.text + ".");
    }};
    constexpr agentry::loop_config config{.max_turns = 4};
    agentry::agent<config> agent{model, tools, "You help.", agentry::scripted_transport{}};
    // The search tool joins the agent, and each turn sends it with the tools it found.
    const agentry::outcome<agentry::tool_search> search = agentry::enable_tool_search(agent, words_scorer{});
    if (!search) return 1;
    std::printf("answer: %s\n", agent.run("Weather in Oslo?").text.c_str());
    // What the search found, read back from the conversation.
    for (const std::string& name : search->found(model.conversations().back())) std::printf("found: %s\n", name.c_str());
}
