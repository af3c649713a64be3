// SPDX-License-Identifier: BSL-1.0
// expect: agentry: enum_titles<E>::titles gives a title to a value that is not a named enumerator of E, or gives one value two titles
// errors: at most 1
#include <agentry/mcp/elicit.hpp>

#include <string_view>
#include <utility>

enum class tier { basic, pro };

template <>
struct agentry::enum_titles<tier> {
#ifdef AGENTRY_COMPILE_FAIL
    // tier(7) has no name.
    static constexpr std::pair<tier, std::string_view> titles[] = {{tier::basic, "Basic"}, {tier(7), "Gold"}};
#else
    static constexpr std::pair<tier, std::string_view> titles[] = {{tier::basic, "Basic"}, {tier::pro, "Pro"}};
#endif
};

struct order {
    tier plan;
};

int main() { return agentry::mcp::elicitation_schema<order>().empty() ? 1 : 0; }
