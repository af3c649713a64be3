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
AGENTRY_JSON_COLD_DECL std::size_t unknown_enum_name(reader& r, std::string_view name, const std::string_view* names,
                                                std::size_t count);

// The index of `name` among `names` (count of them), or `count`.
AGENTRY_JSON_SHARED_DECL std::size_t name_index(std::string_view name, const std::string_view* names,
                                           std::size_t count) noexcept;

// The index among `names` (count of them) of the enumerator name at the cursor; `count` after
// reporting why there is none.
AGENTRY_JSON_COLD_DECL std::size_t read_enum_index_general(reader& r, const std::string_view* names, std::size_t count);

// read_enum_index_general, a name of printable ASCII that is one of `names` matched first.
AGENTRY_JSON_SHARED_DECL std::size_t read_enum_index(reader& r, const std::string_view* names, std::size_t count);

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
AGENTRY_JSON_SHARED_DECL void read_enum(reader& r, void* at, const enum_plan& plan);

} // namespace agentry::json::detail

#endif
