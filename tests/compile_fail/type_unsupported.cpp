// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this type has no JSON Schema
#include <agentry/tool.hpp>

#include <complex>
#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::complex<double> value;
#else
    std::string value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
