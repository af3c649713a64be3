// SPDX-License-Identifier: BSL-1.0
// Each turn sends the tools the request needs, not all of them: BM25 over the tools'
// definitions, plus what was learned from earlier runs about which tools follow which. The
// scripted model stands in for a real one and prints the tools each turn was sent.
#include <agentry/agent.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/select/bm25.hpp>
#include <agentry/select/category.hpp>
#include <agentry/select/learned.hpp>
#include <agentry/select/selector.hpp>

#include <cstdio>
#include <string>

struct city {
    std::string name;
    static constexpr auto docs = agentry::field_docs("name", "City name, e.g. Lyon");
};

std::string forecast(const city& c) { return c.name + ": rain at noon"; }
std::string hotels(const city& c) { return c.name + ": Hotel du Nord, 2 rooms"; }
std::string book(const city& c) { return "booked in " + c.name; }
std::string convert(double amount, std::string to) { return std::to_string(amount) + " " + to; }

constexpr agentry::registry tools{
    agentry::in_category<"weather">(agentry::tool<"get_forecast", "Weather forecast for a city: rain, wind.">(forecast)),
    agentry::in_category<"travel">(agentry::tool<"find_hotels", "Hotels with free rooms in a city.">(hotels)),
    agentry::in_category<"travel">(agentry::tool<"book_hotel", "Books the first free hotel room in a city.">(book)),
    agentry::in_category<"money">(
        agentry::tool<"convert_currency", "Converts an amount of euros.", "amount", "to">(convert)),
};

int main() {
    // What earlier runs taught: after find_hotels, book_hotel came next.
    agentry::learned_boost follows;
    follows.record("find_hotels", "book_hotel", 3);

    agentry::scripted_model model{[](const agentry::chat_request& r) {
        std::string sent;
        for (std::string_view name : tools.names)
            if (r.tools.find("\"" + std::string(name) + "\"") != std::string_view::npos) sent += " " + std::string(name);
        std::printf("sent:%s\n", sent.c_str());
        if (r.messages.back().role == agentry::role::user)
            return agentry::scripted_model::call("find_hotels", R"({"name":"Lyon"})");
        if (r.messages.back().tool_name == "find_hotels")
            return agentry::scripted_model::call("book_hotel", R"({"name":"Lyon"})");
        return agentry::scripted_model::answer("Booked: " + r.messages.back().text + ".");
    }};

    agentry::agent_options options;
    options.select_tools = agentry::top_k(agentry::bm25::of(tools) * 1.0 + follows * 0.5, 1);
    constexpr agentry::loop_config config{.max_turns = 4};
    agentry::agent<config> agent{model, tools, std::move(options), agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Find me a hotel room in Lyon and reserve it.");
    std::printf("%s\n", r.text.c_str());
    follows.learn(r);  // this run's calls count too
    std::printf("find_hotels -> book_hotel: %.2f\n", follows.follows("find_hotels", "book_hotel"));
}
