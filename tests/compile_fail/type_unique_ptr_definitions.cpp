// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> is a smart pointer (std::unique_ptr, std::shared_ptr or std::weak_ptr)
// errors: at most 1
// names: odd_tool weird_field
// The tool's diagnostic is the only error: the registry that holds the tool, and the program's
// own calls of definitions() and call(), add none.
#include <agentry/registry.hpp>

#include <memory>

struct odd_args {
#ifdef AGENTRY_COMPILE_FAIL
    std::unique_ptr<int> weird_field;
#else
    int weird_field = 0;
#endif
};

int odd(const odd_args& a) {
#ifdef AGENTRY_COMPILE_FAIL
    return a.weird_field ? *a.weird_field : 0;
#else
    return a.weird_field;
#endif
}

constexpr agentry::registry tools{agentry::tool<"odd_tool", "Returns the value it is given.">(odd)};

int main() {
    const std::string_view payload = tools.definitions<agentry::dialect::openai_strict>();
    const agentry::tool_result r = tools.call("odd_tool", R"({"weird_field":1})");
    return payload.empty() || r.content.empty();
}
