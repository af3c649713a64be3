// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_RAW_JSON_HPP
#define AGENTRY_SCHEMA_RAW_JSON_HPP

#include <string>
#include <string_view>
#include <utility>

namespace agentry {

/// Free-form JSON of any type, kept as its text. Its schema is `{}` (any value); the reader
/// checks only that the text is well-formed JSON. Not expressible in the strict dialects.
class raw_json {
public:
    raw_json() = default;
    explicit raw_json(std::string text) : text_(std::move(text)) {}

    const std::string& text() const noexcept { return text_; }
    std::string& text() noexcept { return text_; }
    bool empty() const noexcept { return text_.empty(); }

    friend bool operator==(const raw_json&, const raw_json&) = default;

private:
    std::string text_;
};

} // namespace agentry

#endif
