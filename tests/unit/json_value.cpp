// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/value.hpp>

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/schema/json_schema.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using agentry::json::error_kind;
using agentry::json::parse;
using agentry::json::read_options;
using agentry::json::to_text;
using agentry::json::value;

namespace {

std::string errors_text(const std::vector<agentry::json::read_error>& errors) {
    std::string out;
    for (const auto& e : errors) {
        if (!out.empty()) out += " | ";
        out += e.to_string();
    }
    return out;
}

std::string parse_errors(std::string_view text, const read_options& options = {}) {
    return errors_text(parse(text, options).errors);
}

// The typed reader's errors for the same text read as free-form JSON.
std::string reader_errors(std::string_view text, const read_options& options = {}) {
    return errors_text(agentry::json::read<agentry::raw_json>(text, options).errors);
}

std::string nested_arrays(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

struct transfer {
    int amount = 0;
    value details;
};

} // namespace

TEST_CASE("json::value: a text read and written back is the same text, compact") {
    for (std::string_view text : {
             R"(null)", R"(true)", R"(false)", R"(0)", R"(-0)", R"(0.1)", R"(1e2)", R"(-1.5E-7)",
             R"(12345678901234567890)", R"(-9223372036854775809)",
             R"(123456789012345678901234567890.123456789012345678901234567890)", R"("")",
             R"("caf\u00e9 \"quoted\" back\\slash \n\t")", R"([])", R"({})", R"([1,[2,[3,{}]]])",
             R"({"b":1,"a":[true,null,"x"],"c":{"z":0,"y":-1}})", "\"\xF0\x9F\x98\x80 \xE2\x82\xAC\""}) {
        INFO(std::string(text));
        const auto r = parse(text);
        REQUIRE(r.ok());
        const std::string again = to_text(r.value);
        // Escapes are decoded on reading; the written text reads back to an equal value.
        const auto back = parse(again);
        REQUIRE(back.ok());
        CHECK(back.value == r.value);
        CHECK(to_text(back.value) == again);
    }
    CHECK(to_text(parse(" { \"b\" : 1 , \"a\" : [ 0.10 , 1E+2 ] } ").value) == R"({"b":1,"a":[0.10,1E+2]})");
    CHECK(to_text(parse(R"("caf\u00e9\/\u0001")").value) == "\"caf\xC3\xA9/\\u0001\"");
}

TEST_CASE("json::value: numbers keep their text, integers are read exactly") {
    const auto r = parse(R"([12345678901234567890,0.1,-9223372036854775808,9223372036854775808,1e2,1.0,2.5,-0])");
    REQUIRE(r.ok());
    const auto& n = r.value.items();
    CHECK(n[0].number_text() == "12345678901234567890");
    CHECK(n[0].as_uint64() == std::uint64_t{12345678901234567890u});
    CHECK_FALSE(n[0].as_int64().has_value());
    CHECK(n[1].number_text() == "0.1");
    CHECK(n[1].as_double() == 0.1);
    CHECK_FALSE(n[1].is_integer());
    CHECK(n[2].as_int64() == std::numeric_limits<std::int64_t>::min());
    CHECK_FALSE(n[2].as_uint64().has_value());
    CHECK_FALSE(n[3].as_int64().has_value());
    CHECK(n[3].as_uint64() == std::uint64_t{9223372036854775808u});
    CHECK(n[4].as_int64() == 100);
    CHECK(n[5].is_integer());
    CHECK(n[5].as_int64() == 1);
    CHECK_FALSE(n[6].as_int64().has_value());
    CHECK(n[6].as_double() == 2.5);
    CHECK(n[7].as_uint64() == 0u);
    CHECK(to_text(r.value) == R"([12345678901234567890,0.1,-9223372036854775808,9223372036854775808,1e2,1.0,2.5,-0])");

    CHECK(value::number("1e-400").has_value());
    CHECK(value::number("1e-400")->as_double() == 0.0);
    CHECK(std::isinf(value::number("-1e400")->as_double()));
    CHECK_FALSE(value::number("01").has_value());
    CHECK_FALSE(value::number("1.").has_value());
    CHECK_FALSE(value::number("").has_value());
    CHECK_FALSE(value::number("1 ").has_value());
}

TEST_CASE("json::value: refusals, with the typed reader's messages and pointers") {
    struct refusal {
        std::string_view text;
        std::string_view errors;
    };
    const std::string overlong_size(1024 * 1024 + 1, ' ');
    for (const refusal& c : std::initializer_list<refusal>{
             {R"({"amount":1,"to":"friend","amount":1000000})", "/amount: duplicate property"},
             {R"({"a":[{"k":1,"k":2}],"b":{"x":0,"x":0}})", "/a/0/k: duplicate property | /b/x: duplicate property"},
             {"{\"to\":\"attacker\xFF\"}", "invalid JSON at byte 15: invalid UTF-8"},
             {"\"\xC0\xAF\"", "invalid JSON at byte 1: invalid UTF-8"},                // overlong '/'
             {"\"\xE0\x80\xAF\"", "invalid JSON at byte 1: invalid UTF-8"},            // overlong, 3 bytes
             {"\"\xF0\x80\x80\xAF\"", "invalid JSON at byte 1: invalid UTF-8"},        // overlong, 4 bytes
             {"\"\xED\xA0\x80\"", "invalid JSON at byte 1: invalid UTF-8"},            // surrogate D800
             {"\"\xF4\x90\x80\x80\"", "invalid JSON at byte 1: invalid UTF-8"},        // above U+10FFFF
             {R"("\ud800")", "invalid JSON at byte 7: unpaired UTF-16 surrogate in a \\u escape"},
             {R"("\udc00\ud800")", "invalid JSON at byte 7: unpaired UTF-16 surrogate in a \\u escape"},
             {R"({"a":1} x)", "invalid JSON at byte 8: unexpected content after the value"},
             {R"({"a":1}{})", "invalid JSON at byte 7: unexpected content after the value"},
             {R"([1,2,])", "invalid JSON at byte 5: unexpected character"},
             {R"({"a":01})", "invalid JSON at byte 6: unexpected character"},
             {"", "invalid JSON at byte 0: unexpected end of input"},
             {"  ", "invalid JSON at byte 2: unexpected end of input"},
             {R"({"a":1e400})", "/a: 1e400 is beyond the range of a double (magnitude at most 1.7976931348623157e308)"},
             {R"('a')", "invalid JSON at byte 0: unexpected character"},
         }) {
        INFO(std::string(c.text));
        CHECK(parse_errors(c.text) == c.errors);
        CHECK(reader_errors(c.text) == c.errors);
    }
}

TEST_CASE("json::value: the size and depth limits of read_options") {
    const std::string spaces = R"({"amount":1})" + std::string(1100 * 1024, ' ');
    CHECK(parse_errors(spaces) == "the arguments are " + std::to_string(spaces.size()) +
                                      " bytes long, more than the limit of 1048576");
    CHECK(parse_errors(spaces) == reader_errors(spaces));
    CHECK(parse(spaces).errors[0].kind == error_kind::too_large);
    read_options larger;
    larger.max_size = 2 * 1024 * 1024;
    CHECK(parse(spaces, larger).ok());

    CHECK(parse(nested_arrays(64)).ok());
    const auto deep = parse(nested_arrays(65));
    REQUIRE(deep.errors.size() == 1);
    CHECK(deep.errors[0].kind == error_kind::too_deep);
    CHECK(deep.errors[0].message == "nesting deeper than 64 levels");
    CHECK(parse_errors(nested_arrays(65)) == reader_errors(nested_arrays(65)));
    read_options shallow;
    shallow.max_depth = 2;
    CHECK(parse_errors(R"({"a":{"b":[]}})", shallow) == "nesting deeper than 2 levels");
    CHECK(parse_errors(nested_arrays(100000)) == "nesting deeper than 64 levels");
}

TEST_CASE("json::value: errors stop at max_errors, as the reader's do") {
    std::string text = "{";
    for (int i = 0; i != 40; ++i) text += std::string(i == 0 ? "" : ",") + R"("k":1)";
    text += "}";
    const auto r = parse(text);
    REQUIRE(r.errors.size() == 33);
    CHECK(r.errors.back().kind == error_kind::too_many_errors);
    CHECK(r.errors.back().message == "too many errors; only the first 32 are listed");
    CHECK(parse_errors(text) == reader_errors(text));
}

TEST_CASE("json::value: many members are checked for duplicates in n log n") {
    std::string text = "{";
    for (int i = 0; i != 20000; ++i) text += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":" + std::to_string(i);
    const auto unique = parse(text + "}");
    REQUIRE(unique.ok());
    CHECK(unique.value.size() == 20000);
    CHECK(unique.value.find("k19999")->as_int64() == 19999);
    CHECK(parse_errors(text + R"(,"k12345":0})") == "/k12345: duplicate property");
}

TEST_CASE("json::value: members in source order, looked up by key") {
    const auto r = parse(R"({"z":1,"a":2,"m":{"k":"v"},"a~b/c":3})");
    REQUIRE(r.ok());
    std::vector<std::string> keys;
    for (const auto& m : r.value.members()) keys.push_back(m.key);
    CHECK(keys == std::vector<std::string>{"z", "a", "m", "a~b/c"});
    CHECK(r.value.find("a")->as_int64() == 2);
    CHECK(r.value.find("m")->find("k")->as_string() == "v");
    CHECK(r.value.find("missing") == nullptr);
    CHECK(r.value.find("m")->find("missing") == nullptr);
    CHECK(value(1).find("a") == nullptr);
    CHECK(parse_errors(R"({"a~b/c":1,"a~b/c":2})") == "/a~0b~1c: duplicate property");
}

TEST_CASE("json::value: made in code") {
    value v = value::object();
    v.set("n", 42);
    v.set("big", std::uint64_t{18446744073709551615u});
    v.set("neg", std::int64_t{-5});
    v.set("d", 0.1);
    v.set("s", "text");
    v.set("b", true);
    v.set("nil", nullptr);
    value list;
    list.push_back(1);
    list.push_back(value::array());
    v.set("list", list);
    v.set("n", 43);  // replaces
    CHECK(to_text(v) ==
          R"({"n":43,"big":18446744073709551615,"neg":-5,"d":0.1,"s":"text","b":true,"nil":null,"list":[1,[]]})");
    CHECK(to_text(value(std::numeric_limits<double>::quiet_NaN())) == "null");
    CHECK(to_text(value(-std::numeric_limits<double>::infinity())) == "null");
    CHECK(to_text(value(1e300)) == "1e+300");
    CHECK(to_text(value(std::string("a\"\\\x01\x1F\n"))) == R"("a\"\\\u0001\u001f\n")");
    // Ill-formed UTF-8 is written as U+FFFD, one per maximal ill-formed sequence.
    CHECK(to_text(value(std::string("a\xFF" "b\xE2\x82" "c"))) == "\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\"");
    CHECK(parse(to_text(value(std::string("\xC0\xAF")))).ok());
    CHECK(to_text(value(false)) == "false");
    static_assert(!std::is_convertible_v<const value*, value>);
    static_assert(std::is_convertible_v<const char*, value>);
}

TEST_CASE("json::value: equality is JSON equality") {
    CHECK(parse("1").value == parse("1.0").value);
    CHECK(parse("100").value == parse("1e2").value);
    CHECK(parse("-0").value == parse("0").value);
    CHECK_FALSE(parse("0.1").value == parse("0.10000000000000001").value);
    CHECK(parse(R"({"a":1,"b":[1,2]})").value == parse(R"({"b":[1,2.0],"a":1})").value);
    CHECK_FALSE(parse(R"({"a":1})").value == parse(R"({"a":1,"b":2})").value);
    CHECK_FALSE(parse("[1,2]").value == parse("[2,1]").value);
    CHECK_FALSE(parse("true").value == parse("1").value);
    CHECK(parse(R"("\u00e9")").value == value("\xC3\xA9"));
    CHECK(value() == value(nullptr));
}

TEST_CASE("json::value: read as a member of a struct, or alone, by json::read") {
    const auto r = agentry::json::read<transfer>(R"({"amount":5,"details":{"note":"x","ids":[12345678901234567890]}})");
    REQUIRE(r.ok());
    CHECK(r.value.amount == 5);
    CHECK(r.value.details.find("note")->as_string() == "x");
    CHECK(r.value.details.find("ids")->items()[0].number_text() == "12345678901234567890");

    const auto dup = agentry::json::read<transfer>(R"({"amount":5,"details":{"k":1,"k":2}})");
    CHECK(errors_text(dup.errors) == "/details/k: duplicate property");
    const auto bad = agentry::json::read<transfer>("{\"amount\":5,\"details\":[\"\xFF\"]}");
    CHECK(errors_text(bad.errors) == "/details: invalid JSON at byte 24: invalid UTF-8");
    read_options shallow;
    shallow.max_depth = 3;
    CHECK(agentry::json::read<transfer>(R"({"amount":5,"details":[[1]]})", shallow).ok());
    CHECK(errors_text(agentry::json::read<transfer>(R"({"amount":5,"details":[[[1]]]})", shallow).errors) ==
          "/details: nesting deeper than 3 levels");

    const auto alone = agentry::json::read<value>(R"([1,{"a":null}])");
    REQUIRE(alone.ok());
    CHECK(to_text(alone.value) == R"([1,{"a":null}])");

    std::string out;
    CHECK(agentry::json::write(out, r.value));
    CHECK(out == R"({"amount":5,"details":{"note":"x","ids":[12345678901234567890]}})");
    out.clear();
    CHECK(agentry::json::write(out, r.value.details));
    CHECK(out == R"({"note":"x","ids":[12345678901234567890]})");
    CHECK(agentry::json::to_json(parse("[0.1]").value) == "[0.1]");

    // Its schema is any value, as raw_json's.
    CHECK(agentry::json_schema<transfer>().find(R"("details":{})") != std::string_view::npos);
}
