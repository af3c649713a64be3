// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_VALUE_HPP
#define AGENTRY_JSON_DETAIL_READ_VALUE_HPP

// read_value: the reader of a value of any type, by the kind of the type, over the readers of
// each kind; and the types mapped by agentry::adapter.

#include <agentry/json/detail/read_any.hpp>
#include <agentry/json/detail/read_constraints.hpp>
#include <agentry/json/detail/read_enum.hpp>
#include <agentry/json/detail/read_map.hpp>
#include <agentry/json/detail/read_number.hpp>
#include <agentry/json/detail/read_object.hpp>
#include <agentry/json/detail/read_sequence.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>
#include <agentry/json/detail/read_variant.hpp>
#include <agentry/outcome.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/detail/diagnostics.hpp>

#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::json::detail {

// A type mapped by agentry::adapter<T>: its json_type read, then converted by from_json.
template <class T>
void read_adapted(reader& r, T& out) {
    schema::detail::json_type_of<T> value{};
    const std::size_t before = r.error_count();
    read_value(r, value);
    if (r.error_count() != before || r.stopped()) return;
    auto converted = adapter<T>::from_json(std::move(value));
    if constexpr (agentry::detail::is_outcome<decltype(converted)>) {
        if (!converted) return r.error(error_kind::format, std::move(converted).error().message);
        out = std::move(*converted);
    } else {
        out = std::move(converted);
    }
}

template <class T>
void read_value(reader& r, T& out) {
    constexpr kind k = kind_of<T>();
    if constexpr (k != kind::enumeration) {  // read_enum does both itself
        if (r.stopped()) return;
        r.in.skip_ws();
    }
    if constexpr (k == kind::boolean) {
        if (r.in.end - r.in.p >= 4 && std::memcmp(r.in.p, "true", 4) == 0) {
            r.in.p += 4;
            out = true;
        } else if (r.in.end - r.in.p >= 5 && std::memcmp(r.in.p, "false", 5) == 0) {
            r.in.p += 5;
            out = false;
        } else if (r.in.peek() == 't') {
            if (read_literal(r, "true")) out = true;
        } else if (r.in.peek() == 'f') {
            if (read_literal(r, "false")) out = false;
        } else {
            type_error<T>(r);
        }
    } else if constexpr (k == kind::integer) {
        if (!read_plain_integer(r, out)) read_integer(r, out);
    } else if constexpr (k == kind::number) {
        if (!read_plain_decimal(r, out)) read_floating(r, out);
    } else if constexpr (k == kind::string) {
        if (r.in.peek() != '"') return type_error<T>(r);
        if constexpr (std::is_same_v<T, std::string_view>) read_view(r, out);
        else read_string_value(r, out);
    } else if constexpr (k == kind::enumeration) {
        read_enum(r, &out, enum_plan_of<T>);
    } else if constexpr (k == kind::constrained) {
        read_constrained(r, out.value, typename T::constraints{});
    } else if constexpr (k == kind::any) {
        read_any(r, out);
    } else if constexpr (k == kind::optional) {
        if (r.in.peek() == 'n') {
            if (read_literal(r, "null")) out.reset();
            return;
        }
        if (!out.has_value()) out.emplace();
        read_value(r, *out);
    } else if constexpr (k == kind::variant) {
        read_variant(r, out, typename alternatives<T>::type{});
    } else if constexpr (k == kind::null) {
        if (r.in.peek() != 'n') return type_error<T>(r);
        read_literal(r, "null");
    } else if constexpr (k == kind::adapted) {
        read_adapted(r, out);
    } else if constexpr (k == kind::tuple) {
        read_tuple(r, out);
    } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
        read_sequence(r, out);
    } else if constexpr (k == kind::map) {
        read_map(r, out);
    } else if constexpr (k == kind::object) {
        read_object<T>(r, &out);
    } else {
        static_assert(sizeof(schema::detail::no_json_schema_for<T>) != 0);
    }
}

} // namespace agentry::json::detail

#endif
