// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the struct in field_named<...> has a base class, whose fields cannot be reflected
// errors: at most 3
// names: greet who
#include <agentry/tool.hpp>

#include <string>

struct named {
    std::string name;
};

#ifdef AGENTRY_COMPILE_FAIL
struct person : named {
    int age;
};
#else
struct person {
    named base;
    int age;
};
#endif

struct query {
    person who;
};

int greet(const query&) { return 0; }
constexpr auto t = agentry::tool<"greet", "Greets a person.">(greet);

int main() { return t.parameters_schema().empty(); }
