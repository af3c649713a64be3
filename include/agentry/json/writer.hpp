// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_WRITER_HPP
#define AGENTRY_JSON_WRITER_HPP

// agentry::json::write / to_json: the JSON text of a typed value, e.g. a tool's result for the
// model.
//
// What is written, by type:
//
// | type                                             | JSON                                      |
// | ------------------------------------------------ | ----------------------------------------- |
// | bool                                             | true / false                              |
// | integers (not char types)                        | decimal, exact                            |
// | float, double                                    | shortest text that reads back to the same |
// |                                                  | value ("0.1", "1", "-0", "1e+300");       |
// |                                                  | NaN and infinities as null                |
// | std::string, std::string_view, const char*,      | string (see "Strings"); a null            |
// | char arrays (up to the first '\0')               | const char* as null                       |
// | enums                                            | the enumerator's name as a string; a      |
// |                                                  | value with no name as its integer         |
// | std::optional<T>                                 | null when empty, else T                   |
// | std::vector, std::array, std::set,               | array, in iteration order                 |
// | std::unordered_set, std::deque, std::list        |                                           |
// | std::map / std::unordered_map<K, T>, K a       | object, in iteration order; an integer    |
// | std::string, an integer or an enum               | key as its decimal text, an enum key as   |
// |                                                  | its enumerator's name                     |
// | std::pair, std::tuple                            | array, one item per element               |
// | aggregate structs                                | object, every field in declaration order; |
// |                                                  | an empty std::optional field as null      |
// | std::variant                                     | the active alternative; std::monostate    |
// |                                                  | (and a valueless variant) as null         |
// | agentry::constrained<T, C...>                    | its value (constraints are not checked)   |
// | agentry::raw_json                                | its text as is; empty text as null        |
// | a type with agentry::adapter<T>::json_type       | adapter<T>::to_json(value), written as    |
// | (std::chrono durations, dates and time points,   | that type (docs/reflection.md)            |
// | std::filesystem::path, user types)               |                                           |
//
// The types are those with a JSON Schema (schema::detail::kind_of), plus const char* and char
// arrays, which have none: a tool whose result is one of those still fails when its result
// schema is asked for. Any other type is a static_assert whose message starts with
// "agentry: " and says what to use instead.
//
// An empty std::optional field of an aggregate is written as `"field":null`, not left out:
// the object then has the same keys whatever the values, which the strict dialects (every
// property required, optional ones nullable) demand and the others accept.
//
// Strings: `"` and `\` are escaped, and every control character below U+0020 as \b \t \n \f \r
// or \u00XX. Everything else, U+007F and U+2028/U+2029 included, is copied as is, as JSON
// allows. Bytes that are not well-formed UTF-8 are each replaced, one maximal ill-formed
// subsequence at a time (as Unicode recommends), by U+FFFD, so the output is always valid
// UTF-8. raw_json text is the one exception: it is inserted unchecked.
//
// Cap: write_options::max_size bounds the bytes one call appends (0: no bound). When the
// complete text would be longer, the text is cut at a UTF-8 character boundary so that, with
// the marker appended after it,
//
//     …[truncated: the result exceeded the limit of 1024 bytes]
//
// (truncation_marker, the cap in decimal, truncation_marker_end) the call appends at most
// max_size bytes; write returns false. The text before the marker is a prefix of the complete
// JSON text, so it is usually not valid JSON by itself; the marker tells the model why. When
// max_size is smaller than the marker, the marker alone is appended. Work is bounded by the
// cap as well: a long string or container is not written in full only to be cut.
//
// Cost: the text is gathered in a 256-byte buffer on the stack and appended to `out` in blocks
// (a result of up to 256 bytes in one append); nothing is reserved ahead. Strings are copied in
// runs of bytes that need no escaping, eight bytes tested at a time. Field keys are compile-time
// text, copied in one piece per field. A double is written as std::to_chars writes it, byte for
// byte; one that equals a short decimal n / 10^k (n < 2^50, k <= 22) is written without
// calling it (one multiplication and division per decimal place; see short_decimal_text).
//
// Exceptions: none are thrown by the writer itself. The only ones that can escape are those
// std::string throws when it grows (std::bad_alloc, or std::length_error past max_size());
// `out` is then restored to its size at the call (when exceptions are enabled). `value` must
// not be, or view, `out` itself.

#include <agentry/detail/text.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/diagnostics.hpp>
#include <agentry/schema/raw_json.hpp>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::json {

struct write_options {
    /// Cap on the bytes one call appends, the truncation marker included; 0 (the default): no
    /// cap. Tool results are capped by the registry (call_options::max_result_size).
    std::size_t max_size = 0;
    /// Leave out the empty std::optional fields of aggregates instead of writing them as null
    /// (request bodies, where an absent member and null can mean different things).
    bool omit_empty_optionals = false;
};

/// The start of the text appended when the cap cuts the output. The cap in decimal and
/// truncation_marker_end follow it: "…[truncated: the result exceeded the limit of 1024 bytes]".
inline constexpr std::string_view truncation_marker = "\xE2\x80\xA6[truncated: the result exceeded the limit of ";
/// The end of the truncation marker, after the cap.
inline constexpr std::string_view truncation_marker_end = " bytes]";

namespace detail::emit {

using schema::detail::kind;

template <class T>
inline constexpr bool is_deque_or_list = false;
template <class T, class A>
inline constexpr bool is_deque_or_list<std::deque<T, A>> = true;
template <class T, class A>
inline constexpr bool is_deque_or_list<std::list<T, A>> = true;

template <class T>
inline constexpr bool is_char_pointer = std::is_same_v<T, const char*> || std::is_same_v<T, char*>;

template <class T>
inline constexpr bool is_char_array = false;
template <std::size_t N>
inline constexpr bool is_char_array<char[N]> = true;

/// Instantiated for a type the writer cannot write; its name appears in the compiler's note.
template <class T>
struct no_json_writer_for {
    static_assert(!std::is_pointer_v<T>,
                  "agentry: json::write cannot write a pointer (other than const char*); write the value it points "
                  "to, or a std::optional<T> for a value that may be absent");
    static_assert(!std::is_same_v<T, char>,
                  "agentry: json::write cannot write a char; use std::string for text or std::int8_t for a small "
                  "number");
    static_assert(!std::is_same_v<T, long double>, "agentry: json::write cannot write long double; use double");
    static_assert(!std::is_array_v<T>, "agentry: json::write cannot write a C array; use std::array or std::vector");
    static_assert(!schema::detail::is_optional<T>,
                  "agentry: json::write cannot write std::optional<std::optional<T>>, as JSON has one null; use one "
                  "std::optional");
    static_assert(!schema::detail::is_map<T>,
                  "agentry: json::write writes a map as a JSON object, whose keys are strings; use a key of type "
                  "std::string, an integer or an enum");
    static_assert(!schema::detail::is_named_parameters<T>,
                  "agentry: agentry::named_parameters names a tool's parameters and holds no value; write the values");
    static_assert(!reflect::aggregate<T> || schema::detail::is_std_array<T> || schema::detail::is_named_parameters<T>,
                  "agentry: json::write: an aggregate may have at most 64 fields; group some of them into a nested "
                  "struct");
    static_assert(std::is_pointer_v<T> || std::is_same_v<T, char> || std::is_same_v<T, long double> ||
                      std::is_array_v<T> || schema::detail::is_optional<T> || schema::detail::is_map<T> ||
                      schema::detail::is_named_parameters<T> || reflect::aggregate<T>,
                  "agentry: json::write cannot write this type (its name is in the 'no_json_writer_for<T>' note); "
                  "use bool, an integer, float, double, std::string, std::string_view, const char*, an enum, an "
                  "aggregate struct, std::optional, std::vector, std::array, std::set, std::deque, std::list, "
                  "std::map<std::string, T>, std::variant, agentry::constrained or agentry::raw_json, or convert it "
                  "to one of those");
};

/// Where the text goes, and where the cap lies: size() > limit means the cap was passed. Bytes
/// are gathered in a buffer on the stack and appended to `out` in blocks (flush()): a byte
/// costs a store, not a call into std::string.
class sink {
public:
    sink(std::string& text, std::size_t cap_at, bool omit_empty) noexcept
        : out(text), limit(cap_at), omit_empty_optionals(omit_empty) {}
    sink(const sink&) = delete;
    sink& operator=(const sink&) = delete;

    std::string& out;
    std::size_t limit;
    bool omit_empty_optionals;

    /// The length of the text so far: what `out` holds and what the buffer holds.
    std::size_t size() const noexcept { return out.size() + used_; }
    bool full() const noexcept { return size() > limit; }
    /// Bytes that can still be appended without passing the cap.
    std::size_t room() const noexcept { return size() < limit ? limit - size() : 0; }

    AGENTRY_JSON_INLINE void put(char c) {
        if (used_ == capacity) flush();
        buffer_[used_++] = c;
    }
    AGENTRY_JSON_INLINE void append(const char* data, std::size_t n) {
        if (n > capacity - used_) [[unlikely]] {
            append_long(data, n);
            return;
        }
        if (n != 0) std::memcpy(buffer_ + used_, data, n);  // an empty string_view may have no data
        used_ += n;
    }
    /// Room for at least n (<= capacity) bytes written straight into the buffer, then commit().
    char* reserve(std::size_t n) {
        if (n > capacity - used_) flush();
        return buffer_ + used_;
    }
    void commit(const char* end) noexcept { used_ = static_cast<std::size_t>(end - buffer_); }
    // Out of line: inlined, std::string::append would be copied into every writer.
    AGENTRY_JSON_SHARED void flush() {
        out.append(buffer_, used_);
        used_ = 0;
    }
    void append_long(const char* data, std::size_t n) {
        flush();
        if (n > capacity) out.append(data, n);
        else {
            std::memcpy(buffer_, data, n);
            used_ = n;
        }
    }

    static constexpr std::size_t capacity = 256;

private:
    char buffer_[capacity];
    std::size_t used_ = 0;
};

// ---- scalars ------------------------------------------------------------------------------

// One function per width and signedness, shared by every integer field written.
template <class I>
AGENTRY_JSON_SHARED void put_wide_integer(sink& s, I value) {
    char* const buffer = s.reserve(48);
    s.commit(std::to_chars(buffer, buffer + 48, value).ptr);
}

template <class I>
inline void put_integer(sink& s, I value) {
    if constexpr (sizeof(I) <= sizeof(long long))
        put_wide_integer(s, static_cast<std::conditional_t<std::is_signed_v<I>, long long, unsigned long long>>(value));
    else
        put_wide_integer(s, value);
}

// Two decimal digits per entry, "00" to "99".
inline constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the decimal digits of n (n < 10^16) ending at `end`; returns where they start.
inline char* put_digits_backwards(char* end, std::uint64_t n) noexcept {
    while (n >= 100) {
        const std::size_t pair = static_cast<std::size_t>(n % 100) * 2;
        n /= 100;
        *--end = digit_pairs[pair + 1];
        *--end = digit_pairs[pair];
    }
    if (n >= 10) {
        const std::size_t pair = static_cast<std::size_t>(n) * 2;
        *--end = digit_pairs[pair + 1];
        *--end = digit_pairs[pair];
    } else {
        *--end = static_cast<char>('0' + n);
    }
    return end;
}

inline constexpr double exact_powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The room short_decimal_text needs: a sign, "0." and 21 zeros, 16 digits, with some to spare.
inline constexpr std::size_t short_decimal_size = 48;

// The text std::to_chars(value) writes (the shortest that reads back to `value`, fixed or
// scientific, whichever has fewer characters, fixed on a tie), for a double that is a short
// decimal: n / 10^k with n < 2^50, k <= 22 and |value| >= 1e-6, into `text` (at least
// short_decimal_size bytes); returns the end of the text. Null for any other value.
//
// Why the text is right: x = |value| * 10^k rounded once is within x * 2^-53 < 1/8 of the
// exact product, and the decimals that read back to `value` lie within half an ulp of it, at
// most x * 2^-53 < 1/8 on the scale of 10^-k. So an integer m with m / 10^k reading back to
// `value` is the one nearest to x, found as floor(x + 0.5), and it is the only one: the test
// below (exact m and 10^k, one correctly rounded division, which is how from_chars reads
// m * 10^-k) finds it if it exists. Trying k = 0, 1, 2, ... finds the coarsest power of ten
// with a multiple that reads back, which is the shortest text: m has no trailing zero for
// k > 0 (else k - 1 had one), and for k = 0 the trailing zeros are the exponent.
inline char* short_decimal_text(char* text, double value) noexcept {
    const double a = value < 0 ? -value : value;
    if (!(a >= 1e-6)) return nullptr;
    std::uint64_t digits = 0;
    int exponent = 0; // value = digits * 10^exponent
    for (int k = 0;; ++k) {
        if (k > 22) return nullptr;
        const double p = exact_powers_of_ten[k];
        const double x = a * p;
        if (!(x < 0x1p50)) return nullptr;
        const std::int64_t m = static_cast<std::int64_t>(x + 0.5);
        if (static_cast<double>(m) / p == a) {
            digits = static_cast<std::uint64_t>(m);
            exponent = -k;
            break;
        }
    }
    if (exponent == 0)
        while (digits % 10 == 0) {
            digits /= 10;
            ++exponent;
        }
    char buffer[40];
    char* const end = buffer + sizeof buffer;
    char* const first = put_digits_backwards(end, digits);
    const int count = static_cast<int>(end - first);
    const int scientific_exponent = exponent + count - 1; // |.| <= 22: two digits
    const int scientific_length = count + (count > 1 ? 1 : 0) + 4;
    const int fixed_length = exponent >= 0 ? count + exponent : (count > -exponent ? count + 1 : 2 - exponent);
    char* t = text;
    if (value < 0) *t++ = '-';
    if (fixed_length <= scientific_length) {
        if (exponent >= 0) {
            std::memcpy(t, first, static_cast<std::size_t>(count));
            t += count;
            for (int i = 0; i != exponent; ++i) *t++ = '0';
        } else if (count > -exponent) {
            const int whole = count + exponent;
            std::memcpy(t, first, static_cast<std::size_t>(whole));
            t += whole;
            *t++ = '.';
            std::memcpy(t, first + whole, static_cast<std::size_t>(-exponent));
            t += -exponent;
        } else {
            *t++ = '0';
            *t++ = '.';
            for (int i = count; i != -exponent; ++i) *t++ = '0';
            std::memcpy(t, first, static_cast<std::size_t>(count));
            t += count;
        }
    } else {
        *t++ = first[0];
        if (count > 1) {
            *t++ = '.';
            std::memcpy(t, first + 1, static_cast<std::size_t>(count - 1));
            t += count - 1;
        }
        *t++ = 'e';
        *t++ = scientific_exponent < 0 ? '-' : '+';
        const int e = scientific_exponent < 0 ? -scientific_exponent : scientific_exponent;
        *t++ = static_cast<char>('0' + e / 10);
        *t++ = static_cast<char>('0' + e % 10);
    }
    return t;
}

template <class F>
inline void put_number(sink& s, F value) {
    if (!std::isfinite(value)) {
        s.append("null", 4);
        return;
    }
    char* const buffer = s.reserve(64);
    if constexpr (std::is_same_v<F, double>) {
        if (char* const end = short_decimal_text(buffer, value)) {
            s.commit(end);
            return;
        }
    }
    // Without a format or precision, std::to_chars writes the shortest text that reads back
    // to the same value, in fixed or scientific notation, whichever is shorter.
    const std::to_chars_result r = std::to_chars(buffer, buffer + 64, value);
    if (r.ec != std::errc{}) s.append("null", 4); // cannot happen with this buffer
    else s.commit(r.ptr);
}

// The name of an enumerator, as reflect::enum_name gives it, found by index when the named
// values are contiguous and by binary search otherwise (enum_values is sorted).
template <class E>
constexpr std::string_view enumerator_name(E value) noexcept {
    using U = std::underlying_type_t<E>;
    constexpr const auto& values = reflect::enum_values<E>;
    constexpr const auto& names = reflect::enum_names<E>;
    constexpr std::size_t n = values.size();
    if constexpr (n == 0) {
        return {};
    } else {
        constexpr auto wide = [](E e) constexpr noexcept {
            return static_cast<unsigned long long>(static_cast<U>(e));
        };
        constexpr bool contiguous = wide(values[n - 1]) - wide(values[0]) == n - 1;
        if constexpr (contiguous) {
            const unsigned long long at = wide(value) - wide(values[0]);
            return at < n ? names[at] : std::string_view{};
        } else {
            const U key = static_cast<U>(value);
            std::size_t low = 0, high = n;
            while (low < high) {
                const std::size_t mid = low + (high - low) / 2;
                if (static_cast<U>(values[mid]) < key) low = mid + 1;
                else high = mid;
            }
            return low < n && static_cast<U>(values[low]) == key ? names[low] : std::string_view{};
        }
    }
}

// ---- strings ------------------------------------------------------------------------------

// The length of the UTF-8 sequence at p (n > 0 bytes available) when `valid`; otherwise the
// length of its maximal ill-formed subpart (at least 1), to be replaced by one U+FFFD.
inline std::size_t utf8_length(const unsigned char* p, std::size_t n, bool& valid) noexcept {
    const unsigned char lead = p[0];
    valid = false;
    if (lead < 0xC2 || lead > 0xF4) return 1;
    std::size_t trail = 1;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xF0) {
        trail = 3;
        if (lead == 0xF0) low = 0x90;       // no overlong four-byte forms
        else if (lead == 0xF4) high = 0x8F; // nothing above U+10FFFF
    } else if (lead >= 0xE0) {
        trail = 2;
        if (lead == 0xE0) low = 0xA0;       // no overlong three-byte forms
        else if (lead == 0xED) high = 0x9F; // no surrogates
    }
    if (n < 2 || p[1] < low || p[1] > high) return 1;
    for (std::size_t k = 2; k <= trail; ++k)
        if (k >= n || (p[k] & 0xC0) != 0x80) return k;
    valid = true;
    return trail + 1;
}

inline void put_escape(sink& s, unsigned char c) {
    char text[6] = {'\\', 'u', '0', '0', 0, 0};
    switch (c) {
    case '"': text[1] = '"'; break;
    case '\\': text[1] = '\\'; break;
    case '\b': text[1] = 'b'; break;
    case '\t': text[1] = 't'; break;
    case '\n': text[1] = 'n'; break;
    case '\f': text[1] = 'f'; break;
    case '\r': text[1] = 'r'; break;
    default:
        text[4] = "0123456789abcdef"[c >> 4];
        text[5] = "0123456789abcdef"[c & 0xF];
        s.append(text, 6);
        return;
    }
    s.append(text, 2);
}

// A JSON string. Each input byte yields at least one output byte, so reading more than
// room() + 1 bytes of input cannot add anything that survives the cut: the input is read no
// further (sequences are still checked against the whole input, so the text written stays a
// prefix of the complete text).
inline void put_string(sink& s, const char* data, std::size_t n) {
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    const std::size_t room = s.room();
    const std::size_t end = n <= room ? n : room + 1;
    s.put('"');
    std::size_t i = 0;
    std::size_t run = 0; // start of the bytes not yet copied
    for (;;) {
        while (i + 8 <= end) {
            std::uint64_t word;
            std::memcpy(&word, p + i, 8);
            if constexpr (std::endian::native == std::endian::little) {
                if (const std::uint64_t bits = attention_bits(word)) {
                    i += std::size_t(std::countr_zero(bits)) / 8;
                    break;
                }
            } else if (needs_attention(word)) {
                break;
            }
            i += 8;
        }
        while (i < end && plain_byte[p[i]]) ++i;
        if (i >= end) break;
        const unsigned char c = p[i];
        if (c < 0x80) {
            s.append(data + run, i - run);
            put_escape(s, c);
            run = ++i;
        } else {
            bool valid;
            const std::size_t length = utf8_length(p + i, n - i, valid);
            if (!valid) {
                s.append(data + run, i - run);
                s.append("\xEF\xBF\xBD", 3);
                run = i + length;
            }
            i += length;
        }
    }
    s.append(data + run, i - run);
    s.put('"');
}

// ---- dispatch on the kind of T ------------------------------------------------------------

template <class T>
void put(sink& s, const T& value);

template <class C>
void put_array(sink& s, const C& items) {
    using E = std::remove_cv_t<typename C::value_type>;
    s.put('[');
    auto it = items.begin();
    const auto last = items.end();
    if (it != last) {
        put<E>(s, *it);
        while (++it != last && !s.full()) {
            s.put(',');
            put<E>(s, *it);
        }
    }
    s.put(']');
}

template <class M>
void put_map(sink& s, const M& map) {
    using V = std::remove_cv_t<typename M::mapped_type>;
    s.put('{');
    bool first = true;
    for (const auto& entry : map) {
        if (!first) {
            if (s.full()) break;
            s.put(',');
        }
        first = false;
        using K = std::remove_cv_t<typename M::key_type>;
        if constexpr (std::is_enum_v<K>) {
            const std::string_view name = enumerator_name(entry.first);
            if (name.empty()) {  // a value with no name: its integer, as the writer sends it
                s.put('"');
                put_integer(s, static_cast<std::underlying_type_t<K>>(entry.first));
                s.put('"');
            } else {
                put_string(s, name.data(), name.size());
            }
        } else if constexpr (std::is_integral_v<K>) {
            s.put('"');
            put_integer(s, entry.first);
            s.put('"');
        } else {
            put_string(s, entry.first.data(), entry.first.size());
        }
        s.put(':');
        put<V>(s, entry.second);
    }
    s.put('}');
}

template <std::size_t N>
struct key_text {
    char chars[N];
};

// `,"name":` for a field. Field names are C++ identifiers: nothing in them needs escaping.
template <class T, std::size_t I>
inline constexpr auto field_key = [] {
    constexpr std::string_view name = reflect::field_names<T>[I];
    key_text<name.size() + 4> key{};
    key.chars[0] = ',';
    key.chars[1] = '"';
    for (std::size_t i = 0; i != name.size(); ++i) key.chars[i + 2] = name[i];
    key.chars[name.size() + 2] = '"';
    key.chars[name.size() + 3] = ':';
    return key;
}();

// The number of T's fields before the first optional one (all of them when none is): up to
// there, whether a field is the first written is known without looking.
template <class T>
inline constexpr std::size_t fields_before_optional = []<std::size_t... I>(std::index_sequence<I...>) {
    std::size_t n = 0;
    (void)((schema::detail::is_optional<std::remove_cvref_t<reflect::field_type<I, T>>> ? false : (++n, true)) && ...);
    return n;
}(std::make_index_sequence<reflect::field_count<T>>{});

// Appends the field unless it is an empty optional to leave out; `first` says whether a
// field came before, for a field after an optional one. False once the output passes the cap.
template <class T, std::size_t I, class F>
bool put_field(sink& s, const F& field, bool& first) {
    if constexpr (schema::detail::is_optional<F>) {
        if (s.omit_empty_optionals && !field.has_value()) return true;
    }
    constexpr auto& key = field_key<T, I>;
    // Constant lengths: each copy is a few moves.
    if constexpr (I == 0) {
        s.append(key.chars + 1, sizeof key.chars - 1);
    } else if constexpr (I <= fields_before_optional<T>) {
        s.append(key.chars, sizeof key.chars);
    } else {
        if (first) s.append(key.chars + 1, sizeof key.chars - 1);
        else s.append(key.chars, sizeof key.chars);
    }
    first = false;
    put<F>(s, field);
    return !s.full();
}

// Inlined into put<T> and put_erased<T>: a result struct's writer is one function.
template <class T, std::size_t... I>
AGENTRY_JSON_INLINE void put_object(sink& s, const T& object, std::index_sequence<I...>) {
    if constexpr (sizeof...(I) == 0) {
        s.append("{}", 2);
    } else {
        const void* at[sizeof...(I)];
        reflect::detail::fields_of<sizeof...(I)>::addresses(object, at);
        s.put('{');
        bool first = true;
        // Stops after the first field that passes the cap.
        (void)(put_field<T, I>(s, *static_cast<const reflect::field_type<I, T>*>(at[I]), first) && ...);
        s.put('}');
    }
}

template <class T, std::size_t... I>
void put_tuple(sink& s, const T& tuple, std::index_sequence<I...>) {
    s.put('[');
    // Stops after the first element that passes the cap.
    (void)(((I == 0 ? void() : s.put(',')),
            put<std::remove_cv_t<std::tuple_element_t<I, T>>>(s, std::get<I>(tuple)), !s.full()) &&
           ...);
    s.put(']');
}

template <class V, std::size_t I>
void put_alternative(sink& s, const V& variant) {
    using A = std::remove_cv_t<std::variant_alternative_t<I, V>>;
    put<A>(s, *std::get_if<I>(&variant));
}

template <class V, std::size_t... I>
void put_variant(sink& s, const V& variant, std::index_sequence<I...>) {
    using writer = void (*)(sink&, const V&);
    static constexpr writer alternatives[] = {&put_alternative<V, I>...};
    const std::size_t index = variant.index(); // std::variant_npos when valueless
    if (index < sizeof...(I)) alternatives[index](s, variant);
    else s.append("null", 4);
}

template <class T>
void put(sink& s, const T& value) {
    if constexpr (is_char_pointer<T>) {
        if (value == nullptr) s.append("null", 4);
        else put_string(s, value, std::char_traits<char>::length(value));
    } else if constexpr (is_char_array<T>) {
        const void* nul = std::memchr(value, 0, sizeof value);
        put_string(s, value, nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - value) : sizeof value);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        put_string(s, value.data(), value.size());
    } else if constexpr (is_deque_or_list<T>) {
        put_array(s, value);
    } else {
        constexpr kind k = schema::detail::kind_of<T>();
        if constexpr (k == kind::adapted) {
            put<schema::detail::json_type_of<T>>(s, adapter<T>::to_json(value));
        } else if constexpr (k == kind::tuple) {
            put_tuple(s, value, std::make_index_sequence<std::tuple_size_v<T>>{});
        } else if constexpr (k == kind::boolean) {
            if (value) s.append("true", 4);
            else s.append("false", 5);
        } else if constexpr (k == kind::integer) {
            put_integer(s, value);
        } else if constexpr (k == kind::number) {
            put_number(s, value);
        } else if constexpr (k == kind::string) {
            put_string(s, value.data(), value.size());
        } else if constexpr (k == kind::enumeration) {
            static_assert(schema::detail::enum_has_names<T>::value);
            const std::string_view name = enumerator_name(value);
            if (name.empty()) put_integer(s, static_cast<std::underlying_type_t<T>>(value));
            else put_string(s, name.data(), name.size());
        } else if constexpr (k == kind::constrained) {
            put<std::remove_cv_t<typename T::value_type>>(s, value.value);
        } else if constexpr (k == kind::any) {
            const std::string& text = value.text();
            if (text.empty()) {
                s.append("null", 4);
            } else {
                const std::size_t room = s.room();
                s.append(text.data(), text.size() <= room ? text.size() : room + 1);
            }
        } else if constexpr (k == kind::optional) {
            if (value.has_value()) put<std::remove_cv_t<typename T::value_type>>(s, *value);
            else s.append("null", 4);
        } else if constexpr (k == kind::variant) {
            put_variant(s, value, std::make_index_sequence<std::variant_size_v<T>>{});
        } else if constexpr (k == kind::null) {
            s.append("null", 4);
        } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
            put_array(s, value);
        } else if constexpr (k == kind::map) {
            put_map(s, value);
        } else if constexpr (k == kind::object && !schema::detail::is_named_parameters<T>) {
            put_object(s, value, std::make_index_sequence<reflect::field_count<T>>{});
        } else {
            static_assert(sizeof(no_json_writer_for<T>) != 0);
        }
    }
}

// Cuts the text appended since `start` (longer than `cap`) so that it and the marker fit in
// `cap` bytes, at a UTF-8 character boundary, and appends the marker.
inline void cut(std::string& out, std::size_t start, std::size_t cap) {
    char digits[24];
    const std::size_t digit_count = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, cap).ptr - digits);
    const std::size_t marker_size = truncation_marker.size() + digit_count + truncation_marker_end.size();
    const std::string_view added = std::string_view(out).substr(start);
    out.resize(start + agentry::detail::utf8_cut(added, cap > marker_size ? cap - marker_size : 0));
    out.append(truncation_marker);
    out.append(digits, digit_count);
    out.append(truncation_marker_end);
}

// The length the JSON text of a T usually has: its key names, 24 bytes per number, 16 per
// string, 64 per container. A guess to reserve at once, not a bound.
template <class T, std::size_t Depth = 0>
consteval std::size_t size_hint() noexcept {
    if constexpr (Depth > 8) {
        return 64;
    } else if constexpr (std::is_same_v<T, std::string_view> || is_char_pointer<T> || is_char_array<T>) {
        return 18;
    } else if constexpr (is_deque_or_list<T>) {
        return 64;
    } else {
        constexpr kind k = schema::detail::kind_of<T>();
        if constexpr (k == kind::boolean) return 5;
        else if constexpr (k == kind::integer) return std::numeric_limits<T>::digits10 + 3;
        else if constexpr (k == kind::number) return 24;
        else if constexpr (k == kind::string) return 18;
        else if constexpr (k == kind::enumeration) {
            std::size_t longest = 0;
            for (const std::string_view name : reflect::enum_names<T>)
                if (name.size() > longest) longest = name.size();
            return longest + 2;
        } else if constexpr (k == kind::constrained || k == kind::optional)
            return size_hint<std::remove_cv_t<typename T::value_type>, Depth + 1>();
        else if constexpr (k == kind::object && !schema::detail::is_named_parameters<T>)
            return []<std::size_t... I>(std::index_sequence<I...>) {
                return (std::size_t(2) + ... +
                        (reflect::field_names<T>[I].size() + 4 +
                         size_hint<std::remove_cvref_t<reflect::field_type<I, T>>, Depth + 1>()));
            }(std::make_index_sequence<reflect::field_count<T>>{});
        else return 64;
    }
}

// What write_reserved reserves for a T: its size_hint, at most 4 KiB.
template <class T>
inline constexpr std::size_t reserve_hint = size_hint<T>() < 4096 ? size_hint<T>() : 4096;

} // namespace detail::emit

namespace detail::emit {

template <class T>
void put_erased(sink& s, const void* value) {
    if constexpr (schema::detail::kind_of<T>() == kind::object && !schema::detail::is_named_parameters<T>)
        put_object(s, *static_cast<const T*>(value), std::make_index_sequence<reflect::field_count<T>>{});
    else put<T>(s, *static_cast<const T*>(value));
}

// json::write but the type, which `put` stands for: one function for all of them.
AGENTRY_JSON_SHARED_DECL bool write_erased(std::string& out, const void* value, void (*put)(sink&, const void*),
                                      const write_options& options);

// write_reserved but the type: `out` cleared, then `hint` bytes reserved (fewer when the cap is
// smaller), then written.
AGENTRY_JSON_SHARED_DECL bool write_reserved_erased(std::string& out, std::size_t hint, const void* value,
                                               void (*put)(sink&, const void*), const write_options& options);

} // namespace detail::emit

/// Appends the JSON text of `value` to `out`. Returns true when the text is complete, false
/// when options.max_size cut it (the truncation marker then ends the text).
/// Throws only what std::string throws when it grows; `out` is then as it was.
template <class T>
bool write(std::string& out, const T& value, const write_options& options = {}) {
    return detail::emit::write_erased(out, &value, &detail::emit::put_erased<T>, options);
}

/// Replaces `out` with the JSON text of `value`, having first reserved, in one allocation,
/// the length a T's text usually has (at most options.max_size): a result of numbers, enums
/// and short strings is written with that one allocation and not copied again. Returns what
/// write() returns.
template <class T>
bool write_reserved(std::string& out, const T& value, const write_options& options = {}) {
    return detail::emit::write_reserved_erased(out, detail::emit::reserve_hint<T>, &value, &detail::emit::put_erased<T>,
                                               options);
}

/// The JSON text of `value`; see write().
template <class T>
std::string to_json(const T& value, const write_options& options = {}) {
    std::string out;
    json::write(out, value, options);
    return out;
}

} // namespace agentry::json

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/writer.ipp>
#endif

#endif
