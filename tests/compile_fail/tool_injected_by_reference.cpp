// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): f takes agentry::context<T>, agentry::stop_token, agentry::progress or agentry::call_info by non-const reference
// names: stopped
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#ifdef AGENTRY_COMPILE_FAIL
bool stopped(agentry::stop_token& stop) { return stop.stop_requested(); }
#else
bool stopped(const agentry::stop_token& stop) { return stop.stop_requested(); }
#endif

constexpr agentry::registry tools{agentry::tool<"stopped", "Says whether the call was stopped.">(stopped)};

int main() { return tools.call("stopped", "{}").content == "false" ? 0 : 1; }
