// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_CONSTRAINTS_HPP
#define AGENTRY_SCHEMA_CONSTRAINTS_HPP

// Constraint types. One definition yields the schema keyword and the runtime check:
//
//   agentry::constrained<int, agentry::minimum<1>, agentry::maximum<10>> count;
//   agentry::in_range<double, -90, 90> latitude;
//   agentry::constrained<double, agentry::exclusive_minimum<"0.5">> price;
//   agentry::sized_string<1, 64> name;              // length in code points
//   agentry::matching<"^[A-Z]{3}$"> iata;
//   agentry::email_string contact;
//   agentry::sized_vector<std::string, 1, 5> tags;
//
// A constrained value converts to and from its value type; `.value`, `*`, `->` and `get()`
// reach it directly.

#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>

#include <array>
#include <compare>
#include <concepts>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace agentry {

/// A number written in a template argument: an integer (`5`) or JSON number text (`"0.25"`).
struct number_literal {
    char text[32]{};
    std::size_t size = 0;
    bool valid = false;
    bool integral = false;
    bool negative = false;
    unsigned long long magnitude = 0;

    template <std::integral I>
        requires(!std::same_as<I, bool>)
    consteval number_literal(I v) noexcept : valid(true), integral(true), negative(v < 0) {
        magnitude = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        char digits[20]{};
        std::size_t n = 0;
        unsigned long long m = magnitude;
        do {
            digits[n++] = char('0' + m % 10);
            m /= 10;
        } while (m != 0);
        if (negative) text[size++] = '-';
        while (n != 0) text[size++] = digits[--n];
    }

    template <std::size_t N>
    consteval number_literal(const char (&literal)[N]) noexcept {
        const std::string_view s(literal, N - 1);
        if (s.size() >= sizeof text) return;
        for (char c : s) text[size++] = c;
        std::size_t i = 0;
        const auto digit = [&](std::size_t at) { return at < s.size() && s[at] >= '0' && s[at] <= '9'; };
        if (i < s.size() && s[i] == '-') {
            negative = true;
            ++i;
        }
        if (!digit(i)) return;
        bool overflow = false;
        if (s[i] == '0') {
            ++i;
        } else {
            while (digit(i)) {
                const unsigned d = unsigned(s[i++] - '0');
                if (magnitude > (std::numeric_limits<unsigned long long>::max() - d) / 10) overflow = true;
                magnitude = magnitude * 10 + d;
            }
        }
        integral = !overflow;
        if (i < s.size() && s[i] == '.') {
            ++i;
            if (!digit(i)) return;
            while (digit(i)) ++i;
            integral = false;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            ++i;
            if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
            if (!digit(i)) return;
            while (digit(i)) ++i;
            integral = false;
        }
        valid = i == s.size();
        if (negative && integral && magnitude == 0) negative = false;
    }

    constexpr std::string_view view() const noexcept { return {text, size}; }

    /// The value as a double (exact for integers up to 2^53 and for short decimals).
    constexpr double to_double() const noexcept {
        double mantissa = 0;
        int exponent = 0;
        std::size_t i = negative ? 1 : 0;
        for (; i < size && text[i] >= '0' && text[i] <= '9'; ++i) mantissa = mantissa * 10 + (text[i] - '0');
        if (i < size && text[i] == '.')
            for (++i; i < size && text[i] >= '0' && text[i] <= '9'; ++i) {
                mantissa = mantissa * 10 + (text[i] - '0');
                --exponent;
            }
        if (i < size && (text[i] == 'e' || text[i] == 'E')) {
            ++i;
            bool minus = false;
            if (text[i] == '+' || text[i] == '-') minus = text[i++] == '-';
            int e = 0;
            for (; i < size; ++i) e = e * 10 + (text[i] - '0');
            exponent += minus ? -e : e;
        }
        double scale = 1;
        for (int k = 0; k < (exponent < 0 ? -exponent : exponent); ++k) scale *= 10;
        const double v = exponent < 0 ? mantissa / scale : mantissa * scale;
        return negative ? -v : v;
    }
};

/// -1, 0 or 1 as a is less than, equal to or greater than b.
consteval int compare(const number_literal& a, const number_literal& b) noexcept {
    if (a.integral && b.integral) {
        if (a.negative != b.negative) return a.negative ? -1 : 1;
        if (a.magnitude == b.magnitude) return 0;
        const bool less = a.negative ? a.magnitude > b.magnitude : a.magnitude < b.magnitude;
        return less ? -1 : 1;
    }
    const double x = a.to_double(), y = b.to_double();
    return x < y ? -1 : (x > y ? 1 : 0);
}

enum class constraint_keyword : unsigned char {
    minimum,
    exclusive_minimum,
    maximum,
    exclusive_maximum,
    multiple_of,
    min_length,
    max_length,
    pattern,
    format,
    min_items,
    max_items,
    unique_items,
};

inline constexpr std::size_t constraint_keyword_count = 12;

/// The JSON Schema keyword of a constraint.
constexpr std::string_view keyword_name(constraint_keyword k) noexcept {
    constexpr std::array<std::string_view, constraint_keyword_count> names{
        "minimum",   "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength",
        "maxLength", "pattern",          "format",  "minItems",         "maxItems",   "uniqueItems"};
    return names[std::size_t(k)];
}

/// String formats of JSON Schema 2020-12 that agentry can state (and, at run time, check).
enum class string_format : unsigned char { date_time, date, time, duration, email, hostname, ipv4, ipv6, uuid, uri };

inline constexpr std::size_t string_format_count = 10;

constexpr std::string_view format_name(string_format f) noexcept {
    constexpr std::array<std::string_view, string_format_count> names{
        "date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"};
    return names[std::size_t(f)];
}

enum class constraint_target : unsigned char { number, string, array };

namespace detail {

template <class K, K Keyword, constraint_target Target>
struct constraint_tag {
    static constexpr constraint_keyword keyword = Keyword;
    static constexpr constraint_target target = Target;
};

// The subset of ECMA-262 syntax checked here: balanced groups and classes, no dangling
// escape, no quantifier without an atom. The reader compiles the pattern fully.
consteval bool pattern_well_formed(std::string_view p) noexcept {
    int groups = 0;
    bool in_class = false;
    bool atom = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') {
            if (++i == p.size()) return false;
            atom = true;
            continue;
        }
        if (in_class) {
            if (c == ']') in_class = false;
            continue;
        }
        switch (c) {
        case '[': in_class = true; atom = true; break;
        case '(': ++groups; atom = false;
            if (i + 1 < p.size() && p[i + 1] == '?') ++i;  // (?:  (?=  (?!  (?<name>
            if (i + 1 < p.size() && (p[i + 1] == ':' || p[i + 1] == '=' || p[i + 1] == '!')) ++i;
            break;
        case ')': if (--groups < 0) return false; atom = true; break;
        case '|': atom = false; break;
        case '^': case '$': atom = false; break;
        case '*': case '+': case '?': case '{':
            if (!atom && !(c == '?' && i > 0 && (p[i - 1] == '*' || p[i - 1] == '+' || p[i - 1] == '?' || p[i - 1] == '}')))
                return false;
            if (c == '{') {
                const std::size_t close = p.find('}', i);
                if (close == std::string_view::npos) return false;
                i = close;
            }
            break;
        default: atom = true;
        }
    }
    return groups == 0 && !in_class;
}

} // namespace detail

template <number_literal V>
struct minimum : detail::constraint_tag<constraint_keyword, constraint_keyword::minimum, constraint_target::number> {
    static constexpr number_literal value = V;
};
template <number_literal V>
struct exclusive_minimum
    : detail::constraint_tag<constraint_keyword, constraint_keyword::exclusive_minimum, constraint_target::number> {
    static constexpr number_literal value = V;
};
template <number_literal V>
struct maximum : detail::constraint_tag<constraint_keyword, constraint_keyword::maximum, constraint_target::number> {
    static constexpr number_literal value = V;
};
template <number_literal V>
struct exclusive_maximum
    : detail::constraint_tag<constraint_keyword, constraint_keyword::exclusive_maximum, constraint_target::number> {
    static constexpr number_literal value = V;
};
template <number_literal V>
struct multiple_of
    : detail::constraint_tag<constraint_keyword, constraint_keyword::multiple_of, constraint_target::number> {
    static constexpr number_literal value = V;
};
/// Length in Unicode code points, as JSON Schema counts it.
template <std::size_t N>
struct min_length : detail::constraint_tag<constraint_keyword, constraint_keyword::min_length, constraint_target::string> {
    static constexpr std::size_t value = N;
};
template <std::size_t N>
struct max_length : detail::constraint_tag<constraint_keyword, constraint_keyword::max_length, constraint_target::string> {
    static constexpr std::size_t value = N;
};
/// An ECMA-262 regular expression; like JSON Schema, it matches anywhere unless anchored.
template <fixed_string P>
struct pattern : detail::constraint_tag<constraint_keyword, constraint_keyword::pattern, constraint_target::string> {
    static constexpr std::string_view value = P.view();
};
template <string_format F>
struct format : detail::constraint_tag<constraint_keyword, constraint_keyword::format, constraint_target::string> {
    static constexpr string_format value = F;
};
template <std::size_t N>
struct min_items : detail::constraint_tag<constraint_keyword, constraint_keyword::min_items, constraint_target::array> {
    static constexpr std::size_t value = N;
};
template <std::size_t N>
struct max_items : detail::constraint_tag<constraint_keyword, constraint_keyword::max_items, constraint_target::array> {
    static constexpr std::size_t value = N;
};
struct unique_items
    : detail::constraint_tag<constraint_keyword, constraint_keyword::unique_items, constraint_target::array> {};

namespace detail {

template <class C>
concept constraint = requires {
    { C::keyword } -> std::convertible_to<constraint_keyword>;
    { C::target } -> std::convertible_to<constraint_target>;
};

template <class T>
inline constexpr bool is_std_string = false;
template <class Tr, class A>
inline constexpr bool is_std_string<std::basic_string<char, Tr, A>> = true;

template <class T>
inline constexpr bool is_sequence = false;
template <class T, class A>
inline constexpr bool is_sequence<std::vector<T, A>> = true;
template <class T, std::size_t N>
inline constexpr bool is_sequence<std::array<T, N>> = true;
template <class T, class C, class A>
inline constexpr bool is_sequence<std::set<T, C, A>> = true;
template <class T, class H, class E, class A>
inline constexpr bool is_sequence<std::unordered_set<T, H, E, A>> = true;

template <class T>
inline constexpr bool is_number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>;

template <class T>
inline constexpr bool is_optional_like = requires { typename T::value_type; } && requires(T t) {
    t.has_value();
    t.reset();
};

template <class C, class T>
consteval bool integer_bound_fits() {
    if constexpr (!std::is_integral_v<T> || C::target != constraint_target::number) {
        return true;
    } else {
        constexpr number_literal v = C::value;
        if (!v.integral) return false;
        if (v.negative) {
            if constexpr (std::is_unsigned_v<T>) return false;
            else return v.magnitude <= 0ull - (unsigned long long)std::numeric_limits<T>::min();
        }
        return v.magnitude <= (unsigned long long)std::numeric_limits<T>::max();
    }
}

template <constraint_keyword K, class... C>
inline constexpr std::size_t keyword_uses = ((C::keyword == K ? 1 : 0) + ... + 0);

template <constraint_keyword K, class... C>
consteval std::size_t keyword_value() {
    std::size_t found = 0;
    ([&] {
        if constexpr (C::keyword == K) found = C::value;
    }(), ...);
    return found;
}

template <constraint_keyword K, class... C>
consteval number_literal number_value() {
    number_literal found = 0;
    ([&] {
        if constexpr (C::keyword == K) found = C::value;
    }(), ...);
    return found;
}

template <class... C>
consteval bool numeric_bounds_ordered() {
    constexpr bool has_low = keyword_uses<constraint_keyword::minimum, C...> || keyword_uses<constraint_keyword::exclusive_minimum, C...>;
    constexpr bool has_high = keyword_uses<constraint_keyword::maximum, C...> || keyword_uses<constraint_keyword::exclusive_maximum, C...>;
    if constexpr (has_low && has_high) {
        constexpr auto low = keyword_uses<constraint_keyword::minimum, C...>
                                 ? number_value<constraint_keyword::minimum, C...>()
                                 : number_value<constraint_keyword::exclusive_minimum, C...>();
        constexpr auto high = keyword_uses<constraint_keyword::maximum, C...>
                                  ? number_value<constraint_keyword::maximum, C...>()
                                  : number_value<constraint_keyword::exclusive_maximum, C...>();
        constexpr bool strict = !keyword_uses<constraint_keyword::minimum, C...> || !keyword_uses<constraint_keyword::maximum, C...>;
        return strict ? compare(low, high) < 0 : compare(low, high) <= 0;
    } else {
        return true;
    }
}

template <constraint_keyword Low, constraint_keyword High, class... C>
consteval bool sizes_ordered() {
    if constexpr (keyword_uses<Low, C...> != 0 && keyword_uses<High, C...> != 0)
        return keyword_value<Low, C...>() <= keyword_value<High, C...>();
    else
        return true;
}

template <constraint_keyword K, class... C>
consteval bool once() {
    return keyword_uses<K, C...> <= 1;
}

template <class... C>
consteval bool each_keyword_once() {
    return once<constraint_keyword::minimum, C...>() && once<constraint_keyword::exclusive_minimum, C...>() &&
           once<constraint_keyword::maximum, C...>() && once<constraint_keyword::exclusive_maximum, C...>() &&
           once<constraint_keyword::multiple_of, C...>() && once<constraint_keyword::min_length, C...>() &&
           once<constraint_keyword::max_length, C...>() && once<constraint_keyword::pattern, C...>() &&
           once<constraint_keyword::format, C...>() && once<constraint_keyword::min_items, C...>() &&
           once<constraint_keyword::max_items, C...>() && once<constraint_keyword::unique_items, C...>() &&
           keyword_uses<constraint_keyword::minimum, C...> + keyword_uses<constraint_keyword::exclusive_minimum, C...> <= 1 &&
           keyword_uses<constraint_keyword::maximum, C...> + keyword_uses<constraint_keyword::exclusive_maximum, C...> <= 1;
}

template <class C>
consteval bool bound_valid() {
    if constexpr (C::target == constraint_target::number) return C::value.valid;
    else return true;
}

template <class C>
consteval bool multiple_positive() {
    if constexpr (C::keyword == constraint_keyword::multiple_of)
        return !C::value.negative && compare(C::value, number_literal(0)) > 0;
    else return true;
}

template <class C>
consteval bool pattern_valid() {
    if constexpr (C::keyword == constraint_keyword::pattern) return !C::value.empty() && pattern_well_formed(C::value);
    else return true;
}

// The checks of constrained<T, C...>, in stages: a later stage runs only when the earlier ones
// passed, so that one mistake gives one message.
template <class T, class... C>
consteval bool check_constraints() {
    if constexpr (sizeof...(C) == 0) {
        static_assert(sizeof...(C) != 0, "agentry: constrained<T> needs at least one constraint, e.g. agentry::minimum<0>");
    } else if constexpr (!(constraint<C> && ...)) {
        static_assert((constraint<C> && ...),
                      "agentry: constrained<T, C...>: every C must be an agentry constraint such as "
                      "agentry::minimum<0>, agentry::max_length<64> or agentry::pattern<\"^[a-z]+$\">");
    } else if constexpr (is_optional_like<T>) {
        static_assert(!is_optional_like<T>,
                      "agentry: constrained<std::optional<T>, ...>: put the constraint inside the optional, "
                      "std::optional<agentry::constrained<T, ...>>");
    } else if constexpr (!(((C::target != constraint_target::number || is_number<T>) &&
                            (C::target != constraint_target::string || is_std_string<T>) &&
                            (C::target != constraint_target::array || is_sequence<T>)) && ...)) {
        static_assert(((C::target != constraint_target::number || is_number<T>) && ...),
                      "agentry: minimum, maximum, exclusive_minimum, exclusive_maximum and multiple_of apply to "
                      "integer and floating-point types only");
        static_assert(((C::target != constraint_target::string || is_std_string<T>) && ...),
                      "agentry: min_length, max_length, pattern and format apply to std::string only");
        static_assert(((C::target != constraint_target::array || is_sequence<T>) && ...),
                      "agentry: min_items, max_items and unique_items apply to std::vector, std::array and std::set "
                      "only");
    } else if constexpr (!((bound_valid<C>() && pattern_valid<C>()) && ...)) {
        static_assert((bound_valid<C>() && ...),
                      "agentry: a numeric bound must be an integer or JSON number text, e.g. 5, -3 or \"0.25\"");
        static_assert((pattern_valid<C>() && ...),
                      "agentry: pattern<\"...\"> is not a well-formed ECMA-262 regular expression (unbalanced "
                      "parentheses or brackets, a dangling backslash or a quantifier with nothing to repeat)");
    } else {
        static_assert((multiple_positive<C>() && ...), "agentry: multiple_of<N> needs N greater than 0");
        static_assert((integer_bound_fits<C, T>() && ...),
                      "agentry: a bound on an integer type must be an integer within the range of that type");
        static_assert(each_keyword_once<C...>(),
                      "agentry: a constraint keyword is given twice (or both minimum and exclusive_minimum, or both "
                      "maximum and exclusive_maximum); keep one");
        static_assert(!each_keyword_once<C...>() || numeric_bounds_ordered<C...>(),
                      "agentry: the lower bound is not below the upper bound; no value could satisfy both");
        static_assert(sizes_ordered<constraint_keyword::min_length, constraint_keyword::max_length, C...>(),
                      "agentry: min_length is greater than max_length");
        static_assert(sizes_ordered<constraint_keyword::min_items, constraint_keyword::max_items, C...>(),
                      "agentry: min_items is greater than max_items");
    }
    return true;
}

} // namespace detail

/// A value of type T with constraints C... (agentry::minimum<1>, agentry::max_length<64>, ...).
template <class T, class... C>
struct constrained {
    static_assert(detail::check_constraints<T, C...>());

    using value_type = T;
    using constraints = reflect::type_list<C...>;
    /// Every C is a constraint: the writer and reader use them only then.
    static constexpr bool well_formed = (detail::constraint<C> && ...) && sizeof...(C) != 0;

    T value{};

    constexpr constrained() = default;
    template <class U>
        requires(!std::is_same_v<std::remove_cvref_t<U>, constrained> && std::is_constructible_v<T, U &&>)
    constexpr constrained(U&& v) noexcept(std::is_nothrow_constructible_v<T, U&&>) : value(std::forward<U>(v)) {}

    constexpr T& get() & noexcept { return value; }
    constexpr const T& get() const& noexcept { return value; }
    constexpr T&& get() && noexcept { return std::move(value); }
    constexpr operator T&() & noexcept { return value; }
    constexpr operator const T&() const& noexcept { return value; }
    constexpr operator T&&() && noexcept { return std::move(value); }
    constexpr T& operator*() noexcept { return value; }
    constexpr const T& operator*() const noexcept { return value; }
    constexpr T* operator->() noexcept { return &value; }
    constexpr const T* operator->() const noexcept { return &value; }

    friend bool operator==(const constrained&, const constrained&) = default;
    friend auto operator<=>(const constrained&, const constrained&) = default;
};

template <class T>
inline constexpr bool is_constrained = false;
template <class T, class... C>
inline constexpr bool is_constrained<constrained<T, C...>> = true;

template <class T, number_literal Min, number_literal Max>
using in_range = constrained<T, minimum<Min>, maximum<Max>>;
template <std::size_t Min, std::size_t Max>
using sized_string = constrained<std::string, min_length<Min>, max_length<Max>>;
template <fixed_string P>
using matching = constrained<std::string, pattern<P>>;
template <class T, std::size_t Min, std::size_t Max>
using sized_vector = constrained<std::vector<T>, min_items<Min>, max_items<Max>>;
template <class T>
using unique_vector = constrained<std::vector<T>, unique_items>;

using date_time_string = constrained<std::string, format<string_format::date_time>>;
using date_string = constrained<std::string, format<string_format::date>>;
using time_string = constrained<std::string, format<string_format::time>>;
using duration_string = constrained<std::string, format<string_format::duration>>;
using email_string = constrained<std::string, format<string_format::email>>;
using hostname_string = constrained<std::string, format<string_format::hostname>>;
using ipv4_string = constrained<std::string, format<string_format::ipv4>>;
using ipv6_string = constrained<std::string, format<string_format::ipv6>>;
using uuid_string = constrained<std::string, format<string_format::uuid>>;
using uri_string = constrained<std::string, format<string_format::uri>>;

} // namespace agentry

#endif
