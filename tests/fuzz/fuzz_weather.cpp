// SPDX-License-Identifier: BSL-1.0
// read<fixtures::weather_query>: the whole input is the arguments text.
//
// Checked, with the default options: the result agrees with an independent parser, both ways
// (accepted text is an object with a string "city" and an optional "unit" naming an enumerator,
// nothing else, and every such object is accepted), and the decoded city is the same. With
// every repair on and null_as_absent: whatever the strict read accepts is accepted unchanged,
// with no repair.

#include "fuzz_common.hpp"

#include <fixtures.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

using fixtures::temperature_unit;
using fixtures::weather_query;

std::optional<temperature_unit> unit_named(std::string_view name) {
    if (name == "celsius") return temperature_unit::celsius;
    if (name == "fahrenheit") return temperature_unit::fahrenheit;
    return std::nullopt;
}

// What an independent reading expects: the query, or nothing when the text must be rejected.
std::optional<weather_query> expected(const std::optional<fuzz::jvalue>& doc) {
    if (!doc || doc->type != fuzz::jvalue::object) return std::nullopt;
    weather_query q;
    bool city = false;
    for (std::size_t i = 0; i != doc->keys.size(); ++i) {
        const std::string& key = doc->keys[i];
        const fuzz::jvalue& value = doc->items[i];
        if (doc->count(key) != 1) return std::nullopt;
        if (key == "city") {
            if (value.type != fuzz::jvalue::string) return std::nullopt;
            q.city = value.text;
            city = true;
        } else if (key == "unit") {
            if (value.type != fuzz::jvalue::string) return std::nullopt;
            q.unit = unit_named(value.text);
            if (!q.unit) return std::nullopt;
        } else {
            return std::nullopt;
        }
    }
    if (!city) return std::nullopt;
    return q;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);

    const agentry::json::read_options strict;
    const auto r = agentry::json::read<weather_query>(text, strict);
    fuzz::check_result(r, strict);
    fuzz::check_against_json(r, text, strict);
    const auto doc = fuzz::parse_json(text, strict.max_depth);
    const auto want = expected(doc);
    FUZZ_CHECK(r.ok() == want.has_value(), fuzz::describe_errors(r.errors));
    if (r.ok()) {
        FUZZ_CHECK(r.value.city == want->city, r.value.city + " vs " + want->city);
        FUZZ_CHECK(r.value.unit == want->unit, "unit differs");
        FUZZ_CHECK(fuzz::valid_utf8(r.value.city), r.value.city);
        fuzz::check_round_trip<weather_query>(r.value, 64);
    }

    agentry::json::read_options lenient;
    lenient.null_as_absent = true;
    lenient.repairs = {.empty_as_object = true, .json_in_string = true, .number_in_string = true, .enum_case = true};
    const auto l = agentry::json::read<weather_query>(text, lenient);
    fuzz::check_result(l, lenient);
    if (r.ok()) {
        FUZZ_CHECK(l.ok(), fuzz::describe_errors(l.errors));
        FUZZ_CHECK(l.repairs.empty(), l.repairs.front());
        FUZZ_CHECK(l.value.city == r.value.city && l.value.unit == r.value.unit, l.value.city);
    }
    if (l.ok()) {
        FUZZ_CHECK(fuzz::valid_utf8(l.value.city), l.value.city);
        FUZZ_CHECK(l.value.unit.has_value(), "unit emptied");
        fuzz::check_round_trip<weather_query>(l.value, 64);
    }
    return 0;
}
