// SPDX-License-Identifier: BSL-1.0
// Constraint types. The first input byte picks the type and the repairs, the rest is the
// arguments text:
//
//   byte & 3:  0 numeric_constraints, 1 string_constraints, 2 sequences, 3 formats
//   byte & 4:  number_in_string repair
//   byte & 8:  json_in_string repair
//   byte & 64: instead, a type of tests/fixtures/differential.hpp, (byte & 3) | (byte >> 5 & 4):
//              int_edges, double_edges, float_edges, decimal_multiples, string_edges,
//              patterns, sequence_edges, unique_structs
//
// ('0' to '3' pick a type with no repair, 'p' to 's' the first four differential types, so
// seed files stay readable.)
//
// Checked: an accepted value meets every constraint of its type, computed here independently;
// without repairs, accepted values are those an independent parser reads from the text, and
// (numbers and strings) a text that meets every constraint is accepted; values round-trip
// through the writer.

#include "fuzz_common.hpp"

#include <differential.hpp>
#include <fixtures.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

using fuzz::jvalue;

// The value of a JSON number text as strtod reads it (correctly rounded, inf on overflow).
double number_value(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

// The int a JSON number text denotes exactly, if it is an integer within int's range.
std::optional<int> int_of(const std::string& text) {
    const fuzz::exact_int e = fuzz::exact_integer_of(text);
    if (!e.value || *e.value < std::numeric_limits<int>::min() || *e.value > std::numeric_limits<int>::max())
        return std::nullopt;
    return int(*e.value);
}

// Whether a JSON number text is an exact multiple of 0.01; empty when it has more than 15
// significant digits or an exponent beyond 10^8 (agentry then decides in double arithmetic:
// 921e-400000000 reads as 0, a multiple of anything, as in JavaScript).
std::optional<bool> multiple_of_hundredth(std::string_view t) {
    std::size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    std::string digits;
    long long int_len = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++int_len) digits += t[i];
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) digits += t[i];
    long long e = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool minus = false;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) minus = t[i++] == '-';
        for (; i < t.size(); ++i) e = std::min(e * 10 + (t[i] - '0'), 100000000LL);
        if (e == 100000000LL) return std::nullopt;
        if (minus) e = -e;
    }
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos) return true;  // zero
    const auto last = digits.find_last_not_of('0');
    if (last - first + 1 > 15) return std::nullopt;
    // The weight of digit `last` is 10^(int_len + e - 1 - last).
    return int_len + e - 1 - (long long)last >= -2;
}

// Significant digits of a number text: from the first nonzero digit to the last.
std::size_t significant_digits(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (c == 'e' || c == 'E') break;
        if (c >= '0' && c <= '9') digits += c;
    }
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 0;
    return digits.find_last_not_of('0') - first + 1;
}

// ---- numeric_constraints ------------------------------------------------------------------

void check(const fixtures::numeric_constraints& v) {
    FUZZ_CHECK(v.count.value >= 1 && v.count.value <= 10, std::to_string(v.count.value));
    FUZZ_CHECK(v.probability.value > 0 && v.probability.value < 1, std::to_string(v.probability.value));
    FUZZ_CHECK(v.latitude.value >= -90 && v.latitude.value <= 90, std::to_string(v.latitude.value));
    FUZZ_CHECK(v.step.value % 5 == 0, std::to_string(v.step.value));
    FUZZ_CHECK(std::isfinite(v.price.value) && v.price.value >= 0, std::to_string(v.price.value));
}

void compare(const fixtures::numeric_constraints* v, const std::optional<jvalue>& doc, bool number_strings, const std::string& errors) {
    // What the text holds, read independently.
    bool fits = doc && doc->type == jvalue::object && doc->keys.size() == 5;
    const char* names[] = {"count", "probability", "latitude", "step", "price"};
    double numbers[5] = {};
    const std::string* texts[5] = {};
    for (int i = 0; fits && i != 5; ++i) {
        const jvalue* m = doc->find(names[i]);
        fits = m && (m->type == jvalue::number || (number_strings && m->type == jvalue::string)) &&
               doc->count(names[i]) == 1;
        if (fits) {
            texts[i] = &m->text;
            numbers[i] = number_value(m->text);
        }
    }
    if (v) {
        // Accepted: each field holds the number of its text.
        FUZZ_CHECK(fits, "accepted, but the text is not an object of five numbers");
        FUZZ_CHECK(int_of(*texts[0]) == v->count.value,
                   *texts[0] + " read as " + std::to_string(v->count.value));
        // A text inside (0, 1) whose nearest double is a bound reads as the next double inside.
        const double probability = numbers[1] == 0 ? std::nextafter(0.0, 1.0)
                                                   : (numbers[1] == 1 ? std::nextafter(1.0, 0.0) : numbers[1]);
        FUZZ_CHECK(v->probability.value == probability, *texts[1]);
        FUZZ_CHECK(v->latitude.value == numbers[2], *texts[2]);
        FUZZ_CHECK(int_of(*texts[3]) == v->step.value,
                   *texts[3] + " read as " + std::to_string(v->step.value));
        FUZZ_CHECK(v->price.value == numbers[4], *texts[4]);
        const auto hundredth = multiple_of_hundredth(*texts[4]);
        if (hundredth) FUZZ_CHECK(*hundredth, *texts[4]);
        return;
    }
    if (!fits || number_strings) return;
    // Rejected: then some constraint must fail. Bounds are exact, so doubles decide only for
    // texts of at most 15 significant digits.
    for (int i = 1; i != 5; ++i)
        if (significant_digits(*texts[i]) > 15) return;
    const auto hundredth = multiple_of_hundredth(*texts[4]);
    if (!hundredth) return;
    const auto count = int_of(*texts[0]);
    const auto step = int_of(*texts[3]);
    const bool valid = count && *count >= 1 && *count <= 10 &&  //
                       std::isfinite(numbers[1]) && numbers[1] > 0 && numbers[1] < 1 &&  //
                       std::isfinite(numbers[2]) && numbers[2] >= -90 && numbers[2] <= 90 &&  //
                       step && *step % 5 == 0 &&  //
                       std::isfinite(numbers[4]) && numbers[4] >= 0 && *hundredth;
    FUZZ_CHECK(!valid, "a text meeting every constraint was rejected: " + errors);
}

// ---- string_constraints -------------------------------------------------------------------

void check(const fixtures::string_constraints& v) {
    for (const std::string* s : {&v.name.value, &v.airport.value, &v.message.value})
        FUZZ_CHECK(fuzz::valid_utf8(*s), *s);
    const std::size_t name = fuzz::code_point_count(v.name.value);
    FUZZ_CHECK(name >= 1 && name <= 64, v.name.value);
    const std::string& a = v.airport.value;
    FUZZ_CHECK(a.size() == 3 && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos, a);
    FUZZ_CHECK(fuzz::code_point_count(v.message.value) <= 280, v.message.value);
}

void compare(const fixtures::string_constraints* v, const std::optional<jvalue>& doc, bool, const std::string& errors) {
    bool fits = doc && doc->type == jvalue::object && doc->keys.size() == 3;
    const char* names[] = {"name", "airport", "message"};
    const std::string* texts[3] = {};
    for (int i = 0; fits && i != 3; ++i) {
        const jvalue* m = doc->find(names[i]);
        fits = m && m->type == jvalue::string && doc->count(names[i]) == 1;
        if (fits) texts[i] = &m->text;
    }
    if (v) {
        FUZZ_CHECK(fits, "accepted, but the text is not an object of three strings");
        FUZZ_CHECK(v->name.value == *texts[0], v->name.value);
        FUZZ_CHECK(v->airport.value == *texts[1], v->airport.value);
        FUZZ_CHECK(v->message.value == *texts[2], v->message.value);
        return;
    }
    if (!fits) return;
    const std::size_t name = fuzz::code_point_count(*texts[0]);
    const std::string& a = *texts[1];
    const bool valid = name >= 1 && name <= 64 && a.size() == 3 &&
                       a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos &&
                       fuzz::code_point_count(*texts[2]) <= 280;
    FUZZ_CHECK(!valid, "a text meeting every constraint was rejected: " + errors);
}

// ---- sequences ----------------------------------------------------------------------------

void check(const fixtures::sequences& v) {
    for (const auto& s : v.tags) FUZZ_CHECK(fuzz::valid_utf8(s), s);
    for (const auto& s : v.recipients.value) FUZZ_CHECK(fuzz::valid_utf8(s), s);
    FUZZ_CHECK(v.recipients.value.size() >= 1 && v.recipients.value.size() <= 5,
               std::to_string(v.recipients.value.size()));
    for (double d : v.position) FUZZ_CHECK(std::isfinite(d), std::to_string(d));
}

bool strings_equal(const std::vector<std::string>& values, const jvalue& array) {
    if (array.type != jvalue::array || array.items.size() != values.size()) return false;
    for (std::size_t i = 0; i != values.size(); ++i)
        if (array.items[i].type != jvalue::string || array.items[i].text != values[i]) return false;
    return true;
}

void compare(const fixtures::sequences* v, const std::optional<jvalue>& doc, bool number_strings, const std::string&) {
    if (!v) return;
    FUZZ_CHECK(doc && doc->type == jvalue::object && doc->keys.size() == 4, "accepted, but not 4 members");
    const jvalue* tags = doc->find("tags");
    const jvalue* position = doc->find("position");
    const jvalue* ids = doc->find("ids");
    const jvalue* recipients = doc->find("recipients");
    FUZZ_CHECK(tags && position && ids && recipients, "a member is missing");
    FUZZ_CHECK(strings_equal(v->tags, *tags), "tags differ");
    FUZZ_CHECK(strings_equal(v->recipients.value, *recipients), "recipients differ");
    FUZZ_CHECK(position->type == jvalue::array && position->items.size() == 3, "position is not 3 items");
    for (std::size_t i = 0; i != 3; ++i) {
        FUZZ_CHECK(position->items[i].type == jvalue::number || (number_strings && position->items[i].type == jvalue::string),
                   "position item is not a number");
        FUZZ_CHECK(v->position[i] == number_value(position->items[i].text), position->items[i].text);
    }
    FUZZ_CHECK(ids->type == jvalue::array && ids->items.size() == v->ids.size(), "ids differ in size");
    std::set<int> seen;
    for (const auto& item : ids->items) {
        FUZZ_CHECK(item.type == jvalue::number || (number_strings && item.type == jvalue::string), "id is not a number");
        const auto id = int_of(item.text);
        FUZZ_CHECK(id.has_value(), item.text);
        FUZZ_CHECK(seen.insert(*id).second, item.text);
    }
    FUZZ_CHECK(seen == v->ids, "ids differ");
}

// ---- formats ------------------------------------------------------------------------------

bool ascii(std::string_view s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

bool only(std::string_view s, std::string_view allowed) { return s.find_first_not_of(allowed) == std::string_view::npos; }

void check(const fixtures::formats& v) {
    const std::string* all[] = {&v.at.value,    &v.day.value, &v.clock.value, &v.span.value, &v.email.value,
                                &v.host.value,  &v.v4.value,  &v.v6.value,    &v.id.value,   &v.link.value};
    for (const std::string* s : all) {
        FUZZ_CHECK(fuzz::valid_utf8(*s), *s);
        // ajv-formats rejects non-ASCII text in every format but date-time's separator.
        if (s != &v.at.value) FUZZ_CHECK(ascii(*s), *s);
        FUZZ_CHECK(!s->empty(), "an empty string passed a format");
    }
    const std::string& day = v.day.value;
    FUZZ_CHECK(day.size() == 10 && day[4] == '-' && day[7] == '-' && only(day.substr(0, 4), "0123456789") &&
                   only(day.substr(5, 2), "0123456789") && only(day.substr(8, 2), "0123456789"),
               day);
    const int month = std::stoi(day.substr(5, 2));
    const int mday = std::stoi(day.substr(8, 2));
    FUZZ_CHECK(month >= 1 && month <= 12 && mday >= 1 && mday <= 31, day);
    FUZZ_CHECK(v.at.value.size() >= 20, v.at.value);  // YYYY-MM-DDTHH:MM:SSZ at least
    FUZZ_CHECK(only(v.v4.value, "0123456789.") && std::count(v.v4.value.begin(), v.v4.value.end(), '.') == 3, v.v4.value);
    FUZZ_CHECK(only(v.v6.value, "0123456789abcdefABCDEF:.") && v.v6.value.find(':') != std::string::npos, v.v6.value);
    const std::string& id = v.id.value;
    FUZZ_CHECK(id.size() >= 36, id);
    const std::string_view tail = std::string_view(id).substr(id.size() - 36);
    for (std::size_t i = 0; i != 36; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        FUZZ_CHECK(dash ? tail[i] == '-' : only(tail.substr(i, 1), "0123456789abcdefABCDEF"), id);
    }
    FUZZ_CHECK(v.email.value.find('@') != std::string::npos, v.email.value);
    FUZZ_CHECK(v.link.value.find(':') != std::string::npos, v.link.value);
    FUZZ_CHECK(v.span.value[0] == 'P', v.span.value);
}

void compare(const fixtures::formats* v, const std::optional<jvalue>& doc, bool, const std::string&) {
    if (!v) return;
    FUZZ_CHECK(doc && doc->type == jvalue::object && doc->keys.size() == 10, "accepted, but not 10 members");
    const std::pair<const char*, const std::string*> fields[] = {
        {"at", &v->at.value},       {"day", &v->day.value},   {"clock", &v->clock.value}, {"span", &v->span.value},
        {"email", &v->email.value}, {"host", &v->host.value}, {"v4", &v->v4.value},       {"v6", &v->v6.value},
        {"id", &v->id.value},       {"link", &v->link.value}};
    for (const auto& [name, value] : fields) {
        const jvalue* m = doc->find(name);
        FUZZ_CHECK(m && m->type == jvalue::string && m->text == *value, name);
    }
}

// ---- driver -------------------------------------------------------------------------------

template <class T>
void run(std::string_view text, const agentry::json::read_options& options) {
    const auto r = agentry::json::read<T>(text, options);
    fuzz::check_result(r, options);
    fuzz::check_against_json(r, text, options);
    if (r.ok()) {
        check(r.value);
        fuzz::check_round_trip<T>(r.value, options.max_depth);
    }
    // The independent reading: without repairs, or when none was applied; with only
    // number_in_string, numbers may be strings.
    if (!fuzz::any_repair(options.repairs) || (r.ok() && r.repairs.empty()))
        compare(r.ok() ? &r.value : nullptr, fuzz::parse_json(text, options.max_depth), false, fuzz::describe_errors(r.errors));
    else if (r.ok() && !options.repairs.json_in_string)
        compare(&r.value, fuzz::parse_json(text, options.max_depth), true, std::string());
}

// The differential fixtures gather edge cases (uniqueItems by JSON value, ECMA-262 patterns,
// float and 64-bit ranges). Only the checks on every read apply, and the round trip where
// values keep their meaning when written: not for floats (checked before rounding to float),
// decimal multiples (a 17-digit multiple need not stay one as a double) or unique arrays
// (distinct JSON values can read to equal C++ values).
template <class T>
void run_edges(std::string_view text, const agentry::json::read_options& options) {
    const auto r = agentry::json::read<T>(text, options);
    fuzz::check_result(r, options);
    fuzz::check_against_json(r, text, options);
    constexpr bool round_trips = std::is_same_v<T, differential::int_edges> ||
                                 std::is_same_v<T, differential::double_edges> ||
                                 std::is_same_v<T, differential::string_edges> ||
                                 std::is_same_v<T, differential::patterns>;
    if constexpr (round_trips)
        if (r.ok()) fuzz::check_round_trip<T>(r.value, options.max_depth);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const unsigned selector = data[0];
    const std::string_view text = fuzz::as_text(data + 1, size - 1);
    agentry::json::read_options options;
    options.repairs.number_in_string = (selector & 4) != 0;
    options.repairs.json_in_string = (selector & 8) != 0;
    if (selector & 64) {
        switch ((selector & 3) | ((selector >> 5) & 4)) {
        case 0: run_edges<differential::int_edges>(text, options); break;
        case 1: run_edges<differential::double_edges>(text, options); break;
        case 2: run_edges<differential::float_edges>(text, options); break;
        case 3: run_edges<differential::decimal_multiples>(text, options); break;
        case 4: run_edges<differential::string_edges>(text, options); break;
        case 5: run_edges<differential::patterns>(text, options); break;
        case 6: run_edges<differential::sequence_edges>(text, options); break;
        default: run_edges<differential::unique_structs>(text, options); break;
        }
        return 0;
    }
    switch (selector & 3) {
    case 0: run<fixtures::numeric_constraints>(text, options); break;
    case 1: run<fixtures::string_constraints>(text, options); break;
    case 2: run<fixtures::sequences>(text, options); break;
    default: run<fixtures::formats>(text, options); break;
    }
    return 0;
}
