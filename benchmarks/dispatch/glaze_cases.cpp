// SPDX-License-Identifier: BSL-1.0
// Baseline (c), built only when CMake is given a glaze checkout (AGENTRY_BENCH_GLAZE_DIR for
// the C++20 binary, AGENTRY_BENCH_GLAZE_CXX23_DIR for the -std=c++2b one). glaze reads the
// arguments into plain mirror structs (it cannot read agentry::constrained, a struct with a
// `value` member, as a bare value); then what the schema states and glaze does not check is
// checked by hand: the pattern, the ranges, string lengths in code points, the number of
// items. glaze itself rejects unknown keys and, with error_on_missing_keys, missing required
// ones. The tool is found by comparing names, the same tool is called, and its result is
// written by glz::write_json.
//
// glaze checks less than the others here (the self-test prints the invalid arguments it
// accepts); the run-time comparison is therefore generous to glaze.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <glaze/glaze.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

template <>
struct glz::meta<bench::cabin_class> {
    using enum bench::cabin_class;
    static constexpr auto value =
        enumerate("economy", economy, "premium_economy", premium_economy, "business", business, "first", first);
};

template <>
struct glz::meta<bench::ticket_priority> {
    using enum bench::ticket_priority;
    static constexpr auto value = enumerate("low", low, "normal", normal, "high", high, "urgent", urgent);
};

namespace bench::glaze_impl {

namespace {

struct mirror_window {
    int earliest;
    int latest;
};

struct mirror_flight {
    std::string origin;
    cabin_class cabin;
    int passengers;
    double max_price;
    bool refundable;
    std::optional<int> max_stops;
    std::vector<std::string> airlines;
    mirror_window depart_window;
    std::string note;
};

struct mirror_fare {
    cabin_class cabin;
    int passengers;
    double base_fare;
    bool refundable;
    std::optional<int> max_stops;
    mirror_window depart_window;
};

struct mirror_contact {
    std::string name;
    std::string email;
};

struct mirror_ticket {
    std::string title;
    ticket_priority priority;
    std::optional<int> due_in_days;
    std::vector<std::string> tags;
    mirror_contact requester;
    std::int64_t order_id;
    double amount;
    bool notify;
};

constexpr glz::opts read_opts{.error_on_missing_keys = true};

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

/// The checks glaze does not make, each adding a message to `errors` when it fails.
struct checks {
    std::vector<std::string>& errors;

    void range(std::string_view name, double v, double lo, double hi) {
        if (v < lo || v > hi) errors.push_back(std::string(name) + ": out of range");
    }
    void length(std::string_view name, std::string_view s, std::size_t lo, std::size_t hi) {
        const std::size_t n = code_points(s);
        if (n < lo || n > hi) errors.push_back(std::string(name) + ": bad length");
    }
    void items(std::string_view name, std::size_t n, std::size_t hi) {
        if (n > hi) errors.push_back(std::string(name) + ": too many items");
    }
    void window(const mirror_window& w) {
        range("/depart_window/earliest", w.earliest, 0, 23);
        range("/depart_window/latest", w.latest, 0, 23);
    }
};

/// ^[A-Z]{3}$
bool iata(std::string_view s) noexcept {
    return s.size() == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && s[2] >= 'A' && s[2] <= 'Z';
}

template <class T>
bool read_into(T& value, std::string_view text, std::vector<std::string>& errors) {
    const auto ec = glz::read<read_opts>(value, text);
    if (ec) {
        errors.push_back("glaze: invalid arguments (error " + std::to_string(int(ec.ec)) + ")");
        return false;
    }
    return true;
}

parsed<mirror_flight> read_flight_mirror(std::string_view text) {
    parsed<mirror_flight> r;
    if (!read_into(r.value, text, r.errors)) return r;
    const mirror_flight& f = r.value;
    checks c{r.errors};
    if (!iata(f.origin)) r.errors.push_back("/origin: must match ^[A-Z]{3}$");
    c.range("/passengers", f.passengers, 1, 9);
    c.range("/max_price", f.max_price, 0, 100000);
    if (f.max_stops) c.range("/max_stops", *f.max_stops, 0, 3);
    c.items("/airlines", f.airlines.size(), 5);
    c.window(f.depart_window);
    c.length("/note", f.note, 0, 120);
    return r;
}

parsed<mirror_fare> read_fare_mirror(std::string_view text) {
    parsed<mirror_fare> r;
    if (!read_into(r.value, text, r.errors)) return r;
    const mirror_fare& f = r.value;
    checks c{r.errors};
    c.range("/passengers", f.passengers, 1, 9);
    c.range("/base_fare", f.base_fare, 0, 100000);
    if (f.max_stops) c.range("/max_stops", *f.max_stops, 0, 3);
    c.window(f.depart_window);
    return r;
}

parsed<mirror_ticket> read_ticket_mirror(std::string_view text) {
    parsed<mirror_ticket> r;
    if (!read_into(r.value, text, r.errors)) return r;
    const mirror_ticket& t = r.value;
    checks c{r.errors};
    c.length("/title", t.title, 1, 120);
    if (t.due_in_days) c.range("/due_in_days", *t.due_in_days, 1, 90);
    c.items("/tags", t.tags.size(), 8);
    c.length("/requester/name", t.requester.name, 1, 80);
    c.length("/requester/email", t.requester.email, 3, 254);
    if (t.order_id < 1 || t.order_id > 999999999) r.errors.push_back("/order_id: out of range");
    c.range("/amount", t.amount, 0, 100000);
    return r;
}

hour_window convert(const mirror_window& w) { return {{w.earliest}, {w.latest}}; }

flight_search convert(mirror_flight&& m) {
    flight_search f{};
    f.origin.value = std::move(m.origin);
    f.cabin = m.cabin;
    f.passengers.value = m.passengers;
    f.max_price.value = m.max_price;
    f.refundable = m.refundable;
    if (m.max_stops) f.max_stops.emplace(*m.max_stops);
    f.airlines.value = std::move(m.airlines);
    f.depart_window = convert(m.depart_window);
    f.note.value = std::move(m.note);
    return f;
}

fare_quote convert(mirror_fare&& m) {
    fare_quote f{};
    f.cabin = m.cabin;
    f.passengers.value = m.passengers;
    f.base_fare.value = m.base_fare;
    f.refundable = m.refundable;
    if (m.max_stops) f.max_stops.emplace(*m.max_stops);
    f.depart_window = convert(m.depart_window);
    return f;
}

support_ticket convert(mirror_ticket&& m) {
    support_ticket t{};
    t.title.value = std::move(m.title);
    t.priority = m.priority;
    if (m.due_in_days) t.due_in_days.emplace(*m.due_in_days);
    t.tags.value = std::move(m.tags);
    t.requester.name.value = std::move(m.requester.name);
    t.requester.email.value = std::move(m.requester.email);
    t.order_id.value = m.order_id;
    t.amount.value = m.amount;
    t.notify = m.notify;
    return t;
}

template <class M>
auto converted(parsed<M>&& m) {
    parsed<decltype(convert(std::move(m.value)))> r;
    r.errors = std::move(m.errors);
    if (r.ok()) r.value = convert(std::move(m.value));
    return r;
}

template <class Result>
outcome written(const Result& result) {
    outcome o{true, {}};
    (void)glz::write_json(result, o.content);
    return o;
}

std::string join(const std::vector<std::string>& errors) {
    std::string text = "invalid arguments: ";
    for (std::size_t i = 0; i != errors.size(); ++i) {
        if (i != 0) text += "; ";
        text += errors[i];
    }
    return text;
}

template <class Read, class Tool>
outcome dispatch(std::string_view arguments, Read read, Tool tool) {
    auto args = read(arguments);
    if (!args.ok()) return {false, join(args.errors)};
    return written(tool(convert(std::move(args.value))));
}

outcome call_impl(std::string_view tool, std::string_view arguments) {
    if (tool == "search_flights") return dispatch(arguments, read_flight_mirror, search_flights);
    if (tool == "quote_fare") return dispatch(arguments, read_fare_mirror, quote_fare);
    if (tool == "open_ticket") return dispatch(arguments, read_ticket_mirror, open_ticket);
    return {false, "unknown tool"};
}

void read_flight_case(benchmark::State& state) {
    measure(state, [] { return read_flight_mirror(opaque(flight_args)); });
}
void read_fare_case(benchmark::State& state) {
    measure(state, [] { return read_fare_mirror(opaque(fare_args)); });
}
void read_ticket_case(benchmark::State& state) {
    measure(state, [] { return read_ticket_mirror(opaque(ticket_args)); });
}
void call_flight_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("search_flights")), opaque(flight_args)); });
}
void call_fare_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("quote_fare")), opaque(fare_args)); });
}
void call_ticket_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("open_ticket")), opaque(ticket_args)); });
}

} // namespace

parsed<flight_search> read_flight(std::string_view text) { return converted(read_flight_mirror(text)); }
parsed<fare_quote> read_fare(std::string_view text) { return converted(read_fare_mirror(text)); }
parsed<support_ticket> read_ticket(std::string_view text) { return converted(read_ticket_mirror(text)); }
outcome call(std::string_view tool, std::string_view arguments) { return call_impl(tool, arguments); }

void register_benchmarks() {
    const std::string who = BENCH_GLAZE;
    benchmark::RegisterBenchmark((who + "/read/flight_search").c_str(), read_flight_case);
    benchmark::RegisterBenchmark((who + "/call/flight_search").c_str(), call_flight_case);
    benchmark::RegisterBenchmark((who + "/read/fare_quote").c_str(), read_fare_case);
    benchmark::RegisterBenchmark((who + "/call/fare_quote").c_str(), call_fare_case);
    benchmark::RegisterBenchmark((who + "/read/ticket").c_str(), read_ticket_case);
    benchmark::RegisterBenchmark((who + "/call/ticket").c_str(), call_ticket_case);
}

} // namespace bench::glaze_impl
