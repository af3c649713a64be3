// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): f's operator() is not const (a mutable lambda or a function object that changes its own state)
// errors: at most 3
// names: count
#include <agentry/tool.hpp>

struct counter {
    int calls = 0;
#ifdef AGENTRY_COMPILE_FAIL
    int operator()(int by) { return calls += by; }
#else
    int operator()(int by) const { return calls + by; }
#endif
};

constexpr auto t = agentry::tool<"count", "Counts calls.", "by">(counter{});

int main() { return t.parameters_schema().empty(); }
