// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this dialect cannot express a map (std::map<K, T> with any key type
// errors: at most 3
// names: lookup items[].m
#include <agentry/registry.hpp>

#include <map>
#include <string>
#include <vector>

struct item {
    std::map<std::string, int> m;
};
struct lookup_query {
    std::vector<item> items;
};

int lookup(const lookup_query&) { return 0; }
constexpr agentry::registry tools{agentry::tool<"lookup", "Looks items up.">(lookup)};

#ifdef AGENTRY_COMPILE_FAIL
int main() { return tools.definitions<agentry::dialect::gemini>().empty(); }
#else
int main() { return tools.definitions<agentry::dialect::anthropic>().empty(); }
#endif
