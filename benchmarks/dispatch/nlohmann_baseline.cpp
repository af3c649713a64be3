// SPDX-License-Identifier: BSL-1.0
// Baseline (a): what a hand-written tool dispatcher on nlohmann::json does. The arguments are
// parsed into a DOM (nlohmann::json, no exceptions), every constraint of the schema is checked
// by hand (std::regex compiled once for the pattern; unknown properties rejected, as
// "additionalProperties": false demands), the struct is filled, the same tool is called and
// its result is built as a nlohmann::json object and dumped. Tools are found by name in a
// std::unordered_map.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <nlohmann/json.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <regex>
#include <unordered_map>

namespace bench::nlohmann_impl {

namespace {

using json = nlohmann::json;

const std::regex& iata_pattern() {
    static const std::regex pattern("^[A-Z]{3}$", std::regex::ECMAScript);
    return pattern;
}

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

/// Checks of one object: its members are looked up by name, counted, and the object is
/// rejected when it has members beyond those.
class checker {
public:
    checker(std::vector<std::string>& errors, std::string_view path) : errors_(errors), path_(path) {}

    void fail(std::string_view field, std::string_view message) {
        std::string text(path_);
        text += '/';
        text += field;
        text += ": ";
        text += message;
        errors_.push_back(std::move(text));
    }

    /// The member `name` of `object`, or null (an error when it is required).
    const json* member(const json& object, const char* name, bool required) {
        const auto it = object.find(name);
        if (it == object.end()) {
            if (required) fail(name, "missing required property");
            return nullptr;
        }
        ++found_;
        return &*it;
    }

    /// Every member of `object` was one of those looked up.
    void no_other_members(const json& object, std::initializer_list<std::string_view> names) {
        if (object.size() == found_) return;
        for (auto it = object.begin(); it != object.end(); ++it) {
            bool known = false;
            for (std::string_view n : names) known = known || it.key() == n;
            if (!known) fail(it.key(), "unknown property");
        }
    }

    template <class Int>
    void integer(const json* v, const char* name, long long lo, long long hi, Int& out) {
        if (v == nullptr) return;
        if (!v->is_number_integer()) return fail(name, "expected an integer");
        long long x = 0;
        if (v->is_number_unsigned()) {
            const std::uint64_t u = v->get<std::uint64_t>();
            if (u > std::uint64_t(hi)) return fail(name, "must be at most " + std::to_string(hi));
            x = static_cast<long long>(u);
        } else {
            x = v->get<std::int64_t>();
        }
        if (x < lo) return fail(name, "must be at least " + std::to_string(lo));
        if (x > hi) return fail(name, "must be at most " + std::to_string(hi));
        out = static_cast<Int>(x);
    }

    void number(const json* v, const char* name, double lo, double hi, double& out) {
        if (v == nullptr) return;
        if (!v->is_number()) return fail(name, "expected a number");
        const double d = v->get<double>();
        if (d < lo) return fail(name, "must be at least " + std::to_string(lo));
        if (d > hi) return fail(name, "must be at most " + std::to_string(hi));
        out = d;
    }

    void boolean(const json* v, const char* name, bool& out) {
        if (v == nullptr) return;
        if (!v->is_boolean()) return fail(name, "expected a boolean");
        out = v->get<bool>();
    }

    /// A string of `min` to `max` code points.
    void string(const json* v, const char* name, std::size_t min, std::size_t max, std::string& out) {
        if (v == nullptr) return;
        if (!v->is_string()) return fail(name, "expected a string");
        const std::string& s = v->get_ref<const std::string&>();
        const std::size_t n = code_points(s);
        if (n < min) return fail(name, "must be at least " + std::to_string(min) + " characters long");
        if (n > max) return fail(name, "must be at most " + std::to_string(max) + " characters long");
        out = s;
    }

    void iata(const json* v, const char* name, std::string& out) {
        if (v == nullptr) return;
        if (!v->is_string()) return fail(name, "expected a string");
        const std::string& s = v->get_ref<const std::string&>();
        if (!std::regex_search(s, iata_pattern())) return fail(name, "must match ^[A-Z]{3}$");
        out = s;
    }

    void cabin(const json* v, const char* name, cabin_class& out) {
        if (v == nullptr) return;
        if (!v->is_string()) return fail(name, "expected a string");
        const std::string& s = v->get_ref<const std::string&>();
        if (s == "economy") out = cabin_class::economy;
        else if (s == "premium_economy") out = cabin_class::premium_economy;
        else if (s == "business") out = cabin_class::business;
        else if (s == "first") out = cabin_class::first;
        else fail(name, "must be one of economy, premium_economy, business, first");
    }

    void window(const json* v, const char* name, hour_window& out) {
        if (v == nullptr) return;
        if (!v->is_object()) return fail(name, "expected an object");
        std::string path(path_);
        path += '/';
        path += name;
        checker c(errors_, path);
        c.integer(c.member(*v, "earliest", true), "earliest", 0, 23, out.earliest.value);
        c.integer(c.member(*v, "latest", true), "latest", 0, 23, out.latest.value);
        c.no_other_members(*v, {"earliest", "latest"});
    }

    void max_stops(const json* v, const char* name, std::optional<agentry::in_range<int, 0, 3>>& out) {
        if (v == nullptr) return;
        int stops = 0;
        const std::size_t before = errors_.size();
        integer(v, name, 0, 3, stops);
        if (errors_.size() == before) out.emplace(stops);
    }

    void priority(const json* v, const char* name, ticket_priority& out) {
        if (v == nullptr) return;
        if (!v->is_string()) return fail(name, "expected a string");
        const std::string& s = v->get_ref<const std::string&>();
        if (s == "low") out = ticket_priority::low;
        else if (s == "normal") out = ticket_priority::normal;
        else if (s == "high") out = ticket_priority::high;
        else if (s == "urgent") out = ticket_priority::urgent;
        else fail(name, "must be one of low, normal, high, urgent");
    }

    void contact(const json* v, const char* name, ticket_contact& out) {
        if (v == nullptr) return;
        if (!v->is_object()) return fail(name, "expected an object");
        std::string path(path_);
        path += '/';
        path += name;
        checker c(errors_, path);
        c.string(c.member(*v, "name", true), "name", 1, 80, out.name.value);
        c.string(c.member(*v, "email", true), "email", 3, 254, out.email.value);
        c.no_other_members(*v, {"name", "email"});
    }

    void due_in_days(const json* v, const char* name, std::optional<agentry::in_range<int, 1, 90>>& out) {
        if (v == nullptr) return;
        int days = 0;
        const std::size_t before = errors_.size();
        integer(v, name, 1, 90, days);
        if (errors_.size() == before) out.emplace(days);
    }

    void airlines(const json* v, const char* name, std::vector<std::string>& out, std::size_t max_items = 5) {
        if (v == nullptr) return;
        if (!v->is_array()) return fail(name, "expected an array");
        if (v->size() > max_items) return fail(name, "must have at most " + std::to_string(max_items) + " items");
        out.clear();
        for (const json& item : *v) {
            if (!item.is_string()) return fail(name, "items must be strings");
            out.push_back(item.get_ref<const std::string&>());
        }
    }

private:
    std::vector<std::string>& errors_;
    std::string_view path_;
    std::size_t found_ = 0;
};

bool parse_object(std::string_view text, json& doc, std::vector<std::string>& errors) {
    doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) {
        errors.push_back("invalid JSON");
        return false;
    }
    if (!doc.is_object()) {
        errors.push_back("expected an object");
        return false;
    }
    return true;
}

parsed<flight_search> read_flight_impl(std::string_view text) {
    parsed<flight_search> r;
    json doc;
    if (!parse_object(text, doc, r.errors)) return r;
    flight_search& f = r.value;
    checker c(r.errors, "");
    c.iata(c.member(doc, "origin", true), "origin", f.origin.value);
    c.cabin(c.member(doc, "cabin", true), "cabin", f.cabin);
    c.integer(c.member(doc, "passengers", true), "passengers", 1, 9, f.passengers.value);
    c.number(c.member(doc, "max_price", true), "max_price", 0, 100000, f.max_price.value);
    c.boolean(c.member(doc, "refundable", true), "refundable", f.refundable);
    c.max_stops(c.member(doc, "max_stops", false), "max_stops", f.max_stops);
    c.airlines(c.member(doc, "airlines", true), "airlines", f.airlines.value);
    c.window(c.member(doc, "depart_window", true), "depart_window", f.depart_window);
    c.string(c.member(doc, "note", true), "note", 0, 120, f.note.value);
    c.no_other_members(doc, {"origin", "cabin", "passengers", "max_price", "refundable", "max_stops", "airlines",
                             "depart_window", "note"});
    return r;
}

parsed<fare_quote> read_fare_impl(std::string_view text) {
    parsed<fare_quote> r;
    json doc;
    if (!parse_object(text, doc, r.errors)) return r;
    fare_quote& f = r.value;
    checker c(r.errors, "");
    c.cabin(c.member(doc, "cabin", true), "cabin", f.cabin);
    c.integer(c.member(doc, "passengers", true), "passengers", 1, 9, f.passengers.value);
    c.number(c.member(doc, "base_fare", true), "base_fare", 0, 100000, f.base_fare.value);
    c.boolean(c.member(doc, "refundable", true), "refundable", f.refundable);
    c.max_stops(c.member(doc, "max_stops", false), "max_stops", f.max_stops);
    c.window(c.member(doc, "depart_window", true), "depart_window", f.depart_window);
    c.no_other_members(doc, {"cabin", "passengers", "base_fare", "refundable", "max_stops", "depart_window"});
    return r;
}

parsed<support_ticket> read_ticket_impl(std::string_view text) {
    parsed<support_ticket> r;
    json doc;
    if (!parse_object(text, doc, r.errors)) return r;
    support_ticket& t = r.value;
    checker c(r.errors, "");
    c.string(c.member(doc, "title", true), "title", 1, 120, t.title.value);
    c.priority(c.member(doc, "priority", true), "priority", t.priority);
    c.due_in_days(c.member(doc, "due_in_days", false), "due_in_days", t.due_in_days);
    c.airlines(c.member(doc, "tags", true), "tags", t.tags.value, 8);
    c.contact(c.member(doc, "requester", true), "requester", t.requester);
    c.integer(c.member(doc, "order_id", true), "order_id", 1, 999999999, t.order_id.value);
    c.number(c.member(doc, "amount", true), "amount", 0, 100000, t.amount.value);
    c.boolean(c.member(doc, "notify", true), "notify", t.notify);
    c.no_other_members(doc, {"title", "priority", "due_in_days", "tags", "requester", "order_id", "amount", "notify"});
    return r;
}

std::string write_receipt(const ticket_receipt& t) {
    json r = json::object();
    r["ticket"] = t.ticket;
    r["queue_position"] = t.queue_position;
    r["notified"] = t.notified;
    return r.dump();
}

std::string write_offer(const flight_offer& o) {
    json r = json::object();
    r["offer_id"] = o.offer_id;
    r["from"] = o.from;
    r["price"] = o.price;
    r["stops"] = o.stops;
    r["refundable"] = o.refundable;
    r["departs"] = o.departs;
    return r.dump();
}

std::string write_total(const fare_total& t) {
    json r = json::object();
    r["total"] = t.total;
    r["taxes"] = t.taxes;
    r["passengers"] = t.passengers;
    r["refundable"] = t.refundable;
    return r.dump();
}

std::string join(const std::vector<std::string>& errors) {
    std::string text = "invalid arguments: ";
    for (std::size_t i = 0; i != errors.size(); ++i) {
        if (i != 0) text += "; ";
        text += errors[i];
    }
    return text;
}

outcome call_search_flights(std::string_view arguments) {
    parsed<flight_search> args = read_flight_impl(arguments);
    if (!args.ok()) return {false, join(args.errors)};
    return {true, write_offer(search_flights(args.value))};
}

outcome call_quote_fare(std::string_view arguments) {
    parsed<fare_quote> args = read_fare_impl(arguments);
    if (!args.ok()) return {false, join(args.errors)};
    return {true, write_total(quote_fare(args.value))};
}

outcome call_open_ticket(std::string_view arguments) {
    parsed<support_ticket> args = read_ticket_impl(arguments);
    if (!args.ok()) return {false, join(args.errors)};
    return {true, write_receipt(open_ticket(args.value))};
}

using handler = outcome (*)(std::string_view);

const std::unordered_map<std::string_view, handler>& handlers() {
    static const std::unordered_map<std::string_view, handler> table{
        {"search_flights", &call_search_flights},
        {"quote_fare", &call_quote_fare},
        {"open_ticket", &call_open_ticket},
    };
    return table;
}

outcome call_impl(std::string_view tool, std::string_view arguments) {
    const auto it = handlers().find(tool);
    if (it == handlers().end()) return {false, "unknown tool"};
    return it->second(arguments);
}

void read_flight_case(benchmark::State& state) {
    measure(state, [] { return read_flight_impl(opaque(flight_args)); });
}
void read_fare_case(benchmark::State& state) {
    measure(state, [] { return read_fare_impl(opaque(fare_args)); });
}
void call_flight_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("search_flights")), opaque(flight_args)); });
}
void call_fare_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("quote_fare")), opaque(fare_args)); });
}
void read_ticket_case(benchmark::State& state) {
    measure(state, [] { return read_ticket_impl(opaque(ticket_args)); });
}
void call_ticket_case(benchmark::State& state) {
    measure(state, [] { return call_impl(opaque(std::string_view("open_ticket")), opaque(ticket_args)); });
}
void write_offer_case(benchmark::State& state) {
    const flight_offer offer = search_flights(read_flight_impl(opaque(flight_args)).value);
    measure(state, [&] { return write_offer(offer); });
}
void write_total_case(benchmark::State& state) {
    const fare_total total = quote_fare(read_fare_impl(opaque(fare_args)).value);
    measure(state, [&] { return write_total(total); });
}

} // namespace

parsed<flight_search> read_flight(std::string_view text) { return read_flight_impl(text); }
parsed<fare_quote> read_fare(std::string_view text) { return read_fare_impl(text); }
parsed<support_ticket> read_ticket(std::string_view text) { return read_ticket_impl(text); }
outcome call(std::string_view tool, std::string_view arguments) { return call_impl(tool, arguments); }

void register_benchmarks() {
    benchmark::RegisterBenchmark("nlohmann/read/flight_search", read_flight_case);
    benchmark::RegisterBenchmark("nlohmann/call/flight_search", call_flight_case);
    benchmark::RegisterBenchmark("nlohmann/write/flight_search", write_offer_case);
    benchmark::RegisterBenchmark("nlohmann/read/fare_quote", read_fare_case);
    benchmark::RegisterBenchmark("nlohmann/call/fare_quote", call_fare_case);
    benchmark::RegisterBenchmark("nlohmann/write/fare_quote", write_total_case);
    benchmark::RegisterBenchmark("nlohmann/read/ticket", read_ticket_case);
    benchmark::RegisterBenchmark("nlohmann/call/ticket", call_ticket_case);
}

} // namespace bench::nlohmann_impl
