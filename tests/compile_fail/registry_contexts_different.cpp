// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry: two tools (named in different_contexts<tool_named<...>, tool_named<...>>) take different context types
// names: whoami count_rows
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};
struct database {
    int rows = 0;
};

int whoami(agentry::context<session> s) { return s->user; }
#ifdef AGENTRY_COMPILE_FAIL
int count_rows(agentry::context<database> d) { return d->rows; }
#else
int count_rows(agentry::context<session> s) { return s->user * 2; }
#endif

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami),
                                  agentry::tool<"count_rows", "Counts rows.">(count_rows)};

int main() {
    session s{2};
    return tools.call("count_rows", "{}", {.context = s}).content == "4" ? 0 : 1;
}
