// SPDX-License-Identifier: BSL-1.0
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

struct search {
    std::string query;
    std::optional<int> limit;
};

int count_results(const search& s) { return int(s.query.size()); }
int by_value(search s) { return int(s.query.size()); }

struct thermostat {
    double target = 20;
    double set(double celsius) { return target = celsius; }
    double read() const { return target; }
};

struct scaler {
    int factor;
    int operator()(int x) const { return x * factor; }
};

} // namespace

TEST_CASE("one aggregate parameter: its fields are the tool's parameters") {
    constexpr auto t = agentry::tool<"count_results", "Count results.">(count_results);
    static_assert(std::is_same_v<decltype(t)::parameters_type, search>);
    static_assert(std::is_same_v<decltype(t)::result_type, int>);
    CHECK(t.name == "count_results");
    CHECK(t.description == "Count results.");
    CHECK(t.parameters_schema() == agentry::json_schema<search>());
    CHECK(t.callable(search{"abc", {}}) == 3);
    constexpr auto v = agentry::tool<"by_value", "By value.">(by_value);
    CHECK(v.parameters_schema() == agentry::json_schema<search>());
}

TEST_CASE("named parameters form an object in declaration order") {
    constexpr auto t = agentry::tool<"add", "Add.", "a", "b">(+[](int a, std::optional<long long> b) {
        return a + (b ? *b : 0);
    });
    CHECK(t.parameters_schema() ==
          R"({"type":"object","properties":{"a":{"type":"integer"},)"
          R"("b":{"type":"integer"}},)"
          R"("required":["a"],"additionalProperties":false})");
    CHECK(t.parameters_schema<agentry::dialect::openai_strict>() ==
          R"({"type":"object","properties":{"a":{"type":"integer"},)"
          R"("b":{"type":["integer","null"]}},)"
          R"("required":["a","b"],"additionalProperties":false})");
    CHECK(t.callable(2, 3) == 5);
}

TEST_CASE("a single named parameter may itself be an aggregate") {
    constexpr auto t = agentry::tool<"wrap", "Wrapped.", "request">(count_results);
    CHECK(t.parameters_schema() ==
          R"({"type":"object","properties":{"request":{"type":"object","properties":{"query":{"type":"string"},)"
          R"("limit":{"type":"integer"}},"required":["query"],)"
          R"("additionalProperties":false}},"required":["request"],"additionalProperties":false})");
}

TEST_CASE("no parameters") {
    constexpr auto t = agentry::tool<"ping", "Ping.">(+[] { return true; });
    CHECK(t.parameters_schema() == R"({"type":"object","properties":{},"additionalProperties":false})");
    CHECK(t.parameters_schema<agentry::dialect::openai_strict>() ==
          R"({"type":"object","properties":{},"required":[],"additionalProperties":false})");
    CHECK(t.callable());
}

TEST_CASE("capturing lambdas, function objects and bound member functions") {
    int offset = 5;
    const auto lambda = agentry::tool<"shift", "Shift.", "x">([offset](int x) { return x + offset; });
    CHECK(lambda.callable(1) == 6);
    const auto object = agentry::tool<"scale", "Scale.", "x">(scaler{3});
    CHECK(object.callable(2) == 6);
    thermostat device;
    const auto setter = agentry::tool<"set_temperature", "Set the target.", "celsius">(&thermostat::set, &device);
    CHECK(setter.callable(21.5) == 21.5);
    CHECK(device.target == 21.5);
    const auto reader = agentry::tool<"read_temperature", "Read the target.">(&thermostat::read, &device);
    CHECK(reader.callable() == 21.5);
    CHECK(setter.parameters_schema() ==
          R"({"type":"object","properties":{"celsius":{"type":"number"}},"required":["celsius"],)"
          R"("additionalProperties":false})");
}

TEST_CASE("the result type is reflected") {
    constexpr auto t = agentry::tool<"find", "Find.">(+[](const search&) { return search{}; });
    CHECK(t.result_schema<agentry::dialect::mcp>() == agentry::json_schema<search, agentry::dialect::mcp>());
    constexpr auto n = agentry::tool<"n", "Number.">(+[] { return 1.5; });
    CHECK(n.result_schema() == R"({"type":"number"})");
}

TEST_CASE("tool names: the characters every provider accepts") {
    using agentry::detail::name_kind;
    using agentry::detail::valid_name;
    static_assert(valid_name("get_weather-2", name_kind::tool));
    static_assert(valid_name("A", name_kind::tool));
    CHECK_FALSE(valid_name("", name_kind::tool));
    CHECK_FALSE(valid_name("get weather", name_kind::tool));
    CHECK_FALSE(valid_name("ns.tool", name_kind::tool));
    CHECK_FALSE(valid_name("x1234567890123456789012345678901234567890123456789012345678901234", name_kind::tool));
    CHECK(valid_name("x123456789012345678901234567890123456789012345678901234567890123", name_kind::tool));
    CHECK(valid_name("page_size", name_kind::parameter));
    CHECK_FALSE(valid_name("1st", name_kind::parameter));
    CHECK_FALSE(valid_name("page-size", name_kind::parameter));
    CHECK_FALSE(valid_name("", name_kind::parameter));
    CHECK(valid_name("_1", name_kind::parameter));
    static_assert(agentry::detail::first_invalid_name<name_kind::parameter, "a", "b-c", "1d">() == 1);
    static_assert(agentry::detail::first_invalid_name<name_kind::parameter, "a", "b">() == 2);
    static_assert(agentry::detail::first_invalid_name<name_kind::tool>() == 0);
}

// What tool<...>(f) checks before anything reads the parameter types: the first value with no
// JSON Schema and the path to it, which its diagnostic names (tests/compile_fail/type_*.cpp).
namespace unsupported_check {

struct named {
    std::string name;
};
struct derived : named {
    int age;
};
struct with_constructor {
    explicit with_constructor(int) {}
};
struct stop {
    std::string name;
    std::optional<std::vector<std::map<std::string, long double>>> when;
};
struct trip {
    std::vector<stop> stops;
    std::variant<int, std::byte> tag;
};
struct good_stop {
    std::string name;
    std::optional<std::vector<std::map<std::string, double>>> when;
};
struct fine {
    std::vector<good_stop> stops;
    std::variant<int, std::string> tag;
};
struct node {
    std::string label;
    std::vector<node> children;
};

using agentry::detail::first_unsupported;
using agentry::detail::unsupported;

static_assert(first_unsupported<trip>::reason == unsupported::other);
static_assert(std::is_same_v<first_unsupported<trip>::type, long double>);
static_assert(first_unsupported<trip>::path.view() == "stops[].when[][]");
static_assert(first_unsupported<std::variant<int, std::byte>>::reason == unsupported::byte);
static_assert(first_unsupported<derived>::reason == unsupported::base_class);
static_assert(first_unsupported<std::optional<derived>>::reason == unsupported::base_class);
static_assert(first_unsupported<std::vector<with_constructor>>::reason == unsupported::not_aggregate);
static_assert(first_unsupported<std::vector<with_constructor>>::path.view() == "[]");
static_assert(first_unsupported<const char*>::reason == unsupported::pointer);
static_assert(first_unsupported<std::optional<std::optional<int>>>::reason == unsupported::nested_optional);
static_assert(first_unsupported<std::map<double, int>>::reason == unsupported::map_key);
static_assert(first_unsupported<char>::reason == unsupported::character);
static_assert(first_unsupported<fine>::reason == unsupported::none);
static_assert(first_unsupported<node>::reason == unsupported::none);  // recursion is bounded
static_assert(first_unsupported<named>::reason == unsupported::none);
using named_params = agentry::named_parameters<agentry::reflect::type_list<int, const stop&>, "count", "at">;
static_assert(first_unsupported<named_params>::path.view() == "at.when[][]");

// A function object with a const operator() is a tool; one that changes itself is refused.
struct counter {
    int operator()(int by) { return by; }
};
static_assert(agentry::detail::const_callable<scaler, agentry::reflect::type_list<int>>);
static_assert(!agentry::detail::const_callable<counter, agentry::reflect::type_list<int>>);
static_assert(agentry::detail::problem_of<counter, "by">() == agentry::detail::parameter_problem::mutable_callable);
static_assert(agentry::detail::problem_of<int (*)(int, int)>() == agentry::detail::parameter_problem::form);
static_assert(agentry::detail::problem_of<int (*)(const trip&)>() == agentry::detail::parameter_problem::type);
static_assert(agentry::detail::problem_of<int (*)(const fine&)>() == agentry::detail::parameter_problem::none);

} // namespace unsupported_check
