// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the schema has more than 16 distinct recursive types
// names: run t16.children[]
#include <agentry/tool.hpp>

#include <vector>

template <int N>
struct tree {
    std::vector<tree> children;
};

struct query {
    tree<0> t0; tree<1> t1; tree<2> t2; tree<3> t3; tree<4> t4; tree<5> t5; tree<6> t6; tree<7> t7;
    tree<8> t8; tree<9> t9; tree<10> t10; tree<11> t11; tree<12> t12; tree<13> t13; tree<14> t14; tree<15> t15;
#ifdef AGENTRY_COMPILE_FAIL
    tree<16> t16;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
