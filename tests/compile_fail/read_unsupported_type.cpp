// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a pointer has no JSON Schema
#include <agentry/json/reader.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    const char* name;
#else
    std::string name;
#endif
};

int main() { return agentry::json::read<query>(R"({"name":"x"})").ok() ? 0 : 1; }
