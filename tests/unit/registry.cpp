// SPDX-License-Identifier: BSL-1.0
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>

namespace {

struct lookup {
    std::string key;
};

struct entry {
    std::string key;
    int value;
};

entry find(const lookup& l) { return {l.key, 1}; }

constexpr agentry::registry tools{
    agentry::tool<"find", "Find an entry.">(find),
    agentry::tool<"ping", "Ping.">(+[] { return std::string("pong"); }),
};

constexpr std::string_view lookup_schema =
    R"({"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false})";

// The same tools, one taking the call's run id and call id besides its parameters.
entry keyed_find(agentry::call_info info, const lookup& l) {
    return {l.key + "@" + std::string(info.run_id) + "/" + std::string(info.call_id), 1};
}

constexpr agentry::registry keyed_tools{
    agentry::tool<"find", "Find an entry.">(keyed_find),
    agentry::tool<"ping", "Ping.">(+[](const agentry::call_info&) { return std::string("pong"); }),
};

} // namespace

TEST_CASE("call_info: the schema and definitions are those of the same tools without it") {
    using plain = std::remove_cvref_t<decltype(boost::hana::at_c<0>(tools.tools()))>;
    using keyed = std::remove_cvref_t<decltype(boost::hana::at_c<0>(keyed_tools.tools()))>;
    static_assert(std::is_same_v<keyed::parameters_type, plain::parameters_type>);
    static_assert(keyed::injects);
    static_assert(std::is_void_v<decltype(keyed_tools)::context_type>);
    CHECK(keyed_tools.definitions<agentry::dialect::standard>() == tools.definitions<agentry::dialect::standard>());
    CHECK(keyed_tools.definitions<agentry::dialect::openai_strict>() ==
          tools.definitions<agentry::dialect::openai_strict>());
    CHECK(keyed_tools.definitions<agentry::dialect::mcp>() == tools.definitions<agentry::dialect::mcp>());
    CHECK(keyed_tools.definitions<agentry::dialect::gemini>() == tools.definitions<agentry::dialect::gemini>());
}

TEST_CASE("call_info: registry::call passes the scope's ids to the tool") {
    agentry::call_scope scope;
    scope.run_id = "r1";
    scope.call_id = "c1";
    CHECK(keyed_tools.call("find", R"({"key":"k"})", {.scope = scope}).content == R"({"key":"k@r1/c1","value":1})");
    CHECK(keyed_tools.call("find", R"({"key":"k"})").content == R"({"key":"k@/","value":1})");
    CHECK(keyed_tools.call("ping", "{}", {.scope = scope}).content == "pong");
}

TEST_CASE("names and size") {
    static_assert(decltype(tools)::size() == 2);
    CHECK(tools.names[0] == "find");
    CHECK(tools.names[1] == "ping");
    CHECK(boost::hana::at_c<0>(tools.tools()).callable(lookup{"k"}).value == 1);
}

TEST_CASE("call with .index: the tool found once, called by its index") {
    const std::size_t index = decltype(tools)::find("find");
    REQUIRE(index == 0);
    const agentry::tool_result r = tools.call("find", R"({"key":"k"})", {.index = index});
    CHECK(r.ok());
    CHECK(r.content == R"({"key":"k","value":1})");
    CHECK(r.content == tools.call("find", R"({"key":"k"})").content);
    CHECK(tools.call("ping", "{}", {.index = decltype(tools)::find("ping")}).content == "pong");
    CHECK(tools.call("find", R"({"key":1})", {.index = index}).status == agentry::tool_status::invalid_arguments);
    // The name is not looked up again: the index decides.
    CHECK(tools.call("ping", R"({"key":"k"})", {.index = index}).content == r.content);
    // An index of size() or more is an unknown tool, answered with the name given.
    const agentry::tool_result unknown = tools.call("fnd", "{}", {.index = decltype(tools)::size()});
    CHECK(unknown.status == agentry::tool_status::unknown_tool);
    CHECK(unknown.content == tools.call("fnd", "{}").content);
    CHECK(unknown.content.starts_with(R"(unknown tool "fnd" (did you mean "find"?))"));
    CHECK(tools.call("", "{}", {.index = 9}).status == agentry::tool_status::unknown_tool);
}

TEST_CASE("OpenAI payload") {
    // Without strict mode: no "strict" key (false is the API's default) and no closed objects.
    CHECK(tools.definitions<agentry::dialect::openai>() ==
          R"([{"type":"function","function":{"name":"find","description":"Find an entry.","parameters":)"
          R"({"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}}},)"
          R"({"type":"function","function":{"name":"ping","description":"Ping.","parameters":)"
          R"({"type":"object","properties":{}}}}])");
    CHECK(tools.definitions<agentry::dialect::openai_strict>().find(R"("strict":true}})") != std::string_view::npos);
}

TEST_CASE("Anthropic payload") {
    CHECK(tools.definitions<agentry::dialect::anthropic>() ==
          std::string(R"([{"name":"find","description":"Find an entry.","input_schema":)") +
              std::string(lookup_schema) +
              R"(},{"name":"ping","description":"Ping.","input_schema":)"
              R"({"type":"object","properties":{},"additionalProperties":false}}])");
    CHECK(tools.definitions<agentry::dialect::anthropic_strict>().ends_with(R"(,"strict":true}])"));
}

TEST_CASE("Gemini payload: one functionDeclarations list, no parameters for ping") {
    CHECK(tools.definitions<agentry::dialect::gemini>() ==
          R"([{"functionDeclarations":[{"name":"find","description":"Find an entry.","parameters":)"
          R"({"type":"OBJECT","properties":{"key":{"type":"STRING"}},"required":["key"]}},)"
          R"({"name":"ping","description":"Ping."}]}])");
}

TEST_CASE("MCP tools/list entries: outputSchema for object results only") {
    CHECK(tools.definitions<agentry::dialect::mcp>() ==
          std::string(R"([{"name":"find","description":"Find an entry.","inputSchema":)") +
              std::string(lookup_schema) +
              R"(,"outputSchema":{"type":"object","properties":{"key":{"type":"string"},)"
              R"("value":{"type":"integer"}},)"
              R"("required":["key","value"],"additionalProperties":false}},)"
              R"({"name":"ping","description":"Ping.","inputSchema":)"
              R"({"type":"object","properties":{},"additionalProperties":false}}])");
}

TEST_CASE("standard payload and an empty registry") {
    CHECK(tools.definitions().starts_with(R"([{"name":"find","description":"Find an entry.","parameters":{)"));
    constexpr agentry::registry<> none{};
    CHECK(none.definitions() == "[]");
    CHECK(none.definitions<agentry::dialect::gemini>() == R"([{"functionDeclarations":[]}])");
}

TEST_CASE("a registry of capturing tools is an ordinary const object") {
    int base = 10;
    const agentry::registry local{agentry::tool<"offset", "Offset.", "x">([base](int x) { return x + base; })};
    CHECK(boost::hana::at_c<0>(local.tools()).callable(5) == 15);
    CHECK(local.definitions<agentry::dialect::anthropic>().find(R"("name":"offset")") != std::string_view::npos);
}

// ---- calls --------------------------------------------------------------------------------

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

enum class unit { celsius, fahrenheit };

struct forecast_query {
    std::string city;
    std::optional<unit> units = unit::celsius;
    agentry::in_range<int, 1, 14> days = 1;
};

struct forecast {
    std::string city;
    std::vector<double> highs;
    unit units;
};

forecast get_forecast(const forecast_query& q) {
    if (q.city == "Atlantis") throw std::runtime_error("no weather station in Atlantis");
    return {q.city, std::vector<double>(std::size_t(q.days.value), 20.5), *q.units};
}

struct counter {
    std::atomic<int> calls{0};
    int bump(int by) { return calls += by; }
};

counter shared_counter;

constexpr agentry::registry service{
    agentry::tool<"get_forecast", "Forecast for a city.">(get_forecast),
    agentry::tool<"add", "Add two integers.", "a", "b">(+[](int a, int b) { return a + b; }),
    agentry::tool<"shout", "Upper-case a text.", "text">(+[](std::string text) {
        for (char& c : text) c = char(c >= 'a' && c <= 'z' ? c - 32 : c);
        return text;
    }),
    agentry::tool<"forget", "Returns nothing.">(+[] {}),
    agentry::tool<"fail", "Throws something that is not a std::exception.">(+[]() -> int { throw 42; }),
};

} // namespace

TEST_CASE("call: a valid call returns the result as JSON") {
    const auto r = service.call("get_forecast", R"({"city":"Oslo","days":2})");
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(r.ok());
    CHECK(r.content == R"({"city":"Oslo","highs":[20.5,20.5],"units":"celsius"})");
    CHECK(r.errors.empty());
    CHECK_FALSE(r.truncated);
    CHECK(service.call("add", R"({"a":2,"b":40})").content == "42");
    CHECK(service.call("forget", "{}").content == "null");
}

TEST_CASE("call: a std::string result is the content as it is") {
    CHECK(service.call("shout", R"({"text":"quiet \"please\""})").content == "QUIET \"PLEASE\"");
}

TEST_CASE("call: invalid arguments give one actionable message") {
    const auto r = service.call("get_forecast", R"({"units":"kelvin","days":20})");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content ==
          "get_forecast: invalid arguments: /units: \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]; "
          "/days: must be at most 14; /city: missing required property. Fix the arguments and call "
          "get_forecast again.");
    REQUIRE(r.errors.size() == 3);
    CHECK(r.errors[2].pointer == "/city");
}

TEST_CASE("call: an unknown tool lists the names, with a suggestion") {
    const auto r = service.call("get_forcast", "{}");
    CHECK(r.status == agentry::tool_status::unknown_tool);
    CHECK(r.content == "unknown tool \"get_forcast\" (did you mean \"get_forecast\"?). Available tools: "
                       "get_forecast, add, shout, forget, fail.");
    CHECK(service.call("", "{}").content ==
          "unknown tool \"\". Available tools: get_forecast, add, shout, forget, fail.");
    // A name that is not UTF-8 is shown with its bytes escaped, and cut.
    CHECK(service.call("get\xff\x01", "{}").content.starts_with("unknown tool \"get\\xFF\\x01\". Available"));
    CHECK(service.call(std::string(100, 'q'), "{}").content.starts_with("unknown tool \"" + std::string(64, 'q') + "...\""));
}

TEST_CASE("call: a message that ends with a question is not followed by a stray full stop") {
    const auto r = service.call("get_forecast", R"({"city":"Oslo","days":2,"unitz":"celsius"})");
    CHECK(r.content == "get_forecast: invalid arguments: /unitz: unknown property; did you mean \"units\"? Fix the "
                       "arguments and call get_forecast again.");
    CHECK(service.call("add", "not json").content ==
          "add: invalid arguments: invalid JSON at byte 0: unexpected character. Fix the arguments and call add again.");
}

TEST_CASE("call: exceptions become tool_error with their message") {
    const auto r = service.call("get_forecast", R"({"city":"Atlantis","days":1})");
    CHECK(r.status == agentry::tool_status::tool_error);
    CHECK(r.content == "get_forecast failed: no weather station in Atlantis");
    CHECK(service.call("fail", "{}").content == "fail failed with an exception that is not a std::exception");
}

TEST_CASE("call: lookup is by exact name through the compile-time table") {
    static_assert(decltype(service)::find("get_forecast") == 0);
    static_assert(decltype(service)::find("fail") == 4);
    static_assert(decltype(service)::find("Fail") == 5);
    static_assert(decltype(service)::find("get_forecast ") == 5);
    CHECK(decltype(service)::find(std::string(1000, 'x')) == 5);
}

TEST_CASE("call: results are capped at 64 KiB by default, though the writer's default is no cap") {
    constexpr agentry::registry big{
        agentry::tool<"big", "A large result.">(+[] { return std::vector<std::string>(20000, "0123456789"); })};
    const auto r = big.call("big", "{}");
    CHECK(r.truncated);
    CHECK(r.content.size() <= 64 * 1024);
    CHECK(r.content.size() > 64 * 1024 - 100);
    CHECK(r.content.ends_with("[truncated: the result exceeded the limit of 65536 bytes]"));
    const auto whole = big.with_options({.max_result_size = 0}).call("big", "{}");
    CHECK_FALSE(whole.truncated);
    CHECK(whole.content.size() == 2 + 20000 * 13 - 1);
}

TEST_CASE("call: options cap results and allow repairs, per registry and per tool") {
    const auto capped = service.with_options({.max_result_size = 30});
    const auto r = capped.call("get_forecast", R"({"city":"Oslo","days":14})");
    CHECK(r.truncated);
    CHECK(r.content.size() <= 80);
    CHECK(r.content.find("[truncated") != std::string::npos);
    agentry::call_options lenient;
    lenient.arguments.repairs.number_in_string = true;
    const auto repaired = service.with_options(lenient).call("add", R"({"a":"2","b":40})");
    CHECK(repaired.content == "42");
    CHECK(repaired.repairs == std::vector<std::string>{"/a: a number sent as a string was read as a number"});
    const agentry::registry own{
        agentry::tool<"add", "Add.", "a", "b">(+[](int a, int b) { return a + b; })
            .with_repairs({.number_in_string = true})};
    CHECK(own.call("add", R"({"a":"1","b":"2"})").content == "3");
    CHECK(service.call("add", R"({"a":"2","b":40})").status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("call: member functions and safe use from several threads") {
    const agentry::registry bound{agentry::tool<"bump", "Add to the counter.", "by">(&counter::bump, &shared_counter)};
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t != 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i != 250; ++i) {
                ok += bound.call("bump", R"({"by":1})").ok();
                ok += service.call("get_forecast", R"({"city":"Rome","days":3})").ok();
            }
        });
    for (auto& t : threads) t.join();
    CHECK(ok == 2000);
    CHECK(shared_counter.calls == 1000);
}

// ---- more tools than a fold expression may have operands (Clang: 256) ----------------------

#include <cstddef>
#include <utility>

namespace {

constexpr std::size_t many = 300;

/// "n0", "n1", ..., "n299".
template <std::size_t I>
constexpr auto numbered = [] {
    constexpr std::size_t digits = I < 10 ? 1 : I < 100 ? 2 : 3;
    agentry::fixed_string<1 + digits> name;
    name.value[0] = 'n';
    for (std::size_t k = digits, v = I; k != 0; --k, v /= 10) name.value[k] = char('0' + v % 10);
    return name;
}();

int negate(int x) { return -x; }

constexpr auto numbered_tools = []<std::size_t... I>(std::index_sequence<I...>) {
    return agentry::registry{agentry::tool<numbered<I>, "Negates x.", "x">(negate)...};
}(std::make_index_sequence<many>{});

} // namespace

TEST_CASE("300 tools: lookup at run time and definitions") {
    using numbered_type = decltype(numbered_tools);
    static_assert(numbered_type::find("n299") == 299);
    for (std::size_t i = 0; i != many; ++i) CHECK(numbered_type::find(std::string(numbered_type::names[i])) == i);
    CHECK(numbered_type::find(std::string("n300")) == many);
    CHECK(numbered_type::find(std::string("n2990")) == many);
    const std::string_view definitions = numbered_tools.definitions();
    CHECK(definitions.starts_with(R"([{"name":"n0","description":"Negates x.","parameters":{"type":"object",)"));
    CHECK(definitions.ends_with(R"(},{"name":"n299","description":"Negates x.","parameters":)"
                                R"({"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],)"
                                R"("additionalProperties":false}}])"));
}

// The README quick start's tools, called as each dialect's definitions ask the model to leave
// out an optional parameter: left out, or (every property required) sent as null.
namespace quick_start {

enum class temperature_unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<temperature_unit> unit;
};

struct weather {
    double temperature;
    std::string condition;
};

weather get_weather(const weather_query& q) { return {18.5, q.city == "Paris" ? "rain" : "sun"}; }

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city.">(get_weather),
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
};

// How the definitions of D tell the model to leave out `unit`, read from the definitions.
template <class D>
std::string omitted_unit_arguments() {
    const std::string_view definitions = tools.definitions<D>();
    const bool required = definitions.find(R"("required":["city","unit"])") != std::string_view::npos;
    const bool nullable = definitions.find(R"("type":["string","null"])") != std::string_view::npos;
    CHECK(required == D::rules.all_required);
    CHECK(nullable == D::rules.all_required);
    return required ? R"({"city":"Paris","unit":null})" : R"({"city":"Paris"})";
}

template <class D>
void check_dialect() {
    INFO("dialect ", D::rules.name);
    const std::string arguments = omitted_unit_arguments<D>();
    for (const agentry::tool_result& r :
         {tools.call("get_weather", arguments), tools.call<D>("get_weather", arguments)}) {
        CHECK(r.status == agentry::tool_status::ok);
        CHECK(r.content == R"({"temperature":18.5,"condition":"rain"})");
    }
    const agentry::tool_result bad = tools.call<D>("get_weather", R"({"city":"Paris","unit":"kelvin"})");
    CHECK(bad.status == agentry::tool_status::invalid_arguments);
}

} // namespace quick_start

TEST_CASE("call: the quick start in every dialect, with that dialect's way of leaving out an optional") {
    quick_start::check_dialect<agentry::dialect::standard>();
    quick_start::check_dialect<agentry::dialect::openai>();
    quick_start::check_dialect<agentry::dialect::openai_strict>();
    quick_start::check_dialect<agentry::dialect::anthropic>();
    quick_start::check_dialect<agentry::dialect::anthropic_strict>();
    quick_start::check_dialect<agentry::dialect::gemini>();
    quick_start::check_dialect<agentry::dialect::mcp>();
}

TEST_CASE("call<D>: null for an optional is an error where D's definitions do not allow it") {
    constexpr std::string_view with_null = R"({"city":"Paris","unit":null})";
    const agentry::tool_result r = quick_start::tools.call<agentry::dialect::anthropic>("get_weather", with_null);
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].to_string() == "/unit: must not be null; leave the property out, or give a string");
    // The registry's own options may still accept it.
    const auto lenient = quick_start::tools.with_options({.arguments = {.null_as_absent = true}});
    CHECK(lenient.call<agentry::dialect::anthropic>("get_weather", with_null).ok());
    // A required parameter is never null, whatever the dialect.
    const agentry::tool_result required = quick_start::tools.call<agentry::dialect::openai_strict>(
        "get_weather", R"({"city":null,"unit":null})");
    CHECK(required.status == agentry::tool_status::invalid_arguments);
    CHECK(quick_start::tools.call<agentry::dialect::openai_strict>("nope", "{}").status ==
          agentry::tool_status::unknown_tool);
}
