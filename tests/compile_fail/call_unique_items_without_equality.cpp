// expect: agentry: unique_items needs operator== on the element type
#include <agentry/registry.hpp>

struct point {
    int x;
    int y;
#ifndef AGENTRY_COMPILE_FAIL
    bool operator==(const point&) const = default;
#endif
};

struct polygon {
    agentry::unique_vector<point> corners;
};

int area(const polygon& p) { return int(p.corners->size()); }

constexpr agentry::registry tools{agentry::tool<"area", "Area of a polygon.">(area)};

int main() { return tools.call("area", R"({"corners":[]})").ok() ? 0 : 1; }
