// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_READER_HPP
#define AGENTRY_JSON_READER_HPP

// agentry::json::read<T>(text): JSON text straight into a typed value, in one pass, checking
// every constraint the schema of T states. No DOM; the code is specialised for T at compile
// time. Errors are collected (up to read_options::max_errors), each with its JSON Pointer.
//
//   auto r = agentry::json::read<weather_query>(R"({"city":"Paris"})");
//   if (r.ok()) use(r.value); else for (auto& e : r.errors) log(e.to_string());
//
// Reading never throws except std::bad_alloc, and never recurses deeper than
// read_options::max_depth.

#include <agentry/detail/text.hpp>
#include <agentry/json/detail/canonical.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/formats.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/json/error.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/regex/pattern.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/defs.hpp>
#include <agentry/schema/detail/diagnostics.hpp>
#include <agentry/schema/raw_json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace agentry::json {

/// What a read reports besides the value: the part of read_result<T> that does not depend on
/// T (its destructor is compiled once, not once per T).
struct read_report {
    std::vector<read_error> errors;
    /// One note per repair applied (see agentry::json::repairs).
    std::vector<std::string> repairs;
    /// The text of std::string_view values that could not view the input (it held escapes):
    /// `value`'s views point here or into the input, so keep both while `value` is used.
    std::vector<std::unique_ptr<char[]>> owned_text;

    bool ok() const noexcept { return errors.empty(); }

    read_report() = default;
    read_report(read_report&&) = default;
    read_report& operator=(read_report&&) = default;
    AGENTRY_JSON_SHARED ~read_report() {}
};

template <class T>
struct read_result : read_report {
    T value{};

    read_result() = default;
    read_result(read_result&&) = default;
    read_result& operator=(read_result&&) = default;
    // Out of line: a tool's call then destroys its arguments through one call, not an inlined
    // copy of their destructors on each path out of it.
    AGENTRY_JSON_SHARED ~read_result() {}
};

namespace detail {

using schema::detail::kind;
using schema::detail::kind_of;

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

// Trivially default-constructible (no std::string_view member), so that the reader's path
// array is left unwritten when a reader is made: only its first path_size_ entries are read.
// Two words, written with two stores: a key is `value >> 1` bytes at key_data (the low bit of
// `value` clear); an index is `value >> 1` with the low bit set.
struct path_segment {
    const char* key_data;
    std::size_t value;
    bool is_index() const noexcept { return (value & 1) != 0; }
};
static_assert(std::is_trivially_default_constructible_v<path_segment>);

class reader {
public:
    static constexpr std::size_t max_path = 128;

    reader(std::string_view text, const read_options& options, std::vector<read_error>& errors,
           std::vector<std::string>& repairs) noexcept
        : options_(options), errors_(errors), repairs_(repairs) {
        in.begin = in.p = text.data();
        in.end = text.data() + text.size();
    }

    cursor in;
    std::size_t depth = 0;
    /// Where std::string_view values that cannot view the input are copied (read_result::owned_text).
    std::vector<std::unique_ptr<char[]>>* owned_text = nullptr;
    /// The input outlives the value read (false for text decoded by a repair).
    bool stable_input = true;

    const read_options& options() const noexcept { return options_; }
    bool stopped() const noexcept { return stopped_; }
    std::size_t error_count() const noexcept { return error_count_; }

    /// While probing an alternative of a variant, errors are counted but not recorded.
    bool quiet() const noexcept { return quiet_; }

    void push_key(std::string_view key) noexcept { push({key.data(), key.size() << 1}); }
    void push_index(std::size_t index) noexcept { push({nullptr, index << 1 | 1}); }
    void pop() noexcept { --path_size_; }

    /// The JSON Pointer of the value being read.
    std::string pointer() const {
        std::string out;
        const std::size_t shown = path_size_ < max_path ? path_size_ : max_path;
        for (std::size_t i = 0; i != shown; ++i) {
            out.push_back('/');
            if (path_[i].is_index()) {
                out += std::to_string(path_[i].value >> 1);
            } else {
                for (char c : std::string_view(path_[i].key_data, path_[i].value >> 1)) {
                    if (c == '~') out += "~0";
                    else if (c == '/') out += "~1";
                    else out.push_back(c);
                }
            }
        }
        return out;
    }

    template <class Message>
    void error(error_kind kind, Message&& message) {
        ++error_count_;
        if (quiet_ || stopped_) return;
        if (errors_.size() >= (options_.max_errors == 0 ? 1 : options_.max_errors)) {
            errors_.push_back({pointer(), error_kind::too_many_errors,
                               errors_.size() == 1 ? std::string("too many errors; only the first is listed")
                                                 : "too many errors; only the first " + std::to_string(errors_.size()) +
                                                       " are listed"});
            stopped_ = true;
            return;
        }
        errors_.push_back({pointer(), kind, std::string(std::forward<Message>(message))});
    }

    /// A syntax error stops reading: nothing after it can be trusted.
    void syntax_error() {
        if (stopped_) return;
        const auto e = in.error == lex_error::none ? lex_error::unexpected_character : in.error;
        const bool deep = e == lex_error::too_deep;
        error(deep ? error_kind::too_deep : error_kind::syntax,
              deep ? "nesting deeper than " + std::to_string(options_.max_depth) + " levels"
                   : "invalid JSON at byte " + std::to_string(in.offset()) + ": " + std::string(describe(e)));
        ++error_count_;
        stopped_ = true;
    }

    void repaired(std::string note) {
        if (quiet_) return;
        const std::string where = pointer();
        repairs_.push_back(where.empty() ? std::move(note) : where + ": " + note);
    }

    /// A repair note from a nested reader, whose pointer it already holds.
    void repaired_as_is(std::string note) {
        if (!quiet_) repairs_.push_back(std::move(note));
    }

    /// Skips the value at the cursor after an error about it.
    void skip() {
        in.skip_ws();
        if (!skip_value(in, depth, options_.max_depth)) syntax_error();
    }

    /// A reader for text found inside this one (an alternative of a variant, a repaired
    /// string): same options and path, its own cursor.
    /// `options`, when given, replaces this reader's options and must outlive the nested reader.
    reader nested(std::string_view text, bool quiet, std::vector<read_error>& errors, std::vector<std::string>& repairs,
                  const read_options* options = nullptr) const noexcept {
        reader r(text, options ? *options : options_, errors, repairs);
        for (std::size_t i = 0; i != path_size_ && i != max_path; ++i) r.path_[i] = path_[i];
        r.path_size_ = path_size_;
        r.depth = depth;
        r.quiet_ = quiet || quiet_;
        r.owned_text = owned_text;
        r.stable_input = stable_input && text.data() >= in.begin && text.data() + text.size() <= in.end;
        return r;
    }

    /// Takes the errors and stop state of a nested reader.
    void absorb(const reader& inner) noexcept {
        error_count_ += inner.error_count_;
        stopped_ = stopped_ || inner.stopped_;
    }

private:
    void push(path_segment s) noexcept {
        if (path_size_ < max_path) path_[path_size_] = s;
        ++path_size_;
    }

    const read_options& options_;
    std::vector<read_error>& errors_;
    std::vector<std::string>& repairs_;
    path_segment path_[max_path];
    std::size_t path_size_ = 0;
    std::size_t error_count_ = 0;
    bool stopped_ = false;
    bool quiet_ = false;
};

// ---- describing values in messages --------------------------------------------------------

/// The JSON type of the value at the cursor: "string", "number", ...
inline std::string_view json_type_at(const cursor& in) noexcept {
    switch (in.peek()) {
    case '"': return "a string";
    case '{': return "an object";
    case '[': return "an array";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case '\0': return "nothing";
    default: return "a number";
    }
}

/// The value at the cursor as text, cut to a readable length, with bytes that are not
/// printable UTF-8 written as \xNN; the cursor does not move.
inline std::string excerpt_at(const cursor& in) {
    cursor probe = in;
    const char* start = probe.p;
    if (!skip_value(probe, 0, 64)) probe.p = probe.end;
    return agentry::detail::printable(std::string_view(start, std::size_t(probe.p - start)));
}

template <class T>
consteval std::string_view expected_name() noexcept {
    constexpr kind k = kind_of<T>();
    if constexpr (k == kind::adapted) return expected_name<schema::detail::json_type_of<T>>();
    else if constexpr (k == kind::boolean) return "a boolean";
    else if constexpr (k == kind::integer) return "an integer";
    else if constexpr (k == kind::number) return "a number";
    else if constexpr (k == kind::string || k == kind::enumeration) return "a string";
    else if constexpr (k == kind::constrained) return expected_name<typename T::value_type>();
    else if constexpr (k == kind::optional) return expected_name<typename T::value_type>();
    else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array || k == kind::tuple)
        return "an array";
    else if constexpr (k == kind::map || k == kind::object) return "an object";
    else if constexpr (k == kind::null) return "null";
    else return "a value";
}

template <class T>
void type_error(reader& r);
inline void type_error_as(reader& r, std::string_view expected);

template <class P>
struct object_access;

template <class P>
void read_object(reader& r, void* value);

// The value at the cursor is not a T. Text that is not JSON there is a syntax error, alone:
// a type would describe bytes that are no value.
template <class T>
void type_error(reader& r) {
    type_error_as(r, expected_name<T>());
}

inline void type_error_as(reader& r, std::string_view expected) {
    cursor after = r.in;
    if (!skip_value(after, r.depth, r.options().max_depth) && after.error != lex_error::too_deep) {
        r.in = after;
        r.syntax_error();
        return;
    }
    if (r.in.peek() == 'n')
        r.error(error_kind::null_value, "must not be null; expected " + std::string(expected));
    else
        r.error(error_kind::type, "expected " + std::string(expected) + ", got " +
                                      std::string(json_type_at(r.in)) + " " + excerpt_at(r.in));
    if (after.error == lex_error::too_deep) r.skip();  // reports the depth
    else r.in = after;
}

// ---- reading values ------------------------------------------------------------------------

template <class T>
void read_value(reader& r, T& out);

inline bool read_literal(reader& r, std::string_view word) {
    if (!r.in.literal(word)) {
        r.syntax_error();
        return false;
    }
    return true;
}

// read_string_view for any string (escapes, bytes beyond ASCII, errors).
inline bool read_string_view_general(reader& r, std::string& scratch, std::string_view& view) {
    const char* start = r.in.p + 1;
    bool escaped = false;
    if (!read_string(r.in, nullptr, &escaped)) {
        r.syntax_error();
        return false;
    }
    if (!escaped) {
        view = std::string_view(start, std::size_t(r.in.p - 1 - start));
        return true;
    }
    cursor again = r.in;
    again.p = start - 1;
    scratch.clear();
    read_string(again, &scratch);
    view = scratch;
    return true;
}

// A string value, cursor on the opening quote: a view of the input when it has no escape,
// else of `scratch`, which holds it decoded.
AGENTRY_JSON_INLINE bool read_string_view(reader& r, std::string& scratch, std::string_view& view) {
    const char* start = r.in.p + 1;
    // Printable ASCII up to the closing quote: nothing to check or decode.
    if (const char* close = skip_plain(start, r.in.end); close != r.in.end && *close == '"') {
        view = std::string_view(start, std::size_t(close - start));
        r.in.p = close + 1;
        return true;
    }
    return read_string_view_general(r, scratch, view);
}

// A string value into `out`, cursor on the opening quote.
AGENTRY_JSON_SHARED bool read_string_value(reader& r, std::string& out) {
    std::string_view view;
    if (!read_string_view(r, out, view)) return false;
    if (view.data() != out.data()) {
        // Into an empty string, append costs less than assign's general path (same growth).
        if (out.empty()) out.append(view.data(), view.size());
        else out.assign(view);
    }
    return true;
}

// number_in_string repair: the text of a string that holds exactly a JSON number.
inline bool number_from_string(reader& r, std::string& holder, number_token& token) {
    if (!read_string_value(r, holder)) return false;
    cursor inner;
    inner.begin = inner.p = holder.data();
    inner.end = holder.data() + holder.size();
    if (!read_number(inner, token) || inner.p != inner.end) return false;
    r.repaired("a number sent as a string was read as a number");
    return true;
}

// The number token at the cursor (or, with the number_in_string repair, inside a string, whose
// text `holder` keeps); false after reporting why there is none.
template <class T>
bool number_at(reader& r, number_token& token, std::string& holder) {
    if (r.in.peek() == '"' && r.options().repairs.number_in_string) {
        cursor saved = r.in;
        if (number_from_string(r, holder, token)) return true;
        if (r.stopped()) return false;
        r.in = saved;
        type_error<T>(r);
        return false;
    }
    if (r.in.peek() != '-' && (r.in.peek() < '0' || r.in.peek() > '9')) {
        type_error<T>(r);
        return false;
    }
    if (!read_number(r.in, token)) {
        r.syntax_error();
        return false;
    }
    return true;
}

// The sign and the integer digits that start a number: an optional minus, then a lone 0 or
// digits that do not start with 0. `value` wraps past 19 digits; the callers bound `count`.
struct integer_part {
    const char* end = nullptr;
    std::uint64_t value = 0;
    std::size_t count = 0;
    bool minus = false;
};

// False when no digit follows the optional minus.
AGENTRY_JSON_INLINE bool scan_integer_part(const char* p, const char* end, integer_part& out) noexcept {
    out.minus = p != end && *p == '-';
    p += out.minus;
    if (p == end || static_cast<unsigned char>(*p - '0') > 9) return false;
    const char* const first = p;
    std::uint64_t value = 0;
    if (*p == '0') ++p;
    else
        while (p != end && static_cast<unsigned char>(*p - '0') <= 9) value = value * 10 + unsigned(*p++ - '0');
    out.end = p;
    out.value = value;
    out.count = std::size_t(p - first);
    return true;
}

// An integer of at most 18 digits with no fraction or exponent, parsed and range-checked in
// one pass. False, with the cursor where it was, for anything else (other spellings, values out
// of range, text that is no number): the general path of read_integer decides those.
template <class T>
AGENTRY_JSON_INLINE bool read_plain_integer(reader& r, T& out) noexcept {
    const char* const end = r.in.end;
    integer_part digits;
    if (!scan_integer_part(r.in.p, end, digits) || digits.count > 18) return false;
    const char* const p = digits.end;
    if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return false;
    const std::uint64_t magnitude = digits.value;
    const bool negative = digits.minus && magnitude != 0;
    if constexpr (std::is_signed_v<T>) {
        const std::uint64_t limit = negative ? std::uint64_t(0) - std::uint64_t(std::int64_t(std::numeric_limits<T>::min()))
                                             : std::uint64_t(std::numeric_limits<T>::max());
        if (magnitude > limit) return false;
        out = negative ? T(0 - magnitude) : T(magnitude);
    } else {
        if (negative || magnitude > std::uint64_t(std::numeric_limits<T>::max())) return false;
        out = T(magnitude);
    }
    r.in.p = p;
    return true;
}

// Any other integer text (read_value tries read_plain_integer first).
template <class T>
void read_integer(reader& r, T& out) {
    number_token token;
    std::string holder;
    if (!number_at<T>(r, token, holder)) return;
    const auto too_small = [&] {
        r.error(error_kind::minimum, "must be at least " + std::to_string(std::numeric_limits<T>::min()));
    };
    const auto too_large = [&] {
        r.error(error_kind::maximum, "must be at most " + std::to_string(std::numeric_limits<T>::max()));
    };
    // Plain integers go through from_chars; 1.0, 1e2 or 9007199254740995.0 (integers in JSON
    // Schema) are decided on their exact digits.
    std::uint64_t magnitude = 0;
    bool negative = token.negative;
    if (token.integral) {
        const char* first = token.text.data() + (negative ? 1 : 0);
        const auto [end, ec] = std::from_chars(first, token.text.data() + token.text.size(), magnitude);
        if (ec == std::errc::result_out_of_range) return negative ? too_small() : too_large();
    } else {
        const exact_integer e = to_exact_integer(token.text);
        if (!e.integral) {
            r.error(error_kind::type, "expected an integer, got " + std::string(token.text));
            return;
        }
        if (!e.fits) return negative ? too_small() : too_large();
        magnitude = e.magnitude;
        negative = e.negative;
    }
    if (magnitude == 0) negative = false;
    if constexpr (std::is_signed_v<T>) {
        const std::uint64_t limit = negative ? std::uint64_t(0) - std::uint64_t(std::int64_t(std::numeric_limits<T>::min()))
                                             : std::uint64_t(std::numeric_limits<T>::max());
        if (magnitude > limit) return negative ? too_small() : too_large();
        out = negative ? T(0 - magnitude) : T(magnitude);
    } else {
        if (negative) return too_small();
        if (magnitude > std::uint64_t(std::numeric_limits<T>::max())) return too_large();
        out = T(magnitude);
    }
}

/// The largest magnitude the schema of a float or a double admits (FLT_MAX, DBL_MAX as the
/// shortest text that reads back to them).
template <class T>
inline constexpr std::string_view floating_maximum_text =
    std::is_same_v<T, float> ? std::string_view("3.4028234663852886e38") : std::string_view("1.7976931348623157e308");

// The power of ten of a number token's leading digit, plus one: 3 for "123", 0 for "0.5",
// -2 for "0.001". Decides overflow from underflow when from_chars reports out of range.
inline long long decimal_magnitude(std::string_view text) noexcept {
    std::size_t i = text.starts_with('-') ? 1 : 0;
    long long magnitude = 0;
    bool found = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (text[i] != '0') found = true;
        if (found) ++magnitude;
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (found) break;
            if (text[i] != '0') found = true;
            else --magnitude;
        }
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool minus = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        long long e = 0;
        for (; i < text.size() && e < 1000000; ++i) e = e * 10 + (text[i] - '0');
        magnitude += minus ? -e : e;
    }
    return magnitude;
}

// The nearest double to `text` when it is -?digits(.digits)? with at most 15 digits in all:
// the digits as an integer, exact in a double, divided by an exact power of ten is correctly
// rounded (Clinger's fast path). False for any other text, which from_chars reads.
inline bool read_short_decimal(std::string_view text, double& out) noexcept {
    static constexpr double powers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    p += negative;
    std::uint64_t digits = 0;
    std::size_t count = 0, fraction = 0;
    bool point = false;
    for (; p != end; ++p) {
        if (static_cast<unsigned char>(*p - '0') <= 9) {
            digits = digits * 10 + unsigned(*p - '0');
            ++count;
            fraction += point;
        } else if (*p == '.' && !point && count != 0) {
            point = true;
        } else {
            return false;
        }
    }
    if (count == 0 || count > 15 || (point && fraction == 0)) return false;
    const double value = double(digits) / powers[fraction];
    out = negative ? -value : value;
    return true;
}

// The nearest double to the number `text` (a JSON number), as from_chars reads it.
inline std::from_chars_result read_double(std::string_view text, double& out) noexcept {
    if (read_short_decimal(text, out)) return {text.data() + text.size(), std::errc{}};
    return std::from_chars(text.data(), text.data() + text.size(), out);
}

// A number of at most 15 digits with no exponent, read in one pass: the digits as an integer,
// exact in a double, divided by an exact power of ten, which is correctly rounded (as
// read_short_decimal and from_chars read it). False, with the cursor where it was, for
// anything else: the general path of read_floating decides those.
template <class T>
AGENTRY_JSON_INLINE bool read_plain_decimal(reader& r, T& out) noexcept {
    static constexpr double powers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* const end = r.in.end;
    integer_part integer;
    if (!scan_integer_part(r.in.p, end, integer)) return false;
    const char* p = integer.end;
    const bool minus = integer.minus;
    std::uint64_t digits = integer.value;
    std::size_t count = integer.count, fraction = 0;
    if (p != end && *p == '.') {
        const char* const point = ++p;
        while (p != end && static_cast<unsigned char>(*p - '0') <= 9) digits = digits * 10 + unsigned(*p++ - '0');
        fraction = std::size_t(p - point);
        if (fraction == 0) return false;
        count += fraction;
    }
    if (count > 15 || (p != end && (*p == 'e' || *p == 'E'))) return false;
    const double value = double(digits) / powers[fraction];
    out = T(minus ? -value : value);
    r.in.p = p;
    return true;
}

// Any other number text (read_value tries read_plain_decimal first).
template <class T>
void read_floating(reader& r, T& out) {
    number_token token;
    std::string holder;
    if (!number_at<T>(r, token, holder)) return;
    double d = 0;
    const auto [end, ec] = read_double(token.text, d);
    constexpr double top = std::numeric_limits<T>::max();
    if (ec == std::errc::result_out_of_range) {
        if (decimal_magnitude(token.text) > 0) d = token.negative ? -HUGE_VAL : HUGE_VAL;
        else d = token.negative ? -0.0 : 0.0;  // underflow: as JSON.parse reads it
    }
    // The schema states the type's range; the nearest double decides unless it is the limit.
    if (!(d > -top && d < top)) {
        constexpr std::string_view limit = floating_maximum_text<T>;
        const std::string_view magnitude = token.negative ? token.text.substr(1) : token.text;
        if (decimal_compare(magnitude, limit) > 0)
            return token.negative ? r.error(error_kind::minimum, "must be at least -" + std::string(limit))
                                  : r.error(error_kind::maximum, "must be at most " + std::string(limit));
    }
    out = T(d);
}

// Equality of a name and a text read, inline: names are short, a library call costs more.
// Eight bytes at a time, the last word overlapping the one before; four, two or one below eight.
inline bool same_text(std::string_view a, std::string_view b) noexcept {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* p = a.data();
    const char* q = b.data();
    const auto same = [](const char* x, const char* y, auto word) {
        std::memcpy(&word, x, sizeof word);
        decltype(word) other;
        std::memcpy(&other, y, sizeof other);
        return word == other;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8)
            if (!same(p + i, q + i, std::uint64_t())) return false;
        return same(p + n - 8, q + n - 8, std::uint64_t());
    }
    if (n >= 4) return same(p, q, std::uint32_t()) && same(p + n - 4, q + n - 4, std::uint32_t());
    if (n >= 2) return same(p, q, std::uint16_t()) && same(p + n - 2, q + n - 2, std::uint16_t());
    return n == 0 || *p == *q;
}

// `name` is none of `names` (count of them): the index of the one it matches ignoring case when
// the enum_case repair is on (the repair noted), otherwise `count` and the error reported.
AGENTRY_JSON_COLD std::size_t unknown_enum_name(reader& r, std::string_view name, const std::string_view* names,
                                                std::size_t count) {
    if (r.options().repairs.enum_case) {
        for (std::size_t i = 0; i != count; ++i) {
            if (agentry::detail::equal_ignoring_case(names[i], name)) {
                r.repaired("\"" + std::string(name) + "\" was read as \"" + std::string(names[i]) + "\"");
                return i;
            }
        }
    }
    std::string list = "[";
    for (std::size_t i = 0; i != count; ++i) {
        if (i != 0) list += ',';
        list += '"';
        list += names[i];
        list += '"';
    }
    list += ']';
    std::string message = "\"" + std::string(name) + "\" is not one of " + list;
    const std::string_view guess = closest(name, std::span<const std::string_view>(names, count));
    if (!guess.empty()) message += " (did you mean \"" + std::string(guess) + "\"?)";
    r.error(error_kind::enum_value, std::move(message));
    return count;
}

// The index of `name` among `names` (count of them), or `count`.
AGENTRY_JSON_SHARED std::size_t name_index(std::string_view name, const std::string_view* names,
                                           std::size_t count) noexcept {
    for (std::size_t i = 0; i != count; ++i)
        if (same_text(names[i], name)) return i;
    return count;
}

// The index among `names` (count of them) of the enumerator name at the cursor; `count` after
// reporting why there is none.
AGENTRY_JSON_COLD std::size_t read_enum_index_general(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() != '"') {
        type_error_as(r, "a string");
        return count;
    }
    std::string scratch;
    std::string_view name;
    if (!read_string_view(r, scratch, name)) return count;
    if (const std::size_t i = name_index(name, names, count); i != count) return i;
    return unknown_enum_name(r, name, names, count);
}

// read_enum_index_general, a name of printable ASCII that is one of `names` matched first.
AGENTRY_JSON_SHARED std::size_t read_enum_index(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() == '"') {
        const char* const start = r.in.p + 1;
        if (const char* close = skip_plain(start, r.in.end); close != r.in.end && *close == '"') {
            const std::string_view name(start, std::size_t(close - start));
            if (const std::size_t i = name_index(name, names, count); i != count) {
                r.in.p = close + 1;
                return i;
            }
        }
    }
    return read_enum_index_general(r, names, count);
}

// What reading an enumeration needs to know of it: its enumerators' names and values (each
// `size` bytes), `count` of each.
struct enum_plan {
    const std::string_view* names;
    const void* values;
    std::size_t count;
    std::size_t size;
};

template <class E>
inline constexpr enum_plan enum_plan_of{reflect::enum_names<E>.data(), reflect::enum_values<E>.data(),
                                        reflect::enum_count<E>, sizeof(E)};

// ---- constraints ---------------------------------------------------------------------------

// The bytes that do not continue a UTF-8 sequence (not 10xxxxxx), eight at a time.
inline std::size_t code_points(std::string_view s) noexcept {
    const char* p = s.data();
    const std::size_t size = s.size();
    std::size_t continuation = 0, i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        // The top bit of each byte that is 10xxxxxx, moved to its low bit, summed by a multiply.
        const std::uint64_t marks = (w & ~(w << 1) & 0x8080808080808080ull) >> 7;
        continuation += static_cast<std::size_t>((marks * 0x0101010101010101ull) >> 56);
    }
    for (; i != size; ++i) continuation += (static_cast<unsigned char>(p[i]) & 0xC0) == 0x80;
    return size - continuation;
}

// Whether s has at least N code points: a short minimum is decided by the first bytes.
template <std::size_t N>
bool at_least_code_points(std::string_view s) noexcept {
    if constexpr (N > 16) {
        return code_points(s) >= N;
    } else {
        std::size_t left = N;
        for (std::size_t i = 0; i != s.size() && left != 0; ++i) left -= (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
        return left == 0;
    }
}

/// Steps of the pattern engine a search may take before it gives up (no catastrophic
/// backtracking); a value that needs more is reported as too complex to check.
inline constexpr std::size_t pattern_step_limit = 1'000'000;

template <fixed_string Pattern>
const std::optional<regex::pattern>& compiled_pattern() {
    static const std::optional<regex::pattern> compiled = regex::pattern::compile(Pattern.view());
    return compiled;
}

// A bound as the nearest double, parsed once: correctly rounded, unlike constant evaluation.
template <class C>
const double bound_as_double = [] {
    double d = 0;
    const std::string_view text = C::value.view();
    std::from_chars(text.data(), text.data() + text.size(), d);
    return d;
}();

// A constrained value as it was sent, which the checks of its constraints read.
struct sent_value {
    /// Its JSON text; for a value sent inside a JSON string (the number_in_string and
    /// json_in_string repairs), the string's content.
    std::string_view text;
    /// For a number: the nearest double to `text`, before any rounding to float.
    double number = 0;
};

// "must be at least 3" and the like: a broken bound, out of line.
AGENTRY_JSON_COLD void bound_error(reader& r, error_kind kind, std::string_view what, std::string_view bound) {
    r.error(kind, std::string(what) + std::string(bound));
}

// "must be at least 3 characters long" and the like, out of line.
AGENTRY_JSON_COLD void length_error(reader& r, error_kind kind, std::string_view what, std::size_t n) {
    r.error(kind, std::string(what) + std::to_string(n) + (n == 1 ? " character long" : " characters long"));
}

// minimum, maximum, their exclusive forms, multipleOf. Integers against integral bounds compare
// exactly; otherwise the nearest doubles decide and, when equal, the exact decimal texts.
template <class C, class T>
void check_number_constraint(reader& r, T& v, const sent_value& sent) {
    constexpr constraint_keyword k = C::keyword;
    constexpr number_literal bound = C::value;
    if constexpr (k == constraint_keyword::multiple_of) {
        bool multiple = true;
        if constexpr (std::is_integral_v<T> && bound.integral) {
            multiple = (unsigned long long)(v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v) %
                           bound.magnitude == 0;
        } else if (const std::optional<bool> exact = decimal_multiple(sent.text, bound.view())) {
            multiple = *exact;
        } else {
            const double q = sent.number / bound_as_double<C>;
            multiple = std::isfinite(q) && q == std::floor(q);
        }
        if (!multiple) bound_error(r, error_kind::multiple_of, "must be a multiple of ", C::value.view());
        return;
    }
    int order = 0;  // sign of v - bound
    if constexpr (std::is_integral_v<T> && bound.integral) {
        if constexpr (std::is_signed_v<T>) {
            const long long b = bound.negative ? -(long long)bound.magnitude : (long long)bound.magnitude;
            order = (long long)v < b ? -1 : ((long long)v > b ? 1 : 0);
        } else {
            const unsigned long long b = bound.magnitude;
            order = bound.negative ? 1 : ((unsigned long long)v < b ? -1 : ((unsigned long long)v > b ? 1 : 0));
        }
    } else {
        const double b = bound_as_double<C>;
        order = sent.number < b ? -1 : (sent.number > b ? 1 : 0);
        if (order == 0) order = decimal_compare(sent.text, bound.view());
    }
    if constexpr (k == constraint_keyword::minimum) {
        if (order < 0) bound_error(r, error_kind::minimum, "must be at least ", C::value.view());
    } else if constexpr (k == constraint_keyword::exclusive_minimum) {
        if (order <= 0) bound_error(r, error_kind::exclusive_minimum, "must be greater than ", C::value.view());
        else if constexpr (std::is_same_v<T, double>) {
            // Above the bound, but rounded onto it (0.1000000000000000001 > 0.1): the next
            // double up, so that the tool sees a value its bound admits.
            if (v <= bound_as_double<C>) v = std::nextafter(bound_as_double<C>, HUGE_VAL);
        }
    } else if constexpr (k == constraint_keyword::maximum) {
        if (order > 0) bound_error(r, error_kind::maximum, "must be at most ", C::value.view());
    } else {
        if (order >= 0) bound_error(r, error_kind::exclusive_maximum, "must be less than ", C::value.view());
        else if constexpr (std::is_same_v<T, double>) {
            if (v >= bound_as_double<C>) v = std::nextafter(bound_as_double<C>, -HUGE_VAL);
        }
    }
}

// minLength, maxLength (in code points), pattern, format.
template <class C>
void check_string_constraint(reader& r, const std::string& v) {
    constexpr constraint_keyword k = C::keyword;
    // A string has at most as many code points as bytes: most lengths are decided without
    // counting them.
    if constexpr (k == constraint_keyword::min_length) {
        if (v.size() < C::value || !at_least_code_points<C::value>(v))
            length_error(r, error_kind::min_length, "must be at least ", C::value);
    } else if constexpr (k == constraint_keyword::max_length) {
        if (v.size() > C::value && code_points(v) > C::value)
            length_error(r, error_kind::max_length, "must be at most ", C::value);
    } else if constexpr (k == constraint_keyword::pattern) {
        const auto& compiled = compiled_pattern<fixed_string<C::value.size()>(C::value)>();
        const regex::pattern::match_result m = compiled ? compiled->search_bounded(v, pattern_step_limit)
                                                        : regex::pattern::match_result::no_match;
        if (m == regex::pattern::match_result::too_complex)
            r.error(error_kind::pattern, "could not be checked against the regular expression " +
                                             std::string(C::value) + ": the match needs more than " +
                                             std::to_string(pattern_step_limit) +
                                             " steps; send a shorter or simpler value");
        else if (m == regex::pattern::match_result::no_match)
            r.error(error_kind::pattern, "must match the regular expression " + std::string(C::value));
    } else {
        if (!valid_format(C::value, v)) r.error(error_kind::format, "must be a valid " + std::string(format_name(C::value)));
    }
}

// The earliest item that has a later equal item, and that later item; {n, n} when all differ.
// Equality of JSON values, as JSON Schema compares them: 1 and 1.0 are equal, key order does
// not matter, and an absent member differs from a present one.
inline std::pair<std::size_t, std::size_t> first_repeated(std::string_view array) {
    const std::vector<std::string> items = canonical_elements(array);
    // Sorted by (text, index): equal items are adjacent, the first of each run is the earliest.
    std::vector<std::size_t> order(items.size());
    for (std::size_t i = 0; i != order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const int c = items[a].compare(items[b]);
        return c != 0 ? c < 0 : a < b;
    });
    std::size_t first = items.size(), second = items.size();
    for (std::size_t i = 1; i < order.size(); ++i) {
        if (items[order[i]] == items[order[i - 1]] && (i == 1 || items[order[i - 2]] != items[order[i - 1]]) &&
            order[i - 1] < first) {
            first = order[i - 1];
            second = order[i];
        }
    }
    return {first, second};
}

// minItems, maxItems, uniqueItems.
template <class C, class T>
void check_items_constraint(reader& r, const T& v, const sent_value& sent) {
    constexpr constraint_keyword k = C::keyword;
    const auto items = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " item" : " items"); };
    if constexpr (k == constraint_keyword::min_items) {
        if (v.size() < C::value) r.error(error_kind::min_items, "must have at least " + items(C::value));
    } else if constexpr (k == constraint_keyword::max_items) {
        if (v.size() > C::value) r.error(error_kind::max_items, "must have at most " + items(C::value));
    } else {
        const auto [first, second] = first_repeated(sent.text);
        if (first != second)
            r.error(error_kind::unique_items, "items must be unique; items " + std::to_string(first) + " and " +
                                                  std::to_string(second) + " are equal");
    }
}

template <class C, class T>
void check_constraint(reader& r, T& v, const sent_value& sent) {
    if constexpr (C::target == constraint_target::number) check_number_constraint<C>(r, v, sent);
    else if constexpr (C::target == constraint_target::string) check_string_constraint<C>(r, v);
    else check_items_constraint<C>(r, v, sent);
}

template <class T, class... C>
void read_constrained(reader& r, T& out, reflect::type_list<C...>) {
    const std::size_t before = r.error_count();
    r.in.skip_ws();
    const char* start = r.in.p;
    read_value(r, out);
    if (r.error_count() != before || r.stopped()) return;
    sent_value sent{std::string_view(start, std::size_t(r.in.p - start))};
    std::string content;  // a number or an array sent as a JSON string (a repair): its content
    if (kind_of<T>() != kind::string && sent.text.starts_with('"')) {
        cursor in;
        in.begin = in.p = sent.text.data();
        in.end = sent.text.data() + sent.text.size();
        read_string(in, &content);
        sent.text = agentry::detail::trim(content);
    }
    if constexpr (std::is_arithmetic_v<T>) {
        // A double read is already the nearest double to the text; a float is not.
        if constexpr (std::is_floating_point_v<T> && !std::is_same_v<T, double>)
            read_double(sent.text, sent.number);
        else sent.number = double(out);
    }
    (check_constraint<C>(r, out, sent), ...);
}

// ---- containers ----------------------------------------------------------------------------

// A container one level deeper than read_options::max_depth: a syntax error (false).
AGENTRY_JSON_COLD bool too_deep(reader& r) {
    r.in.fail(lex_error::too_deep);
    r.syntax_error();
    return false;
}

inline bool open_container(reader& r, char open) {
    if (r.in.peek() != open) return false;
    if (r.depth + 1 > r.options().max_depth) return too_deep(r);
    ++r.in.p;
    ++r.depth;
    return true;
}

// Reads the elements of an array, calling element(index) with the cursor on each.
template <class Element>
void read_elements(reader& r, Element&& element) {
    std::size_t index = 0;
    r.in.skip_ws();
    if (r.in.peek() == ']') {
        ++r.in.p;
        --r.depth;
        return;
    }
    for (;;) {
        r.in.skip_ws();
        r.push_index(index);
        element(index);
        r.pop();
        if (r.stopped()) return;
        ++index;
        r.in.skip_ws();
        if (r.in.peek() == ',') {
            ++r.in.p;
            continue;
        }
        if (r.in.peek() == ']') {
            ++r.in.p;
            --r.depth;
            return;
        }
        r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
        r.syntax_error();
        return;
    }
}

// No ',' or closing bracket where one must be: a syntax error (false).
AGENTRY_JSON_COLD bool unexpected_at_cursor(reader& r) {
    r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
    r.syntax_error();
    return false;
}

// After a member's value: past the ',' (true: another member follows) or the closing '}'
// (false, the object read); a syntax error otherwise (false).
AGENTRY_JSON_INLINE bool next_member(reader& r) {
    r.in.skip_ws();
    if (r.in.peek() == ',') {
        ++r.in.p;
        return true;
    }
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        return false;
    }
    return unexpected_at_cursor(r);
}

// Reads the members of an object from the one at the cursor on, calling member(context, key)
// with the cursor on each value.
AGENTRY_JSON_SHARED void read_members_at(reader& r, void (*member)(void*, std::string_view), void* context) {
    std::string decoded;
    for (;;) {
        r.in.skip_ws();
        if (r.in.peek() != '"') {
            r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
            r.syntax_error();
            return;
        }
        const char* start = r.in.p + 1;
        bool escaped = false;
        if (!read_string(r.in, nullptr, &escaped)) {
            r.syntax_error();
            return;
        }
        std::string_view key(start, std::size_t(r.in.p - 1 - start));
        if (escaped) {
            cursor again = r.in;
            again.p = start - 1;
            decoded.clear();
            read_string(again, &decoded);
            key = decoded;
        }
        if (!r.in.consume(':')) {
            r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
            r.syntax_error();
            return;
        }
        r.in.skip_ws();
        r.push_key(key);
        member(context, key);
        r.pop();
        if (r.stopped() || !next_member(r)) return;
    }
}

// read_members_at with a callable member(key).
template <class Member>
AGENTRY_JSON_INLINE void read_members_at(reader& r, Member&& member) {
    using M = std::remove_reference_t<Member>;
    read_members_at(r, [](void* m, std::string_view key) { (*static_cast<M*>(m))(key); }, &member);
}

// Reads the members of an object, calling member(key) with the cursor on each value.
template <class Member>
void read_members(reader& r, Member&& member) {
    r.in.skip_ws();
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        return;
    }
    read_members_at(r, member);
}

// The value at the cursor is not the container `open` starts. With the json_in_string repair,
// a string holding such a container is read by read(inner, value) on a reader of its text;
// true when that read gave no error (the repair noted), and `value` then holds the result.
// Otherwise the cursor is restored and the type error reported.
AGENTRY_JSON_COLD bool read_container_in_string(reader& r, char open, void (*read)(reader&, void*), void* value) {
    if (r.in.peek() == '"' && r.options().repairs.json_in_string) {
        cursor saved = r.in;
        std::string text;
        if (!read_string_value(r, text)) return false;
        const auto first = text.find_first_not_of(" \t\r\n");
        if (first != std::string::npos && text[first] == open) {
            std::vector<read_error> errors;
            std::vector<std::string> repairs;
            reader inner = r.nested(text, false, errors, repairs);
            inner.in.skip_ws();
            read(inner, value);
            inner.in.skip_ws();
            if (!inner.stopped() && !inner.in.at_end()) {
                inner.in.fail(lex_error::unexpected_character);
                inner.syntax_error();
            }
            if (errors.empty() && !inner.stopped()) {
                r.repaired(std::string(open == '{' ? "an object" : "an array") +
                           " sent as a JSON string was read as JSON");
                return true;
            }
        }
        r.in = saved;
    }
    type_error_as(r, open == '{' ? "an object" : "an array");
    return false;
}

// A T read into `value`: the reader of a value of any type, as a pointer to one function.
template <class T>
void read_at(reader& r, void* value) {
    read_value(r, *static_cast<T*>(value));
}

// The cursor is on the container `open` starts; otherwise a type error, or (json_in_string
// repair) a string holding such a container, read into `out` by `read`. `out` is fresh (a
// value just made), so what a failed repair leaves in it goes with the error.
AGENTRY_JSON_INLINE bool expect_container(reader& r, char open, void (*read)(reader&, void*), void* out) {
    if (open_container(r, open)) return true;
    if (!r.stopped()) read_container_in_string(r, open, read, out);
    return false;
}

template <class T>
void read_sequence(reader& r, T& out) {
    if (!expect_container(r, '[', &read_at<T>, &out)) return;
    using E = std::remove_cv_t<typename T::value_type>;
    if constexpr (schema::detail::is_std_array<T>) {
        constexpr std::size_t n = std::tuple_size_v<T>;
        std::size_t count = 0;
        read_elements(r, [&](std::size_t index) {
            if (index < n) read_value(r, out[index]);
            else r.skip();
            ++count;
        });
        if (!r.stopped() && count != n)
            r.error(count < n ? error_kind::min_items : error_kind::max_items,
                    "must have exactly " + std::to_string(n) + (n == 1 ? " item" : " items") + ", not " +
                        std::to_string(count));
    } else if constexpr (schema::detail::is_set<T>) {
        out.clear();
        read_elements(r, [&](std::size_t) {
            E element{};
            const std::size_t before = r.error_count();
            read_value(r, element);
            if (r.error_count() != before) return;
            if (!out.insert(std::move(element)).second)
                r.error(error_kind::unique_items, "repeats an earlier item; items must be unique");
        });
    } else {
        out.clear();
        read_elements(r, [&](std::size_t) {
            if constexpr (std::is_same_v<E, bool>) {  // std::vector<bool> has no bool&
                bool element = false;
                read_value(r, element);
                out.push_back(element);
            } else {
                if constexpr (schema::detail::is_vector<T>)
                    if (out.capacity() == 0) out.reserve(4);
                out.emplace_back();
                read_value(r, out.back());
            }
        });
    }
}

// A map key that is an integer (its decimal text) or an enum (its enumerator's name); false
// after reporting why `text` is not one.
template <class K>
bool read_key(reader& r, std::string_view text, K& key) {
    if constexpr (std::is_enum_v<K>) {
        if (const std::size_t i = name_index(text, reflect::enum_names<K>.data(), reflect::enum_count<K>);
            i != reflect::enum_count<K>) {
            key = reflect::enum_values<K>[i];
            return true;
        }
        std::string message = "the key \"" + std::string(text) + "\" is not one of [";
        for (std::size_t i = 0; i != reflect::enum_count<K>; ++i) {
            if (i != 0) message += ',';
            message += '"';
            message += reflect::enum_names<K>[i];
            message += '"';
        }
        r.error(error_kind::enum_value, message + "]");
        return false;
    } else {
        const bool canonical = !text.empty() && text != "-" && text != "-0" &&
                               (text.size() == 1 || text[text.starts_with('-') ? 1 : 0] != '0');
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), key);
        if (canonical && ec == std::errc{} && end == text.data() + text.size()) return true;
        r.error(error_kind::pattern, "the key \"" + std::string(text) + "\" must be an integer from " +
                                         std::to_string(std::numeric_limits<K>::min()) + " to " +
                                         std::to_string(std::numeric_limits<K>::max()) + ", written in decimal");
        return false;
    }
}

template <class T>
void read_map(reader& r, T& out) {
    if (!expect_container(r, '{', &read_at<T>, &out)) return;
    out.clear();
    using K = std::remove_cv_t<typename T::key_type>;
    read_members(r, [&](std::string_view text) {
        K key{};
        if constexpr (agentry::detail::is_std_string<K>) {
            key.assign(text);
        } else if (!read_key(r, text, key)) {
            r.skip();
            return;
        }
        auto [it, inserted] = out.try_emplace(std::move(key));
        if (!inserted) {
            r.error(error_kind::duplicate_property, "duplicate property");
            r.skip();
            return;
        }
        read_value(r, it->second);
    });
}

// std::pair / std::tuple: an array of exactly its size, one type per position.
template <class T>
void read_tuple(reader& r, T& out) {
    if (!expect_container(r, '[', &read_at<T>, &out)) return;
    constexpr std::size_t n = std::tuple_size_v<T>;
    std::size_t count = 0;
    read_elements(r, [&](std::size_t index) {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            if (!((index == I ? (read_value(r, std::get<I>(out)), true) : false) || ...)) r.skip();
        }(std::make_index_sequence<n>{});
        ++count;
    });
    if (!r.stopped() && count != n)
        r.error(count < n ? error_kind::min_items : error_kind::max_items,
                "must have exactly " + std::to_string(n) + (n == 1 ? " item" : " items") + ", not " +
                    std::to_string(count));
}

// A std::string_view: a view of the input when the string has no escape and the input
// outlives the value, else of a copy kept in read_result::owned_text.
inline void read_view(reader& r, std::string_view& out) {
    std::string scratch;
    std::string_view view;
    if (!read_string_view(r, scratch, view)) return;
    if (view.data() != scratch.data() && r.stable_input) {
        out = view;
        return;
    }
    auto copy = std::make_unique<char[]>(view.size() + 1);
    std::copy(view.begin(), view.end(), copy.get());
    out = std::string_view(copy.get(), view.size());
    r.owned_text->push_back(std::move(copy));
}

// A type mapped by agentry::adapter<T>: its json_type read, then converted by from_json.
template <class T>
void read_adapted(reader& r, T& out) {
    schema::detail::json_type_of<T> value{};
    const std::size_t before = r.error_count();
    read_value(r, value);
    if (r.error_count() != before || r.stopped()) return;
    auto converted = adapter<T>::from_json(std::move(value));
    if constexpr (agentry::detail::is_outcome<decltype(converted)>) {
        if (!converted) return r.error(error_kind::format, std::move(converted).error().message);
        out = std::move(*converted);
    } else {
        out = std::move(converted);
    }
}

// ---- objects -------------------------------------------------------------------------------

// The members of an object type: names, and access to each member's storage.
template <class T>
    requires reflect::aggregate<T>
struct object_access<T> {
    using storage = T;
    static constexpr std::size_t size = reflect::field_count<T>;
    static constexpr const auto& names = reflect::field_names<T>;
    template <std::size_t I>
    static auto& member(T& value) noexcept {
        return reflect::field<I>(value);
    }
};

template <class... A, fixed_string... N>
struct object_access<named_parameters<reflect::type_list<A...>, N...>> {
    using storage = std::tuple<std::remove_cvref_t<A>...>;
    static constexpr std::size_t size = sizeof...(A);
    static constexpr std::array<std::string_view, sizeof...(A)> names{N.view()...};
    template <std::size_t I>
    static auto& member(storage& value) noexcept {
        return std::get<I>(value);
    }
    static void addresses(storage& value, void** at) noexcept {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            ((at[I] = std::addressof(std::get<I>(value))), ...);
        }(std::make_index_sequence<size>{});
    }
};

template <class F>
inline constexpr bool is_optional_member = schema::detail::is_optional<std::remove_cv_t<F>>;

template <class Access, std::size_t I>
using member_type = std::remove_reference_t<decltype(Access::template member<I>(std::declval<typename Access::storage&>()))>;

template <class T>
consteval bool admits_null() noexcept {
    if constexpr (kind_of<T>() == kind::any || kind_of<T>() == kind::null) return true;
    else if constexpr (kind_of<T>() == kind::adapted) return admits_null<schema::detail::json_type_of<T>>();
    else if constexpr (kind_of<T>() == kind::variant)
        return []<class... A>(std::variant<A...>*) {
            return (admits_null<std::remove_cv_t<A>>() || ...);
        }(static_cast<T*>(nullptr));
    else return false;
}

// null for an optional member whose schema does not admit null: reported and skipped, or read
// as absent (read_options::null_as_absent).
AGENTRY_JSON_COLD void null_member(reader& r, std::string_view expected) {
    if (!r.options().null_as_absent) {
        r.error(error_kind::null_value, "must not be null; leave the property out, or give " + std::string(expected));
        r.skip();
        return;
    }
    read_literal(r, "null");
}

// An enumeration at `at`, `plan` its enum_plan, the cursor before any whitespace: one function
// for every enumeration, members and elements alike.
AGENTRY_JSON_SHARED void read_enum(reader& r, void* at, const enum_plan& plan) {
    if (r.stopped()) return;
    r.in.skip_ws();
    const std::size_t i = read_enum_index(r, plan.names, plan.count);
    if (i == plan.count) return;
    const char* value = static_cast<const char*>(plan.values) + i * plan.size;
    switch (plan.size) {
    case 1: std::memcpy(at, value, 1); break;
    case 2: std::memcpy(at, value, 2); break;
    case 4: std::memcpy(at, value, 4); break;
    case 8: std::memcpy(at, value, 8); break;
    default: std::memcpy(at, value, plan.size);
    }
}

// A member of type M at `at`, the cursor on its value. One function per member type, shared
// by every struct that has a member of that type; for an enumeration, a call of the function
// shared by all of them.
template <class M>
void read_member(reader& r, void* at) {
    if constexpr (kind_of<M>() == kind::enumeration) {
        read_enum(r, at, enum_plan_of<M>);
    } else {
        M& member = *static_cast<M*>(at);
        if constexpr (is_optional_member<M>) {
            // read_value skips the whitespace before a value; here the value is looked at first.
            r.in.skip_ws();
            if (r.in.peek() == 'n' && !cursor(r.in).literal("null")) {
                read_literal(r, "null");  // not JSON: a syntax error, alone
                return;
            }
            if (r.in.peek() == 'n' && admits_null<typename M::value_type>()) {
                // The member's own schema allows null (raw JSON, a variant with std::monostate).
                if (!member.has_value()) member.emplace();
                read_value(r, *member);
                return;
            }
            if (r.in.peek() == 'n') {
                null_member(r, expected_name<typename M::value_type>());
                return;
            }
            if (!member.has_value()) member.emplace();
            read_value(r, *member);
        } else {
            read_value(r, member);
        }
    }
}

template <class Access>
consteval std::uint64_t required_mask() {
    std::uint64_t mask = 0;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((mask |= is_optional_member<member_type<Access, I>> ? 0 : (std::uint64_t(1) << I)), ...);
    }(std::make_index_sequence<Access::size>{});
    return mask;
}

// Whether a member name is matched in the input byte for byte: every byte of it stands for
// itself in a JSON string (printable ASCII other than '"' and '\\').
constexpr bool plain_name(std::string_view name) noexcept {
    for (char c : name)
        if (!plain_byte[static_cast<unsigned char>(c)]) return false;
    return true;
}

// A name's length and first and last bytes in one word: a member whose key differs in any of
// them is passed over without comparing the rest.
constexpr std::uint32_t name_signature(std::string_view name) noexcept {
    if (name.empty()) return 0;
    return std::uint32_t(name.size()) << 16 | std::uint32_t(static_cast<unsigned char>(name.front())) << 8 |
           std::uint32_t(static_cast<unsigned char>(name.back()));
}

template <class Access>
inline constexpr auto name_signatures = [] {
    std::array<std::uint32_t, Access::size> table{};
    for (std::size_t i = 0; i != Access::size; ++i) table[i] = name_signature(Access::names[i]);
    return table;
}();

// The index of the member named `key` (Access::size when none is): `expected` first, as
// members mostly come in declaration order, then by the table of signatures.
AGENTRY_JSON_SHARED std::size_t find_member(std::string_view key, std::size_t expected, const std::string_view* names,
                                            const std::uint32_t* signatures, std::size_t size) noexcept {
    if (expected < size && same_text(names[expected], key)) return expected;
    const std::uint32_t signature = name_signature(key);
    for (std::size_t i = 0; i != size; ++i)
        if (signatures[i] == signature && same_text(names[i], key)) return i;
    return size;
}

// The quoted name `name` (plain, n bytes), whitespace, then ':' at the cursor: the cursor
// moves past the ':' and true is returned; otherwise false, the cursor where it was.
AGENTRY_JSON_SHARED bool at_member_name_spaced(cursor& in, const char* name, std::size_t n) noexcept {
    if (std::size_t(in.end - in.p) < n + 3 || in.p[0] != '"' || in.p[n + 1] != '"' ||
        std::memcmp(in.p + 1, name, n) != 0)
        return false;
    cursor after = in;
    after.p += n + 2;
    if (!after.consume(':')) return false;
    in.p = after.p;
    return true;
}

// A member's key `"name":` as the in-order path matches it: its first and last eight bytes (four
// when it is shorter than eight) as the words a load from the input gives, its size, and its
// text. A name the general path reads (escapes, or shorter than four bytes with its quotes and
// ':') has the size no input reaches.
struct member_key {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    std::size_t size = static_cast<std::size_t>(-1);
    const char* text = nullptr;
};

// The bytes of `text` from `at`, n of them (n <= 8), as one load of them gives.
constexpr std::uint64_t key_word(std::string_view text, std::size_t at, std::size_t n) noexcept {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i != n; ++i) {
        const std::uint64_t byte = static_cast<unsigned char>(text[at + i]);
        word |= std::endian::native == std::endian::little ? byte << (8 * i) : byte << (8 * (n - 1 - i));
    }
    return word;
}

// The keys of Access's members, one after the other, and the table that describes them.
template <class Access>
inline constexpr auto key_text = [] {
    constexpr std::size_t total = [] {
        std::size_t n = 1;
        for (std::string_view name : Access::names) n += name.size() + 3;
        return n;
    }();
    std::array<char, total> text{};
    std::size_t at = 0;
    for (std::string_view name : Access::names) {
        text[at++] = '"';
        for (char c : name) text[at++] = c;
        text[at++] = '"';
        text[at++] = ':';
    }
    return text;
}();

template <class Access>
inline constexpr auto member_keys = [] {
    std::array<member_key, Access::size> keys{};
    const std::string_view all(key_text<Access>.data(), key_text<Access>.size() - 1);
    std::size_t at = 0;
    for (std::size_t i = 0; i != Access::size; ++i) {
        const std::string_view name = Access::names[i];
        const std::size_t n = name.size() + 3;
        if (plain_name(name) && n >= 4) {
            const std::size_t word = n >= 8 ? 8 : 4;
            keys[i] = {key_word(all, at, word), key_word(all, at + n - word, word), n, key_text<Access>.data() + at};
        }
        at += n;
    }
    return keys;
}();

// Whether the key is at p, with at least key.size bytes from p on.
AGENTRY_JSON_INLINE bool same_key(const char* p, const member_key& key) noexcept {
    if (key.size >= 8) {
        std::uint64_t head, tail;
        std::memcpy(&head, p, 8);
        std::memcpy(&tail, p + key.size - 8, 8);
        if (head != key.head || tail != key.tail) return false;
        return key.size <= 16 || std::memcmp(p + 8, key.text + 8, key.size - 16) == 0;
    }
    std::uint32_t head, tail;
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + key.size - 4, 4);
    return head == std::uint32_t(key.head) && tail == std::uint32_t(key.tail);
}

// The member's key at the cursor, after any whitespace: the cursor moves past the ':' and true
// is returned (whitespace before the ':' is allowed too). Anything else (another name,
// escapes, a syntax error) leaves the cursor where it was, or past whitespace, for the general
// path. Whitespace is looked for only where the key is not.
AGENTRY_JSON_INLINE bool at_member_key(cursor& in, const member_key& key) noexcept {
    if (std::size_t(in.end - in.p) >= key.size && same_key(in.p, key)) {
        in.p += key.size;
        return true;
    }
    if (key.text == nullptr) return false;
    if (in.p != in.end && static_cast<unsigned char>(*in.p) <= ' ') {
        in.skip_ws_run();
        if (std::size_t(in.end - in.p) >= key.size && same_key(in.p, key)) {
            in.p += key.size;
            return true;
        }
    }
    return at_member_name_spaced(in, key.text + 1, key.size - 3);
}

// The reader of each member of Access, by index.
template <class Access>
inline constexpr auto member_readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<void (*)(reader&, void*), Access::size>{&read_member<std::remove_cv_t<member_type<Access, I>>>...};
}(std::make_index_sequence<Access::size>{});

// A member of an object whose name is none of `names` (count of them): skipped, and reported
// unless unknown properties are ignored.
AGENTRY_JSON_COLD void unknown_member(reader& r, std::string_view key, const std::string_view* names,
                                      std::size_t count) {
    if (r.options().ignore_unknown_properties) {
        r.skip();
        return;
    }
    std::string message = "unknown property";
    const std::string_view guess = closest(key, std::span<const std::string_view>(names, count));
    if (!guess.empty()) {
        message += "; did you mean \"" + std::string(guess) + "\"?";
    } else {
        message += "; allowed: ";
        for (std::size_t i = 0; i != count; ++i) {
            if (i != 0) message += ", ";
            message += names[i];
        }
        if (count == 0) message += "none";
    }
    r.error(error_kind::unknown_property, std::move(message));
    r.skip();
}

// A member read before: reported and skipped.
AGENTRY_JSON_COLD void duplicate_member(reader& r) {
    r.error(error_kind::duplicate_property, "duplicate property");
    r.skip();
}

// The members whose bits are set in `missing` (of `names`), each reported at its own pointer.
AGENTRY_JSON_COLD void missing_members(reader& r, std::uint64_t missing, const std::string_view* names) {
    for (; missing != 0; missing &= missing - 1) {
        const std::string_view name = names[std::countr_zero(missing)];
        r.push_key(name);
        r.error(error_kind::required, "missing required property");
        r.pop();
    }
}

// What reading a struct's members needs to know of it, as data: one constant per struct, read
// by one function for all of them.
struct object_plan {
    const member_key* keys;
    void (*const* readers)(reader&, void*);
    const std::string_view* names;
    const std::uint32_t* signatures;
    std::size_t size;
    std::uint64_t required;
    void (*read)(reader&, void*);  // read_object<P>, for the json_in_string repair
};

template <class P, class Access = object_access<P>>
inline constexpr object_plan plan_of{member_keys<Access>.data(),      member_readers<Access>.data(),
                                     Access::names.data(),            name_signatures<Access>.data(),
                                     Access::size,                    required_mask<Access>(),
                                     &read_object<P>};

// The members of an object in any order: each name read and looked up, unknown and repeated
// ones reported.
struct any_order {
    reader& r;
    const object_plan& plan;
    void* const* members;
    std::uint64_t& seen;
    std::size_t next;

    static void member(void* self, std::string_view key) {
        any_order& a = *static_cast<any_order*>(self);
        const object_plan& plan = a.plan;
        const std::size_t index = find_member(key, a.next, plan.names, plan.signatures, plan.size);
        a.next = index + 1;
        if (index == plan.size) return unknown_member(a.r, key, plan.names, plan.size);
        const std::uint64_t bit = std::uint64_t(1) << index;
        if (a.seen & bit) return duplicate_member(a.r);
        a.seen |= bit;
        plan.readers[index](a.r, a.members[index]);
    }
};

// An object into `value`, the cursor before any whitespace; `members` the addresses of its
// members: what read_object<P> does but take the addresses, compiled once. Compact objects in
// declaration order, the members as a model sends them, go the fast way: member i is read when
// its key is next in the input. From the first member that is not, the names are read and
// looked up. Then the required members not seen are reported.
AGENTRY_JSON_SHARED void read_object_at(reader& r, const object_plan& plan, void* const* members, void* value) {
    r.in.skip_ws();
    if (!expect_container(r, '{', plan.read, value)) return;
    r.in.skip_ws();
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        if (plan.required != 0) missing_members(r, plan.required, plan.names);
        return;
    }
    std::size_t i = 0;
    bool more = true;
    for (; i != plan.size; ++i) {
        const member_key& key = plan.keys[i];
        if (!at_member_key(r.in, key)) break;
        r.push_key({key.text + 1, key.size - 3});
        plan.readers[i](r, members[i]);
        r.pop();
        if (r.stopped()) return;
        if (!next_member(r)) {
            if (r.stopped()) return;
            more = false;
            ++i;
            break;
        }
    }
    std::uint64_t seen = i == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << i) - 1;
    if (more) {
        any_order rest{r, plan, members, seen, i};
        read_members_at(r, &any_order::member, &rest);
        if (r.stopped()) return;
    }
    if (const std::uint64_t missing = plan.required & ~seen; missing != 0) missing_members(r, missing, plan.names);
}

// The members of a P into `value`, a P's storage (object_access<P>::storage), the cursor before
// any whitespace. One function per P, also what json::read and the json_in_string repair call.
template <class P>
void read_object(reader& r, void* value) {
    using access = object_access<P>;
    static_assert(access::size <= reflect::detail::max_fields && reflect::detail::max_fields <= 64,
                  "agentry: a struct is read with one 64-bit mask of the members seen; split a larger one into nested structs");
    auto& out = *static_cast<typename access::storage*>(value);
    std::array<void*, access::size> members;
    if constexpr (schema::detail::is_named_parameters<P>) access::addresses(out, members.data());
    else reflect::detail::fields_of<access::size>::addresses(out, members.data());
    read_object_at(r, plan_of<P>, members.data(), value);
}

// ---- free-form JSON ------------------------------------------------------------------------

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
        const auto [end, ec] = std::from_chars(token.text.data(), token.text.data() + token.text.size(), d);
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

// ---- variants ------------------------------------------------------------------------------

// How an alternative of a variant is named in a message: a struct by its name ("card"), a
// variant by its alternatives ("a boolean or voucher"), any other type by its JSON type.
template <class A>
std::string alternative_name() {
    if constexpr (kind_of<A>() == kind::object && std::is_class_v<A>) {
        return std::string(schema::detail::short_type_name_text<A>.view());
    } else if constexpr (kind_of<A>() == kind::variant) {
        return []<class... B>(std::variant<B...>*) {
            std::string names;
            ((names += (names.empty() ? "" : " or ") + alternative_name<std::remove_cv_t<B>>()), ...);
            return names;
        }(static_cast<A*>(nullptr));
    } else {
        return std::string(expected_name<A>());
    }
}

// Whether a value of type A can start with `c` (the first byte of a JSON value), repairs
// included: false means the value is not even of A's JSON type.
template <class A>
bool admits_start(char c, const read_options& options) noexcept {
    constexpr kind k = kind_of<A>();
    if constexpr (k == kind::constrained || k == kind::optional) {
        return (k == kind::optional && c == 'n') || admits_start<typename A::value_type>(c, options);
    } else if constexpr (k == kind::variant) {
        return [&]<class... B>(std::variant<B...>*) {
            return (admits_start<std::remove_cv_t<B>>(c, options) || ...);
        }(static_cast<A*>(nullptr));
    } else if constexpr (k == kind::boolean) {
        return c == 't' || c == 'f';
    } else if constexpr (k == kind::integer || k == kind::number) {
        return c == '-' || (c >= '0' && c <= '9') || (c == '"' && options.repairs.number_in_string);
    } else if constexpr (k == kind::string || k == kind::enumeration) {
        return c == '"';
    } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
        return c == '[' || (c == '"' && options.repairs.json_in_string);
    } else if constexpr (k == kind::map || k == kind::object) {
        return c == '{' || (c == '"' && options.repairs.json_in_string);
    } else if constexpr (k == kind::null) {
        return c == 'n';
    } else {
        return true;
    }
}

// Why one alternative did not fit: its errors, with pointers relative to the variant.
struct alternative_failure {
    std::string name;
    std::vector<read_error> errors;
    /// The value is not even of the alternative's JSON type: the farthest from fitting.
    bool wrong_type = false;
};

// "matches none of the allowed forms; as card: /last4 must match ...; as voucher: missing
// /code": the reasons of each alternative of the value's JSON type, the fewest errors first,
// then the alternatives of other types ("not null or an integer: got an object"). `got` is the
// value's JSON type and an excerpt.
inline std::string explain_no_alternative(std::vector<alternative_failure>& failures, std::string_view type,
                                          std::string_view excerpt) {
    constexpr std::size_t shown_per_alternative = 2;
    std::stable_sort(failures.begin(), failures.end(), [](const alternative_failure& a, const alternative_failure& b) {
        if (a.wrong_type != b.wrong_type) return b.wrong_type;
        return a.errors.size() < b.errors.size();
    });
    const auto names = [&](std::string_view separator, std::string_view last_separator) {
        std::string out;
        std::size_t count = 0, total = 0;
        for (const alternative_failure& f : failures) total += f.wrong_type;
        for (const alternative_failure& f : failures) {
            if (!f.wrong_type) continue;
            if (count != 0) out += count + 1 == total ? last_separator : separator;
            out += f.name;
            ++count;
        }
        return out;
    };
    std::string text = "matches none of the allowed forms";
    if (failures.empty() || failures.front().wrong_type)
        return text + "; got " + std::string(type) + " " + std::string(excerpt) + ", expected " + names(", ", " or ");
    for (const alternative_failure& f : failures) {
        if (f.wrong_type) break;
        text += "; as ";
        text += f.name;
        text += ": ";
        for (std::size_t i = 0; i != f.errors.size() && i != shown_per_alternative; ++i) {
            const read_error& e = f.errors[i];
            if (i != 0) text += ", ";
            if (e.kind == error_kind::required) {
                text += "missing " + e.pointer;
                continue;
            }
            if (!e.pointer.empty()) text += e.pointer + " ";
            text += e.message;
        }
        if (f.errors.size() > shown_per_alternative)
            text += " (and " + std::to_string(f.errors.size() - shown_per_alternative) + " more)";
    }
    if (failures.back().wrong_type) text += "; not " + names(", ", " or ") + ": got " + std::string(type);
    return text;
}

template <class V, class... A>
void read_variant(reader& r, V& out, reflect::type_list<A...>) {
    cursor start = r.in;
    if (!skip_value(r.in, r.depth, r.options().max_depth)) {
        r.syntax_error();
        return;
    }
    const std::string_view text(start.p, std::size_t(r.in.p - start.p));
    bool matched = false;
    // `options` null: the reader's own. The first alternative that reads without error wins.
    const auto attempt = [&]<class Alternative>(std::type_identity<Alternative>, const read_options* options) {
        if (matched) return;
        std::vector<read_error> errors;
        std::vector<std::string> repairs;
        reader probe = r.nested(text, true, errors, repairs, options);
        Alternative value{};
        read_value(probe, value);
        if (probe.error_count() != 0) return;
        // Read again, recording repairs, now that this alternative is known to fit.
        matched = true;
        reader inner = r.nested(text, false, errors, repairs, options);
        Alternative kept{};
        read_value(inner, kept);
        out = std::move(kept);
        for (auto& note : repairs) r.repaired_as_is(std::move(note));  // already carries its pointer
    };
    // An alternative that fits as sent wins over one that needs a repair.
    if (r.options().repairs == repairs{}) {
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, nullptr), ...);
    } else {
        read_options strict = r.options();
        strict.repairs = {};
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, &strict), ...);
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, nullptr), ...);
    }
    if (matched) return;
    r.in = start;
    if (r.quiet()) {  // only the count matters: an enclosing variant is probing
        r.error(error_kind::no_alternative, std::string());
        r.skip();
        return;
    }
    // Read each alternative again, recording its errors relative to the variant.
    std::vector<alternative_failure> failures;
    const auto explain = [&]<class Alternative>(std::type_identity<Alternative>) {
        alternative_failure& f = failures.emplace_back();
        f.name = alternative_name<Alternative>();
        f.wrong_type = !admits_start<Alternative>(r.in.peek(), r.options());
        if (f.wrong_type) return;
        std::vector<std::string> repairs;
        reader inner(text, r.options(), f.errors, repairs);
        inner.depth = r.depth;
        Alternative value{};
        read_value(inner, value);
    };
    (explain(std::type_identity<std::remove_cv_t<A>>{}), ...);
    std::string message = explain_no_alternative(failures, json_type_at(r.in), excerpt_at(r.in));
    r.error(error_kind::no_alternative, std::move(message));
    r.skip();
}

template <class V>
struct alternatives;
template <class... A>
struct alternatives<std::variant<A...>> {
    using type = reflect::type_list<A...>;
};

// ---- dispatch on the kind of T -------------------------------------------------------------

template <class T>
void read_value(reader& r, T& out) {
    constexpr kind k = kind_of<T>();
    if constexpr (k != kind::enumeration) {  // read_enum does both itself
        if (r.stopped()) return;
        r.in.skip_ws();
    }
    if constexpr (k == kind::boolean) {
        if (r.in.end - r.in.p >= 4 && std::memcmp(r.in.p, "true", 4) == 0) {
            r.in.p += 4;
            out = true;
        } else if (r.in.end - r.in.p >= 5 && std::memcmp(r.in.p, "false", 5) == 0) {
            r.in.p += 5;
            out = false;
        } else if (r.in.peek() == 't') {
            if (read_literal(r, "true")) out = true;
        } else if (r.in.peek() == 'f') {
            if (read_literal(r, "false")) out = false;
        } else {
            type_error<T>(r);
        }
    } else if constexpr (k == kind::integer) {
        if (!read_plain_integer(r, out)) read_integer(r, out);
    } else if constexpr (k == kind::number) {
        if (!read_plain_decimal(r, out)) read_floating(r, out);
    } else if constexpr (k == kind::string) {
        if (r.in.peek() != '"') return type_error<T>(r);
        if constexpr (std::is_same_v<T, std::string_view>) read_view(r, out);
        else read_string_value(r, out);
    } else if constexpr (k == kind::enumeration) {
        read_enum(r, &out, enum_plan_of<T>);
    } else if constexpr (k == kind::constrained) {
        read_constrained(r, out.value, typename T::constraints{});
    } else if constexpr (k == kind::any) {
        read_any(r, out);
    } else if constexpr (k == kind::optional) {
        if (r.in.peek() == 'n') {
            if (read_literal(r, "null")) out.reset();
            return;
        }
        if (!out.has_value()) out.emplace();
        read_value(r, *out);
    } else if constexpr (k == kind::variant) {
        read_variant(r, out, typename alternatives<T>::type{});
    } else if constexpr (k == kind::null) {
        if (r.in.peek() != 'n') return type_error<T>(r);
        read_literal(r, "null");
    } else if constexpr (k == kind::adapted) {
        read_adapted(r, out);
    } else if constexpr (k == kind::tuple) {
        read_tuple(r, out);
    } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
        read_sequence(r, out);
    } else if constexpr (k == kind::map) {
        read_map(r, out);
    } else if constexpr (k == kind::object) {
        read_object<T>(r, &out);
    } else {
        static_assert(sizeof(schema::detail::no_json_schema_for<T>) != 0);
    }
}

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
AGENTRY_JSON_COLD void too_large(std::vector<read_error>& errors, std::size_t size, std::size_t limit) {
    errors.push_back({"", error_kind::too_large,
                      "the arguments are " + std::to_string(size) + " bytes long, more than the limit of " +
                          std::to_string(limit)});
}

// The empty_as_object repair: true, the repair noted, when `text` is only whitespace.
AGENTRY_JSON_SHARED bool read_empty_as_object(std::string_view text, std::vector<std::string>& repairs) {
    if (text.find_first_not_of(" \t\r\n") != std::string_view::npos) return false;
    repairs.push_back("empty arguments were read as {}");
    return true;
}

// After the value read: only whitespace may follow.
AGENTRY_JSON_COLD void unexpected_after_value(reader& r) {
    r.in.fail(lex_error::unexpected_character);
    r.error(error_kind::syntax,
            "invalid JSON at byte " + std::to_string(r.in.offset()) + ": unexpected content after the value");
}

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
AGENTRY_JSON_SHARED void read_document(std::string_view text, const read_options& options, document_parts out,
                                       bool empty_object, void (*read)(reader&, void*)) {
    if (text.size() > options.max_size) {
        too_large(out.errors, text.size(), options.max_size);
        return;
    }
    if (empty_object && options.repairs.empty_as_object && read_empty_as_object(text, out.repairs)) return;
    reader r(text, options, out.errors, out.repairs);
    r.owned_text = &out.owned_text;
    read(r, out.value);
    if (r.stopped()) return;
    r.in.skip_ws();
    if (!r.in.at_end()) unexpected_after_value(r);
}

} // namespace detail

/// Reads JSON `text` into a P (or, for agentry::named_parameters, a tuple of the named
/// parameters), checking every constraint P's schema states.
template <class P>
read_result<detail::storage_t<P>> read(std::string_view text, const read_options& options = {}) {
    using storage = detail::storage_t<P>;
    read_result<storage> result;
    constexpr bool empty_object = detail::kind_of<P>() == detail::kind::object && !detail::has_required_member<P>();
    detail::read_document(text, options, {&result.value, result.errors, result.repairs, result.owned_text}, empty_object,
                          detail::parameters_reader<P>());
    return result;
}

} // namespace agentry::json

#endif
