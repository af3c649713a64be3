// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>::result_schema: the tool returns void
// errors: at most 3
#include <agentry/tool.hpp>

#ifdef AGENTRY_COMPILE_FAIL
void ping(int) {}
#else
int ping(int x) { return x; }
#endif
constexpr auto t = agentry::tool<"ping", "Pings.", "x">(ping);

int main() { return t.result_schema().empty(); }
