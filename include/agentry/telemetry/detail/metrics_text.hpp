// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_METRICS_TEXT_HPP
#define AGENTRY_TELEMETRY_DETAIL_METRICS_TEXT_HPP

// Pieces of the Prometheus text exposition format 0.0.4 that agentry::metrics writes
// (https://prometheus.io/docs/instrumenting/exposition_formats/): a family's # HELP and # TYPE
// lines, a sample with its labels (values escaped: \\ \" \n), numbers as Go's ParseFloat
// reads them (NaN, +Inf, -Inf; otherwise the shortest text that reads back to the value).

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <system_error>

namespace agentry::detail {

struct metric_label {
    std::string_view name;
    std::string_view value;
};

inline void append_number(std::string& out, std::uint64_t n) {
    char buffer[24];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, n);
    out.append(buffer, r.ptr);
}

inline void append_number(std::string& out, double v) {
    if (std::isnan(v)) {
        out += "NaN";
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "+Inf" : "-Inf";
        return;
    }
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, r.ptr);
}

/// A label value with \, " and the line feed escaped.
inline void append_label_value(std::string& out, std::string_view value) {
    for (char c : value) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
}

inline void append_family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
    out.append("# HELP ").append(name).append(" ").append(help).append("\n# TYPE ").append(name).append(" ");
    out.append(type).append("\n");
}

/// `name{labels...,extra} ` with the labels whose value is not null; the value follows.
inline void append_series(std::string& out, std::string_view name, std::initializer_list<metric_label> labels,
                          metric_label extra = {}) {
    out += name;
    bool first = true;
    const auto one = [&](const metric_label& l) {
        if (l.name.empty()) return;
        out += first ? '{' : ',';
        first = false;
        out.append(l.name).append("=\"");
        append_label_value(out, l.value);
        out += '"';
    };
    for (const metric_label& l : labels) one(l);
    one(extra);
    if (!first) out += '}';
    out += ' ';
}

template <class Number>
void append_sample(std::string& out, std::string_view name, std::initializer_list<metric_label> labels, Number value) {
    append_series(out, name, labels);
    append_number(out, value);
    out += '\n';
}

} // namespace agentry::detail

#endif
