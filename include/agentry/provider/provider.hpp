// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_PROVIDER_HPP
#define AGENTRY_PROVIDER_PROVIDER_HPP

// What every provider type offers, and the parts they share: mapping an HTTP error to a typed
// provider_error, Retry-After, and running one turn over a transport.
//
// A provider P (agentry::openai, anthropic, gemini, ollama) has
//   http_request P::request(const chat_request&) const;      the request of one turn
//   turn_result  P::parse(const http_response&) const;       a whole (non-streamed) response
//   P::stream    P::start_stream(stream_events) const;       an assembler for a streamed body:
//       void        feed(std::string_view bytes);              bytes in any split
//       turn_result finish(const http_response& head);         once the body has ended

#include <agentry/provider/message.hpp>
#include <agentry/transport/transport.hpp>

#include <charconv>
#include <chrono>
#include <concepts>
#include <cstdio>
#include <ctime>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace agentry {

/// Callbacks while a streamed turn arrives. Each may be empty.
struct stream_events {
    /// A piece of the assistant's text.
    std::function<void(std::string_view text)> on_text;
    /// A tool call's name is known (its arguments may still be arriving).
    std::function<void(std::string_view id, std::string_view name)> on_tool_call;
};

/// What a trace hook sees of one exchange: the request with its credentials redacted, and the
/// response (for a stream, `body` holds every chunk received, in order).
struct trace_record {
    http_request request;
    http_response response;
    transport_error error;
};

/// Called once per exchange by complete(), after it ends.
using trace_hook = std::function<void(const trace_record&)>;

/// Header names whose values are credentials: replaced by "[redacted]" in traces.
inline bool is_credential_header(std::string_view name) noexcept {
    static constexpr std::string_view names[] = {"authorization", "x-api-key", "x-goog-api-key", "api-key",
                                                 "proxy-authorization", "cookie"};
    for (std::string_view n : names)
        if (same_header_name(n, name)) return true;
    return false;
}

/// `request` with every credential header value replaced, and an API key passed in the URL's
/// query (`key=`) replaced too.
inline http_request redacted(http_request request) {
    for (http_header& h : request.headers)
        if (is_credential_header(h.name)) h.value = "[redacted]";
    for (std::string_view key : {std::string_view("?key="), std::string_view("&key=")}) {
        const std::size_t at = request.url.find(key);
        if (at == std::string::npos) continue;
        const std::size_t from = at + key.size();
        const std::size_t to = request.url.find('&', from);
        request.url.replace(from, to == std::string::npos ? std::string::npos : to - from, "[redacted]");
    }
    return request;
}

template <class P>
concept provider = requires(const P& p, const chat_request& request, const http_response& response,
                            typename P::stream& s, std::string_view bytes) {
    { p.request(request) } -> std::same_as<http_request>;
    { p.parse(response) } -> std::same_as<turn_result>;
    { p.start_stream(stream_events{}) } -> std::same_as<typename P::stream>;
    s.feed(bytes);
    { s.finish(response) } -> std::same_as<turn_result>;
};

namespace detail {

/// Retry-After as delay-seconds or an HTTP date (RFC 9110), relative to `now`; empty when
/// absent or unreadable.
inline std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                                  std::chrono::system_clock::time_point now) {
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    if (value.empty()) return std::nullopt;
    double seconds = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (ec == std::errc{} && end == value.data() + value.size()) {
        if (seconds < 0) return std::nullopt;
        return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    }
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
    std::tm tm{};
    const std::string text(value);
    static constexpr const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char month[4] = {};
    int day = 0, year = 0, hour = 0, minute = 0, second = 0;
    if (std::sscanf(text.c_str(), "%*3s, %d %3s %d %d:%d:%d GMT", &day, month, &year, &hour, &minute, &second) != 6)
        return std::nullopt;
    int m = -1;
    for (int i = 0; i != 12; ++i)
        if (std::string_view(month) == months[i]) m = i;
    if (m < 0) return std::nullopt;
    tm.tm_year = year - 1900;
    tm.tm_mon = m;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const std::time_t at = timegm(&tm);
    const auto when = std::chrono::system_clock::from_time_t(at);
    if (when <= now) return std::chrono::milliseconds(0);
    return std::chrono::duration_cast<std::chrono::milliseconds>(when - now);
}

/// The typed error of a non-2xx response: kind and retryability from the status, Retry-After,
/// and the provider's message and type as `message`/`type` (read from the body by the
/// provider; empty: the body itself, cut to 500 bytes).
inline provider_error http_error(const http_response& response, std::string message, std::string type) {
    provider_error e;
    e.status = response.status;
    const int s = response.status;
    if (s == 401) e.kind = provider_error_kind::authentication;
    else if (s == 403) e.kind = provider_error_kind::permission;
    else if (s == 429) e.kind = provider_error_kind::rate_limited;
    else if (s >= 500) e.kind = provider_error_kind::server;
    else if (s == 408) e.kind = provider_error_kind::server;  // request timeout: worth another try
    else e.kind = provider_error_kind::bad_request;
    e.retryable = s == 408 || s == 409 || s == 429 || s >= 500;
    e.retry_after = parse_retry_after(response.header("retry-after"), std::chrono::system_clock::now());
    if (message.empty()) {
        message = response.body.substr(0, 500);
        if (message.empty()) message = "HTTP " + std::to_string(s) + " with an empty body";
    }
    e.message = std::move(message);
    e.type = std::move(type);
    return e;
}

inline provider_error transport_failure(const transport_error& error) {
    provider_error e;
    e.kind = provider_error_kind::transport;
    e.message = error.message;
    e.retryable = error.kind == transport_error_kind::connect || error.kind == transport_error_kind::timeout ||
                  error.kind == transport_error_kind::reset;
    switch (error.kind) {
    case transport_error_kind::connect: e.type = "connect"; break;
    case transport_error_kind::timeout: e.type = "timeout"; break;
    case transport_error_kind::reset: e.type = "reset"; break;
    case transport_error_kind::tls: e.type = "tls"; break;
    case transport_error_kind::cancelled: e.type = "cancelled"; break;
    default: e.type = "other"; break;
    }
    return e;
}

inline provider_error malformed(std::string message) {
    provider_error e;
    e.kind = provider_error_kind::malformed;
    e.message = std::move(message);
    return e;
}

} // namespace detail

/// One turn over `transport`: the request of `p`, sent whole or streamed (request.stream),
/// read into a completion or a typed error; `trace`, when set, sees the exchange. Never throws.
template <provider P, transport T>
turn_result complete(const P& p, T& transport, const chat_request& request, const stream_events& events = {},
                     const trace_hook& trace = {}) noexcept {
    try {
        http_request http = p.request(request);
        if (request.cancel != nullptr) http.cancel = request.cancel;
        const auto traced = [&](const transport_result& r, std::string streamed) {
            if (!trace) return;
            trace_record record{redacted(http), r.response, r.error};
            if (request.stream && record.response.status >= 200 && record.response.status <= 299)
                record.response.body = std::move(streamed);
            try {
                trace(record);
            } catch (...) {  // a failing hook does not fail the turn
            }
        };
        if (!request.stream) {
            transport_result r = transport.send(http);
            traced(r, {});
            if (!r.ok()) return {std::nullopt, detail::transport_failure(r.error)};
            return p.parse(r.response);
        }
        typename P::stream assembler = p.start_stream(events);
        http_response head;
        stream_handlers handlers;
        handlers.on_head = [&](const http_response& h) {
            head.status = h.status;
            head.headers = h.headers;
            return true;
        };
        std::string streamed;
        handlers.on_chunk = [&](std::string_view bytes) {
            if (trace) streamed.append(bytes);
            assembler.feed(bytes);
            return true;
        };
        transport_result r = transport.stream(http, handlers);
        traced(r, std::move(streamed));
        if (!r.ok()) return {std::nullopt, detail::transport_failure(r.error)};
        if (r.response.status < 200 || r.response.status > 299) return p.parse(r.response);
        return assembler.finish(r.response);
    } catch (const std::exception& e) {
        return {std::nullopt, detail::malformed(std::string("agentry: ") + e.what())};
    } catch (...) {
        return {std::nullopt, detail::malformed("agentry: unknown exception")};
    }
}

} // namespace agentry

#endif
