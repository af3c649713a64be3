// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_FORMATS_HPP
#define AGENTRY_JSON_DETAIL_FORMATS_HPP

// Run-time checks of the string formats agentry's schemas state ("format": "date-time", ...).
//
//   agentry::json::detail::valid_format(agentry::string_format::email, "a@b.example")  // true
//
// Each check accepts exactly the strings that ajv-formats (3.x) accepts in its default "full"
// mode, so that a value agentry accepts is one an ajv-based validator accepts too, and the
// reverse. Where ajv departs from the RFCs, the check follows ajv; the departures are noted at
// each check. The text is UTF-8. ajv looks at the UTF-16 code units of a JavaScript string and
// its regular expressions have the `i` flag but not `u`, so no non-ASCII character ever matches
// an ASCII class: every format rejects non-ASCII text, except that date-time takes any
// JavaScript white space character (`\s`) as the date/time separator.
//
// The checks are hand-written scanners: no allocation, no recursion, no exceptions, linear time.

#include <agentry/schema/constraints.hpp>

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace agentry::json::detail {

namespace formats {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_alnum(char c) noexcept { return is_digit(c) || is_alpha(c); }
constexpr bool is_hex(char c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr char to_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// Number of consecutive characters satisfying `pred` from `pos`.
template <class Pred>
constexpr std::size_t run(std::string_view s, std::size_t pos, Pred pred) noexcept {
    std::size_t i = pos;
    while (i < s.size() && pred(s[i])) ++i;
    return i - pos;
}

constexpr int two_digits(std::string_view s, std::size_t pos) noexcept {
    return (s[pos] - '0') * 10 + (s[pos + 1] - '0');
}

constexpr bool iequals_ascii(std::string_view a, std::string_view lower) noexcept {
    if (a.size() != lower.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (to_lower(a[i]) != lower[i]) return false;
    return true;
}

// ---- date, time, date-time ---------------------------------------------------------------

constexpr bool is_leap_year(int year) noexcept { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

constexpr int days_in_month(int year, int month) noexcept {
    constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap_year(year) ? 29 : days[month - 1];
}

// full-date "YYYY-MM-DD" with a real calendar day; any year 0000-9999.
constexpr bool is_date(std::string_view s) noexcept {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (!is_digit(s[i])) return false;
    const int year = two_digits(s, 0) * 100 + two_digits(s, 2);
    const int month = two_digits(s, 5);
    const int day = two_digits(s, 8);
    return month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month);
}

// ajv reads the seconds "SS.fff" as a JavaScript number, so a long fraction can round up to the
// next integer. In [32, 64) doubles are 2^-47 apart and ties go to the even neighbour, which for
// 60 and 61 is the integer itself: "N-1.f" becomes N exactly when .f >= 1 - 2^-48.
constexpr bool fraction_rounds_up(std::string_view digits) noexcept {
    constexpr std::string_view threshold = "999999999999996447286321199499070644378662109375"; // 1 - 2^-48
    const std::size_t n = digits.size() > threshold.size() ? digits.size() : threshold.size();
    for (std::size_t i = 0; i < n; ++i) {
        const char a = i < digits.size() ? digits[i] : '0';
        const char b = i < threshold.size() ? threshold[i] : '0';
        if (a != b) return a > b;
    }
    return true;
}

// Whether the number "whole.fraction" (as JavaScript reads it) is below `limit` (60 or 61).
constexpr bool seconds_below(int whole, std::string_view fraction, int limit) noexcept {
    return whole < limit - 1 || (whole == limit - 1 && !fraction_rounds_up(fraction));
}

// partial-time with a time-offset: "HH:MM:SS[.f+](Z|+HH[[:]MM]|-HH[[:]MM])", `z` in either case.
// As in ajv: the offset may omit its minutes or the colon; 23:59:60 is a leap second only when it
// is 23:59:60 in UTC; hours and minutes are only checked against 23 and 59 outside that leap
// second rule (ajv's own arithmetic, which accepts e.g. "30:59:60+07:00", is reproduced).
constexpr bool is_time(std::string_view s, bool zone_required = true) noexcept {
    if (s.size() < 8 || s[2] != ':' || s[5] != ':') return false;
    for (std::size_t i : {0u, 1u, 3u, 4u, 6u, 7u})
        if (!is_digit(s[i])) return false;
    const int hr = two_digits(s, 0);
    const int min = two_digits(s, 3);
    const int sec = two_digits(s, 6);
    std::size_t pos = 8;
    std::string_view fraction;
    if (pos < s.size() && s[pos] == '.') {
        const std::size_t n = run(s, pos + 1, is_digit);
        if (n == 0) return false;
        fraction = s.substr(pos + 1, n);
        pos += 1 + n;
    }
    bool zone = false;
    int sign = 1, tz_hr = 0, tz_min = 0;
    if (pos < s.size() && (s[pos] == 'z' || s[pos] == 'Z')) {
        zone = true;
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        zone = true;
        sign = s[pos] == '-' ? -1 : 1;
        if (run(s, pos + 1, is_digit) < 2) return false;
        tz_hr = two_digits(s, pos + 1);
        pos += 3;
        if (pos < s.size()) {
            if (s[pos] == ':') ++pos;
            if (s.size() - pos != 2 || !is_digit(s[pos]) || !is_digit(s[pos + 1])) return false;
            tz_min = two_digits(s, pos);
            pos += 2;
        }
    }
    if (pos != s.size()) return false;
    if (tz_hr > 23 || tz_min > 59 || (zone_required && !zone)) return false;
    if (hr <= 23 && min <= 59 && seconds_below(sec, fraction, 60)) return true;
    const int utc_min = min - tz_min * sign;
    const int utc_hr = hr - tz_hr * sign - (utc_min < 0 ? 1 : 0);
    return (utc_hr == 23 || utc_hr == -1) && (utc_min == 59 || utc_min == -1) && seconds_below(sec, fraction, 61);
}

// Length of the JavaScript `\s` character (or `t`/`T`) that starts at `pos`, 0 if none.
constexpr std::size_t date_time_separator(std::string_view s, std::size_t pos) noexcept {
    const auto at = [&](std::size_t i) { return pos + i < s.size() ? static_cast<unsigned char>(s[pos + i]) : 0u; };
    const unsigned b0 = at(0);
    if (b0 == 't' || b0 == 'T' || b0 == ' ' || (b0 >= 0x09 && b0 <= 0x0D)) return 1;
    const unsigned b1 = at(1), b2 = at(2);
    if (b0 == 0xC2 && b1 == 0xA0) return 2;                                      // U+00A0
    if (b0 == 0xE1 && b1 == 0x9A && b2 == 0x80) return 3;                        // U+1680
    if (b0 == 0xE2 && b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8A) ||               // U+2000-U+200A
                                     b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF))    // U+2028 U+2029 U+202F
        return 3;
    if (b0 == 0xE2 && b1 == 0x81 && b2 == 0x9F) return 3;                        // U+205F
    if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x80) return 3;                        // U+3000
    if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) return 3;                        // U+FEFF
    return 0;
}

// date-time: full-date, one separator, time with offset. ajv splits on /t|\s/i, so besides `T`
// and `t` any white space character separates (a space, a tab, U+00A0, U+3000...).
constexpr bool is_date_time(std::string_view s) noexcept {
    if (s.size() < 11 || !is_date(s.substr(0, 10))) return false;
    const std::size_t sep = date_time_separator(s, 10);
    return sep != 0 && is_time(s.substr(10 + sep), true);
}

// ---- duration ----------------------------------------------------------------------------

// ajv's ISO 8601 subset: "P" then either "nW", or "[nY][nM][nD][T[nH][nM][nS]]" with at least
// one part and at least one part after a "T". Integers only, upper-case designators only.
constexpr bool is_duration(std::string_view s) noexcept {
    if (s.size() < 2 || s[0] != 'P') return false;
    std::size_t pos = 1;
    if (const std::size_t n = run(s, pos, is_digit); n != 0 && pos + n + 1 == s.size() && s[pos + n] == 'W')
        return true;
    // Parts must appear in the order of `designators`, each at most once.
    const auto parts = [&](std::string_view designators, char stop) {
        std::size_t next = 0;
        while (pos < s.size() && s[pos] != stop) {
            const std::size_t n = run(s, pos, is_digit);
            if (n == 0 || pos + n == s.size()) return false;
            const std::size_t found = designators.find(s[pos + n], next);
            if (found == std::string_view::npos) return false;
            next = found + 1;
            pos += n + 1;
        }
        return true;
    };
    if (!parts("YMD", 'T')) return false;
    if (pos == s.size()) return true;
    ++pos; // 'T', which must be followed by at least one part
    return pos != s.size() && parts("HMS", '\0') && pos == s.size();
}

// ---- email, hostname -------------------------------------------------------------------------

constexpr bool is_atext(char c) noexcept {
    return is_alnum(c) || std::string_view("!#$%&'*+/=?^_`{|}~-").find(c) != std::string_view::npos;
}

// A label of letters, digits and inner hyphens, `max` characters at most (0: no limit).
constexpr bool ldh_label(std::string_view label, std::size_t max) noexcept {
    if (label.empty() || (max != 0 && label.size() > max)) return false;
    if (!is_alnum(label.front()) || !is_alnum(label.back())) return false;
    for (char c : label)
        if (!is_alnum(c) && c != '-') return false;
    return true;
}

// Calls label(part) for each '.'-separated part of `s`; false as soon as one returns false.
template <class F>
constexpr bool each_dot_part(std::string_view s, F label) noexcept {
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        if (!label(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
            return false;
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

// ajv's email: dot-atoms of atext before the '@'; after it at least two LDH labels of any length.
// No quoted local parts, no IP literals, no length limits.
constexpr bool is_email(std::string_view s) noexcept {
    const std::size_t at = s.find('@');
    if (at == std::string_view::npos) return false;
    const std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
    const bool local_ok = each_dot_part(local, [](std::string_view atom) {
        if (atom.empty()) return false;
        for (char c : atom)
            if (!is_atext(c)) return false;
        return true;
    });
    if (!local_ok || domain.find('.') == std::string_view::npos) return false;
    return each_dot_part(domain, [](std::string_view label) { return ldh_label(label, 0); });
}

// hostname: LDH labels of 1-63 characters, an optional final dot, 253 characters at most
// without that dot. All-numeric labels are allowed.
constexpr bool is_hostname(std::string_view s) noexcept {
    if (!s.empty() && s.back() == '.') s.remove_suffix(1);
    if (s.empty() || s.size() > 253) return false;
    return each_dot_part(s, [](std::string_view label) { return ldh_label(label, 63); });
}

// ---- ipv4, ipv6 --------------------------------------------------------------------------------

// A decimal octet 0-255. Without `leading_zeros` a multi-digit octet may not start with 0
// (the ipv4 and ipv6 formats); with it up to three digits are allowed ("001", in uri hosts).
constexpr bool octet(std::string_view s, bool leading_zeros) noexcept {
    if (s.empty() || s.size() > 3) return false;
    int value = 0;
    for (char c : s) {
        if (!is_digit(c)) return false;
        value = value * 10 + (c - '0');
    }
    return value <= 255 && (leading_zeros || s.size() == 1 || s[0] != '0');
}

constexpr bool is_ipv4(std::string_view s, bool leading_zeros = false) noexcept {
    int parts = 0;
    const bool ok = each_dot_part(s, [&](std::string_view part) { return ++parts <= 4 && octet(part, leading_zeros); });
    return ok && parts == 4;
}

// ipv6: eight 1-4 digit hex groups, the last two of which may be written as an IPv4 address;
// one "::" may stand for one or more zero groups (so at most seven groups are written with it).
// No zone identifier.
constexpr bool is_ipv6(std::string_view s, bool leading_zero_octets = false) noexcept {
    const std::size_t n = s.size();
    std::size_t pos = 0;
    int groups = 0;
    bool compressed = false;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        compressed = true;
        pos = 2;
    }
    while (pos < n) {
        const std::size_t h = run(s, pos, is_hex);
        if (pos + h < n && s[pos + h] == '.') { // an IPv4 address ends the address
            if (!is_ipv4(s.substr(pos), leading_zero_octets)) return false;
            groups += 2;
            break;
        }
        if (h == 0 || h > 4) return false;
        ++groups;
        pos += h;
        if (pos == n) break;
        if (s[pos] != ':') return false;
        ++pos;
        if (pos < n && s[pos] == ':') {
            if (compressed) return false;
            compressed = true;
            ++pos;
        } else if (pos == n) {
            return false;
        }
    }
    return compressed ? groups <= 7 : groups == 8;
}

// ---- uuid ---------------------------------------------------------------------------------------

// 8-4-4-4-12 hex digits in either case, optionally after "urn:uuid:" (in either case). Any
// version and variant.
constexpr bool is_uuid(std::string_view s) noexcept {
    if (s.size() == 45 && iequals_ascii(s.substr(0, 9), "urn:uuid:")) s.remove_prefix(9);
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < 36; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
    }
    return true;
}

// ---- uri ---------------------------------------------------------------------------------------

// Character sets of RFC 3986 as ajv uses them; `pct` also allows %HH.
inline constexpr unsigned reg_name = 1; // unreserved / sub-delims
inline constexpr unsigned colon = 2;    // ":"
inline constexpr unsigned at_sign = 4;  // "@"
inline constexpr unsigned slash = 8;    // "/"
inline constexpr unsigned question = 16; // "?"
inline constexpr unsigned pct = 32;     // pct-encoded

constexpr bool is_sub_delim_or_unreserved(char c) noexcept {
    return is_alnum(c) || std::string_view("-._~!$&'()*+,;=").find(c) != std::string_view::npos;
}

constexpr bool uri_chars(std::string_view s, unsigned set) noexcept {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if ((set & reg_name) && is_sub_delim_or_unreserved(c)) continue;
        if ((set & colon) && c == ':') continue;
        if ((set & at_sign) && c == '@') continue;
        if ((set & slash) && c == '/') continue;
        if ((set & question) && c == '?') continue;
        if ((set & pct) && c == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
            i += 2;
            continue;
        }
        return false;
    }
    return true;
}

inline constexpr unsigned path_set = reg_name | colon | at_sign | slash | pct; // pchar and "/"
inline constexpr unsigned query_set = path_set | question;

// authority: [userinfo "@"] host [":" port], host an IP literal or a (possibly empty) reg-name.
// (ajv also lists IPv4 addresses, which the reg-name already covers.)
constexpr bool authority(std::string_view a) noexcept {
    if (const std::size_t at = a.find('@'); at != std::string_view::npos) {
        if (!uri_chars(a.substr(0, at), reg_name | colon | pct)) return false;
        a.remove_prefix(at + 1);
    }
    std::string_view port;
    if (!a.empty() && a[0] == '[') {
        const std::size_t close = a.find(']');
        if (close == std::string_view::npos) return false;
        const std::string_view literal = a.substr(1, close - 1);
        if (!literal.empty() && (literal[0] == 'v' || literal[0] == 'V')) { // IPvFuture
            const std::size_t h = run(literal, 1, is_hex);
            if (h == 0 || 1 + h == literal.size() || literal[1 + h] != '.' || 2 + h == literal.size() ||
                !uri_chars(literal.substr(2 + h), reg_name | colon))
                return false;
        } else if (!is_ipv6(literal, true)) {
            return false;
        }
        port = a.substr(close + 1);
    } else {
        const std::size_t c = a.find(':');
        if (!uri_chars(a.substr(0, c), reg_name | pct)) return false;
        port = c == std::string_view::npos ? std::string_view() : a.substr(c);
    }
    return port.empty() || (port[0] == ':' && run(port, 1, is_digit) + 1 == port.size());
}

// "authority path-abempty", the authority running to the first "/".
constexpr bool authority_and_path(std::string_view s) noexcept {
    const std::size_t slash_at = s.find('/');
    const std::string_view path = slash_at == std::string_view::npos ? std::string_view() : s.substr(slash_at);
    return authority(s.substr(0, slash_at)) && uri_chars(path, path_set);
}

// hier-part. ajv's grammar: "/" or "//" then authority and path-abempty; or path-absolute; or
// path-rootless. It has no path-empty: "foo:" and "foo:?q" are not URIs for ajv. Its single "/"
// before an authority, which may be empty, makes "http:/" + "" + "/a:80x/" a URI: any "//" path of
// path characters passes, whatever its would-be authority looks like, unless it holds a bracket.
constexpr bool hier_part(std::string_view h) noexcept {
    if (h.empty()) return false;
    if (h[0] != '/') return uri_chars(h, path_set); // path-rootless
    // path-absolute; a path starting "//" is "/", an empty authority, then path-abempty.
    if (uri_chars(h.substr(1), path_set)) return true;
    if (authority_and_path(h.substr(1))) return true;
    return h.size() >= 2 && h[1] == '/' && authority_and_path(h.substr(2));
}

// uri: an absolute URI (a scheme is required), ASCII only, fragment allowed.
constexpr bool is_uri(std::string_view s) noexcept {
    if (s.empty() || !is_alpha(s[0])) return false;
    const std::size_t scheme = 1 + run(s, 1, [](char c) { return is_alnum(c) || c == '+' || c == '-' || c == '.'; });
    if (scheme == s.size() || s[scheme] != ':') return false;
    std::string_view rest = s.substr(scheme + 1);
    const std::size_t hash = rest.find('#');
    if (hash != std::string_view::npos) {
        if (!uri_chars(rest.substr(hash + 1), query_set)) return false;
        rest = rest.substr(0, hash);
    }
    const std::size_t question_at = rest.find('?');
    if (question_at != std::string_view::npos) {
        if (!uri_chars(rest.substr(question_at + 1), query_set)) return false;
        rest = rest.substr(0, question_at);
    }
    return hier_part(rest);
}

} // namespace formats

/// Whether `text` (UTF-8) is a valid `f`, exactly as ajv-formats' "full" mode decides.
constexpr bool valid_format(agentry::string_format f, std::string_view text) noexcept {
    switch (f) {
    case agentry::string_format::date_time: return formats::is_date_time(text);
    case agentry::string_format::date: return formats::is_date(text);
    case agentry::string_format::time: return formats::is_time(text, true);
    case agentry::string_format::duration: return formats::is_duration(text);
    case agentry::string_format::email: return formats::is_email(text);
    case agentry::string_format::hostname: return formats::is_hostname(text);
    case agentry::string_format::ipv4: return formats::is_ipv4(text);
    case agentry::string_format::ipv6: return formats::is_ipv6(text);
    case agentry::string_format::uuid: return formats::is_uuid(text);
    case agentry::string_format::uri: return formats::is_uri(text);
    }
    return false;
}

} // namespace agentry::json::detail

#endif
