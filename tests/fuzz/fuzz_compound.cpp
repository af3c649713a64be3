// SPDX-License-Identifier: BSL-1.0
// Compound types with varied read_options. Three header bytes, then the arguments text:
//
//   byte 0 % 11: create_contact, draw, optional_compounds, tree_node, labels, raw_payload,
//                enums, paging, integers, scalars, nothing
//   byte 1:      bit 0 empty_as_object, bit 1 json_in_string, bit 2 number_in_string,
//                bit 3 enum_case, bit 4 null_as_absent,
//                bits 5-7 max_depth: 64, 0, 1, 2, 3, 5, 10, 128
//   byte 2:      bits 0-2 max_errors: 32, 0, 1, 2, 3, 4, 8, 1000
//                bits 3-4 max_size: 1 MiB, 0, 16, 256
//
// Checked: the result invariants of fuzz_common.hpp; without repairs, agreement with an
// independent parser on what is JSON; a tree never nests deeper than max_depth allows; an
// accepted value round-trips through the writer; and whatever the same read without repairs
// and null_as_absent accepts, the lenient read accepts unchanged and without a repair.

#include "fuzz_common.hpp"

#include <fixtures.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace {

using agentry::json::read_options;

std::size_t height(const fixtures::tree_node& node) {
    std::size_t below = 0;
    for (const auto& child : node.children) {
        const std::size_t h = height(child);
        if (h > below) below = h;
    }
    return below + 1;
}

void utf8(const std::string& s) { FUZZ_CHECK(fuzz::valid_utf8(s), s); }

void check_address(const fixtures::address& a) {
    utf8(a.street);
    utf8(a.city);
    if (a.postcode) utf8(*a.postcode);
}

// What holds for an accepted value of each type.
template <class T>
void check_value(const T& v, const read_options& options) {
    if constexpr (std::is_same_v<T, fixtures::create_contact>) {
        utf8(v.name);
        check_address(v.home);
        for (const auto& a : v.others) check_address(a);
    } else if constexpr (std::is_same_v<T, fixtures::draw>) {
        FUZZ_CHECK(!v.shape.valueless_by_exception() && !v.label.valueless_by_exception(), "valueless variant");
        if (const auto* s = std::get_if<std::string>(&v.label)) utf8(*s);
    } else if constexpr (std::is_same_v<T, fixtures::optional_compounds>) {
        if (v.shipping) check_address(*v.shipping);
        if (v.percent) FUZZ_CHECK(v.percent->value >= 0 && v.percent->value <= 100, std::to_string(v.percent->value));
        for (const auto& c : v.cells)
            if (c) utf8(*c);
    } else if constexpr (std::is_same_v<T, fixtures::tree_node>) {
        // Each level is an object inside an array: 2h - 1 containers.
        FUZZ_CHECK(2 * height(v) - 1 <= options.max_depth, std::to_string(height(v)));
    } else if constexpr (std::is_same_v<T, fixtures::labels>) {
        for (const auto& [key, value] : v.values) {
            utf8(key);
            utf8(value);
        }
    } else if constexpr (std::is_same_v<T, fixtures::raw_payload>) {
        utf8(v.kind);
        FUZZ_CHECK(fuzz::parse_json(v.payload.text(), options.max_depth).has_value(), v.payload.text());
    } else if constexpr (std::is_same_v<T, fixtures::enums>) {
        const auto named = [](fixtures::priority p) {
            return p == fixtures::priority::low || p == fixtures::priority::normal || p == fixtures::priority::high;
        };
        FUZZ_CHECK(v.unit == fixtures::temperature_unit::celsius || v.unit == fixtures::temperature_unit::fahrenheit,
                   "unit");
        FUZZ_CHECK(named(v.level), "level");
        for (auto p : v.accepted) FUZZ_CHECK(named(p), "accepted");
    } else if constexpr (std::is_same_v<T, fixtures::scalars>) {
        FUZZ_CHECK(std::isfinite(v.ratio) && std::isfinite(v.amount), "not finite");
        utf8(v.note);
    }
}

template <class T>
void run(std::string_view text, const read_options& options) {
    const auto r = agentry::json::read<T>(text, options);
    fuzz::check_result(r, options);
    fuzz::check_against_json(r, text, options);
    if (r.ok()) {
        check_value(r.value, options);
        fuzz::check_round_trip<T>(r.value, options.max_depth);
    }

    if (!fuzz::any_repair(options.repairs) && !options.null_as_absent) return;
    // The same limits, nothing lenient.
    read_options strict = options;
    strict.repairs = {};
    strict.null_as_absent = false;
    const auto s = agentry::json::read<T>(text, strict);
    fuzz::check_result(s, strict);
    fuzz::check_against_json(s, text, strict);
    if (!s.ok()) return;
    FUZZ_CHECK(r.ok(), "accepted without repairs, rejected with them: " + fuzz::describe_errors(r.errors));
    // A variant takes its first alternative that fits, repairs included: {"label":"5"} is the
    // string "5" without number_in_string and the integer 5 with it. Not compared here.
    if constexpr (!std::is_same_v<T, fixtures::draw>) {
        FUZZ_CHECK(r.repairs.empty(), r.repairs.front());
        std::string a, b;
        agentry::json::write(a, r.value);
        agentry::json::write(b, s.value);
        FUZZ_CHECK(a == b, a + " vs " + b);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const std::string_view text = fuzz::as_text(data + 3, size - 3);
    static constexpr std::size_t depths[] = {64, 0, 1, 2, 3, 5, 10, 128};
    static constexpr std::size_t errors[] = {32, 0, 1, 2, 3, 4, 8, 1000};
    static constexpr std::size_t sizes[] = {1024 * 1024, 0, 16, 256};
    read_options options;
    options.repairs.empty_as_object = (data[1] & 1) != 0;
    options.repairs.json_in_string = (data[1] & 2) != 0;
    options.repairs.number_in_string = (data[1] & 4) != 0;
    options.repairs.enum_case = (data[1] & 8) != 0;
    options.null_as_absent = (data[1] & 16) != 0;
    options.max_depth = depths[data[1] >> 5];
    options.max_errors = errors[data[2] & 7];
    options.max_size = sizes[(data[2] >> 3) & 3];
    switch (data[0] % 11) {
    case 0: run<fixtures::create_contact>(text, options); break;
    case 1: run<fixtures::draw>(text, options); break;
    case 2: run<fixtures::optional_compounds>(text, options); break;
    case 3: run<fixtures::tree_node>(text, options); break;
    case 4: run<fixtures::labels>(text, options); break;
    case 5: run<fixtures::raw_payload>(text, options); break;
    case 6: run<fixtures::enums>(text, options); break;
    case 7: run<fixtures::paging>(text, options); break;
    case 8: run<fixtures::integers>(text, options); break;
    case 9: run<fixtures::scalars>(text, options); break;
    default: run<fixtures::nothing>(text, options); break;
    }
    return 0;
}
