// SPDX-License-Identifier: BSL-1.0
// The canonical text of tool arguments (policy/approval.hpp, json/detail/jcs.hpp,
// json/detail/ecma_number.hpp): RFC 8785 (JSON Canonicalization Scheme) on the examples the
// RFC publishes, the one exception (integers a double would change keep their digits), and
// decisions made with the canonical form of earlier versions.
#include <agentry/json/detail/ecma_number.hpp>
#include <agentry/policy/approval.hpp>

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace {

std::string ecma(std::uint64_t bits) {
    std::string out;
    if (!agentry::json::detail::append_ecma_number(out, std::bit_cast<double>(bits))) return "(none)";
    return out;
}

// The canonical text of the number `text`, through canonical_json.
std::string number(std::string_view text) {
    const std::optional<std::string> c = agentry::detail::canonical_json("[" + std::string(text) + "]");
    REQUIRE(c.has_value());
    REQUIRE(c->size() >= 2);
    return c->substr(1, c->size() - 2);
}

} // namespace

TEST_CASE("canonical form: doubles as ECMAScript writes them (RFC 8785, appendix B)") {
    CHECK(ecma(0x0000000000000000) == "0");
    CHECK(ecma(0x8000000000000000) == "0");  // -0
    CHECK(ecma(0x0000000000000001) == "5e-324");
    CHECK(ecma(0x8000000000000001) == "-5e-324");
    CHECK(ecma(0x7fefffffffffffff) == "1.7976931348623157e+308");
    CHECK(ecma(0xffefffffffffffff) == "-1.7976931348623157e+308");
    CHECK(ecma(0x4340000000000000) == "9007199254740992");
    CHECK(ecma(0xc340000000000000) == "-9007199254740992");
    CHECK(ecma(0x4430000000000000) == "295147905179352830000");
    CHECK(ecma(0x44b52d02c7e14af5) == "9.999999999999997e+22");
    CHECK(ecma(0x44b52d02c7e14af6) == "1e+23");
    CHECK(ecma(0x44b52d02c7e14af7) == "1.0000000000000001e+23");
    CHECK(ecma(0x444b1ae4d6e2ef4e) == "999999999999999700000");
    CHECK(ecma(0x444b1ae4d6e2ef4f) == "999999999999999900000");
    CHECK(ecma(0x444b1ae4d6e2ef50) == "1e+21");
    CHECK(ecma(0x3eb0c6f7a0b5ed8c) == "9.999999999999997e-7");
    CHECK(ecma(0x3eb0c6f7a0b5ed8d) == "0.000001");
    CHECK(ecma(0x41b3de4355555553) == "333333333.3333332");
    CHECK(ecma(0x41b3de4355555554) == "333333333.33333325");
    CHECK(ecma(0x41b3de4355555555) == "333333333.3333333");
    CHECK(ecma(0x41b3de4355555556) == "333333333.3333334");
    CHECK(ecma(0x41b3de4355555557) == "333333333.33333343");
    CHECK(ecma(0xbecbf647612f3696) == "-0.0000033333333333333333");
    CHECK(ecma(0x43143ff3c1cb0959) == "1424953923781206.2");
    // NaN and the infinities have no JSON text.
    CHECK(ecma(0x7fffffffffffffff) == "(none)");
    CHECK(ecma(0x7ff0000000000000) == "(none)");
    CHECK(ecma(0xfff0000000000000) == "(none)");
}

TEST_CASE("canonical form: the RFC 8785 example, numbers, escapes and literals") {
    CHECK(agentry::detail::canonical_json(R"({
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
})") == std::string("{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                    "\"string\":\"\xE2\x82\xAC$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"));
}

TEST_CASE("canonical form: members sorted by UTF-16 code units (the RFC 8785 example)") {
    CHECK(agentry::detail::canonical_json(R"({
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
})") == std::string("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xC2\x80\":\"Control\","
                    "\"\xC3\xB6\":\"Latin Small Letter O With Diaeresis\",\"\xE2\x82\xAC\":\"Euro Sign\","
                    "\"\xF0\x9F\x98\x80\":\"Emoji: Grinning Face\",\"\xEF\xAC\xB3\":\"Hebrew Letter Dalet With Dagesh\"}"));
    // Nested objects too; a key that is a prefix of another comes first.
    CHECK(agentry::detail::canonical_json(R"({"b":{"z":1,"y":[{"b":0,"a":0}]},"a":1,"ab":2,"":3})") ==
          std::string(R"({"":3,"a":1,"ab":2,"b":{"y":[{"a":0,"b":0}],"z":1}})"));
}

TEST_CASE("canonical form: strings escape only '\"', '\\' and control characters, as JSON.stringify") {
    CHECK(agentry::detail::canonical_json(R"(["\b\t\n\f\r", "\u0000\u001f\u007f", "\u2028\/\u00e9"])") ==
          std::string("[\"\\b\\t\\n\\f\\r\",\"\\u0000\\u001f\x7F\",\"\xE2\x80\xA8/\xC3\xA9\"]"));
}

TEST_CASE("canonical form: numbers however spelled read as ECMAScript writes them") {
    CHECK(number("1e2") == "100");
    CHECK(number("3e0") == "3");
    CHECK(number("1.0") == "1");
    CHECK(number("10e-1") == "1");
    CHECK(number("250.00") == "250");
    CHECK(number("25000E-2") == "250");
    CHECK(number("0.5") == "0.5");
    CHECK(number("5e-1") == "0.5");
    CHECK(number("-0") == "0");
    CHECK(number("-0.0e5") == "0");
    CHECK(number("0e99999999999999999999") == "0");
    CHECK(number("-12.50") == "-12.5");
    CHECK(number("0.000001") == "0.000001");
    CHECK(number("1e-7") == "1e-7");
    CHECK(number("0.00000012") == "1.2e-7");
    CHECK(number("123e18") == "123000000000000000000");
    CHECK(number("1e21") == "1e+21");
    CHECK(number("1.5E+300") == "1.5e+300");
    CHECK(number("1e23") == "1e+23");
    CHECK(number("100000000000000000000000") == "1e+23");
    CHECK(number("9007199254740992") == "9007199254740992");
    CHECK(number("-9007199254740992") == "-9007199254740992");
    // Not integers: the nearest double, as RFC 8785 writes it (what a reader of doubles gets).
    CHECK(number("333333333.33333329") == "333333333.3333333");
    CHECK(number("0.10000000000000000001") == "0.1");
    CHECK(number("1e-400") == "0");
    CHECK(number("-1e-99999999999999999999") == "0");
}

TEST_CASE("canonical form: an integer a double would change keeps its digits, never another amount") {
    // RFC 8785 would write the nearest doubles: 9007199254740992, 12345678901234567000, none.
    CHECK(number("9007199254740993") == "9007199254740993");
    CHECK(number("9007199254740993.000") == "9007199254740993");
    CHECK(number("-12345678901234567890") == "-12345678901234567890");
    CHECK(number("18446744073709551615") == "18446744073709551615");
    CHECK(number("1234567890123456789012345") == "1.234567890123456789012345e+24");
    // Past the largest double: the reader refuses it, so it has no canonical text, but the
    // number text keeps its digits; with an exponent of 16 digits or more, as written.
    CHECK_FALSE(agentry::detail::canonical_json("[1e400]"));
    const auto huge = [](std::string_view token) {
        std::string out;
        agentry::json::detail::append_canonical_number(out, token);
        return out;
    };
    CHECK(huge("1e400") == "1e+400");
    CHECK(huge("-1.5E400") == "-1.5e+400");
    CHECK(huge("2e9999999999999999") == "2e9999999999999999");
    CHECK(huge("2e-9999999999999999") == "0");
    // Two different integers never share a text, so a decision for one never holds for the other.
    CHECK(agentry::detail::canonical_json(R"({"amount":9007199254740993})") !=
          agentry::detail::canonical_json(R"({"amount":9007199254740992})"));
}

TEST_CASE("canonical form: the canonical text of a canonical text is itself") {
    for (const std::string_view text :
         {R"({"b":[1e2,0.5,1e21,1e-7,-0,333333333.33333329],"a":"\u001f\u20ac","\ud83d\ude00":{},"\uffff":[]})",
          R"([9007199254740993,12345678901234567890,1.5e-400,1e308])"}) {
        const std::optional<std::string> once = agentry::detail::canonical_json(text);
        REQUIRE(once.has_value());
        CHECK(agentry::detail::canonical_json(*once) == once);
    }
}

TEST_CASE("canonical form: what is not one valid JSON value has none") {
    CHECK_FALSE(agentry::detail::canonical_json(R"({"a":)"));
    CHECK_FALSE(agentry::detail::canonical_json(""));
    CHECK_FALSE(agentry::detail::canonical_json(R"({"a":1} x)"));
    CHECK_FALSE(agentry::detail::canonical_json(R"({"a":1,"a":2})"));
    CHECK_FALSE(agentry::detail::canonical_json("[\"\xFF\"]"));
    CHECK_FALSE(agentry::detail::canonical_json(std::string(100, '[') + std::string(100, ']')));  // too deep
}

TEST_CASE("decisions: bound to the arguments' value, in the canonical form of now or of earlier versions") {
    using agentry::detail::same_arguments;
    const std::string_view call = R"({ "nights" : 3, "amount" : 100.0, "note" : "a\nb" })";
    CHECK(same_arguments(R"({"amount":100,"nights":3,"note":"a\nb"})", call));
    CHECK(same_arguments(call, call));
    CHECK(same_arguments(R"({"note":"a\u000ab","amount":1e2,"nights":3})", call));
    // As the earlier canonical form wrote it: numbers as digits and exponent, and the newline
    // unescaped (not JSON).
    CHECK(same_arguments("{\"amount\":1e2,\"nights\":3e0,\"note\":\"a\nb\"}", call));
    // Saved then, compared with a call listed then.
    CHECK(same_arguments("{\"amount\":1e2,\"nights\":3e0,\"note\":\"a\nb\"}",
                         "{\"amount\":1e2,\"nights\":3e0,\"note\":\"a\nb\"}"));
    // Other values.
    CHECK_FALSE(same_arguments(R"({"amount":1e3,"nights":3,"note":"a\nb"})", call));
    CHECK_FALSE(same_arguments("{\"amount\":1e3,\"nights\":3e0,\"note\":\"a\nb\"}", call));
    CHECK_FALSE(same_arguments(R"({"amount":100,"nights":3})", call));
    CHECK_FALSE(same_arguments(R"({"amount":9007199254740992})", R"({"amount":9007199254740993})"));
    CHECK_FALSE(same_arguments("", call));
    CHECK_FALSE(same_arguments(R"({"amount":100})", R"({"amount":100,"amount":100})"));
}
