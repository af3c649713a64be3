// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): f takes more than one agentry::context<T>
// names: lookup
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};
struct database {
    int rows = 0;
};

#ifdef AGENTRY_COMPILE_FAIL
int lookup(agentry::context<session> s, agentry::context<database> d) { return s->user + d->rows; }
#else
int lookup(agentry::context<session> s) { return s->user; }
#endif

constexpr agentry::registry tools{agentry::tool<"lookup", "Looks up.">(lookup)};

int main() {
    session s{};
    return tools.call("lookup", "{}", {.context = s}).ok() ? 0 : 1;
}
