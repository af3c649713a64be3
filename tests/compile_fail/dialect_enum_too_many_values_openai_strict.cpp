// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the enums of this schema have more values in all than this dialect allows
// names: run code
#include <agentry/tool.hpp>

#define D10(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9
#define D100(p) D10(p##0), D10(p##1), D10(p##2), D10(p##3), D10(p##4), \
                D10(p##5), D10(p##6), D10(p##7), D10(p##8), D10(p##9)
#define D1000 D100(v0), D100(v1), D100(v2), D100(v3), D100(v4), D100(v5), D100(v6), D100(v7), D100(v8), D100(v9)

#ifdef AGENTRY_COMPILE_FAIL
enum class code { D1000, v1000 };  // 1001 values
#else
enum class code { D1000 };
#endif

template <>
struct agentry::enum_range<code> {
    static constexpr long long min = 0;
    static constexpr long long max = 1000;
};

int run(code) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs with a code.", "code">(run);

int main() { return t.parameters_schema<agentry::dialect::openai_strict>().empty(); }
