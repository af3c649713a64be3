// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_FROM_CHARS_HPP
#define AGENTRY_DETAIL_FROM_CHARS_HPP

// std::from_chars for double where the standard library has it (__cpp_lib_to_chars: libstdc++),
// else fast_float's, which rounds as correctly and reads the same syntax ("1.5", "1e300", ".5",
// "inf", "nan"; no '+', no hex), behind the same result. Every reader of a double goes through
// agentry::detail::from_chars. AGENTRY_FROM_CHARS_TEST_FAST_FLOAT (tests only) also declares the
// fast_float reader where std::from_chars is used, so both can be compared.

#include <charconv>
#include <system_error>

#if !defined(__cpp_lib_to_chars) || defined(AGENTRY_FROM_CHARS_TEST_FAST_FLOAT)
#if __has_include(<fast_float/fast_float.h>)
#include <cmath>
#include <fast_float/fast_float.h>
#define AGENTRY_DETAIL_HAS_FAST_FLOAT 1
#elif !defined(__cpp_lib_to_chars)
#error "agentry: this standard library has no std::from_chars for double; install fast_float (Debian: libfast-float-dev, the header <fast_float/fast_float.h>)"
#endif
#endif

namespace agentry::detail {

#if defined(AGENTRY_DETAIL_HAS_FAST_FLOAT)
/// fast_float's reading of [first, last) with std::from_chars's results: a finite number
/// beyond a double's range, or nonzero but rounding to 0, is result_out_of_range with `out`
/// unchanged (fast_float 3 gives infinity or 0 there).
inline std::from_chars_result from_chars_fast_float(const char* first, const char* last, double& out) noexcept {
    double value = 0;
    const fast_float::from_chars_result read = fast_float::from_chars(first, last, value);
    if (read.ec != std::errc{}) return {read.ptr, read.ec};
    const char* const digits = first + (*first == '-');
    const bool numeral = *digits == '.' || (*digits >= '0' && *digits <= '9');
    if (numeral && std::isinf(value)) return {read.ptr, std::errc::result_out_of_range};
    if (numeral && value == 0) {
        for (const char* p = digits; p != read.ptr && *p != 'e' && *p != 'E'; ++p) {
            if (*p >= '1' && *p <= '9') return {read.ptr, std::errc::result_out_of_range};
        }
    }
    out = value;
    return {read.ptr, std::errc{}};
}
#endif

/// std::from_chars(first, last, out) for a double, as described above.
inline std::from_chars_result from_chars(const char* first, const char* last, double& out) noexcept {
#if defined(__cpp_lib_to_chars)
    return std::from_chars(first, last, out);
#else
    return from_chars_fast_float(first, last, out);
#endif
}

} // namespace agentry::detail

#endif
