// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::completer: two completers name the argument in completer_named<...>; keep one
// errors: at most 2
// names: language
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
std::vector<std::string> snippets(std::string_view) { return {"int main() {}"}; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds", "a", "b">(+[](int a, int b) { return a + b; })};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::prompt<"review", "Reviews code">(review, "Review", agentry::mcp::completer<"language">(languages),
                                                                  agentry::mcp::completer<"language">(snippets))};
#else
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::prompt<"review", "Reviews code">(review, "Review", agentry::mcp::completer<"language">(languages),
                                                                  agentry::mcp::completer<"code">(snippets))};
#endif
    return server.tools_list().empty();
}
