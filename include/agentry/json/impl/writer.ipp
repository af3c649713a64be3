// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_WRITER_IPP
#define AGENTRY_JSON_IMPL_WRITER_IPP

// The writer's functions that are not templates: included by json/writer.hpp (header-only) or
// by json/impl/src.ipp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/writer.hpp>

#include <cstddef>
#include <limits>
#include <string>

// The definitions add noinline to their declarations (json/detail/lexer.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif

namespace agentry::json::detail::emit {

AGENTRY_JSON_SHARED bool write_erased(std::string& out, const void* value, void (*put)(sink&, const void*),
                                      const write_options& options) {
    const std::size_t start = out.size();
    const std::size_t cap = options.max_size;
    constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();
    sink s(out, cap == 0 || cap > unbounded - start ? unbounded : start + cap, options.omit_empty_optionals);
#if defined(__cpp_exceptions)
    try {
#endif
        put(s, value);
        s.flush();
        if (!s.full()) return true;
        cut(out, start, cap);
        return false;
#if defined(__cpp_exceptions)
    } catch (...) {
        out.resize(start);
        throw;
    }
#endif
}

AGENTRY_JSON_SHARED bool write_reserved_erased(std::string& out, std::size_t hint, const void* value,
                                               void (*put)(sink&, const void*), const write_options& options) {
    out.clear();
    out.reserve(options.max_size != 0 && options.max_size < hint ? options.max_size : hint);
    return write_erased(out, value, put, options);
}

} // namespace agentry::json::detail::emit

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
