// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_OBJECT_HPP
#define AGENTRY_JSON_DETAIL_READ_OBJECT_HPP

// Reading objects into structs and into the named parameters of a tool: the members as data
// (one object_plan per type), read by one function for all of them; optional members.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_container.hpp>
#include <agentry/json/detail/read_enum.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/detail/classify.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::json::detail {

template <class P>
struct object_access;

template <class P>
void read_object(reader& r, void* value);

// The members of an object type: names, and access to each member's storage.
template <class T>
    requires reflect::aggregate<T>
struct object_access<T> {
    using storage = T;
    static constexpr std::size_t size = reflect::field_count<T>;
    static constexpr const auto& names = reflect::field_names<T>;
    template <std::size_t I>
    static auto& member(T& value) noexcept {
        return reflect::field<I>(value);
    }
};

template <class... A, fixed_string... N>
struct object_access<named_parameters<reflect::type_list<A...>, N...>> {
    using storage = std::tuple<std::remove_cvref_t<A>...>;
    static constexpr std::size_t size = sizeof...(A);
    static constexpr std::array<std::string_view, sizeof...(A)> names{N.view()...};
    template <std::size_t I>
    static auto& member(storage& value) noexcept {
        return std::get<I>(value);
    }
    static void addresses(storage& value, void** at) noexcept {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            ((at[I] = std::addressof(std::get<I>(value))), ...);
        }(std::make_index_sequence<size>{});
    }
};

template <class F>
inline constexpr bool is_optional_member = schema::detail::is_optional<std::remove_cv_t<F>>;

template <class Access, std::size_t I>
using member_type = std::remove_reference_t<decltype(Access::template member<I>(std::declval<typename Access::storage&>()))>;

template <class T>
consteval bool admits_null() noexcept {
    if constexpr (kind_of<T>() == kind::any || kind_of<T>() == kind::null) return true;
    else if constexpr (kind_of<T>() == kind::adapted) return admits_null<schema::detail::json_type_of<T>>();
    else if constexpr (kind_of<T>() == kind::variant)
        return []<class... A>(std::variant<A...>*) {
            return (admits_null<std::remove_cv_t<A>>() || ...);
        }(static_cast<T*>(nullptr));
    else return false;
}

// null for an optional member whose schema does not admit null: reported and skipped, or read
// as absent (read_options::null_as_absent).
AGENTRY_JSON_COLD_DECL void null_member(reader& r, std::string_view expected);

// A member of type M at `at`, the cursor on its value. One function per member type, shared
// by every struct that has a member of that type; for an enumeration, a call of the function
// shared by all of them.
template <class M>
void read_member(reader& r, void* at) {
    if constexpr (kind_of<M>() == kind::enumeration) {
        read_enum(r, at, enum_plan_of<M>);
    } else {
        M& member = *static_cast<M*>(at);
        if constexpr (is_optional_member<M>) {
            // read_value skips the whitespace before a value; here the value is looked at first.
            r.in.skip_ws();
            if (r.in.peek() == 'n' && !cursor(r.in).literal("null")) {
                read_literal(r, "null");  // not JSON: a syntax error, alone
                return;
            }
            if (r.in.peek() == 'n' && admits_null<typename M::value_type>()) {
                // The member's own schema allows null (raw JSON, a variant with std::monostate).
                if (!member.has_value()) member.emplace();
                read_value(r, *member);
                return;
            }
            if (r.in.peek() == 'n') {
                null_member(r, expected_name<typename M::value_type>());
                return;
            }
            if (!member.has_value()) member.emplace();
            read_value(r, *member);
        } else {
            read_value(r, member);
        }
    }
}

template <class Access>
consteval std::uint64_t required_mask() {
    std::uint64_t mask = 0;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((mask |= is_optional_member<member_type<Access, I>> ? 0 : (std::uint64_t(1) << I)), ...);
    }(std::make_index_sequence<Access::size>{});
    return mask;
}

// Whether a member name is matched in the input byte for byte: every byte of it stands for
// itself in a JSON string (printable ASCII other than '"' and '\\').
constexpr bool plain_name(std::string_view name) noexcept {
    for (char c : name)
        if (!plain_byte[static_cast<unsigned char>(c)]) return false;
    return true;
}

// A name's length and first and last bytes in one word: a member whose key differs in any of
// them is passed over without comparing the rest.
constexpr std::uint32_t name_signature(std::string_view name) noexcept {
    if (name.empty()) return 0;
    return std::uint32_t(name.size()) << 16 | std::uint32_t(static_cast<unsigned char>(name.front())) << 8 |
           std::uint32_t(static_cast<unsigned char>(name.back()));
}

template <class Access>
inline constexpr auto name_signatures = [] {
    std::array<std::uint32_t, Access::size> table{};
    for (std::size_t i = 0; i != Access::size; ++i) table[i] = name_signature(Access::names[i]);
    return table;
}();

// The index of the member named `key` (Access::size when none is): `expected` first, as
// members mostly come in declaration order, then by the table of signatures.
AGENTRY_JSON_SHARED_DECL std::size_t find_member(std::string_view key, std::size_t expected, const std::string_view* names,
                                            const std::uint32_t* signatures, std::size_t size) noexcept;

// The quoted name `name` (plain, n bytes), whitespace, then ':' at the cursor: the cursor
// moves past the ':' and true is returned; otherwise false, the cursor where it was.
AGENTRY_JSON_SHARED_DECL bool at_member_name_spaced(cursor& in, const char* name, std::size_t n) noexcept;

// A member's key `"name":` as the in-order path matches it: its first and last eight bytes (four
// when it is shorter than eight) as the words a load from the input gives, its size, and its
// text. A name the general path reads (escapes, or shorter than four bytes with its quotes and
// ':') has the size no input reaches.
struct member_key {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    std::size_t size = static_cast<std::size_t>(-1);
    const char* text = nullptr;
};

// The bytes of `text` from `at`, n of them (n <= 8), as one load of them gives.
constexpr std::uint64_t key_word(std::string_view text, std::size_t at, std::size_t n) noexcept {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i != n; ++i) {
        const std::uint64_t byte = static_cast<unsigned char>(text[at + i]);
        word |= std::endian::native == std::endian::little ? byte << (8 * i) : byte << (8 * (n - 1 - i));
    }
    return word;
}

// The keys of Access's members, one after the other, and the table that describes them.
template <class Access>
inline constexpr auto key_text = [] {
    constexpr std::size_t total = [] {
        std::size_t n = 1;
        for (std::string_view name : Access::names) n += name.size() + 3;
        return n;
    }();
    std::array<char, total> text{};
    std::size_t at = 0;
    for (std::string_view name : Access::names) {
        text[at++] = '"';
        for (char c : name) text[at++] = c;
        text[at++] = '"';
        text[at++] = ':';
    }
    return text;
}();

template <class Access>
inline constexpr auto member_keys = [] {
    std::array<member_key, Access::size> keys{};
    const std::string_view all(key_text<Access>.data(), key_text<Access>.size() - 1);
    std::size_t at = 0;
    for (std::size_t i = 0; i != Access::size; ++i) {
        const std::string_view name = Access::names[i];
        const std::size_t n = name.size() + 3;
        if (plain_name(name) && n >= 4) {
            const std::size_t word = n >= 8 ? 8 : 4;
            keys[i] = {key_word(all, at, word), key_word(all, at + n - word, word), n, key_text<Access>.data() + at};
        }
        at += n;
    }
    return keys;
}();

// Whether the key is at p, with at least key.size bytes from p on.
AGENTRY_JSON_INLINE bool same_key(const char* p, const member_key& key) noexcept {
    if (key.size >= 8) {
        std::uint64_t head, tail;
        std::memcpy(&head, p, 8);
        std::memcpy(&tail, p + key.size - 8, 8);
        if (head != key.head || tail != key.tail) return false;
        return key.size <= 16 || std::memcmp(p + 8, key.text + 8, key.size - 16) == 0;
    }
    std::uint32_t head, tail;
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + key.size - 4, 4);
    return head == std::uint32_t(key.head) && tail == std::uint32_t(key.tail);
}

// The member's key at the cursor, after any whitespace: the cursor moves past the ':' and true
// is returned (whitespace before the ':' is allowed too). Anything else (another name,
// escapes, a syntax error) leaves the cursor where it was, or past whitespace, for the general
// path. Whitespace is looked for only where the key is not.
AGENTRY_JSON_INLINE bool at_member_key(cursor& in, const member_key& key) noexcept {
    if (std::size_t(in.end - in.p) >= key.size && same_key(in.p, key)) {
        in.p += key.size;
        return true;
    }
    if (key.text == nullptr) return false;
    if (in.p != in.end && static_cast<unsigned char>(*in.p) <= ' ') {
        in.skip_ws_run();
        if (std::size_t(in.end - in.p) >= key.size && same_key(in.p, key)) {
            in.p += key.size;
            return true;
        }
    }
    return at_member_name_spaced(in, key.text + 1, key.size - 3);
}

// The reader of each member of Access, by index.
template <class Access>
inline constexpr auto member_readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<void (*)(reader&, void*), Access::size>{&read_member<std::remove_cv_t<member_type<Access, I>>>...};
}(std::make_index_sequence<Access::size>{});

// A member of an object whose name is none of `names` (count of them): skipped, and reported
// unless unknown properties are ignored.
AGENTRY_JSON_COLD_DECL void unknown_member(reader& r, std::string_view key, const std::string_view* names,
                                      std::size_t count);

// A member read before: reported and skipped.
AGENTRY_JSON_COLD_DECL void duplicate_member(reader& r);

// The members whose bits are set in `missing` (of `names`), each reported at its own pointer.
AGENTRY_JSON_COLD_DECL void missing_members(reader& r, std::uint64_t missing, const std::string_view* names);

// What reading a struct's members needs to know of it, as data: one constant per struct, read
// by one function for all of them.
struct object_plan {
    const member_key* keys;
    void (*const* readers)(reader&, void*);
    const std::string_view* names;
    const std::uint32_t* signatures;
    std::size_t size;
    std::uint64_t required;
    void (*read)(reader&, void*);  // read_object<P>, for the json_in_string repair
};

template <class P, class Access = object_access<P>>
inline constexpr object_plan plan_of{member_keys<Access>.data(),      member_readers<Access>.data(),
                                     Access::names.data(),            name_signatures<Access>.data(),
                                     Access::size,                    required_mask<Access>(),
                                     &read_object<P>};

// The members of an object in any order: each name read and looked up, unknown and repeated
// ones reported.
struct any_order {
    reader& r;
    const object_plan& plan;
    void* const* members;
    std::uint64_t& seen;
    std::size_t next;

    static void member(void* self, std::string_view key) {
        any_order& a = *static_cast<any_order*>(self);
        const object_plan& plan = a.plan;
        const std::size_t index = find_member(key, a.next, plan.names, plan.signatures, plan.size);
        a.next = index + 1;
        if (index == plan.size) return unknown_member(a.r, key, plan.names, plan.size);
        const std::uint64_t bit = std::uint64_t(1) << index;
        if (a.seen & bit) return duplicate_member(a.r);
        a.seen |= bit;
        plan.readers[index](a.r, a.members[index]);
    }
};

// An object into `value`, the cursor before any whitespace; `members` the addresses of its
// members: what read_object<P> does but take the addresses, compiled once. Compact objects in
// declaration order, the members as a model sends them, go the fast way: member i is read when
// its key is next in the input. From the first member that is not, the names are read and
// looked up. Then the required members not seen are reported.
AGENTRY_JSON_SHARED_DECL void read_object_at(reader& r, const object_plan& plan, void* const* members, void* value);

// The members of a P into `value`, a P's storage (object_access<P>::storage), the cursor before
// any whitespace. One function per P, also what json::read and the json_in_string repair call.
template <class P>
void read_object(reader& r, void* value) {
    using access = object_access<P>;
    static_assert(access::size <= reflect::detail::max_fields && reflect::detail::max_fields <= 64,
                  "agentry: a struct is read with one 64-bit mask of the members seen; split a larger one into nested structs");
    auto& out = *static_cast<typename access::storage*>(value);
    std::array<void*, access::size> members;
    if constexpr (schema::detail::is_named_parameters<P>) access::addresses(out, members.data());
    else reflect::detail::fields_of<access::size>::addresses(out, members.data());
    read_object_at(r, plan_of<P>, members.data(), value);
}

} // namespace agentry::json::detail

#endif
