// SPDX-License-Identifier: BSL-1.0
// json::parse: the whole input is the JSON text. Its replay runs over corpus/raw_json.
//
// Checked: parse reports exactly the errors read<agentry::raw_json> reports (pointers, kinds,
// messages), at the default depth limit and at a small one; an accepted value written back
// (json::to_text) reads again to an equal value, whose text is the same; a schema check of it
// against {} and against a schema of every keyword the input's first byte picks never fails
// to return.

#include "fuzz_common.hpp"

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

bool same_errors(const std::vector<agentry::json::read_error>& a, const std::vector<agentry::json::read_error>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i != a.size(); ++i)
        if (a[i].pointer != b[i].pointer || a[i].kind != b[i].kind || a[i].message != b[i].message) return false;
    return true;
}

void check_parse(std::string_view text, std::size_t max_depth) {
    agentry::json::read_options options;
    options.max_depth = max_depth;
    const agentry::json::parsed p = agentry::json::parse(text, options);
    const auto r = agentry::json::read<agentry::raw_json>(text, options);
    FUZZ_CHECK(same_errors(p.errors, r.errors),
               "parse: " + fuzz::describe_errors(p.errors) + "; read: " + fuzz::describe_errors(r.errors));
    if (!p.ok()) return;
    const std::string written = agentry::json::to_text(p.value);
    const agentry::json::parsed again = agentry::json::parse(written, options);
    FUZZ_CHECK(again.ok(), fuzz::describe_errors(again.errors));
    FUZZ_CHECK(again.value == p.value, written);
    FUZZ_CHECK(agentry::json::to_text(again.value) == written, written);
}

void check_schema(std::string_view text) {
    const agentry::json::parsed p = agentry::json::parse(text);
    if (!p.ok()) return;
    FUZZ_CHECK(agentry::json::check_schema(agentry::json::value::object(), p.value).empty(), "{} refused a value");
    static const agentry::json::parsed every = agentry::json::parse(
        R"({"type":["object","array","string","number","null","boolean"],"minimum":-1e3,"maximum":1e3,)"
        R"("multipleOf":0.5,"minLength":1,"maxLength":8,"pattern":"^[a-z]+\\d*$","format":"date",)"
        R"("items":{"$ref":"#"},"uniqueItems":true,"maxItems":4,"properties":{"a":{"$ref":"#"}},)"
        R"("additionalProperties":{"anyOf":[{"type":"integer"},{"const":null}]},"required":["a"]})");
    static const agentry::json::schema_checker checker(every.value);
    const auto errors = checker(p.value);
    FUZZ_CHECK(errors.size() <= 33, fuzz::describe_errors(errors));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);
    check_parse(text, 64);
    check_parse(text, 3);
    check_schema(text);
    return 0;
}
