// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/reader.hpp>

#include "../fixtures/fixtures.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>
#include <vector>
#include <string>
#include <string_view>
#include <variant>

using agentry::json::error_kind;
using agentry::json::read;
using agentry::json::read_options;

namespace {

template <class T>
std::string errors_of(std::string_view json, const read_options& options = {}) {
    const auto r = read<T>(json, options);
    std::string out;
    for (const auto& e : r.errors) {
        if (!out.empty()) out += " | ";
        out += e.to_string();
    }
    return out;
}

struct optional_bag {
    std::optional<int> n = 7;
    std::optional<std::string> s;
};

struct nested {
    std::vector<std::vector<int>> grid;
};

struct unique_points {
    struct point {
        int x;
        int y;
        bool operator==(const point&) const = default;
    };
    agentry::unique_vector<point> points;
};

// Member names whose keys (`"name":`) are 4, 7, 8, 16, 17 and 37 bytes long: each way the
// in-order path compares a key (four-byte words, eight-byte words, and a longer middle).
struct key_lengths {
    int a;
    int abcd;
    int abcde;
    std::optional<int> abcdefghijklm;
    std::string abcdefghijklmn;
    bool a_name_thirty_four_characters_long;
};

} // namespace

TEST_CASE("reader: members are matched by key whatever the length of their names") {
    const auto values = [](const key_lengths& v) {
        return std::to_string(v.a) + "," + std::to_string(v.abcd) + "," + std::to_string(v.abcde) + "," +
               (v.abcdefghijklm ? std::to_string(*v.abcdefghijklm) : "-") + "," + v.abcdefghijklmn + "," +
               (v.a_name_thirty_four_characters_long ? "t" : "f");
    };
    const std::string_view texts[] = {
        // In declaration order, compact: every key matched at the cursor.
        R"({"a":1,"abcd":2,"abcde":3,"abcdefghijklm":4,"abcdefghijklmn":"x","a_name_thirty_four_characters_long":true})",
        // Whitespace before the keys, and before and after the ':'.
        "{ \"a\" :1,\n\t\"abcd\":2, \"abcde\" : 3,\"abcdefghijklm\": 4 ,\"abcdefghijklmn\" :\"x\",\r\n"
        "\"a_name_thirty_four_characters_long\"\t:\ttrue }",
        // Out of order from the third member on; an escaped name.
        R"({"a":1,"abcd":2,"abcdefghijklmn":"x","abcde":3,"a_name_thirty_four_characters_long":true,"abcdefghijklm":4})",
        R"({"a":1,"abcd":2,"abcde":3,"abcdefghijklm":4,"abcdefghijklmn":"x","a_name_thirty_four_characters_long":true})",
    };
    for (const std::string_view text : texts) {
        CAPTURE(text);
        const auto r = read<key_lengths>(text);
        CHECK(r.errors.empty());
        CHECK(values(r.value) == "1,2,3,4,x,t");
    }
    // Prefixes of a name, a name with one byte more, and a name differing in its middle only.
    CHECK(errors_of<key_lengths>(
              R"({"a":1,"abc":2,"abcd":2,"abcde":3,"abcdefghijklmn":"x","a_name_thirty_four_characters_lonz":true})") ==
          "/abc: unknown property; did you mean \"abcd\"? | /a_name_thirty_four_characters_lonz: unknown property; "
          "did you mean \"a_name_thirty_four_characters_long\"? | /a_name_thirty_four_characters_long: missing "
          "required property");
    CHECK(errors_of<key_lengths>(
              R"({"a":1,"abcd":2,"abcde":3,"abcdefghijklmn":"x","a_name_thirtY_four_characters_long":true})") ==
          "/a_name_thirtY_four_characters_long: unknown property; did you mean "
          "\"a_name_thirty_four_characters_long\"? | /a_name_thirty_four_characters_long: missing required property");
    // A member read in order, then again out of order; the last member twice.
    CHECK(errors_of<key_lengths>(
              R"({"a":1,"abcd":2,"a":5,"abcde":3,"abcdefghijklmn":"x","a_name_thirty_four_characters_long":true})") ==
          "/a: duplicate property");
    CHECK(errors_of<key_lengths>(
              R"({"a":1,"abcd":2,"abcde":3,"abcdefghijklmn":"x","a_name_thirty_four_characters_long":true,)"
              R"("a_name_thirty_four_characters_long":false})") == "/a_name_thirty_four_characters_long: duplicate property");
    // The input ending inside a key, and an empty object.
    CHECK(errors_of<key_lengths>(R"({"a":1,"abc)") == "invalid JSON at byte 11: unexpected end of input");
    CHECK(errors_of<key_lengths>("{}") ==
          "/a: missing required property | /abcd: missing required property | /abcde: missing required property | "
          "/abcdefghijklmn: missing required property | /a_name_thirty_four_characters_long: missing required property");
}

TEST_CASE("reader: a valid object fills every field") {
    const auto r = read<fixtures::weather_query>(R"({"unit":"fahrenheit","city":"Paris"})");
    REQUIRE(r.ok());
    CHECK(r.value.city == "Paris");
    CHECK(r.value.unit == fixtures::temperature_unit::fahrenheit);
    CHECK(r.repairs.empty());
}

TEST_CASE("reader: absent optional members keep the struct's default") {
    const auto r = read<optional_bag>("{}");
    REQUIRE(r.ok());
    CHECK(r.value.n == 7);
    CHECK_FALSE(r.value.s.has_value());
}

TEST_CASE("reader: all JSON whitespace and every escape") {
    const auto r = read<fixtures::scalars>(
        " \t\r\n{ \"flag\" : true ,\"ratio\":0.5,\"amount\":-1.25e2,\n\"note\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}\n");
    REQUIRE(r.ok());
    CHECK(r.value.flag);
    CHECK(r.value.ratio == 0.5f);
    CHECK(r.value.amount == -125.0);
    CHECK(r.value.note == "a\"b\\c/d\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80");
}

TEST_CASE("reader: integers are exact, with their natural range checked") {
    auto r = read<fixtures::integers>(
        R"({"i8":-128,"u8":255,"i16":-32768,"u16":65535,"i32":-2147483648,"u32":4294967295,)"
        R"("i64":-9223372036854775808,"u64":18446744073709551615})");
    REQUIRE(r.ok());
    CHECK(r.value.i64 == std::numeric_limits<std::int64_t>::min());
    CHECK(r.value.u64 == std::numeric_limits<std::uint64_t>::max());
    CHECK(errors_of<fixtures::integers>(
              R"({"i8":128,"u8":-1,"i16":0,"u16":0,"i32":0,"u32":0,"i64":9223372036854775808,"u64":18446744073709551616})") ==
          "/i8: must be at most 127 | /u8: must be at least 0 | /i64: must be at most 9223372036854775807 | "
          "/u64: must be at most 18446744073709551615");
}

TEST_CASE("reader: integer-valued numbers are integers, fractions are not") {
    const auto r = read<std::int32_t>("1.0");
    REQUIRE(r.ok());
    CHECK(r.value == 1);
    CHECK(read<std::int32_t>("1e2").value == 100);
    CHECK(errors_of<std::int32_t>("1.5") == "expected an integer, got 1.5");
    CHECK(errors_of<std::int32_t>("\"1\"") == "expected an integer, got a string \"1\"");
    CHECK(read<std::uint8_t>("-0").ok());
    CHECK(errors_of<std::int8_t>("-129") == "must be at least -128");
    CHECK(errors_of<std::int8_t>("-696.0") == "must be at least -128");
    CHECK(read<std::int8_t>("-128.0").value == -128);
    CHECK(read<std::int64_t>("-9.223372036854775808e18").value == std::numeric_limits<std::int64_t>::min());
    CHECK(errors_of<std::int32_t>("9.0000000000000001") == "expected an integer, got 9.0000000000000001");
    CHECK(errors_of<std::int32_t>("1e400") == "must be at most 2147483647");
    // More significant digits than the exact decimal form keeps, counting trailing zeros.
    CHECK(read<std::int32_t>("5." + std::string(70, '0')).value == 5);
    CHECK(read<std::int32_t>("-1" + std::string(40, '0') + "e-40").value == -1);
    CHECK(errors_of<std::int32_t>("1." + std::string(70, '0') + "1") ==
          "expected an integer, got 1." + std::string(70, '0') + "1");
    CHECK(errors_of<std::int64_t>(std::string(70, '7')) == "must be at most 9223372036854775807");
    CHECK(errors_of<std::int64_t>(std::string(70, '7') + ".0") == "must be at most 9223372036854775807");
    CHECK(errors_of<std::int32_t>("1e-99999999999") == "expected an integer, got 1e-99999999999");
    CHECK(read<std::int32_t>("0e99999999999").value == 0);
}

// Integers and short decimals are read in one pass (read_plain_integer, read_plain_decimal);
// the values and the errors are those of the general path.
TEST_CASE("reader: integers of every length and short decimals read as from_chars reads them") {
    std::string digits;
    for (int length = 1; length <= 20; ++length) {
        digits += char('0' + (length * 7) % 10);
        if (digits[0] == '0') digits[0] = '9';
        for (const std::string& text : {digits, "-" + digits, digits + " ", "[" + digits + "]"}) {
            const std::string number = text.front() == '[' ? text.substr(1, text.size() - 2) : text;
            long long expected = 0;
            const std::string trimmed = number.back() == ' ' ? number.substr(0, number.size() - 1) : number;
            const auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), expected);
            if (text.front() == '[') {
                const auto r = read<std::vector<std::int64_t>>(text);
                if (ec == std::errc{}) {
                    REQUIRE(r.ok());
                    CHECK(r.value[0] == expected);
                } else {
                    CHECK_FALSE(r.ok());
                }
            } else if (ec == std::errc{}) {
                CHECK(read<std::int64_t>(text).value == expected);
            } else {
                CHECK(errors_of<std::int64_t>(text) == (trimmed[0] == '-' ? "must be at least -9223372036854775808"
                                                                          : "must be at most 9223372036854775807"));
            }
        }
    }
    CHECK(read<std::int64_t>("12345678").value == 12345678);
    CHECK(read<std::int64_t>("1234567890123456").value == 1234567890123456);
    CHECK(read<std::int64_t>("123456789012345678").value == 123456789012345678);
    CHECK(read<std::int64_t>("9223372036854775807").value == std::numeric_limits<std::int64_t>::max());
    CHECK(errors_of<std::int32_t>("12345678901") == "must be at most 2147483647");
    CHECK(errors_of<std::int32_t>("1234567a") == "invalid JSON at byte 7: unexpected content after the value");
    CHECK(errors_of<std::int32_t>("12345678.5") == "expected an integer, got 12345678.5");
    CHECK(read<std::int32_t>("12345678e0").value == 12345678);
    CHECK(errors_of<std::int32_t>("0123") == "invalid JSON at byte 1: unexpected content after the value");
    CHECK(read<double>("129.9").value == 129.9);
    CHECK(read<double>("-0").value == 0.0);
    CHECK(std::signbit(read<double>("-0").value));
    CHECK(read<double>("123456789012.345").value == 123456789012.345);
    CHECK(read<double>("1234567890123.456").value == 1234567890123.456);
    CHECK(errors_of<double>("1.") == "invalid JSON at byte 2: invalid number");
    CHECK(errors_of<double>("01.5") == "invalid JSON at byte 1: unexpected content after the value");
    CHECK(read<float>("0.1").value == 0.1f);
}

TEST_CASE("reader: doubles are correctly rounded, overflow is an error") {
    CHECK(read<double>("0.1").value == 0.1);
    CHECK(read<double>("2.2250738585072014e-308").value == 2.2250738585072014e-308);
    CHECK(read<double>("123456789012345678901234567890").value == 1.2345678901234568e29);
    CHECK(errors_of<double>("1e400") == "must be at most 1.7976931348623157e308");
    CHECK(errors_of<double>("-1.7976931348623158e308") == "must be at least -1.7976931348623157e308");
    CHECK(read<double>("1.7976931348623157e308").value == std::numeric_limits<double>::max());
    CHECK(errors_of<float>("1e39") == "must be at most 3.4028234663852886e38");
    CHECK(errors_of<float>("3.40282346638528860000001e38") == "must be at most 3.4028234663852886e38");
    CHECK(read<float>("3.4028234663852886e38").value == std::numeric_limits<float>::max());
    CHECK(read<double>("1e-400").value == 0.0);
    // Bounds are exact: the nearest doubles decide only where they differ.
    CHECK(errors_of<agentry::in_range<double, -90, 90>>("90.0000000000000001") == "must be at most 90");
    CHECK(read<agentry::in_range<double, -90, 90>>("90.000").ok());
    // Inside an exclusive bound but rounded onto it: the nearest double inside.
    const auto tiny = read<agentry::constrained<double, agentry::exclusive_minimum<0>>>("1e-400");
    REQUIRE(tiny.ok());
    CHECK(tiny.value.value == std::numeric_limits<double>::denorm_min());
    const auto below_one = read<agentry::constrained<double, agentry::exclusive_maximum<1>>>("0.99999999999999999");
    REQUIRE(below_one.ok());
    CHECK(below_one.value.value == std::nextafter(1.0, 0.0));
    CHECK(read<agentry::constrained<float, agentry::exclusive_minimum<"0.1">>>("0.10000000000000001").ok());
    CHECK(errors_of<agentry::constrained<float, agentry::exclusive_minimum<"0.1">>>("0.1000") ==
          "must be greater than 0.1");
}

TEST_CASE("reader: type errors name what was expected and what came") {
    CHECK(errors_of<fixtures::scalars>(R"({"flag":"yes","ratio":[],"amount":{},"note":5})") ==
          "/flag: expected a boolean, got a string \"yes\" | /ratio: expected a number, got an array [] | "
          "/amount: expected a number, got an object {} | /note: expected a string, got a number 5");
    CHECK(errors_of<fixtures::weather_query>("[1,2]") == "expected an object, got an array [1,2]");
}

TEST_CASE("reader: required, unknown, duplicate and null members") {
    CHECK(errors_of<fixtures::weather_query>(R"({"citty":"Paris"})") ==
          "/citty: unknown property; did you mean \"city\"? | /city: missing required property");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","zzzzzz":1})") ==
          "/zzzzzz: unknown property; allowed: city, unit");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","city":"b"})") == "/city: duplicate property");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":null})") == "/city: must not be null; expected a string");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":null})") ==
          "/unit: must not be null; leave the property out, or give a string");
}

TEST_CASE("reader: in OpenAI strict form, null for an optional member means absent") {
    read_options strict;
    strict.null_as_absent = true;
    const auto r = read<optional_bag>(R"({"n":null,"s":null})", strict);
    REQUIRE(r.ok());
    CHECK(r.value.n == 7);
    CHECK(errors_of<fixtures::weather_query>(R"({"city":null})", strict) == "/city: must not be null; expected a string");
}

namespace {
struct grown {
    int a = 1;
    int b = 2;
    std::string c = "three";
};
} // namespace

TEST_CASE("reader: with absent_as_default, an absent required member keeps its default, other errors stay") {
    read_options older;
    older.absent_as_default = true;
    const auto r = read<grown>(R"({"a":5})", older);
    REQUIRE(r.ok());
    CHECK(r.value.a == 5);
    CHECK(r.value.b == 2);
    CHECK(r.value.c == "three");
    CHECK(errors_of<grown>(R"({"a":5})") == "/b: missing required property | /c: missing required property");
    CHECK(!read<grown>(R"({"a":"x"})", older).ok());
    CHECK(!read<grown>(R"({"a":5,"z":1})", older).ok());
}

TEST_CASE("reader: enum names, with a suggestion when one is close") {
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":"kelvin"})") ==
          "/unit: \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":"celsuis"})") ==
          "/unit: \"celsuis\" is not one of [\"celsius\",\"fahrenheit\"] (did you mean \"celsius\"?)");
}

TEST_CASE("reader: enum names with escapes read as their text, a value that is no string is a type error") {
    const auto r = read<fixtures::weather_query>(R"({"city":"a","unit":"fahr\u0065nheit"})");
    REQUIRE(r.ok());
    CHECK(r.value.unit == fixtures::temperature_unit::fahrenheit);
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":"kel\u0076in"})") ==
          "/unit: \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":5})") ==
          "/unit: expected a string, got a number 5");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"a","unit":"celsius)") ==
          "/unit: invalid JSON at byte 27: unexpected end of input");
}

TEST_CASE("reader: numeric constraints, inclusive and exclusive, multipleOf on decimals") {
    CHECK(errors_of<fixtures::numeric_constraints>(
              R"({"count":0,"probability":1,"latitude":-90.5,"step":7,"price":0.015})") ==
          "/count: must be at least 1 | /probability: must be less than 1 | /latitude: must be at least -90 | "
          "/step: must be a multiple of 5 | /price: must be a multiple of 0.01");
    const auto r = read<fixtures::numeric_constraints>(
        R"({"count":10,"probability":0.5,"latitude":90,"step":-15,"price":0.07})");
    REQUIRE(r.ok());
    CHECK(r.value.price == 0.07);
    CHECK(errors_of<fixtures::numeric_constraints>(
              R"({"count":11,"probability":0,"latitude":90.0001,"step":0,"price":1e2})") ==
          "/count: must be at most 10 | /probability: must be greater than 0 | /latitude: must be at most 90");
}

TEST_CASE("reader: string length counts code points") {
    CHECK(read<agentry::sized_string<1, 2>>("\"\xC3\xA9\xF0\x9F\x98\x80\"").ok());
    CHECK(errors_of<agentry::sized_string<1, 2>>("\"abc\"") == "must be at most 2 characters long");
    CHECK(errors_of<agentry::sized_string<1, 2>>("\"\"") == "must be at least 1 character long");
}

TEST_CASE("reader: arrays, fixed arrays, sets and item constraints") {
    CHECK(errors_of<fixtures::sequences>(R"({"tags":[],"position":[1,2],"ids":[1,2,2],"recipients":[]})") ==
          "/position: must have exactly 3 items, not 2 | /ids/2: repeats an earlier item; items must be unique | "
          "/recipients: must have at least 1 item");
    CHECK(errors_of<fixtures::sequences>(
              R"({"tags":[1],"position":[1,2,3],"ids":[],"recipients":["a","b","c","d","e","f"]})") ==
          "/tags/0: expected a string, got a number 1 | /recipients: must have at most 5 items");
    CHECK(errors_of<unique_points>(R"({"points":[{"x":1,"y":2},{"x":2,"y":1},{"x":1,"y":2}]})") ==
          "/points: items must be unique; items 0 and 2 are equal");
    // The earliest item with a later equal, and that equal; sorting keeps large arrays fast.
    std::string many = R"({"points":[)";
    for (int i = 0; i != 50000; ++i) many += "{\"x\":" + std::to_string(i) + ",\"y\":" + std::to_string(i % 7) + "},";
    CHECK(errors_of<unique_points>(many + R"({"y":3,"x":8.0},{"x":2,"y":2.0},{"x":8,"y":1}]})") ==
          "/points: items must be unique; items 2 and 50001 are equal");
    const auto r = read<nested>(R"({"grid":[[1,2],[],[3]]})");
    REQUIRE(r.ok());
    CHECK(r.value.grid.size() == 3);
    CHECK(r.value.grid[2][0] == 3);
}

TEST_CASE("reader: nested objects report the full JSON Pointer") {
    CHECK(errors_of<fixtures::create_contact>(
              R"({"name":"A","home":{"street":"s","city":"c"},"others":[{"street":"s"},{"city":1,"street":"t"}]})") ==
          "/others/0/city: missing required property | /others/1/city: expected a string, got a number 1");
}

TEST_CASE("reader: maps, variants, raw JSON") {
    const auto m = read<fixtures::labels>(R"({"values":{"a/b":"1","~":"2"}})");
    REQUIRE(m.ok());
    CHECK(m.value.values.at("a/b") == "1");
    CHECK(errors_of<fixtures::labels>(R"({"values":{"a/b":1}})") == "/values/a~1b: expected a string, got a number 1");
    const auto v = read<fixtures::draw>(R"({"shape":{"side":2},"label":7})");
    REQUIRE(v.ok());
    CHECK(std::get<fixtures::square>(v.value.shape).side == 2);
    CHECK(std::get<int>(v.value.label) == 7);
    CHECK(errors_of<fixtures::draw>(R"({"shape":{"sides":2},"label":null})") ==
          "/shape: matches none of the allowed forms; as circle: /sides unknown property; allowed: radius, missing "
          "/radius; as square: /sides unknown property; did you mean \"side\"?, missing /side");
    const auto raw = read<fixtures::raw_payload>(R"({"kind":"k","payload": [1, {"x":null}] })");
    REQUIRE(raw.ok());
    CHECK(raw.value.payload.text() == R"([1, {"x":null}])");
}

TEST_CASE("reader: recursive types") {
    const auto r = read<fixtures::tree_node>(R"({"name":"a","children":[{"name":"b","children":[]}]})");
    REQUIRE(r.ok());
    CHECK(r.value.children.at(0).name == "b");
}

TEST_CASE("reader: syntax errors stop reading and say where") {
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris")") == "invalid JSON at byte 15: unexpected end of input");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris"} x)") ==
          "invalid JSON at byte 17: unexpected content after the value");
    CHECK(errors_of<fixtures::weather_query>("{\"city\":\"a\x01\"}") ==
          "/city: invalid JSON at byte 10: unescaped control character in a string");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"\ud800"})") ==
          "/city: invalid JSON at byte 15: unpaired UTF-16 surrogate in a \\u escape");
    CHECK(errors_of<fixtures::weather_query>("{\"city\":\"\xC0\xAF\"}") ==
          "/city: invalid JSON at byte 9: invalid UTF-8");
    CHECK(errors_of<fixtures::weather_query>("") == "invalid JSON at byte 0: unexpected end of input");
}

TEST_CASE("reader: limits on size, depth and the number of errors") {
    read_options small;
    small.max_size = 10;
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris"})", small) ==
          "the arguments are 16 bytes long, more than the limit of 10");
    read_options shallow;
    shallow.max_depth = 2;
    CHECK(errors_of<nested>(R"({"grid":[[1]]})", shallow) == "/grid/0: nesting deeper than 2 levels");
    CHECK(errors_of<agentry::raw_json>(std::string(100, '[') + std::string(100, ']')) == "nesting deeper than 64 levels");
    // Too deep where another type is expected: the type, then the depth (valid JSON, over a limit).
    CHECK(errors_of<fixtures::weather_query>(R"({"city":[[1]]})", shallow) ==
          "/city: expected a string, got an array [[1]] | /city: nesting deeper than 2 levels");
    read_options few;
    few.max_errors = 3;
    const auto r = read<std::vector<bool>>("[1,2,3,4,5,6]", few);
    REQUIRE(r.errors.size() == 4);
    CHECK(r.errors[2].pointer == "/2");
    CHECK(r.errors.back().kind == error_kind::too_many_errors);
    CHECK(r.errors.back().message == "too many errors; only the first 3 are listed");
    read_options one;
    one.max_errors = 1;
    const auto single = read<std::vector<bool>>("[true,2]", one);
    REQUIRE(single.errors.size() == 1);
    CHECK(single.errors[0].pointer == "/1");
    const auto cut = read<std::vector<bool>>("[1,2]", one);
    REQUIRE(cut.errors.size() == 2);
    CHECK(cut.errors[0].pointer == "/0");
    CHECK(cut.errors[1].message == "too many errors; only the first is listed");
}

TEST_CASE("reader: repairs are off by default and reported when on") {
    read_options lenient;
    lenient.repairs = {.empty_as_object = true, .json_in_string = true, .number_in_string = true, .enum_case = true};
    auto r = read<fixtures::paging>("  ", lenient);
    REQUIRE(r.ok());
    CHECK(r.repairs == std::vector<std::string>{"empty arguments were read as {}"});
    CHECK_FALSE(read<fixtures::weather_query>("", lenient).ok());  // city is required
    r = read<fixtures::paging>(R"({"page":"3"})", lenient);
    REQUIRE(r.ok());
    CHECK(r.value.page == 3);
    CHECK(r.repairs == std::vector<std::string>{"/page: a number sent as a string was read as a number"});
    const auto e = read<fixtures::weather_query>(R"({"city":"a","unit":"CELSIUS"})", lenient);
    REQUIRE(e.ok());
    CHECK(e.repairs == std::vector<std::string>{"/unit: \"CELSIUS\" was read as \"celsius\""});
    const auto j = read<fixtures::create_contact>(
        R"({"name":"A","home":"{\"street\":\"s\",\"city\":\"c\"}","others":"[]"})", lenient);
    REQUIRE(j.ok());
    CHECK(j.value.home.city == "c");
    CHECK(j.repairs.size() == 2);
    // A string whose object does not read: the type error alone, the repair not noted.
    const auto f =
        read<fixtures::create_contact>(R"({"name":"A","home":"{\"street\":1,\"city\":\"c\"}","others":[]})", lenient);
    CHECK(errors_of<fixtures::create_contact>(R"({"name":"A","home":"{\"street\":1,\"city\":\"c\"}","others":[]})",
                                              lenient) ==
          "/home: expected an object, got a string \"{\\\"street\\\":1,\\\"city\\\":\\\"c\\\"}\"");
    CHECK(f.repairs.empty());
    // A variant alternative that fits as sent wins over one that needs a repair.
    const auto v = read<fixtures::draw>(R"({"shape":{"side":2},"label":"5"})", lenient);
    REQUIRE(v.ok());
    CHECK(std::get<std::string>(v.value.label) == "5");
    CHECK(v.repairs.empty());
    const auto n = read<std::variant<bool, int>>(R"("5")", lenient);
    REQUIRE(n.ok());
    CHECK(std::get<int>(n.value) == 5);
    CHECK(n.repairs == std::vector<std::string>{"a number sent as a string was read as a number"});
    CHECK(errors_of<fixtures::paging>(R"({"page":"3"})") == "/page: expected an integer, got a string \"3\"");
    CHECK(errors_of<fixtures::paging>(R"({"page":"three"})", lenient) ==
          "/page: expected an integer, got a string \"three\"");
}

TEST_CASE("reader: named parameters read into a tuple") {
    using params = agentry::named_parameters<agentry::reflect::type_list<int, std::optional<std::string>>, "a", "b">;
    CHECK(read<params>(" \n {\"a\":1}").ok());
    const auto r = read<params>(R"({"a":1})");
    REQUIRE(r.ok());
    CHECK(std::get<0>(r.value) == 1);
    CHECK_FALSE(std::get<1>(r.value).has_value());
    CHECK(errors_of<params>(R"({"b":2})") == "/b: expected a string, got a number 2 | /a: missing required property");
    CHECK(errors_of<params>("[]") == "expected an object, got an array []");
}

TEST_CASE("reader: error kinds name their JSON Schema keyword") {
    CHECK(agentry::json::keyword_of(error_kind::unknown_property) == "additionalProperties");
    CHECK(agentry::json::keyword_of(error_kind::exclusive_minimum) == "exclusiveMinimum");
    const auto r = read<fixtures::weather_query>(R"({"unit":"x"})");
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0].kind == error_kind::enum_value);
    CHECK(r.errors[0].pointer == "/unit");
    CHECK(r.errors[1].kind == error_kind::required);
}

TEST_CASE("reader: unknown properties skipped on request") {
    read_options lenient;
    lenient.ignore_unknown_properties = true;
    const auto r = read<fixtures::weather_query>(R"({"extra":{"deep":[1,{"x":null}]},"city":"Paris","more":1})", lenient);
    REQUIRE(r.ok());
    CHECK(r.value.city == "Paris");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris","bad":[1,})", lenient) ==
          "/bad: invalid JSON at byte 25: unexpected character");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris","x":1})") ==
          "/x: unknown property; allowed: city, unit");
}

namespace {

// Every message is valid UTF-8, whatever bytes the arguments held.
bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = agentry::detail::utf8_char_length(s.substr(i));
        if (n == 0) return false;
        i += n;
    }
    return true;
}

struct card {
    agentry::matching<"^[0-9]{4}$"> last4;
};
struct voucher {
    std::string code;
};
struct checkout {
    std::variant<card, voucher> payment;
};
struct choice {
    std::variant<std::monostate, int, std::variant<bool, voucher>> value;
};
struct catastrophic {
    agentry::matching<"^(a|a)*$"> text;
};

} // namespace

TEST_CASE("reader: text that is not JSON gets one syntax error and no quoted bytes") {
    for (std::string_view text : {"not json", "Lx", "nul", "\xff\xfe", "{\"city\":Lx}", "{\"city\":\"Paris\",\"unit\":nope}",
                                  "-", "[1", "{\"city\":\"a\"} \xff"}) {
        INFO(text);
        const auto r = read<fixtures::weather_query>(text);
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].kind == error_kind::syntax);
        CHECK(r.errors[0].message.starts_with("invalid JSON at byte "));
        CHECK(valid_utf8(r.errors[0].to_string()));
    }
    CHECK(errors_of<fixtures::weather_query>("not json") == "invalid JSON at byte 0: unexpected character");
    CHECK(errors_of<fixtures::weather_query>("Lx") == "invalid JSON at byte 0: unexpected character");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":Lx})") == "/city: invalid JSON at byte 8: unexpected character");
    CHECK(errors_of<fixtures::weather_query>("\xff") == "invalid JSON at byte 0: unexpected character");
    // A value of the wrong type is still a type error, with a printable excerpt.
    CHECK(errors_of<fixtures::weather_query>("null") == "must not be null; expected an object");
    CHECK(errors_of<fixtures::weather_query>("[1,\n2]") == "expected an object, got an array [1,\\x0A2]");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":["\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"]})") ==
          R"(/city: expected a string, got an array ["\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u...)");
    const auto long_value = read<fixtures::weather_query>("{\"city\":[\"" + std::string(13, '\xC3') + "\"]}");
    REQUIRE(long_value.errors.size() == 1);
    CHECK(valid_utf8(long_value.errors[0].message));
}

TEST_CASE("reader: raw JSON is kept only when it is interoperable JSON") {
    const auto big = read<fixtures::raw_payload>(R"({"kind":"k","payload":[1,{"x":1e999}]})");
    REQUIRE(big.errors.size() == 1);
    CHECK(big.errors[0].kind == error_kind::out_of_range);
    CHECK(agentry::json::keyword_of(big.errors[0].kind) == "range");
    CHECK(big.errors[0].to_string() ==
          "/payload/1/x: 1e999 is beyond the range of a double (magnitude at most 1.7976931348623157e308)");
    CHECK(errors_of<fixtures::raw_payload>(R"({"kind":"k","payload":-2E+400})") ==
          "/payload: -2E+400 is beyond the range of a double (magnitude at most 1.7976931348623157e308)");
    const auto twice = read<fixtures::raw_payload>(R"({"kind":"k","payload":{"a":{"b":1,"b":2},"a":3}})");
    REQUIRE(twice.errors.size() == 2);
    CHECK(twice.errors[0].to_string() == "/payload/a/b: duplicate property");
    CHECK(twice.errors[0].kind == error_kind::duplicate_property);
    CHECK(twice.errors[1].to_string() == "/payload/a: duplicate property");
    // Keys compare after unescaping: "\u0061" is "a".
    CHECK(errors_of<fixtures::raw_payload>(R"({"kind":"k","payload":{"a":1,"\u0061":2}})") == "/payload/a: duplicate property");
    // Within range, underflow (read as 0, as JSON.parse does), the largest double, and equal keys in
    // different objects are kept, as sent.
    constexpr std::string_view fine = R"({"b":[1e-999, -1.7976931348623157e308, 1E308],"a":{"b":{}},"c":[{"a":1},{"a":2}]})";
    const auto kept = read<agentry::raw_json>(fine);
    REQUIRE(kept.ok());
    CHECK(kept.value.text() == fine);
    // Syntax errors inside raw JSON stop reading as elsewhere.
    CHECK(errors_of<agentry::raw_json>(R"({"a":[1,]})") == "invalid JSON at byte 8: unexpected character");
    CHECK(errors_of<fixtures::raw_payload>(R"({"kind":"k","payload":{"a":tru}})") ==
          "/payload: invalid JSON at byte 27: unexpected character");
    CHECK(errors_of<agentry::raw_json>("") == "invalid JSON at byte 0: unexpected end of input");
    CHECK(errors_of<agentry::raw_json>(R"({"a":01})") == "invalid JSON at byte 6: unexpected character");
}

TEST_CASE("reader: a variant that fails says why each alternative failed, the closest first") {
    CHECK(errors_of<checkout>(R"({"payment":{"last4":"12a4"}})") ==
          "/payment: matches none of the allowed forms; as card: /last4 must match the regular expression "
          "^[0-9]{4}$; as voucher: /last4 unknown property; allowed: code, missing /code");
    CHECK(errors_of<checkout>(R"({"payment":{}})") ==
          "/payment: matches none of the allowed forms; as card: missing /last4; as voucher: missing /code");
    CHECK(errors_of<checkout>(R"({"payment":{"code":7}})") ==
          "/payment: matches none of the allowed forms; as voucher: /code expected a string, got a number 7; as card: "
          "/code unknown property; allowed: last4, missing /last4");
    CHECK(errors_of<checkout>(R"({"payment":"VISA"})") ==
          "/payment: matches none of the allowed forms; got a string \"VISA\", expected card or voucher");
    CHECK(errors_of<fixtures::draw>(R"({"shape":{"side":1},"label":true})") ==
          "/label: matches none of the allowed forms; got a boolean true, expected null, an integer or a string");
    const auto r = read<checkout>(R"({"payment":{"code":"X1"}})");
    REQUIRE(r.ok());
    CHECK(std::get<voucher>(r.value.payment).code == "X1");
    // Nested variants explain themselves at their own level; other types by their JSON type.
    CHECK(errors_of<choice>(R"({"value":{"code":1}})") ==
          "/value: matches none of the allowed forms; as a boolean or voucher: matches none of the allowed forms; as "
          "voucher: /code expected a string, got a number 1; not a boolean: got an object; not null or an integer: got "
          "an object");
    CHECK(errors_of<choice>(R"({"value":"s"})") == "/value: matches none of the allowed forms; got a string \"s\", "
                                                   "expected null, an integer or a boolean or voucher");
}

TEST_CASE("reader: a pattern the engine gives up on says so") {
    const std::string text = std::string(40, 'a') + "!";
    const auto r = read<catastrophic>(R"({"text":")" + text + R"("})");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].kind == error_kind::pattern);
    CHECK(r.errors[0].to_string() ==
          "/text: could not be checked against the regular expression ^(a|a)*$: the match needs more than 1000000 "
          "steps; send a shorter or simpler value");
    CHECK(errors_of<catastrophic>(R"({"text":"aab"})") == "/text: must match the regular expression ^(a|a)*$");
    CHECK(read<catastrophic>(R"({"text":"aaaa"})").ok());
}

TEST_CASE("text helpers: case, UTF-8 cuts, trimming, printable excerpts") {
    using namespace agentry::detail;
    static_assert(equal_ignoring_case("Content-Type", "content-TYPE"));
    static_assert(!equal_ignoring_case("abc", "abd") && !equal_ignoring_case("abc", "ab"));
    static_assert(utf8_cut("a\xC3\xA9", 2) == 1 && utf8_cut("a\xC3\xA9", 3) == 3 && utf8_cut("abc", 10) == 3);
    static_assert(utf8_cut("\xE2\x82\xAC", 2) == 0);
    static_assert(trim(" \t a b\r\n") == "a b" && trim(" \t ").empty() && trim(" a\t", " ") == "a\t");
    static_assert(utf8_char_length("\xF0\x9F\x98\x80") == 4 && utf8_char_length("\xED\xA0\x80") == 0 &&
                  utf8_char_length("\xC0\xAF") == 0 && utf8_char_length("\xF4\x90\x80\x80") == 0 &&
                  utf8_char_length("\xE2\x82") == 0);
    CHECK(printable("caf\xC3\xA9\n\xff\x7f") == "caf\xC3\xA9\\x0A\\xFF\\x7F");
    CHECK(printable(std::string(50, 'x'), 40) == std::string(40, 'x') + "...");
    CHECK(printable("ab\xE2\x82\xAC", 4) == "ab...");
    CHECK(valid_utf8(printable("\xC3")));
}

namespace {

struct in_order {
    std::string name;
    std::int8_t small;
    std::optional<std::uint64_t> big;
    double ratio;
    fixtures::weather_query place;
};

struct ab_member {
    int ab;
    int b;
};

} // namespace

TEST_CASE("reader: members in declaration order, in another order or spaced out read alike") {
    constexpr std::string_view texts[] = {
        R"({"name":"n","small":-5,"big":7,"ratio":0.25,"place":{"city":"Paris","unit":"fahrenheit"}})",
        R"({"place":{"unit":"fahrenheit","city":"Paris"},"ratio":0.25,"big":7,"small":-5,"name":"n"})",
        " {\n \"name\" : \"n\" ,\t\"small\":-5 , \"big\" :7,\"ratio\":\r\n0.25 ,\"place\":{ \"city\" :\"Paris\" , \"unit\":\"fahrenheit\" } } ",
        R"({"name":"n","small":-5,"ratio":0.25,"big":7,"place":{"city":"Paris","unit":"fahrenheit"}})",
        R"({"n\u0061me":"n","small":-5,"big":7,"ratio":0.25,"place":{"city":"Paris","unit":"fahrenheit"}})",
    };
    for (std::string_view text : texts) {
        CAPTURE(text);
        const auto r = read<in_order>(text);
        REQUIRE(r.ok());
        CHECK(r.value.name == "n");
        CHECK(r.value.small == -5);
        CHECK(r.value.big == 7u);
        CHECK(r.value.ratio == 0.25);
        CHECK(r.value.place.city == "Paris");
        CHECK(r.value.place.unit == fixtures::temperature_unit::fahrenheit);
    }
}

TEST_CASE("reader: after members in order, a repeated, unknown or misplaced member is reported as before") {
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris","unit":"celsius","city":"Rome"})") ==
          "/city: duplicate property");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris","unit":"celsius","units":"kelvin"})") ==
          "/units: unknown property; did you mean \"unit\"?");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris",})") ==
          "invalid JSON at byte 16: unexpected character");
    CHECK(errors_of<fixtures::weather_query>(R"({"city" "Paris"})") == "invalid JSON at byte 8: unexpected character");
    CHECK(errors_of<fixtures::weather_query>(R"({"city")") == "invalid JSON at byte 7: unexpected end of input");
    CHECK(errors_of<fixtures::weather_query>(R"({"city":"Paris";})") ==
          "invalid JSON at byte 15: unexpected character");
    // A name that starts like a member's is another name.
    CHECK(errors_of<ab_member>(R"({"abc":1,"b":2})") == "/abc: unknown property; did you mean \"ab\"? | /ab: missing required property");
    CHECK(read<ab_member>(R"({"b":2,"ab":1})").ok());
}

TEST_CASE("reader: integers are range-checked exactly at every width and spelling") {
    auto r = read<in_order>(R"({"name":"","small":127,"big":18446744073709551615,"ratio":1,"place":{"city":"c"}})");
    REQUIRE(r.ok());
    CHECK(r.value.small == 127);
    CHECK(r.value.big == 18446744073709551615u);
    r = read<in_order>(R"({"name":"","small":-128,"big":999999999999999999,"ratio":-0.0,"place":{"city":"c"}})");
    REQUIRE(r.ok());
    CHECK(r.value.small == -128);
    CHECK(r.value.big == 999999999999999999u);
    CHECK(std::signbit(r.value.ratio));
    r = read<in_order>(R"({"name":"","small":-0,"big":1e2,"ratio":1234567890.12345,"place":{"city":"c"}})");
    REQUIRE(r.ok());
    CHECK(r.value.small == 0);
    CHECK(r.value.big == 100u);
    CHECK(r.value.ratio == 1234567890.12345);
    r = read<in_order>(R"({"name":"","small":1.0,"ratio":0.30000000000000004,"place":{"city":"c"}})");
    REQUIRE(r.ok());
    CHECK(r.value.small == 1);
    CHECK(r.value.ratio == 0.30000000000000004);
    CHECK(errors_of<in_order>(R"({"name":"","small":128,"ratio":1,"place":{"city":"c"}})") == "/small: must be at most 127");
    CHECK(errors_of<in_order>(R"({"name":"","small":-129,"ratio":1,"place":{"city":"c"}})") ==
          "/small: must be at least -128");
    CHECK(errors_of<in_order>(R"({"name":"","small":1,"big":-1,"ratio":1,"place":{"city":"c"}})") ==
          "/big: must be at least 0");
    CHECK(errors_of<in_order>(R"({"name":"","small":1,"big":18446744073709551616,"ratio":1,"place":{"city":"c"}})") ==
          "/big: must be at most 18446744073709551615");
    CHECK(errors_of<in_order>(R"({"name":"","small":01,"ratio":1,"place":{"city":"c"}})") ==
          "invalid JSON at byte 20: unexpected character");
    CHECK(errors_of<in_order>(R"({"name":"","small":-,"ratio":1,"place":{"city":"c"}})") ==
          "/small: invalid JSON at byte 20: invalid number");
    CHECK(errors_of<in_order>(R"({"name":"","small":2.5,"ratio":1,"place":{"city":"c"}})") ==
          "/small: expected an integer, got 2.5");
}
