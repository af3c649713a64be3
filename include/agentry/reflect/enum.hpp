// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_ENUM_HPP
#define AGENTRY_REFLECT_ENUM_HPP

// Names of enumerators: from Boost.Describe when the enum is described (BOOST_DESCRIBE_ENUM),
// else read from __PRETTY_FUNCTION__ of a function templated on each value.
//
// A described enum costs no scan and may have enumerators of any value; of two enumerators
// with the same value, the first declared is used. For the others, the values scanned are
// enum_range<E>::min ..= enum_range<E>::max (default -128 ..= 127, clipped to the underlying
// type). Enumerators outside that range are not seen: specialise agentry::enum_range for such
// an enum. An enum with no named value in the range is a compile error. Aliases (two names
// for one value) yield the first name the compiler prints.
//
// Cost: one instantiation per enum for the whole range, then one pass over its
// __PRETTY_FUNCTION__ in which a value without a name is recognised in a few steps (its
// text is "(T)" and the number) and only the named ones are walked character by character.

#include <agentry/reflect/detail/static_text.hpp>

#include <boost/describe/enumerators.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry {

/// The values scanned for enumerator names; specialise for enums outside -128 ..= 127.
template <class E>
struct enum_range {
    static constexpr long long min = -128;
    static constexpr long long max = 127;
};

} // namespace agentry

namespace agentry::reflect {

namespace detail {

// All scanned values go through one instantiation: its __PRETTY_FUNCTION__ lists them.
// GCC: "... [with auto ...V = {ns::color::red, (ns::color)1, ...}; ...]"
// Clang: "... [V = <ns::color::red, (ns::color)1, ...>]"
// A value without a name prints as a cast "(ns::color)1"; the anonymous namespace prints as
// "<unnamed>::" (GCC) or "(anonymous namespace)::" (Clang).
template <auto... V>
consteval std::string_view pretty_enum_pack() noexcept {
    // The length from sizeof: constructing from the pointer alone would have constant
    // evaluation count the characters one by one.
    return {__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1};
}

// The enumerator name in one element of the list, or an empty view for a cast.
constexpr std::string_view enum_name_from_element(std::string_view e) noexcept {
    while (!e.empty() && e.front() == ' ') e.remove_prefix(1);
    if (e.empty() || e.front() == '-' || (e.front() >= '0' && e.front() <= '9')) return {};
    const std::size_t paren = e.rfind(')');
    if (paren != std::string_view::npos) {
        std::size_t i = paren + 1;
        if (i < e.size() && e[i] == '-') ++i;
        if (i < e.size() && e[i] >= '0' && e[i] <= '9') return {};
    }
    const std::size_t colon = e.rfind(':');
    return colon == std::string_view::npos ? e : e.substr(colon + 1);
}

// The named values among N scanned ones: their offsets from the first value scanned and their
// names, in ascending order of value (only the first `count` entries are set).
template <std::size_t N>
struct scanned_names {
    std::array<std::size_t, N> offsets{};
    std::array<std::string_view, N> names{};
    std::size_t count = 0;
    std::size_t total_size = 0;
};

// The length of the decimal text of v.
constexpr std::size_t decimal_length(long long v) noexcept {
    unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    std::size_t length = v < 0 ? 2 : 1;
    for (; m >= 10; m /= 10) ++length;
    return length;
}

// The first value after v whose decimal text is of another length.
constexpr long long next_length_change(long long v) noexcept {
    constexpr long long top = std::numeric_limits<long long>::max();
    if (v >= 0) {
        long long t = 10;
        while (t <= v) {
            if (t > top / 10) return top;
            t *= 10;
        }
        return t;
    }
    // |v| has d digits: the length drops at -(10^(d-1) - 1).
    const unsigned long long m = 0ull - (unsigned long long)v;
    unsigned long long t = 1;
    while (t * 10 <= m) t *= 10;
    return -(long long)(t - 1);
}

// Reads the list of N elements, the values first, first + 1, ...
template <std::size_t N>
consteval scanned_names<N> enum_names_from_pack(std::string_view pretty, long long first) noexcept {
    constexpr std::size_t npos = std::string_view::npos;
    scanned_names<N> out{};
    std::size_t at = pretty.find("V = ");
    if (at == npos) return out;
    const char* p = pretty.data();
    const std::size_t size = pretty.size();
    at += 4;
    const char close = p[at] == '{' ? '}' : '>';
    ++at;
    std::size_t prefix = 0;  // the length of "(T)" in a cast, once one is seen
    long long value = first;
    std::size_t length = decimal_length(value);  // of the value's decimal text
    long long change = next_length_change(value);
    for (std::size_t index = 0; index < N; ++index, ++value) {
        if (value == change) {
            length = decimal_length(value);
            change = next_length_change(value);
        }
        // A cast followed by another element: "(T)", the value in decimal, then ", ". Its length
        // is known, so three characters tell it: most scanned values have no name, and each
        // character read costs constant evaluation about a microsecond. A name "Q::x" (Q the
        // scope that "(Q)" also shows) has ':' where a cast has ')'. The last element of the list
        // takes the general path.
        if (prefix != 0) {
            const std::size_t e = at + prefix + length;
            if (e + 1 < size && p[e] == ',' && p[at] == '(' && p[at + prefix - 1] == ')') {
                at = e + 2;
                continue;
            }
        }
        while (at < size && p[at] == ' ') ++at;
        if (at >= size) break;
        std::size_t end = at;
        int depth = 0;
        for (; end < size; ++end) {
            const char c = p[end];
            if (depth == 0 && (c == ',' || c == close)) break;
            if (c == '(' || c == '<' || c == '{' || c == '[') ++depth;
            else if (c == ')' || c == '>' || c == '}' || c == ']') --depth;
        }
        const std::string_view element = pretty.substr(at, end - at);
        const std::string_view name = enum_name_from_element(element);
        if (!name.empty()) {
            out.offsets[out.count] = index;
            out.names[out.count++] = name;
            out.total_size += name.size();
        } else if (prefix == 0 && p[at] == '(') {
            prefix = element.rfind(')') + 1;
        }
        if (end >= size || p[end] == close) break;
        at = end + 1;
        if (at < size && p[at] == ' ') ++at;
    }
    return out;
}

template <class E>
consteval long long scan_min() noexcept {
    using U = std::underlying_type_t<E>;
    constexpr long long wanted = enum_range<E>::min;
    if constexpr (std::is_signed_v<U>)
        return wanted < (long long)std::numeric_limits<U>::min() ? (long long)std::numeric_limits<U>::min() : wanted;
    else
        return wanted < 0 ? 0 : wanted;
}

template <class E>
consteval long long scan_max() noexcept {
    using U = std::underlying_type_t<E>;
    constexpr long long wanted = enum_range<E>::max;
    constexpr unsigned long long top = std::numeric_limits<U>::max();
    return (unsigned long long)wanted > top && wanted > 0 ? (long long)top : wanted;
}

template <class E>
inline constexpr std::size_t scan_size = scan_max<E>() >= scan_min<E>() ? std::size_t(scan_max<E>() - scan_min<E>() + 1) : 0;

template <class E, std::size_t... I>
consteval scanned_names<sizeof...(I)> scan_names(std::index_sequence<I...>) noexcept {
    return enum_names_from_pack<sizeof...(I)>(pretty_enum_pack<static_cast<E>(scan_min<E>() + (long long)I)...>(),
                                              scan_min<E>());
}

template <class E>
inline constexpr auto enum_scan = scan_names<E>(std::make_index_sequence<scan_size<E>>{});

template <class E>
concept described_enum = boost::describe::has_describe_enumerators<E>::value;

// The (value, name) pairs of a described enum, sorted by value, one per value.
template <class E, template <class...> class L, class... D>
consteval auto described_entries(L<D...>*) noexcept {
    using U = std::underlying_type_t<E>;
    std::array<std::pair<E, std::string_view>, sizeof...(D)> all{std::pair<E, std::string_view>{D::value, D::name}...};
    // Insertion sort, stable: of equal values the first declared comes first.
    for (std::size_t i = 1; i < all.size(); ++i)
        for (std::size_t j = i; j > 0 && U(all[j].first) < U(all[j - 1].first); --j) std::swap(all[j], all[j - 1]);
    std::size_t unique = 0;
    for (std::size_t i = 0; i != all.size(); ++i)
        if (unique == 0 || all[unique - 1].first != all[i].first) all[unique++] = all[i];
    return std::pair{all, unique};
}

template <class E>
struct enum_table {
    static constexpr const auto& scan = enum_scan<E>;
    static constexpr std::size_t count = scan.count;
    static constexpr auto text = [] {
        std::array<char, scan.total_size + 1> chars{};
        std::size_t at = 0;
        for (std::size_t i = 0; i != count; ++i)
            for (char c : scan.names[i]) chars[at++] = c;
        return chars;
    }();
    // Two arrays rather than one of std::pair<E, std::string_view>: a pair type per enum costs
    // about as much to compile as the rest of its table.
    static constexpr auto values = [] {
        std::array<E, count> out{};
        for (std::size_t i = 0; i != count; ++i) out[i] = static_cast<E>(scan_min<E>() + (long long)scan.offsets[i]);
        return out;
    }();
    static constexpr auto names = [] {
        std::array<std::string_view, count> out{};
        std::size_t offset = 0;
        for (std::size_t i = 0; i != count; ++i) {
            const std::size_t size = scan.names[i].size();
            out[i] = std::string_view(text.data() + offset, size);
            offset += size;
        }
        return out;
    }();
};

template <described_enum E>
struct enum_table<E> {
    static constexpr auto sorted = described_entries<E>(static_cast<boost::describe::describe_enumerators<E>*>(nullptr));
    static constexpr std::size_t count = sorted.second;
    static constexpr auto values = [] {
        std::array<E, count> out{};
        for (std::size_t i = 0; i != count; ++i) out[i] = sorted.first[i].first;
        return out;
    }();
    static constexpr auto names = [] {
        std::array<std::string_view, count> out{};
        for (std::size_t i = 0; i != count; ++i) out[i] = sorted.first[i].second;
        return out;
    }();
};

} // namespace detail

template <class E>
concept enumeration = std::is_enum_v<E>;

/// Number of enumerators seen in enum_range<E>.
template <enumeration E>
inline constexpr std::size_t enum_count = detail::enum_table<E>::count;

/// The values of the enumerators seen, in ascending order.
template <enumeration E>
inline constexpr const auto& enum_values = detail::enum_table<E>::values;

/// The names of the enumerators seen, in the order of enum_values<E>.
template <enumeration E>
inline constexpr const auto& enum_names = detail::enum_table<E>::names;

/// (value, name) of every enumerator seen, in ascending order of value.
template <enumeration E>
inline constexpr auto enum_entries = [] {
    std::array<std::pair<E, std::string_view>, enum_count<E>> out{};
    for (std::size_t i = 0; i != out.size(); ++i) out[i] = {enum_values<E>[i], enum_names<E>[i]};
    return out;
}();

/// The name of `value`, or an empty view when it has none.
template <enumeration E>
constexpr std::string_view enum_name(E value) noexcept {
    for (std::size_t i = 0; i != enum_count<E>; ++i)
        if (enum_values<E>[i] == value) return enum_names<E>[i];
    return {};
}

} // namespace agentry::reflect

#endif
