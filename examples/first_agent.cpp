// SPDX-License-Identifier: BSL-1.0
// Getting started, steps 4 to 6: an agent against a model scripted in the program, a tool that
// needs approval, and the same agent against a real provider (docs/getting-started.md).
#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#if defined(AGENTRY_WITH_CURL)
#include <agentry/transport/curl.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>

std::string get_weather(const std::string& city) { return "sunny, 24 C in " + city; }
std::string book_table(const std::string& place, int people) {
    return "table for " + std::to_string(people) + " at " + place;
}

// Step 5: book_table needs a person's approval before it runs.
constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Gets the weather in a city.", "city">(get_weather),
    agentry::with_policy<agentry::tool_policy{.needs_approval = true}>(
        agentry::tool<"book_table", "Books a table.", "place", "people">(book_table)),
};

constexpr agentry::loop_config config{.max_turns = 6};

// Step 4: a model written in the program: it answers from the conversation so far.
agentry::completion scripted_answer(const agentry::chat_request& request) {
    const agentry::message& last = request.messages.back();
    if (last.role == agentry::role::user)
        return agentry::scripted_model::call("get_weather", R"({"city":"Lyon"})");
    if (last.tool_name == "get_weather")
        return agentry::scripted_model::call("book_table", R"({"place":"Chez Anna, Lyon","people":2})");
    return agentry::scripted_model::answer("It is " + std::string(request.messages[request.messages.size() - 3].text) +
                                           "; I booked a " + last.text + ".");
}

agentry::agent_options options() {
    agentry::agent_options o;
    o.system_prompt = "You plan evenings out.";
    o.approver = [](const agentry::approval_request& call) {
        std::printf("approve %s %s? yes\n", std::string(call.tool).c_str(), std::string(call.arguments).c_str());
        return agentry::approval::approve();
    };
    return o;
}

int main() {
    const char* key = std::getenv("OPENAI_API_KEY");
#if defined(AGENTRY_WITH_CURL)
    // Step 6: a real provider, when a key is set.
    if (key != nullptr && *key != '\0') {
        agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini", .api_key = key}, tools, options()};
        const agentry::run_result r = agent.run("Is it a good evening for dinner outside in Lyon? Book for two.");
        std::printf("%s: %s\n", std::string(agentry::to_string(r.stop)).c_str(), r.text.c_str());
        return r.stop == agentry::stop_reason::completed ? 0 : 1;
    }
#endif
    (void)key;
    agentry::agent<config> agent{agentry::scripted_model{scripted_answer}, tools, options(),
                                 agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Is it a good evening for dinner outside in Lyon? Book for two.");
    for (const agentry::step& s : r.steps)
        std::printf("called %s %s -> %s\n", s.tool.c_str(), s.arguments.c_str(), s.result_excerpt.c_str());
    std::printf("%s after %u turns: %s\n", std::string(agentry::to_string(r.stop)).c_str(), r.turns, r.text.c_str());
    return r.stop == agentry::stop_reason::completed ? 0 : 1;
}
