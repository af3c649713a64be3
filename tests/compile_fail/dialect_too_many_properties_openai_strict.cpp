// expect: agentry: the schema has more properties than this dialect allows
#include <agentry/tool.hpp>

#define F8(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7
#define F64(p) F8(p##0), F8(p##1), F8(p##2), F8(p##3), F8(p##4), F8(p##5), F8(p##6), F8(p##7)

struct leaf {
    int F64(f);  // 64 properties
};
struct branch {
    leaf F64(f);  // 64 + 64 * 64 = 4160 properties
};
struct query {
    branch big;
#ifdef AGENTRY_COMPILE_FAIL
    leaf F8(x), y0, y1, y2, y3, y4;  // 4161 + 13 * 65 = 5006 properties
#else
    leaf F8(x), y0, y1, y2, y3;  // 4161 + 12 * 65 = 4941 properties
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema<agentry::dialect::openai_strict>().empty(); }
