// SPDX-License-Identifier: BSL-1.0
// A tool whose parameter is std::complex<double>, a type this program does not own: adapter
// maps it to a struct agentry knows, with docs and constraints attached from outside.
#include <agentry/agentry.hpp>

#include <complex>
#include <cstdio>

struct complex_fields {
    agentry::in_range<double, -1000000, 1000000> re;
    agentry::in_range<double, -1000000, 1000000> im;
    static constexpr auto docs = agentry::field_docs("re", "Real part", "im", "Imaginary part");
};

template <>
struct agentry::adapter<std::complex<double>> {
    using json_type = complex_fields;
    static constexpr std::string_view description = "A complex number";
    static complex_fields to_json(const std::complex<double>& z) { return {{z.real()}, {z.imag()}}; }
    static std::complex<double> from_json(const complex_fields& f) { return {f.re, f.im}; }
};

std::complex<double> square(std::complex<double> z) { return z * z; }

constexpr agentry::registry tools{agentry::tool<"square", "Squares a complex number.", "z">(square)};

int main() {
    std::printf("%.*s\n", int(tools.definitions().size()), tools.definitions().data());
    const agentry::tool_result r = tools.call("square", R"({"z":{"re":1,"im":2}})");
    std::printf("%s\n", r.content.c_str());  // {"re":-3,"im":4}
    const agentry::tool_result bad = tools.call("square", R"({"z":{"re":1e9,"im":0}})");
    std::printf("%s\n", bad.content.c_str());  // says /z/re must be at most 1000000
    return r.ok() && !bad.ok() ? 0 : 1;
}
