// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_RESULT_HPP
#define AGENTRY_JSON_DETAIL_READ_RESULT_HPP

// What agentry::json::read returns: the value read, its errors, the repairs applied and the
// text its views point into.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/error.hpp>

#include <memory>
#include <string>
#include <vector>

namespace agentry::json {

/// What a read reports besides the value: the part of read_result<T> that does not depend on
/// T (its destructor is compiled once, not once per T).
struct read_report {
    std::vector<read_error> errors;
    /// One note per repair applied (see agentry::json::repairs).
    std::vector<std::string> repairs;
    /// The text of std::string_view values that could not view the input (it held escapes):
    /// `value`'s views point here or into the input, so keep both while `value` is used.
    std::vector<std::unique_ptr<char[]>> owned_text;

    bool ok() const noexcept { return errors.empty(); }

    read_report() = default;
    read_report(read_report&&) = default;
    read_report& operator=(read_report&&) = default;
    AGENTRY_JSON_SHARED ~read_report() {}
};

template <class T>
struct read_result : read_report {
    T value{};

    read_result() = default;
    read_result(read_result&&) = default;
    read_result& operator=(read_result&&) = default;
    // Out of line: a tool's call then destroys its arguments through one call, not an inlined
    // copy of their destructors on each path out of it.
    AGENTRY_JSON_SHARED ~read_result() {}
};

} // namespace agentry::json

#endif
