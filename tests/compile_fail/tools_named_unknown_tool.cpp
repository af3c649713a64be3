// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tools_named<Registry, ...>(): the registry has no tool of the name in tools_named_unknown_tool<tool_named<...>>
// errors: at most 2
// names: find_hotel
#include <agentry/registry.hpp>
#include <agentry/select/tools_named.hpp>

#include <string>

std::string hotels(const std::string& city) { return "Hotel du Nord, " + city; }

constexpr agentry::registry tools{agentry::tool<"find_hotels", "Hotels with free rooms in a city.", "city">(hotels)};

int main() {
    // The name is misspelt (find_hotel, not find_hotels).
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::active_tools chosen = agentry::tools_named<decltype(tools), "find_hotel">();
#else
    const agentry::active_tools chosen = agentry::tools_named<decltype(tools), "find_hotels">();
#endif
    return chosen.indices.size() == 1 ? 0 : 1;
}
