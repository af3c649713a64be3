// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_SINK_HPP
#define AGENTRY_SCHEMA_DETAIL_SINK_HPP

#include <cstddef>
#include <string_view>

namespace agentry::schema::detail {

/// Why a schema could not be written; reported by the entry points as a compile error.
enum class schema_error {
    none,
    unsupported_type,
    too_deep,
    recursive_type,
    map_not_expressible,
    tuple_not_expressible,
    raw_json_not_expressible,
    too_many_enum_values,
    too_many_recursive_types,
    too_many_properties,
    unknown_field_in_docs,
    duplicate_field_in_docs,
};

// Text output of constant evaluation. Pass one runs with out == nullptr to measure; pass two
// writes into a buffer of exactly that size. The same functions run both passes, so each is
// instantiated once per type and dialect.
struct sink {
    char* out = nullptr;
    std::size_t size = 0;

    static constexpr std::size_t max_depth = 32;
    static constexpr std::size_t path_capacity = 160;

    schema_error error = schema_error::none;
    char error_path[path_capacity]{};
    std::size_t error_path_size = 0;

    // Recursive types written once under "$defs" and referenced from every use.
    struct definition {
        const void* id = nullptr;
        std::string_view name;
        std::size_t same_name = 0;  // earlier definitions with this name: the key gets a suffix
        void (*write)(sink&) = nullptr;
    };
    static constexpr std::size_t max_definitions = 16;
    definition definitions[max_definitions]{};
    std::size_t definition_count = 0;
    const void* root = nullptr;
    std::size_t properties = 0;
    std::size_t enum_values = 0;
    std::size_t optional_properties = 0;
    std::size_t union_types = 0;

    char path[path_capacity]{};
    std::size_t path_size = 0;
    const void* open_types[max_depth]{};
    std::size_t depth = 0;

    constexpr void put(char c) noexcept {
        if (out) out[size] = c;
        ++size;
    }
    constexpr void put(std::string_view text) noexcept {
        if (out) {
#if defined(__clang__)
            // One step of constant evaluation instead of one per character.
            if (!text.empty()) __builtin_memcpy(out + size, text.data(), text.size());
#else
            // Through pointers: string_view::operator[] is a call per character here.
            const char* from = text.data();
            char* to = out + size;
            for (const char* end = from + text.size(); from != end; ++from, ++to) *to = *from;
#endif
        }
        size += text.size();
    }
    // Text that needs no escaping (identifiers, keywords), in quotes.
    constexpr void put_quoted(std::string_view text) noexcept {
        put('"');
        put(text);
        put('"');
    }
    constexpr void put_unsigned(unsigned long long v) noexcept {
        char digits[20]{};
        std::size_t n = 0;
        do {
            digits[n++] = char('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (n != 0) put(digits[--n]);
    }
    constexpr void put_signed(long long v) noexcept {
        if (v < 0) {
            put('-');
            put_unsigned(0ull - (unsigned long long)v);
        } else {
            put_unsigned((unsigned long long)v);
        }
    }
    // The characters of a JSON string, escaped, without the quotes.
    constexpr void put_escaped(std::string_view text) noexcept {
        constexpr char hex[] = "0123456789abcdef";
        for (char c : text) {
            const auto u = (unsigned char)c;
            switch (c) {
            case '"': put("\\\""); break;
            case '\\': put("\\\\"); break;
            case '\n': put("\\n"); break;
            case '\r': put("\\r"); break;
            case '\t': put("\\t"); break;
            case '\b': put("\\b"); break;
            case '\f': put("\\f"); break;
            default:
                if (u < 0x20) {
                    put("\\u00");
                    put(hex[u >> 4]);
                    put(hex[u & 15]);
                } else {
                    put(c);
                }
            }
        }
    }
    constexpr void put_string(std::string_view text) noexcept {
        put('"');
        put_escaped(text);
        put('"');
    }
    // A key that needs no escaping: an identifier or a keyword.
    constexpr void put_key(std::string_view key) noexcept {
        put_quoted(key);
        put(':');
    }

    // "node", then "node_2", "node_3" for distinct types of the same unqualified name.
    constexpr void put_definition_name(const definition& d) noexcept {
        put(d.name);
        if (d.same_name != 0) {
            put('_');
            put_unsigned(d.same_name + 1);
        }
    }

    constexpr void fail(schema_error e) noexcept {
        if (error != schema_error::none) return;
        error = e;
        for (std::size_t i = 0; i != path_size; ++i) error_path[i] = path[i];
        error_path_size = path_size;
    }
    constexpr bool failed() const noexcept { return error != schema_error::none; }

    // The path of C++ names from the root to the value being written, for diagnostics.
    constexpr std::size_t push_path(std::string_view segment) noexcept {
        const std::size_t mark = path_size;
        if (path_size != 0 && path_size < path_capacity && !segment.starts_with('[')) path[path_size++] = '.';
        for (char c : segment)
            if (path_size < path_capacity) path[path_size++] = c;
        return mark;
    }
    constexpr void pop_path(std::size_t mark) noexcept { path_size = mark; }

    constexpr std::string_view error_path_view() const noexcept { return {error_path, error_path_size}; }
};

} // namespace agentry::schema::detail

#endif
