// SPDX-License-Identifier: BSL-1.0
// registry::call against nlohmann::json, a JSON parser independent of agentry's. Byte 0 picks
// one of eight tools (`& 7`) and, with bit 3, the registry with tight limits (max_size 256,
// max_depth 3, null_as_absent); the rest is the arguments text.
//
// nlohmann's SAX parser reads the text into a tree that keeps what agentry's rules need beyond
// nlohmann's own value (each floating-point number's text, repeated keys, the depth). From that
// tree the harness works out, with its own reading of the documented rules (calling.md), what
// the tool must receive: the value, or a rejection. Then:
//   - agentry calls the tool only with text that nlohmann parses as JSON, and then with exactly
//     the value worked out from nlohmann's reading, field by field (operator==);
//   - text whose value nlohmann's reading admits is never rejected, except where agentry is
//     documented to be stricter (below);
//   - text nlohmann parses, within the limits, never gets a syntax, too_deep or too_large error.
//
// The allowed disagreements, each one direction only (agentry rejects, nlohmann accepts):
//   - a repeated key (nlohmann keeps the last; agentry rejects the object);
//   - text longer than max_size, or arrays and objects nested deeper than max_depth;
//   - a leading UTF-8 byte order mark (nlohmann skips it; RFC 8259 lets a parser refuse it);
//   - a NUL byte: nlohmann's lexer takes it for the end of the input, so `{"a":1}<NUL>junk` is
//     JSON to nlohmann; a raw NUL is never valid JSON (not even inside a string);
//   - a number nlohmann reads as +-inf (beyond double), and one that rounds to exactly
//     +-DBL_MAX (or +-FLT_MAX for a float) but is beyond its shortest text: agentry compares
//     the exact decimal with the limit the schema states; nlohmann rounds;
//   - the schema's own rules (types, ranges, enums, lengths, required and unknown members,
//     null for an optional member), which the expected value already encodes.
// Bounds are decided as calling.md and the reader say: the doubles when they differ, the exact
// decimal value when they are equal; a value above an exclusive minimum that rounds onto it is
// given as the next double up. Invalid UTF-8 and unpaired surrogate escapes are refused by both. The sign of a zero is not
// compared (nlohmann reads "-0" as the integer 0; agentry's double is -0.0).

#include "fuzz_common.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace {

// ---- the tools' parameter types ------------------------------------------------------------

enum class unit { celsius, fahrenheit };

struct point {
    double x;
    double y;
    friend bool operator==(const point&, const point&) = default;
};

struct integers {
    std::int8_t small;
    std::uint16_t port;
    std::int64_t big;
    std::uint64_t huge;
    agentry::in_range<int, -100, 100> percent;
    friend bool operator==(const integers&, const integers&) = default;
};

struct reals {
    double x;
    float ratio;
    agentry::constrained<double, agentry::minimum<"-90">, agentry::maximum<"90">> latitude;
    std::optional<agentry::constrained<double, agentry::exclusive_minimum<0>>> weight;
    friend bool operator==(const reals&, const reals&) = default;
};

struct texts {
    std::string text;
    agentry::sized_string<1, 8> code;
    std::optional<std::string> note;
    friend bool operator==(const texts&, const texts&) = default;
};

struct choices {
    unit u;
    bool flag;
    std::optional<unit> fallback;
    std::optional<int> count = 7;
    friend bool operator==(const choices&, const choices&) = default;
};

struct lists {
    std::vector<std::int32_t> numbers;
    std::vector<std::string> words;
    std::optional<std::vector<point>> points;
    friend bool operator==(const lists&, const lists&) = default;
};

struct route {
    std::vector<point> stops;
    std::optional<unit> u;
    friend bool operator==(const route&, const route&) = default;
};

struct nested {
    std::string name;
    point at;
    route way;
    friend bool operator==(const nested&, const nested&) = default;
};

struct variants {
    std::variant<std::int64_t, double, std::string, point> value;
    std::variant<std::monostate, bool, std::vector<int>> extra;
    friend bool operator==(const variants&, const variants&) = default;
};

// The parameters of the three-argument function `forecast`.
struct forecast_args {
    std::string city;
    std::optional<unit> u;
    std::uint8_t days;
    friend bool operator==(const forecast_args&, const forecast_args&) = default;
};

// What the last tool call received.
template <class T>
std::optional<T>& received() {
    static std::optional<T> value;
    return value;
}

template <class T>
void keep(const T& value) {
    received<T>() = value;
}

void forecast(std::string city, std::optional<unit> u, std::uint8_t days) {
    received<forecast_args>() = forecast_args{std::move(city), u, days};
}

constexpr agentry::registry tools{
    agentry::tool<"integers", "Integers of several widths and a range.">(&keep<integers>),
    agentry::tool<"reals", "Doubles, a float, bounds.">(&keep<reals>),
    agentry::tool<"texts", "Strings, one of 1 to 8 code points.">(&keep<texts>),
    agentry::tool<"choices", "An enum, a bool and optionals.">(&keep<choices>),
    agentry::tool<"lists", "Vectors.">(&keep<lists>),
    agentry::tool<"nested", "Nested structs.">(&keep<nested>),
    agentry::tool<"variants", "Two variants.">(&keep<variants>),
    agentry::tool<"forecast", "Three parameters.", "city", "unit", "days">(&forecast),
};

using registry_t = std::remove_cvref_t<decltype(tools)>;

struct limits {
    std::size_t max_size;
    std::size_t max_depth;
};

agentry::call_options tight_options() {
    agentry::call_options o;
    o.arguments.max_size = 256;
    o.arguments.max_depth = 3;
    o.arguments.null_as_absent = true;
    return o;
}

// ---- nlohmann's reading, as a tree -----------------------------------------------------------

struct node {
    enum kind_t { null, boolean, integer, unsigned_integer, floating, string, array, object } kind = null;
    bool flag = false;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0;
    /// A string's decoded text, or a floating-point number's text as written.
    std::string text;
    std::vector<node> items;
    std::vector<std::string> keys;
    bool repeated_key = false;
};

class tree_builder : public nlohmann::json_sax<nlohmann::json> {
public:
    node root;
    std::size_t depth = 0;

    bool null() override { return add(node{}); }
    bool boolean(bool v) override {
        node n;
        n.kind = node::boolean;
        n.flag = v;
        return add(std::move(n));
    }
    bool number_integer(number_integer_t v) override {
        node n;
        n.kind = node::integer;
        n.i = v;
        return add(std::move(n));
    }
    bool number_unsigned(number_unsigned_t v) override {
        node n;
        n.kind = node::unsigned_integer;
        n.u = v;
        return add(std::move(n));
    }
    bool number_float(number_float_t v, const string_t& text) override {
        node n;
        n.kind = node::floating;
        n.d = v;
        n.text = text;
        return add(std::move(n));
    }
    bool string(string_t& v) override {
        node n;
        n.kind = node::string;
        n.text = v;
        return add(std::move(n));
    }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return open(node::object); }
    bool key(string_t& k) override {
        node& o = *open_.back();
        for (const auto& existing : o.keys)
            if (existing == k) o.repeated_key = true;
        o.keys.push_back(k);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(node::array); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    // Where a value goes: the root, or the innermost open array or object (which alone changes
    // while it is open, so the pointers to the open ones stay valid).
    node* place(node n) {
        if (open_.empty()) {
            root = std::move(n);
            return &root;
        }
        node& parent = *open_.back();
        parent.items.push_back(std::move(n));
        return &parent.items.back();
    }
    bool add(node n) {
        place(std::move(n));
        return true;
    }
    bool open(node::kind_t kind) {
        node n;
        n.kind = kind;
        open_.push_back(place(std::move(n)));
        depth = std::max(depth, open_.size());
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }
    std::vector<node*> open_;
};

std::optional<node> nlohmann_read(std::string_view text, std::size_t& depth) {
    tree_builder builder;
    bool ok = false;
    try {
        ok = nlohmann::json::sax_parse(text.begin(), text.end(), &builder, nlohmann::json::input_format_t::json, true,
                                       false);
    } catch (const std::exception&) {
        ok = false;
    }
    if (!ok) return std::nullopt;
    depth = builder.depth;
    return std::move(builder.root);
}

// ---- the value the rules give ---------------------------------------------------------------

// accept: this value; reject: an error; may_reject: this value, or an allowed rejection.
enum class verdict { accept, may_reject, reject };

verdict both(verdict a, verdict b) { return a > b ? a : b; }

// A number as an exact integer: sign and magnitude, when it has no fraction and fits 64 bits.
struct exact {
    bool integral = false;
    bool fits = false;
    bool negative = false;
    std::uint64_t magnitude = 0;
};

exact exact_of(const node& n) {
    exact e;
    if (n.kind == node::integer) {
        e.integral = e.fits = true;
        e.negative = n.i < 0;
        e.magnitude = n.i < 0 ? std::uint64_t(0) - std::uint64_t(n.i) : std::uint64_t(n.i);
        return e;
    }
    if (n.kind == node::unsigned_integer) {
        e.integral = e.fits = true;
        e.magnitude = n.u;
        return e;
    }
    // The text: -?digits(.digits)?([eE][+-]?digits)?
    const std::string_view t = n.text;
    std::size_t i = 0;
    e.negative = i < t.size() && t[i] == '-';
    if (e.negative) ++i;
    std::string digits;
    long long before_point = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++before_point) digits += t[i];
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) digits += t[i];
    long long exponent = 0;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool minus = false;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) minus = t[i++] == '-';
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
            exponent = std::min(exponent * 10 + (t[i] - '0'), 100000000LL);
        if (minus) exponent = -exponent;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {  // zero
        e.integral = e.fits = true;
        e.negative = false;
        return e;
    }
    const long long point = before_point + exponent;  // the digits before the decimal point
    if ((long long)digits.find_last_not_of('0') >= point) return e;  // a non-zero digit after it
    e.integral = true;
    if (point - (long long)first > 20) return e;
    std::uint64_t v = 0;
    for (long long k = (long long)first; k < point; ++k) {
        const unsigned d = k < (long long)digits.size() ? unsigned(digits[std::size_t(k)] - '0') : 0u;
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return e;
        v = v * 10 + d;
    }
    e.fits = true;
    e.magnitude = v;
    if (v == 0) e.negative = false;
    return e;
}

template <class T>
verdict expect_integer(const node& n, T& out) {
    if (n.kind != node::integer && n.kind != node::unsigned_integer && n.kind != node::floating) return verdict::reject;
    const exact e = exact_of(n);
    if (!e.integral || !e.fits) return verdict::reject;
    if (n.kind == node::integer) FUZZ_CHECK(e.negative == (n.i < 0), n.text);
    if (e.negative) {
        if constexpr (std::is_unsigned_v<T>) {
            return verdict::reject;
        } else {
            const std::uint64_t limit = std::uint64_t(0) - std::uint64_t(std::int64_t(std::numeric_limits<T>::min()));
            if (e.magnitude > limit) return verdict::reject;
            out = T(std::int64_t(std::uint64_t(0) - e.magnitude));
        }
    } else {
        if (e.magnitude > std::uint64_t(std::numeric_limits<T>::max())) return verdict::reject;
        out = T(e.magnitude);
    }
    return verdict::accept;
}

template <class T>
verdict expect_floating(const node& n, T& out, double& as_read) {
    double d = 0;
    if (n.kind == node::integer) d = double(n.i);
    else if (n.kind == node::unsigned_integer) d = double(n.u);
    else if (n.kind == node::floating) d = n.d;
    else return verdict::reject;
    as_read = d;
    constexpr double top = std::numeric_limits<T>::max();
    if (std::isnan(d) || std::fabs(d) > top) return verdict::reject;
    out = T(d);
    return std::fabs(d) == top ? verdict::may_reject : verdict::accept;
}

verdict expect(const node& n, bool& out) {
    if (n.kind != node::boolean) return verdict::reject;
    out = n.flag;
    return verdict::accept;
}

template <class T>
    requires std::is_integral_v<T>
verdict expect(const node& n, T& out) {
    return expect_integer(n, out);
}

template <class T>
    requires std::is_floating_point_v<T>
verdict expect(const node& n, T& out) {
    double ignored = 0;
    return expect_floating(n, out, ignored);
}

verdict expect(const node& n, std::string& out) {
    if (n.kind != node::string) return verdict::reject;
    out = n.text;
    return verdict::accept;
}

verdict expect(const node& n, unit& out) {
    if (n.kind != node::string) return verdict::reject;
    if (n.text == "celsius") out = unit::celsius;
    else if (n.text == "fahrenheit") out = unit::fahrenheit;
    else return verdict::reject;
    return verdict::accept;
}

verdict expect(const node& n, std::monostate&) { return n.kind == node::null ? verdict::accept : verdict::reject; }

verdict expect(const node& n, point& out);

template <class T>
verdict expect(const node& n, std::vector<T>& out) {
    if (n.kind != node::array) return verdict::reject;
    out.assign(n.items.size(), T{});
    verdict v = verdict::accept;
    for (std::size_t i = 0; i != n.items.size(); ++i) v = both(v, expect(n.items[i], out[i]));
    return v;
}

// The first alternative that reads is taken.
template <class... A>
verdict expect(const node& n, std::variant<A...>& out) {
    verdict found = verdict::reject;
    const auto attempt = [&]<class Alt>(Alt*) {
        if (found != verdict::reject) return;
        Alt value{};
        const verdict v = expect(n, value);
        if (v == verdict::reject) return;
        out = std::move(value);
        found = v;
    };
    (attempt(static_cast<A*>(nullptr)), ...);
    return found;
}

// in_range<int, -100, 100>
verdict expect(const node& n, agentry::in_range<int, -100, 100>& out) {
    const verdict v = expect_integer(n, out.value);
    return v != verdict::reject && out.value >= -100 && out.value <= 100 ? v : verdict::reject;
}

// The sign of (the number n denotes) - b, exactly: integers as nlohmann read them, other
// numbers from their text (digits compared after normalising the decimal point).
int exact_order(const node& n, long long b) {
    if (n.kind == node::integer) return n.i < b ? -1 : (n.i > b ? 1 : 0);
    if (n.kind == node::unsigned_integer) return b < 0 || n.u > (unsigned long long)b ? 1 : (n.u < (unsigned long long)b ? -1 : 0);
    // sign, significant digits and the position of the decimal point, for text and bound
    struct decimal {
        bool negative = false;
        std::string digits;    // without leading or trailing zeros; empty for zero
        long long point = 0;   // digits before the decimal point
    };
    const auto of_text = [](std::string_view t) {
        decimal d;
        std::size_t i = 0;
        d.negative = i < t.size() && t[i] == '-';
        if (d.negative) ++i;
        std::string all;
        long long before = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++before) all += t[i];
        if (i < t.size() && t[i] == '.')
            for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) all += t[i];
        long long exponent = 0;
        if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
            ++i;
            bool minus = false;
            if (i < t.size() && (t[i] == '+' || t[i] == '-')) minus = t[i++] == '-';
            for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
                exponent = std::min(exponent * 10 + (t[i] - '0'), 100000000LL);
            if (minus) exponent = -exponent;
        }
        const std::size_t first = all.find_first_not_of('0');
        if (first == std::string::npos) return decimal{};
        const std::size_t last = all.find_last_not_of('0');
        d.digits = all.substr(first, last - first + 1);
        d.point = before + exponent - (long long)first;
        return d;
    };
    const decimal x = of_text(n.text);
    const decimal y = of_text(std::to_string(b));
    const int sx = x.digits.empty() ? 0 : (x.negative ? -1 : 1);
    const int sy = y.digits.empty() ? 0 : (y.negative ? -1 : 1);
    if (sx != sy || sx == 0) return sx < sy ? -1 : (sx > sy ? 1 : 0);
    int magnitude = x.point != y.point ? (x.point < y.point ? -1 : 1) : x.digits.compare(y.digits);
    magnitude = magnitude < 0 ? -1 : (magnitude > 0 ? 1 : 0);
    return sx * magnitude;
}

// The order of a double against an integer bound: the doubles when they differ (rounding
// keeps order), the exact value when they are equal.
int order_against(const node& n, double d, long long bound) {
    if (d != double(bound)) return d < double(bound) ? -1 : 1;
    return exact_order(n, bound);
}

// latitude: [-90, 90].
verdict expect(const node& n, agentry::constrained<double, agentry::minimum<"-90">, agentry::maximum<"90">>& out) {
    double d = 0;
    const verdict v = expect_floating(n, out.value, d);
    return v != verdict::reject && order_against(n, d, -90) >= 0 && order_against(n, d, 90) <= 0 ? v : verdict::reject;
}

// weight: above 0; a value above 0 that rounds to 0 is given as the least double above it.
verdict expect(const node& n, agentry::constrained<double, agentry::exclusive_minimum<0>>& out) {
    double d = 0;
    const verdict v = expect_floating(n, out.value, d);
    if (v == verdict::reject || order_against(n, d, 0) <= 0) return verdict::reject;
    if (out.value <= 0) out.value = std::nextafter(0.0, 1.0);
    return v;
}

// code: 1 to 8 code points.
verdict expect(const node& n, agentry::sized_string<1, 8>& out) {
    const verdict v = expect(n, out.value);
    const std::size_t length = fuzz::code_point_count(out.value);
    return v != verdict::reject && length >= 1 && length <= 8 ? v : verdict::reject;
}

// An object's members: each named member once, no other member, required ones present.
class object_rules {
public:
    explicit object_rules(const node& n) : n_(n), used_(n.keys.size(), false) {
        if (n.kind != node::object || n.repeated_key) v_ = verdict::reject;
    }

    template <class F>
    object_rules& required(std::string_view name, F& out) {
        if (v_ == verdict::reject) return *this;
        const node* item = find(name);
        v_ = item ? both(v_, expect(*item, out)) : verdict::reject;
        return *this;
    }

    template <class F>
    object_rules& optional(std::string_view name, std::optional<F>& out) {
        if (v_ == verdict::reject) return *this;
        const node* item = find(name);
        if (!item) return *this;
        if (item->kind == node::null) return *this;  // registry::call reads null for an optional as absent
        F value = out.value_or(F{});
        v_ = both(v_, expect(*item, value));
        out = std::move(value);
        return *this;
    }

    verdict done() const {
        for (bool used : used_)
            if (!used) return verdict::reject;  // an unknown member
        return v_;
    }

private:
    const node* find(std::string_view name) {
        for (std::size_t i = 0; i != n_.keys.size(); ++i)
            if (n_.keys[i] == name) {
                used_[i] = true;
                return &n_.items[i];
            }
        return nullptr;
    }

    const node& n_;
    std::vector<bool> used_;
    verdict v_ = verdict::accept;
};

verdict expect(const node& n, point& out) { return object_rules(n).required("x", out.x).required("y", out.y).done(); }

verdict expect(const node& n, integers& out) {
    return object_rules(n)
        .required("small", out.small)
        .required("port", out.port)
        .required("big", out.big)
        .required("huge", out.huge)
        .required("percent", out.percent)
        .done();
}

verdict expect(const node& n, reals& out) {
    return object_rules(n)
        .required("x", out.x)
        .required("ratio", out.ratio)
        .required("latitude", out.latitude)
        .optional("weight", out.weight)
        .done();
}

verdict expect(const node& n, texts& out) {
    return object_rules(n).required("text", out.text).required("code", out.code).optional("note", out.note).done();
}

verdict expect(const node& n, choices& out) {
    return object_rules(n)
        .required("u", out.u)
        .required("flag", out.flag)
        .optional("fallback", out.fallback)
        .optional("count", out.count)
        .done();
}

verdict expect(const node& n, lists& out) {
    return object_rules(n)
        .required("numbers", out.numbers)
        .required("words", out.words)
        .optional("points", out.points)
        .done();
}

verdict expect(const node& n, route& out) {
    return object_rules(n).required("stops", out.stops).optional("u", out.u).done();
}

verdict expect(const node& n, nested& out) {
    return object_rules(n).required("name", out.name).required("at", out.at).required("way", out.way).done();
}

verdict expect(const node& n, variants& out) {
    // A variant with std::monostate admits null itself: null is read as it, never as absent.
    return object_rules(n).required("value", out.value).required("extra", out.extra).done();
}

verdict expect(const node& n, forecast_args& out) {
    return object_rules(n).required("city", out.city).optional("unit", out.u).required("days", out.days).done();
}

template <class T>
std::string written(const T& value) {
    std::string out;
    agentry::json::write(out, value);
    return out;
}

bool starts_with_bom(std::string_view s) { return s.starts_with("\xEF\xBB\xBF"); }

// Text nlohmann reads only in part: up to its first NUL byte.
bool has_nul(std::string_view s) { return s.find('\0') != std::string_view::npos; }

template <class T>
void check(const registry_t& reg, std::string_view name, std::string_view args, const limits& lim) {
    received<T>().reset();
    const agentry::tool_result r = reg.call(name, args);
    FUZZ_CHECK(r.status == agentry::tool_status::ok || r.status == agentry::tool_status::invalid_arguments, r.content);

    std::size_t depth = 0;
    const std::optional<node> doc = nlohmann_read(args, depth);
    verdict v = verdict::reject;
    T expected{};
    if (doc && args.size() <= lim.max_size && depth <= lim.max_depth && !has_nul(args)) {
        v = expect(*doc, expected);
        if (starts_with_bom(args)) v = both(v, verdict::may_reject);
    }

    const std::string context = std::string(name) + " " + std::string(args) + " -> " + r.content;
    if (r.status == agentry::tool_status::ok) {
        FUZZ_CHECK(doc.has_value() && !has_nul(args), "agentry accepted text nlohmann rejects: " + context);
        FUZZ_CHECK(v != verdict::reject, "agentry accepted arguments the rules reject: " + context);
        FUZZ_CHECK(received<T>().has_value(), context);
        FUZZ_CHECK(*received<T>() == expected,
                   context + "\n  agentry read: " + written(*received<T>()) + "\n  nlohmann read: " + written(expected));
    } else {
        FUZZ_CHECK(!received<T>().has_value(), context);
        FUZZ_CHECK(v != verdict::accept, "agentry rejected arguments nlohmann reads as valid: " + context);
    }
    // Text nlohmann parses, within the limits, is JSON to agentry too.
    if (doc && args.size() <= lim.max_size && depth <= lim.max_depth && !starts_with_bom(args) && !has_nul(args))
        FUZZ_CHECK(!fuzz::has_syntax_error(r), "a syntax error on JSON: " + context);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const registry_t tight = tools.with_options(tight_options());
    if (size == 0) return 0;
    const std::string_view args = fuzz::as_text(data + 1, size - 1);
    const bool use_tight = (data[0] & 8) != 0;
    const registry_t& reg = use_tight ? tight : tools;
    const limits lim = use_tight ? limits{256, 3} : limits{std::size_t(1) << 20, 64};
    switch (data[0] & 7) {
    case 0: check<integers>(reg, "integers", args, lim); break;
    case 1: check<reals>(reg, "reals", args, lim); break;
    case 2: check<texts>(reg, "texts", args, lim); break;
    case 3: check<choices>(reg, "choices", args, lim); break;
    case 4: check<lists>(reg, "lists", args, lim); break;
    case 5: check<nested>(reg, "nested", args, lim); break;
    case 6: check<variants>(reg, "variants", args, lim); break;
    default: check<forecast_args>(reg, "forecast", args, lim); break;
    }
    return 0;
}
