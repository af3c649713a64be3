// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_READER_HPP
#define AGENTRY_JSON_READER_HPP

// agentry::json::read<T>(text): JSON text straight into a typed value, in one pass, checking
// every constraint the schema of T states. No DOM; the code is specialised for T at compile
// time. Errors are collected (up to read_options::max_errors), each with its JSON Pointer.
//
//   auto r = agentry::json::read<weather_query>(R"({"city":"Paris"})");
//   if (r.ok()) use(r.value); else for (auto& e : r.errors) log(e.to_string());
//
// Reading never throws except std::bad_alloc, and never recurses deeper than
// read_options::max_depth.
//
// The reader is in json/detail/, one header per concern: read_state.hpp (the cursor, the
// pointer, the errors), read_string.hpp and read_number.hpp, then one per kind of type
// (read_enum, read_constraints, read_sequence, read_map, read_object, read_any, read_variant),
// read_value.hpp (the dispatch on the kind of a type) and read_document.hpp (a whole text).

#include <agentry/json/detail/read_document.hpp>
#include <agentry/json/detail/read_result.hpp>

#include <string_view>

namespace agentry::json {

/// Reads JSON `text` into a P (or, for agentry::named_parameters, a tuple of the named
/// parameters), checking every constraint P's schema states.
template <class P>
read_result<detail::storage_t<P>> read(std::string_view text, const read_options& options = {}) {
    using storage = detail::storage_t<P>;
    read_result<storage> result;
    constexpr bool empty_object = detail::kind_of<P>() == detail::kind::object && !detail::has_required_member<P>();
    detail::read_document(text, options, {&result.value, result.errors, result.repairs, result.owned_text}, empty_object,
                          detail::parameters_reader<P>());
    return result;
}

} // namespace agentry::json

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/reader.ipp>
#endif

#endif
