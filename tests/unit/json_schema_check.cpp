// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/schema_check.hpp>

#include <agentry/json/reader.hpp>
#include <agentry/schema/json_schema.hpp>

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

using agentry::json::error_kind;
using agentry::json::parse;
using agentry::json::schema_checker;
using agentry::json::value;

namespace {

value json(std::string_view text) {
    auto r = parse(text);
    REQUIRE_MESSAGE(r.ok(), std::string(text));
    return std::move(r.value);
}

std::string errors_text(const std::vector<agentry::json::read_error>& errors) {
    std::string out;
    for (const auto& e : errors) {
        if (!out.empty()) out += " | ";
        out += e.to_string();
    }
    return out;
}

std::string check(std::string_view schema, std::string_view instance) {
    return errors_text(agentry::json::check_schema(json(schema), json(instance)));
}

struct weather {
    agentry::constrained<std::string, agentry::pattern<"^[A-Z]{3}$">> code;
    agentry::constrained<int, agentry::minimum<1>, agentry::maximum<10>> days;
    std::optional<agentry::constrained<std::string, agentry::format<agentry::string_format::date>>> from;
};

} // namespace

TEST_CASE("schema check: type, with the reader's messages") {
    CHECK(check(R"({"type":"string"})", R"("x")") == "");
    CHECK(check(R"({"type":"string"})", "12") == "expected a string, got a number 12");
    CHECK(check(R"({"type":"integer"})", "1.0") == "");
    CHECK(check(R"({"type":"integer"})", "1e2") == "");
    CHECK(check(R"({"type":"integer"})", "1.5") == "expected an integer, got a number 1.5");
    CHECK(check(R"({"type":"number"})", "null") == "must not be null; expected a number");
    CHECK(check(R"({"type":["string","null"]})", "null") == "");
    CHECK(check(R"({"type":["string","integer"]})", "{\"a\":1}") ==
          R"(expected a string or an integer, got an object {"a":1})");
    CHECK(check(R"({"type":"boolean"})", "[true]") == "expected a boolean, got an array [true]");
    CHECK(check("true", R"({"anything":[1]})") == "");
    CHECK(check("false", "1") == "no value is allowed here (the schema is false)");
}

TEST_CASE("schema check: objects") {
    const std::string_view schema = R"({"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},
                                        "required":["city","country"],"additionalProperties":false})";
    CHECK(check(schema, R"({"city":"Paris","country":"FR"})") == "/country: unknown property; allowed: city, days");
    CHECK(check(schema, R"({"city":"Paris","dayz":3})") ==
          "/country: missing required property | /dayz: unknown property; did you mean \"days\"?");
    CHECK(check(schema, R"({"city":1,"days":"3"})") ==
          "/country: missing required property | /city: expected a string, got a number 1 | /days: expected an "
          "integer, got a string \"3\"");
    CHECK(check(R"({"additionalProperties":{"type":"number"}})", R"({"a":1,"b":"x"})") ==
          "/b: expected a number, got a string \"x\"");
    CHECK(check(R"({"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false})",
                R"({"x-a":"1","x-b":2,"y":0})") ==
          "/x-b: expected a string, got a number 2 | /y: unknown property; allowed: none");
    CHECK(check(R"({"properties":{"a/b":{"properties":{"~":{"type":"null"}}}}})", R"({"a/b":{"~":1}})") ==
          "/a~1b/~0: expected null, got a number 1");
}

TEST_CASE("schema check: numbers, on their exact decimal values") {
    CHECK(check(R"({"minimum":1})", "0.999") == "must be at least 1");
    CHECK(check(R"({"minimum":1})", "1.0") == "");
    CHECK(check(R"({"exclusiveMinimum":0.1})", "0.1") == "must be greater than 0.1");
    CHECK(check(R"({"exclusiveMinimum":0.1})", "0.1000000000000000001") == "");
    CHECK(check(R"({"maximum":18446744073709551615})", "18446744073709551616") ==
          "must be at most 18446744073709551615");
    CHECK(check(R"({"exclusiveMaximum":10})", "10") == "must be less than 10");
    CHECK(check(R"({"multipleOf":0.01})", "19.99") == "");
    CHECK(check(R"({"multipleOf":0.01})", "19.999") == "must be a multiple of 0.01");
    CHECK(check(R"({"multipleOf":0.0001})", "0.0075") == "");
    CHECK(check(R"({"minimum":5,"type":"integer"})", R"("text")") == "expected an integer, got a string \"text\"");
    CHECK(check(R"({"minimum":5})", R"("text")") == "");  // a number keyword: other types pass
}

TEST_CASE("schema check: strings, lengths in code points, pattern, format") {
    CHECK(check(R"({"minLength":2})", "\"\xC3\xA9\"") == "must be at least 2 characters long");
    CHECK(check(R"({"maxLength":1})", "\"\xC3\xA9\"") == "");
    CHECK(check(R"({"maxLength":1})", R"("ab")") == "must be at most 1 character long");
    CHECK(check(R"({"pattern":"^[A-Z]{3}$"})", R"("CDG")") == "");
    CHECK(check(R"({"pattern":"^[A-Z]{3}$"})", R"("cdg")") == "must match the regular expression ^[A-Z]{3}$");
    CHECK(check(R"({"pattern":"\\p{Lu}"})", "\"\xC3\x89t\xC3\xA9\"") == "");  // É
    CHECK(check(R"({"pattern":"^\\d+$"})", "\"\xD9\xA3\"") ==
          "must match the regular expression ^\\d+$");  // Arabic-Indic three is not \d
    CHECK(check(R"({"pattern":"^(a+)+$"})", R"("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab")") ==
          "could not be checked against the regular expression ^(a+)+$: the match needs more than 1000000 steps; "
          "send a shorter or simpler value");
    CHECK(check(R"x({"pattern":"(?i:a)"})x", R"("a")").starts_with(
        "could not be checked against the regular expression (?i:a): the schema's pattern is not a valid ECMA-262 "
        "regular expression ("));
    CHECK(check(R"({"format":"date"})", R"("2024-02-29")") == "");
    CHECK(check(R"({"format":"date"})", R"("2023-02-29")") == "must be a valid date");
    CHECK(check(R"({"format":"email"})", R"("a@b.example")") == "");
    CHECK(check(R"({"format":"email"})", R"("nobody")") == "must be a valid email");
    CHECK(check(R"({"format":"ipv4"})", R"("256.1.1.1")") == "must be a valid ipv4");
    CHECK(check(R"({"format":"uuid"})", R"("3e4666bf-d5e5-4aa7-b8ce-cefe41c7568a")") == "");
    CHECK(check(R"({"format":"date-time"})", R"("2024-01-01T10:00:00Z")") == "");
    CHECK(check(R"({"format":"something-else"})", R"("anything")") == "");  // not checked
}

TEST_CASE("schema check: arrays") {
    CHECK(check(R"({"minItems":2})", "[1]") == "must have at least 2 items");
    CHECK(check(R"({"maxItems":1})", "[1,2]") == "must have at most 1 item");
    CHECK(check(R"({"uniqueItems":true})", R"([1,{"a":[1]},"x",{"a":[1.0]},1.0])") ==
          "items must be unique; items 1 and 3 are equal");
    CHECK(check(R"({"uniqueItems":true})", R"([1,"1",[1],{"1":1},true,null,0.5,"0.5"])") == "");
    CHECK(check(R"({"items":{"type":"integer"}})", R"([1,"two",3,4.5])") ==
          "/1: expected an integer, got a string \"two\" | /3: expected an integer, got a number 4.5");
    CHECK(check(R"({"prefixItems":[{"type":"string"}],"items":{"type":"integer"}})", R"(["a",1,"b"])") ==
          "/2: expected an integer, got a string \"b\"");
    CHECK(check(R"({"prefixItems":[{"type":"string"}],"items":false})", R"(["a",1])") ==
          "/1: no value is allowed here (the schema is false)");
}

TEST_CASE("schema check: enum and const") {
    CHECK(check(R"({"enum":["celsius","fahrenheit"]})", R"("kelvin")") ==
          R"("kelvin" is not one of ["celsius","fahrenheit"])");
    CHECK(check(R"({"enum":[1,{"a":[2]}]})", R"({"a":[2.0]})") == "");
    CHECK(check(R"({"const":{"b":1,"a":2}})", R"({"a":2,"b":1})") == "");
    CHECK(check(R"({"const":0})", "false") == "must be 0");
}

TEST_CASE("schema check: anyOf, oneOf, allOf, not") {
    const std::string_view any = R"({"anyOf":[{"type":"string","minLength":3},{"type":"integer","minimum":0}]})";
    CHECK(check(any, R"("abc")") == "");
    CHECK(check(any, "5") == "");
    CHECK(check(any, "-1") == "matches none of the allowed forms; as anyOf/0: expected a string, got a number -1; "
                              "as anyOf/1: must be at least 0");
    CHECK(errors_text(agentry::json::check_schema(json(any), json("-1"))).find("anyOf") != std::string::npos);
    CHECK(agentry::json::check_schema(json(any), json("-1"))[0].kind == error_kind::no_alternative);
    const std::string_view one = R"({"oneOf":[{"type":"integer"},{"minimum":2}]})";
    CHECK(check(one, "1") == "");
    CHECK(check(one, "2.5") == "");
    CHECK(check(one, "3") ==
          "matches more than one of the allowed forms (oneOf/0 and oneOf/1); exactly one must match");
    CHECK(check(R"({"anyOf":[{"required":["a"]},{"required":["b"]}]})", "{}") ==
          "matches none of the allowed forms; as anyOf/0: missing /a; as anyOf/1: missing /b");
    CHECK(check(R"({"allOf":[{"minimum":1},{"maximum":3}]})", "4") == "must be at most 3");
    CHECK(check(R"({"not":{"type":"null"}})", "null") == "must not match the schema under \"not\"");
    CHECK(check(R"({"not":{"type":"null"}})", "0") == "");
}

TEST_CASE("schema check: $ref inside the schema") {
    const std::string_view schema = R"({"$defs":{"stop":{"type":"object","properties":{"city":{"$ref":"#/$defs/city"},
        "next":{"$ref":"#/$defs/stop"}},"required":["city"]},"city":{"type":"string","minLength":1},
        "a/b":{"type":"null"}},"properties":{"first":{"$ref":"#/$defs/stop"},"slash":{"$ref":"#/$defs/a~1b"},
        "tree":{"$ref":"#"}}})";
    CHECK(check(schema, R"({"first":{"city":"A","next":{"city":"B","next":{"city":""}}}})") ==
          "/first/next/next/city: must be at least 1 character long");
    CHECK(check(schema, R"({"first":{"next":{"city":"B"}}})") == "/first/city: missing required property");
    CHECK(check(schema, R"({"slash":1})") == "/slash: expected null, got a number 1");
    CHECK(check(schema, R"({"tree":{"tree":{"first":{}}}})") == "/tree/tree/first/city: missing required property");
    CHECK(check(R"({"$ref":"#/$defs/missing"})", "1") ==
          "the schema's $ref \"#/$defs/missing\" cannot be checked: only references inside the schema (\"#\", "
          "\"#/$defs/name\") are supported");
    CHECK(check(R"({"$ref":"https://example.com/s.json"})", "1").starts_with("the schema's $ref"));
    // A reference to itself with nothing consumed stops at max_depth.
    const auto loop = agentry::json::check_schema(json(R"({"$ref":"#"})"), json("1"));
    REQUIRE(loop.size() == 1);
    CHECK(loop[0].kind == error_kind::too_deep);
}

TEST_CASE("schema check: errors stop at max_errors") {
    std::string instance = "[";
    for (int i = 0; i != 50; ++i) instance += i == 0 ? "\"x\"" : ",\"x\"";
    instance += "]";
    const auto errors = agentry::json::check_schema(json(R"({"items":{"type":"integer"}})"), json(instance));
    REQUIRE(errors.size() == 33);
    CHECK(errors.back().kind == error_kind::too_many_errors);
    agentry::json::schema_check_options one;
    one.max_errors = 1;
    CHECK(agentry::json::check_schema(json(R"({"items":{"type":"integer"}})"), json(instance), one).size() == 2);
}

TEST_CASE("schema check: a checker is made once and used many times") {
    const schema_checker checker(json(R"({"properties":{"code":{"pattern":"^[A-Z]{3}$"}}})"));
    CHECK(checker(json(R"({"code":"CDG"})")).empty());
    CHECK(errors_text(checker(json(R"({"code":"cdg"})"))) == "/code: must match the regular expression ^[A-Z]{3}$");
    REQUIRE(checker.find_pattern("^[A-Z]{3}$") != nullptr);
    CHECK(checker.find_pattern("^[A-Z]{3}$")->compiled.has_value());
    CHECK(checker.find_pattern("other") == nullptr);
}

TEST_CASE("schema check: agrees with the typed reader on a struct's schema") {
    const schema_checker checker(json(agentry::json_schema<weather>()));
    for (std::string_view text : {R"({"code":"CDG","days":3,"from":"2024-05-01"})",
                                  R"({"code":"cdg","days":0,"from":"2024-02-30"})",
                                  R"({"code":"CDG","days":11,"from":null,"extra":1})", R"({"days":"3"})"}) {
        INFO(std::string(text));
        const auto typed = agentry::json::read<weather>(text);
        const auto checked = checker(json(text));
        CHECK(typed.ok() == checked.empty());
        std::set<std::string> typed_at, checked_at;
        for (const auto& e : typed.errors) typed_at.insert(e.pointer);
        for (const auto& e : checked) checked_at.insert(e.pointer);
        CHECK(typed_at == checked_at);
    }
}
