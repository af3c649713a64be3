// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the registry has more tools than this dialect accepts in one request
#include <agentry/registry.hpp>

#include <cstddef>
#include <utility>

int noop() { return 0; }

template <std::size_t I>
constexpr agentry::fixed_string<3> tool_name = [] {
    const char text[4] = {'t', char('0' + I / 10), char('0' + I % 10), '\0'};
    return agentry::fixed_string<3>(text);
}();

#ifdef AGENTRY_COMPILE_FAIL
constexpr std::size_t count = 21;
#else
constexpr std::size_t count = 20;
#endif
constexpr auto tools = []<std::size_t... I>(std::index_sequence<I...>) {
    return agentry::registry{agentry::tool<tool_name<I>, "Does nothing.">(noop)...};
}(std::make_index_sequence<count>{});

int main() { return tools.definitions<agentry::dialect::anthropic_strict>().empty(); }
