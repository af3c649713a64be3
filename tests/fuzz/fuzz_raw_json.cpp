// SPDX-License-Identifier: BSL-1.0
// read<agentry::raw_json>: the whole input is the JSON text.
//
// Checked: agentry accepts exactly the texts an independent parser (fuzz_common.hpp) accepts,
// at the default depth limit and at a small one; an accepted value is the input without its
// surrounding whitespace, and reads again to the same text; written back, it is unchanged;
// inside an object member (fixtures::raw_payload) it is accepted and kept the same way.

#include "fuzz_common.hpp"

#include <fixtures.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

// Raw JSON is read as I-JSON (RFC 7493): JSON with a repeated name or a number beyond a double
// is refused with that one error.
template <class Result>
bool is_i_json_refusal(const Result& r) {
    return !r.ok() && r.errors.size() == 1 &&
           (r.errors.front().kind == agentry::json::error_kind::duplicate_property ||
            r.errors.front().kind == agentry::json::error_kind::out_of_range);
}

void check_raw(std::string_view text, std::size_t max_depth) {
    agentry::json::read_options options;
    options.max_depth = max_depth;
    const auto r = agentry::json::read<agentry::raw_json>(text, options);
    fuzz::check_result(r, options);
    const bool is_json = fuzz::parse_json(text, max_depth).has_value();
    const bool i_json_refusal = is_i_json_refusal(r);
    FUZZ_CHECK(r.ok() == is_json || (is_json && i_json_refusal),
               std::string(is_json ? "valid JSON rejected: " : "invalid JSON accepted: ") +
                   fuzz::describe_errors(r.errors));
    if (i_json_refusal && is_json) return;
    if (!r.ok()) {
        // Not JSON: exactly one error, and it says so.
        FUZZ_CHECK(r.errors.size() == 1, fuzz::describe_errors(r.errors));
        FUZZ_CHECK(fuzz::has_syntax_error(r), fuzz::describe_errors(r.errors));
        return;
    }
    const std::string& raw = r.value.text();
    FUZZ_CHECK(raw == fuzz::trim_json_ws(text), raw);
    FUZZ_CHECK(!raw.empty(), "");

    // Reads again to the same text.
    const auto again = agentry::json::read<agentry::raw_json>(raw, options);
    FUZZ_CHECK(again.ok(), fuzz::describe_errors(again.errors));
    FUZZ_CHECK(again.value.text() == raw, again.value.text());

    // Written back as it is.
    std::string written;
    FUZZ_CHECK(agentry::json::write(written, r.value), "write cut the text");
    FUZZ_CHECK(written == raw, written);
}

void check_member(std::string_view text) {
    // {"kind":"k","payload":<text>}: the payload is one level deeper.
    std::string object = R"({"kind":"k","payload":)";
    object.append(text);
    object += '}';
    const auto r = agentry::json::read<fixtures::raw_payload>(object);
    fuzz::check_result(r, {});
    // Only the payload text can be wrong here; a '}' in it can close the object early, so
    // compare only when the text is JSON by itself.
    if (fuzz::parse_json(text, 63).has_value()) {
        if (is_i_json_refusal(r)) return;
        FUZZ_CHECK(r.ok(), fuzz::describe_errors(r.errors));
        FUZZ_CHECK(r.value.payload.text() == fuzz::trim_json_ws(text), r.value.payload.text());
        FUZZ_CHECK(r.value.kind == "k", r.value.kind);
    } else if (r.ok()) {
        // Accepted although the text alone is not JSON: the object as a whole must be.
        FUZZ_CHECK(fuzz::parse_json(object, 64).has_value(), object);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);
    check_raw(text, 64);
    check_raw(text, 3);
    check_member(text);
    return 0;
}
