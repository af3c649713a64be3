// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_VALUE_IPP
#define AGENTRY_JSON_IMPL_VALUE_IPP

// The definitions of json/value.hpp: included by that header (header-only) or by src.hpp and
// provider/src.hpp (separate compilation).

#include <agentry/detail/from_chars.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/value.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace agentry::json {

namespace detail {

// Reads a value the way the typed reader reads agentry::raw_json: syntax and depth first,
// without recursion (json/detail/lexer.hpp), then the value built with its duplicate keys and
// numbers beyond a double refused, each error at its JSON Pointer.
struct value_builder {
    cursor in;
    const read_options& options;
    std::vector<read_error>& errors;
    std::vector<std::string> path;  // keys, or indexes as their decimal text
    std::vector<bool> path_is_index;
    bool stopped = false;

    std::string pointer() const {
        std::string out;
        for (const std::string& segment : path) {
            out.push_back('/');
            for (char c : segment) {
                if (c == '~') out += "~0";
                else if (c == '/') out += "~1";
                else out.push_back(c);
            }
        }
        return out;
    }

    // As the typed reader's reader::error: at most max_errors, then one too_many_errors entry.
    void error(error_kind kind, std::string message) {
        if (stopped) return;
        if (errors.size() >= (options.max_errors == 0 ? 1 : options.max_errors)) {
            errors.push_back({pointer(), error_kind::too_many_errors,
                              errors.size() == 1 ? std::string("too many errors; only the first is listed")
                                                 : "too many errors; only the first " + std::to_string(errors.size()) +
                                                       " are listed"});
            stopped = true;
            return;
        }
        errors.push_back({pointer(), kind, std::move(message)});
    }

    // As reader::syntax_error: reading stops.
    void syntax_error() {
        const lex_error e = in.error == lex_error::none ? lex_error::unexpected_character : in.error;
        if (e == lex_error::too_deep)
            error(error_kind::too_deep, "nesting deeper than " + std::to_string(options.max_depth) + " levels");
        else
            error(error_kind::syntax,
                  "invalid JSON at byte " + std::to_string(in.offset()) + ": " + std::string(describe(e)));
        stopped = true;
    }

    static bool has_key(const std::vector<member>& members, std::set<std::string, std::less<>>& index,
                        std::string_view key) {
        constexpr std::size_t scanned = 16;  // up to this many members, a scan; then a set
        if (members.size() < scanned) {
            for (const member& m : members)
                if (m.key == key) return true;
            return false;
        }
        if (index.empty())
            for (const member& m : members) index.insert(m.key);
        return index.find(key) != index.end();
    }

    // The value at the cursor, which skip_value has already found well-formed.
    void build(value& out) {
        in.skip_ws();
        const char c = in.peek();
        if (c == '{') {
            ++in.p;
            out = value::object();
            std::set<std::string, std::less<>> index;
            in.skip_ws();
            if (in.peek() == '}') {
                ++in.p;
                return;
            }
            for (;;) {
                in.skip_ws();
                std::string key;
                read_string(in, &key);
                in.consume(':');
                in.skip_ws();
                path.push_back(key);
                if (has_key(out.members(), index, key)) {
                    error(error_kind::duplicate_property, "duplicate property");
                    skip_value(in, 0, std::numeric_limits<std::size_t>::max());
                } else {
                    value v;
                    build(v);
                    if (!index.empty()) index.insert(key);
                    out.members().push_back({std::move(key), std::move(v)});
                }
                path.pop_back();
                if (stopped) return;
                in.skip_ws();
                if (*in.p++ == '}') return;  // else ','
            }
        }
        if (c == '[') {
            ++in.p;
            out = value::array();
            in.skip_ws();
            if (in.peek() == ']') {
                ++in.p;
                return;
            }
            for (std::size_t i = 0;; ++i) {
                path.push_back(std::to_string(i));
                value v;
                build(v);
                out.items().push_back(std::move(v));
                path.pop_back();
                if (stopped) return;
                in.skip_ws();
                if (*in.p++ == ']') return;  // else ','
            }
        }
        if (c == '"') {
            std::string text;
            read_string(in, &text);
            out = value(std::move(text));
        } else if (c == 't' || c == 'f') {
            in.p += c == 't' ? 4 : 5;
            out = value(c == 't');
        } else if (c == 'n') {
            in.p += 4;
            out = value();
        } else {
            number_token token;
            read_number(in, token);
            double d = 0;
            const auto [end, ec] =
                agentry::detail::from_chars(token.text.data(), token.text.data() + token.text.size(), d);
            if (ec == std::errc::result_out_of_range && beyond_double(token.text))
                error(error_kind::out_of_range, agentry::detail::printable(token.text) +
                                                    " is beyond the range of a double (magnitude at most "
                                                    "1.7976931348623157e308)");
            out = value_from_number_text(token.text);
        }
    }

    // Out of range one way or the other: too large, not too small.
    static bool beyond_double(std::string_view text) noexcept {
        const decimal d = to_decimal(text);
        return d.count != 0 && (d.huge_exponent ? text.find("e-") == std::string_view::npos &&
                                                      text.find("E-") == std::string_view::npos
                                                : d.exponent + (long long)d.count > 0);
    }

    static value value_from_number_text(std::string_view text);
};

namespace value_text {

// The length of the maximal ill-formed subsequence at p (Unicode's "maximal subpart"): the
// bytes one U+FFFD replaces.
inline std::size_t ill_formed_length(const char* p, const char* end) noexcept {
    const auto b0 = static_cast<unsigned char>(p[0]);
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) need = 1;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    }
    std::size_t n = 1;
    for (std::size_t k = 0; k != need && p + n < end; ++k) {
        const auto b = static_cast<unsigned char>(p[n]);
        if (b < lo || b > hi) break;
        ++n;
        lo = 0x80;
        hi = 0xBF;
    }
    return n;
}

inline void write_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p != end) {
        const char* run = p;
        p = skip_plain(p, end);
        out.append(run, std::size_t(p - run));
        if (p == end) break;
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x80) {
            if (const std::size_t n = utf8_sequence(p, end)) {
                out.append(p, n);
                p += n;
            } else {
                out += "\xEF\xBF\xBD";
                p += ill_formed_length(p, end);
            }
            continue;
        }
        ++p;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            out += "\\u00";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    out.push_back('"');
}

inline void write_value(std::string& out, const value& v) {
    switch (v.type()) {
    case type::null: out += "null"; return;
    case type::boolean: out += v.as_bool() ? "true" : "false"; return;
    case type::number: out += v.number_text(); return;
    case type::string: write_string(out, v.as_string()); return;
    case type::array: {
        out.push_back('[');
        bool first = true;
        for (const value& item : v.items()) {
            if (!first) out.push_back(',');
            first = false;
            write_value(out, item);
        }
        out.push_back(']');
        return;
    }
    case type::object: {
        out.push_back('{');
        bool first = true;
        for (const member& m : v.members()) {
            if (!first) out.push_back(',');
            first = false;
            write_string(out, m.key);
            out.push_back(':');
            write_value(out, m.value);
        }
        out.push_back('}');
        return;
    }
    }
}

} // namespace value_text

} // namespace detail

AGENTRY_DECL value::value(double d) {
    if (!std::isfinite(d)) return;
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
    (void)ec;
    type_ = json::type::number;
    text_.assign(buffer, end);
}

AGENTRY_DECL std::optional<value> value::number(std::string_view text) {
    detail::cursor in{text.data(), text.data(), text.data() + text.size()};
    detail::number_token token;
    if (text.empty() || !detail::read_number(in, token) || !in.at_end()) return std::nullopt;
    value v;
    v.type_ = json::type::number;
    v.text_ = text;
    return v;
}

AGENTRY_DECL double value::as_double() const noexcept {
    if (type_ != json::type::number) return 0;
    double d = 0;
    const auto [end, ec] = agentry::detail::from_chars(text_.data(), text_.data() + text_.size(), d);
    if (ec == std::errc::result_out_of_range) {
        const bool negative = text_.starts_with('-');
        d = detail::value_builder::beyond_double(text_) ? std::numeric_limits<double>::infinity() : 0.0;
        return negative ? -d : d;
    }
    return d;
}

AGENTRY_DECL std::optional<std::int64_t> value::as_int64() const noexcept {
    if (type_ != json::type::number) return std::nullopt;
    const detail::exact_integer e = detail::to_exact_integer(text_);
    if (!e.integral || !e.fits) return std::nullopt;
    constexpr std::uint64_t most = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    if (!e.negative) return e.magnitude <= most ? std::optional<std::int64_t>(std::int64_t(e.magnitude)) : std::nullopt;
    if (e.magnitude > most + 1) return std::nullopt;
    return e.magnitude == most + 1 ? std::numeric_limits<std::int64_t>::min() : -std::int64_t(e.magnitude);
}

AGENTRY_DECL std::optional<std::uint64_t> value::as_uint64() const noexcept {
    if (type_ != json::type::number) return std::nullopt;
    const detail::exact_integer e = detail::to_exact_integer(text_);
    if (!e.integral || !e.fits || (e.negative && e.magnitude != 0)) return std::nullopt;
    return e.magnitude;
}

AGENTRY_DECL bool value::is_integer() const noexcept {
    return type_ == json::type::number && detail::to_exact_integer(text_).integral;
}

AGENTRY_DECL std::size_t value::size() const noexcept {
    if (type_ == json::type::array) return items_.size();
    if (type_ == json::type::object) return members_.size();
    return 0;
}

AGENTRY_DECL const value* value::find(std::string_view key) const noexcept {
    for (const member& m : members_)
        if (m.key == key) return &m.value;
    return nullptr;
}

AGENTRY_DECL value* value::find(std::string_view key) noexcept {
    for (member& m : members_)
        if (m.key == key) return &m.value;
    return nullptr;
}

AGENTRY_DECL value& value::push_back(value v) {
    if (type_ == json::type::null) type_ = json::type::array;
    items_.push_back(std::move(v));
    return items_.back();
}

AGENTRY_DECL value& value::set(std::string key, value v) {
    if (type_ == json::type::null) type_ = json::type::object;
    if (value* existing = find(key)) return *existing = std::move(v);
    members_.push_back({std::move(key), std::move(v)});
    return members_.back().value;
}

AGENTRY_DECL bool value::equal(const value& a, const value& b) noexcept {
    if (a.type_ != b.type_) return false;
    switch (a.type_) {
    case json::type::null: return true;
    case json::type::boolean: return a.bool_ == b.bool_;
    case json::type::number: return a.text_ == b.text_ || detail::decimal_compare(a.text_, b.text_) == 0;
    case json::type::string: return a.text_ == b.text_;
    case json::type::array:
        return a.items_.size() == b.items_.size() && std::equal(a.items_.begin(), a.items_.end(), b.items_.begin());
    case json::type::object:
        if (a.members_.size() != b.members_.size()) return false;
        for (const member& m : a.members_) {
            const value* other = b.find(m.key);
            if (other == nullptr || !equal(m.value, *other)) return false;
        }
        return true;
    }
    return false;
}

AGENTRY_DECL const std::string& value::empty_text() noexcept {
    static const std::string empty;
    return empty;
}

AGENTRY_DECL value detail::value_builder::value_from_number_text(std::string_view text) {
    value v;
    v.type_ = json::type::number;
    v.text_ = text;
    return v;
}

AGENTRY_DECL parsed parse(std::string_view text, const read_options& options) {
    parsed result;
    if (text.size() > options.max_size) {
        result.errors.push_back({"", error_kind::too_large,
                                 "the arguments are " + std::to_string(text.size()) +
                                     " bytes long, more than the limit of " + std::to_string(options.max_size)});
        return result;
    }
    detail::value_builder b{{text.data(), text.data(), text.data() + text.size()}, options, result.errors, {}, {}};
    b.in.skip_ws();
    detail::cursor checked = b.in;
    if (!detail::skip_value(checked, 0, options.max_depth)) {
        b.in = checked;
        b.syntax_error();
        return result;
    }
    b.build(result.value);
    if (b.stopped) return result;
    b.in.skip_ws();
    if (!b.in.at_end()) {
        b.in.fail(detail::lex_error::unexpected_character);
        b.error(error_kind::syntax,
                "invalid JSON at byte " + std::to_string(b.in.offset()) + ": unexpected content after the value");
    }
    return result;
}

AGENTRY_DECL bool write(std::string& out, const value& v) {
    detail::value_text::write_value(out, v);
    return true;
}

AGENTRY_DECL std::string to_text(const value& v) {
    std::string out;
    detail::value_text::write_value(out, v);
    return out;
}

} // namespace agentry::json

namespace agentry {

AGENTRY_DECL json::value adapter<json::value>::from_json(raw_json&& text) {
    // The reader checked the text against its own limits: none are applied again.
    json::read_options unlimited;
    unlimited.max_size = std::numeric_limits<std::size_t>::max();
    unlimited.max_depth = std::numeric_limits<std::size_t>::max();
    return json::parse(text.text(), unlimited).value;
}

} // namespace agentry

#endif
