// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_SPAN_HPP
#define AGENTRY_TELEMETRY_SPAN_HPP

// agentry::span: a finished span as agentry::tracer delivers it to tracer_options::on_span and
// to the OTLP exporter (telemetry/otlp.hpp): ids, name, kind, times in Unix nanoseconds, status
// and attributes, in the shape of an OpenTelemetry span.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentry {

/// The OpenTelemetry span kinds agentry makes, with their OTLP numbers.
enum class span_kind : std::uint8_t {
    internal = 1,  // a run, a plan, a tool call
    server = 2,    // an MCP request as served
    client = 3,    // a model turn, an MCP request as sent
};

/// The OpenTelemetry status codes, with their OTLP numbers.
enum class span_status : std::uint8_t {
    unset = 0,
    ok = 1,
    error = 2,
};

constexpr std::string_view to_string(span_kind k) noexcept {
    switch (k) {
    case span_kind::internal: return "internal";
    case span_kind::server: return "server";
    case span_kind::client: return "client";
    }
    return "internal";
}

constexpr std::string_view to_string(span_status s) noexcept {
    switch (s) {
    case span_status::unset: return "unset";
    case span_status::ok: return "ok";
    case span_status::error: return "error";
    }
    return "unset";
}

/// An attribute's value: a string, an integer, a double, a bool or an array of strings
/// (gen_ai.response.finish_reasons).
using attribute_value = std::variant<std::string, std::int64_t, double, bool, std::vector<std::string>>;

struct span_attribute {
    /// The attribute's name; agentry's names are string literals (static storage).
    std::string_view key;
    attribute_value value;
};

struct span {
    std::array<std::uint8_t, 16> trace_id{};
    std::array<std::uint8_t, 8> span_id{};
    /// All zero for a root span.
    std::array<std::uint8_t, 8> parent_span_id{};
    std::string name;
    span_kind kind = span_kind::internal;
    /// Nanoseconds since 1970-01-01 UTC.
    std::uint64_t start_unix_ns = 0;
    std::uint64_t end_unix_ns = 0;
    span_status status = span_status::unset;
    /// Set with status error when there is a message to give.
    std::string status_message;
    std::vector<span_attribute> attributes;

    bool root() const noexcept {
        for (std::uint8_t b : parent_span_id)
            if (b != 0) return false;
        return true;
    }

    /// The value of attribute `key`; null when the span has none.
    const attribute_value* find(std::string_view key) const noexcept {
        for (const span_attribute& a : attributes)
            if (a.key == key) return &a.value;
        return nullptr;
    }
};

} // namespace agentry

#endif
