// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_BASE64_HPP
#define AGENTRY_MCP_DETAIL_BASE64_HPP

// Base64 as RFC 4648 section 4 defines it (the standard alphabet, `=` padding, no line
// breaks): the encoding MCP asks for in image and audio `data` and resource `blob`, and in
// header values that cannot be sent as they are (2026-07-28's `=?base64?...?=`); and its URL
// form (section 5: `-` and `_`, no padding) for PKCE and JWTs.
// Cost: one pass, four output bytes per three input bytes, one reservation.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {

/// The length of the base64 text of `size` bytes.
constexpr std::size_t base64_size(std::size_t size) noexcept {
    return (size + 2) / 3 * 4;
}

/// Appends the base64 text of `bytes` to `out`.
inline void append_base64(std::string& out, std::string_view bytes) {
    constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const std::size_t at = out.size();
    out.resize(at + base64_size(bytes.size()));
    char* o = out.data() + at;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[i])); };
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned group = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        *o++ = alphabet[group >> 18];
        *o++ = alphabet[group >> 12 & 63];
        *o++ = alphabet[group >> 6 & 63];
        *o++ = alphabet[group & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest != 0) {
        const unsigned group = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0u);
        *o++ = alphabet[group >> 18];
        *o++ = alphabet[group >> 12 & 63];
        *o++ = rest == 2 ? alphabet[group >> 6 & 63] : '=';
        *o++ = '=';
    }
}

/// The base64 text of `bytes`.
inline std::string base64(std::string_view bytes) {
    std::string out;
    append_base64(out, bytes);
    return out;
}

/// The base64url text of `bytes` (RFC 4648 section 5, without padding).
inline std::string base64url(std::string_view bytes) {
    std::string out = base64(bytes);
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

/// The bytes of base64 `text` (the standard alphabet, padded to a multiple of four characters),
/// or nothing when it is not such a text.
inline std::optional<std::string> decode_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    const auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i != text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const std::size_t padding = !last ? 0 : text[i + 2] == '=' && text[i + 3] == '=' ? 2 : text[i + 3] == '=' ? 1 : 0;
        unsigned group = 0;
        for (std::size_t k = 0; k != 4; ++k) {
            const int v = k >= 4 - padding ? 0 : value(text[i + k]);
            if (v < 0) return std::nullopt;
            group = group << 6 | static_cast<unsigned>(v);
        }
        out += static_cast<char>(group >> 16);
        if (padding < 2) out += static_cast<char>(group >> 8 & 255);
        if (padding < 1) out += static_cast<char>(group & 255);
    }
    return out;
}

} // namespace agentry::mcp::detail

#endif
