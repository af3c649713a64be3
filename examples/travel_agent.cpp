// SPDX-License-Identifier: BSL-1.0
// The travel assistant, end to end: a model plans a trip with four tools (one with nested
// arguments, one that can fail, one slow) and the run is printed as it happens.
//
//   travel_agent ["request"]
//
// The model: AGENTRY_BASE_URL (an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1,
// with AGENTRY_MODEL), else OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, whichever is
// set first. scripts/demo.sh starts a scripted local server and sets AGENTRY_BASE_URL.

#include <agentry/agent.hpp>
#include <agentry/agentry.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/transport/curl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace travel {

enum class cabin { economy, premium_economy, business, first };

struct passenger {
    agentry::sized_string<1, 80> name;
    agentry::in_range<int, 0, 120> age;
};

struct flight_search {
    agentry::matching<"^[A-Z]{3}$"> from;
    agentry::matching<"^[A-Z]{3}$"> to;
    agentry::date_string date;
    agentry::sized_vector<passenger, 1, 9> passengers;
    std::optional<cabin> cabin_class;
    static constexpr auto docs = agentry::field_docs(
        "from", "IATA code of the departure airport, e.g. CDG",
        "to", "IATA code of the arrival airport",
        "date", "Departure date",
        "passengers", "Who travels",
        "cabin_class", "Cabin; economy when absent");
};

struct flight {
    std::string number;
    std::string departs;
    double price_eur;
};

std::vector<flight> search_flights(const flight_search& q) {
    return {{"AF1234", std::string(q.date.value) + "T08:10", 129.0}, {"TP433", std::string(q.date.value) + "T17:45", 164.5}};
}

struct forecast_query {
    std::string city;
    std::optional<agentry::in_range<int, 1, 14>> days;
};

struct forecast {
    std::vector<double> max_temperature;
    std::vector<std::string> conditions;
};

forecast get_forecast(const forecast_query& q) {
    const int days = q.days ? q.days->value : 1;
    forecast f;
    for (int d = 0; d < days; ++d) {
        f.max_temperature.push_back(18.5 + d);
        f.conditions.push_back(d == 1 ? "showers" : "sun");
    }
    return f;
}

struct party {
    agentry::in_range<int, 1, 8> adults;
    agentry::in_range<int, 0, 8> children;
};

struct hotel_request {
    std::string city;
    agentry::date_string check_in;
    agentry::in_range<int, 1, 30> nights;
    party guests;
    static constexpr auto docs = agentry::field_docs(
        "city", "City of the hotel",
        "check_in", "Arrival date",
        "nights", "Nights to stay",
        "guests", "Adults and children in the room");
};

struct reservation {
    std::string hotel;
    std::string confirmation;
    double total_eur;
};

reservation book_hotel(const hotel_request& r) {
    if (r.check_in.value == "2026-12-04") throw std::runtime_error("no rooms left on 2026-12-04 in " + r.city);
    return {"Casa do Rio", "LX-" + std::string(r.check_in.value).substr(5, 2) + std::string(r.check_in.value).substr(8, 2),
            92.0 * r.nights.value};
}

double convert_currency(double amount, std::string from, std::string to) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // a slow remote rate service
    if (from == to) return amount;
    if (from == "EUR" && to == "USD") return std::round(amount * 108.0) / 100.0;
    if (from == "USD" && to == "EUR") return std::round(amount / 1.08 * 100.0) / 100.0;
    throw std::invalid_argument("no rate for " + from + " to " + to + "; use EUR or USD");
}

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Find flights between two airports on a date.">(search_flights),
    agentry::tool<"get_forecast", "Weather forecast for a city, up to 14 days ahead.">(get_forecast),
    // A booking changes the world: each one goes to the approver first (see main).
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"book_hotel", "Book a hotel room; fails when the city is sold out that night.">(book_hotel)),
    agentry::tool<"convert_currency", "Convert an amount between currencies (EUR, USD).", "amount", "from", "to">(
        convert_currency),
};

} // namespace travel

namespace {

// The calls of a turn run one after the other, so that the printed run reads in order (with
// .parallel_tool_calls = true they run at once and their lines come as they finish).
constexpr agentry::loop_config config{.max_turns = 8, .tool_timeout = std::chrono::seconds(5)};
using travel_agent = agentry::agent<config>;

constexpr std::string_view system_prompt =
    "You are a travel assistant. Use the tools to plan and book; quote prices in EUR and USD.";

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// The agent for whichever model the environment names, and a line saying which.
std::unique_ptr<travel_agent> make_agent(std::string& which, agentry::agent_options options) {
    options.system_prompt = std::string(system_prompt);
    if (const std::string base = env("AGENTRY_BASE_URL"); !base.empty()) {
        const std::string model = env("AGENTRY_MODEL").empty() ? "demo" : env("AGENTRY_MODEL");
        which = "OpenAI-compatible server at " + base + ", model " + model;
        return std::make_unique<travel_agent>(agentry::openai{.model = model, .http = {.base_url = base}},
                                              travel::tools, std::move(options));
    }
    if (!env("OPENAI_API_KEY").empty()) {
        which = "OpenAI, gpt-4o-mini";
        return std::make_unique<travel_agent>(agentry::openai{.model = "gpt-4o-mini"}, travel::tools,
                                              std::move(options));
    }
    if (!env("ANTHROPIC_API_KEY").empty()) {
        which = "Anthropic, claude-sonnet-4-5";
        return std::make_unique<travel_agent>(agentry::anthropic{.model = "claude-sonnet-4-5"}, travel::tools,
                                              std::move(options));
    }
    if (!env("GEMINI_API_KEY").empty()) {
        which = "Gemini, gemini-2.5-flash";
        return std::make_unique<travel_agent>(agentry::gemini{.model = "gemini-2.5-flash"}, travel::tools,
                                              std::move(options));
    }
    return nullptr;
}

std::string one_line(std::string_view text, std::size_t max = 160) {
    std::string out;
    for (char c : text) out.push_back(c == '\n' ? ' ' : c);
    if (out.size() > max) out = out.substr(0, max) + "...";
    return out;
}

} // namespace

int main(int argc, char** argv) {
    agentry::agent_options options;
    // A real application would ask the traveller; the demo approves stays of at most 7 nights.
    options.approver = [](const agentry::approval_request& call) {
        const auto r = agentry::json::read<travel::hotel_request>(call.arguments);
        const bool short_stay = r.ok() && r.value.nights.value <= 7;
        std::printf("   approval: %.*s %.*s -> %s\n", int(call.tool.size()), call.tool.data(), int(call.arguments.size()),
                    call.arguments.data(), short_stay ? "approved (at most 7 nights)" : "denied (more than 7 nights)");
        return short_stay ? agentry::approval::approve()
                          : agentry::approval::deny("book at most 7 nights without asking the traveller again");
    };

    // Printed as it happens: a turn's streamed text, its token usage, then its tool calls.
    std::uint32_t turn = 1;
    bool header = false, answering = false;
    const auto print_header = [&] {
        if (!header) std::printf("\n-- turn %u\n", turn);
        header = true;
    };
    agentry::agent_events& events = options.events;
    events.on_turn_end = [&](std::uint32_t done, const agentry::token_usage& usage) {
        print_header();
        if (answering) std::printf("\n");
        answering = false;
        std::printf("   tokens: %llu in, %llu out\n", (unsigned long long)usage.input_tokens,
                    (unsigned long long)usage.output_tokens);
        turn = done + 1;
        header = false;
    };
    events.on_tool_start = [](const agentry::tool_call& call) {
        std::printf("   call %s %s\n", call.name.c_str(), call.arguments.c_str());
    };
    events.on_tool_end = [](const agentry::step& s) {
        const double ms = double(s.duration.count()) / 1000.0;
        std::printf("     %s %s after %.1f ms: %s\n", s.tool.c_str(), std::string(agentry::to_string(s.status)).c_str(),
                    ms, one_line(s.result_excerpt).c_str());
        for (const std::string& note : s.repairs) std::printf("     repaired: %s\n", note.c_str());
    };
    events.on_text = [&](std::string_view text) {
        print_header();
        if (!answering) std::printf("   assistant: ");
        answering = true;
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    };
    events.on_retry = [](const agentry::provider_error& e, std::chrono::milliseconds delay) {
        std::printf("   retry in %lld ms: %s\n", (long long)delay.count(), e.message.c_str());
    };

    std::string which;
    const std::unique_ptr<travel_agent> agent = make_agent(which, std::move(options));
    if (!agent) {
        std::fprintf(stderr, "travel_agent: set AGENTRY_BASE_URL (and AGENTRY_MODEL), OPENAI_API_KEY, "
                             "ANTHROPIC_API_KEY or GEMINI_API_KEY; scripts/demo.sh runs it against a local server\n");
        return 2;
    }
    const std::string request = argc > 1 ? argv[1]
                                          : "Plan my trip from Paris (CDG) to Lisbon on 2026-12-04 for Ada Lovelace, 36: "
                                            "flight, a hotel for a few nights, the weather, and the fare in USD.";
    std::printf("model: %s\nuser: %s\n", which.c_str(), request.c_str());

    const agentry::run_result r = agent->run(request);
    std::printf("\n-- %s after %u %s, %zu tool %s, %llu tokens in, %llu out, %lld ms\n",
                std::string(agentry::to_string(r.stop)).c_str(), r.turns, r.turns == 1 ? "turn" : "turns",
                r.steps.size(), r.steps.size() == 1 ? "call" : "calls", (unsigned long long)r.usage.input_tokens,
                (unsigned long long)r.usage.output_tokens, (long long)r.wall_time.count());
    if (r.stop == agentry::stop_reason::completed) {
        std::printf("answer: %s\n", r.text.c_str());
        return 0;
    }
    std::printf("no answer: the run stopped (%s): %s\n", std::string(agentry::to_string(r.stop)).c_str(),
                r.text.c_str());
    return 1;
}
