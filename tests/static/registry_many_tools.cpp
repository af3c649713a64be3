// SPDX-License-Identifier: BSL-1.0
// A registry of 500 tools compiles with the compilers' default limits (Clang: folds of at
// most 256 operands, 1048576 steps per constant; GCC: 2^25 operations per constant) and
// behaves as a small one: lookup, duplicate detection, dispatch (compiled) and definitions.

#include <agentry/registry.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace {

constexpr std::size_t count = 500;

constexpr std::size_t digits(std::size_t i) { return i < 10 ? 1 : i < 100 ? 2 : 3; }

/// "t0", "t1", ..., "t499".
template <std::size_t I>
constexpr auto tool_name = [] {
    agentry::fixed_string<1 + digits(I)> name;
    name.value[0] = 't';
    for (std::size_t k = digits(I), v = I; k != 0; --k, v /= 10) name.value[k] = char('0' + v % 10);
    return name;
}();

int twice(int x) { return 2 * x; }

template <std::size_t N>
constexpr auto make_tools() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return agentry::registry{agentry::tool<tool_name<I>, "Doubles x.", "x">(twice)...};
    }(std::make_index_sequence<N>{});
}

constexpr auto tools = make_tools<count>();
using tools_type = decltype(tools);

static_assert(tools_type::size() == count);
static_assert(tools_type::names[0] == "t0" && tools_type::names[499] == "t499");

// Lookup of every name, and of names that are not there.
static_assert([] {
    for (std::size_t i = 0; i != count; ++i)
        if (tools_type::find(tools_type::names[i]) != i) return false;
    return true;
}());
static_assert(tools_type::find("t499") == 499);
static_assert(tools_type::find("t7") == 7);
static_assert(tools_type::find("nope") == tools_type::size());
static_assert(tools_type::find("t500") == count && tools_type::find("t") == count && tools_type::find("") == count);

// The duplicate finder at this size: the first repeated name, by its position.
static_assert(agentry::detail::first_duplicate(tools_type::names) == count);
static_assert([] {
    std::array<std::string_view, count + 1> names{};
    for (std::size_t i = 0; i != count; ++i) names[i] = tools_type::names[i];
    names[count] = "t123";
    return agentry::detail::first_duplicate(names) == count;
}());

// Every tool is written, in order: the size is that of the 500 entries, 499 commas and [].
constexpr std::string_view parameters =
    R"({"type":"object","properties":{"x":{"type":"integer"}},)"
    R"("required":["x"],"additionalProperties":false})";
constexpr std::string_view entry_head = R"({"name":")";
constexpr std::string_view entry_tail = R"(","description":"Doubles x.","parameters":)";

constexpr std::size_t standard_size = [] {
    std::size_t size = 2 + (count - 1);
    for (std::size_t i = 0; i != count; ++i)
        size += entry_head.size() + 1 + digits(i) + entry_tail.size() + parameters.size() + 1;
    return size;
}();

constexpr std::string_view standard = tools.definitions<agentry::dialect::standard>();
static_assert(standard.size() == standard_size);
static_assert(standard.starts_with(R"([{"name":"t0","description":"Doubles x.","parameters":{"type":"object",)"));
static_assert(standard.substr(1, entry_head.size() + 2 + entry_tail.size() + parameters.size() + 1) ==
              R"({"name":"t0","description":"Doubles x.","parameters":)"
              R"({"type":"object","properties":{"x":{"type":"integer"}},)"
              R"("required":["x"],"additionalProperties":false}})");
static_assert(standard.ends_with(R"(},{"name":"t499","description":"Doubles x.","parameters":{"type":"object",)"
                                 R"("properties":{"x":{"type":"integer"}},)"
                                 R"("required":["x"],"additionalProperties":false}}])"));

// The dialects without a tool count limit take all 500.
static_assert(tools.definitions<agentry::dialect::gemini>().starts_with(
    R"([{"functionDeclarations":[{"name":"t0","description":"Doubles x.","parameters":{"type":"OBJECT",)"));
static_assert(tools.definitions<agentry::dialect::gemini>().ends_with(R"("required":["x"]}}]}])"));
static_assert(tools.definitions<agentry::dialect::mcp>().ends_with(
    R"({"name":"t499","description":"Doubles x.","inputSchema":)"
    R"({"type":"object","properties":{"x":{"type":"integer"}},)"
    R"("required":["x"],"additionalProperties":false}}])"));

// OpenAI accepts at most 128 tools per request: a registry of 128 of them is written whole.
constexpr auto openai_tools = make_tools<128>();
static_assert(openai_tools.definitions<agentry::dialect::openai>().ends_with(
    R"({"type":"function","function":{"name":"t127","description":"Doubles x.","parameters":)"
    R"({"type":"object","properties":{"x":{"type":"integer"}},)"
    R"("required":["x"]}}}])"));

// Dispatch compiles for every index.
[[maybe_unused]] agentry::tool_result call_last() { return tools.call("t499", R"({"x":21})"); }

} // namespace

int main() {}
