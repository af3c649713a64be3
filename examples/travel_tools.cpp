// SPDX-License-Identifier: BSL-1.0
// The tools of a travel assistant, and what each model provider is sent for them.
// Run: travel_tools [dialect]   (standard, openai, openai_strict, anthropic, anthropic_strict, gemini, mcp)

#include <agentry/agentry.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
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
        "from", "IATA code of the departure airport",
        "to", "IATA code of the arrival airport",
        "date", "Departure date",
        "cabin_class", "Cabin; economy when absent");
};

struct flight {
    std::string number;
    std::string departs;
    double price_eur;
};

std::vector<flight> search_flights(const flight_search&) { return {{"AF1234", "2026-12-01T08:10", 129.0}}; }

struct weather_query {
    std::string city;
    std::optional<agentry::in_range<int, 1, 14>> days;
};

struct forecast {
    std::vector<double> max_temperature;
    std::vector<std::string> conditions;
};

forecast get_forecast(const weather_query&) { return {{11.5}, {"rain"}}; }

struct booking_desk {
    std::string book(std::string flight_number, std::string passenger_name) {
        return flight_number + " booked for " + passenger_name;
    }
};

booking_desk desk;

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Find flights between two airports on a date.">(search_flights),
    agentry::tool<"get_forecast", "Weather forecast for a city, up to 14 days ahead.">(get_forecast),
    agentry::tool<"convert_currency", "Convert an amount between ISO 4217 currencies.", "amount", "from", "to">(
        +[](double amount, std::string, std::string) { return amount * 1.08; }),
    agentry::tool<"book_flight", "Book a seat on a flight found by search_flights.", "flight_number", "passenger">(
        &booking_desk::book, &desk),
};

} // namespace travel

namespace {

// Indents compact JSON for reading; strings are copied as they are.
void print_indented(std::string_view json) {
    int depth = 0;
    const auto newline = [&] {
        std::putchar('\n');
        for (int i = 0; i < depth; ++i) std::fputs("  ", stdout);
    };
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '"') {
            std::size_t end = i + 1;
            while (json[end] != '"') end += json[end] == '\\' ? 2 : 1;
            std::fwrite(json.data() + i, 1, end + 1 - i, stdout);
            i = end;
        } else if (c == '{' || c == '[') {
            std::putchar(c);
            if (json[i + 1] == '}' || json[i + 1] == ']') {
                std::putchar(json[++i]);
            } else {
                ++depth;
                newline();
            }
        } else if (c == '}' || c == ']') {
            --depth;
            newline();
            std::putchar(c);
        } else if (c == ',') {
            std::putchar(c);
            newline();
        } else if (c == ':') {
            std::fputs(": ", stdout);
        } else {
            std::putchar(c);
        }
    }
    std::putchar('\n');
}

template <class D>
void show(std::string_view wanted) {
    if (!wanted.empty() && wanted != D::rules.name) return;
    const std::string_view name = D::rules.name;
    std::printf("== %.*s ==\n", int(name.size()), name.data());
    print_indented(travel::tools.definitions<D>());
    std::putchar('\n');
}

} // namespace

int main(int argc, char** argv) {
    using namespace agentry::dialect;
    const std::string_view wanted = argc > 1 ? argv[1] : "";
    std::printf("%zu tools; their definitions were computed by the compiler.\n\n", travel::tools.size());
    show<openai_strict>(wanted);
    show<anthropic>(wanted);
    show<gemini>(wanted);
    show<mcp>(wanted);
    if (!wanted.empty()) {
        show<standard>(wanted);
        show<openai>(wanted);
        show<anthropic_strict>(wanted);
    }
}
