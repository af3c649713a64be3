// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_FUZZ_COMMON_HPP
#define AGENTRY_TESTS_FUZZ_COMMON_HPP

// Shared by the fuzz targets: an invariant check that aborts (libFuzzer reports it as a crash,
// the replay driver as a failed test), checks on a read_result that hold for every input, and
// a small JSON parser written independently of agentry's, to compare against.

#include <agentry/agentry.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fuzz {

[[noreturn]] inline void fail(const char* file, int line, const char* what, std::string_view detail) {
    std::fprintf(stderr, "\n%s:%d: fuzz invariant broken: %s\n", file, line, what);
    if (!detail.empty()) std::fprintf(stderr, "  detail: %.*s\n", int(detail.size() > 2000 ? 2000 : detail.size()), detail.data());
    std::fflush(stderr);
    std::abort();
}

#define FUZZ_CHECK(cond, detail)                                     \
    do {                                                             \
        if (!(cond)) ::fuzz::fail(__FILE__, __LINE__, #cond, (detail)); \
    } while (false)

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) noexcept {
    return {reinterpret_cast<const char*>(data), size};
}

// ---- UTF-8 --------------------------------------------------------------------------------

/// Strict UTF-8 (RFC 3629): shortest form, no surrogates, at most U+10FFFF.
inline bool valid_utf8(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned b = static_cast<unsigned char>(s[i]);
        std::size_t extra = 0;
        std::uint32_t cp = 0;
        std::uint32_t least = 0;
        if (b < 0x80) {
            ++i;
            continue;
        } else if ((b >> 5) == 0x6) {
            extra = 1, cp = b & 0x1F, least = 0x80;
        } else if ((b >> 4) == 0xE) {
            extra = 2, cp = b & 0x0F, least = 0x800;
        } else if ((b >> 3) == 0x1E) {
            extra = 3, cp = b & 0x07, least = 0x10000;
        } else {
            return false;
        }
        if (s.size() - i <= extra) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const unsigned c = static_cast<unsigned char>(s[i + k]);
            if ((c >> 6) != 0x2) return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += extra + 1;
    }
    return true;
}

inline std::size_t code_point_count(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    return n;
}

// ---- an independent JSON parser -----------------------------------------------------------

/// A parsed JSON value. Numbers keep their text; strings are decoded.
struct jvalue {
    enum type_t { null, boolean, number, string, array, object } type = null;
    bool flag = false;
    std::string text;
    /// Array items, or object member values (in the order of `keys`).
    std::vector<jvalue> items;
    /// Object member names.
    std::vector<std::string> keys;

    /// The first member called `key`, or nullptr.
    const jvalue* find(std::string_view key) const noexcept;
    /// How many members are called `key`.
    std::size_t count(std::string_view key) const noexcept;
};

inline const jvalue* jvalue::find(std::string_view key) const noexcept {
    for (std::size_t i = 0; i != keys.size(); ++i)
        if (keys[i] == key) return &items[i];
    return nullptr;
}

inline std::size_t jvalue::count(std::string_view key) const noexcept {
    std::size_t n = 0;
    for (const auto& k : keys) n += k == key;
    return n;
}

/// RFC 8259 JSON, with agentry's stricter choices: strings must be valid UTF-8 and \u escapes
/// must not leave a surrogate unpaired. At most `max_depth` arrays and objects nest. Recursive
/// (depth is bounded by max_depth).
class json_parser {
public:
    json_parser(std::string_view text, std::size_t max_depth) noexcept
        : p_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth) {}

    std::optional<jvalue> document() {
        jvalue v;
        ws();
        if (!value(v, 0)) return std::nullopt;
        ws();
        if (p_ != end_) return std::nullopt;
        return v;
    }

private:
    void ws() noexcept {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool eat(char c) noexcept {
        if (p_ != end_ && *p_ == c) {
            ++p_;
            return true;
        }
        return false;
    }
    bool word(std::string_view w) noexcept {
        if (std::size_t(end_ - p_) < w.size()) return false;
        for (std::size_t i = 0; i != w.size(); ++i)
            if (p_[i] != w[i]) return false;
        p_ += w.size();
        return true;
    }
    static bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

    bool value(jvalue& v, std::size_t depth) {
        if (p_ == end_) return false;
        switch (*p_) {
        case 'n': v.type = jvalue::null; return word("null");
        case 't': v.type = jvalue::boolean; v.flag = true; return word("true");
        case 'f': v.type = jvalue::boolean; v.flag = false; return word("false");
        case '"': v.type = jvalue::string; return string(v.text);
        case '[': {
            if (depth + 1 > max_depth_) return false;
            ++p_;
            v.type = jvalue::array;
            ws();
            if (eat(']')) return true;
            for (;;) {
                ws();
                v.items.emplace_back();
                if (!value(v.items.back(), depth + 1)) return false;
                ws();
                if (eat(',')) continue;
                return eat(']');
            }
        }
        case '{': {
            if (depth + 1 > max_depth_) return false;
            ++p_;
            v.type = jvalue::object;
            ws();
            if (eat('}')) return true;
            for (;;) {
                ws();
                std::string key;
                if (p_ == end_ || *p_ != '"' || !string(key)) return false;
                ws();
                if (!eat(':')) return false;
                ws();
                v.keys.push_back(std::move(key));
                v.items.emplace_back();
                if (!value(v.items.back(), depth + 1)) return false;
                ws();
                if (eat(',')) continue;
                return eat('}');
            }
        }
        default: v.type = jvalue::number; return number(v.text);
        }
    }

    bool number(std::string& out) noexcept {
        const char* start = p_;
        eat('-');
        if (p_ == end_ || !digit(*p_)) return false;
        if (*p_ == '0') ++p_;
        else
            while (p_ != end_ && digit(*p_)) ++p_;
        if (eat('.')) {
            if (p_ == end_ || !digit(*p_)) return false;
            while (p_ != end_ && digit(*p_)) ++p_;
        }
        if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
            ++p_;
            if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            if (p_ == end_ || !digit(*p_)) return false;
            while (p_ != end_ && digit(*p_)) ++p_;
        }
        out.assign(start, p_);
        return true;
    }

    bool hex4(std::uint32_t& out) noexcept {
        if (end_ - p_ < 4) return false;
        out = 0;
        for (int i = 0; i != 4; ++i) {
            const char c = *p_++;
            std::uint32_t d = 0;
            if (c >= '0' && c <= '9') d = std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f') d = std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = std::uint32_t(c - 'A' + 10);
            else return false;
            out = out * 16 + d;
        }
        return true;
    }

    static void put_utf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    bool string(std::string& out) {
        ++p_;  // opening quote
        const char* run = p_;
        for (;;) {
            if (p_ == end_) return false;
            const unsigned char c = static_cast<unsigned char>(*p_);
            if (c == '"') {
                out.append(run, p_);
                if (!valid_utf8(std::string_view(run, std::size_t(p_ - run)))) return false;
                ++p_;
                return true;
            }
            if (c < 0x20) return false;
            if (c != '\\') {
                ++p_;
                continue;
            }
            out.append(run, p_);
            if (!valid_utf8(std::string_view(run, std::size_t(p_ - run)))) return false;
            ++p_;
            if (p_ == end_) return false;
            const char e = *p_++;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    std::uint32_t low = 0;
                    if (!word("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
                    cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00));
                }
                put_utf8(out, cp);
                break;
            }
            default: return false;
            }
            run = p_;
        }
    }

    const char* p_;
    const char* end_;
    std::size_t max_depth_;
};

inline std::optional<jvalue> parse_json(std::string_view text, std::size_t max_depth = 64) {
    return json_parser(text, max_depth).document();
}

/// The exact integer a JSON number text denotes ("5", "5.0", "0.5e1", "5.000...0"):
/// `integral` when it has no fraction; `value` when it is also within +-10^18.
struct exact_int {
    bool integral = false;
    std::optional<long long> value;
};

inline exact_int exact_integer_of(std::string_view t) {
    exact_int out;
    std::size_t i = 0;
    const bool negative = i < t.size() && t[i] == '-';
    if (negative) ++i;
    std::string digits;
    long long int_len = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++int_len) digits += t[i];
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) digits += t[i];
    long long e = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool minus = false;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) minus = t[i++] == '-';
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) e = std::min(e * 10 + (t[i] - '0'), 1000000000LL);
        if (minus) e = -e;
    }
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
        out.integral = true;
        out.value = 0;
        return out;
    }
    const auto last = digits.find_last_not_of('0');
    const long long point = int_len + e;  // digits before the decimal point
    if ((long long)last >= point) return out;  // a non-zero digit after the point
    out.integral = true;
    if (point - (long long)first > 18) return out;
    long long v = 0;
    for (long long k = (long long)first; k < point; ++k) v = v * 10 + (k < (long long)digits.size() ? digits[std::size_t(k)] - '0' : 0);
    out.value = negative ? -v : v;
    return out;
}

/// Text without leading and trailing JSON whitespace.
inline std::string_view trim_json_ws(std::string_view s) noexcept {
    const auto is_ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && is_ws(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
    return s;
}

// ---- checks on every read_result ----------------------------------------------------------

inline bool any_repair(const agentry::json::repairs& r) noexcept {
    return r.empty_as_object || r.json_in_string || r.number_in_string || r.enum_case;
}

/// A JSON Pointer: empty, or "/"-separated tokens where '~' is always followed by 0 or 1.
inline bool valid_pointer(std::string_view p) noexcept {
    if (p.empty()) return true;
    if (p.front() != '/') return false;
    for (std::size_t i = 0; i != p.size(); ++i)
        if (p[i] == '~' && (i + 1 == p.size() || (p[i + 1] != '0' && p[i + 1] != '1'))) return false;
    return true;
}

inline std::string describe_errors(const std::vector<agentry::json::read_error>& errors) {
    std::string out;
    for (const auto& e : errors) {
        out += '[';
        out += agentry::json::keyword_of(e.kind);
        out += "] ";
        out += e.to_string();
        out += " | ";
    }
    return out;
}

/// What holds for any read, whatever the input and the options.
template <class R>
void check_result(const R& r, const agentry::json::read_options& options) {
    using agentry::json::error_kind;
    const std::size_t limit = options.max_errors == 0 ? 1 : options.max_errors;
    FUZZ_CHECK(r.errors.size() <= limit + 1, describe_errors(r.errors));
    for (std::size_t i = 0; i != r.errors.size(); ++i) {
        const auto& e = r.errors[i];
        FUZZ_CHECK(e.kind <= error_kind::too_many_errors, describe_errors(r.errors));
        FUZZ_CHECK(agentry::json::keyword_of(e.kind) != "unknown", describe_errors(r.errors));
        FUZZ_CHECK(valid_pointer(e.pointer), e.pointer);
        FUZZ_CHECK(!e.message.empty(), describe_errors(r.errors));
        // The cut-off marker follows a full list of real errors, and only then.
        FUZZ_CHECK((e.kind == error_kind::too_many_errors) == (i == limit), describe_errors(r.errors));
        // A syntax error stops reading: nothing is reported after it.
        if (e.kind == error_kind::syntax || e.kind == error_kind::too_deep || e.kind == error_kind::too_large)
            FUZZ_CHECK(i + 1 == r.errors.size(), describe_errors(r.errors));
    }
    if (!any_repair(options.repairs)) FUZZ_CHECK(r.repairs.empty(), r.repairs.front());
    for (const auto& note : r.repairs) {
        FUZZ_CHECK(!note.empty(), "empty repair note");
        // "pointer: note", the pointer once.
        const auto colon = note.find(": ");
        if (!note.starts_with('/') || colon == std::string::npos) continue;
        const std::string_view where(note.data(), colon + 2);
        FUZZ_CHECK(!std::string_view(note).substr(colon + 2).starts_with(where), note);
    }
}

/// True when some error says the text is not JSON (or too deep, or too large).
template <class R>
bool has_syntax_error(const R& r) noexcept {
    using agentry::json::error_kind;
    for (const auto& e : r.errors)
        if (e.kind == error_kind::syntax || e.kind == error_kind::too_deep || e.kind == error_kind::too_large) return true;
    return false;
}

/// Without repairs, text that is read without error is JSON, and text that is JSON (within
/// the depth limit) never gets a syntax error.
template <class R>
void check_against_json(const R& r, std::string_view text, const agentry::json::read_options& options) {
    if (any_repair(options.repairs) || text.size() > options.max_size) return;
    const bool is_json = parse_json(text, options.max_depth).has_value();
    if (r.ok()) FUZZ_CHECK(is_json, text);
    if (is_json) FUZZ_CHECK(!has_syntax_error(r), describe_errors(r.errors));
}

/// Writes `value`, reads it back as T and writes it again: both texts must be equal, and the
/// first must be JSON. Empty optionals are written as null, so they are read back with
/// null_as_absent.
template <class T, class V>
void check_round_trip(const V& value, std::size_t max_depth) {
    std::string written;
    if (!agentry::json::write(written, value)) return;
    FUZZ_CHECK(parse_json(written, 100000).has_value(), written);
    agentry::json::read_options again;
    again.null_as_absent = true;
    again.max_depth = max_depth < 64 ? 64 : max_depth;
    again.max_size = std::size_t(-1);
    const auto back = agentry::json::read<T>(written, again);
    FUZZ_CHECK(back.ok(), written + " -> " + describe_errors(back.errors));
    std::string rewritten;
    agentry::json::write(rewritten, back.value);
    FUZZ_CHECK(rewritten == written, written + " -> " + rewritten);
}

} // namespace fuzz

#endif
