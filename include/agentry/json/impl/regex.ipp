// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_REGEX_IPP
#define AGENTRY_JSON_IMPL_REGEX_IPP

// The regular expression engine behind json/detail/regex.hpp: included by that header
// (header-only) or by src.hpp and provider/src.hpp (separate compilation).
//
// The engine parses to a syntax tree and compiles it to a program for a backtracking
// machine with an explicit stack; nothing recurses on the text. Parsing recurses on group
// nesting, limited to 128 levels.

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/regex.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace agentry::json::detail {

namespace regex_impl {

inline constexpr char32_t max_code_point = 0x10FFFF;
inline constexpr std::uint32_t unbounded = 0xFFFFFFFFu;
inline constexpr std::size_t no_pos = static_cast<std::size_t>(-1);

struct decoded {
    char32_t cp;
    std::size_t len;  // 0: not a valid UTF-8 sequence
};

// Strict UTF-8 at `pos` (< s.size()): no overlong forms, surrogates or values above U+10FFFF.
inline decoded decode_utf8(std::string_view s, std::size_t pos) noexcept {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(pos);
    if (b0 < 0x80) return {b0, 1};
    std::size_t n = 0;
    char32_t cp = 0;
    char32_t least = 0;
    if ((b0 & 0xE0) == 0xC0) {
        n = 2, cp = b0 & 0x1Fu, least = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        n = 3, cp = b0 & 0x0Fu, least = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        n = 4, cp = b0 & 0x07u, least = 0x10000;
    } else {
        return {0xFFFD, 0};
    }
    if (s.size() - pos < n) return {0xFFFD, 0};
    for (std::size_t k = 1; k < n; ++k) {
        const unsigned char b = byte(pos + k);
        if ((b & 0xC0) != 0x80) return {0xFFFD, 0};
        cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < least || cp > max_code_point || (cp >= 0xD800 && cp <= 0xDFFF)) return {0xFFFD, 0};
    return {cp, n};
}

// The code point at `pos` (< s.size()) of the text; an invalid byte reads as U+FFFD of length 1.
inline decoded next_code_point(std::string_view s, std::size_t pos) noexcept {
    const decoded d = decode_utf8(s, pos);
    return d.len != 0 ? d : decoded{0xFFFD, 1};
}

// The code point that ends at `pos` (> 0); an invalid byte reads as U+FFFD of length 1.
inline decoded previous_code_point(std::string_view s, std::size_t pos) noexcept {
    std::size_t start = pos - 1;
    for (int k = 0; k < 3 && start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80; ++k) --start;
    const decoded d = decode_utf8(s, start);
    return d.len != 0 && start + d.len == pos ? d : decoded{0xFFFD, 1};
}

inline void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

struct cp_range {
    char32_t lo;
    char32_t hi;
};
// A set of code points: ranges sorted, disjoint and not adjacent (after normalize()).
using cp_set = std::vector<cp_range>;

inline void normalize(cp_set& s) {
    std::sort(s.begin(), s.end(), [](const cp_range& a, const cp_range& b) { return a.lo < b.lo; });
    std::size_t w = 0;
    for (const cp_range& r : s) {
        if (w != 0 && std::uint32_t{r.lo} <= std::uint32_t{s[w - 1].hi} + 1) {
            s[w - 1].hi = std::max(s[w - 1].hi, r.hi);
        } else {
            s[w++] = r;
        }
    }
    s.resize(w);
}

// The complement of a normalized set within U+0000..U+10FFFF.
inline cp_set complement(const cp_set& s) {
    cp_set out;
    std::uint32_t next = 0;
    for (const cp_range& r : s) {
        if (r.lo > next) out.push_back({next, r.lo - 1});
        next = std::uint32_t{r.hi} + 1;
    }
    if (next <= max_code_point) out.push_back({next, max_code_point});
    return out;
}

inline bool contains(const cp_set& s, char32_t c) noexcept {
    const auto it = std::upper_bound(s.begin(), s.end(), c, [](char32_t v, const cp_range& r) { return v < r.lo; });
    return it != s.begin() && c <= std::prev(it)->hi;
}

// Unicode General_Category, in the order of the table below.
enum gc : unsigned {
    gc_cc, gc_cf, gc_cn, gc_co, gc_cs, gc_ll, gc_lm, gc_lo, gc_lt, gc_lu, gc_mc, gc_me, gc_mn, gc_nd, gc_nl,
    gc_no, gc_pc, gc_pd, gc_pe, gc_pf, gc_pi, gc_po, gc_ps, gc_sc, gc_sk, gc_sm, gc_so, gc_zl, gc_zp, gc_zs
};

// General_Category of every code point (Unicode 17.0), as runs: (first code point << 5) | gc.
// A run ends where the next begins; the last ends at U+10FFFF.
inline constexpr std::uint32_t gc_runs[] = {
    0x0, 0x41d, 0x435, 0x497, 0x4b5, 0x516, 0x532, 0x555, 0x579, 0x595, 0x5b1, 0x5d5, 0x60d, 0x755, 0x799,
    0x7f5, 0x829, 0xb76, 0xb95, 0xbb2, 0xbd8, 0xbf0, 0xc18, 0xc25, 0xf76, 0xf99, 0xfb2, 0xfd9, 0xfe0, 0x141d,
    0x1435, 0x1457, 0x14da, 0x14f5, 0x1518, 0x153a, 0x1547, 0x1574, 0x1599, 0x15a1, 0x15da, 0x15f8, 0x161a,
    0x1639, 0x164f, 0x1698, 0x16a5, 0x16d5, 0x1718, 0x172f, 0x1747, 0x1773, 0x178f, 0x17f5, 0x1809, 0x1af9,
    0x1b09, 0x1be5, 0x1ef9, 0x1f05, 0x2009, 0x2025, 0x2049, 0x2065, 0x2089, 0x20a5, 0x20c9, 0x20e5, 0x2109,
    0x2125, 0x2149, 0x2165, 0x2189, 0x21a5, 0x21c9, 0x21e5, 0x2209, 0x2225, 0x2249, 0x2265, 0x2289, 0x22a5,
    0x22c9, 0x22e5, 0x2309, 0x2325, 0x2349, 0x2365, 0x2389, 0x23a5, 0x23c9, 0x23e5, 0x2409, 0x2425, 0x2449,
    0x2465, 0x2489, 0x24a5, 0x24c9, 0x24e5, 0x2509, 0x2525, 0x2549, 0x2565, 0x2589, 0x25a5, 0x25c9, 0x25e5,
    0x2609, 0x2625, 0x2649, 0x2665, 0x2689, 0x26a5, 0x26c9, 0x26e5, 0x2729, 0x2745, 0x2769, 0x2785, 0x27a9,
    0x27c5, 0x27e9, 0x2805, 0x2829, 0x2845, 0x2869, 0x2885, 0x28a9, 0x28c5, 0x28e9, 0x2905, 0x2949, 0x2965,
    0x2989, 0x29a5, 0x29c9, 0x29e5, 0x2a09, 0x2a25, 0x2a49, 0x2a65, 0x2a89, 0x2aa5, 0x2ac9, 0x2ae5, 0x2b09,
    0x2b25, 0x2b49, 0x2b65, 0x2b89, 0x2ba5, 0x2bc9, 0x2be5, 0x2c09, 0x2c25, 0x2c49, 0x2c65, 0x2c89, 0x2ca5,
    0x2cc9, 0x2ce5, 0x2d09, 0x2d25, 0x2d49, 0x2d65, 0x2d89, 0x2da5, 0x2dc9, 0x2de5, 0x2e09, 0x2e25, 0x2e49,
    0x2e65, 0x2e89, 0x2ea5, 0x2ec9, 0x2ee5, 0x2f09, 0x2f45, 0x2f69, 0x2f85, 0x2fa9, 0x2fc5, 0x3029, 0x3065,
    0x3089, 0x30a5, 0x30c9, 0x3105, 0x3129, 0x3185, 0x31c9, 0x3245, 0x3269, 0x32a5, 0x32c9, 0x3325, 0x3389,
    0x33c5, 0x33e9, 0x3425, 0x3449, 0x3465, 0x3489, 0x34a5, 0x34c9, 0x3505, 0x3529, 0x3545, 0x3589, 0x35a5,
    0x35c9, 0x3605, 0x3629, 0x3685, 0x36a9, 0x36c5, 0x36e9, 0x3725, 0x3767, 0x3789, 0x37a5, 0x3807, 0x3889,
    0x38a8, 0x38c5, 0x38e9, 0x3908, 0x3925, 0x3949, 0x3968, 0x3985, 0x39a9, 0x39c5, 0x39e9, 0x3a05, 0x3a29,
    0x3a45, 0x3a69, 0x3a85, 0x3aa9, 0x3ac5, 0x3ae9, 0x3b05, 0x3b29, 0x3b45, 0x3b69, 0x3b85, 0x3bc9, 0x3be5,
    0x3c09, 0x3c25, 0x3c49, 0x3c65, 0x3c89, 0x3ca5, 0x3cc9, 0x3ce5, 0x3d09, 0x3d25, 0x3d49, 0x3d65, 0x3d89,
    0x3da5, 0x3dc9, 0x3de5, 0x3e29, 0x3e48, 0x3e65, 0x3e89, 0x3ea5, 0x3ec9, 0x3f25, 0x3f49, 0x3f65, 0x3f89,
    0x3fa5, 0x3fc9, 0x3fe5, 0x4009, 0x4025, 0x4049, 0x4065, 0x4089, 0x40a5, 0x40c9, 0x40e5, 0x4109, 0x4125,
    0x4149, 0x4165, 0x4189, 0x41a5, 0x41c9, 0x41e5, 0x4209, 0x4225, 0x4249, 0x4265, 0x4289, 0x42a5, 0x42c9,
    0x42e5, 0x4309, 0x4325, 0x4349, 0x4365, 0x4389, 0x43a5, 0x43c9, 0x43e5, 0x4409, 0x4425, 0x4449, 0x4465,
    0x4489, 0x44a5, 0x44c9, 0x44e5, 0x4509, 0x4525, 0x4549, 0x4565, 0x4589, 0x45a5, 0x45c9, 0x45e5, 0x4609,
    0x4625, 0x4649, 0x4665, 0x4749, 0x4785, 0x47a9, 0x47e5, 0x4829, 0x4845, 0x4869, 0x48e5, 0x4909, 0x4925,
    0x4949, 0x4965, 0x4989, 0x49a5, 0x49c9, 0x49e5, 0x5287, 0x52c5, 0x5606, 0x5858, 0x58c6, 0x5a58, 0x5c06,
    0x5cb8, 0x5d86, 0x5db8, 0x5dc6, 0x5df8, 0x600c, 0x6e09, 0x6e25, 0x6e49, 0x6e65, 0x6e86, 0x6eb8, 0x6ec9,
    0x6ee5, 0x6f02, 0x6f46, 0x6f65, 0x6fd5, 0x6fe9, 0x7002, 0x7098, 0x70c9, 0x70f5, 0x7109, 0x7162, 0x7189,
    0x71a2, 0x71c9, 0x7205, 0x7229, 0x7442, 0x7469, 0x7585, 0x79e9, 0x7a05, 0x7a49, 0x7aa5, 0x7b09, 0x7b25,
    0x7b49, 0x7b65, 0x7b89, 0x7ba5, 0x7bc9, 0x7be5, 0x7c09, 0x7c25, 0x7c49, 0x7c65, 0x7c89, 0x7ca5, 0x7cc9,
    0x7ce5, 0x7d09, 0x7d25, 0x7d49, 0x7d65, 0x7d89, 0x7da5, 0x7dc9, 0x7de5, 0x7e89, 0x7ea5, 0x7ed9, 0x7ee9,
    0x7f05, 0x7f29, 0x7f65, 0x7fa9, 0x8605, 0x8c09, 0x8c25, 0x8c49, 0x8c65, 0x8c89, 0x8ca5, 0x8cc9, 0x8ce5,
    0x8d09, 0x8d25, 0x8d49, 0x8d65, 0x8d89, 0x8da5, 0x8dc9, 0x8de5, 0x8e09, 0x8e25, 0x8e49, 0x8e65, 0x8e89,
    0x8ea5, 0x8ec9, 0x8ee5, 0x8f09, 0x8f25, 0x8f49, 0x8f65, 0x8f89, 0x8fa5, 0x8fc9, 0x8fe5, 0x9009, 0x9025,
    0x905a, 0x906c, 0x910b, 0x9149, 0x9165, 0x9189, 0x91a5, 0x91c9, 0x91e5, 0x9209, 0x9225, 0x9249, 0x9265,
    0x9289, 0x92a5, 0x92c9, 0x92e5, 0x9309, 0x9325, 0x9349, 0x9365, 0x9389, 0x93a5, 0x93c9, 0x93e5, 0x9409,
    0x9425, 0x9449, 0x9465, 0x9489, 0x94a5, 0x94c9, 0x94e5, 0x9509, 0x9525, 0x9549, 0x9565, 0x9589, 0x95a5,
    0x95c9, 0x95e5, 0x9609, 0x9625, 0x9649, 0x9665, 0x9689, 0x96a5, 0x96c9, 0x96e5, 0x9709, 0x9725, 0x9749,
    0x9765, 0x9789, 0x97a5, 0x97c9, 0x97e5, 0x9809, 0x9845, 0x9869, 0x9885, 0x98a9, 0x98c5, 0x98e9, 0x9905,
    0x9929, 0x9945, 0x9969, 0x9985, 0x99a9, 0x99c5, 0x9a09, 0x9a25, 0x9a49, 0x9a65, 0x9a89, 0x9aa5, 0x9ac9,
    0x9ae5, 0x9b09, 0x9b25, 0x9b49, 0x9b65, 0x9b89, 0x9ba5, 0x9bc9, 0x9be5, 0x9c09, 0x9c25, 0x9c49, 0x9c65,
    0x9c89, 0x9ca5, 0x9cc9, 0x9ce5, 0x9d09, 0x9d25, 0x9d49, 0x9d65, 0x9d89, 0x9da5, 0x9dc9, 0x9de5, 0x9e09,
    0x9e25, 0x9e49, 0x9e65, 0x9e89, 0x9ea5, 0x9ec9, 0x9ee5, 0x9f09, 0x9f25, 0x9f49, 0x9f65, 0x9f89, 0x9fa5,
    0x9fc9, 0x9fe5, 0xa009, 0xa025, 0xa049, 0xa065, 0xa089, 0xa0a5, 0xa0c9, 0xa0e5, 0xa109, 0xa125, 0xa149,
    0xa165, 0xa189, 0xa1a5, 0xa1c9, 0xa1e5, 0xa209, 0xa225, 0xa249, 0xa265, 0xa289, 0xa2a5, 0xa2c9, 0xa2e5,
    0xa309, 0xa325, 0xa349, 0xa365, 0xa389, 0xa3a5, 0xa3c9, 0xa3e5, 0xa409, 0xa425, 0xa449, 0xa465, 0xa489,
    0xa4a5, 0xa4c9, 0xa4e5, 0xa509, 0xa525, 0xa549, 0xa565, 0xa589, 0xa5a5, 0xa5c9, 0xa5e5, 0xa602, 0xa629,
    0xaae2, 0xab26, 0xab55, 0xac05, 0xb135, 0xb151, 0xb162, 0xb1ba, 0xb1f7, 0xb202, 0xb22c, 0xb7d1, 0xb7ec,
    0xb815, 0xb82c, 0xb875, 0xb88c, 0xb8d5, 0xb8ec, 0xb902, 0xba07, 0xbd62, 0xbde7, 0xbe75, 0xbea2, 0xc001,
    0xc0d9, 0xc135, 0xc177, 0xc195, 0xc1da, 0xc20c, 0xc375, 0xc381, 0xc3b5, 0xc407, 0xc806, 0xc827, 0xc96c,
    0xcc0d, 0xcd55, 0xcdc7, 0xce0c, 0xce27, 0xda95, 0xdaa7, 0xdacc, 0xdba1, 0xdbda, 0xdbec, 0xdca6, 0xdcec,
    0xdd3a, 0xdd4c, 0xddc7, 0xde0d, 0xdf47, 0xdfba, 0xdfe7, 0xe015, 0xe1c2, 0xe1e1, 0xe207, 0xe22c, 0xe247,
    0xe60c, 0xe962, 0xe9a7, 0xf4cc, 0xf627, 0xf642, 0xf80d, 0xf947, 0xfd6c, 0xfe86, 0xfeda, 0xfef5, 0xff46,
    0xff62, 0xffac, 0xffd7, 0x10007, 0x102cc, 0x10346, 0x1036c, 0x10486, 0x104ac, 0x10506, 0x1052c, 0x105c2,
    0x10615, 0x107e2, 0x10807, 0x10b2c, 0x10b82, 0x10bd5, 0x10be2, 0x10c07, 0x10d62, 0x10e07, 0x11118,
    0x11127, 0x11201, 0x11242, 0x112ec, 0x11407, 0x11926, 0x1194c, 0x11c41, 0x11c6c, 0x1206a, 0x12087,
    0x1274c, 0x1276a, 0x1278c, 0x127a7, 0x127ca, 0x1282c, 0x1292a, 0x129ac, 0x129ca, 0x12a07, 0x12a2c,
    0x12b07, 0x12c4c, 0x12c95, 0x12ccd, 0x12e15, 0x12e26, 0x12e47, 0x1302c, 0x1304a, 0x13082, 0x130a7,
    0x131a2, 0x131e7, 0x13222, 0x13267, 0x13522, 0x13547, 0x13622, 0x13647, 0x13662, 0x136c7, 0x13742,
    0x1378c, 0x137a7, 0x137ca, 0x1382c, 0x138a2, 0x138ea, 0x13922, 0x1396a, 0x139ac, 0x139c7, 0x139e2,
    0x13aea, 0x13b02, 0x13b87, 0x13bc2, 0x13be7, 0x13c4c, 0x13c82, 0x13ccd, 0x13e07, 0x13e57, 0x13e8f,
    0x13f5a, 0x13f77, 0x13f87, 0x13fb5, 0x13fcc, 0x13fe2, 0x1402c, 0x1406a, 0x14082, 0x140a7, 0x14162,
    0x141e7, 0x14222, 0x14267, 0x14522, 0x14547, 0x14622, 0x14647, 0x14682, 0x146a7, 0x146e2, 0x14707,
    0x14742, 0x1478c, 0x147a2, 0x147ca, 0x1482c, 0x14862, 0x148ec, 0x14922, 0x1496c, 0x149c2, 0x14a2c,
    0x14a42, 0x14b27, 0x14ba2, 0x14bc7, 0x14be2, 0x14ccd, 0x14e0c, 0x14e47, 0x14eac, 0x14ed5, 0x14ee2,
    0x1502c, 0x1506a, 0x15082, 0x150a7, 0x151c2, 0x151e7, 0x15242, 0x15267, 0x15522, 0x15547, 0x15622,
    0x15647, 0x15682, 0x156a7, 0x15742, 0x1578c, 0x157a7, 0x157ca, 0x1582c, 0x158c2, 0x158ec, 0x1592a,
    0x15942, 0x1596a, 0x159ac, 0x159c2, 0x15a07, 0x15a22, 0x15c07, 0x15c4c, 0x15c82, 0x15ccd, 0x15e15,
    0x15e37, 0x15e42, 0x15f27, 0x15f4c, 0x16002, 0x1602c, 0x1604a, 0x16082, 0x160a7, 0x161a2, 0x161e7,
    0x16222, 0x16267, 0x16522, 0x16547, 0x16622, 0x16647, 0x16682, 0x166a7, 0x16742, 0x1678c, 0x167a7,
    0x167ca, 0x167ec, 0x1680a, 0x1682c, 0x168a2, 0x168ea, 0x16922, 0x1696a, 0x169ac, 0x169c2, 0x16aac,
    0x16aea, 0x16b02, 0x16b87, 0x16bc2, 0x16be7, 0x16c4c, 0x16c82, 0x16ccd, 0x16e1a, 0x16e27, 0x16e4f,
    0x16f02, 0x1704c, 0x17067, 0x17082, 0x170a7, 0x17162, 0x171c7, 0x17222, 0x17247, 0x172c2, 0x17327,
    0x17362, 0x17387, 0x173a2, 0x173c7, 0x17402, 0x17467, 0x174a2, 0x17507, 0x17562, 0x175c7, 0x17742,
    0x177ca, 0x1780c, 0x1782a, 0x17862, 0x178ca, 0x17922, 0x1794a, 0x179ac, 0x179c2, 0x17a07, 0x17a22,
    0x17aea, 0x17b02, 0x17ccd, 0x17e0f, 0x17e7a, 0x17f37, 0x17f5a, 0x17f62, 0x1800c, 0x1802a, 0x1808c,
    0x180a7, 0x181a2, 0x181c7, 0x18222, 0x18247, 0x18522, 0x18547, 0x18742, 0x1878c, 0x187a7, 0x187cc,
    0x1882a, 0x188a2, 0x188cc, 0x18922, 0x1894c, 0x189c2, 0x18aac, 0x18ae2, 0x18b07, 0x18b62, 0x18b87,
    0x18bc2, 0x18c07, 0x18c4c, 0x18c82, 0x18ccd, 0x18e02, 0x18ef5, 0x18f0f, 0x18ffa, 0x19007, 0x1902c,
    0x1904a, 0x19095, 0x190a7, 0x191a2, 0x191c7, 0x19222, 0x19247, 0x19522, 0x19547, 0x19682, 0x196a7,
    0x19742, 0x1978c, 0x197a7, 0x197ca, 0x197ec, 0x1980a, 0x198a2, 0x198cc, 0x198ea, 0x19922, 0x1994a,
    0x1998c, 0x199c2, 0x19aaa, 0x19ae2, 0x19b87, 0x19be2, 0x19c07, 0x19c4c, 0x19c82, 0x19ccd, 0x19e02,
    0x19e27, 0x19e6a, 0x19e82, 0x1a00c, 0x1a04a, 0x1a087, 0x1a1a2, 0x1a1c7, 0x1a222, 0x1a247, 0x1a76c,
    0x1a7a7, 0x1a7ca, 0x1a82c, 0x1a8a2, 0x1a8ca, 0x1a922, 0x1a94a, 0x1a9ac, 0x1a9c7, 0x1a9fa, 0x1aa02,
    0x1aa87, 0x1aaea, 0x1ab0f, 0x1abe7, 0x1ac4c, 0x1ac82, 0x1accd, 0x1ae0f, 0x1af3a, 0x1af47, 0x1b002,
    0x1b02c, 0x1b04a, 0x1b082, 0x1b0a7, 0x1b2e2, 0x1b347, 0x1b642, 0x1b667, 0x1b782, 0x1b7a7, 0x1b7c2,
    0x1b807, 0x1b8e2, 0x1b94c, 0x1b962, 0x1b9ea, 0x1ba4c, 0x1baa2, 0x1bacc, 0x1bae2, 0x1bb0a, 0x1bc02,
    0x1bccd, 0x1be02, 0x1be4a, 0x1be95, 0x1bea2, 0x1c027, 0x1c62c, 0x1c647, 0x1c68c, 0x1c762, 0x1c7f7,
    0x1c807, 0x1c8c6, 0x1c8ec, 0x1c9f5, 0x1ca0d, 0x1cb55, 0x1cb82, 0x1d027, 0x1d062, 0x1d087, 0x1d0a2,
    0x1d0c7, 0x1d162, 0x1d187, 0x1d482, 0x1d4a7, 0x1d4c2, 0x1d4e7, 0x1d62c, 0x1d647, 0x1d68c, 0x1d7a7,
    0x1d7c2, 0x1d807, 0x1d8a2, 0x1d8c6, 0x1d8e2, 0x1d90c, 0x1d9e2, 0x1da0d, 0x1db42, 0x1db87, 0x1dc02,
    0x1e007, 0x1e03a, 0x1e095, 0x1e27a, 0x1e295, 0x1e2ba, 0x1e30c, 0x1e35a, 0x1e40d, 0x1e54f, 0x1e69a,
    0x1e6ac, 0x1e6da, 0x1e6ec, 0x1e71a, 0x1e72c, 0x1e756, 0x1e772, 0x1e796, 0x1e7b2, 0x1e7ca, 0x1e807,
    0x1e902, 0x1e927, 0x1eda2, 0x1ee2c, 0x1efea, 0x1f00c, 0x1f0b5, 0x1f0cc, 0x1f107, 0x1f1ac, 0x1f302,
    0x1f32c, 0x1f7a2, 0x1f7da, 0x1f8cc, 0x1f8fa, 0x1f9a2, 0x1f9da, 0x1fa15, 0x1faba, 0x1fb35, 0x1fb62,
    0x20007, 0x2056a, 0x205ac, 0x2062a, 0x2064c, 0x2070a, 0x2072c, 0x2076a, 0x207ac, 0x207e7, 0x2080d,
    0x20955, 0x20a07, 0x20aca, 0x20b0c, 0x20b47, 0x20bcc, 0x20c27, 0x20c4a, 0x20ca7, 0x20cea, 0x20dc7,
    0x20e2c, 0x20ea7, 0x2104c, 0x2106a, 0x210ac, 0x210ea, 0x211ac, 0x211c7, 0x211ea, 0x2120d, 0x2134a,
    0x213ac, 0x213da, 0x21409, 0x218c2, 0x218e9, 0x21902, 0x219a9, 0x219c2, 0x21a05, 0x21f75, 0x21f86,
    0x21fa5, 0x22007, 0x24922, 0x24947, 0x249c2, 0x24a07, 0x24ae2, 0x24b07, 0x24b22, 0x24b47, 0x24bc2,
    0x24c07, 0x25122, 0x25147, 0x251c2, 0x25207, 0x25622, 0x25647, 0x256c2, 0x25707, 0x257e2, 0x25807,
    0x25822, 0x25847, 0x258c2, 0x25907, 0x25ae2, 0x25b07, 0x26222, 0x26247, 0x262c2, 0x26307, 0x26b62,
    0x26bac, 0x26c15, 0x26d2f, 0x26fa2, 0x27007, 0x2721a, 0x27342, 0x27409, 0x27ec2, 0x27f05, 0x27fc2,
    0x28011, 0x28027, 0x2cdba, 0x2cdd5, 0x2cde7, 0x2d01d, 0x2d027, 0x2d376, 0x2d392, 0x2d3a2, 0x2d407,
    0x2dd75, 0x2ddce, 0x2de27, 0x2df22, 0x2e007, 0x2e24c, 0x2e2aa, 0x2e2c2, 0x2e3e7, 0x2e64c, 0x2e68a,
    0x2e6b5, 0x2e6e2, 0x2e807, 0x2ea4c, 0x2ea82, 0x2ec07, 0x2eda2, 0x2edc7, 0x2ee22, 0x2ee4c, 0x2ee82,
    0x2f007, 0x2f68c, 0x2f6ca, 0x2f6ec, 0x2f7ca, 0x2f8cc, 0x2f8ea, 0x2f92c, 0x2fa95, 0x2fae6, 0x2fb15,
    0x2fb77, 0x2fb87, 0x2fbac, 0x2fbc2, 0x2fc0d, 0x2fd42, 0x2fe0f, 0x2ff42, 0x30015, 0x300d1, 0x300f5,
    0x3016c, 0x301c1, 0x301ec, 0x3020d, 0x30342, 0x30407, 0x30866, 0x30887, 0x30f22, 0x31007, 0x310ac,
    0x310e7, 0x3152c, 0x31547, 0x31562, 0x31607, 0x31ec2, 0x32007, 0x323e2, 0x3240c, 0x3246a, 0x324ec,
    0x3252a, 0x32582, 0x3260a, 0x3264c, 0x3266a, 0x3272c, 0x32782, 0x3281a, 0x32822, 0x32895, 0x328cd,
    0x32a07, 0x32dc2, 0x32e07, 0x32ea2, 0x33007, 0x33582, 0x33607, 0x33942, 0x33a0d, 0x33b4f, 0x33b62,
    0x33bda, 0x34007, 0x342ec, 0x3432a, 0x3436c, 0x34382, 0x343d5, 0x34407, 0x34aaa, 0x34acc, 0x34aea,
    0x34b0c, 0x34be2, 0x34c0c, 0x34c2a, 0x34c4c, 0x34c6a, 0x34cac, 0x34daa, 0x34e6c, 0x34fa2, 0x34fec,
    0x3500d, 0x35142, 0x3520d, 0x35342, 0x35415, 0x354e6, 0x35515, 0x355c2, 0x3560c, 0x357cb, 0x357ec,
    0x35bc2, 0x35c0c, 0x35d82, 0x3600c, 0x3608a, 0x360a7, 0x3668c, 0x366aa, 0x366cc, 0x3676a, 0x3678c,
    0x367aa, 0x3684c, 0x3686a, 0x368a7, 0x369a2, 0x369d5, 0x36a0d, 0x36b55, 0x36c3a, 0x36d6c, 0x36e9a,
    0x36fb5, 0x3700c, 0x3704a, 0x37067, 0x3742a, 0x3744c, 0x374ca, 0x3750c, 0x3754a, 0x3756c, 0x375c7,
    0x3760d, 0x37747, 0x37ccc, 0x37cea, 0x37d0c, 0x37d4a, 0x37dac, 0x37dca, 0x37dec, 0x37e4a, 0x37e82,
    0x37f95, 0x38007, 0x3848a, 0x3858c, 0x3868a, 0x386cc, 0x38702, 0x38775, 0x3880d, 0x38942, 0x389a7,
    0x38a0d, 0x38b47, 0x38f06, 0x38fd5, 0x39005, 0x39129, 0x39145, 0x39162, 0x39209, 0x39762, 0x397a9,
    0x39815, 0x39902, 0x39a0c, 0x39a75, 0x39a8c, 0x39c2a, 0x39c4c, 0x39d27, 0x39dac, 0x39dc7, 0x39e8c,
    0x39ea7, 0x39eea, 0x39f0c, 0x39f47, 0x39f62, 0x3a005, 0x3a586, 0x3ad65, 0x3af06, 0x3af25, 0x3b366,
    0x3b80c, 0x3c009, 0x3c025, 0x3c049, 0x3c065, 0x3c089, 0x3c0a5, 0x3c0c9, 0x3c0e5, 0x3c109, 0x3c125,
    0x3c149, 0x3c165, 0x3c189, 0x3c1a5, 0x3c1c9, 0x3c1e5, 0x3c209, 0x3c225, 0x3c249, 0x3c265, 0x3c289,
    0x3c2a5, 0x3c2c9, 0x3c2e5, 0x3c309, 0x3c325, 0x3c349, 0x3c365, 0x3c389, 0x3c3a5, 0x3c3c9, 0x3c3e5,
    0x3c409, 0x3c425, 0x3c449, 0x3c465, 0x3c489, 0x3c4a5, 0x3c4c9, 0x3c4e5, 0x3c509, 0x3c525, 0x3c549,
    0x3c565, 0x3c589, 0x3c5a5, 0x3c5c9, 0x3c5e5, 0x3c609, 0x3c625, 0x3c649, 0x3c665, 0x3c689, 0x3c6a5,
    0x3c6c9, 0x3c6e5, 0x3c709, 0x3c725, 0x3c749, 0x3c765, 0x3c789, 0x3c7a5, 0x3c7c9, 0x3c7e5, 0x3c809,
    0x3c825, 0x3c849, 0x3c865, 0x3c889, 0x3c8a5, 0x3c8c9, 0x3c8e5, 0x3c909, 0x3c925, 0x3c949, 0x3c965,
    0x3c989, 0x3c9a5, 0x3c9c9, 0x3c9e5, 0x3ca09, 0x3ca25, 0x3ca49, 0x3ca65, 0x3ca89, 0x3caa5, 0x3cac9,
    0x3cae5, 0x3cb09, 0x3cb25, 0x3cb49, 0x3cb65, 0x3cb89, 0x3cba5, 0x3cbc9, 0x3cbe5, 0x3cc09, 0x3cc25,
    0x3cc49, 0x3cc65, 0x3cc89, 0x3cca5, 0x3ccc9, 0x3cce5, 0x3cd09, 0x3cd25, 0x3cd49, 0x3cd65, 0x3cd89,
    0x3cda5, 0x3cdc9, 0x3cde5, 0x3ce09, 0x3ce25, 0x3ce49, 0x3ce65, 0x3ce89, 0x3cea5, 0x3cec9, 0x3cee5,
    0x3cf09, 0x3cf25, 0x3cf49, 0x3cf65, 0x3cf89, 0x3cfa5, 0x3cfc9, 0x3cfe5, 0x3d009, 0x3d025, 0x3d049,
    0x3d065, 0x3d089, 0x3d0a5, 0x3d0c9, 0x3d0e5, 0x3d109, 0x3d125, 0x3d149, 0x3d165, 0x3d189, 0x3d1a5,
    0x3d1c9, 0x3d1e5, 0x3d209, 0x3d225, 0x3d249, 0x3d265, 0x3d289, 0x3d2a5, 0x3d3c9, 0x3d3e5, 0x3d409,
    0x3d425, 0x3d449, 0x3d465, 0x3d489, 0x3d4a5, 0x3d4c9, 0x3d4e5, 0x3d509, 0x3d525, 0x3d549, 0x3d565,
    0x3d589, 0x3d5a5, 0x3d5c9, 0x3d5e5, 0x3d609, 0x3d625, 0x3d649, 0x3d665, 0x3d689, 0x3d6a5, 0x3d6c9,
    0x3d6e5, 0x3d709, 0x3d725, 0x3d749, 0x3d765, 0x3d789, 0x3d7a5, 0x3d7c9, 0x3d7e5, 0x3d809, 0x3d825,
    0x3d849, 0x3d865, 0x3d889, 0x3d8a5, 0x3d8c9, 0x3d8e5, 0x3d909, 0x3d925, 0x3d949, 0x3d965, 0x3d989,
    0x3d9a5, 0x3d9c9, 0x3d9e5, 0x3da09, 0x3da25, 0x3da49, 0x3da65, 0x3da89, 0x3daa5, 0x3dac9, 0x3dae5,
    0x3db09, 0x3db25, 0x3db49, 0x3db65, 0x3db89, 0x3dba5, 0x3dbc9, 0x3dbe5, 0x3dc09, 0x3dc25, 0x3dc49,
    0x3dc65, 0x3dc89, 0x3dca5, 0x3dcc9, 0x3dce5, 0x3dd09, 0x3dd25, 0x3dd49, 0x3dd65, 0x3dd89, 0x3dda5,
    0x3ddc9, 0x3dde5, 0x3de09, 0x3de25, 0x3de49, 0x3de65, 0x3de89, 0x3dea5, 0x3dec9, 0x3dee5, 0x3df09,
    0x3df25, 0x3df49, 0x3df65, 0x3df89, 0x3dfa5, 0x3dfc9, 0x3dfe5, 0x3e109, 0x3e205, 0x3e2c2, 0x3e309,
    0x3e3c2, 0x3e405, 0x3e509, 0x3e605, 0x3e709, 0x3e805, 0x3e8c2, 0x3e909, 0x3e9c2, 0x3ea05, 0x3eb02,
    0x3eb29, 0x3eb42, 0x3eb69, 0x3eb82, 0x3eba9, 0x3ebc2, 0x3ebe9, 0x3ec05, 0x3ed09, 0x3ee05, 0x3efc2,
    0x3f005, 0x3f108, 0x3f205, 0x3f308, 0x3f405, 0x3f508, 0x3f605, 0x3f6a2, 0x3f6c5, 0x3f709, 0x3f788,
    0x3f7b8, 0x3f7c5, 0x3f7f8, 0x3f845, 0x3f8a2, 0x3f8c5, 0x3f909, 0x3f988, 0x3f9b8, 0x3fa05, 0x3fa82,
    0x3fac5, 0x3fb09, 0x3fb82, 0x3fbb8, 0x3fc05, 0x3fd09, 0x3fdb8, 0x3fe02, 0x3fe45, 0x3fea2, 0x3fec5,
    0x3ff09, 0x3ff88, 0x3ffb8, 0x3ffe2, 0x4001d, 0x40161, 0x40211, 0x402d5, 0x40314, 0x40333, 0x40356,
    0x40374, 0x403b3, 0x403d6, 0x403f4, 0x40415, 0x4051b, 0x4053c, 0x40541, 0x405fd, 0x40615, 0x40734,
    0x40753, 0x40775, 0x407f0, 0x40835, 0x40899, 0x408b6, 0x408d2, 0x408f5, 0x40a59, 0x40a75, 0x40a90,
    0x40ab5, 0x40bfd, 0x40c01, 0x40ca2, 0x40cc1, 0x40e0f, 0x40e26, 0x40e42, 0x40e8f, 0x40f59, 0x40fb6,
    0x40fd2, 0x40fe6, 0x4100f, 0x41159, 0x411b6, 0x411d2, 0x411e2, 0x41206, 0x413a2, 0x41417, 0x41842,
    0x41a0c, 0x41bab, 0x41c2c, 0x41c4b, 0x41cac, 0x41e22, 0x4201a, 0x42049, 0x4207a, 0x420e9, 0x4211a,
    0x42145, 0x42169, 0x421c5, 0x42209, 0x42265, 0x4229a, 0x422a9, 0x422da, 0x42319, 0x42329, 0x423da,
    0x42489, 0x424ba, 0x424c9, 0x424fa, 0x42509, 0x4253a, 0x42549, 0x425da, 0x425e5, 0x42609, 0x42685,
    0x426a7, 0x42725, 0x4275a, 0x42785, 0x427c9, 0x42819, 0x428a9, 0x428c5, 0x4295a, 0x42979, 0x4299a,
    0x429c5, 0x429fa, 0x42a0f, 0x42c0e, 0x43069, 0x43085, 0x430ae, 0x4312f, 0x4315a, 0x43182, 0x43219,
    0x432ba, 0x43359, 0x4339a, 0x43419, 0x4343a, 0x43479, 0x4349a, 0x434d9, 0x434fa, 0x435d9, 0x435fa,
    0x439d9, 0x43a1a, 0x43a59, 0x43a7a, 0x43a99, 0x43aba, 0x43e99, 0x4601a, 0x46116, 0x46132, 0x46156,
    0x46172, 0x4619a, 0x46419, 0x4645a, 0x46536, 0x46552, 0x4657a, 0x46f99, 0x46fba, 0x47379, 0x4769a,
    0x47b99, 0x47c5a, 0x48542, 0x4881a, 0x48962, 0x48c0f, 0x4939a, 0x49d4f, 0x4a01a, 0x4b6f9, 0x4b71a,
    0x4b839, 0x4b85a, 0x4bf19, 0x4c01a, 0x4cdf9, 0x4ce1a, 0x4ed16, 0x4ed32, 0x4ed56, 0x4ed72, 0x4ed96,
    0x4edb2, 0x4edd6, 0x4edf2, 0x4ee16, 0x4ee32, 0x4ee56, 0x4ee72, 0x4ee96, 0x4eeb2, 0x4eecf, 0x4f29a,
    0x4f819, 0x4f8b6, 0x4f8d2, 0x4f8f9, 0x4fcd6, 0x4fcf2, 0x4fd16, 0x4fd32, 0x4fd56, 0x4fd72, 0x4fd96,
    0x4fdb2, 0x4fdd6, 0x4fdf2, 0x4fe19, 0x5001a, 0x52019, 0x53076, 0x53092, 0x530b6, 0x530d2, 0x530f6,
    0x53112, 0x53136, 0x53152, 0x53176, 0x53192, 0x531b6, 0x531d2, 0x531f6, 0x53212, 0x53236, 0x53252,
    0x53276, 0x53292, 0x532b6, 0x532d2, 0x532f6, 0x53312, 0x53339, 0x53b16, 0x53b32, 0x53b56, 0x53b72,
    0x53b99, 0x53f96, 0x53fb2, 0x53fd9, 0x5601a, 0x56619, 0x568ba, 0x568f9, 0x569ba, 0x56e82, 0x56eda,
    0x58009, 0x58605, 0x58c09, 0x58c25, 0x58c49, 0x58ca5, 0x58ce9, 0x58d05, 0x58d29, 0x58d45, 0x58d69,
    0x58d85, 0x58da9, 0x58e25, 0x58e49, 0x58e65, 0x58ea9, 0x58ec5, 0x58f86, 0x58fc9, 0x59025, 0x59049,
    0x59065, 0x59089, 0x590a5, 0x590c9, 0x590e5, 0x59109, 0x59125, 0x59149, 0x59165, 0x59189, 0x591a5,
    0x591c9, 0x591e5, 0x59209, 0x59225, 0x59249, 0x59265, 0x59289, 0x592a5, 0x592c9, 0x592e5, 0x59309,
    0x59325, 0x59349, 0x59365, 0x59389, 0x593a5, 0x593c9, 0x593e5, 0x59409, 0x59425, 0x59449, 0x59465,
    0x59489, 0x594a5, 0x594c9, 0x594e5, 0x59509, 0x59525, 0x59549, 0x59565, 0x59589, 0x595a5, 0x595c9,
    0x595e5, 0x59609, 0x59625, 0x59649, 0x59665, 0x59689, 0x596a5, 0x596c9, 0x596e5, 0x59709, 0x59725,
    0x59749, 0x59765, 0x59789, 0x597a5, 0x597c9, 0x597e5, 0x59809, 0x59825, 0x59849, 0x59865, 0x59889,
    0x598a5, 0x598c9, 0x598e5, 0x59909, 0x59925, 0x59949, 0x59965, 0x59989, 0x599a5, 0x599c9, 0x599e5,
    0x59a09, 0x59a25, 0x59a49, 0x59a65, 0x59a89, 0x59aa5, 0x59ac9, 0x59ae5, 0x59b09, 0x59b25, 0x59b49,
    0x59b65, 0x59b89, 0x59ba5, 0x59bc9, 0x59be5, 0x59c09, 0x59c25, 0x59c49, 0x59c65, 0x59cba, 0x59d69,
    0x59d85, 0x59da9, 0x59dc5, 0x59dec, 0x59e49, 0x59e65, 0x59e82, 0x59f35, 0x59faf, 0x59fd5, 0x5a005,
    0x5a4c2, 0x5a4e5, 0x5a502, 0x5a5a5, 0x5a5c2, 0x5a607, 0x5ad02, 0x5ade6, 0x5ae15, 0x5ae22, 0x5afec,
    0x5b007, 0x5b2e2, 0x5b407, 0x5b4e2, 0x5b507, 0x5b5e2, 0x5b607, 0x5b6e2, 0x5b707, 0x5b7e2, 0x5b807,
    0x5b8e2, 0x5b907, 0x5b9e2, 0x5ba07, 0x5bae2, 0x5bb07, 0x5bbe2, 0x5bc0c, 0x5c015, 0x5c054, 0x5c073,
    0x5c094, 0x5c0b3, 0x5c0d5, 0x5c134, 0x5c153, 0x5c175, 0x5c194, 0x5c1b3, 0x5c1d5, 0x5c2f1, 0x5c315,
    0x5c351, 0x5c375, 0x5c394, 0x5c3b3, 0x5c3d5, 0x5c414, 0x5c433, 0x5c456, 0x5c472, 0x5c496, 0x5c4b2,
    0x5c4d6, 0x5c4f2, 0x5c516, 0x5c532, 0x5c555, 0x5c5e6, 0x5c615, 0x5c751, 0x5c795, 0x5c811, 0x5c835,
    0x5c856, 0x5c875, 0x5ca1a, 0x5ca55, 0x5cab6, 0x5cad2, 0x5caf6, 0x5cb12, 0x5cb36, 0x5cb52, 0x5cb76,
    0x5cb92, 0x5cbb1, 0x5cbc2, 0x5d01a, 0x5d342, 0x5d37a, 0x5de82, 0x5e01a, 0x5fac2, 0x5fe1a, 0x6001d,
    0x60035, 0x6009a, 0x600a6, 0x600c7, 0x600ee, 0x60116, 0x60132, 0x60156, 0x60172, 0x60196, 0x601b2,
    0x601d6, 0x601f2, 0x60216, 0x60232, 0x6025a, 0x60296, 0x602b2, 0x602d6, 0x602f2, 0x60316, 0x60332,
    0x60356, 0x60372, 0x60391, 0x603b6, 0x603d2, 0x6041a, 0x6042e, 0x6054c, 0x605ca, 0x60611, 0x60626,
    0x606da, 0x6070e, 0x60766, 0x60787, 0x607b5, 0x607da, 0x60802, 0x60827, 0x612e2, 0x6132c, 0x61378,
    0x613a6, 0x613e7, 0x61411, 0x61427, 0x61f75, 0x61f86, 0x61fe7, 0x62002, 0x620a7, 0x62602, 0x62627,
    0x631e2, 0x6321a, 0x6324f, 0x632da, 0x63407, 0x6381a, 0x63cc2, 0x63dfa, 0x63e07, 0x6401a, 0x643e2,
    0x6440f, 0x6455a, 0x6490f, 0x64a1a, 0x64a2f, 0x64c1a, 0x6500f, 0x6515a, 0x6562f, 0x6581a, 0x68007,
    0x9b81a, 0x9c007, 0x1402a6, 0x1402c7, 0x1491a2, 0x14921a, 0x1498e2, 0x149a07, 0x149f06, 0x149fd5,
    0x14a007, 0x14c186, 0x14c1b5, 0x14c207, 0x14c40d, 0x14c547, 0x14c582, 0x14c809, 0x14c825, 0x14c849,
    0x14c865, 0x14c889, 0x14c8a5, 0x14c8c9, 0x14c8e5, 0x14c909, 0x14c925, 0x14c949, 0x14c965, 0x14c989,
    0x14c9a5, 0x14c9c9, 0x14c9e5, 0x14ca09, 0x14ca25, 0x14ca49, 0x14ca65, 0x14ca89, 0x14caa5, 0x14cac9,
    0x14cae5, 0x14cb09, 0x14cb25, 0x14cb49, 0x14cb65, 0x14cb89, 0x14cba5, 0x14cbc9, 0x14cbe5, 0x14cc09,
    0x14cc25, 0x14cc49, 0x14cc65, 0x14cc89, 0x14cca5, 0x14ccc9, 0x14cce5, 0x14cd09, 0x14cd25, 0x14cd49,
    0x14cd65, 0x14cd89, 0x14cda5, 0x14cdc7, 0x14cdec, 0x14ce0b, 0x14ce75, 0x14ce8c, 0x14cfd5, 0x14cfe6,
    0x14d009, 0x14d025, 0x14d049, 0x14d065, 0x14d089, 0x14d0a5, 0x14d0c9, 0x14d0e5, 0x14d109, 0x14d125,
    0x14d149, 0x14d165, 0x14d189, 0x14d1a5, 0x14d1c9, 0x14d1e5, 0x14d209, 0x14d225, 0x14d249, 0x14d265,
    0x14d289, 0x14d2a5, 0x14d2c9, 0x14d2e5, 0x14d309, 0x14d325, 0x14d349, 0x14d365, 0x14d386, 0x14d3cc,
    0x14d407, 0x14dcce, 0x14de0c, 0x14de55, 0x14df02, 0x14e018, 0x14e2e6, 0x14e418, 0x14e449, 0x14e465,
    0x14e489, 0x14e4a5, 0x14e4c9, 0x14e4e5, 0x14e509, 0x14e525, 0x14e549, 0x14e565, 0x14e589, 0x14e5a5,
    0x14e5c9, 0x14e5e5, 0x14e649, 0x14e665, 0x14e689, 0x14e6a5, 0x14e6c9, 0x14e6e5, 0x14e709, 0x14e725,
    0x14e749, 0x14e765, 0x14e789, 0x14e7a5, 0x14e7c9, 0x14e7e5, 0x14e809, 0x14e825, 0x14e849, 0x14e865,
    0x14e889, 0x14e8a5, 0x14e8c9, 0x14e8e5, 0x14e909, 0x14e925, 0x14e949, 0x14e965, 0x14e989, 0x14e9a5,
    0x14e9c9, 0x14e9e5, 0x14ea09, 0x14ea25, 0x14ea49, 0x14ea65, 0x14ea89, 0x14eaa5, 0x14eac9, 0x14eae5,
    0x14eb09, 0x14eb25, 0x14eb49, 0x14eb65, 0x14eb89, 0x14eba5, 0x14ebc9, 0x14ebe5, 0x14ec09, 0x14ec25,
    0x14ec49, 0x14ec65, 0x14ec89, 0x14eca5, 0x14ecc9, 0x14ece5, 0x14ed09, 0x14ed25, 0x14ed49, 0x14ed65,
    0x14ed89, 0x14eda5, 0x14edc9, 0x14ede5, 0x14ee06, 0x14ee25, 0x14ef29, 0x14ef45, 0x14ef69, 0x14ef85,
    0x14efa9, 0x14efe5, 0x14f009, 0x14f025, 0x14f049, 0x14f065, 0x14f089, 0x14f0a5, 0x14f0c9, 0x14f0e5,
    0x14f106, 0x14f138, 0x14f169, 0x14f185, 0x14f1a9, 0x14f1c5, 0x14f1e7, 0x14f209, 0x14f225, 0x14f249,
    0x14f265, 0x14f2c9, 0x14f2e5, 0x14f309, 0x14f325, 0x14f349, 0x14f365, 0x14f389, 0x14f3a5, 0x14f3c9,
    0x14f3e5, 0x14f409, 0x14f425, 0x14f449, 0x14f465, 0x14f489, 0x14f4a5, 0x14f4c9, 0x14f4e5, 0x14f509,
    0x14f525, 0x14f549, 0x14f5e5, 0x14f609, 0x14f6a5, 0x14f6c9, 0x14f6e5, 0x14f709, 0x14f725, 0x14f749,
    0x14f765, 0x14f789, 0x14f7a5, 0x14f7c9, 0x14f7e5, 0x14f809, 0x14f825, 0x14f849, 0x14f865, 0x14f889,
    0x14f905, 0x14f929, 0x14f945, 0x14f969, 0x14f9a5, 0x14f9c9, 0x14f9e5, 0x14fa09, 0x14fa25, 0x14fa49,
    0x14fa65, 0x14fa89, 0x14faa5, 0x14fac9, 0x14fae5, 0x14fb09, 0x14fb25, 0x14fb49, 0x14fb65, 0x14fb89,
    0x14fba2, 0x14fe26, 0x14fea9, 0x14fec5, 0x14fee7, 0x14ff06, 0x14ff45, 0x14ff67, 0x15004c, 0x150067,
    0x1500cc, 0x1500e7, 0x15016c, 0x150187, 0x15046a, 0x1504ac, 0x1504ea, 0x15051a, 0x15058c, 0x1505a2,
    0x15060f, 0x1506da, 0x150717, 0x15073a, 0x150742, 0x150807, 0x150e95, 0x150f02, 0x15100a, 0x151047,
    0x15168a, 0x15188c, 0x1518c2, 0x1519d5, 0x151a0d, 0x151b42, 0x151c0c, 0x151e47, 0x151f15, 0x151f67,
    0x151f95, 0x151fa7, 0x151fec, 0x15200d, 0x152147, 0x1524cc, 0x1525d5, 0x152607, 0x1528ec, 0x152a4a,
    0x152a82, 0x152bf5, 0x152c07, 0x152fa2, 0x15300c, 0x15306a, 0x153087, 0x15366c, 0x15368a, 0x1536cc,
    0x15374a, 0x15378c, 0x1537ca, 0x153835, 0x1539c2, 0x1539e6, 0x153a0d, 0x153b42, 0x153bd5, 0x153c07,
    0x153cac, 0x153cc6, 0x153ce7, 0x153e0d, 0x153f47, 0x153fe2, 0x154007, 0x15452c, 0x1545ea, 0x15462c,
    0x15466a, 0x1546ac, 0x1546e2, 0x154807, 0x15486c, 0x154887, 0x15498c, 0x1549aa, 0x1549c2, 0x154a0d,
    0x154b42, 0x154b95, 0x154c07, 0x154e06, 0x154e27, 0x154efa, 0x154f47, 0x154f6a, 0x154f8c, 0x154faa,
    0x154fc7, 0x15560c, 0x155627, 0x15564c, 0x1556a7, 0x1556ec, 0x155727, 0x1557cc, 0x155807, 0x15582c,
    0x155847, 0x155862, 0x155b67, 0x155ba6, 0x155bd5, 0x155c07, 0x155d6a, 0x155d8c, 0x155dca, 0x155e15,
    0x155e47, 0x155e66, 0x155eaa, 0x155ecc, 0x155ee2, 0x156027, 0x1560e2, 0x156127, 0x1561e2, 0x156227,
    0x1562e2, 0x156407, 0x1564e2, 0x156507, 0x1565e2, 0x156605, 0x156b78, 0x156b86, 0x156c05, 0x156d26,
    0x156d58, 0x156d82, 0x156e05, 0x157807, 0x157c6a, 0x157cac, 0x157cca, 0x157d0c, 0x157d2a, 0x157d75,
    0x157d8a, 0x157dac, 0x157dc2, 0x157e0d, 0x157f42, 0x158007, 0x1af482, 0x1af607, 0x1af8e2, 0x1af967,
    0x1aff82, 0x1b0004, 0x1c0003, 0x1f2007, 0x1f4dc2, 0x1f4e07, 0x1f5b42, 0x1f6005, 0x1f60e2, 0x1f6265,
    0x1f6302, 0x1f63a7, 0x1f63cc, 0x1f63e7, 0x1f6539, 0x1f6547, 0x1f66e2, 0x1f6707, 0x1f67a2, 0x1f67c7,
    0x1f67e2, 0x1f6807, 0x1f6842, 0x1f6867, 0x1f68a2, 0x1f68c7, 0x1f7658, 0x1f787a, 0x1f7a67, 0x1fa7d2,
    0x1fa7f6, 0x1fa81a, 0x1faa07, 0x1fb21a, 0x1fb247, 0x1fb91a, 0x1fba02, 0x1fbe07, 0x1fbf97, 0x1fbfba,
    0x1fc00c, 0x1fc215, 0x1fc2f6, 0x1fc312, 0x1fc335, 0x1fc342, 0x1fc40c, 0x1fc615, 0x1fc631, 0x1fc670,
    0x1fc6b6, 0x1fc6d2, 0x1fc6f6, 0x1fc712, 0x1fc736, 0x1fc752, 0x1fc776, 0x1fc792, 0x1fc7b6, 0x1fc7d2,
    0x1fc7f6, 0x1fc812, 0x1fc836, 0x1fc852, 0x1fc876, 0x1fc892, 0x1fc8b5, 0x1fc8f6, 0x1fc912, 0x1fc935,
    0x1fc9b0, 0x1fca15, 0x1fca62, 0x1fca95, 0x1fcb11, 0x1fcb36, 0x1fcb52, 0x1fcb76, 0x1fcb92, 0x1fcbb6,
    0x1fcbd2, 0x1fcbf5, 0x1fcc59, 0x1fcc71, 0x1fcc99, 0x1fcce2, 0x1fcd15, 0x1fcd37, 0x1fcd55, 0x1fcd82,
    0x1fce07, 0x1fcea2, 0x1fcec7, 0x1fdfa2, 0x1fdfe1, 0x1fe002, 0x1fe035, 0x1fe097, 0x1fe0b5, 0x1fe116,
    0x1fe132, 0x1fe155, 0x1fe179, 0x1fe195, 0x1fe1b1, 0x1fe1d5, 0x1fe20d, 0x1fe355, 0x1fe399, 0x1fe3f5,
    0x1fe429, 0x1fe776, 0x1fe795, 0x1fe7b2, 0x1fe7d8, 0x1fe7f0, 0x1fe818, 0x1fe825, 0x1feb76, 0x1feb99,
    0x1febb2, 0x1febd9, 0x1febf6, 0x1fec12, 0x1fec35, 0x1fec56, 0x1fec72, 0x1fec95, 0x1fecc7, 0x1fee06,
    0x1fee27, 0x1ff3c6, 0x1ff407, 0x1ff7e2, 0x1ff847, 0x1ff902, 0x1ff947, 0x1ffa02, 0x1ffa47, 0x1ffb02,
    0x1ffb47, 0x1ffba2, 0x1ffc17, 0x1ffc59, 0x1ffc78, 0x1ffc9a, 0x1ffcb7, 0x1ffce2, 0x1ffd1a, 0x1ffd39,
    0x1ffdba, 0x1ffde2, 0x1fff21, 0x1fff9a, 0x1fffc2, 0x200007, 0x200182, 0x2001a7, 0x2004e2, 0x200507,
    0x200762, 0x200787, 0x2007c2, 0x2007e7, 0x2009c2, 0x200a07, 0x200bc2, 0x201007, 0x201f62, 0x202015,
    0x202062, 0x2020ef, 0x202682, 0x2026fa, 0x20280e, 0x202eaf, 0x202f3a, 0x20314f, 0x20319a, 0x2031e2,
    0x20321a, 0x2033a2, 0x20341a, 0x203422, 0x203a1a, 0x203fac, 0x203fc2, 0x205007, 0x2053a2, 0x205407,
    0x205a22, 0x205c0c, 0x205c2f, 0x205f82, 0x206007, 0x20640f, 0x206482, 0x2065a7, 0x20682e, 0x206847,
    0x20694e, 0x206962, 0x206a07, 0x206ecc, 0x206f62, 0x207007, 0x2073c2, 0x2073f5, 0x207407, 0x207882,
    0x207907, 0x207a15, 0x207a2e, 0x207ac2, 0x208009, 0x208505, 0x208a07, 0x2093c2, 0x20940d, 0x209542,
    0x209609, 0x209a82, 0x209b05, 0x209f82, 0x20a007, 0x20a502, 0x20a607, 0x20ac82, 0x20adf5, 0x20ae09,
    0x20af62, 0x20af89, 0x20b162, 0x20b189, 0x20b262, 0x20b289, 0x20b2c2, 0x20b2e5, 0x20b442, 0x20b465,
    0x20b642, 0x20b665, 0x20b742, 0x20b765, 0x20b7a2, 0x20b807, 0x20be82, 0x20c007, 0x20e6e2, 0x20e807,
    0x20eac2, 0x20ec07, 0x20ed02, 0x20f006, 0x20f0c2, 0x20f0e6, 0x20f622, 0x20f646, 0x20f762, 0x210007,
    0x2100c2, 0x210107, 0x210122, 0x210147, 0x2106c2, 0x2106e7, 0x210722, 0x210787, 0x2107a2, 0x2107e7,
    0x210ac2, 0x210af5, 0x210b0f, 0x210c07, 0x210efa, 0x210f2f, 0x211007, 0x2113e2, 0x2114ef, 0x211602,
    0x211c07, 0x211e62, 0x211e87, 0x211ec2, 0x211f6f, 0x212007, 0x2122cf, 0x212382, 0x2123f5, 0x212407,
    0x212742, 0x2127f5, 0x212807, 0x212b42, 0x213007, 0x213702, 0x21378f, 0x2137c7, 0x21380f, 0x213a02,
    0x213a4f, 0x214007, 0x21402c, 0x214082, 0x2140ac, 0x2140e2, 0x21418c, 0x214207, 0x214282, 0x2142a7,
    0x214302, 0x214327, 0x2146c2, 0x21470c, 0x214762, 0x2147ec, 0x21480f, 0x214922, 0x214a15, 0x214b22,
    0x214c07, 0x214faf, 0x214ff5, 0x215007, 0x2153af, 0x215402, 0x215807, 0x21591a, 0x215927, 0x215cac,
    0x215ce2, 0x215d6f, 0x215e15, 0x215ee2, 0x216007, 0x2166c2, 0x216735, 0x216807, 0x216ac2, 0x216b0f,
    0x216c07, 0x216e62, 0x216f0f, 0x217007, 0x217242, 0x217335, 0x2173a2, 0x21752f, 0x217602, 0x218007,
    0x218922, 0x219009, 0x219662, 0x219805, 0x219e62, 0x219f4f, 0x21a007, 0x21a48c, 0x21a502, 0x21a60d,
    0x21a742, 0x21a80d, 0x21a947, 0x21a9c6, 0x21a9e7, 0x21aa09, 0x21acc2, 0x21ad2c, 0x21add1, 0x21ade6,
    0x21ae05, 0x21b0c2, 0x21b1d9, 0x21b202, 0x21cc0f, 0x21cfe2, 0x21d007, 0x21d542, 0x21d56c, 0x21d5b1,
    0x21d5c2, 0x21d607, 0x21d642, 0x21d847, 0x21d8a6, 0x21d8c7, 0x21d902, 0x21da15, 0x21da3a, 0x21db22,
    0x21df4c, 0x21e007, 0x21e3af, 0x21e4e7, 0x21e502, 0x21e607, 0x21e8cc, 0x21ea2f, 0x21eab5, 0x21eb42,
    0x21ee07, 0x21f04c, 0x21f0d5, 0x21f142, 0x21f607, 0x21f8af, 0x21f982, 0x21fc07, 0x21fee2, 0x22000a,
    0x22002c, 0x22004a, 0x220067, 0x22070c, 0x2208f5, 0x2209c2, 0x220a4f, 0x220ccd, 0x220e0c, 0x220e27,
    0x220e6c, 0x220ea7, 0x220ec2, 0x220fec, 0x22104a, 0x221067, 0x22160a, 0x22166c, 0x2216ea, 0x22172c,
    0x221775, 0x2217a1, 0x2217d5, 0x22184c, 0x221862, 0x2219a1, 0x2219c2, 0x221a07, 0x221d22, 0x221e0d,
    0x221f42, 0x22200c, 0x222067, 0x2224ec, 0x22258a, 0x2225ac, 0x2226a2, 0x2226cd, 0x222815, 0x222887,
    0x2228aa, 0x2228e7, 0x222902, 0x222a07, 0x222e6c, 0x222e95, 0x222ec7, 0x222ee2, 0x22300c, 0x22304a,
    0x223067, 0x22366a, 0x2236cc, 0x2237ea, 0x223827, 0x2238b5, 0x22392c, 0x2239b5, 0x2239ca, 0x2239ec,
    0x223a0d, 0x223b47, 0x223b75, 0x223b87, 0x223bb5, 0x223c02, 0x223c2f, 0x223ea2, 0x224007, 0x224242,
    0x224267, 0x22458a, 0x2245ec, 0x22464a, 0x22468c, 0x2246aa, 0x2246cc, 0x224715, 0x2247cc, 0x2247e7,
    0x22482c, 0x224842, 0x225007, 0x2250e2, 0x225107, 0x225122, 0x225147, 0x2251c2, 0x2251e7, 0x2253c2,
    0x2253e7, 0x225535, 0x225542, 0x225607, 0x225bec, 0x225c0a, 0x225c6c, 0x225d62, 0x225e0d, 0x225f42,
    0x22600c, 0x22604a, 0x226082, 0x2260a7, 0x2261a2, 0x2261e7, 0x226222, 0x226267, 0x226522, 0x226547,
    0x226622, 0x226647, 0x226682, 0x2266a7, 0x226742, 0x22676c, 0x2267a7, 0x2267ca, 0x22680c, 0x22682a,
    0x2268a2, 0x2268ea, 0x226922, 0x22696a, 0x2269c2, 0x226a07, 0x226a22, 0x226aea, 0x226b02, 0x226ba7,
    0x226c4a, 0x226c82, 0x226ccc, 0x226da2, 0x226e0c, 0x226ea2, 0x227007, 0x227142, 0x227167, 0x227182,
    0x2271c7, 0x2271e2, 0x227207, 0x2276c2, 0x2276e7, 0x22770a, 0x22776c, 0x227822, 0x22784a, 0x227862,
    0x2278aa, 0x2278c2, 0x2278ea, 0x227962, 0x22798a, 0x2279cc, 0x2279ea, 0x227a0c, 0x227a27, 0x227a4c,
    0x227a67, 0x227a95, 0x227ac2, 0x227af5, 0x227b22, 0x227c2c, 0x227c62, 0x228007, 0x2286aa, 0x22870c,
    0x22880a, 0x22884c, 0x2288aa, 0x2288cc, 0x2288e7, 0x228975, 0x228a0d, 0x228b55, 0x228b82, 0x228bb5,
    0x228bcc, 0x228be7, 0x228c42, 0x229007, 0x22960a, 0x22966c, 0x22972a, 0x22974c, 0x22976a, 0x2297ec,
    0x22982a, 0x22984c, 0x229887, 0x2298d5, 0x2298e7, 0x229902, 0x229a0d, 0x229b42, 0x22b007, 0x22b5ea,
    0x22b64c, 0x22b6c2, 0x22b70a, 0x22b78c, 0x22b7ca, 0x22b7ec, 0x22b835, 0x22bb07, 0x22bb8c, 0x22bbc2,
    0x22c007, 0x22c60a, 0x22c66c, 0x22c76a, 0x22c7ac, 0x22c7ca, 0x22c7ec, 0x22c835, 0x22c887, 0x22c8a2,
    0x22ca0d, 0x22cb42, 0x22cc15, 0x22cda2, 0x22d007, 0x22d56c, 0x22d58a, 0x22d5ac, 0x22d5ca, 0x22d60c,
    0x22d6ca, 0x22d6ec, 0x22d707, 0x22d735, 0x22d742, 0x22d80d, 0x22d942, 0x22da0d, 0x22dc82, 0x22e007,
    0x22e362, 0x22e3ac, 0x22e3ca, 0x22e3ec, 0x22e40a, 0x22e44c, 0x22e4ca, 0x22e4ec, 0x22e582, 0x22e60d,
    0x22e74f, 0x22e795, 0x22e7fa, 0x22e807, 0x22e8e2, 0x230007, 0x23058a, 0x2305ec, 0x23070a, 0x23072c,
    0x230775, 0x230782, 0x231409, 0x231805, 0x231c0d, 0x231d4f, 0x231e62, 0x231fe7, 0x2320e2, 0x232127,
    0x232142, 0x232187, 0x232282, 0x2322a7, 0x2322e2, 0x232307, 0x23260a, 0x2326c2, 0x2326ea, 0x232722,
    0x23276c, 0x2327aa, 0x2327cc, 0x2327e7, 0x23280a, 0x232827, 0x23284a, 0x23286c, 0x232895, 0x2328e2,
    0x232a0d, 0x232b42, 0x233407, 0x233502, 0x233547, 0x233a2a, 0x233a8c, 0x233b02, 0x233b4c, 0x233b8a,
    0x233c0c, 0x233c27, 0x233c55, 0x233c67, 0x233c8a, 0x233ca2, 0x234007, 0x23402c, 0x234167, 0x23466c,
    0x23472a, 0x234747, 0x23476c, 0x2347f5, 0x2348ec, 0x234902, 0x234a07, 0x234a2c, 0x234aea, 0x234b2c,
    0x234b87, 0x23514c, 0x2352ea, 0x23530c, 0x235355, 0x2353a7, 0x2353d5, 0x235462, 0x235607, 0x235f22,
    0x236015, 0x236142, 0x236c0c, 0x236c2a, 0x236c4c, 0x236caa, 0x236ccc, 0x236cea, 0x236d02, 0x237807,
    0x237c35, 0x237c42, 0x237e0d, 0x237f42, 0x238007, 0x238122, 0x238147, 0x2385ea, 0x23860c, 0x2386e2,
    0x23870c, 0x2387ca, 0x2387ec, 0x238807, 0x238835, 0x2388c2, 0x238a0d, 0x238b4f, 0x238da2, 0x238e15,
    0x238e47, 0x239202, 0x23924c, 0x239502, 0x23952a, 0x23954c, 0x23962a, 0x23964c, 0x23968a, 0x2396ac,
    0x2396e2, 0x23a007, 0x23a0e2, 0x23a107, 0x23a142, 0x23a167, 0x23a62c, 0x23a6e2, 0x23a74c, 0x23a762,
    0x23a78c, 0x23a7c2, 0x23a7ec, 0x23a8c7, 0x23a8ec, 0x23a902, 0x23aa0d, 0x23ab42, 0x23ac07, 0x23acc2,
    0x23ace7, 0x23ad22, 0x23ad47, 0x23b14a, 0x23b1e2, 0x23b20c, 0x23b242, 0x23b26a, 0x23b2ac, 0x23b2ca,
    0x23b2ec, 0x23b307, 0x23b322, 0x23b40d, 0x23b542, 0x23b607, 0x23bb26, 0x23bb47, 0x23bb82, 0x23bc0d,
    0x23bd42, 0x23dc07, 0x23de6c, 0x23deaa, 0x23def5, 0x23df22, 0x23e00c, 0x23e047, 0x23e06a, 0x23e087,
    0x23e222, 0x23e247, 0x23e68a, 0x23e6cc, 0x23e762, 0x23e7ca, 0x23e80c, 0x23e82a, 0x23e84c, 0x23e875,
    0x23ea0d, 0x23eb4c, 0x23eb62, 0x23f607, 0x23f622, 0x23f80f, 0x23faba, 0x23fbb7, 0x23fc3a, 0x23fe42,
    0x23fff5, 0x240007, 0x247342, 0x24800e, 0x248de2, 0x248e15, 0x248ea2, 0x249007, 0x24a882, 0x25f207,
    0x25fe35, 0x25fe62, 0x260007, 0x268601, 0x26880c, 0x268827, 0x2688ec, 0x268ac2, 0x268c07, 0x287f62,
    0x288007, 0x28c8e2, 0x2c2007, 0x2c23cc, 0x2c254a, 0x2c25ac, 0x2c260d, 0x2c2742, 0x2d0007, 0x2d4722,
    0x2d4807, 0x2d4be2, 0x2d4c0d, 0x2d4d42, 0x2d4dd5, 0x2d4e07, 0x2d57e2, 0x2d580d, 0x2d5942, 0x2d5a07,
    0x2d5dc2, 0x2d5e0c, 0x2d5eb5, 0x2d5ec2, 0x2d6007, 0x2d660c, 0x2d66f5, 0x2d679a, 0x2d6806, 0x2d6895,
    0x2d68ba, 0x2d68c2, 0x2d6a0d, 0x2d6b42, 0x2d6b6f, 0x2d6c42, 0x2d6c67, 0x2d6f02, 0x2d6fa7, 0x2d7202,
    0x2da806, 0x2da867, 0x2dad66, 0x2dadb5, 0x2dae0d, 0x2daf42, 0x2dc809, 0x2dcc05, 0x2dd00f, 0x2dd2f5,
    0x2dd362, 0x2dd409, 0x2dd722, 0x2dd765, 0x2dda82, 0x2de007, 0x2de962, 0x2de9ec, 0x2dea07, 0x2dea2a,
    0x2df102, 0x2df1ec, 0x2df266, 0x2df402, 0x2dfc06, 0x2dfc55, 0x2dfc66, 0x2dfc8c, 0x2dfca2, 0x2dfe0a,
    0x2dfe46, 0x2dfe8e, 0x2dfee2, 0x2e0007, 0x319ac2, 0x319fe7, 0x31a3e2, 0x31b007, 0x31be62, 0x35fe06,
    0x35fe82, 0x35fea6, 0x35ff82, 0x35ffa6, 0x35ffe2, 0x360007, 0x362462, 0x362647, 0x362662, 0x362a07,
    0x362a62, 0x362aa7, 0x362ac2, 0x362c87, 0x362d02, 0x362e07, 0x365f82, 0x378007, 0x378d62, 0x378e07,
    0x378fa2, 0x379007, 0x379122, 0x379207, 0x379342, 0x37939a, 0x3793ac, 0x3793f5, 0x379401, 0x379482,
    0x39801a, 0x399e0d, 0x399f5a, 0x399fa2, 0x39a01a, 0x39d682, 0x39d75a, 0x39da22, 0x39dc1a, 0x39de19,
    0x39de22, 0x39e00c, 0x39e5c2, 0x39e60c, 0x39e8e2, 0x39ea1a, 0x39f882, 0x3a001a, 0x3a1ec2, 0x3a201a,
    0x3a24e2, 0x3a253a, 0x3a2caa, 0x3a2cec, 0x3a2d5a, 0x3a2daa, 0x3a2e61, 0x3a2f6c, 0x3a307a, 0x3a30ac,
    0x3a319a, 0x3a354c, 0x3a35da, 0x3a3d62, 0x3a401a, 0x3a484c, 0x3a48ba, 0x3a48c2, 0x3a580f, 0x3a5a82,
    0x3a5c0f, 0x3a5e82, 0x3a601a, 0x3a6ae2, 0x3a6c0f, 0x3a6f22, 0x3a8009, 0x3a8345, 0x3a8689, 0x3a89c5,
    0x3a8aa2, 0x3a8ac5, 0x3a8d09, 0x3a9045, 0x3a9389, 0x3a93a2, 0x3a93c9, 0x3a9402, 0x3a9449, 0x3a9462,
    0x3a94a9, 0x3a94e2, 0x3a9529, 0x3a95a2, 0x3a95c9, 0x3a96c5, 0x3a9742, 0x3a9765, 0x3a9782, 0x3a97a5,
    0x3a9882, 0x3a98a5, 0x3a9a09, 0x3a9d45, 0x3aa089, 0x3aa0c2, 0x3aa0e9, 0x3aa162, 0x3aa1a9, 0x3aa2a2,
    0x3aa2c9, 0x3aa3a2, 0x3aa3c5, 0x3aa709, 0x3aa742, 0x3aa769, 0x3aa7e2, 0x3aa809, 0x3aa8a2, 0x3aa8c9,
    0x3aa8e2, 0x3aa949, 0x3aaa22, 0x3aaa45, 0x3aad89, 0x3ab0c5, 0x3ab409, 0x3ab745, 0x3aba89, 0x3abdc5,
    0x3ac109, 0x3ac445, 0x3ac789, 0x3acac5, 0x3ace09, 0x3ad145, 0x3ad4c2, 0x3ad509, 0x3ad839, 0x3ad845,
    0x3adb79, 0x3adb85, 0x3adc49, 0x3adf79, 0x3adf85, 0x3ae2b9, 0x3ae2c5, 0x3ae389, 0x3ae6b9, 0x3ae6c5,
    0x3ae9f9, 0x3aea05, 0x3aeac9, 0x3aedf9, 0x3aee05, 0x3af139, 0x3af145, 0x3af209, 0x3af539, 0x3af545,
    0x3af879, 0x3af885, 0x3af949, 0x3af965, 0x3af982, 0x3af9cd, 0x3b001a, 0x3b400c, 0x3b46fa, 0x3b476c,
    0x3b4dba, 0x3b4eac, 0x3b4eda, 0x3b508c, 0x3b50ba, 0x3b50f5, 0x3b5182, 0x3b536c, 0x3b5402, 0x3b542c,
    0x3b5602, 0x3be005, 0x3be147, 0x3be165, 0x3be3e2, 0x3be4a5, 0x3be562, 0x3c000c, 0x3c00e2, 0x3c010c,
    0x3c0322, 0x3c036c, 0x3c0442, 0x3c046c, 0x3c04a2, 0x3c04cc, 0x3c0562, 0x3c0606, 0x3c0dc2, 0x3c11ec,
    0x3c1202, 0x3c2007, 0x3c25a2, 0x3c260c, 0x3c26e6, 0x3c27c2, 0x3c280d, 0x3c2942, 0x3c29c7, 0x3c29fa,
    0x3c2a02, 0x3c5207, 0x3c55cc, 0x3c55e2, 0x3c5807, 0x3c5d8c, 0x3c5e0d, 0x3c5f42, 0x3c5ff7, 0x3c6002,
    0x3c9a07, 0x3c9d66, 0x3c9d8c, 0x3c9e0d, 0x3c9f42, 0x3cba07, 0x3cbdcc, 0x3cbe07, 0x3cbe2d, 0x3cbf62,
    0x3cbff5, 0x3cc002, 0x3cd807, 0x3cdbe2, 0x3cdc07, 0x3cdc6c, 0x3cdc87, 0x3cdccc, 0x3cdce7, 0x3cddcc,
    0x3cde07, 0x3cdeac, 0x3cdec2, 0x3cdfc7, 0x3cdfe6, 0x3ce002, 0x3cfc07, 0x3cfce2, 0x3cfd07, 0x3cfd82,
    0x3cfda7, 0x3cfde2, 0x3cfe07, 0x3cffe2, 0x3d0007, 0x3d18a2, 0x3d18ef, 0x3d1a0c, 0x3d1ae2, 0x3d2009,
    0x3d2445, 0x3d288c, 0x3d2966, 0x3d2982, 0x3d2a0d, 0x3d2b42, 0x3d2bd5, 0x3d2c02, 0x3d8e2f, 0x3d959a,
    0x3d95af, 0x3d9617, 0x3d962f, 0x3d96a2, 0x3da02f, 0x3da5da, 0x3da5ef, 0x3da7c2, 0x3dc007, 0x3dc082,
    0x3dc0a7, 0x3dc402, 0x3dc427, 0x3dc462, 0x3dc487, 0x3dc4a2, 0x3dc4e7, 0x3dc502, 0x3dc527, 0x3dc662,
    0x3dc687, 0x3dc702, 0x3dc727, 0x3dc742, 0x3dc767, 0x3dc782, 0x3dc847, 0x3dc862, 0x3dc8e7, 0x3dc902,
    0x3dc927, 0x3dc942, 0x3dc967, 0x3dc982, 0x3dc9a7, 0x3dca02, 0x3dca27, 0x3dca62, 0x3dca87, 0x3dcaa2,
    0x3dcae7, 0x3dcb02, 0x3dcb27, 0x3dcb42, 0x3dcb67, 0x3dcb82, 0x3dcba7, 0x3dcbc2, 0x3dcbe7, 0x3dcc02,
    0x3dcc27, 0x3dcc62, 0x3dcc87, 0x3dcca2, 0x3dcce7, 0x3dcd62, 0x3dcd87, 0x3dce62, 0x3dce87, 0x3dcf02,
    0x3dcf27, 0x3dcfa2, 0x3dcfc7, 0x3dcfe2, 0x3dd007, 0x3dd142, 0x3dd167, 0x3dd382, 0x3dd427, 0x3dd482,
    0x3dd4a7, 0x3dd542, 0x3dd567, 0x3dd782, 0x3dde19, 0x3dde42, 0x3e001a, 0x3e0582, 0x3e061a, 0x3e1282,
    0x3e141a, 0x3e15e2, 0x3e163a, 0x3e1802, 0x3e183a, 0x3e1a02, 0x3e1a3a, 0x3e1ec2, 0x3e200f, 0x3e21ba,
    0x3e35c2, 0x3e3cda, 0x3e4062, 0x3e421a, 0x3e4782, 0x3e481a, 0x3e4922, 0x3e4a1a, 0x3e4a42, 0x3e4c1a,
    0x3e4cc2, 0x3e601a, 0x3e7f78, 0x3e801a, 0x3edb22, 0x3edb9a, 0x3edda2, 0x3ede1a, 0x3edfa2, 0x3ee01a,
    0x3efb42, 0x3efc1a, 0x3efd82, 0x3efe1a, 0x3efe22, 0x3f001a, 0x3f0182, 0x3f021a, 0x3f0902, 0x3f0a1a,
    0x3f0b42, 0x3f0c1a, 0x3f1102, 0x3f121a, 0x3f15c2, 0x3f161a, 0x3f1782, 0x3f181a, 0x3f1842, 0x3f1a19,
    0x3f1b22, 0x3f201a, 0x3f4b02, 0x3f4c1a, 0x3f4dc2, 0x3f4e1a, 0x3f4fa2, 0x3f501a, 0x3f5162, 0x3f51da,
    0x3f58e2, 0x3f591a, 0x3f5922, 0x3f59ba, 0x3f5ba2, 0x3f5bfa, 0x3f5d62, 0x3f5dfa, 0x3f5f22, 0x3f601a,
    0x3f7262, 0x3f729a, 0x3f7e0d, 0x3f7f5a, 0x3f7f62, 0x400007, 0x54dc02, 0x54e007, 0x5703c2, 0x570407,
    0x59d5c2, 0x59d607, 0x5d7c22, 0x5d7e07, 0x5dcbc2, 0x5f0007, 0x5f43c2, 0x600007, 0x626962, 0x626a07,
    0x668f42, 0x1c00021, 0x1c00042, 0x1c00401, 0x1c01002, 0x1c0200c, 0x1c03e02, 0x1e00003, 0x1ffffc2,
    0x2000003, 0x21fffc2,
};

inline unsigned general_category(char32_t c) noexcept {
    const auto it = std::upper_bound(std::begin(gc_runs), std::end(gc_runs), std::uint32_t{c},
                                     [](std::uint32_t v, std::uint32_t run) { return v < (run >> 5); });
    return *std::prev(it) & 31u;
}

// The code points whose General_Category is in `mask` (bit k: gc k).
inline cp_set general_category_set(std::uint32_t mask) {
    cp_set out;
    const std::size_t n = std::size(gc_runs);
    for (std::size_t k = 0; k < n; ++k) {
        if ((mask >> (gc_runs[k] & 31u) & 1u) == 0) continue;
        const char32_t lo = gc_runs[k] >> 5;
        const char32_t hi = k + 1 < n ? (gc_runs[k + 1] >> 5) - 1 : max_code_point;
        if (!out.empty() && std::uint32_t{out.back().hi} + 1 == lo) {
            out.back().hi = hi;
        } else {
            out.push_back({lo, hi});
        }
    }
    return out;
}

constexpr std::uint32_t bit(unsigned g) noexcept { return std::uint32_t{1} << g; }
inline constexpr std::uint32_t gc_other = bit(gc_cc) | bit(gc_cf) | bit(gc_cn) | bit(gc_co) | bit(gc_cs);
inline constexpr std::uint32_t gc_cased_letter = bit(gc_ll) | bit(gc_lt) | bit(gc_lu);
inline constexpr std::uint32_t gc_letter = gc_cased_letter | bit(gc_lm) | bit(gc_lo);
inline constexpr std::uint32_t gc_mark = bit(gc_mc) | bit(gc_me) | bit(gc_mn);
inline constexpr std::uint32_t gc_number = bit(gc_nd) | bit(gc_nl) | bit(gc_no);
inline constexpr std::uint32_t gc_punctuation =
    bit(gc_pc) | bit(gc_pd) | bit(gc_pe) | bit(gc_pf) | bit(gc_pi) | bit(gc_po) | bit(gc_ps);
inline constexpr std::uint32_t gc_symbol = bit(gc_sc) | bit(gc_sk) | bit(gc_sm) | bit(gc_so);
inline constexpr std::uint32_t gc_separator = bit(gc_zl) | bit(gc_zp) | bit(gc_zs);

struct gc_value_name {
    std::string_view name;
    std::uint32_t mask;
};

// General_Category values and their aliases (PropertyValueAliases.txt), matched exactly.
inline constexpr gc_value_name gc_value_names[] = {
    {"C", gc_other}, {"Other", gc_other},
    {"Cc", bit(gc_cc)}, {"Control", bit(gc_cc)}, {"cntrl", bit(gc_cc)},
    {"Cf", bit(gc_cf)}, {"Format", bit(gc_cf)},
    {"Cn", bit(gc_cn)}, {"Unassigned", bit(gc_cn)},
    {"Co", bit(gc_co)}, {"Private_Use", bit(gc_co)},
    {"Cs", bit(gc_cs)}, {"Surrogate", bit(gc_cs)},
    {"L", gc_letter}, {"Letter", gc_letter},
    {"LC", gc_cased_letter}, {"Cased_Letter", gc_cased_letter},
    {"Ll", bit(gc_ll)}, {"Lowercase_Letter", bit(gc_ll)},
    {"Lm", bit(gc_lm)}, {"Modifier_Letter", bit(gc_lm)},
    {"Lo", bit(gc_lo)}, {"Other_Letter", bit(gc_lo)},
    {"Lt", bit(gc_lt)}, {"Titlecase_Letter", bit(gc_lt)},
    {"Lu", bit(gc_lu)}, {"Uppercase_Letter", bit(gc_lu)},
    {"M", gc_mark}, {"Mark", gc_mark}, {"Combining_Mark", gc_mark},
    {"Mc", bit(gc_mc)}, {"Spacing_Mark", bit(gc_mc)},
    {"Me", bit(gc_me)}, {"Enclosing_Mark", bit(gc_me)},
    {"Mn", bit(gc_mn)}, {"Nonspacing_Mark", bit(gc_mn)},
    {"N", gc_number}, {"Number", gc_number},
    {"Nd", bit(gc_nd)}, {"Decimal_Number", bit(gc_nd)}, {"digit", bit(gc_nd)},
    {"Nl", bit(gc_nl)}, {"Letter_Number", bit(gc_nl)},
    {"No", bit(gc_no)}, {"Other_Number", bit(gc_no)},
    {"P", gc_punctuation}, {"Punctuation", gc_punctuation}, {"punct", gc_punctuation},
    {"Pc", bit(gc_pc)}, {"Connector_Punctuation", bit(gc_pc)},
    {"Pd", bit(gc_pd)}, {"Dash_Punctuation", bit(gc_pd)},
    {"Pe", bit(gc_pe)}, {"Close_Punctuation", bit(gc_pe)},
    {"Pf", bit(gc_pf)}, {"Final_Punctuation", bit(gc_pf)},
    {"Pi", bit(gc_pi)}, {"Initial_Punctuation", bit(gc_pi)},
    {"Po", bit(gc_po)}, {"Other_Punctuation", bit(gc_po)},
    {"Ps", bit(gc_ps)}, {"Open_Punctuation", bit(gc_ps)},
    {"S", gc_symbol}, {"Symbol", gc_symbol},
    {"Sc", bit(gc_sc)}, {"Currency_Symbol", bit(gc_sc)},
    {"Sk", bit(gc_sk)}, {"Modifier_Symbol", bit(gc_sk)},
    {"Sm", bit(gc_sm)}, {"Math_Symbol", bit(gc_sm)},
    {"So", bit(gc_so)}, {"Other_Symbol", bit(gc_so)},
    {"Z", gc_separator}, {"Separator", gc_separator},
    {"Zl", bit(gc_zl)}, {"Line_Separator", bit(gc_zl)},
    {"Zp", bit(gc_zp)}, {"Paragraph_Separator", bit(gc_zp)},
    {"Zs", bit(gc_zs)}, {"Space_Separator", bit(gc_zs)},
};

inline std::optional<std::uint32_t> find_gc_value(std::string_view name) noexcept {
    for (const gc_value_name& v : gc_value_names)
        if (v.name == name) return v.mask;
    return std::nullopt;
}

// `\d`, `\w`, `\s` and their complements `\D`, `\W`, `\S`.
inline cp_set class_escape_set(char e) {
    cp_set s;
    switch (e) {
    case 'd': case 'D': s = {{'0', '9'}}; break;
    case 'w': case 'W': s = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}; break;
    default:  // WhiteSpace and LineTerminator
        s = {{0x09, 0x0D}, {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A},
             {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
        break;
    }
    return e >= 'A' && e <= 'Z' ? complement(s) : s;
}

enum class node_kind : unsigned char {
    empty, chr, any, set, seq, alt, capture, look, repeat,
    line_begin, line_end, word_boundary, not_word_boundary, backref
};

struct node {
    node_kind kind = node_kind::empty;
    bool greedy = true;             // repeat
    bool negate = false;            // look
    bool behind = false;            // look
    std::uint32_t value = 0;        // chr: code point; set: set index; capture, backref: group number
    std::uint32_t min = 0;          // repeat
    std::uint32_t max = 0;          // repeat; `unbounded` for no limit
    std::uint32_t first_group = 0;  // repeat: the groups inside are [first_group, end_group)
    std::uint32_t end_group = 0;
    std::vector<std::uint32_t> kids;
};

struct syntax_tree {
    std::vector<node> nodes;
    std::vector<cp_set> sets;
    std::uint32_t root = 0;
    std::uint32_t groups = 0;  // capturing groups, numbered 1..groups
};

inline constexpr std::uint32_t bad = 0xFFFFFFFFu;  // parse failure

class parser {
public:
    explicit parser(std::string_view pattern) noexcept : p_(pattern) {}

    // Parses the whole pattern; on failure error() and error_offset() say why and where.
    bool parse(syntax_tree& out) {
        tree_ = &out;
        prescan_groups();
        const std::uint32_t root = parse_disjunction(0);
        if (root == bad) return false;
        if (i_ < p_.size()) {  // only an unmatched ')' stops the top level early
            fail("unmatched ')'", i_);
            return false;
        }
        for (const pending_name& b : pending_) {
            const auto it = std::find(names_.begin(), names_.end(), b.name);
            if (it == names_.end()) {
                fail("invalid named reference", b.at);
                return false;
            }
            out.nodes[b.node].value = static_cast<std::uint32_t>(it - names_.begin()) + 1;
        }
        out.root = root;
        out.groups = next_group_;
        return true;
    }

    const std::string& error() const noexcept { return error_; }
    std::size_t error_offset() const noexcept { return error_at_; }

private:
    static constexpr int max_depth = 128;  // nested groups and lookarounds

    struct pending_name {
        std::string name;
        std::uint32_t node;
        std::size_t at;
    };

    struct class_atom {
        bool is_set = false;
        char32_t cp = 0;
        cp_set set;
    };

    std::string_view p_;
    std::size_t i_ = 0;
    syntax_tree* tree_ = nullptr;
    std::string error_;
    std::size_t error_at_ = 0;
    std::uint32_t total_groups_ = 0;  // counted before parsing, for `\N` escapes
    std::uint32_t next_group_ = 0;
    std::vector<std::string> names_;  // names_[k - 1]: name of group k, empty when unnamed
    std::vector<pending_name> pending_;
    int depth_ = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> set_index_;  // hash of a set -> index
    std::vector<std::pair<std::uint32_t, cp_set>> category_sets_;  // General_Category mask -> set

    int peek(std::size_t k = 0) const noexcept {
        return i_ + k < p_.size() ? static_cast<unsigned char>(p_[i_ + k]) : -1;
    }

    std::uint32_t fail(const char* message, std::size_t at) {
        if (error_.empty()) {
            error_ = message;
            error_at_ = at;
        }
        return bad;
    }

    std::uint32_t add(node n) {
        tree_->nodes.push_back(std::move(n));
        return static_cast<std::uint32_t>(tree_->nodes.size() - 1);
    }

    std::uint32_t add_simple(node_kind kind, std::uint32_t value = 0) {
        node n;
        n.kind = kind;
        n.value = value;
        return add(std::move(n));
    }

    // Equal sets share one entry, so that a long pattern of `\p{L}` stays small.
    std::uint32_t add_set(cp_set s) {
        std::uint64_t h = 1469598103934665603u;
        for (const cp_range& r : s) h = (h ^ (std::uint64_t{r.lo} << 21 | r.hi)) * 1099511628211u;
        const auto [it, inserted] = set_index_.try_emplace(h, static_cast<std::uint32_t>(tree_->sets.size()));
        if (inserted) {
            tree_->sets.push_back(std::move(s));
        } else if (!std::equal(s.begin(), s.end(), tree_->sets[it->second].begin(), tree_->sets[it->second].end(),
                               [](const cp_range& a, const cp_range& b) { return a.lo == b.lo && a.hi == b.hi; })) {
            tree_->sets.push_back(std::move(s));  // a hash collision: keep both
            return add_simple(node_kind::set, static_cast<std::uint32_t>(tree_->sets.size() - 1));
        }
        return add_simple(node_kind::set, it->second);
    }

    const cp_set& category_set(std::uint32_t mask) {
        for (const auto& [m, set] : category_sets_)
            if (m == mask) return set;
        category_sets_.emplace_back(mask, general_category_set(mask));
        return category_sets_.back().second;
    }

    // Counts capturing groups: `(` not followed by `?`, and `(?<` not followed by `=` or `!`.
    void prescan_groups() noexcept {
        bool in_class = false;
        for (std::size_t k = 0; k < p_.size(); ++k) {
            const char c = p_[k];
            if (c == '\\') {
                ++k;
            } else if (in_class) {
                in_class = c != ']';
            } else if (c == '[') {
                in_class = true;
            } else if (c == '(') {
                const std::string_view rest = p_.substr(k + 1);
                if (rest.empty() || rest[0] != '?' ||
                    (rest.size() >= 3 && rest[1] == '<' && rest[2] != '=' && rest[2] != '!'))
                    ++total_groups_;
            }
        }
    }

    static bool is_syntax_char(int c) noexcept {
        return c >= 0 && std::string_view("^$\\.*+?()[]{}|").find(static_cast<char>(c)) != std::string_view::npos;
    }
    static bool is_digit(int c) noexcept { return c >= '0' && c <= '9'; }
    static int hex_value(int c) noexcept {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    // `opener`: the offset of the group's `(`, for the error.
    std::uint32_t parse_disjunction(std::size_t opener) {
        if (++depth_ > max_depth + 1) return fail("groups nested too deeply", opener);
        std::vector<std::uint32_t> alts;
        for (;;) {
            const std::uint32_t a = parse_alternative();
            if (a == bad) return bad;
            alts.push_back(a);
            if (peek() != '|') break;
            ++i_;
        }
        --depth_;
        if (alts.size() == 1) return alts[0];
        node n;
        n.kind = node_kind::alt;
        n.kids = std::move(alts);
        return add(std::move(n));
    }

    std::uint32_t parse_alternative() {
        std::vector<std::uint32_t> terms;
        while (i_ < p_.size() && peek() != '|' && peek() != ')') {
            const std::uint32_t t = parse_term();
            if (t == bad) return bad;
            terms.push_back(t);
        }
        if (terms.size() == 1) return terms[0];
        node n;
        n.kind = terms.empty() ? node_kind::empty : node_kind::seq;
        n.kids = std::move(terms);
        return add(std::move(n));
    }

    // An assertion: a quantifier may not follow it (u-mode).
    std::uint32_t assertion(std::uint32_t n) {
        const int c = peek();
        if (c == '*' || c == '+' || c == '?' || c == '{') return fail("nothing to repeat", i_);
        return n;
    }

    std::uint32_t parse_term() {
        const int c = peek();
        if (c == '^') return ++i_, assertion(add_simple(node_kind::line_begin));
        if (c == '$') return ++i_, assertion(add_simple(node_kind::line_end));
        if (c == '\\' && peek(1) == 'b') return i_ += 2, assertion(add_simple(node_kind::word_boundary));
        if (c == '\\' && peek(1) == 'B') return i_ += 2, assertion(add_simple(node_kind::not_word_boundary));
        if (c == '(' && peek(1) == '?') {
            const int d = peek(2);
            const bool behind = d == '<' && (peek(3) == '=' || peek(3) == '!');
            if (d == '=' || d == '!' || behind) {
                const std::size_t start = i_;
                node n;
                n.kind = node_kind::look;
                n.behind = behind;
                n.negate = (behind ? peek(3) : d) == '!';
                i_ += behind ? 4 : 3;
                const std::uint32_t body = parse_disjunction(start);
                if (body == bad) return bad;
                if (peek() != ')') return fail("missing ')'", start);
                ++i_;
                n.kids.push_back(body);
                return assertion(add(std::move(n)));
            }
        }
        const std::uint32_t groups_before = next_group_;
        const std::uint32_t atom = parse_atom();
        if (atom == bad) return bad;
        return parse_quantifier(atom, groups_before);
    }

    // Decimal digits at i_: the value saturated to `unbounded - 1`, and the digits without
    // leading zeros, to compare exact values.
    std::pair<std::uint32_t, std::string_view> parse_number() noexcept {
        const std::size_t start = i_;
        std::uint64_t v = 0;
        while (is_digit(peek())) {
            v = std::min<std::uint64_t>(v * 10 + static_cast<std::uint64_t>(peek() - '0'), unbounded - 1);
            ++i_;
        }
        std::string_view digits = p_.substr(start, i_ - start);
        while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
        return {static_cast<std::uint32_t>(v), digits};
    }

    static bool less(std::string_view a, std::string_view b) noexcept {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    }

    std::uint32_t parse_quantifier(std::uint32_t atom, std::uint32_t groups_before) {
        const std::size_t start = i_;
        std::uint32_t min = 0;
        std::uint32_t max = unbounded;
        switch (peek()) {
        case '*': ++i_; break;
        case '+': min = 1, ++i_; break;
        case '?': max = 1, ++i_; break;
        case '{': {
            ++i_;
            if (!is_digit(peek())) return fail("incomplete quantifier", start);
            const auto [lo, lo_digits] = parse_number();
            min = lo;
            max = lo;
            if (peek() == ',') {
                ++i_;
                max = unbounded;
                if (is_digit(peek())) {
                    const auto [hi, hi_digits] = parse_number();
                    if (less(hi_digits, lo_digits)) return fail("numbers out of order in {} quantifier", start);
                    max = hi;
                }
            }
            if (peek() != '}') return fail("incomplete quantifier", start);
            ++i_;
            break;
        }
        default: return atom;
        }
        node n;
        n.kind = node_kind::repeat;
        n.min = min;
        n.max = max;
        if (peek() == '?') n.greedy = false, ++i_;
        n.first_group = groups_before + 1;
        n.end_group = next_group_ + 1;
        n.kids.push_back(atom);
        return add(std::move(n));
    }

    std::uint32_t parse_atom() {
        const std::size_t start = i_;
        const int c = peek();
        switch (c) {
        case '.': ++i_; return add_simple(node_kind::any);
        case '[': return parse_class();
        case '\\': return parse_atom_escape();
        case '(': return parse_group();
        case '*': case '+': case '?': case '{': return fail("nothing to repeat", start);
        case '}': return fail("lone quantifier bracket", start);
        case ']': return fail("lone ']'", start);
        default: {
            const decoded d = decode_utf8(p_, i_);
            if (d.len == 0) return fail("invalid UTF-8", start);
            i_ += d.len;
            return add_simple(node_kind::chr, d.cp);
        }
        }
    }

    std::uint32_t parse_group() {
        const std::size_t start = i_;
        ++i_;
        std::string name;
        bool capturing = true;
        if (peek() == '?') {
            if (peek(1) == ':') {
                capturing = false;
                i_ += 2;
            } else if (peek(1) == '<') {
                i_ += 2;
                if (!parse_group_name(name)) return bad;
                if (std::find(names_.begin(), names_.end(), name) != names_.end())
                    return fail("duplicate group name", start);
            } else {
                return fail("invalid group", start);
            }
        }
        std::uint32_t group = 0;
        if (capturing) {
            group = ++next_group_;
            names_.push_back(std::move(name));
        }
        const std::uint32_t body = parse_disjunction(start);
        if (body == bad) return bad;
        if (peek() != ')') return fail("missing ')'", start);
        ++i_;
        if (!capturing) return body;
        node n;
        n.kind = node_kind::capture;
        n.value = group;
        n.kids.push_back(body);
        return add(std::move(n));
    }

    // RegExpIdentifierName then `>`; non-ASCII letters approximate ID_Start and ID_Continue.
    bool parse_group_name(std::string& out) {
        const std::size_t start = i_;
        for (;;) {
            if (peek() == '>') break;
            char32_t c = 0;
            if (peek() == '\\') {
                ++i_;
                if (peek() != 'u' || !parse_unicode_escape(c)) {
                    fail("invalid group name", start);
                    return false;
                }
            } else {
                if (peek() < 0) {
                    fail("invalid group name", start);
                    return false;
                }
                const decoded d = decode_utf8(p_, i_);
                if (d.len == 0) {
                    fail("invalid UTF-8", i_);
                    return false;
                }
                c = d.cp;
                i_ += d.len;
            }
            if (!is_identifier_char(c, out.empty())) {
                fail("invalid group name", start);
                return false;
            }
            append_utf8(out, c);
        }
        if (out.empty()) {
            fail("invalid group name", start);
            return false;
        }
        ++i_;  // '>'
        return true;
    }

    static bool is_identifier_char(char32_t c, bool first) noexcept {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_') return true;
        if (c < 0x80) return !first && c >= '0' && c <= '9';
        const unsigned g = general_category(c);
        if ((gc_letter | bit(gc_nl)) >> g & 1u) return true;
        return !first && (((bit(gc_mn) | bit(gc_mc) | bit(gc_nd) | bit(gc_pc)) >> g & 1u) || c == 0x200C || c == 0x200D);
    }

    // At `u` after a backslash: `uHHHH` (a lead and a trail surrogate escape form one code
    // point) or `u{H...}` up to 10FFFF. Does not set an error.
    bool parse_unicode_escape(char32_t& out) noexcept {
        const auto hex4 = [&](std::size_t at, char32_t& v) {
            v = 0;
            for (std::size_t k = 0; k < 4; ++k) {
                const int h = at + k < p_.size() ? hex_value(static_cast<unsigned char>(p_[at + k])) : -1;
                if (h < 0) return false;
                v = v * 16 + static_cast<char32_t>(h);
            }
            return true;
        };
        ++i_;  // 'u'
        if (peek() == '{') {
            std::size_t k = i_ + 1;
            std::uint32_t v = 0;
            while (k < p_.size() && hex_value(static_cast<unsigned char>(p_[k])) >= 0) {
                v = v * 16 + static_cast<std::uint32_t>(hex_value(static_cast<unsigned char>(p_[k])));
                if (v > max_code_point) return false;
                ++k;
            }
            if (k == i_ + 1 || k >= p_.size() || p_[k] != '}') return false;
            i_ = k + 1;
            out = v;
            return true;
        }
        char32_t v = 0;
        if (!hex4(i_, v)) return false;
        i_ += 4;
        char32_t trail = 0;
        if (v >= 0xD800 && v <= 0xDBFF && peek() == '\\' && peek(1) == 'u' && hex4(i_ + 2, trail) && trail >= 0xDC00 &&
            trail <= 0xDFFF) {
            i_ += 6;
            v = 0x10000 + ((v - 0xD800) << 10) + (trail - 0xDC00);
        }
        out = v;
        return true;
    }

    // A CharacterEscape after the backslash (at i_), in a class or not.
    bool parse_character_escape(char32_t& out, bool in_class) {
        const std::size_t start = i_ - 1;
        const int c = peek();
        switch (c) {
        case 't': out = 0x09; break;
        case 'n': out = 0x0A; break;
        case 'v': out = 0x0B; break;
        case 'f': out = 0x0C; break;
        case 'r': out = 0x0D; break;
        case 'c': {
            const int l = peek(1);
            if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) return fail("invalid escape", start), false;
            out = static_cast<char32_t>(l % 32);
            i_ += 2;
            return true;
        }
        case '0':
            if (is_digit(peek(1))) return fail("invalid decimal escape", start), false;
            out = 0;
            break;
        case 'x': {
            const int h1 = hex_value(peek(1));
            const int h2 = hex_value(peek(2));
            if (h1 < 0 || h2 < 0) return fail("invalid escape", start), false;
            out = static_cast<char32_t>(h1 * 16 + h2);
            i_ += 3;
            return true;
        }
        case 'u':
            if (!parse_unicode_escape(out)) return fail("invalid Unicode escape", start), false;
            return true;
        default:
            if (is_syntax_char(c) || c == '/' || (in_class && c == '-')) {
                out = static_cast<char32_t>(c);
                break;
            }
            return fail("invalid escape", start), false;
        }
        ++i_;
        return true;
    }

    // `\p{...}` or `\P{...}` at the `p` or `P`.
    bool parse_property(cp_set& out) {
        const std::size_t start = i_ - 1;
        const bool negated = peek() == 'P';
        ++i_;
        if (peek() != '{') return fail("invalid property name", start), false;
        const std::size_t name_start = i_ + 1;
        std::size_t k = name_start;
        while (k < p_.size() && p_[k] != '}') {
            const char ch = p_[k];
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '='))
                return fail("invalid property name", start), false;
            ++k;
        }
        if (k >= p_.size()) return fail("invalid property name", start), false;
        const std::string_view text = p_.substr(name_start, k - name_start);
        i_ = k + 1;
        const std::size_t eq = text.find('=');
        std::optional<std::uint32_t> mask;
        if (eq != std::string_view::npos) {
            const std::string_view property = text.substr(0, eq);
            const std::string_view value = text.substr(eq + 1);
            if (property == "General_Category" || property == "gc") {
                mask = find_gc_value(value);
            } else if (property == "Script" || property == "sc" || property == "Script_Extensions" || property == "scx") {
                return fail("unsupported Unicode property (scripts are not supported)", start), false;
            }
            if (!mask) return fail("invalid property name", start), false;
            out = category_set(*mask);
        } else if ((mask = find_gc_value(text))) {
            out = category_set(*mask);
        } else if (text == "Any") {
            out = {{0, max_code_point}};
        } else if (text == "ASCII") {
            out = {{0, 0x7F}};
        } else if (text == "Assigned") {
            out = complement(category_set(bit(gc_cn)));
        } else {
            return fail("unsupported or unknown Unicode property", start), false;
        }
        if (negated) out = complement(out);
        return true;
    }

    std::uint32_t parse_atom_escape() {
        const std::size_t start = i_;
        ++i_;
        const int c = peek();
        if (c < 0) return fail("\\ at end of pattern", start);
        switch (c) {
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
            ++i_;
            return add_set(class_escape_set(static_cast<char>(c)));
        case 'p': case 'P': {
            cp_set s;
            if (!parse_property(s)) return bad;
            return add_set(std::move(s));
        }
        case 'k': {
            ++i_;
            if (peek() != '<') return fail("invalid named reference", start);
            ++i_;
            std::string name;
            if (!parse_group_name(name)) return bad;
            const std::uint32_t n = add_simple(node_kind::backref);
            pending_.push_back({std::move(name), n, start});
            return n;
        }
        default: break;
        }
        if (c >= '1' && c <= '9') {
            const std::uint32_t group = parse_number().first;
            if (group > total_groups_) return fail("invalid escape (no such group)", start);
            return add_simple(node_kind::backref, group);
        }
        char32_t cp = 0;
        if (!parse_character_escape(cp, false)) return bad;
        return add_simple(node_kind::chr, cp);
    }

    bool parse_class_atom(class_atom& out) {
        const std::size_t start = i_;
        if (peek() != '\\') {
            const decoded d = decode_utf8(p_, i_);
            if (d.len == 0) return fail("invalid UTF-8", start), false;
            out.cp = d.cp;
            i_ += d.len;
            return true;
        }
        ++i_;
        const int c = peek();
        if (c < 0) return fail("\\ at end of pattern", start), false;
        switch (c) {
        case 'b': out.cp = 0x08; ++i_; return true;
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
            out.is_set = true;
            out.set = class_escape_set(static_cast<char>(c));
            ++i_;
            return true;
        case 'p': case 'P':
            out.is_set = true;
            return parse_property(out.set);
        default: break;
        }
        if (c >= '1' && c <= '9') return fail("invalid class escape", start), false;
        return parse_character_escape(out.cp, true);
    }

    std::uint32_t parse_class() {
        const std::size_t start = i_;
        ++i_;
        const bool negated = peek() == '^';
        if (negated) ++i_;
        cp_set s;
        for (;;) {
            if (i_ >= p_.size()) return fail("missing ']'", start);
            if (peek() == ']') {
                ++i_;
                break;
            }
            const std::size_t atom_start = i_;
            class_atom a;
            if (!parse_class_atom(a)) return bad;
            if (peek() == '-' && peek(1) >= 0 && peek(1) != ']') {
                ++i_;
                class_atom b;
                if (!parse_class_atom(b)) return bad;
                if (a.is_set || b.is_set) return fail("invalid character class range", atom_start);
                if (a.cp > b.cp) return fail("range out of order in character class", atom_start);
                s.push_back({a.cp, b.cp});
            } else if (a.is_set) {
                s.insert(s.end(), a.set.begin(), a.set.end());
            } else {
                s.push_back({a.cp, a.cp});
            }
        }
        normalize(s);
        return add_set(negated ? complement(s) : std::move(s));
    }
};

enum class op : unsigned char {
    chr,                // a: code point
    any,                // any code point but \n \r U+2028 U+2029
    set,                // a: set index
    line_begin,
    line_end,
    word_boundary,
    not_word_boundary,
    split,              // try a, on failure b
    jump,               // a
    save,               // slot a = position
    clear,              // slots [a, b) = unset
    backref,            // a: group
    look_enter,         // a: register, b: continuation; flag: negative
    look_exit,          // a: register
    rep_enter,          // a: register (count; a + 1: start of the iteration)
    rep_test,           // a: register, b: min, c: max, d: exit; flag: greedy; body at the next pc
    rep_body,           // a: register
    rep_end,            // a: register, b: min, c: the rep_test
    match,
};

struct inst {
    op code = op::match;
    bool backward = false;  // chr, any, set, backref: read the text right to left
    bool flag = false;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::uint32_t c = 0;
    std::uint32_t d = 0;
};

struct program {
    std::vector<inst> code;
    std::vector<cp_set> sets;
    std::uint32_t slots = 0;      // 2 per group, group 0 unused
    std::uint32_t registers = 0;  // 2 per counted loop, 1 per lookaround
    bool anchored = false;        // every match starts at position 0
    bool filtered = false;        // every match starts with a byte in first_bytes
    std::array<std::uint64_t, 4> first_bytes{};

    bool may_start(unsigned char b) const noexcept { return (first_bytes[b >> 6] >> (b & 63) & 1u) != 0; }
};

class code_generator {
public:
    code_generator(const syntax_tree& tree, program& out) noexcept : t_(tree), out_(out) {}

    void generate() {
        emit(t_.root, false);
        out_.code.push_back(inst{});  // match
        out_.slots = 2 * (t_.groups + 1);
        out_.anchored = anchored(t_.root);
        const first_info f = first(t_.root);
        out_.filtered = !f.nullable;
        out_.first_bytes = f.bytes;
    }

private:
    const syntax_tree& t_;
    program& out_;

    std::uint32_t pc() const noexcept { return static_cast<std::uint32_t>(out_.code.size()); }

    std::uint32_t push(op code, std::uint32_t a = 0, std::uint32_t b = 0, bool backward = false) {
        inst in;
        in.code = code;
        in.a = a;
        in.b = b;
        in.backward = backward;
        out_.code.push_back(in);
        return pc() - 1;
    }

    struct first_info {
        std::array<std::uint64_t, 4> bytes{};  // bytes a match may start with
        bool nullable = true;                  // may match without reading a code point
    };

    static void add_bytes(first_info& f, unsigned lo, unsigned hi) noexcept {
        for (unsigned b = lo; b <= hi; ++b) f.bytes[b >> 6] |= std::uint64_t{1} << (b & 63);
    }

    // Any byte from 0x80 stands for every non-ASCII code point (and U+FFFD, read from invalid bytes).
    static void add_code_points(first_info& f, char32_t lo, char32_t hi) noexcept {
        if (lo < 0x80) add_bytes(f, lo, std::min<unsigned>(hi, 0x7F));
        if (hi >= 0x80) add_bytes(f, 0x80, 0xFF);
    }

    // The bytes that can begin a match of a node (read forward), to skip start positions.
    first_info first(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        first_info f;
        switch (n.kind) {
        case node_kind::chr: add_code_points(f, n.value, n.value); f.nullable = false; break;
        case node_kind::any:
            add_code_points(f, 0, 0x10FFFF);
            f.bytes[0] &= ~((std::uint64_t{1} << '\n') | (std::uint64_t{1} << '\r'));
            f.nullable = false;
            break;
        case node_kind::set:
            for (const cp_range& r : t_.sets[n.value]) add_code_points(f, r.lo, r.hi);
            f.nullable = false;
            break;
        case node_kind::backref: add_bytes(f, 0, 0xFF); break;
        case node_kind::seq:
            for (const std::uint32_t k : n.kids) {
                const first_info g = first(k);
                for (std::size_t w = 0; w < 4; ++w) f.bytes[w] |= g.bytes[w];
                if (!g.nullable) {
                    f.nullable = false;
                    break;
                }
            }
            break;
        case node_kind::alt:
            f.nullable = false;
            for (const std::uint32_t k : n.kids) {
                const first_info g = first(k);
                for (std::size_t w = 0; w < 4; ++w) f.bytes[w] |= g.bytes[w];
                f.nullable = f.nullable || g.nullable;
            }
            break;
        case node_kind::capture: return first(n.kids[0]);
        case node_kind::repeat:
            if (n.max == 0) break;
            f = first(n.kids[0]);
            f.nullable = f.nullable || n.min == 0;
            break;
        default: break;  // empty, assertions and lookarounds read nothing
        }
        return f;
    }

    // Fewest code points a node can match, saturated.
    std::uint32_t min_width(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::chr: case node_kind::any: case node_kind::set: return 1;
        case node_kind::seq: {
            std::uint64_t w = 0;
            for (const std::uint32_t k : n.kids) w = std::min<std::uint64_t>(w + min_width(k), unbounded);
            return static_cast<std::uint32_t>(w);
        }
        case node_kind::alt: {
            std::uint32_t w = unbounded;
            for (const std::uint32_t k : n.kids) w = std::min(w, min_width(k));
            return w;
        }
        case node_kind::capture: return min_width(n.kids[0]);
        case node_kind::repeat:
            return static_cast<std::uint32_t>(
                std::min<std::uint64_t>(std::uint64_t{n.min} * min_width(n.kids[0]), unbounded));
        default: return 0;
        }
    }

    bool anchored(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::line_begin: return true;
        case node_kind::seq: return !n.kids.empty() && anchored(n.kids[0]);
        case node_kind::alt:
            return std::all_of(n.kids.begin(), n.kids.end(), [&](std::uint32_t k) { return anchored(k); });
        case node_kind::capture: return anchored(n.kids[0]);
        case node_kind::repeat: return n.min > 0 && anchored(n.kids[0]);
        default: return false;
        }
    }

    void emit(std::uint32_t id, bool backward) {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::empty: break;
        case node_kind::chr: push(op::chr, n.value, 0, backward); break;
        case node_kind::any: push(op::any, 0, 0, backward); break;
        case node_kind::set: push(op::set, n.value, 0, backward); break;
        case node_kind::line_begin: push(op::line_begin); break;
        case node_kind::line_end: push(op::line_end); break;
        case node_kind::word_boundary: push(op::word_boundary); break;
        case node_kind::not_word_boundary: push(op::not_word_boundary); break;
        case node_kind::backref: push(op::backref, n.value, 0, backward); break;
        case node_kind::seq:
            if (backward) {
                for (auto k = n.kids.rbegin(); k != n.kids.rend(); ++k) emit(*k, true);
            } else {
                for (const std::uint32_t k : n.kids) emit(k, false);
            }
            break;
        case node_kind::alt: {
            std::vector<std::uint32_t> jumps;
            for (std::size_t k = 0; k < n.kids.size(); ++k) {
                if (k + 1 == n.kids.size()) {
                    emit(n.kids[k], backward);
                    break;
                }
                const std::uint32_t split = push(op::split, pc() + 1);
                emit(n.kids[k], backward);
                jumps.push_back(push(op::jump));
                out_.code[split].b = pc();
            }
            for (const std::uint32_t j : jumps) out_.code[j].a = pc();
            break;
        }
        case node_kind::capture: {
            // Read right to left, a group meets its end first.
            const std::uint32_t first = 2 * n.value + (backward ? 1 : 0);
            const std::uint32_t second = 2 * n.value + (backward ? 0 : 1);
            push(op::save, first);
            emit(n.kids[0], backward);
            push(op::save, second);
            break;
        }
        case node_kind::look: {
            const std::uint32_t reg = out_.registers++;
            const std::uint32_t enter = push(op::look_enter, reg);
            out_.code[enter].flag = n.negate;
            emit(n.kids[0], n.behind);
            push(op::look_exit, reg);
            out_.code[enter].b = pc();
            break;
        }
        case node_kind::repeat: emit_repeat(n, backward); break;
        }
    }

    // Split with the preferred branch first: greedy prefers `body`.
    std::uint32_t push_split(bool greedy, std::uint32_t body, std::uint32_t exit) {
        return greedy ? push(op::split, body, exit) : push(op::split, exit, body);
    }

    void emit_clear(const node& n) {
        if (n.first_group < n.end_group) push(op::clear, 2 * n.first_group, 2 * n.end_group);
    }

    void emit_repeat(const node& n, bool backward) {
        const std::uint32_t body = n.kids[0];
        if (n.max == 0) return;
        if (n.min == 1 && n.max == 1) return emit(body, backward);
        // An iteration beyond the minimum that matches empty fails (ECMA-262 RepeatMatcher):
        // without an empty match, simple loops need no check.
        if (min_width(body) > 0) {
            if (n.min == 0 && n.max == 1) {
                const std::uint32_t split = push(op::split);
                emit(body, backward);
                const inst s = n.greedy ? inst{op::split, false, false, split + 1, pc(), 0, 0}
                                        : inst{op::split, false, false, pc(), split + 1, 0, 0};
                out_.code[split] = s;
                return;
            }
            if (n.min == 0 && n.max == unbounded) {
                const std::uint32_t split = push(op::split);
                emit_clear(n);
                emit(body, backward);
                push(op::jump, split);
                const inst s = n.greedy ? inst{op::split, false, false, split + 1, pc(), 0, 0}
                                        : inst{op::split, false, false, pc(), split + 1, 0, 0};
                out_.code[split] = s;
                return;
            }
            if (n.min == 1 && n.max == unbounded) {
                const std::uint32_t start = pc();
                emit_clear(n);
                emit(body, backward);
                push_split(n.greedy, start, pc() + 1);
                return;
            }
        }
        const std::uint32_t reg = out_.registers;
        out_.registers += 2;
        push(op::rep_enter, reg);
        const std::uint32_t test = push(op::rep_test, reg, n.min);
        out_.code[test].c = n.max;
        out_.code[test].flag = n.greedy;
        push(op::rep_body, reg);
        if (n.max > 1) emit_clear(n);
        emit(body, backward);
        const std::uint32_t end = push(op::rep_end, reg, n.min);
        out_.code[end].c = test;
        out_.code[test].d = pc();
    }
};

enum class frame_kind : unsigned char { choice, undo_slot, undo_register, barrier };

struct frame {
    frame_kind kind;
    std::uint32_t a;  // choice: pc; undo: slot or register; barrier: pc of the look_enter
    std::size_t b;    // choice, barrier: position; undo: old value
};

enum class outcome { match, no_match, too_complex };

// The machine's memory, kept per thread so that a search allocates nothing once warm.
struct scratch {
    std::vector<std::size_t> slots;
    std::vector<std::size_t> registers;
    std::vector<frame> stack;
};

inline scratch& thread_scratch() noexcept {
    thread_local scratch s;
    return s;
}

// One search over a text; throws std::bad_alloc only. One machine per thread at a time.
class machine {
public:
    machine(const program& p, std::string_view text, std::size_t max_steps)
        : p_(p), text_(text), slots_(thread_scratch().slots), registers_(thread_scratch().registers),
          stack_(thread_scratch().stack), max_steps_(max_steps) {
        slots_.assign(p.slots, no_pos);
        registers_.assign(p.registers, 0);
        stack_.clear();
    }
    machine(const machine&) = delete;
    machine& operator=(const machine&) = delete;
    ~machine() {
        // A hostile search may have grown the stack a lot: give that memory back.
        if (stack_.capacity() > max_kept_frames) std::vector<frame>().swap(stack_);
    }

    outcome search() {
        for (std::size_t start = 0;;) {
            if (p_.filtered) {  // a start whose byte cannot begin a match costs no step
                while (start < text_.size() && !p_.may_start(static_cast<unsigned char>(text_[start])))
                    start += next_code_point(text_, start).len;
                if (start >= text_.size()) return outcome::no_match;
            }
            const outcome r = run(start);
            if (r != outcome::no_match) return r;
            if (p_.anchored || start >= text_.size()) return outcome::no_match;
            start += next_code_point(text_, start).len;
        }
    }

private:
    static constexpr std::size_t max_kept_frames = 4096;

    const program& p_;
    std::string_view text_;
    std::vector<std::size_t>& slots_;
    std::vector<std::size_t>& registers_;
    std::vector<frame>& stack_;
    std::size_t steps_ = 0;
    std::size_t max_steps_;

    bool charge(std::size_t n) noexcept {
        steps_ += n;
        return steps_ <= max_steps_;
    }

    void set_slot(std::uint32_t s, std::size_t v) {
        stack_.push_back({frame_kind::undo_slot, s, slots_[s]});
        slots_[s] = v;
    }

    void set_register(std::uint32_t r, std::size_t v) {
        stack_.push_back({frame_kind::undo_register, r, registers_[r]});
        registers_[r] = v;
    }

    void undo(const frame& f) noexcept {
        if (f.kind == frame_kind::undo_slot) slots_[f.a] = f.b;
        else if (f.kind == frame_kind::undo_register) registers_[f.a] = f.b;
    }

    bool is_word_byte(std::size_t k) const noexcept {
        const char c = text_[k];
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    bool at_word_boundary(std::size_t pos) const noexcept {
        const bool before = pos > 0 && is_word_byte(pos - 1);
        const bool after = pos < text_.size() && is_word_byte(pos);
        return before != after;
    }

    // Reads one code point in the instruction's direction; false at the end of the text.
    bool read(const inst& in, std::size_t& pos, char32_t& c) const noexcept {
        if (in.backward) {
            if (pos == 0) return false;
            const decoded d = previous_code_point(text_, pos);
            c = d.cp;
            pos -= d.len;
        } else {
            if (pos >= text_.size()) return false;
            const decoded d = next_code_point(text_, pos);
            c = d.cp;
            pos += d.len;
        }
        return true;
    }

    // Executes one instruction; false when it fails.
    bool step(std::uint32_t& pc, std::size_t& pos) {
        const inst& in = p_.code[pc];
        switch (in.code) {
        case op::chr: {
            char32_t c = 0;
            if (!read(in, pos, c) || c != in.a) return false;
            break;
        }
        case op::any: {
            char32_t c = 0;
            if (!read(in, pos, c) || c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029) return false;
            break;
        }
        case op::set: {
            char32_t c = 0;
            if (!read(in, pos, c) || !contains(p_.sets[in.a], c)) return false;
            break;
        }
        case op::line_begin:
            if (pos != 0) return false;
            break;
        case op::line_end:
            if (pos != text_.size()) return false;
            break;
        case op::word_boundary:
            if (!at_word_boundary(pos)) return false;
            break;
        case op::not_word_boundary:
            if (at_word_boundary(pos)) return false;
            break;
        case op::split:
            stack_.push_back({frame_kind::choice, in.b, pos});
            pc = in.a;
            return true;
        case op::jump: pc = in.a; return true;
        case op::save: set_slot(in.a, pos); break;
        case op::clear:
            if (!charge(in.b - in.a)) return false;
            for (std::uint32_t s = in.a; s < in.b; ++s)
                if (slots_[s] != no_pos) set_slot(s, no_pos);
            break;
        case op::backref: {
            const std::size_t from = slots_[2 * in.a];
            const std::size_t to = slots_[2 * in.a + 1];
            if (from == no_pos || to == no_pos || to <= from) break;  // unset: matches empty
            const std::size_t len = to - from;
            if (!charge(len / 16)) return false;
            const std::string_view captured = text_.substr(from, len);
            if (in.backward) {
                if (pos < len || text_.substr(pos - len, len) != captured) return false;
                pos -= len;
            } else {
                if (text_.size() - pos < len || text_.substr(pos, len) != captured) return false;
                pos += len;
            }
            break;
        }
        case op::look_enter:
            registers_[in.a] = stack_.size();
            stack_.push_back({frame_kind::barrier, pc, pos});
            break;
        case op::look_exit: {
            // The body matched: lookarounds are atomic, so its choices are dropped.
            const std::size_t at = registers_[in.a];
            const frame barrier = stack_[at];
            const inst& enter = p_.code[barrier.a];
            if (!charge(stack_.size() - at)) return false;
            if (enter.flag) {  // negative: undo the body, then fail
                while (stack_.size() > at) {
                    undo(stack_.back());
                    stack_.pop_back();
                }
                return false;
            }
            std::size_t w = at;  // positive: keep the undo records of the captures it set
            for (std::size_t k = at + 1; k < stack_.size(); ++k)
                if (stack_[k].kind == frame_kind::undo_slot || stack_[k].kind == frame_kind::undo_register)
                    stack_[w++] = stack_[k];
            stack_.resize(w);
            pos = barrier.b;
            pc = enter.b;
            return true;
        }
        case op::rep_enter: set_register(in.a, 0); break;
        case op::rep_test: {
            const std::size_t count = registers_[in.a];
            if (count < in.b) break;  // mandatory iteration
            if (count >= in.c) {
                pc = in.d;
                return true;
            }
            if (in.flag) {
                stack_.push_back({frame_kind::choice, in.d, pos});
            } else {
                stack_.push_back({frame_kind::choice, pc + 1, pos});
                pc = in.d;
                return true;
            }
            break;
        }
        case op::rep_body: set_register(in.a + 1, pos); break;
        case op::rep_end:
            if (registers_[in.a] >= in.b && registers_[in.a + 1] == pos) return false;  // optional and empty
            set_register(in.a, registers_[in.a] + 1);
            pc = in.c;
            return true;
        case op::match: return true;
        }
        ++pc;
        return true;
    }

    outcome run(std::size_t start) {
        std::fill(slots_.begin(), slots_.end(), no_pos);
        stack_.clear();
        std::uint32_t pc = 0;
        std::size_t pos = start;
        for (;;) {
            if (!charge(1)) return outcome::too_complex;
            if (p_.code[pc].code == op::match) return outcome::match;
            if (step(pc, pos)) continue;
            for (;;) {  // backtrack
                if (steps_ > max_steps_ || !charge(1)) return outcome::too_complex;
                if (stack_.empty()) return outcome::no_match;
                const frame f = stack_.back();
                stack_.pop_back();
                if (f.kind == frame_kind::choice) {
                    pc = f.a;
                    pos = f.b;
                    break;
                }
                if (f.kind == frame_kind::barrier) {
                    const inst& enter = p_.code[f.a];
                    if (!enter.flag) continue;  // positive lookaround: the body failed
                    pc = enter.b;               // negative lookaround: the body failed, so it holds
                    pos = f.b;
                    break;
                }
                undo(f);
            }
        }
    }
};

// Patterns of the form ^a{m,n}b{m,n}...$ whose atoms are characters, sets or '.', where each
// atom of variable count is last or followed by an atom of count >= 1 that shares no code point
// with it: its extent is then forced, so one greedy left-to-right pass decides the match with
// no backtracking and no memory. Most tool parameter patterns (codes, identifiers, dates) are
// of this form.
struct simple_atom {
    node_kind kind;       // chr, any or set
    std::uint32_t value;  // chr: code point; set: index into the sets
    std::uint32_t min;
    std::uint32_t max;
    std::uint64_t ascii[2] = {0, 0};  // bit c: the atom accepts the ASCII character c
};

struct simple_sequence {
    std::vector<simple_atom> atoms;

    static std::optional<simple_sequence> from(const syntax_tree& t) {
        const node& root = t.nodes[t.root];
        if (root.kind != node_kind::seq || root.kids.size() < 2) return std::nullopt;
        if (t.nodes[root.kids.front()].kind != node_kind::line_begin ||
            t.nodes[root.kids.back()].kind != node_kind::line_end)
            return std::nullopt;
        simple_sequence out;
        for (std::size_t k = 1; k + 1 < root.kids.size(); ++k) {
            const node* n = &t.nodes[root.kids[k]];
            std::uint32_t min = 1, max = 1;
            if (n->kind == node_kind::repeat) {
                min = n->min;
                max = n->max;
                n = &t.nodes[n->kids[0]];
            }
            if (n->kind != node_kind::chr && n->kind != node_kind::any && n->kind != node_kind::set) return std::nullopt;
            simple_atom atom{n->kind, n->value, min, max};
            for (char32_t c = 0; c != 0x80; ++c)
                if (accepts(atom, c, t.sets)) atom.ascii[c >> 6] |= std::uint64_t(1) << (c & 63);
            out.atoms.push_back(atom);
        }
        for (std::size_t i = 0; i + 1 < out.atoms.size(); ++i) {
            const simple_atom& a = out.atoms[i];
            const simple_atom& b = out.atoms[i + 1];
            if (a.min != a.max && (b.min == 0 || !disjoint(t.sets, a, b))) return std::nullopt;
        }
        return out;
    }

    bool match(std::string_view text, const std::vector<cp_set>& sets) const noexcept {
        std::size_t pos = 0;
        for (const simple_atom& a : atoms) {
            std::uint32_t count = 0;
            while (count < a.max && pos < text.size()) {
                // An ASCII byte is its own code point: one bit of the atom's table decides it.
                if (const auto b = static_cast<unsigned char>(text[pos]); b < 0x80) {
                    if (((a.ascii[b >> 6] >> (b & 63)) & 1) == 0) break;
                    ++pos;
                    ++count;
                    continue;
                }
                const decoded d = next_code_point(text, pos);
                if (!accepts(a, d.cp, sets)) break;
                pos += d.len;
                ++count;
            }
            if (count < a.min) return false;
        }
        return pos == text.size();
    }

private:
    static bool accepts(const simple_atom& a, char32_t c, const std::vector<cp_set>& sets) noexcept {
        switch (a.kind) {
        case node_kind::chr: return c == a.value;
        case node_kind::set: return contains(sets[a.value], c);
        default: return c != 0x0A && c != 0x0D && c != 0x2028 && c != 0x2029;  // any
        }
    }

    static bool disjoint(const std::vector<cp_set>& sets, const simple_atom& a, const simple_atom& b) {
        if (a.kind == node_kind::any || b.kind == node_kind::any) return false;
        const cp_set one = a.kind == node_kind::chr ? cp_set{{char32_t(a.value), char32_t(a.value)}} : sets[a.value];
        const cp_set two = b.kind == node_kind::chr ? cp_set{{char32_t(b.value), char32_t(b.value)}} : sets[b.value];
        for (const cp_range& x : one)
            for (const cp_range& y : two)
                if (x.lo <= y.hi && y.lo <= x.hi) return false;
        return true;
    }
};

// What regex::compile builds and regex shares between its copies.
struct compiled {
    program code;
    std::optional<simple_sequence> simple;  // a faster equivalent, for simple patterns
};

} // namespace regex_impl

AGENTRY_DECL std::optional<regex> regex::compile(std::string_view pattern, std::string* error) noexcept {
    try {
        regex_impl::syntax_tree tree;
        regex_impl::parser p(pattern);
        if (!p.parse(tree)) {
            if (error != nullptr) *error = p.error() + " at offset " + std::to_string(p.error_offset());
            return std::nullopt;
        }
        auto c = std::make_shared<regex_impl::compiled>();
        regex_impl::code_generator(tree, c->code).generate();
        c->simple = regex_impl::simple_sequence::from(tree);
        c->code.sets = std::move(tree.sets);
        return regex(std::move(c));
    } catch (...) {  // std::bad_alloc or std::length_error
        if (error != nullptr) {
            try {
                *error = "out of memory";
            } catch (...) {
            }
        }
        return std::nullopt;
    }
}

AGENTRY_DECL regex::match_result regex::search_bounded(std::string_view text, std::size_t max_steps) const noexcept {
    const regex_impl::compiled& c = *compiled_;
    if (c.simple) return c.simple->match(text, c.code.sets) ? match_result::match : match_result::no_match;
    try {
        regex_impl::machine m(c.code, text, max_steps);
        switch (m.search()) {
        case regex_impl::outcome::match: return match_result::match;
        case regex_impl::outcome::no_match: return match_result::no_match;
        case regex_impl::outcome::too_complex: break;
        }
    } catch (...) {  // std::bad_alloc
    }
    return match_result::too_complex;
}

} // namespace agentry::json::detail

#endif
