// SPDX-License-Identifier: BSL-1.0
// JSON-Schema-Test-Suite (draft2020-12) through the reader: the keyword tests whose schema a typed
// parameter can state, each case's data read with agentry::json::read<T> and compared with the
// suite's `valid`.
//
//   agentry_schema_suite_agree <json-schema-test-suite/draft2020-12 directory>
//
// A schema without "type" constrains one JSON type and admits every other one: {"minLength":2}
// becomes std::variant<sized string, double, bool, std::monostate, std::vector<raw_json>,
// std::map<std::string, raw_json>>, whose anyOf is equivalent. uniqueItems compares values, so
// its element type is chosen per test from the test's data (typed values); the same groups are
// also run over agentry::raw_json items. prefixItems has no agentry type: those groups are
// listed as not expressible. Each case is read twice, as the root and as the member "value" of
// an object; both verdicts must equal `valid`.
// Exit status: 0 all mapped cases agree, 1 some disagree, 2 a suite file cannot be read,
// 77 the directory is absent.

#include <agentry/json/reader.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace suite {

struct test_case {
    std::string description;
    agentry::raw_json data;
    bool valid = false;
    std::optional<agentry::raw_json> comment;
};

struct group {
    std::string description;
    agentry::raw_json schema;
    std::vector<test_case> tests;
    std::optional<agentry::raw_json> comment;
    std::optional<agentry::raw_json> specification;
};

template <class T>
struct wrap {
    T value;
};

using raw = agentry::raw_json;
using any_array = std::vector<raw>;
using any_object = std::map<std::string, raw>;
using i64 = std::int64_t;

// "This keyword's type must satisfy S; every other JSON type is valid."
template <class S>
using string_or_other = std::variant<S, double, bool, std::monostate, any_array, any_object>;
template <class N>
using number_or_other = std::variant<N, std::string, bool, std::monostate, any_array, any_object>;
template <class A>
using array_or_other = std::variant<A, double, std::string, bool, std::monostate, any_object>;

struct verdict {
    bool root = false;
    bool wrapped = false;
    std::string errors;
};

template <class T>
verdict check(std::string_view data) {
    verdict v;
    const auto root = agentry::json::read<T>(data);
    const std::string text = "{\"value\":" + std::string(data) + "}";
    const auto member = agentry::json::read<wrap<T>>(text);
    v.root = root.ok();
    v.wrapped = member.ok();
    for (const auto* errors : {&root.errors, &member.errors})
        for (const auto& e : *errors) {
            if (!v.errors.empty()) v.errors += " | ";
            v.errors += e.to_string();
        }
    return v;
}

struct mapping {
    std::string_view file;
    std::string_view group;  // the group's description
    std::string_view test;   // a test's description, or empty for every test of the group
    verdict (*run)(std::string_view);
    std::string_view as;     // how the schema is stated in C++
};

// uniqueItems element types, one per shape of data.
using ints = i64;
using int_or_bool = std::variant<i64, bool>;
using string_map = std::map<std::string, std::string>;
using nested_map = std::map<std::string, std::map<std::string, std::map<std::string, bool>>>;
using strings = std::vector<std::string>;
using int_or_bool_list = std::vector<int_or_bool>;
using nested_list = std::vector<std::variant<int_or_bool_list, std::string>>;
using heterogeneous = std::variant<std::map<std::string, i64>, std::vector<i64>, bool, std::monostate, i64, std::string>;
using int_map = std::map<std::string, i64>;
using bool_or_int_map = std::map<std::string, std::variant<bool, i64>>;

template <class E>
using uv = agentry::unique_vector<E>;

#define UNIQUE(test_name, E, text)                                                                          \
    mapping{"uniqueItems", "uniqueItems validation", test_name, &check<uv<E>>, "agentry::unique_vector<" text ">"},      \
        mapping{"uniqueItems", "uniqueItems=false validation", test_name, &check<std::vector<E>>, "std::vector<" text ">"}

const std::vector<mapping>& mappings() {
    using namespace agentry;
    static const std::vector<mapping> list{
        {"minLength", "minLength validation", "", &check<string_or_other<constrained<std::string, min_length<2>>>>,
         "variant<constrained<string, min_length<2>>, any other type>"},
        {"minLength", "minLength validation with a decimal", "", &check<string_or_other<constrained<std::string, min_length<2>>>>,
         "variant<constrained<string, min_length<2>>, any other type>"},
        {"maxLength", "maxLength validation", "", &check<string_or_other<constrained<std::string, max_length<2>>>>,
         "variant<constrained<string, max_length<2>>, any other type>"},
        {"maxLength", "maxLength validation with a decimal", "", &check<string_or_other<constrained<std::string, max_length<2>>>>,
         "variant<constrained<string, max_length<2>>, any other type>"},
        {"pattern", "pattern validation", "", &check<string_or_other<matching<"^a*$">>>, "variant<matching<\"^a*$\">, any other type>"},
        {"pattern", "pattern is not anchored", "", &check<string_or_other<matching<"a+">>>, "variant<matching<\"a+\">, any other type>"},
        {"pattern", "pattern with Unicode property escape requires unicode mode", "", &check<matching<"^\\p{Letter}+$">>,
         "matching<\"^\\\\p{Letter}+$\">"},
        {"multipleOf", "by int", "", &check<number_or_other<constrained<double, multiple_of<2>>>>,
         "variant<constrained<double, multiple_of<2>>, any other type>"},
        {"multipleOf", "by number", "", &check<number_or_other<constrained<double, multiple_of<"1.5">>>>,
         "variant<constrained<double, multiple_of<\"1.5\">>, any other type>"},
        {"multipleOf", "by small number", "", &check<number_or_other<constrained<double, multiple_of<"0.0001">>>>,
         "variant<constrained<double, multiple_of<\"0.0001\">>, any other type>"},
        // "type":"integer" with a fractional multipleOf has no typed form (a bound on an integer type must
        // be an integer); the data are integers, so double states the same constraint for them.
        {"multipleOf", "float division = inf", "", &check<constrained<double, multiple_of<"0.123456789">>>,
         "constrained<double, multiple_of<\"0.123456789\">> (integer data)"},
        {"multipleOf", "small multiple of large integer", "", &check<constrained<double, multiple_of<"1e-8">>>,
         "constrained<double, multiple_of<\"1e-8\">> (integer data)"},
        {"minimum", "minimum validation", "", &check<number_or_other<constrained<double, minimum<"1.1">>>>,
         "variant<constrained<double, minimum<\"1.1\">>, any other type>"},
        {"minimum", "minimum validation with signed integer", "", &check<number_or_other<constrained<double, minimum<-2>>>>,
         "variant<constrained<double, minimum<-2>>, any other type>"},
        {"maximum", "maximum validation", "", &check<number_or_other<constrained<double, maximum<3>>>>,
         "variant<constrained<double, maximum<3>>, any other type>"},
        {"maximum", "maximum validation with unsigned integer", "", &check<number_or_other<constrained<double, maximum<300>>>>,
         "variant<constrained<double, maximum<300>>, any other type>"},
        {"exclusiveMinimum", "exclusiveMinimum validation", "", &check<number_or_other<constrained<double, exclusive_minimum<"1.1">>>>,
         "variant<constrained<double, exclusive_minimum<\"1.1\">>, any other type>"},
        {"exclusiveMaximum", "exclusiveMaximum validation", "", &check<number_or_other<constrained<double, exclusive_maximum<3>>>>,
         "variant<constrained<double, exclusive_maximum<3>>, any other type>"},
        {"minItems", "minItems validation", "", &check<array_or_other<constrained<any_array, min_items<1>>>>,
         "variant<constrained<vector<raw_json>, min_items<1>>, any other type>"},
        {"minItems", "minItems validation with a decimal", "", &check<array_or_other<constrained<any_array, min_items<1>>>>,
         "variant<constrained<vector<raw_json>, min_items<1>>, any other type>"},
        {"maxItems", "maxItems validation", "", &check<array_or_other<constrained<any_array, max_items<2>>>>,
         "variant<constrained<vector<raw_json>, max_items<2>>, any other type>"},
        {"maxItems", "maxItems validation with a decimal", "", &check<array_or_other<constrained<any_array, max_items<2>>>>,
         "variant<constrained<vector<raw_json>, max_items<2>>, any other type>"},
        {"type", "integer type matches integers", "", &check<i64>, "std::int64_t"},
        {"type", "number type matches numbers", "", &check<double>, "double"},
        {"type", "string type matches strings", "", &check<std::string>, "std::string"},
        {"type", "object type matches objects", "", &check<any_object>, "std::map<std::string, raw_json>"},
        {"type", "array type matches arrays", "", &check<any_array>, "std::vector<raw_json>"},
        {"type", "boolean type matches booleans", "", &check<bool>, "bool"},
        {"type", "null type matches only the null object", "", &check<std::monostate>, "std::monostate"},
        {"type", "multiple types can be specified in an array", "", &check<std::variant<i64, std::string>>,
         "std::variant<std::int64_t, std::string>"},
        {"type", "type as array with one item", "", &check<std::string>, "std::string"},
        {"type", "type: array or object", "", &check<std::variant<any_array, any_object>>,
         "std::variant<std::vector<raw_json>, std::map<std::string, raw_json>>"},
        {"type", "type: array, object or null", "", &check<std::variant<std::monostate, any_array, any_object>>,
         "std::variant<std::monostate, std::vector<raw_json>, std::map<std::string, raw_json>>"},
        // uniqueItems: typed elements, chosen from each test's data
        UNIQUE("unique array of integers is valid", ints, "std::int64_t"),
        UNIQUE("non-unique array of integers is invalid", ints, "std::int64_t"),
        UNIQUE("non-unique array of integers is valid", ints, "std::int64_t"),
        UNIQUE("non-unique array of more than two integers is invalid", ints, "std::int64_t"),
        UNIQUE("numbers are unique if mathematically unequal", double, "double"),
        UNIQUE("false is not equal to zero", int_or_bool, "std::variant<std::int64_t, bool>"),
        UNIQUE("true is not equal to one", int_or_bool, "std::variant<std::int64_t, bool>"),
        UNIQUE("unique array of strings is valid", std::string, "std::string"),
        UNIQUE("non-unique array of strings is invalid", std::string, "std::string"),
        UNIQUE("unique array of objects is valid", string_map, "std::map<std::string, std::string>"),
        UNIQUE("non-unique array of objects is invalid", string_map, "std::map<std::string, std::string>"),
        UNIQUE("non-unique array of objects is valid", string_map, "std::map<std::string, std::string>"),
        UNIQUE("property order of array of objects is ignored", string_map, "std::map<std::string, std::string>"),
        UNIQUE("unique array of nested objects is valid", nested_map, "map<string, map<string, map<string, bool>>>"),
        UNIQUE("non-unique array of nested objects is invalid", nested_map, "map<string, map<string, map<string, bool>>>"),
        UNIQUE("non-unique array of nested objects is valid", nested_map, "map<string, map<string, map<string, bool>>>"),
        UNIQUE("unique array of arrays is valid", strings, "std::vector<std::string>"),
        UNIQUE("non-unique array of arrays is invalid", strings, "std::vector<std::string>"),
        UNIQUE("non-unique array of arrays is valid", strings, "std::vector<std::string>"),
        UNIQUE("non-unique array of more than two arrays is invalid", strings, "std::vector<std::string>"),
        UNIQUE("1 and true are unique", int_or_bool, "std::variant<std::int64_t, bool>"),
        UNIQUE("0 and false are unique", int_or_bool, "std::variant<std::int64_t, bool>"),
        UNIQUE("[1] and [true] are unique", int_or_bool_list, "std::vector<std::variant<std::int64_t, bool>>"),
        UNIQUE("[0] and [false] are unique", int_or_bool_list, "std::vector<std::variant<std::int64_t, bool>>"),
        UNIQUE("nested [1] and [true] are unique", nested_list, "vector<variant<vector<variant<int64_t, bool>>, string>>"),
        UNIQUE("nested [0] and [false] are unique", nested_list, "vector<variant<vector<variant<int64_t, bool>>, string>>"),
        UNIQUE("unique heterogeneous types are valid", heterogeneous, "variant<map<string, int64_t>, vector<int64_t>, bool, monostate, int64_t, string>"),
        UNIQUE("non-unique heterogeneous types are invalid", heterogeneous, "variant<map<string, int64_t>, vector<int64_t>, bool, monostate, int64_t, string>"),
        UNIQUE("non-unique heterogeneous types are valid", heterogeneous, "variant<map<string, int64_t>, vector<int64_t>, bool, monostate, int64_t, string>"),
        UNIQUE("different objects are unique", int_map, "std::map<std::string, std::int64_t>"),
        UNIQUE("objects are non-unique despite key order", int_map, "std::map<std::string, std::int64_t>"),
        UNIQUE("{\"a\": false} and {\"a\": 0} are unique", bool_or_int_map, "std::map<std::string, std::variant<bool, std::int64_t>>"),
        UNIQUE("{\"a\": true} and {\"a\": 1} are unique", bool_or_int_map, "std::map<std::string, std::variant<bool, std::int64_t>>"),
    };
    return list;
}

// The same uniqueItems groups over agentry::raw_json items ("items":{}), every test.
const std::vector<mapping>& raw_mappings() {
    static const std::vector<mapping> list{
        {"uniqueItems", "uniqueItems validation", "", &check<agentry::unique_vector<raw>>, "agentry::unique_vector<agentry::raw_json>"},
        {"uniqueItems", "uniqueItems=false validation", "", &check<std::vector<raw>>, "std::vector<agentry::raw_json>"},
    };
    return list;
}

// Groups with no typed form, and why.
constexpr std::string_view not_expressible[][2] = {
    {"uniqueItems with an array of items", "prefixItems (a tuple) has no agentry type"},
    {"uniqueItems with an array of items and additionalItems=false", "prefixItems (a tuple) has no agentry type"},
    {"uniqueItems=false with an array of items", "prefixItems (a tuple) has no agentry type"},
    {"uniqueItems=false with an array of items and additionalItems=false", "prefixItems (a tuple) has no agentry type"},
};

} // namespace suite

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    using namespace suite;
    const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path();
    if (dir.empty() || !fs::is_directory(dir)) {
        std::printf("SKIP: JSON-Schema-Test-Suite draft2020-12 not found at '%s'\n", dir.string().c_str());
        return 77;
    }
    const char* files[] = {"minLength", "maxLength", "pattern", "multipleOf", "uniqueItems", "type", "minimum",
                           "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"};
    agentry::json::read_options options;
    options.max_size = 16 * 1024 * 1024;
    int total = 0, mapped = 0, agree = 0, disagree = 0, unmapped = 0, raw_total = 0, raw_disagree = 0;
    std::vector<std::string> failures, raw_failures, skipped;
    for (const char* name : files) {
        const fs::path path = dir / (std::string(name) + ".json");
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::printf("SKIP: %s is missing\n", path.string().c_str());
            return 77;
        }
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto groups = agentry::json::read<std::vector<group>>(text, options);
        if (!groups.ok()) {
            std::printf("schema_suite_agree: cannot read %s: %s\n", path.string().c_str(), groups.errors.front().to_string().c_str());
            return 2;
        }
        int file_cases = 0, file_mapped = 0, file_agree = 0;
        for (const auto& g : groups.value) {
            for (const auto& t : g.tests) {
                ++total;
                ++file_cases;
                const std::string where = std::string(name) + " / " + g.description + " / " + t.description;
                const std::string_view data = t.data.text();
                const mapping* m = nullptr;
                for (const auto& candidate : mappings())
                    if (candidate.file == name && candidate.group == g.description &&
                        (candidate.test.empty() || candidate.test == t.description))
                        m = &candidate;
                for (const auto& r : raw_mappings()) {
                    if (r.file != name || r.group != g.description) continue;
                    ++raw_total;
                    const verdict v = r.run(data);
                    if (v.root != t.valid || v.wrapped != t.valid) {
                        ++raw_disagree;
                        raw_failures.push_back(where + ": " + std::string(data) + " valid=" + (t.valid ? "true" : "false") +
                                               ", agentry (" + std::string(r.as) + ") " + (v.root ? "accepts" : "rejects") +
                                               (v.errors.empty() ? "" : ": " + v.errors));
                    }
                }
                if (!m) {
                    ++unmapped;
                    std::string_view why = "no mapping";
                    for (const auto& n : not_expressible)
                        if (n[0] == g.description) why = n[1];
                    skipped.push_back(where + " (" + std::string(why) + ")");
                    continue;
                }
                ++mapped;
                ++file_mapped;
                const verdict v = m->run(data);
                if (v.root == t.valid && v.wrapped == t.valid) {
                    ++agree;
                    ++file_agree;
                } else {
                    ++disagree;
                    failures.push_back(where + ": " + std::string(data) + " valid=" + (t.valid ? "true" : "false") + ", agentry (" +
                                       std::string(m->as) + ") root " + (v.root ? "accepts" : "rejects") + ", as a member " +
                                       (v.wrapped ? "accepts" : "rejects") + (v.errors.empty() ? "" : ": " + v.errors));
                }
            }
        }
        std::printf("  %-17s %3d cases, %3d mapped to a typed parameter, %3d agree\n", name, file_cases, file_mapped, file_agree);
    }
    std::printf("schema suite: %d cases, %d mapped, %d agree, %d disagree, %d not expressible\n", total, mapped, agree, disagree,
                unmapped);
    for (const auto& f : failures) std::printf("  DISAGREE %s\n", f.c_str());
    std::printf("uniqueItems over agentry::raw_json items: %d cases, %d disagree\n", raw_total, raw_disagree);
    for (const auto& f : raw_failures) std::printf("  DISAGREE %s\n", f.c_str());
    for (const auto& s : skipped) std::printf("  not expressible: %s\n", s.c_str());
    return failures.empty() && raw_failures.empty() ? 0 : 1;
}
