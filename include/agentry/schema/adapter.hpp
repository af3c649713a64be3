// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_ADAPTER_HPP
#define AGENTRY_SCHEMA_ADAPTER_HPP

// agentry::adapter<T>: the customisation point for types, specialised by users for types they
// do not own (docs/reflection.md). Every member is optional:
//
//   template <>
//   struct agentry::adapter<geo::point> {
//       using json_type = point_json;                        // a type agentry knows
//       static point_json to_json(const geo::point& p);      // for results
//       static geo::point from_json(point_json&& j);         // for parameters; or an
//                                                            // agentry::outcome<geo::point>
//       static constexpr std::string_view description = "A point on Earth";
//   };
//
//   template <>
//   struct agentry::adapter<vendor::query> {                 // an aggregate, kept as it is
//       static constexpr auto docs = agentry::field_docs("q", "Search text");
//   };
//
// - json_type: T is sent as this type: its schema in every dialect, its reader (then
//   from_json) and its writer (after to_json). A failed outcome from from_json is a read
//   error at the value's pointer, with the failure's message.
// - description: written into the schema of every T, after the field's own description.
// - docs: field descriptions of an aggregate T, as T::docs would give them (checked alike).
// - content_blocks: true when to_json writes an MCP content array (mcp/content.hpp does this
//   for its types), so that the agent sends a result as content (images, ...) not as text.
//
// agentry's own support for std::chrono and std::filesystem is written this way
// (schema/adapters/), as a model to copy. A full specialisation by the user replaces it.

#include <agentry/outcome.hpp>
#include <agentry/schema/field_docs.hpp>

#include <string_view>
#include <type_traits>

namespace agentry {

/// Specialise for a type to map it to one agentry knows, or to describe it.
template <class T>
struct adapter {};

namespace schema::detail {

/// T is sent as adapter<T>::json_type.
template <class T>
concept mapped = requires { typename adapter<T>::json_type; };

template <class T>
using json_type_of = std::remove_cv_t<typename adapter<T>::json_type>;

template <class T>
consteval std::string_view adapter_description() noexcept {
    if constexpr (requires { adapter<T>::description; }) return std::string_view(adapter<T>::description);
    else return {};
}

template <class T>
concept adapter_docs = requires { adapter<T>::docs; } &&
                       agentry::detail::is_field_docs<std::remove_cvref_t<decltype(adapter<T>::docs)>>;

/// The field docs of T: T::docs, else adapter<T>::docs.
template <class T>
concept has_docs = has_field_docs<T> || adapter_docs<T>;

template <class T>
    requires has_docs<T>
constexpr const auto& docs_of() noexcept {
    if constexpr (has_field_docs<T>) return T::docs;
    else return adapter<T>::docs;
}

} // namespace schema::detail

} // namespace agentry

#endif
