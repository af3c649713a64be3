// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_ERRORS_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_ERRORS_HPP

// OpenAI's errors as provider_errors: the error object of a non-2xx body, of a 2xx body, or of
// an error event inside a stream, classified by the documented fields, never by words found
// in them.
//
// A non-2xx response is classified by its status (detail::http_error). An error inside a 2xx
// body or stream has no status of its own: it takes the HTTP status its `code` names when
// that is a number (llama.cpp and vLLM put the status there), else the status OpenAI gives its
// documented `code` (error_codes), else the one of its `type` (error_types), else 500. In
// both cases the code insufficient_quota is not retryable, and a 429 without Retry-After
// takes its delay from x-ratelimit-reset-requests or -tokens (by the `type`, "requests" or
// "tokens", when it says which).

#include <agentry/detail/chrono.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::detail::openai_impl {

namespace wire = openai_wire;

/// OpenAI's reset durations: "1s", "6m0s", "20ms", "1h2m3.5s". Empty when unreadable, or
/// negative or NaN in a part; a total past max_server_delay (infinity included) saturates.
inline std::optional<std::chrono::milliseconds> parse_reset(std::string_view text) {
    text = trim_space(text);
    if (text.empty()) return std::nullopt;
    double total = 0;
    while (!text.empty()) {
        const auto number = read_server_number(text);
        if (!number) return std::nullopt;
        const double amount = number->first;
        text.remove_prefix(number->second);
        std::size_t unit_size = 1;
        double unit = 0;
        if (text.starts_with("ms")) {
            unit = 1;
            unit_size = 2;
        } else if (text.starts_with("h")) {
            unit = 3600000;
        } else if (text.starts_with("m")) {
            unit = 60000;
        } else if (text.starts_with("s")) {
            unit = 1000;
        } else {
            return std::nullopt;
        }
        text.remove_prefix(unit_size);
        total += amount * unit;
    }
    return delay_from_seconds(total / 1000);
}

struct error_class {
    std::string_view name;
    int status;
};

/// OpenAI's documented error codes (platform.openai.com/docs/guides/error-codes) and the
/// status OpenAI answers them with.
inline constexpr error_class error_codes[] = {
    {"invalid_api_key", 401},
    {"invalid_organization", 401},
    {"unsupported_country_region_territory", 403},
    {"model_not_found", 404},
    {"context_length_exceeded", 400},
    {"string_above_max_length", 400},
    {"invalid_value", 400},
    {"rate_limit_exceeded", 429},
    {"insufficient_quota", 429},
};

/// Error types: OpenAI's, those of llama.cpp's server (authentication_error,
/// permission_error, not_found_error, unavailable_error, exceed_context_size_error,
/// not_supported_error), vLLM's exception names and Ollama's api_error.
inline constexpr error_class error_types[] = {
    {"invalid_request_error", 400},
    {"exceed_context_size_error", 400},
    {"BadRequestError", 400},
    {"authentication_error", 401},
    {"permission_error", 403},
    {"request_forbidden", 403},
    {"not_found_error", 404},
    {"NotFoundError", 404},
    {"requests", 429},
    {"tokens", 429},
    {"rate_limit_error", 429},
    {"insufficient_quota", 429},
    {"server_error", 500},
    {"api_error", 500},
    {"InternalServerError", 500},
    {"not_supported_error", 501},
    {"unavailable_error", 503},
};

/// The status of `name` in `table`, or 0.
template <std::size_t N>
constexpr int status_of(const error_class (&table)[N], std::string_view name) noexcept {
    for (const error_class& c : table)
        if (c.name == name) return c.status;
    return 0;
}

/// The HTTP status an error inside a 2xx body or stream stands for.
inline int in_band_status(const error_fields& f) noexcept {
    if (f.numeric_code >= 400 && f.numeric_code <= 599) return f.numeric_code;
    if (const int s = status_of(error_codes, f.code)) return s;
    if (const int s = status_of(error_types, f.type)) return s;
    return 500;
}

inline void read_code(error_fields& f, const std::optional<raw_json>& code) {
    f.code = plain_text(code);
    if (code && !code->text().empty() && code->text().front() != '"') {
        int n = 0;
        const auto [end, ec] = std::from_chars(f.code.data(), f.code.data() + f.code.size(), n);
        if (ec == std::errc{} && end == f.code.data() + f.code.size()) f.numeric_code = n;
    }
}

/// `error_event`: the body came as an SSE `event: error`, so its top-level members describe it.
inline error_fields error_of(const wire::body_in& body, bool error_event = false) {
    error_fields f;
    if (body.error) {
        f.present = true;
        if (const auto* o = std::get_if<wire::error_object>(&*body.error)) {
            f.message = o->message.value_or(std::string{});
            f.type = plain_text(o->type);
            read_code(f, o->code);
        } else {
            f.message = std::get<std::string>(*body.error);
        }
    } else if (error_event || (body.object && *body.object == "error")) {
        f.present = true;
        f.message = body.message.value_or(std::string{});
        f.type = plain_text(body.type);
        read_code(f, body.code);
    }
    return f;
}

inline void adjust_rate_limit(provider_error& e, const error_fields& f, const http_response& r) {
    if (f.code == "insufficient_quota" || f.type == "insufficient_quota") e.retryable = false;
    if (e.kind != provider_error_kind::rate_limited || e.retry_after) return;
    const auto requests = parse_reset(r.header("x-ratelimit-reset-requests"));
    const auto tokens = parse_reset(r.header("x-ratelimit-reset-tokens"));
    if (f.type == "requests" && requests) e.retry_after = requests;
    else if (f.type == "tokens" && tokens) e.retry_after = tokens;
    else if (requests && tokens) e.retry_after = std::max(*requests, *tokens);
    else e.retry_after = requests ? requests : tokens;
}

/// The typed error of a non-2xx response.
inline provider_error http_failure(const http_response& r) {
    error_fields f;
    const auto parsed = json::read<wire::body_in>(r.body, wire_read_options);
    if (parsed.ok()) f = error_of(parsed.value);
    provider_error e = detail::http_error(r, f.message, f.label());
    adjust_rate_limit(e, f, r);
    return e;
}

/// The typed error of an error reported inside a 2xx body or stream.
inline provider_error in_band_failure(const http_response& head, const error_fields& f) {
    http_response as_status;
    as_status.headers = head.headers;
    as_status.status = in_band_status(f);
    provider_error e = detail::http_error(
        as_status, f.message.empty() ? "the server reported an error without a message" : f.message, f.label());
    e.status = head.status;
    adjust_rate_limit(e, f, head);
    return e;
}

} // namespace agentry::detail::openai_impl

#endif
