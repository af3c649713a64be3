// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_DOCUMENT_HPP
#define AGENTRY_JSON_DETAIL_READ_DOCUMENT_HPP

// A whole document read: the size limit, the empty_as_object repair, the value, then nothing
// but whitespace; compiled once for every type but the reader of the value.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_object.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_value.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/detail/classify.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace agentry::json::detail {

/// The C++ value a parameters type is read into: the type itself, or a tuple of the
/// parameters named in agentry::tool<...>.
template <class P>
struct storage_of {
    using type = P;
};
template <class... A, fixed_string... N>
struct storage_of<named_parameters<reflect::type_list<A...>, N...>> {
    using type = std::tuple<std::remove_cvref_t<A>...>;
};
template <class P>
using storage_t = typename storage_of<P>::type;

template <class P>
consteval bool has_required_member() {
    if constexpr (kind_of<P>() != kind::object) return true;
    else return required_mask<object_access<P>>() != 0;
}

// What json::read calls to read a P: the reader of its members for an object, of its value
// otherwise.
template <class P>
consteval auto parameters_reader() noexcept {
    if constexpr (kind_of<P>() == kind::object) return &read_object<P>;
    else return &read_at<storage_t<P>>;
}

// Arguments longer than the limit, reported unread.
AGENTRY_JSON_COLD_DECL void too_large(std::vector<read_error>& errors, std::size_t size, std::size_t limit);

// The empty_as_object repair: true, the repair noted, when `text` is only whitespace.
AGENTRY_JSON_SHARED_DECL bool read_empty_as_object(std::string_view text, std::vector<std::string>& repairs);

// After the value read: only whitespace may follow.
AGENTRY_JSON_COLD_DECL void unexpected_after_value(reader& r);

// Where json::read puts what it reads: the value, and the parts of its read_report.
struct document_parts {
    void* value;
    std::vector<read_error>& errors;
    std::vector<std::string>& repairs;
    std::vector<std::unique_ptr<char[]>>& owned_text;
};

// The whole of json::read but the type: the size limit, the empty_as_object repair (when
// `empty_object`: P is an object with no required member), read(reader, value), then nothing
// but whitespace.
AGENTRY_JSON_SHARED_DECL void read_document(std::string_view text, const read_options& options, document_parts out,
                                       bool empty_object, void (*read)(reader&, void*));

} // namespace agentry::json::detail

#endif
