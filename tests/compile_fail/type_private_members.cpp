// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the type in field_named<...> is a class with a constructor, private members or virtual functions
// errors: at most 3
// names: audit account
#include <agentry/tool.hpp>

#ifdef AGENTRY_COMPILE_FAIL
class account {
    int balance = 0;

public:
    int get() const { return balance; }
};
#else
struct account {
    int balance = 0;
};
#endif

int audit(int, account) { return 0; }
constexpr auto t = agentry::tool<"audit", "Audits an account.", "year", "account">(audit);

int main() { return t.parameters_schema().empty(); }
