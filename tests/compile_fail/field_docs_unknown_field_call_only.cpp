// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_docs names a field the struct does not have
// errors: at most 1
// names: count_items items[].cuont
// A program that only calls the tool, and never asks for its definitions, still gets the
// diagnostic: tool<...>(f) checks the field docs of every struct in the parameters.
#include <agentry/registry.hpp>

#include <vector>

struct item {
    int count = 0;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto docs = agentry::field_docs("cuont", "How many.");
#else
    static constexpr auto docs = agentry::field_docs("count", "How many.");
#endif
};

struct count_args {
    std::vector<item> items;
};

int count_items(const count_args& a) { return static_cast<int>(a.items.size()); }

constexpr agentry::registry tools{agentry::tool<"count_items", "Counts the items.">(count_items)};

int main() { return tools.call("count_items", R"({"items":[{"count":1}]})").content == "1" ? 0 : 1; }
