// SPDX-License-Identifier: BSL-1.0
// The customisation point (agentry::adapter) and the types built on it or beside it:
// std::chrono, std::filesystem::path, std::string_view, std::pair / std::tuple, std::list /
// std::deque, maps with integer or enum keys, agentry::outcome results, field_defaults.
#include <agentry/registry.hpp>
#include <agentry/schema/adapters/filesystem.hpp>

#include <boost/describe/enum.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <complex>
#include <deque>
#include <filesystem>
#include <list>
#include <map>
#include <optional>
#include <ratio>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace {

using namespace std::chrono_literals;
namespace json = agentry::json;

// ---- a type this file does not own, mapped through adapter<T> -------------------------------

struct complex_json {
    double re;
    double im;
    static constexpr auto docs = agentry::field_docs("re", "Real part", "im", "Imaginary part");
};

} // namespace

template <>
struct agentry::adapter<std::complex<double>> {
    using json_type = complex_json;
    static constexpr std::string_view description = "A complex number";
    static complex_json to_json(const std::complex<double>& c) { return {c.real(), c.imag()}; }
    static std::complex<double> from_json(const complex_json& j) { return {j.re, j.im}; }
};

namespace vendor {
// Stands for a third-party aggregate: described from outside, not edited.
struct page {
    int number;
    std::optional<int> size = 20;
};
// A described enum: names from its descriptors, values far outside -128..127, an alias.
enum class status { ok = 200, created = 201, not_found = 404, missing = 404, minus = -30000 };
BOOST_DESCRIBE_ENUM(status, ok, created, not_found, missing, minus)
// Stands for a third-party class with an invariant: from_json refuses what breaks it.
class even {
public:
    even() = default;
    explicit even(int v) : v_(v) {}
    int value() const { return v_; }

private:
    int v_ = 0;
};
} // namespace vendor

template <>
struct agentry::adapter<vendor::page> {
    static constexpr std::string_view description = "A page of results";
    static constexpr auto docs = agentry::field_docs("number", "Page number, from 1");
    static constexpr auto defaults = agentry::field_defaults("size", 20);
};

template <>
struct agentry::adapter<vendor::even> {
    using json_type = agentry::constrained<int, agentry::minimum<0>>;
    static json_type to_json(const vendor::even& e) { return {e.value()}; }
    static agentry::outcome<vendor::even> from_json(json_type v) {
        if (v.value % 2 != 0) return agentry::fail(agentry::failure_kind::invalid_input, "must be even");
        return vendor::even(v.value);
    }
};

namespace {

struct shape_query {
    std::complex<double> z;
    vendor::page page;
    std::optional<vendor::even> step;
};

TEST_CASE("adapter: a mapped type has its json_type's schema, reader and writer") {
    CHECK(agentry::json_schema<std::complex<double>>() ==
          R"({"type":"object","properties":{"re":{"type":"number","description":"Real part"},"im":{"type":"number","description":"Imaginary part"}},"required":["re","im"],"additionalProperties":false,"description":"A complex number"})");
    const auto r = json::read<shape_query>(R"({"z":{"re":1.5,"im":-2},"page":{"number":3},"step":4})");
    REQUIRE(r.ok());
    CHECK(r.value.z == std::complex<double>(1.5, -2));
    CHECK(r.value.page.number == 3);
    CHECK(r.value.page.size == 20);
    CHECK(r.value.step->value() == 4);
    CHECK(json::to_json(r.value) == R"({"z":{"re":1.5,"im":-2},"page":{"number":3,"size":20},"step":4})");
}

TEST_CASE("adapter: docs, description and defaults of a type not owned") {
    constexpr std::string_view s = agentry::json_schema<vendor::page>();
    CHECK(s == R"({"type":"object","properties":{"number":{"type":"integer","description":"Page number, from 1"},"size":{"type":"integer","default":20}},"required":["number"],"additionalProperties":false,"description":"A page of results"})");
    constexpr std::string_view g = agentry::json_schema<vendor::page, agentry::dialect::gemini>();
    CHECK(g.find(R"("description":"Default: 20.")") != std::string_view::npos);
}

TEST_CASE("adapter: a failed outcome from from_json is a read error at the value") {
    const auto odd = json::read<shape_query>(R"({"z":{"re":0,"im":0},"page":{"number":1},"step":3})");
    REQUIRE(odd.errors.size() == 1);
    CHECK(odd.errors[0].to_string() == "/step: must be even");
    const auto negative = json::read<shape_query>(R"({"z":{"re":0,"im":0},"page":{"number":1},"step":-2})");
    REQUIRE(negative.errors.size() == 1);
    CHECK(negative.errors[0].to_string() == "/step: must be at least 0");
    const auto wrong = json::read<shape_query>(R"({"z":[1,2],"page":{"number":1}})");
    REQUIRE(wrong.errors.size() == 1);
    CHECK(wrong.errors[0].to_string().starts_with("/z: expected an object, got an array"));
}

TEST_CASE("Boost.Describe: a described enum uses its descriptors") {
    static_assert(agentry::reflect::enum_count<vendor::status> == 4);
    CHECK(agentry::json_schema<vendor::status>() == R"({"type":"string","enum":["minus","ok","created","not_found"]})");
    CHECK(json::read<vendor::status>(R"("not_found")").value == vendor::status::not_found);
    CHECK(json::read<vendor::status>(R"("missing")").errors.size() == 1);  // the alias: the first name wins
    CHECK(json::to_json(vendor::status::missing) == R"("not_found")");
    CHECK(agentry::reflect::enum_names<vendor::status>[0] == "minus");
    CHECK(agentry::reflect::enum_values<vendor::status>[3] == vendor::status::not_found);
    CHECK(agentry::reflect::enum_entries<vendor::status>[3].second == "not_found");
    CHECK(json::to_json(vendor::status{7}) == "7");
    CHECK(json::to_json(std::map<vendor::status, int>{{vendor::status::created, 1}}) == R"({"created":1})");
}

// ---- std::chrono -------------------------------------------------------------------------

struct schedule {
    std::chrono::seconds timeout;
    std::chrono::duration<double, std::milli> delay;
    std::chrono::duration<int, std::ratio<1, 3>> thirds;
    std::chrono::sys_days day;
    std::chrono::year_month_day birthday;
    std::chrono::system_clock::time_point at;
    std::chrono::sys_seconds start;
    std::chrono::sys_time<std::chrono::minutes> minute;
    static constexpr auto docs = agentry::field_docs("timeout", "How long to wait");
};

TEST_CASE("chrono: schemas in every dialect") {
    constexpr std::string_view s = agentry::json_schema<schedule>();
    CHECK(s.find(R"("timeout":{"type":"integer","description":"How long to wait. In seconds."})") != std::string_view::npos);
    CHECK(s.find(R"("delay":{"type":"number","description":"In milliseconds."})") != std::string_view::npos);
    CHECK(s.find(R"("description":"In units of 1/3 seconds."})") != std::string_view::npos);
    CHECK(s.find(R"("day":{"type":"string","format":"date"})") != std::string_view::npos);
    CHECK(s.find(R"("birthday":{"type":"string","format":"date"})") != std::string_view::npos);
    CHECK(s.find(R"("at":{"type":"string","format":"date-time"})") != std::string_view::npos);
    constexpr std::string_view strict = agentry::json_schema<schedule, agentry::dialect::openai_strict>();
    CHECK(strict.find(R"("day":{"type":"string","format":"date"})") != std::string_view::npos);
    constexpr std::string_view gemini = agentry::json_schema<schedule, agentry::dialect::gemini>();
    CHECK(gemini.find(R"("day":{"type":"STRING","description":"Format: date."})") != std::string_view::npos);
    CHECK(gemini.find(R"("at":{"type":"STRING","format":"date-time"})") != std::string_view::npos);
    CHECK(!agentry::json_schema<schedule, agentry::dialect::anthropic_strict>().empty());
    CHECK(!agentry::json_schema<schedule, agentry::dialect::mcp>().empty());
}

TEST_CASE("chrono: read and write") {
    const auto r = json::read<schedule>(
        R"({"timeout":30,"delay":2.5,"thirds":4,"day":"2024-02-29","birthday":"1999-12-31",)"
        R"("at":"2024-05-01T23:30:00.123456789+02:00","start":"1970-01-01t00:00:01.999Z",)"
        R"("minute":"2016-12-31T23:59:60Z"})");
    REQUIRE(r.ok());
    CHECK(r.value.timeout == 30s);
    CHECK(r.value.delay.count() == 2.5);
    CHECK(r.value.thirds.count() == 4);
    CHECK(r.value.day == std::chrono::sys_days{std::chrono::year{2024} / 2 / 29});
    CHECK(r.value.birthday == std::chrono::year{1999} / 12 / 31);
    CHECK(r.value.start.time_since_epoch() == 1s);  // the fraction is dropped
    CHECK(r.value.minute == std::chrono::sys_days{std::chrono::year{2017} / 1 / 1});  // leap second: the next
    // system_clock counts nanoseconds in libstdc++, microseconds in libc++: the digits it keeps.
    const std::string at = std::ratio_less_equal_v<std::chrono::system_clock::period, std::nano>
                               ? "2024-05-01T21:30:00.123456789Z"
                               : "2024-05-01T21:30:00.123456Z";
    CHECK(json::to_json(r.value) ==
          R"({"timeout":30,"delay":2.5,"thirds":4,"day":"2024-02-29","birthday":"1999-12-31",)"
          R"("at":")" + at + R"(","start":"1970-01-01T00:00:01Z","minute":"2017-01-01T00:00:00Z"})");
    CHECK(json::to_json(std::chrono::sys_time<std::chrono::milliseconds>(-1ms)) == R"("1969-12-31T23:59:59.999Z")");
    CHECK(json::to_json(std::chrono::sys_days{} - std::chrono::days{1}) == R"("1969-12-31")");
}

TEST_CASE("chrono: what is refused") {
    const auto r = json::read<schedule>(R"({"timeout":1.5,"delay":"2","thirds":0,"day":"2023-02-29",)"
                                        R"("birthday":"1999-1-1","at":"2024-05-01","start":"x","minute":7})");
    REQUIRE(r.errors.size() == 7);
    CHECK(r.errors[0].to_string() == "/timeout: expected an integer, got 1.5");
    CHECK(r.errors[1].to_string().starts_with("/delay: expected a number, got a string"));
    CHECK(r.errors[2].to_string() == "/day: must be a valid date");
    CHECK(r.errors[3].to_string() == "/birthday: must be a valid date");
    CHECK(r.errors[4].to_string() == "/at: must be a valid date-time");
    CHECK(r.errors[5].to_string() == "/start: must be a valid date-time");
    CHECK(r.errors[6].to_string().starts_with("/minute: expected a string, got a number"));
    // An instant the time point cannot hold.
    const auto far = json::read<std::chrono::sys_time<std::chrono::nanoseconds>>(R"("9999-01-01T00:00:00Z")");
    REQUIRE(far.errors.size() == 1);
    CHECK(far.errors[0].to_string() == "is outside the range of times this parameter can hold");
    const auto near = json::read<std::chrono::sys_time<std::chrono::nanoseconds>>(R"("2200-01-01T00:00:00.5Z")");
    CHECK(near.ok());
}

// ---- std::filesystem::path, std::string_view -----------------------------------------------

struct file_query {
    std::filesystem::path path;
    std::string_view text;
    std::optional<std::string_view> note;
};

TEST_CASE("path and string_view: schema, read, write") {
    CHECK(agentry::json_schema<file_query>() ==
          R"({"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"},"note":{"type":"string"}},"required":["path","text"],"additionalProperties":false})");
    CHECK(agentry::json_schema<file_query, agentry::dialect::gemini>() ==
          R"({"type":"OBJECT","properties":{"path":{"type":"STRING"},"text":{"type":"STRING"},"note":{"type":"STRING"}},"required":["path","text"]})");
    const std::string input = R"({"path":"/tmp/caf\u00e9.txt","text":"plain","note":"tab\there"})";
    const auto r = json::read<file_query>(input);
    REQUIRE(r.ok());
    CHECK(r.value.path == std::filesystem::path(u8"/tmp/caf\u00e9.txt"));
    // No escape: a view of the input. An escape: a copy owned by the read_result.
    CHECK(r.value.text == "plain");
    CHECK(r.value.text.data() >= input.data());
    CHECK(r.value.text.data() < input.data() + input.size());
    CHECK(*r.value.note == "tab\there");
    REQUIRE(r.owned_text.size() == 1);
    CHECK(r.value.note->data() == r.owned_text[0].get());
    CHECK(json::to_json(r.value) == R"({"path":"/tmp/café.txt","text":"plain","note":"tab\there"})");
    const auto bad = json::read<file_query>(R"({"path":1,"text":null})");
    REQUIRE(bad.errors.size() == 2);
    CHECK(bad.errors[0].to_string().starts_with("/path: expected a string, got a number"));
    CHECK(bad.errors[1].to_string() == "/text: must not be null; expected a string");
}

TEST_CASE("string_view: text decoded by a repair is copied, not viewed") {
    json::read_options options;
    options.repairs.json_in_string = true;
    const auto r = json::read<file_query>(R"({"path":"a","text":"x","note":"y"})", options);
    REQUIRE(r.ok());
    struct holder {
        std::vector<std::string_view> items;
    };
    const auto repaired = json::read<holder>(R"({"items":"[\"a\",\"b\"]"})", options);
    REQUIRE(repaired.ok());
    REQUIRE(repaired.value.items.size() == 2);
    CHECK(repaired.value.items[0] == "a");
    CHECK(repaired.value.items[1] == "b");
    CHECK(repaired.owned_text.size() == 2);
}

// ---- std::pair / std::tuple, std::list / std::deque, maps -----------------------------------

enum class level { low, high };

struct shapes {
    std::pair<std::string, int> named;
    std::tuple<int, double, bool> triple;
    std::list<int> numbers;
    std::deque<std::string> words;
    std::map<int, std::string> by_id;
    std::unordered_map<unsigned, int> counts;
    std::map<level, double> by_level;
};

TEST_CASE("tuples: prefixItems where the dialect has it") {
    using pair = std::pair<std::string, int>;
    constexpr std::string_view expected =
        R"({"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false,"minItems":2,"maxItems":2})";
    CHECK(agentry::json_schema<pair>() == expected);
    CHECK(agentry::json_schema<pair, agentry::dialect::openai>() == expected);
    CHECK(agentry::json_schema<pair, agentry::dialect::anthropic>() == expected);
    CHECK(agentry::json_schema<pair, agentry::dialect::mcp>() == expected);
    // OpenAI strict, Anthropic strict and Gemini: a compile error (tests/compile_fail).
    CHECK(agentry::schema::detail::schema_text<pair, agentry::dialect::gemini>::measured.error ==
          agentry::schema::detail::schema_error::tuple_not_expressible);
    CHECK(agentry::schema::detail::schema_text<pair, agentry::dialect::anthropic_strict>::measured.error ==
          agentry::schema::detail::schema_error::tuple_not_expressible);
}

TEST_CASE("lists, deques, maps with integer and enum keys: schema") {
    constexpr std::string_view s = agentry::json_schema<shapes>();
    CHECK(s.find(R"("numbers":{"type":"array","items":{"type":"integer"}})") != std::string_view::npos);
    CHECK(s.find(R"("words":{"type":"array","items":{"type":"string"}})") != std::string_view::npos);
    CHECK(s.find(R"("by_id":{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^(0|-?[1-9][0-9]*)$"}})") != std::string_view::npos);
    CHECK(s.find(R"("propertyNames":{"pattern":"^(0|[1-9][0-9]*)$"})") != std::string_view::npos);
    CHECK(s.find(R"("propertyNames":{"enum":["low","high"]})") != std::string_view::npos);
    using lists = std::deque<std::list<int>>;
    CHECK(agentry::json_schema<lists, agentry::dialect::gemini>() ==
          R"({"type":"ARRAY","items":{"type":"ARRAY","items":{"type":"INTEGER"}}})");
}

TEST_CASE("tuples, lists, maps: read and write") {
    const auto r = json::read<shapes>(
        R"({"named":["a",1],"triple":[2,0.5,true],"numbers":[3,4],"words":["x"],)"
        R"("by_id":{"-7":"minus","12":"twelve"},"counts":{"0":1},"by_level":{"high":0.5}})");
    REQUIRE(r.ok());
    CHECK(r.value.named == std::pair<std::string, int>{"a", 1});
    CHECK(r.value.triple == std::tuple<int, double, bool>{2, 0.5, true});
    CHECK(r.value.numbers == std::list<int>{3, 4});
    CHECK(r.value.by_id.at(-7) == "minus");
    CHECK(r.value.counts.at(0u) == 1);
    CHECK(r.value.by_level.at(level::high) == 0.5);
    CHECK(json::to_json(r.value) ==
          R"({"named":["a",1],"triple":[2,0.5,true],"numbers":[3,4],"words":["x"],)"
          R"("by_id":{"-7":"minus","12":"twelve"},"counts":{"0":1},"by_level":{"high":0.5}})");
}

TEST_CASE("tuples, maps: what is refused") {
    const auto r = json::read<shapes>(
        R"({"named":["a"],"triple":[1,2,3],"numbers":{},"words":[1],)"
        R"("by_id":{"007":"x","1.5":"y","-0":"z"},"counts":{"-1":1,"4294967296":2},"by_level":{"mid":1,"high":1,"high":2}})");
    std::vector<std::string> messages;
    for (const auto& e : r.errors) messages.push_back(e.to_string());
    REQUIRE(messages.size() == 11);
    CHECK(messages[0] == "/named: must have exactly 2 items, not 1");
    CHECK(messages[1] == "/triple/2: expected a boolean, got a number 3");
    CHECK(messages[2].starts_with("/numbers: expected an array, got an object"));
    CHECK(messages[3].starts_with("/words/0: expected a string"));
    CHECK(messages[4] == "/by_id/007: the key \"007\" must be an integer from -2147483648 to 2147483647, written in decimal");
    CHECK(messages[5].starts_with("/by_id/1.5: the key \"1.5\" must be an integer"));
    CHECK(messages[6].starts_with("/by_id/-0: the key \"-0\" must be an integer"));
    CHECK(messages[7] == "/counts/-1: the key \"-1\" must be an integer from 0 to 4294967295, written in decimal");
    CHECK(messages[8].starts_with("/counts/4294967296: the key"));
    CHECK(messages[9] == "/by_level/mid: the key \"mid\" is not one of [\"low\",\"high\"]");
    CHECK(messages[10] == "/by_level/high: duplicate property");
}

// ---- results: outcome, string and string_view ------------------------------------------------

struct order_query {
    int id;
};
struct order {
    int id;
    std::string item;
};

agentry::outcome<order> find_order(const order_query& q) {
    if (q.id == 0) return agentry::fail(agentry::failure_kind::not_found, "no order 0; list the orders first");
    if (q.id < 0) return agentry::failure{agentry::failure_kind::invalid_input, "ids are positive"};
    return order{q.id, "book"};
}

agentry::outcome<void> cancel_order(const order_query& q) {
    if (q.id == 1) return agentry::fail(agentry::failure_kind::permission, "order 1 is shipped");
    return {};
}

constexpr agentry::registry result_tools{
    agentry::tool<"find_order", "Finds an order by id.">(find_order),
    agentry::tool<"cancel_order", "Cancels an order.">(cancel_order),
    agentry::tool<"owned", "Echoes as a std::string.", "text">(+[](std::string text) { return text; }),
    agentry::tool<"viewed", "Echoes as a std::string_view.", "text">(+[](std::string_view text) { return text; }),
};

TEST_CASE("outcome: a value is the result, a failure a tool_error with its kind") {
    static_assert(decltype(result_tools)::size() == 4);
    using agentry::schema::detail::kind;
    static_assert(agentry::schema::detail::json_kind_of<agentry::outcome<order>>() == kind::object);
    static_assert(agentry::schema::detail::json_kind_of<std::chrono::seconds>() == kind::integer);
    CHECK(agentry::tool_t<"find_order", "Finds an order by id.", decltype(&find_order)>::result_schema() ==
          agentry::json_schema<order>());
    const auto found = result_tools.call("find_order", R"({"id":7})");
    CHECK(found.ok());
    CHECK(found.content == R"({"id":7,"item":"book"})");
    CHECK_FALSE(found.failure.has_value());
    const auto missing = result_tools.call("find_order", R"({"id":0})");
    CHECK(missing.status == agentry::tool_status::tool_error);
    CHECK(missing.failure == agentry::failure_kind::not_found);
    CHECK(missing.content == "find_order failed: no order 0; list the orders first");
    CHECK(result_tools.call("find_order", R"({"id":-1})").failure == agentry::failure_kind::invalid_input);
    const auto cancelled = result_tools.call("cancel_order", R"({"id":2})");
    CHECK(cancelled.ok());
    CHECK(cancelled.content == "null");
    const auto refused = result_tools.call("cancel_order", R"({"id":1})");
    CHECK(refused.failure == agentry::failure_kind::permission);
    CHECK(refused.content == "cancel_order failed: order 1 is shipped");
    CHECK(agentry::to_string(agentry::failure_kind::transient) == "transient");
}

TEST_CASE("a std::string and a std::string_view result are sent alike: the text as is") {
    const auto owned = result_tools.call("owned", R"({"text":"say \"hi\""})");
    const auto viewed = result_tools.call("viewed", R"({"text":"say \"hi\""})");
    CHECK(owned.content == R"(say "hi")");
    CHECK(viewed.content == owned.content);
    agentry::call_options small;
    small.max_result_size = 40;
    const auto capped = result_tools.with_options(small);
    const std::string long_text = R"({"text":")" + std::string(100, 'x') + R"("})";
    const auto cut_owned = capped.call("owned", long_text);
    const auto cut_viewed = capped.call("viewed", long_text);
    CHECK(cut_owned.truncated);
    CHECK(cut_viewed.content == cut_owned.content);
}

// ---- field_defaults -----------------------------------------------------------------------

enum class unit { celsius, fahrenheit };

struct forecast_query {
    std::string city;
    std::optional<std::string> language = "en";
    std::optional<unit> units = unit::celsius;
    std::optional<int> days = 3;
    std::optional<double> threshold = 0;
    std::optional<bool> hourly = false;
    std::optional<std::string> note;
    static constexpr auto defaults = agentry::field_defaults("language", "en", "units", unit::celsius, "days", 3,
                                                             "threshold", 0, "hourly", false);
};

TEST_CASE("field_defaults: defaults of a struct holding std::string, the same on every compiler") {
    CHECK(agentry::json_schema<forecast_query>() ==
          R"({"type":"object","properties":{"city":{"type":"string"},"language":{"type":"string","default":"en"},)"
          R"("units":{"type":"string","enum":["celsius","fahrenheit"],"default":"celsius"},)"
          R"("days":{"type":"integer","default":3},)"
          R"("threshold":{"type":"number","default":0.0},)"
          R"("hourly":{"type":"boolean","default":false},"note":{"type":"string"}},"required":["city"],"additionalProperties":false})");
    constexpr std::string_view strict = agentry::json_schema<forecast_query, agentry::dialect::openai_strict>();
    CHECK(strict.find(R"("language":{"type":["string","null"],"description":"Default: \"en\"."})") != std::string_view::npos);
    // The member initialisers and the stated defaults agree.
    const forecast_query initial{};
    CHECK(initial.language == "en");
    CHECK(initial.days == 3);
    const auto r = json::read<forecast_query>(R"({"city":"Oslo"})");
    REQUIRE(r.ok());
    CHECK(r.value.units == unit::celsius);
}

} // namespace
