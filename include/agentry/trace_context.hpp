// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRACE_CONTEXT_HPP
#define AGENTRY_TRACE_CONTEXT_HPP

// agentry::trace_context: the W3C Trace Context of a span (https://www.w3.org/TR/trace-context/),
// carried from a run to its model requests (the traceparent header), its tool calls, the agents
// it calls as tools and the MCP servers it calls (params._meta.traceparent), and read from an
// incoming MCP request.
//
//   traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
//                version-trace id (16 bytes)-parent span id (8 bytes)-flags (01: sampled)

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agentry {

struct trace_context {
    std::array<std::uint8_t, 16> trace_id{};
    std::array<std::uint8_t, 8> span_id{};
    /// The W3C trace-flags byte; bit 0: sampled.
    std::uint8_t flags = 1;

    /// Both ids are set (the spec makes all-zero ids invalid).
    constexpr bool valid() const noexcept {
        const auto trace = std::bit_cast<std::array<std::uint64_t, 2>>(trace_id);
        return (trace[0] | trace[1]) != 0 && std::bit_cast<std::uint64_t>(span_id) != 0;
    }

    /// The traceparent header value: "00-" trace id "-" span id "-" flags, in lower-case hex.
    std::string traceparent() const {
        std::string out = "00-";
        append_hex(out, trace_id);
        out += '-';
        append_hex(out, span_id);
        out += '-';
        append_hex(out, std::array<std::uint8_t, 1>{flags});
        return out;
    }

    std::string trace_id_hex() const {
        std::string out;
        append_hex(out, trace_id);
        return out;
    }
    std::string span_id_hex() const {
        std::string out;
        append_hex(out, span_id);
        return out;
    }

    /// A traceparent header value read by the spec's rules: version 00 is exactly 55 characters;
    /// a later version (not ff) is read by its first four fields and may go on after a '-';
    /// lower-case hex only; all-zero ids refused. Empty when the value is not valid.
    static constexpr std::optional<trace_context> from_traceparent(std::string_view text) noexcept {
        if (text.size() < 55 || text[2] != '-' || text[35] != '-' || text[52] != '-') return std::nullopt;
        const int version = byte_at(text, 0);
        if (version < 0 || version == 0xff) return std::nullopt;
        if (version == 0 ? text.size() != 55 : text.size() > 55 && text[55] != '-') return std::nullopt;
        trace_context out;
        for (std::size_t i = 0; i != 16; ++i) {
            const int b = byte_at(text, 3 + 2 * i);
            if (b < 0) return std::nullopt;
            out.trace_id[i] = std::uint8_t(b);
        }
        for (std::size_t i = 0; i != 8; ++i) {
            const int b = byte_at(text, 36 + 2 * i);
            if (b < 0) return std::nullopt;
            out.span_id[i] = std::uint8_t(b);
        }
        const int flags = byte_at(text, 53);
        if (flags < 0) return std::nullopt;
        out.flags = std::uint8_t(flags);
        if (!out.valid()) return std::nullopt;
        return out;
    }

    friend constexpr bool operator==(const trace_context&, const trace_context&) = default;

private:
    template <std::size_t N>
    static void append_hex(std::string& out, const std::array<std::uint8_t, N>& bytes) {
        static constexpr char digits[] = "0123456789abcdef";
        for (std::uint8_t b : bytes) {
            out += digits[b >> 4];
            out += digits[b & 15];
        }
    }
    static constexpr int nibble(char c) noexcept {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    }
    static constexpr int byte_at(std::string_view text, std::size_t at) noexcept {
        const int hi = nibble(text[at]), lo = nibble(text[at + 1]);
        return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    }
};

} // namespace agentry

#endif
