// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_ANY_HPP
#define AGENTRY_JSON_DETAIL_READ_ANY_HPP

// Reading agentry::raw_json: any well-formed value, kept as sent, checked for what
// interoperable JSON rules out.

#include <agentry/detail/from_chars.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_container.hpp>
#include <agentry/json/detail/read_number.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/schema/raw_json.hpp>

#include <charconv>
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>

namespace agentry::json::detail {

// A well-formed value of any type (agentry::raw_json), checked for what interoperable JSON
// (RFC 8259 section 4 and 6, I-JSON) rules out and a strict client rejects: a number beyond the
// range of a double, a key twice in one object. The text is kept as sent, so it passes on
// unchanged.
inline void check_any(reader& r) {
    r.in.skip_ws();
    const char c = r.in.peek();
    if (c == '{') {
        if (!open_container(r, '{')) return;
        std::set<std::string, std::less<>> keys;
        read_members(r, [&](std::string_view key) {
            if (!keys.emplace(key).second) {
                r.error(error_kind::duplicate_property, "duplicate property");
                r.skip();
                return;
            }
            check_any(r);
        });
    } else if (c == '[') {
        if (!open_container(r, '[')) return;
        read_elements(r, [&](std::size_t) { check_any(r); });
    } else if (c == '"') {
        if (!read_string(r.in, nullptr)) r.syntax_error();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        number_token token;
        if (!read_number(r.in, token)) return r.syntax_error();
        double d = 0;
        const auto [end, ec] = agentry::detail::from_chars(token.text.data(), token.text.data() + token.text.size(), d);
        if (ec == std::errc::result_out_of_range && decimal_magnitude(token.text) > 0)
            r.error(error_kind::out_of_range, agentry::detail::printable(token.text) +
                                                  " is beyond the range of a double (magnitude at most " +
                                                  std::string(floating_maximum_text<double>) + ")");
    } else if (c == 't') {
        read_literal(r, "true");
    } else if (c == 'f') {
        read_literal(r, "false");
    } else if (c == 'n') {
        read_literal(r, "null");
    } else {
        r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
        r.syntax_error();
    }
}

inline void read_any(reader& r, raw_json& out) {
    const char* start = r.in.p;
    // Syntax and depth first, without recursion: their errors point at the raw_json itself.
    cursor end = r.in;
    if (!skip_value(end, r.depth, r.options().max_depth)) {
        r.in = end;
        r.syntax_error();
        return;
    }
    const std::size_t before = r.error_count();
    check_any(r);
    if (r.error_count() == before && !r.stopped()) out = raw_json(std::string(start, std::size_t(r.in.p - start)));
}

} // namespace agentry::json::detail

#endif
