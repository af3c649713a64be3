// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_ENUM_HPP
#define AGENTRY_JSON_DETAIL_READ_ENUM_HPP

// Reading enumerations by their enumerators' names, one function for all of them, and the
// enum_case repair.

#include <agentry/detail/text.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/reflect/enum.hpp>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::json::detail {

// `name` is none of `names` (count of them): the index of the one it matches ignoring case when
// the enum_case repair is on (the repair noted), otherwise `count` and the error reported.
AGENTRY_JSON_COLD std::size_t unknown_enum_name(reader& r, std::string_view name, const std::string_view* names,
                                                std::size_t count) {
    if (r.options().repairs.enum_case) {
        for (std::size_t i = 0; i != count; ++i) {
            if (agentry::detail::equal_ignoring_case(names[i], name)) {
                r.repaired("\"" + std::string(name) + "\" was read as \"" + std::string(names[i]) + "\"");
                return i;
            }
        }
    }
    std::string list = "[";
    for (std::size_t i = 0; i != count; ++i) {
        if (i != 0) list += ',';
        list += '"';
        list += names[i];
        list += '"';
    }
    list += ']';
    std::string message = "\"" + std::string(name) + "\" is not one of " + list;
    const std::string_view guess = closest(name, std::span<const std::string_view>(names, count));
    if (!guess.empty()) message += " (did you mean \"" + std::string(guess) + "\"?)";
    r.error(error_kind::enum_value, std::move(message));
    return count;
}

// The index of `name` among `names` (count of them), or `count`.
AGENTRY_JSON_SHARED std::size_t name_index(std::string_view name, const std::string_view* names,
                                           std::size_t count) noexcept {
    for (std::size_t i = 0; i != count; ++i)
        if (same_text(names[i], name)) return i;
    return count;
}

// The index among `names` (count of them) of the enumerator name at the cursor; `count` after
// reporting why there is none.
AGENTRY_JSON_COLD std::size_t read_enum_index_general(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() != '"') {
        type_error_as(r, "a string");
        return count;
    }
    std::string scratch;
    std::string_view name;
    if (!read_string_view(r, scratch, name)) return count;
    if (const std::size_t i = name_index(name, names, count); i != count) return i;
    return unknown_enum_name(r, name, names, count);
}

// read_enum_index_general, a name of printable ASCII that is one of `names` matched first.
AGENTRY_JSON_SHARED std::size_t read_enum_index(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() == '"') {
        const char* const start = r.in.p + 1;
        if (const char* close = skip_plain(start, r.in.end); close != r.in.end && *close == '"') {
            const std::string_view name(start, std::size_t(close - start));
            if (const std::size_t i = name_index(name, names, count); i != count) {
                r.in.p = close + 1;
                return i;
            }
        }
    }
    return read_enum_index_general(r, names, count);
}

// What reading an enumeration needs to know of it: its enumerators' names and values (each
// `size` bytes), `count` of each.
struct enum_plan {
    const std::string_view* names;
    const void* values;
    std::size_t count;
    std::size_t size;
};

template <class E>
inline constexpr enum_plan enum_plan_of{reflect::enum_names<E>.data(), reflect::enum_values<E>.data(),
                                        reflect::enum_count<E>, sizeof(E)};

// An enumeration at `at`, `plan` its enum_plan, the cursor before any whitespace: one function
// for every enumeration, members and elements alike.
AGENTRY_JSON_SHARED void read_enum(reader& r, void* at, const enum_plan& plan) {
    if (r.stopped()) return;
    r.in.skip_ws();
    const std::size_t i = read_enum_index(r, plan.names, plan.count);
    if (i == plan.count) return;
    const char* value = static_cast<const char*>(plan.values) + i * plan.size;
    switch (plan.size) {
    case 1: std::memcpy(at, value, 1); break;
    case 2: std::memcpy(at, value, 2); break;
    case 4: std::memcpy(at, value, 4); break;
    case 8: std::memcpy(at, value, 8); break;
    default: std::memcpy(at, value, plan.size);
    }
}

} // namespace agentry::json::detail

#endif
