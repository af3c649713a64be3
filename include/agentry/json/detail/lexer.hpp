// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_LEXER_HPP
#define AGENTRY_JSON_DETAIL_LEXER_HPP

// JSON tokens (RFC 8259): whitespace, strings with every escape and UTF-8 validation, number
// tokens, and a validating skip over any value. No allocation except the decoded string.

#include <agentry/detail/separate.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

// For the few small functions of the reader's hot path that compilers otherwise leave out of
// line.
// AGENTRY_JSON_COLD: the error paths of checks, kept out of line so that the checks that pass
// stay small enough to inline.
// AGENTRY_JSON_SHARED: code shared by every type read, compiled once instead of inlined into
// each type's reader.
// The functions so marked that are not templates are declared with the _DECL forms and defined
// in json/impl/reader.ipp and writer.ipp (AGENTRY_DECL), so that with separate compilation they
// are compiled once for the program. GCC warns when a declaration and the definition of an
// inline function differ in noinline, which is therefore on the definitions only; those files
// silence that warning.
#if defined(__GNUC__) || defined(__clang__)
#define AGENTRY_JSON_INLINE [[gnu::always_inline]] inline
#define AGENTRY_JSON_COLD [[gnu::cold, gnu::noinline]] AGENTRY_DECL
#define AGENTRY_JSON_SHARED [[gnu::noinline]] AGENTRY_DECL
#define AGENTRY_JSON_COLD_DECL [[gnu::cold]] AGENTRY_DECL
#else
#define AGENTRY_JSON_INLINE inline
#define AGENTRY_JSON_COLD AGENTRY_DECL
#define AGENTRY_JSON_SHARED AGENTRY_DECL
#define AGENTRY_JSON_COLD_DECL AGENTRY_DECL
#endif
#define AGENTRY_JSON_SHARED_DECL AGENTRY_DECL

namespace agentry::json::detail {

enum class lex_error : unsigned char {
    none,
    end_of_input,
    unexpected_character,
    control_character_in_string,
    bad_escape,
    bad_unicode_escape,
    unpaired_surrogate,
    invalid_utf8,
    bad_number,
    too_deep,
};

constexpr std::string_view describe(lex_error e) noexcept {
    switch (e) {
    case lex_error::none: return "no error";
    case lex_error::end_of_input: return "unexpected end of input";
    case lex_error::unexpected_character: return "unexpected character";
    case lex_error::control_character_in_string: return "unescaped control character in a string";
    case lex_error::bad_escape: return "invalid escape in a string";
    case lex_error::bad_unicode_escape: return "invalid \\u escape";
    case lex_error::unpaired_surrogate: return "unpaired UTF-16 surrogate in a \\u escape";
    case lex_error::invalid_utf8: return "invalid UTF-8";
    case lex_error::bad_number: return "invalid number";
    case lex_error::too_deep: return "nesting too deep";
    }
    return "invalid JSON";
}

struct cursor {
    const char* begin = nullptr;
    const char* p = nullptr;
    const char* end = nullptr;
    lex_error error = lex_error::none;
    const char* error_at = nullptr;

    bool at_end() const noexcept { return p == end; }
    char peek() const noexcept { return p != end ? *p : '\0'; }
    std::size_t offset() const noexcept { return std::size_t((error_at ? error_at : p) - begin); }

    bool fail(lex_error e) noexcept {
        if (error == lex_error::none) {
            error = e;
            error_at = p;
        }
        return false;
    }

    /// Compact JSON has no whitespace: one comparison, inline, decides most calls.
    AGENTRY_JSON_INLINE void skip_ws() noexcept {
        if (p != end && static_cast<unsigned char>(*p) <= ' ') skip_ws_run();
    }

    void skip_ws_run() noexcept {
        while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    }

    bool consume(char c) noexcept {
        skip_ws();
        if (p != end && *p == c) {
            ++p;
            return true;
        }
        return false;
    }

    bool literal(std::string_view word) noexcept {
        bool same = std::size_t(end - p) >= word.size();
        for (std::size_t i = 0; same && i != word.size(); ++i) same = p[i] == word[i];
        if (!same) return fail(p == end ? lex_error::end_of_input : lex_error::unexpected_character);
        p += word.size();
        return true;
    }
};

// Length of the UTF-8 sequence starting at p (1 to 4), or 0 when it is not valid UTF-8:
// no overlong forms, no surrogates, nothing above U+10FFFF.
inline std::size_t utf8_sequence(const char* p, const char* end) noexcept {
    const auto b0 = static_cast<unsigned char>(p[0]);
    if (b0 < 0x80) return 1;
    const auto cont = [&](std::size_t i) {
        return p + i < end && (static_cast<unsigned char>(p[i]) & 0xC0) == 0x80;
    };
    if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
    if (b0 >= 0xE0 && b0 <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        const auto b1 = static_cast<unsigned char>(p[1]);
        if (b0 == 0xE0 && b1 < 0xA0) return 0;   // overlong
        if (b0 == 0xED && b1 >= 0xA0) return 0;  // surrogate
        return 3;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        const auto b1 = static_cast<unsigned char>(p[1]);
        if (b0 == 0xF0 && b1 < 0x90) return 0;  // overlong
        if (b0 == 0xF4 && b1 >= 0x90) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;
}

inline void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

inline int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

inline bool read_hex4(cursor& in, std::uint32_t& value) noexcept {
    if (in.end - in.p < 4) return in.fail(lex_error::bad_unicode_escape);
    value = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hex_value(in.p[i]);
        if (h < 0) return in.fail(lex_error::bad_unicode_escape);
        value = value * 16 + std::uint32_t(h);
    }
    in.p += 4;
    return true;
}

// A string, cursor on the opening quote. With `out`, its decoded text is appended there;
// without, the string is only validated. `escaped` tells whether it held any escape.
// Bytes that need no attention in a string: printable ASCII other than '"' and '\'.
inline constexpr auto plain_byte = [] {
    std::array<bool, 256> table{};
    for (std::size_t c = 0x20; c < 0x80; ++c) table[c] = c != '"' && c != '\\';
    return table;
}();

// The high bit of each of the eight bytes in w (loaded little-endian) that is a control
// character, '"', '\' or not ASCII, and possibly of bytes after such a byte (a borrow carries
// into them). Exact when zero; its lowest set bit is always exact.
inline std::uint64_t attention_bits(std::uint64_t w) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    constexpr std::uint64_t highs = 0x8080808080808080ull;
    const std::uint64_t quote = w ^ (ones * '"');
    const std::uint64_t backslash = w ^ (ones * '\\');
    const std::uint64_t control = (w - ones * 0x20) & ~w;
    const std::uint64_t is_quote = (quote - ones) & ~quote;
    const std::uint64_t is_backslash = (backslash - ones) & ~backslash;
    return (control | is_quote | is_backslash | w) & highs;
}

// Whether any of the eight bytes in w is a control character, '"', '\' or not ASCII. Exact
// when it says no; a yes may be wrong, which only sends those bytes to the slow path.
inline bool needs_attention(std::uint64_t w) noexcept {
    return attention_bits(w) != 0;
}

// The first byte at or after p that is not plain_byte (or end), eight bytes at a time.
inline const char* skip_plain(const char* p, const char* end) noexcept {
    while (end - p >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        if constexpr (std::endian::native == std::endian::little) {
            if (const std::uint64_t bits = attention_bits(word)) return p + std::countr_zero(bits) / 8;
        } else if (needs_attention(word)) {
            break;
        }
        p += 8;
    }
    while (p != end && plain_byte[static_cast<unsigned char>(*p)]) ++p;
    return p;
}

inline bool read_string(cursor& in, std::string* out, bool* escaped = nullptr) {
    if (in.p == in.end || *in.p != '"') return in.fail(in.p == in.end ? lex_error::end_of_input : lex_error::unexpected_character);
    ++in.p;
    bool any_escape = false;
    for (;;) {
        const char* run = in.p;
        in.p = skip_plain(in.p, in.end);
        if (out && in.p != run) out->append(run, std::size_t(in.p - run));
        if (in.p == in.end) return in.fail(lex_error::end_of_input);
        const auto c = static_cast<unsigned char>(*in.p);
        if (c == '"') {
            ++in.p;
            if (escaped) *escaped = any_escape;
            return true;
        }
        if (c < 0x20) return in.fail(lex_error::control_character_in_string);
        if (c >= 0x80) {
            const std::size_t n = utf8_sequence(in.p, in.end);
            if (n == 0) return in.fail(lex_error::invalid_utf8);
            if (out) out->append(in.p, n);
            in.p += n;
            continue;
        }
        any_escape = true;
        ++in.p;  // backslash
        if (in.p == in.end) return in.fail(lex_error::end_of_input);
        const char e = *in.p++;
        char plain = 0;
        switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
            std::uint32_t cp = 0;
            if (!read_hex4(in, cp)) return false;
            if (cp >= 0xDC00 && cp <= 0xDFFF) return in.fail(lex_error::unpaired_surrogate);
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                std::uint32_t low = 0;
                if (in.end - in.p < 2 || in.p[0] != '\\' || in.p[1] != 'u') return in.fail(lex_error::unpaired_surrogate);
                in.p += 2;
                if (!read_hex4(in, low)) return false;
                if (low < 0xDC00 || low > 0xDFFF) return in.fail(lex_error::unpaired_surrogate);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            if (out) append_utf8(*out, cp);
            continue;
        }
        default: --in.p; return in.fail(lex_error::bad_escape);
        }
        if (out) out->push_back(plain);
    }
}

// A number token, cursor on its first character: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
struct number_token {
    std::string_view text;
    bool integral = true;  // no fraction and no exponent
    bool negative = false;
};

inline bool read_number(cursor& in, number_token& token) noexcept {
    const char* start = in.p;
    const auto digit = [&] { return in.p != in.end && *in.p >= '0' && *in.p <= '9'; };
    token = {};
    if (in.p != in.end && *in.p == '-') {
        token.negative = true;
        ++in.p;
    }
    if (!digit()) return in.fail(in.p == in.end ? lex_error::end_of_input : lex_error::bad_number);
    if (*in.p == '0') {
        ++in.p;
    } else {
        while (digit()) ++in.p;
    }
    if (in.p != in.end && *in.p == '.') {
        ++in.p;
        if (!digit()) return in.fail(lex_error::bad_number);
        while (digit()) ++in.p;
        token.integral = false;
    }
    if (in.p != in.end && (*in.p == 'e' || *in.p == 'E')) {
        ++in.p;
        if (in.p != in.end && (*in.p == '+' || *in.p == '-')) ++in.p;
        if (!digit()) return in.fail(lex_error::bad_number);
        while (digit()) ++in.p;
        token.integral = false;
    }
    token.text = std::string_view(start, std::size_t(in.p - start));
    return true;
}

// Validates and skips one value of any type, cursor on its first character (after whitespace).
// Arrays and objects are walked with an explicit count of open brackets, not recursion.
inline bool skip_value(cursor& in, std::size_t depth, std::size_t max_depth) {
    // One bit per open container: set for an object, clear for an array.
    constexpr std::size_t stack_bits = 1024;
    unsigned long long kinds[stack_bits / 64]{};
    std::size_t open = 0;
    const auto is_object = [&] { return (kinds[(open - 1) / 64] >> ((open - 1) % 64)) & 1; };
    for (;;) {
        in.skip_ws();
        if (in.p == in.end) return in.fail(lex_error::end_of_input);
        // A value.
        const char c = *in.p;
        if (c == '{' || c == '[') {
            if (depth + open + 1 > max_depth || open == stack_bits) return in.fail(lex_error::too_deep);
            ++in.p;
            ++open;
            const unsigned long long bit = 1ull << ((open - 1) % 64);
            if (c == '{') kinds[(open - 1) / 64] |= bit;
            else kinds[(open - 1) / 64] &= ~bit;
            in.skip_ws();
            if (in.p != in.end && *in.p == (c == '{' ? '}' : ']')) {
                ++in.p;
                --open;
            } else if (c == '{') {
                if (!read_string(in, nullptr)) return false;
                if (!in.consume(':')) return in.fail(in.p == in.end ? lex_error::end_of_input : lex_error::unexpected_character);
                continue;
            } else {
                continue;
            }
        } else if (c == '"') {
            if (!read_string(in, nullptr)) return false;
        } else if (c == 't') {
            if (!in.literal("true")) return false;
        } else if (c == 'f') {
            if (!in.literal("false")) return false;
        } else if (c == 'n') {
            if (!in.literal("null")) return false;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            number_token t;
            if (!read_number(in, t)) return false;
        } else {
            return in.fail(lex_error::unexpected_character);
        }
        // After a value: close containers or move to the next element.
        for (;;) {
            if (open == 0) return true;
            in.skip_ws();
            if (in.p == in.end) return in.fail(lex_error::end_of_input);
            const char close = is_object() ? '}' : ']';
            if (*in.p == close) {
                ++in.p;
                --open;
                continue;
            }
            if (*in.p != ',') return in.fail(lex_error::unexpected_character);
            ++in.p;
            if (is_object()) {
                in.skip_ws();
                if (!read_string(in, nullptr)) return false;
                if (!in.consume(':')) return in.fail(in.p == in.end ? lex_error::end_of_input : lex_error::unexpected_character);
            }
            break;
        }
    }
}

} // namespace agentry::json::detail

#endif
