// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_CONTAINER_HPP
#define AGENTRY_JSON_DETAIL_READ_CONTAINER_HPP

// What arrays and objects share: opening a container within the depth limit, walking its
// elements or members, and the json_in_string repair.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace agentry::json::detail {

// A container one level deeper than read_options::max_depth: a syntax error (false).
AGENTRY_JSON_COLD_DECL bool too_deep(reader& r);

inline bool open_container(reader& r, char open) {
    if (r.in.peek() != open) return false;
    if (r.depth + 1 > r.options().max_depth) return too_deep(r);
    ++r.in.p;
    ++r.depth;
    return true;
}

// Reads the elements of an array, calling element(index) with the cursor on each.
template <class Element>
void read_elements(reader& r, Element&& element) {
    std::size_t index = 0;
    r.in.skip_ws();
    if (r.in.peek() == ']') {
        ++r.in.p;
        --r.depth;
        return;
    }
    for (;;) {
        r.in.skip_ws();
        r.push_index(index);
        element(index);
        r.pop();
        if (r.stopped()) return;
        ++index;
        r.in.skip_ws();
        if (r.in.peek() == ',') {
            ++r.in.p;
            continue;
        }
        if (r.in.peek() == ']') {
            ++r.in.p;
            --r.depth;
            return;
        }
        r.in.fail(r.in.at_end() ? lex_error::end_of_input : lex_error::unexpected_character);
        r.syntax_error();
        return;
    }
}

// No ',' or closing bracket where one must be: a syntax error (false).
AGENTRY_JSON_COLD_DECL bool unexpected_at_cursor(reader& r);

// After a member's value: past the ',' (true: another member follows) or the closing '}'
// (false, the object read); a syntax error otherwise (false).
AGENTRY_JSON_INLINE bool next_member(reader& r) {
    r.in.skip_ws();
    if (r.in.peek() == ',') {
        ++r.in.p;
        return true;
    }
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        return false;
    }
    return unexpected_at_cursor(r);
}

// Reads the members of an object from the one at the cursor on, calling member(context, key)
// with the cursor on each value.
AGENTRY_JSON_SHARED_DECL void read_members_at(reader& r, void (*member)(void*, std::string_view), void* context);

// read_members_at with a callable member(key).
template <class Member>
AGENTRY_JSON_INLINE void read_members_at(reader& r, Member&& member) {
    using M = std::remove_reference_t<Member>;
    read_members_at(r, [](void* m, std::string_view key) { (*static_cast<M*>(m))(key); }, &member);
}

// Reads the members of an object, calling member(key) with the cursor on each value.
template <class Member>
void read_members(reader& r, Member&& member) {
    r.in.skip_ws();
    if (r.in.peek() == '}') {
        ++r.in.p;
        --r.depth;
        return;
    }
    read_members_at(r, member);
}

// The value at the cursor is not the container `open` starts. With the json_in_string repair,
// a string holding such a container is read by read(inner, value) on a reader of its text;
// true when that read gave no error (the repair noted), and `value` then holds the result.
// Otherwise the cursor is restored and the type error reported.
AGENTRY_JSON_COLD_DECL bool read_container_in_string(reader& r, char open, void (*read)(reader&, void*), void* value);

// A T read into `value`: the reader of a value of any type, as a pointer to one function.
template <class T>
void read_at(reader& r, void* value) {
    read_value(r, *static_cast<T*>(value));
}

// The cursor is on the container `open` starts; otherwise a type error, or (json_in_string
// repair) a string holding such a container, read into `out` by `read`. `out` is fresh (a
// value just made), so what a failed repair leaves in it goes with the error.
AGENTRY_JSON_INLINE bool expect_container(reader& r, char open, void (*read)(reader&, void*), void* out) {
    if (open_container(r, open)) return true;
    if (!r.stopped()) read_container_in_string(r, open, read, out);
    return false;
}

} // namespace agentry::json::detail

#endif
