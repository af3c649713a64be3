// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): f's operator() is not const (a mutable lambda or a function object that changes its own state)
// errors: at most 3
// names: count
#include <agentry/tool.hpp>

#ifdef AGENTRY_COMPILE_FAIL
auto t = agentry::tool<"count", "Counts calls.", "by">([n = 0](int by) mutable { return n += by; });
#else
auto t = agentry::tool<"count", "Counts calls.", "by">([n = 0](int by) { return n + by; });
#endif

int main() { return t.parameters_schema().empty(); }
