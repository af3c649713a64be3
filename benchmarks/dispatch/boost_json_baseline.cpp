// SPDX-License-Identifier: BSL-1.0
// Baseline (b): the same hand-written dispatcher as nlohmann_baseline.cpp, on Boost.JSON,
// header-only (boost/json/src.hpp is compiled in this translation unit). The arguments are
// parsed into a boost::json::value with the default memory resource (error_code, no
// exceptions), every constraint is checked by hand (std::regex compiled once for the
// pattern; unknown properties rejected), the struct is filled, the same tool is called and its
// result is built as a boost::json::object and serialised.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <boost/json.hpp>
#include <boost/json/src.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <regex>
#include <unordered_map>

namespace bench::boost_json_impl {

namespace {

namespace json = boost::json;

const std::regex& iata_pattern() {
    static const std::regex pattern("^[A-Z]{3}$", std::regex::ECMAScript);
    return pattern;
}

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::string_view view(const json::string& s) noexcept { return {s.data(), s.size()}; }

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
    const json::value* member(const json::object& object, const char* name, bool required) {
        const json::value* v = object.if_contains(name);
        if (v == nullptr) {
            if (required) fail(name, "missing required property");
            return nullptr;
        }
        ++found_;
        return v;
    }

    /// Every member of `object` was one of those looked up.
    void no_other_members(const json::object& object, std::initializer_list<std::string_view> names) {
        if (object.size() == found_) return;
        for (const json::key_value_pair& m : object) {
            const std::string_view key(m.key().data(), m.key().size());
            bool known = false;
            for (std::string_view n : names) known = known || key == n;
            if (!known) fail(key, "unknown property");
        }
    }

    template <class Int>
    void integer(const json::value* v, const char* name, long long lo, long long hi, Int& out) {
        if (v == nullptr) return;
        long long x = 0;
        if (v->is_int64()) {
            x = v->get_int64();
        } else if (v->is_uint64()) {
            const std::uint64_t u = v->get_uint64();
            if (u > std::uint64_t(hi)) return fail(name, "must be at most " + std::to_string(hi));
            x = static_cast<long long>(u);
        } else {
            return fail(name, "expected an integer");
        }
        if (x < lo) return fail(name, "must be at least " + std::to_string(lo));
        if (x > hi) return fail(name, "must be at most " + std::to_string(hi));
        out = static_cast<Int>(x);
    }

    void number(const json::value* v, const char* name, double lo, double hi, double& out) {
        if (v == nullptr) return;
        double d = 0;
        if (v->is_double()) d = v->get_double();
        else if (v->is_int64()) d = double(v->get_int64());
        else if (v->is_uint64()) d = double(v->get_uint64());
        else return fail(name, "expected a number");
        if (d < lo) return fail(name, "must be at least " + std::to_string(lo));
        if (d > hi) return fail(name, "must be at most " + std::to_string(hi));
        out = d;
    }

    void boolean(const json::value* v, const char* name, bool& out) {
        if (v == nullptr) return;
        if (!v->is_bool()) return fail(name, "expected a boolean");
        out = v->get_bool();
    }

    /// A string of `min` to `max` code points.
    void string(const json::value* v, const char* name, std::size_t min, std::size_t max, std::string& out) {
        if (v == nullptr) return;
        const json::string* s = v->if_string();
        if (s == nullptr) return fail(name, "expected a string");
        const std::size_t n = code_points(view(*s));
        if (n < min) return fail(name, "must be at least " + std::to_string(min) + " characters long");
        if (n > max) return fail(name, "must be at most " + std::to_string(max) + " characters long");
        out.assign(s->data(), s->size());
    }

    void iata(const json::value* v, const char* name, std::string& out) {
        if (v == nullptr) return;
        const json::string* s = v->if_string();
        if (s == nullptr) return fail(name, "expected a string");
        if (!std::regex_search(s->begin(), s->end(), iata_pattern())) return fail(name, "must match ^[A-Z]{3}$");
        out.assign(s->data(), s->size());
    }

    void cabin(const json::value* v, const char* name, cabin_class& out) {
        if (v == nullptr) return;
        const json::string* str = v->if_string();
        if (str == nullptr) return fail(name, "expected a string");
        const std::string_view s = view(*str);
        if (s == "economy") out = cabin_class::economy;
        else if (s == "premium_economy") out = cabin_class::premium_economy;
        else if (s == "business") out = cabin_class::business;
        else if (s == "first") out = cabin_class::first;
        else fail(name, "must be one of economy, premium_economy, business, first");
    }

    void window(const json::value* v, const char* name, hour_window& out) {
        if (v == nullptr) return;
        const json::object* o = v->if_object();
        if (o == nullptr) return fail(name, "expected an object");
        std::string path(path_);
        path += '/';
        path += name;
        checker c(errors_, path);
        c.integer(c.member(*o, "earliest", true), "earliest", 0, 23, out.earliest.value);
        c.integer(c.member(*o, "latest", true), "latest", 0, 23, out.latest.value);
        c.no_other_members(*o, {"earliest", "latest"});
    }

    void max_stops(const json::value* v, const char* name, std::optional<agentry::in_range<int, 0, 3>>& out) {
        if (v == nullptr) return;
        int stops = 0;
        const std::size_t before = errors_.size();
        integer(v, name, 0, 3, stops);
        if (errors_.size() == before) out.emplace(stops);
    }

    void airlines(const json::value* v, const char* name, std::vector<std::string>& out) {
        if (v == nullptr) return;
        const json::array* a = v->if_array();
        if (a == nullptr) return fail(name, "expected an array");
        if (a->size() > 5) return fail(name, "must have at most 5 items");
        out.clear();
        for (const json::value& item : *a) {
            const json::string* s = item.if_string();
            if (s == nullptr) return fail(name, "items must be strings");
            out.emplace_back(s->data(), s->size());
        }
    }

private:
    std::vector<std::string>& errors_;
    std::string_view path_;
    std::size_t found_ = 0;
};

const json::object* parse_object(std::string_view text, json::value& doc, std::vector<std::string>& errors) {
    boost::system::error_code ec;
    doc = json::parse(json::string_view(text.data(), text.size()), ec);
    if (ec) {
        errors.push_back("invalid JSON");
        return nullptr;
    }
    const json::object* object = doc.if_object();
    if (object == nullptr) errors.push_back("expected an object");
    return object;
}

parsed<flight_search> read_flight_impl(std::string_view text) {
    parsed<flight_search> r;
    json::value doc;
    const json::object* o = parse_object(text, doc, r.errors);
    if (o == nullptr) return r;
    const json::object& doc_object = *o;
    flight_search& f = r.value;
    checker c(r.errors, "");
    c.iata(c.member(doc_object, "origin", true), "origin", f.origin.value);
    c.cabin(c.member(doc_object, "cabin", true), "cabin", f.cabin);
    c.integer(c.member(doc_object, "passengers", true), "passengers", 1, 9, f.passengers.value);
    c.number(c.member(doc_object, "max_price", true), "max_price", 0, 100000, f.max_price.value);
    c.boolean(c.member(doc_object, "refundable", true), "refundable", f.refundable);
    c.max_stops(c.member(doc_object, "max_stops", false), "max_stops", f.max_stops);
    c.airlines(c.member(doc_object, "airlines", true), "airlines", f.airlines.value);
    c.window(c.member(doc_object, "depart_window", true), "depart_window", f.depart_window);
    c.string(c.member(doc_object, "note", true), "note", 0, 120, f.note.value);
    c.no_other_members(doc_object, {"origin", "cabin", "passengers", "max_price", "refundable", "max_stops",
                                    "airlines", "depart_window", "note"});
    return r;
}

parsed<fare_quote> read_fare_impl(std::string_view text) {
    parsed<fare_quote> r;
    json::value doc;
    const json::object* o = parse_object(text, doc, r.errors);
    if (o == nullptr) return r;
    const json::object& doc_object = *o;
    fare_quote& f = r.value;
    checker c(r.errors, "");
    c.cabin(c.member(doc_object, "cabin", true), "cabin", f.cabin);
    c.integer(c.member(doc_object, "passengers", true), "passengers", 1, 9, f.passengers.value);
    c.number(c.member(doc_object, "base_fare", true), "base_fare", 0, 100000, f.base_fare.value);
    c.boolean(c.member(doc_object, "refundable", true), "refundable", f.refundable);
    c.max_stops(c.member(doc_object, "max_stops", false), "max_stops", f.max_stops);
    c.window(c.member(doc_object, "depart_window", true), "depart_window", f.depart_window);
    c.no_other_members(doc_object, {"cabin", "passengers", "base_fare", "refundable", "max_stops", "depart_window"});
    return r;
}

std::string write_offer(const flight_offer& o) {
    json::object r;
    r["offer_id"] = json::string_view(o.offer_id.data(), o.offer_id.size());
    r["from"] = json::string_view(o.from.data(), o.from.size());
    r["price"] = o.price;
    r["stops"] = o.stops;
    r["refundable"] = o.refundable;
    r["departs"] = json::string_view(o.departs.data(), o.departs.size());
    return json::serialize(r);
}

std::string write_total(const fare_total& t) {
    json::object r;
    r["total"] = t.total;
    r["taxes"] = t.taxes;
    r["passengers"] = t.passengers;
    r["refundable"] = t.refundable;
    return json::serialize(r);
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

using handler = outcome (*)(std::string_view);

const std::unordered_map<std::string_view, handler>& handlers() {
    static const std::unordered_map<std::string_view, handler> table{
        {"search_flights", &call_search_flights},
        {"quote_fare", &call_quote_fare},
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
outcome call(std::string_view tool, std::string_view arguments) { return call_impl(tool, arguments); }

void register_benchmarks() {
    benchmark::RegisterBenchmark("boost_json/read/flight_search", read_flight_case);
    benchmark::RegisterBenchmark("boost_json/call/flight_search", call_flight_case);
    benchmark::RegisterBenchmark("boost_json/write/flight_search", write_offer_case);
    benchmark::RegisterBenchmark("boost_json/read/fare_quote", read_fare_case);
    benchmark::RegisterBenchmark("boost_json/call/fare_quote", call_fare_case);
    benchmark::RegisterBenchmark("boost_json/write/fare_quote", write_total_case);
}

} // namespace bench::boost_json_impl
