// SPDX-License-Identifier: BSL-1.0
// Compiled in C++26 mode, where static_assert takes a message computed at compile time: the
// diagnostic names the tool and the field as text, `tool "odd_tool": the parameter
// "weird_field"`, instead of template arguments beside a fixed message.
#include <agentry/registry.hpp>

#include <memory>

struct odd_args {
#ifdef AGENTRY_COMPILE_FAIL
    std::unique_ptr<int> weird_field;
#else
    int weird_field = 0;
#endif
};

int odd(const odd_args&) { return 0; }

constexpr agentry::registry tools{agentry::tool<"odd_tool", "Returns 0.">(odd)};

int main() { return tools.definitions().empty(); }
