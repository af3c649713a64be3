// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::completer: the prompt has no argument of the name in completer_named<...>; name a member of the prompt function's parameter struct, or remove the completer
// errors: at most 2
// names: lang
#include <agentry/mcp/server.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct review_args {
    std::string code;
    std::optional<std::string> language;
};

std::string review(const review_args& a) { return a.code; }
std::vector<std::string> languages(std::string_view) { return {"c++"}; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds", "a", "b">(+[](int a, int b) { return a + b; })};

int main() {
    // The completed argument is misspelt (lang, not language).
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::prompt<"review", "Reviews code">(review, agentry::mcp::completer<"lang">(languages))};
#else
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::prompt<"review", "Reviews code">(review, agentry::mcp::completer<"language">(languages))};
#endif
    return server.tools_list().empty();
}
