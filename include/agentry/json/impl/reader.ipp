// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_READER_IPP
#define AGENTRY_JSON_IMPL_READER_IPP

// The reader's functions that are not templates (its error paths and the code every type's
// reader shares): included by json/reader.hpp (header-only) or by json/impl/src.ipp (separate
// compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_constraints.hpp>
#include <agentry/json/detail/read_container.hpp>
#include <agentry/json/detail/read_document.hpp>
#include <agentry/json/detail/read_enum.hpp>
#include <agentry/json/detail/read_object.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/json/error.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

// The definitions add noinline to their declarations (json/detail/lexer.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif

namespace agentry::json::detail {

// json/detail/read_state.hpp

AGENTRY_JSON_COLD std::string reader::pointer() const {
    std::string out;
    const std::size_t shown = path_size_ < max_path ? path_size_ : max_path;
    for (std::size_t i = 0; i != shown; ++i) {
        out.push_back('/');
        if (path_[i].is_index()) {
            out += std::to_string(path_[i].value >> 1);
        } else {
            for (char c : std::string_view(path_[i].key_data, path_[i].value >> 1)) {
                if (c == '~') out += "~0";
                else if (c == '/') out += "~1";
                else out.push_back(c);
            }
        }
    }
    return out;
}

AGENTRY_JSON_COLD void reader::record(error_kind kind, std::string message) {
        if (errors_.size() >= (options_.max_errors == 0 ? 1 : options_.max_errors)) {
        errors_.push_back({pointer(), error_kind::too_many_errors,
                           errors_.size() == 1 ? std::string("too many errors; only the first is listed")
                                             : "too many errors; only the first " + std::to_string(errors_.size()) +
                                                   " are listed"});
        stopped_ = true;
        return;
    }
    errors_.push_back({pointer(), kind, std::move(message)});
}

AGENTRY_JSON_COLD void reader::syntax_error() {
    if (stopped_) return;
    const auto e = in.error == lex_error::none ? lex_error::unexpected_character : in.error;
    const bool deep = e == lex_error::too_deep;
    error(deep ? error_kind::too_deep : error_kind::syntax,
          deep ? "nesting deeper than " + std::to_string(options_.max_depth) + " levels"
               : "invalid JSON at byte " + std::to_string(in.offset()) + ": " + std::string(describe(e)));
    ++error_count_;
    stopped_ = true;
}

AGENTRY_JSON_COLD void reader::repaired(std::string note) {
    if (quiet_) return;
    const std::string where = pointer();
    repairs_.push_back(where.empty() ? std::move(note) : where + ": " + note);
}

AGENTRY_JSON_COLD std::string excerpt_at(const cursor& in) {
    cursor probe = in;
    const char* start = probe.p;
    if (!skip_value(probe, 0, 64)) probe.p = probe.end;
    return agentry::detail::printable(std::string_view(start, std::size_t(probe.p - start)));
}

AGENTRY_JSON_COLD void type_error_as(reader& r, std::string_view expected) {
    cursor after = r.in;
    if (!skip_value(after, r.depth, r.options().max_depth) && after.error != lex_error::too_deep) {
        r.in = after;
        r.syntax_error();
        return;
    }
    if (r.in.peek() == 'n')
        r.error(error_kind::null_value, "must not be null; expected " + std::string(expected));
    else
        r.error(error_kind::type, "expected " + std::string(expected) + ", got " +
                                      std::string(json_type_at(r.in)) + " " + excerpt_at(r.in));
    if (after.error == lex_error::too_deep) r.skip();  // reports the depth
    else r.in = after;
}

// json/detail/read_container.hpp

AGENTRY_JSON_COLD bool too_deep(reader& r) {
    r.in.fail(lex_error::too_deep);
    r.syntax_error();
    return false;
}

AGENTRY_JSON_COLD bool unexpected_at_cursor(reader& r) {
    r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
    r.syntax_error();
    return false;
}

AGENTRY_JSON_SHARED void read_members_at(reader& r, void (*member)(void*, std::string_view), void* context) {
    std::string decoded;
    for (;;) {
        r.in.skip_ws();
        if (r.in.peek() != '"') {
            r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
            r.syntax_error();
            return;
        }
        const char* start = r.in.p + 1;
        bool escaped = false;
        if (!read_string(r.in, nullptr, &escaped)) {
            r.syntax_error();
            return;
        }
        std::string_view key(start, std::size_t(r.in.p - 1 - start));
        if (escaped) {
            cursor again = r.in;
            again.p = start - 1;
            decoded.clear();
            read_string(again, &decoded);
            key = decoded;
        }
        if (!r.in.consume(':')) {
            r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
            r.syntax_error();
            return;
        }
        r.in.skip_ws();
        r.push_key(key);
        member(context, key);
        r.pop();
        if (r.stopped() || !next_member(r)) return;
    }
}

AGENTRY_JSON_COLD bool read_container_in_string(reader& r, char open, void (*read)(reader&, void*), void* value) {
    if (r.in.peek() == '"' && r.options().repairs.json_in_string) {
        cursor saved = r.in;
        std::string text;
        if (!read_string_value(r, text)) return false;
        const auto first = text.find_first_not_of(" \t\r\n");
        if (first != std::string::npos && text[first] == open) {
            std::vector<read_error> errors;
            std::vector<std::string> repairs;
            reader inner = r.nested(text, false, errors, repairs);
            inner.in.skip_ws();
            read(inner, value);
            inner.in.skip_ws();
            if (!inner.stopped() && !inner.in.at_end()) {
                inner.in.fail(lex_error::unexpected_character);
                inner.syntax_error();
            }
            if (errors.empty() && !inner.stopped()) {
                r.repaired(std::string(open == '{' ? "an object" : "an array") +
                           " sent as a JSON string was read as JSON");
                return true;
            }
        }
        r.in = saved;
    }
    type_error_as(r, open == '{' ? "an object" : "an array");
    return false;
}

// json/detail/read_enum.hpp

AGENTRY_JSON_COLD std::size_t unknown_enum_name(reader& r, std::string_view name, const std::string_view* names,
                                                std::size_t count) {
    if (r.options().repairs.enum_case) {
        for (std::size_t i = 0; i != count; ++i) {
            if (agentry::detail::equal_ignoring_case(names[i], name)) {
                r.repaired("\"" + std::string(name) + "\" was read as \"" + std::string(names[i]) + "\"");
                return i;
            }
        }
    }
    std::string list = "[";
    for (std::size_t i = 0; i != count; ++i) {
        if (i != 0) list += ',';
        list += '"';
        list += names[i];
        list += '"';
    }
    list += ']';
    std::string message = "\"" + std::string(name) + "\" is not one of " + list;
    const std::string_view guess = closest(name, std::span<const std::string_view>(names, count));
    if (!guess.empty()) message += " (did you mean \"" + std::string(guess) + "\"?)";
    r.error(error_kind::enum_value, std::move(message));
    return count;
}

AGENTRY_JSON_SHARED std::size_t name_index(std::string_view name, const std::string_view* names,
                                           std::size_t count) noexcept {
    for (std::size_t i = 0; i != count; ++i)
        if (same_text(names[i], name)) return i;
    return count;
}

AGENTRY_JSON_COLD std::size_t read_enum_index_general(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() != '"') {
        type_error_as(r, "a string");
        return count;
    }
    std::string scratch;
    std::string_view name;
    if (!read_string_view(r, scratch, name)) return count;
    if (const std::size_t i = name_index(name, names, count); i != count) return i;
    return unknown_enum_name(r, name, names, count);
}

AGENTRY_JSON_SHARED std::size_t read_enum_index(reader& r, const std::string_view* names, std::size_t count) {
    if (r.in.peek() == '"') {
        const char* const start = r.in.p + 1;
        if (const char* close = skip_plain(start, r.in.end); close != r.in.end && *close == '"') {
            const std::string_view name(start, std::size_t(close - start));
            if (const std::size_t i = name_index(name, names, count); i != count) {
                r.in.p = close + 1;
                return i;
            }
        }
    }
    return read_enum_index_general(r, names, count);
}

AGENTRY_JSON_SHARED void read_enum(reader& r, void* at, const enum_plan& plan) {
    if (r.stopped()) return;
    r.in.skip_ws();
    const std::size_t i = read_enum_index(r, plan.names, plan.count);
    if (i == plan.count) return;
    const char* value = static_cast<const char*>(plan.values) + i * plan.size;
    switch (plan.size) {
    case 1: std::memcpy(at, value, 1); break;
    case 2: std::memcpy(at, value, 2); break;
    case 4: std::memcpy(at, value, 4); break;
    case 8: std::memcpy(at, value, 8); break;
    default: std::memcpy(at, value, plan.size);
    }
}

// json/detail/read_string.hpp

AGENTRY_JSON_SHARED bool read_string_value(reader& r, std::string& out) {
    std::string_view view;
    if (!read_string_view(r, out, view)) return false;
    if (view.data() != out.data()) {
        // Into an empty string, append costs less than assign's general path (same growth).
        if (out.empty()) out.append(view.data(), view.size());
        else out.assign(view);
    }
    return true;
}

// json/detail/read_document.hpp

AGENTRY_JSON_COLD void too_large(std::vector<read_error>& errors, std::size_t size, std::size_t limit) {
    errors.push_back({"", error_kind::too_large,
                      "the arguments are " + std::to_string(size) + " bytes long, more than the limit of " +
                          std::to_string(limit)});
}

AGENTRY_JSON_SHARED bool read_empty_as_object(std::string_view text, std::vector<std::string>& repairs) {
    if (text.find_first_not_of(" \t\r\n") != std::string_view::npos) return false;
    repairs.push_back("empty arguments were read as {}");
    return true;
}

AGENTRY_JSON_COLD void unexpected_after_value(reader& r) {
    r.in.fail(lex_error::unexpected_character);
    r.error(error_kind::syntax,
            "invalid JSON at byte " + std::to_string(r.in.offset()) + ": unexpected content after the value");
}

AGENTRY_JSON_SHARED void read_document(std::string_view text, const read_options& options, document_parts out,
                                       bool empty_object, void (*read)(reader&, void*)) {
    if (text.size() > options.max_size) {
        too_large(out.errors, text.size(), options.max_size);
        return;
    }
    if (empty_object && options.repairs.empty_as_object && read_empty_as_object(text, out.repairs)) return;
    reader r(text, options, out.errors, out.repairs);
    r.owned_text = &out.owned_text;
    read(r, out.value);
    if (r.stopped()) return;
    r.in.skip_ws();
    if (!r.in.at_end()) unexpected_after_value(r);
}

// json/detail/read_constraints.hpp

AGENTRY_JSON_COLD void bound_error(reader& r, error_kind kind, std::string_view what, std::string_view bound) {
    r.error(kind, std::string(what) + std::string(bound));
}

AGENTRY_JSON_COLD void length_error(reader& r, error_kind kind, std::string_view what, std::size_t n) {
    r.error(kind, std::string(what) + std::to_string(n) + (n == 1 ? " character long" : " characters long"));
}

// json/detail/read_object.hpp

AGENTRY_JSON_COLD void null_member(reader& r, std::string_view expected) {
    if (!r.options().null_as_absent) {
        r.error(error_kind::null_value, "must not be null; leave the property out, or give " + std::string(expected));
        r.skip();
        return;
    }
    read_literal(r, "null");
}

AGENTRY_JSON_SHARED std::size_t find_member(std::string_view key, std::size_t expected, const std::string_view* names,
                                            const std::uint32_t* signatures, std::size_t size) noexcept {
    if (expected < size && same_text(names[expected], key)) return expected;
    const std::uint32_t signature = name_signature(key);
    for (std::size_t i = 0; i != size; ++i)
        if (signatures[i] == signature && same_text(names[i], key)) return i;
    return size;
}

AGENTRY_JSON_SHARED bool at_member_name_spaced(cursor& in, const char* name, std::size_t n) noexcept {
    if (std::size_t(in.end - in.p) < n + 3 || in.p[0] != '"' || in.p[n + 1] != '"' ||
        std::memcmp(in.p + 1, name, n) != 0)
        return false;
    cursor after = in;
    after.p += n + 2;
    if (!after.consume(':')) return false;
    in.p = after.p;
    return true;
}

AGENTRY_JSON_COLD void unknown_member(reader& r, std::string_view key, const std::string_view* names,
                                      std::size_t count) {
    if (r.options().ignore_unknown_properties) {
        r.skip();
        return;
    }
    std::string message = "unknown property";
    const std::string_view guess = closest(key, std::span<const std::string_view>(names, count));
    if (!guess.empty()) {
        message += "; did you mean \"" + std::string(guess) + "\"?";
    } else {
        message += "; allowed: ";
        for (std::size_t i = 0; i != count; ++i) {
            if (i != 0) message += ", ";
            message += names[i];
        }
        if (count == 0) message += "none";
    }
    r.error(error_kind::unknown_property, std::move(message));
    r.skip();
}

AGENTRY_JSON_COLD void duplicate_member(reader& r) {
    r.error(error_kind::duplicate_property, "duplicate property");
    r.skip();
}

AGENTRY_JSON_COLD void missing_members(reader& r, std::uint64_t missing, const std::string_view* names) {
    if (r.options().absent_as_default) return;  // the members keep the values they were built with
    for (; missing != 0; missing &= missing - 1) {
        const std::string_view name = names[std::countr_zero(missing)];
        r.push_key(name);
        r.error(error_kind::required, "missing required property");
        r.pop();
    }
}

AGENTRY_JSON_SHARED void read_object_at(reader& r, const object_plan& plan, void* const* members, void* value) {
    r.in.skip_ws();
    if (!expect_container(r, '{', plan.read, value)) return;
    r.in.skip_ws();
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        if (plan.required != 0) missing_members(r, plan.required, plan.names);
        return;
    }
    std::size_t i = 0;
    bool more = true;
    for (; i != plan.size; ++i) {
        const member_key& key = plan.keys[i];
        if (!at_member_key(r.in, key)) break;
        r.push_key({key.text + 1, key.size - 3});
        plan.readers[i](r, members[i]);
        r.pop();
        if (r.stopped()) return;
        if (!next_member(r)) {
            if (r.stopped()) return;
            more = false;
            ++i;
            break;
        }
    }
    std::uint64_t seen = i == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << i) - 1;
    if (more) {
        any_order rest{r, plan, members, seen, i};
        read_members_at(r, &any_order::member, &rest);
        if (r.stopped()) return;
    }
    if (const std::uint64_t missing = plan.required & ~seen; missing != 0) missing_members(r, missing, plan.names);
}

} // namespace agentry::json::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
