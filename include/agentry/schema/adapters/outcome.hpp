// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_ADAPTERS_OUTCOME_HPP
#define AGENTRY_SCHEMA_ADAPTERS_OUTCOME_HPP

// agentry::outcome<T> and std::expected<T, E> (where the standard library has it) as tool
// results: their schema and JSON are T's. A call sends the failure as a tool_error before
// anything is written (tool/detail/invoke.hpp), so to_json is only given a value; writing a
// failed one directly with json::write is a precondition violation.

#include <agentry/outcome.hpp>
#include <agentry/schema/adapter.hpp>

#include <string_view>
#include <system_error>
#include <type_traits>
#include <version>
#if defined(__cpp_lib_expected) && __cpp_lib_expected >= 202202L
#include <expected>
#endif

namespace agentry {

template <class T>
    requires(!std::is_void_v<T>)
struct adapter<outcome<T>> {
    using json_type = T;
    static const T& to_json(const outcome<T>& o) noexcept { return *o; }
};

namespace detail {

template <class T>
inline constexpr bool is_std_expected = false;

#if defined(__cpp_lib_expected) && __cpp_lib_expected >= 202202L
template <class T, class E>
inline constexpr bool is_std_expected<std::expected<T, E>> = true;
#endif

} // namespace detail

#if defined(__cpp_lib_expected) && __cpp_lib_expected >= 202202L
template <class T, class E>
    requires(!std::is_void_v<T>)
struct adapter<std::expected<T, E>> {
    using json_type = T;
    static const T& to_json(const std::expected<T, E>& e) noexcept { return *e; }
};
#endif

} // namespace agentry

#endif
