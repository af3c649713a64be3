// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/writer.hpp>

#include <doctest/doctest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

using agentry::json::to_json;
using agentry::json::write;
using agentry::json::write_options;

namespace {

enum class color { red, green, blue };
enum class sparse : int { low = -40, mid = 7, high = 90 };
enum plain_enum : unsigned char { zero, one, two };
enum class wide_enum : long long { far = 100000 };

} // namespace

template <>
struct agentry::enum_range<wide_enum> {
    static constexpr long long min = 99990;
    static constexpr long long max = 100010;
};

namespace {

struct point {
    int x;
    int y;
};

struct empty_struct {};

struct shape {
    std::string name;
    std::vector<point> corners;
    color fill;
    std::optional<double> opacity;
    std::optional<std::string> label;
    agentry::in_range<int, 1, 10> layer;
};

struct tree {
    std::string label;
    std::vector<tree> children;
};

struct with_variant {
    std::variant<std::monostate, int, std::string> value;
};

struct with_raw {
    int id;
    agentry::raw_json data;
};

struct holder {
    const int fixed;
    std::map<std::string, std::vector<int>> groups;
};

std::string marker(std::size_t cap) {
    return std::string(agentry::json::truncation_marker) + std::to_string(cap) +
           std::string(agentry::json::truncation_marker_end);
}

// Whether `text` is well-formed UTF-8 (RFC 3629: no overlongs, surrogates or values above U+10FFFF).
bool valid_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = p[i];
        std::size_t len;
        std::uint32_t cp;
        if (c < 0x80) len = 1, cp = c;
        else if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07;
        else return false;
        if (i + len > n) return false;
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const std::uint32_t min = len == 1 ? 0 : len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

std::string quoted(std::string_view inner) { return "\"" + std::string(inner) + "\""; }

const std::string fffd = "\xEF\xBF\xBD";

} // namespace

TEST_CASE("writer: an empty string_view without data (its pointer null) is an empty string") {
    std::string out;
    agentry::json::write(out, std::string_view{});
    CHECK(out == "\"\"");
}

TEST_CASE("writer: booleans") {
    CHECK(to_json(true) == "true");
    CHECK(to_json(false) == "false");
}

TEST_CASE("writer: integer extremes") {
    CHECK(to_json(0) == "0");
    CHECK(to_json(-1) == "-1");
    CHECK(to_json(std::numeric_limits<std::int8_t>::min()) == "-128");
    CHECK(to_json(std::numeric_limits<std::int8_t>::max()) == "127");
    CHECK(to_json(std::numeric_limits<std::uint8_t>::max()) == "255");
    CHECK(to_json(std::numeric_limits<std::int16_t>::min()) == "-32768");
    CHECK(to_json(std::numeric_limits<std::uint16_t>::max()) == "65535");
    CHECK(to_json(std::numeric_limits<std::int32_t>::min()) == "-2147483648");
    CHECK(to_json(std::numeric_limits<std::int32_t>::max()) == "2147483647");
    CHECK(to_json(std::numeric_limits<std::uint32_t>::max()) == "4294967295");
    CHECK(to_json(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
    CHECK(to_json(std::numeric_limits<std::int64_t>::max()) == "9223372036854775807");
    CHECK(to_json(std::numeric_limits<std::uint64_t>::max()) == "18446744073709551615");
    CHECK(to_json(static_cast<short>(-300)) == "-300");
    CHECK(to_json(42ul) == "42");
    CHECK(to_json(static_cast<signed char>(-5)) == "-5");
}

TEST_CASE("writer: doubles use the shortest round-trip text") {
    CHECK(to_json(0.1) == "0.1");
    CHECK(to_json(1e300) == "1e+300");
    CHECK(to_json(-0.0) == "-0");
    CHECK(to_json(0.0) == "0");
    CHECK(to_json(5e-324) == "5e-324");
    CHECK(to_json(1.0) == "1");
    CHECK(to_json(1.5) == "1.5");
    CHECK(to_json(-2.25) == "-2.25");
    CHECK(to_json(123456.0) == "123456");
    CHECK(to_json(0.1 + 0.2) == "0.30000000000000004");
    CHECK(to_json(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
    CHECK(to_json(std::numeric_limits<double>::quiet_NaN()) == "null");
    CHECK(to_json(-std::numeric_limits<double>::quiet_NaN()) == "null");
    CHECK(to_json(std::numeric_limits<double>::infinity()) == "null");
    CHECK(to_json(-std::numeric_limits<double>::infinity()) == "null");
    CHECK(to_json(0.1f) == "0.1");
    CHECK(to_json(16777216.0f) == "16777216");
    CHECK(to_json(std::numeric_limits<float>::quiet_NaN()) == "null");

    // Every finite double reads back to itself.
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i != 20000; ++i) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        double d;
        std::memcpy(&d, &state, sizeof d);
        const std::string text = to_json(d);
        if (!std::isfinite(d)) {
            CHECK(text == "null");
            continue;
        }
        const double back = std::strtod(text.c_str(), nullptr);
        REQUIRE(std::memcmp(&back, &d, sizeof d) == 0);
    }
}

// The text of a double is std::to_chars's, byte for byte, whichever way it is made (a short
// decimal n / 10^k is written without to_chars).
namespace {
std::string to_chars_text(double d) {
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, d);
    return std::string(buffer, r.ptr);
}
} // namespace

TEST_CASE("writer: doubles are written as std::to_chars writes them") {
    using agentry::json::detail::emit::exact_powers_of_ten;
    using agentry::json::detail::emit::short_decimal_text;
    using agentry::json::detail::emit::short_decimal_size;
    std::uint64_t state = 0x2545F4914F6CDD1Dull;
    const auto next = [&state] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    std::size_t mismatches = 0, short_decimals = 0;
    const auto check = [&](double d) {
        for (const double v : {d, -d}) {
            if (!std::isfinite(v)) continue;
            char scratch[short_decimal_size];
            short_decimals += short_decimal_text(scratch, v) != nullptr ? 1 : 0;
            if (to_json(v) != to_chars_text(v)) {
                if (++mismatches <= 10) FAIL_CHECK("mismatch for " << to_chars_text(v) << ": " << to_json(v));
            }
        }
    };
    // Short decimals n / 10^k of 1 to 17 digits, their neighbours, and n * 10^k.
    for (int i = 0; i != 200000; ++i) {
        const std::size_t k = next() % 23;
        std::uint64_t limit = 1;
        for (std::uint64_t digits = 1 + next() % 17; digits != 0; --digits) limit *= 10;
        const double n = static_cast<double>(next() % limit);
        const double d = n / exact_powers_of_ten[k];
        check(d);
        check(std::nextafter(d, 0.0));
        check(std::nextafter(d, 1e300));
        check(n * exact_powers_of_ten[k]);
    }
    // Random bit patterns, and magnitudes spread evenly from 1e-7 to 1e16.
    for (int i = 0; i != 200000; ++i) {
        const std::uint64_t bits = next();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        check(d);
        check(std::pow(10.0, -7.0 + 23.0 * static_cast<double>(next() >> 11) * 0x1p-53));
    }
    // Integers and near-integers around powers of two, multiples of powers of ten.
    for (int e = 0; e != 60; ++e)
        for (int delta = -300; delta <= 300; ++delta) {
            check(std::ldexp(1.0, e) + delta);
            check(std::ldexp(1.0, e) * (1.0 + delta * 1e-16));
        }
    for (int e = -30; e != 30; ++e) {
        const double p = std::pow(10.0, e);
        check(std::nextafter(p, 0.0));
        check(std::nextafter(p, 1e300));
        for (int m = 1; m != 100; ++m) check(m * p);
    }
    // Every decimal of up to 6 digits with up to 8 after the point.
    for (std::uint64_t n = 0; n != 1000000; ++n)
        for (std::size_t k = 0; k <= 8; k += 1 + (n % 3)) check(static_cast<double>(n) / exact_powers_of_ten[k]);
    for (const double d : {0.0, 1e-6, std::nextafter(1e-6, 0.0), 0x1p50, std::nextafter(0x1p50, 0.0), 0x1p49 + 0.5,
                           5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1187.4, 1362.75, 124.5, 1e15,
                           1e16, 1e5, 1e4, 1e-4, 1e-3, 1200000.0, 12000000.0})
        check(d);
    CHECK(mismatches == 0);
    CHECK(short_decimals > 1000000); // the short path is taken, not only the fallback
    char text[short_decimal_size];
    const char* end = short_decimal_text(text, 1187.4);
    REQUIRE(end != nullptr);
    CHECK(std::string_view(text, static_cast<std::size_t>(end - text)) == "1187.4");
    CHECK(short_decimal_text(text, 0.1 + 0.2) == nullptr);
    CHECK(short_decimal_text(text, 1e300) == nullptr);
}

TEST_CASE("writer: strings of every string type") {
    const std::string s = "hello";
    const std::string_view sv = "view";
    const char* cs = "pointer";
    const char* null_cs = nullptr;
    char buffer[8] = "buf";
    CHECK(to_json(s) == R"("hello")");
    CHECK(to_json(sv) == R"("view")");
    CHECK(to_json(cs) == R"("pointer")");
    CHECK(to_json(null_cs) == "null");
    CHECK(to_json("literal") == R"("literal")");
    CHECK(to_json(buffer) == R"("buf")");
    CHECK(to_json(std::string()) == R"("")");
    CHECK(to_json(std::string("a\0b", 3)) == R"("a\u0000b")");
    CHECK(to_json(std::vector<std::string_view>{"a", "b"}) == R"(["a","b"])");
    CHECK(to_json(std::vector<const char*>{"a", nullptr}) == R"(["a",null])");
}

TEST_CASE("writer: escaping of quotes, backslashes and all control characters") {
    CHECK(to_json(std::string_view("say \"hi\" \\ bye")) == R"("say \"hi\" \\ bye")");
    CHECK(to_json(std::string_view("a/b")) == R"("a/b")");
    const char* expected[32] = {
        R"(\u0000)", R"(\u0001)", R"(\u0002)", R"(\u0003)", R"(\u0004)", R"(\u0005)", R"(\u0006)", R"(\u0007)",
        R"(\b)",     R"(\t)",     R"(\n)",     R"(\u000b)", R"(\f)",     R"(\r)",     R"(\u000e)", R"(\u000f)",
        R"(\u0010)", R"(\u0011)", R"(\u0012)", R"(\u0013)", R"(\u0014)", R"(\u0015)", R"(\u0016)", R"(\u0017)",
        R"(\u0018)", R"(\u0019)", R"(\u001a)", R"(\u001b)", R"(\u001c)", R"(\u001d)", R"(\u001e)", R"(\u001f)",
    };
    std::string all;
    std::string all_expected;
    for (int c = 0; c != 32; ++c) {
        CHECK(to_json(std::string(1, char(c))) == ::quoted(expected[c]));
        all.push_back(char(c));
        all_expected += expected[c];
    }
    CHECK(to_json(all) == ::quoted(all_expected));
    // DEL and the line and paragraph separators are valid in JSON strings: copied as is.
    CHECK(to_json(std::string_view("\x7F")) == "\"\x7F\"");
    CHECK(to_json(std::string_view("a\u2028b\u2029c")) == "\"a\u2028b\u2029c\"");

    // Every special byte at every position and alignment, in runs long enough for the
    // eight-byte fast path.
    const std::pair<char, std::string_view> specials[] = {{'"', R"(\")"}, {'\\', R"(\\)"}, {'\n', R"(\n)"},
                                                          {'\x01', R"(\u0001)"}, {'\x1f', R"(\u001f)"}};
    for (const auto& [c, escaped] : specials) {
        for (std::size_t length = 1; length != 40; ++length) {
            for (std::size_t at = 0; at != length; ++at) {
                std::string text(length, 'x');
                text[at] = c;
                const std::string want = ::quoted(std::string(at, 'x') + std::string(escaped) +
                                                std::string(length - at - 1, 'x'));
                REQUIRE(to_json(text) == want);
            }
        }
    }
}

TEST_CASE("writer: valid UTF-8 is copied as is") {
    const std::string text = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBF \xF4\x8F\xBF\xBF \xE0\xA0\x80 \xED\x9F\xBF";
    CHECK(to_json(text) == ::quoted(text));
    CHECK(to_json(std::string_view("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\"\xE6\x97\xA5")) ==
          "\"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\\\"\xE6\x97\xA5\"");
}

TEST_CASE("writer: invalid UTF-8 is replaced by U+FFFD") {
    const auto check = [](std::string_view input, std::string_view inner) {
        CAPTURE(input);
        CHECK(to_json(input) == ::quoted(inner));
    };
    check("\x80", fffd);                                            // lone continuation byte
    check("a\xBF" "b", "a" + fffd + "b");                           //
    check("\xC0\xAF", fffd + fffd);                                 // overlong '/' (C0 is never valid)
    check("\xC1\xBF", fffd + fffd);                                 //
    check("\xE0\x80\x80", fffd + fffd + fffd);                      // overlong three-byte form
    check("\xF0\x80\x80\x80", fffd + fffd + fffd + fffd);           // overlong four-byte form
    check("\xED\xA0\x80", fffd + fffd + fffd);                      // surrogate U+D800
    check("\xF4\x90\x80\x80", fffd + fffd + fffd + fffd);           // above U+10FFFF
    check("\xF5\x80", fffd + fffd);                                 //
    check("\xFE\xFF", fffd + fffd);                                 //
    check("\xE2\x82", fffd);                                        // truncated at the end: one maximal subpart
    check("\xE2\x82" "A", fffd + "A");                              // truncated before ASCII
    check("\xF0\x9F\x98", fffd);                                    //
    check("\xF0\x9F\x98\xE2\x82\xAC", fffd + "\xE2\x82\xAC");       // truncated, then a valid euro sign
    check("\xC3", fffd);                                            //
    check("\xC3\xA9\xC3", "\xC3\xA9" + fffd);                       //
    check("ok\xFF\n", "ok" + fffd + "\\n");                         // replacement next to an escape

    // Arbitrary bytes always give valid UTF-8 with no raw control characters.
    std::uint32_t state = 12345;
    for (int round = 0; round != 3000; ++round) {
        std::string bytes;
        const int length = round % 37;
        for (int i = 0; i != length; ++i) {
            state = state * 1664525u + 1013904223u;
            const unsigned r = state >> 24;
            // Bias towards bytes around UTF-8 lead and continuation ranges.
            bytes.push_back(char(r % 3 == 0 ? 0x80 + (r & 0x3F) : r % 3 == 1 ? 0xC0 + (r & 0x3F) : r));
        }
        const std::string json = to_json(bytes);
        REQUIRE(valid_utf8(json));
        for (const char c : json) REQUIRE(static_cast<unsigned char>(c) >= 0x20);
        REQUIRE(json.front() == '"');
        REQUIRE(json.back() == '"');
    }
}

TEST_CASE("writer: enums with and without names") {
    CHECK(to_json(color::red) == R"("red")");
    CHECK(to_json(color::blue) == R"("blue")");
    CHECK(to_json(static_cast<color>(7)) == "7");
    CHECK(to_json(static_cast<color>(-3)) == "-3");
    CHECK(to_json(sparse::low) == R"("low")");
    CHECK(to_json(sparse::mid) == R"("mid")");
    CHECK(to_json(sparse::high) == R"("high")");
    CHECK(to_json(static_cast<sparse>(8)) == "8");
    CHECK(to_json(static_cast<sparse>(-41)) == "-41");
    CHECK(to_json(two) == R"("two")");
    CHECK(to_json(static_cast<plain_enum>(200)) == "200");
    CHECK(to_json(wide_enum::far) == R"("far")");
    CHECK(to_json(static_cast<wide_enum>(-5)) == "-5");
    // The same names as reflect::enum_name, for every value around the named ones.
    for (int v = -200; v != 200; ++v) {
        const auto e = static_cast<sparse>(v);
        const std::string_view name = agentry::reflect::enum_name(e);
        CHECK(to_json(e) == (name.empty() ? std::to_string(v) : ::quoted(name)));
        const auto c = static_cast<color>(v);
        const std::string_view cname = agentry::reflect::enum_name(c);
        CHECK(to_json(c) == (cname.empty() ? std::to_string(v) : ::quoted(cname)));
    }
}

TEST_CASE("writer: optionals") {
    CHECK(to_json(std::optional<int>{}) == "null");
    CHECK(to_json(std::optional<int>{3}) == "3");
    CHECK(to_json(std::optional<std::string>{"x"}) == R"("x")");
    CHECK(to_json(std::vector<std::optional<bool>>{true, std::nullopt}) == "[true,null]");
}

TEST_CASE("writer: sequences") {
    CHECK(to_json(std::vector<int>{}) == "[]");
    CHECK(to_json(std::vector<int>{1, 2, 3}) == "[1,2,3]");
    CHECK(to_json(std::array<int, 3>{4, 5, 6}) == "[4,5,6]");
    CHECK(to_json(std::array<int, 0>{}) == "[]");
    CHECK(to_json(std::set<int>{3, 1, 2}) == "[1,2,3]");
    CHECK(to_json(std::set<std::string>{"b", "a"}) == R"(["a","b"])");
    CHECK(to_json(std::unordered_set<int>{9}) == "[9]");
    CHECK(to_json(std::deque<int>{1, 2}) == "[1,2]");
    CHECK(to_json(std::list<std::string>{"x", "y"}) == R"(["x","y"])");
    CHECK(to_json(std::vector<bool>{true, false, true}) == "[true,false,true]");
    CHECK(to_json(std::vector<std::vector<int>>{{1}, {}, {2, 3}}) == "[[1],[],[2,3]]");
    CHECK(to_json(std::vector<color>{color::green, color::red}) == R"(["green","red"])");
    CHECK(to_json(std::vector<double>{0.5, -0.0}) == "[0.5,-0]");
}

TEST_CASE("writer: maps and their keys") {
    CHECK(to_json(std::map<std::string, int>{}) == "{}");
    CHECK(to_json(std::map<std::string, int>{{"b", 2}, {"a", 1}}) == R"({"a":1,"b":2})");
    CHECK(to_json(std::unordered_map<std::string, bool>{{"only", true}}) == R"({"only":true})");
    CHECK(to_json(std::map<std::string, std::string>{{"quote\"back\\slash", "v"}, {"line\nfeed\x01", "w"}}) ==
          R"({"line\nfeed\u0001":"w","quote\"back\\slash":"v"})");
    CHECK(to_json(std::map<std::string, int>{{"bad\xFF", 1}}) == "{\"bad" + fffd + "\":1}");
    CHECK(to_json(std::map<std::string, std::vector<int>>{{"k", {1, 2}}}) == R"({"k":[1,2]})");
    CHECK(to_json(std::map<std::string, std::map<std::string, int>>{{"outer", {{"inner", 1}}}}) ==
          R"({"outer":{"inner":1}})");
}

TEST_CASE("writer: aggregates, nested, with optional members written as null") {
    CHECK(to_json(point{1, -2}) == R"({"x":1,"y":-2})");
    CHECK(to_json(empty_struct{}) == "{}");
    const shape full{"tri", {{0, 0}, {1, 0}, {0, 1}}, color::blue, 0.5, "T", 3};
    CHECK(to_json(full) ==
          R"({"name":"tri","corners":[{"x":0,"y":0},{"x":1,"y":0},{"x":0,"y":1}],"fill":"blue",)"
          R"("opacity":0.5,"label":"T","layer":3})");
    const shape bare{"dot", {}, static_cast<color>(9), std::nullopt, std::nullopt, 1};
    CHECK(to_json(bare) ==
          R"({"name":"dot","corners":[],"fill":9,"opacity":null,"label":null,"layer":1})");
    CHECK(to_json(std::vector<point>{{1, 2}}) == R"([{"x":1,"y":2}])");
    CHECK(to_json(std::optional<point>{}) == "null");
    CHECK(to_json(holder{7, {{"g", {1}}}}) == R"({"fixed":7,"groups":{"g":[1]}})");

    const tree t{"root", {{"a", {}}, {"b", {{"c", {}}}}}};
    CHECK(to_json(t) ==
          R"({"label":"root","children":[{"label":"a","children":[]},)"
          R"({"label":"b","children":[{"label":"c","children":[]}]}]})");
}

TEST_CASE("writer: variants") {
    using v = std::variant<std::monostate, int, std::string, point>;
    CHECK(to_json(v{}) == "null");
    CHECK(to_json(v{5}) == "5");
    CHECK(to_json(v{std::string("s")}) == R"("s")");
    CHECK(to_json(v{point{1, 2}}) == R"({"x":1,"y":2})");
    CHECK(to_json(std::variant<int, double>{2.5}) == "2.5");
    CHECK(to_json(with_variant{}) == R"({"value":null})");
    CHECK(to_json(with_variant{std::string("t")}) == R"({"value":"t"})");
    CHECK(to_json(std::vector<std::variant<bool, color>>{true, color::green}) == R"([true,"green"])");

    // A variant left valueless by an exception is written as null.
    struct throws_on_conversion {
        operator std::set<int>() const { throw 1; }
    };
    std::variant<int, std::set<int>> valueless = 1;
    try {
        valueless.emplace<std::set<int>>(throws_on_conversion{});
    } catch (int) {
    }
    REQUIRE(valueless.valueless_by_exception());
    CHECK(to_json(valueless) == "null");
}

TEST_CASE("writer: constrained values and raw_json") {
    CHECK(to_json(agentry::in_range<int, 1, 10>{5}) == "5");
    CHECK(to_json(agentry::sized_string<1, 8>{std::string("abc")}) == R"("abc")");
    CHECK(to_json(agentry::email_string{std::string("a@b.c")}) == R"("a@b.c")");
    CHECK(to_json(agentry::unique_vector<int>{std::vector<int>{1, 2}}) == "[1,2]");
    CHECK(to_json(agentry::raw_json{R"({"any":[1,2]})"}) == R"({"any":[1,2]})");
    CHECK(to_json(agentry::raw_json{}) == "null");
    CHECK(to_json(with_raw{1, agentry::raw_json{"[true]"}}) == R"({"id":1,"data":[true]})");
    CHECK(to_json(with_raw{2, {}}) == R"({"id":2,"data":null})");
}

TEST_CASE("writer: write appends and reports completeness") {
    std::string out = "result: ";
    CHECK(write(out, point{1, 2}));
    CHECK(out == R"(result: {"x":1,"y":2})");
    CHECK(write(out, std::string_view(" and more")));
    CHECK(out == R"(result: {"x":1,"y":2}" and more")");
}

TEST_CASE("writer: truncation of 10,000 strings at 1 KiB, on character boundaries") {
    std::vector<std::string> items;
    for (int i = 0; i != 10000; ++i)
        items.push_back("item " + std::to_string(i) + " caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
    const std::string complete = to_json(items, {0});
    REQUIRE(complete.size() > 100000);

    std::string out;
    CHECK_FALSE(write(out, items, {1024}));
    CHECK(out.size() <= 1024);
    const std::string end = marker(1024);
    REQUIRE(out.size() >= end.size());
    CHECK(out.compare(out.size() - end.size(), end.size(), end) == 0);
    CHECK(end == "\xE2\x80\xA6[truncated: the result exceeded the limit of 1024 bytes]");
    const std::string kept = out.substr(0, out.size() - end.size());
    CHECK(kept.size() >= 1024 - end.size() - 3);
    CHECK(valid_utf8(out));
    CHECK(complete.compare(0, kept.size(), kept) == 0);

    // Every cut offset, through one-, two-, three- and four-byte characters.
    for (std::size_t cap = 80; cap != 1200; ++cap) {
        CAPTURE(cap);
        std::string text;
        REQUIRE_FALSE(write(text, items, {cap}));
        const std::string m = marker(cap);
        REQUIRE(text.size() <= cap);
        REQUIRE(text.size() + 3 >= cap); // cut at most three bytes below the room left
        REQUIRE(text.compare(text.size() - m.size(), m.size(), m) == 0);
        const std::string_view before(text.data(), text.size() - m.size());
        REQUIRE(valid_utf8(before));
        REQUIRE(complete.compare(0, before.size(), before) == 0);
    }
}

TEST_CASE("writer: truncation limits") {
    const std::vector<int> numbers{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const std::string complete = to_json(numbers);
    CHECK(complete == "[1,2,3,4,5,6,7,8,9,10]");

    std::string out;
    CHECK(write(out, numbers, {complete.size()})); // exactly at the cap: complete
    CHECK(out == complete);
    out.clear();
    CHECK(write(out, numbers, {0})); // 0: no cap
    CHECK(out == complete);

    // A cap smaller than the marker: the marker alone.
    out.clear();
    CHECK_FALSE(write(out, numbers, {complete.size() - 1}));
    CHECK(out == marker(complete.size() - 1));

    // The cap counts only the bytes appended by the call.
    out = std::string(5000, 'p');
    const std::vector<std::string> many(1000, "abcdefgh");
    CHECK_FALSE(write(out, many, {200}));
    CHECK(out.size() <= 5000 + 200);
    CHECK(out.compare(0, 5000, std::string(5000, 'p')) == 0);
    CHECK(out.compare(5000, 10, R"(["abcdefgh)") == 0);
    CHECK(out.substr(out.size() - marker(200).size()) == marker(200));

    // No cap by default: the whole text.
    const std::vector<std::string> big(20000, "0123456789");
    const std::string whole = to_json(big);
    CHECK(whole.size() == 2 + 20000 * 13 - 1);
    CHECK(whole.find("[truncated") == std::string::npos);
    const std::string capped = to_json(big, {.max_size = 64 * 1024});
    CHECK(capped.size() <= 64 * 1024);
    CHECK(capped.size() > 64 * 1024 - 100);
    CHECK(capped.substr(capped.size() - marker(65536).size()) == marker(65536));

    // One long string, one long raw_json text: cut without being written in full first.
    const std::string long_text(10'000'000, 'z');
    const std::string one = to_json(long_text, {500});
    CHECK(one.size() <= 500);
    CHECK(one.compare(0, 5, "\"zzzz") == 0);
    CHECK(one.substr(one.size() - marker(500).size()) == marker(500));
    const std::string raw = to_json(agentry::raw_json{"[" + std::string(100000, '1') + "]"}, {300});
    CHECK(raw.size() <= 300);
    CHECK(raw.compare(0, 4, "[111") == 0);

    // Escapes and replacements near the cap.
    std::string controls(5000, '\n');
    const std::string escaped = to_json(controls, {1000});
    CHECK(escaped.size() <= 1000);
    CHECK(escaped.substr(escaped.size() - marker(1000).size()) == marker(1000));
    CHECK(to_json(controls, {0}).compare(0, 100, escaped, 0, 100) == 0);
    const std::string invalid(5000, '\xFF');
    const std::string replaced = to_json(invalid, {1000});
    CHECK(replaced.size() <= 1000);
    CHECK(valid_utf8(replaced));

    // Aggregates and maps stop at the cap too.
    std::map<std::string, shape> shapes;
    for (int i = 0; i != 2000; ++i) shapes["s" + std::to_string(i)] = shape{"n", {{1, 2}}, color::red, {}, {}, 2};
    const std::string objects = to_json(shapes, {700});
    CHECK(objects.size() <= 700);
    CHECK(to_json(shapes, {0}).compare(0, objects.size() - marker(700).size(), objects, 0,
                                       objects.size() - marker(700).size()) == 0);
}

namespace {
struct request_body {
    std::string model;
    std::optional<int> max_tokens;
    std::optional<bool> stream;
    std::vector<int> ids;
};
} // namespace

TEST_CASE("writer: empty optionals left out on request") {
    const request_body all{"m", 5, true, {1}};
    const request_body none{"m", std::nullopt, std::nullopt, {}};
    write_options omit;
    omit.omit_empty_optionals = true;
    std::string out;
    CHECK(write(out, none));
    CHECK(out == R"({"model":"m","max_tokens":null,"stream":null,"ids":[]})");
    out.clear();
    CHECK(write(out, none, omit));
    CHECK(out == R"({"model":"m","ids":[]})");
    out.clear();
    CHECK(write(out, all, omit));
    CHECK(out == R"({"model":"m","max_tokens":5,"stream":true,"ids":[1]})");
    struct only_optional {
        std::optional<int> a;
    };
    out.clear();
    CHECK(write(out, only_optional{}, omit));
    CHECK(out == "{}");
}

namespace {

struct receipt {
    std::int64_t ticket;
    int position;
    bool notified;
    double total;
};

} // namespace

TEST_CASE("write_reserved: replaces the text, reserves once, and cuts like write") {
    const receipt r{723456, 6, true, 1362.75};
    std::string out = "old text";
    CHECK(agentry::json::write_reserved(out, r));
    CHECK(out == to_json(r));
    CHECK(out == R"({"ticket":723456,"position":6,"notified":true,"total":1362.75})");
    // The reserve covers the keys and the widest numbers of the type: no growth while writing.
    std::string fresh;
    agentry::json::write_reserved(fresh, receipt{-9223372036854775807 - 1, -2147483647 - 1, false, -1.7976931348623157e308});
    CHECK(fresh.size() <= agentry::json::detail::emit::size_hint<receipt>());
    // A short result (an integer) fits in the string itself: nothing is reserved on the heap.
    std::string small;
    agentry::json::write_reserved(small, 42);
    CHECK(small == "42");
    CHECK(small.capacity() == std::string().capacity());
    // The cap: the same text as write gives.
    std::string capped, expected;
    CHECK(!agentry::json::write_reserved(capped, std::string(100, 'x'), {.max_size = 80}));
    CHECK(!write(expected, std::string(100, 'x'), {.max_size = 80}));
    CHECK(capped == expected);
    CHECK(capped.size() <= 80);
}
