// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the schema nests objects and arrays deeper than this dialect allows
// names: run inner.inner.inner.inner.inner.inner.inner.inner.inner.inner
#include <agentry/tool.hpp>

template <int N>
struct level {
    level<N - 1> inner;
};
template <>
struct level<1> {
    int leaf;
};

#ifdef AGENTRY_COMPILE_FAIL
int run(const level<11>&) { return 0; }
#else
int run(const level<10>&) { return 0; }
#endif
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema<agentry::dialect::openai_strict>().empty(); }
