// SPDX-License-Identifier: BSL-1.0
// Helper of reader_agree.mjs: the schemas of a list of parameter types, and the reader's verdict
// on JSON instances of them.
//
//   reader_check schemas   prints "name<TAB>schema" per type: agentry::json_schema<T, D>() with D
//                          the standard dialect with natural bounds, the schema that admits
//                          exactly what the reader accepts
//   reader_check check     reads "name<TAB>instance" lines on stdin and prints 1 or 0 per line:
//                          agentry::json::read<T>(instance).ok() with the default read_options
//   reader_check explain   as check, and after the verdict a TAB and the reader's errors
//                          ("pointer: message", separated by " | ")
//
// The instance is everything after the first TAB up to the end of the line (no newline inside:
// JSON.stringify escapes control characters). Exit status 2 on an unknown type name or usage
// error.

#include "../fixtures/differential.hpp"
#include "../fixtures/fixtures.hpp"

#include <agentry/json/reader.hpp>
#include <agentry/schema/json_schema.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct entry {
    std::string_view name;
    std::string_view schema;
    bool (*check)(std::string_view text, std::string* errors);
};

template <class T>
bool check(std::string_view text, std::string* errors) {
    const auto result = agentry::json::read<T>(text);
    if (errors) {
        for (std::size_t i = 0; i != result.errors.size(); ++i) {
            if (i != 0) *errors += " | ";
            *errors += result.errors[i].to_string();
        }
        for (char& c : *errors)
            if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    }
    return result.ok();
}

template <class T>
entry make(std::string_view name) {
    return {name, agentry::json_schema<T, agentry::dialect::with_natural_bounds<agentry::dialect::standard>>(), &check<T>};
}

const std::vector<entry>& types() {
    using namespace fixtures;
    namespace d = differential;
    static const std::vector<entry> list{
        make<weather_query>("weather_query"),
        make<integers>("integers"),
        make<scalars>("scalars"),
        make<paging>("paging"),
        make<numeric_constraints>("numeric_constraints"),
        make<string_constraints>("string_constraints"),
        make<fixtures::formats>("formats"),
        make<sequences>("sequences"),
        make<create_contact>("create_contact"),
        make<labels>("labels"),
        make<draw>("draw"),
        make<tree_node>("tree_node"),
        make<raw_payload>("raw_payload"),
        make<optional_compounds>("optional_compounds"),
        make<enums>("enums"),
        make<nothing>("nothing"),
        make<d::int_edges>("int_edges"),
        make<d::double_edges>("double_edges"),
        make<d::float_edges>("float_edges"),
        make<d::decimal_multiples>("decimal_multiples"),
        make<d::string_edges>("string_edges"),
        make<d::patterns>("patterns"),
        make<d::sequence_edges>("sequence_edges"),
        make<d::unique_structs>("unique_structs"),
        make<d::optional_edges>("optional_edges"),
        make<d::variant_edges>("variant_edges"),
        make<d::map_edges>("map_edges"),
        make<d::root_vector>("root_vector"),
        make<d::root_variant>("root_variant"),
        make<d::root_map>("root_map"),
        make<d::root_optional>("root_optional"),
        make<agentry::raw_json>("root_raw"),
        make<double>("root_double"),
    };
    return list;
}

const entry* find(std::string_view name) {
    for (const auto& e : types())
        if (e.name == name) return &e;
    return nullptr;
}

} // namespace

int main(int argc, char** argv) {
    const std::string_view mode = argc == 2 ? argv[1] : "";
    if (mode == "schemas") {
        for (const auto& e : types())
            std::printf("%.*s\t%.*s\n", int(e.name.size()), e.name.data(), int(e.schema.size()), e.schema.data());
        return 0;
    }
    if (mode != "check" && mode != "explain") {
        std::fprintf(stderr, "usage: reader_check schemas | check | explain  (check and explain read name<TAB>json lines)\n");
        return 2;
    }
    const bool explain = mode == "explain";
    std::ios::sync_with_stdio(false);
    std::string line, output, errors;
    std::size_t number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        const std::size_t tab = line.find('\t');
        const entry* e = tab == std::string::npos ? nullptr : find(std::string_view(line).substr(0, tab));
        if (!e) {
            std::fprintf(stderr, "reader_check: line %zu: no type named '%.*s'\n", number,
                         int(tab == std::string::npos ? line.size() : tab), line.data());
            return 2;
        }
        errors.clear();
        const bool ok = e->check(std::string_view(line).substr(tab + 1), explain ? &errors : nullptr);
        output += ok ? '1' : '0';
        if (explain) {
            output += '\t';
            output += errors;
        }
        output += '\n';
    }
    std::fwrite(output.data(), 1, output.size(), stdout);
    return 0;
}
