// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this enum has no enumerator in agentry::enum_range<E>
#include <agentry/tool.hpp>

enum class level : int { high = 1000 };

#ifndef AGENTRY_COMPILE_FAIL
template <>
struct agentry::enum_range<level> {
    static constexpr long long min = 1000;
    static constexpr long long max = 1000;
};
#endif

int run(level) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs at a level.", "level">(run);

int main() { return t.parameters_schema().empty(); }
