// SPDX-License-Identifier: BSL-1.0
// expect: agentry: std::optional<std::optional<T>> has no JSON Schema; use one std::optional
// errors: at most 4
#include <agentry/schema/json_schema.hpp>

#include <optional>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::optional<std::optional<int>> limit;
#else
    std::optional<int> limit;
#endif
};

int main() { return agentry::json_schema<query>().empty(); }
