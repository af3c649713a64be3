// SPDX-License-Identifier: BSL-1.0
// expect: agentry: std::filesystem::path needs #include <agentry/schema/adapters/filesystem.hpp>
// errors: at most 3
// names: run file
#include <agentry/tool.hpp>
#ifndef AGENTRY_COMPILE_FAIL
#include <agentry/schema/adapters/filesystem.hpp>
#endif

#include <filesystem>

struct query {
    std::filesystem::path file;
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
