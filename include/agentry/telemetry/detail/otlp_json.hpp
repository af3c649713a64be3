// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_OTLP_JSON_HPP
#define AGENTRY_TELEMETRY_DETAIL_OTLP_JSON_HPP

// The body of an OTLP/HTTP JSON export (ExportTraceServiceRequest) by the OTLP JSON mapping of
// the protobuf messages: field names in lowerCamelCase, trace and span ids in lower-case hex
// (not base64), enums as integers, 64-bit integers as decimal strings, default values left out.

#include <agentry/json/writer.hpp>
#include <agentry/telemetry/span.hpp>
#include <agentry/version.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace agentry::detail {

template <std::size_t N>
void otlp_hex(std::string& out, const std::array<std::uint8_t, N>& bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    out += '"';
    for (std::uint8_t b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    out += '"';
}

inline void otlp_string(std::string& out, std::string_view text) { json::write(out, text); }

inline void otlp_value(std::string& out, const attribute_value& value) {
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) {
                out += "{\"stringValue\":";
                otlp_string(out, v);
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                out += "{\"intValue\":\"";
                out += std::to_string(v);
                out += '"';
            } else if constexpr (std::is_same_v<T, double>) {
                out += "{\"doubleValue\":";
                // The JSON mapping writes the values JSON has no number for as strings.
                if (std::isnan(v)) out += "\"NaN\"";
                else if (std::isinf(v)) out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
                else json::write(out, v);
            } else if constexpr (std::is_same_v<T, bool>) {
                out += v ? "{\"boolValue\":true" : "{\"boolValue\":false";
            } else {
                out += "{\"arrayValue\":{\"values\":[";
                for (std::size_t i = 0; i != v.size(); ++i) {
                    if (i) out += ',';
                    out += "{\"stringValue\":";
                    otlp_string(out, v[i]);
                    out += '}';
                }
                out += "]}";
            }
            out += '}';
        },
        value);
}

inline void otlp_attribute(std::string& out, std::string_view key, const attribute_value& value) {
    out += "{\"key\":";
    otlp_string(out, key);
    out += ",\"value\":";
    otlp_value(out, value);
    out += '}';
}

inline void otlp_span(std::string& out, const span& s) {
    out += "{\"traceId\":";
    otlp_hex(out, s.trace_id);
    out += ",\"spanId\":";
    otlp_hex(out, s.span_id);
    if (!s.root()) {
        out += ",\"parentSpanId\":";
        otlp_hex(out, s.parent_span_id);
    }
    out += ",\"name\":";
    otlp_string(out, s.name);
    out += ",\"kind\":";
    out += std::to_string(static_cast<int>(s.kind));
    out += ",\"startTimeUnixNano\":\"";
    out += std::to_string(s.start_unix_ns);
    out += "\",\"endTimeUnixNano\":\"";
    out += std::to_string(s.end_unix_ns);
    out += "\",\"attributes\":[";
    for (std::size_t i = 0; i != s.attributes.size(); ++i) {
        if (i) out += ',';
        otlp_attribute(out, s.attributes[i].key, s.attributes[i].value);
    }
    out += ']';
    if (s.status != span_status::unset) {
        out += ",\"status\":{\"code\":";
        out += std::to_string(static_cast<int>(s.status));
        if (!s.status_message.empty()) {
            out += ",\"message\":";
            otlp_string(out, s.status_message);
        }
        out += '}';
    }
    out += '}';
}

/// An ExportTraceServiceRequest of spans [first, first + n): one resource (service.name and the
/// telemetry.sdk attributes), one scope ("agentry", this version).
inline std::string otlp_request(std::string_view service_name, const span* first, std::size_t n) {
    std::string out;
    out.reserve(256 + n * 768);
    out += "{\"resourceSpans\":[{\"resource\":{\"attributes\":[";
    otlp_attribute(out, "service.name", std::string(service_name));
    out += ',';
    otlp_attribute(out, "telemetry.sdk.name", std::string("agentry"));
    out += ',';
    otlp_attribute(out, "telemetry.sdk.language", std::string("cpp"));
    out += ',';
    otlp_attribute(out, "telemetry.sdk.version", std::string(AGENTRY_VERSION_STRING));
    out += "]},\"scopeSpans\":[{\"scope\":{\"name\":\"agentry\",\"version\":";
    otlp_string(out, AGENTRY_VERSION_STRING);
    out += "},\"spans\":[";
    for (std::size_t i = 0; i != n; ++i) {
        if (i) out += ',';
        otlp_span(out, first[i]);
    }
    out += "]}]}]}";
    return out;
}

} // namespace agentry::detail

#endif
