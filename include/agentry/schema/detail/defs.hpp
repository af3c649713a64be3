// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_DEFS_HPP
#define AGENTRY_SCHEMA_DETAIL_DEFS_HPP

// Recursive types: written once under "$defs" at the root and referenced with "$ref" from
// every use, keyed by the unqualified class name (with a suffix when two share a name).

#include <agentry/reflect/detail/static_text.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/schema/detail/sink.hpp>

#include <cstddef>
#include <string_view>

namespace agentry::schema::detail {

// constexpr, not consteval: a name is then only worked out where constant evaluation calls
// for it (short_name_of), not wherever a writer that might need it is instantiated.
template <class T>
constexpr std::string_view pretty_type() noexcept {
    // The length from sizeof: constructing from the pointer alone would have constant
    // evaluation count the characters one by one.
    return {__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1};
}

// The unqualified name of a class in its pretty_type text, for "$defs" keys: "node" for
// "ns::node".
constexpr std::string_view short_type_name(std::string_view p) noexcept {
    const std::size_t at = p.find("T = ");
    std::size_t end = at + 4;
    int angle = 0;
    std::size_t begin = end;
    while (end < p.size()) {
        const char c = p[end];
        if (c == '<') ++angle;
        else if (c == '>') --angle;
        else if ((c == ';' || c == ']') && angle == 0) break;
        else if (c == ':' && angle == 0) begin = end + 1;
        ++end;
    }
    std::string_view name = p.substr(begin, end - begin);
    const std::size_t open = name.find('<');
    return open == std::string_view::npos ? name : name.substr(0, open);
}

// T's unqualified name. As the "$defs" key it is worked out when a reference to T is first
// written, so only recursive types pay for it.
template <class T>
constexpr std::string_view short_name_of() noexcept {
    return short_type_name(pretty_type<T>());
}

// The same name with static storage, for text kept at run time.
template <class T>
inline constexpr auto short_type_name_text =
    reflect::detail::static_text<short_name_of<T>().size()>(short_name_of<T>());

/// Whether a value of type T is being written inside another value of type T.
template <class T>
constexpr bool is_open(const sink& s) noexcept {
    const void* id = &reflect::type_tag<T>;
    bool open = false;
    for (std::size_t i = 0; i != s.depth && i != sink::max_depth; ++i) open = open || s.open_types[i] == id;
    return open;
}

/// A "$ref" to the definition of the type `id` stands for, registered on first use with the
/// name `name` gives; write_definition writes its body.
constexpr void write_reference(sink& s, const void* id, std::string_view (*name)(), bool nullable,
                               void (*write_definition)(sink&)) noexcept {
    const bool root = s.root == id;
    bool known = root;
    for (std::size_t i = 0; i != s.definition_count; ++i) known = known || s.definitions[i].id == id;
    if (!known) {
        if (s.definition_count == sink::max_definitions) {
            s.fail(schema_error::too_many_recursive_types);
            return;
        }
        const std::string_view key = name();
        std::size_t same_name = 0;
        for (std::size_t i = 0; i != s.definition_count; ++i) same_name += s.definitions[i].name == key;
        s.definitions[s.definition_count++] = {id, key, same_name, write_definition};
    }
    if (nullable) s.put("{\"anyOf\":[");
    if (root) {
        s.put("{\"$ref\":\"#\"}");
    } else {
        s.put("{\"$ref\":\"#/$defs/");
        for (std::size_t i = 0; i != s.definition_count; ++i)
            if (s.definitions[i].id == id) s.put_definition_name(s.definitions[i]);
        s.put("\"}");
    }
    if (nullable) s.put(",{\"type\":\"null\"}]}");
}

/// Appends "$defs" with every definition registered while writing the root schema.
constexpr void write_definitions(sink& s) noexcept {
    if (s.definition_count == 0 || s.failed()) return;
    --s.size;  // reopen the root object
    s.put(",\"$defs\":{");
    for (std::size_t i = 0; i != s.definition_count; ++i) {
        if (i != 0) s.put(',');
        s.put('"');
        s.put_definition_name(s.definitions[i]);
        s.put("\":");
        const std::size_t mark = s.push_path(s.definitions[i].name);
        s.definitions[i].write(s);
        s.pop_path(mark);
    }
    s.put("}}");
}

} // namespace agentry::schema::detail

#endif
