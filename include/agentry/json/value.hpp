// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_VALUE_HPP
#define AGENTRY_JSON_VALUE_HPP

// agentry::json::value: any JSON value, for what has no C++ type (arguments of tools added at
// run time, MCP messages, schemas given as JSON). Read by the rules of the typed reader
// (json/reader.hpp), with the same read_options and messages: at most max_size bytes and
// max_depth levels, strict UTF-8 (no overlong forms, no surrogates), no key twice in an
// object, no number beyond the range of a double, nothing after the value.
//
//   auto r = agentry::json::parse(R"({"amount":12345678901234567890,"to":"a"})");
//   if (r.ok()) r.value.find("amount")->number_text();  // "12345678901234567890"
//
// A number keeps its JSON text, so a value read and written back loses no digit (0.1 stays
// 0.1, 12345678901234567890 stays exact); as_int64(), as_uint64() and as_double() read it.
// An object keeps its members in source order (members()); find() looks a key up.
//
// As a member of a struct read by json::read<T>, or as T itself, a json::value is read as
// agentry::raw_json is (schema `{}`, the same checks, errors at the member's pointer) and
// then built from the text; json::write and to_json write it compactly.
//
// The definitions (impl/value.ipp) are compiled where this header is included (header-only)
// or once, by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/error.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::json {

/// The JSON type of a value.
enum class type : unsigned char { null, boolean, number, string, array, object };

/// "null", "boolean", "number", "string", "array" or "object".
constexpr std::string_view type_name(type t) noexcept {
    switch (t) {
    case type::null: return "null";
    case type::boolean: return "boolean";
    case type::number: return "number";
    case type::string: return "string";
    case type::array: return "array";
    case type::object: return "object";
    }
    return "value";
}

struct member;

namespace detail {
struct value_builder;
} // namespace detail

class value {
public:
    // The constructors are defined after `member`, which their members need complete.
    /// null.
    value() noexcept;
    value(std::nullptr_t) noexcept;
    /// true or false (a template, so that no pointer converts to it).
    template <class B>
        requires std::is_same_v<B, bool>
    value(B b) noexcept;
    /// A number, exactly (its decimal text).
    template <class I>
        requires(std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>)
    value(I i);
    /// A number written as the shortest text that reads back to `d`; NaN and the infinities,
    /// which JSON cannot write, make null (as JSON.stringify does).
    value(double d);
    value(std::string s) noexcept;
    value(std::string_view s);
    value(const char* s);

    /// An empty array or object.
    static value array();
    static value object();
    /// A number from its JSON text; std::nullopt when `text` is not a JSON number.
    static std::optional<value> number(std::string_view text);

    json::type type() const noexcept { return type_; }
    bool is_null() const noexcept { return type_ == json::type::null; }
    bool is_bool() const noexcept { return type_ == json::type::boolean; }
    bool is_number() const noexcept { return type_ == json::type::number; }
    bool is_string() const noexcept { return type_ == json::type::string; }
    bool is_array() const noexcept { return type_ == json::type::array; }
    bool is_object() const noexcept { return type_ == json::type::object; }

    /// The boolean; false for any other type.
    bool as_bool() const noexcept { return type_ == json::type::boolean && bool_; }
    /// The string (decoded, UTF-8); empty for any other type.
    const std::string& as_string() const noexcept { return type_ == json::type::string ? text_ : empty_text(); }
    /// The number's JSON text as read or made ("0.1", "1e2", "-0"); empty for any other type.
    const std::string& number_text() const noexcept { return type_ == json::type::number ? text_ : empty_text(); }
    /// The nearest double to the number; 0 for any other type.
    double as_double() const noexcept;
    /// The number when it is an integer (1, 1.0 and 1e0 alike) that fits, exactly.
    std::optional<std::int64_t> as_int64() const noexcept;
    std::optional<std::uint64_t> as_uint64() const noexcept;
    /// Whether the number's value is an integer (1.0 and 1e2 are).
    bool is_integer() const noexcept;

    /// The elements of an array (empty for any other type).
    const std::vector<value>& items() const noexcept { return items_; }
    std::vector<value>& items() noexcept { return items_; }
    /// The members of an object in source (or insertion) order (empty for any other type).
    const std::vector<member>& members() const noexcept { return members_; }
    std::vector<member>& members() noexcept { return members_; }
    /// Elements of an array, members of an object, 0 otherwise.
    std::size_t size() const noexcept;

    /// The value of the member `key`, or null when there is none or this is not an object.
    const value* find(std::string_view key) const noexcept;
    value* find(std::string_view key) noexcept;

    /// Appends an element (an array; a null value becomes an empty array first).
    value& push_back(value v);
    /// Sets the member `key`, replacing its value if it is there, else appending it (an
    /// object; a null value becomes an empty object first).
    value& set(std::string key, value v);

    /// JSON equality, as JSON Schema's `const`, `enum` and `uniqueItems` compare: numbers by
    /// their exact decimal value (1, 1.0 and 1e0 are equal), objects whatever their members'
    /// order, strings by their code points.
    friend bool operator==(const value& a, const value& b) noexcept { return equal(a, b); }

private:
    friend struct detail::value_builder;

    static bool equal(const value& a, const value& b) noexcept;
    static const std::string& empty_text() noexcept;

    json::type type_ = json::type::null;
    bool bool_ = false;
    std::string text_;  // a string's text or a number's JSON text
    std::vector<value> items_;
    std::vector<member> members_;
};

struct member {
    std::string key;
    json::value value;
};

inline value::value() noexcept = default;
inline value::value(std::nullptr_t) noexcept {}
template <class B>
    requires std::is_same_v<B, bool>
value::value(B b) noexcept : type_(json::type::boolean), bool_(b) {}
template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>)
value::value(I i) : type_(json::type::number) {
    if constexpr (std::is_signed_v<I>) text_ = std::to_string(static_cast<long long>(i));
    else text_ = std::to_string(static_cast<unsigned long long>(i));
}
inline value::value(std::string s) noexcept : type_(json::type::string), text_(std::move(s)) {}
inline value::value(std::string_view s) : type_(json::type::string), text_(s) {}
inline value::value(const char* s) : type_(json::type::string), text_(s) {}

inline value value::array() {
    value v;
    v.type_ = json::type::array;
    return v;
}
inline value value::object() {
    value v;
    v.type_ = json::type::object;
    return v;
}

/// A value read from text, and what was wrong with the text.
struct parsed {
    json::value value;
    /// Each with its JSON Pointer and the typed reader's message; empty when the text is valid.
    std::vector<read_error> errors;

    bool ok() const noexcept { return errors.empty(); }
};

/// Reads JSON text into a value by the typed reader's rules and limits (see the top of this
/// header); on an error the value is null or holds what could be read.
parsed parse(std::string_view text, const read_options& options = {});

/// Appends the compact JSON text of `v`: members in their order, numbers as their text,
/// strings with `"`, `\` and control characters escaped (and each ill-formed UTF-8 sequence
/// as U+FFFD, as json::write writes a std::string). Always true (the complete text).
bool write(std::string& out, const value& v);

/// The compact JSON text of `v`.
std::string to_text(const value& v);

} // namespace agentry::json

namespace agentry {

/// A json::value in a struct read or written by json::read / json::write: sent as raw_json.
template <>
struct adapter<json::value> {
    using json_type = raw_json;
    static raw_json to_json(const json::value& v) { return raw_json(json::to_text(v)); }
    /// `text` has passed the reader's checks, under its options.
    static json::value from_json(raw_json&& text);
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/value.ipp>
#endif

#endif
