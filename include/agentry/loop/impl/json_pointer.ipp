// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_JSON_POINTER_IPP
#define AGENTRY_LOOP_IMPL_JSON_POINTER_IPP

// The definitions of JSON Pointer (loop/detail/json_pointer.hpp): included by it header-only, and
// by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/detail/json_pointer.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer) {
    std::vector<std::string> tokens;
    if (pointer.empty()) return tokens;
    if (pointer.front() != '/') return std::nullopt;
    for (std::size_t i = 1;; ++i) {
        std::string& t = tokens.emplace_back();
        for (; i != pointer.size() && pointer[i] != '/'; ++i) {
            if (pointer[i] != '~') {
                t.push_back(pointer[i]);
                continue;
            }
            if (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return std::nullopt;
            t.push_back(pointer[++i] == '0' ? '~' : '/');
        }
        if (i == pointer.size()) return tokens;
    }
}

AGENTRY_DECL bool well_formed_json(std::string_view text) {
    json::detail::cursor in{text.data(), text.data(), text.data() + text.size()};
    if (!json::detail::skip_value(in, 0, pointer_max_depth)) return false;
    in.skip_ws();
    return in.at_end();
}

// The array index a token names: digits without a leading zero.
AGENTRY_DECL std::optional<std::size_t> array_index(std::string_view token) {
    if (token.empty() || token.size() > 9 || (token.size() > 1 && token.front() == '0')) return std::nullopt;
    std::size_t n = 0;
    for (char c : token) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + std::size_t(c - '0');
    }
    return n;
}

struct child_found {
    bool container = false;  // the value is an object or an array
    bool object = false;
    bool found = false;      // the cursor is then on the child's value
    std::size_t count = 0;   // children before the cursor
    const char* close = nullptr;  // when not found: the closing bracket
};

// Looks for the child `token` of the value at the cursor (well-formed JSON).
AGENTRY_DECL child_found find_child(json::detail::cursor& in, std::string_view token) {
    child_found r;
    in.skip_ws();
    const char c = in.peek();
    if (c != '{' && c != '[') return r;
    r.container = true;
    r.object = c == '{';
    const std::optional<std::size_t> index = r.object ? std::nullopt : array_index(token);
    ++in.p;
    in.skip_ws();
    if (in.peek() == (r.object ? '}' : ']')) {
        r.close = in.p;
        return r;
    }
    for (;;) {
        in.skip_ws();
        if (r.object) {
            std::string key;
            if (!json::detail::read_string(in, &key) || !in.consume(':')) return r.container = false, r;
            in.skip_ws();
            if (key == token) return r.found = true, r;
        } else if (index == r.count) {
            return r.found = true, r;
        }
        if (!json::detail::skip_value(in, 0, pointer_max_depth)) return r.container = false, r;
        ++r.count;
        in.skip_ws();
        if (in.peek() != ',') {
            r.close = in.p;
            return r;
        }
        ++in.p;
    }
}

AGENTRY_DECL std::optional<text_span> json_at(std::string_view text, std::span<const std::string> tokens) {
    json::detail::cursor in{text.data(), text.data(), text.data() + text.size()};
    for (const std::string& t : tokens)
        if (!find_child(in, t).found) return std::nullopt;
    in.skip_ws();
    const char* start = in.p;
    if (!json::detail::skip_value(in, 0, pointer_max_depth)) return std::nullopt;
    return text_span{std::size_t(start - text.data()), std::size_t(in.p - text.data())};
}

AGENTRY_DECL bool json_set(std::string& text, std::span<const std::string> tokens, std::string_view value) {
    if (tokens.empty()) {
        text = std::string(value);
        return true;
    }
    const std::optional<text_span> parent = json_at(text, tokens.first(tokens.size() - 1));
    if (!parent) return false;
    json::detail::cursor in{text.data(), text.data() + parent->begin, text.data() + parent->end};
    const std::string& last = tokens.back();
    const child_found child = find_child(in, last);
    if (!child.container) return false;
    if (child.found) {
        const std::size_t start = std::size_t(in.p - text.data());
        if (!json::detail::skip_value(in, 0, pointer_max_depth)) return false;
        text.replace(start, std::size_t(in.p - text.data()) - start, value);
        return true;
    }
    std::string added = child.count != 0 ? "," : "";
    if (child.object) {
        json::write(added, last);
        added += ':';
    } else if (last != "-" && array_index(last) != child.count) {
        return false;
    }
    added += value;
    text.insert(std::size_t(child.close - text.data()), added);
    return true;
}

} // namespace agentry::detail

#endif
