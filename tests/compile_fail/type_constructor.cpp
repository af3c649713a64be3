// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the type in field_named<...> is a class with a constructor, private members or virtual functions
// errors: at most 3
// names: move at
#include <agentry/tool.hpp>

struct point {
    int x;
    int y;
#ifdef AGENTRY_COMPILE_FAIL
    point(int x_, int y_) : x(x_), y(y_) {}
#endif
};

struct query {
    int id;
    point at;
};

int move(const query&) { return 0; }
constexpr auto t = agentry::tool<"move", "Moves a piece.">(move);

int main() { return t.parameters_schema().empty(); }
