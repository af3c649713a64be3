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
//       bool        overflowed() const;                        optional: a line or an event passed
//                                                              its limit, so complete() stops the
//                                                              transfer and lets finish() say so
// and optionally
//   std::optional<provider_error> P::refuse(const chat_request&) const;
//                                                              a request this provider cannot take
//                                                              (say why and what to use instead):
//                                                              complete() returns it, sending nothing

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/from_chars.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/redact.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/transport/detail/url.hpp>
#include <agentry/transport/transport.hpp>

#include <charconv>
#include <concepts>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// Callbacks while a streamed turn arrives. Each may be empty.
struct stream_events {
    /// A piece of the assistant's text.
    std::function<void(std::string_view text)> on_text;
    /// A tool call's name is known (its arguments may still be arriving).
    std::function<void(std::string_view id, std::string_view name)> on_tool_call;
    /// A piece of a tool call's arguments (JSON text, possibly incomplete until the call ends),
    /// after on_tool_call for that id; the pieces of one call joined are its arguments exactly.
    /// A provider that sends a call's arguments whole gives them as one piece.
    std::function<void(std::string_view id, std::string_view piece)> on_tool_arguments;
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
    return detail::is_credential_name(name, detail::credential_headers);
}

/// `request` with every credential header value, the URL's userinfo and its credential query
/// parameters (`key=`, `api_key=`, `token=`, ...) replaced by "[redacted]".
inline http_request redacted(http_request request) {
    for (http_header& h : request.headers)
        if (is_credential_header(h.name)) h.value = detail::redaction;
    detail::redact_userinfo(request.url);
    detail::redact_parameters(request.url);
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

/// The longest delay agentry takes from a server (Retry-After, Gemini's retryDelay, OpenAI's
/// x-ratelimit-reset-*): a longer one, however written, is read as this.
inline constexpr std::chrono::milliseconds max_server_delay = std::chrono::hours(24);

/// `seconds` as a delay: empty for NaN and negative values; infinity and anything past
/// max_server_delay saturate to it.
inline std::optional<std::chrono::milliseconds> delay_from_seconds(double seconds) noexcept {
    if (!(seconds >= 0)) return std::nullopt;
    if (!(seconds * 1000 < double(max_server_delay.count()))) return max_server_delay;
    return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

/// The decimal number a server wrote at the start of `text` (from_chars syntax: "2", "1.5",
/// "1e300", "inf", "nan"), and where it ends: empty when there is none or it is NaN or
/// negative; a value past a double's range reads as infinity, one too close to 0 as 0.
inline std::optional<std::pair<double, std::size_t>> read_server_number(std::string_view text) noexcept {
    if (text.empty()) return std::nullopt;
    double value = 0;
    const auto [end, ec] = agentry::detail::from_chars(text.data(), text.data() + text.size(), value);
    const std::size_t used = std::size_t(end - text.data());
    if (ec == std::errc::result_out_of_range) {
        if (text.front() == '-') return std::nullopt;
        // Too close to 0: a negative exponent, or no exponent and no nonzero digit before the point.
        const std::string_view number = text.substr(0, used);
        const std::size_t e = number.find_first_of("eE");
        const std::size_t digit = number.find_first_not_of('0');
        const bool tiny = e != std::string_view::npos
                              ? e + 1 < number.size() && number[e + 1] == '-'
                              : digit == std::string_view::npos || number[digit] == '.';
        return std::pair(tiny ? 0.0 : std::numeric_limits<double>::infinity(), used);
    }
    if (ec != std::errc{} || !(value >= 0)) return std::nullopt;
    return std::pair(value, used);
}

/// The number of `count` ASCII digits at text[at], or -1.
constexpr int digits_at(std::string_view text, std::size_t at, std::size_t count) noexcept {
    int n = 0;
    for (std::size_t i = at; i != at + count; ++i) {
        if (i >= text.size() || text[i] < '0' || text[i] > '9') return -1;
        n = n * 10 + (text[i] - '0');
    }
    return n;
}

/// Retry-After (RFC 9110, section 10.2.3) relative to `now`: delay-seconds (a decimal
/// fraction is accepted too) or an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"). Empty when
/// absent, negative, NaN or unreadable (the obsolete RFC 850 and asctime date forms included);
/// a date in the past is 0; anything past max_server_delay saturates to it.
inline std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                                  std::chrono::system_clock::time_point now) {
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (value.empty()) return std::nullopt;
    if (const auto number = read_server_number(value); number && number->second == value.size())
        return delay_from_seconds(number->first);
    if (value.front() == '-' || (value.front() >= '0' && value.front() <= '9')) return std::nullopt;
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT", 29 characters.
    if (value.size() != 29 || value[3] != ',' || value[4] != ' ' || value[7] != ' ' || value[11] != ' ' ||
        value[16] != ' ' || value[19] != ':' || value[22] != ':' || value.substr(25) != " GMT")
        return std::nullopt;
    static constexpr std::string_view months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    unsigned month = 0;
    for (unsigned i = 0; i != 12; ++i)
        if (value.substr(8, 3) == months[i]) month = i + 1;
    const int day = digits_at(value, 5, 2), year = digits_at(value, 12, 4);
    const int hour = digits_at(value, 17, 2), minute = digits_at(value, 20, 2), second = digits_at(value, 23, 2);
    if (month == 0 || day < 0 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
        second > 60)
        return std::nullopt;
    const detail::civil_date date{year, month, static_cast<unsigned>(day)};
    if (!detail::valid_civil_date(date)) return std::nullopt;
    // In seconds: nanoseconds since 1970 do not reach the year 9999.
    const std::chrono::sys_seconds when = std::chrono::sys_days(std::chrono::days(detail::days_from_civil(date))) +
                                          std::chrono::hours(hour) + std::chrono::minutes(minute) +
                                          std::chrono::seconds(second);
    const std::chrono::sys_seconds from = std::chrono::floor<std::chrono::seconds>(now);
    if (when <= from) return std::chrono::milliseconds(0);
    if (when - from >= max_server_delay) return max_server_delay;
    return std::chrono::duration_cast<std::chrono::milliseconds>(when - from);
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
    e.message = redacted_text(std::move(message));
    e.type = redacted_text(std::move(type));
    return e;
}

inline provider_error transport_failure(const transport_error& error) {
    provider_error e;
    e.kind = error.kind == transport_error_kind::too_large ? provider_error_kind::too_large
                                                           : provider_error_kind::transport;
    e.message = redacted_text(error.message);
    e.retryable = error.kind == transport_error_kind::connect || error.kind == transport_error_kind::timeout ||
                  error.kind == transport_error_kind::reset;
    switch (error.kind) {
    case transport_error_kind::connect: e.type = "connect"; break;
    case transport_error_kind::timeout: e.type = "timeout"; break;
    case transport_error_kind::reset: e.type = "reset"; break;
    case transport_error_kind::tls: e.type = "tls"; break;
    case transport_error_kind::cancelled: e.type = "cancelled"; break;
    case transport_error_kind::too_large: e.type = "too_large"; break;
    default: e.type = "other"; break;
    }
    return e;
}

inline provider_error malformed(std::string message) {
    provider_error e;
    e.kind = provider_error_kind::malformed;
    e.message = redacted_text(std::move(message));
    return e;
}

/// The error of a request a provider's refuse() answers: bad_request, type "refused", nothing sent.
inline provider_error refused(std::string message) {
    provider_error e;
    e.kind = provider_error_kind::bad_request;
    e.type = "refused";
    e.message = std::move(message);
    return e;
}

/// A response past one of its response_limits: `what` passed `limit`, the provider's
/// http.limits.`field`.
inline provider_error too_large(std::string_view what, std::size_t limit, std::string_view field = "max_body") {
    provider_error e;
    e.kind = provider_error_kind::too_large;
    e.type = "too_large";
    e.message = "agentry: " + std::string(what) + " passed its limit of " + std::to_string(limit) +
                " bytes; raise the provider's http.limits." + std::string(field) + " if the server legitimately sends more";
    return e;
}

/// The error of a request that would carry credentials over plain http:// to a host that is
/// not loopback, unless the request allows it; empty when it may be sent.
inline std::optional<provider_error> refuse_plain_http(const http_request& request) {
    if (request.allow_plain_http_credentials) return std::nullopt;
    const url_parts url = split_url(request.url);
    if (!agentry::detail::equal_ignoring_case(url.scheme, "http") || is_loopback_host(url.host) ||
        !carries_credentials(request))
        return std::nullopt;
    provider_error e;
    e.kind = provider_error_kind::insecure;
    e.type = "insecure";
    e.message = "agentry: refusing to send credentials over plain http:// to '" + redacted_text(std::string(url.host)) +
                "', which is not a loopback address; use https://, or set http.allow_plain_http_credentials = true on "
                "the provider if the network path is trusted";
    return e;
}

/// A stream assembler (P::stream) seen through plain functions; `overflowed` is null when the
/// assembler has no such member.
struct assembler_ref {
    void* self;
    void (*feed)(void* self, std::string_view bytes);
    bool (*overflowed)(const void* self);
    turn_result (*finish)(void* self, const http_response& head);
};

/// A provider and a transport seen through plain functions, so that the body of a turn
/// (complete_turn) is compiled once whatever their types.
struct turn_parts {
    const void* provider;
    void* transport;
    http_request (*request)(const void* provider, const chat_request& request);
    turn_result (*parse)(const void* provider, const http_response& response);
    transport_result (*send)(void* transport, const http_request& request);
    transport_result (*stream)(void* transport, const http_request& request, stream_handlers& handlers);
    /// Null when the provider has no refuse().
    std::optional<provider_error> (*refuse)(const void* provider, const chat_request& request);
};

/// The turn complete() describes; `assembler` is null for a request that is not streamed.
AGENTRY_DECL turn_result complete_turn(const turn_parts& parts, const assembler_ref* assembler,
                                       const chat_request& request, const trace_hook& trace) noexcept;

/// The failed turn of the exception being handled.
AGENTRY_DECL turn_result turn_thrown() noexcept;

} // namespace detail

/// One turn over `transport`: the request of `p`, sent whole or streamed (request.stream),
/// read into a completion or a typed error; `trace`, when set, sees the exchange once it has
/// ended. Never throws. A request that P::refuse (where P has one) refuses is answered with
/// that error and nothing is sent.
///
/// Limits: the body may not pass http_request::max_body (the provider's http.limits.max_body), the
/// transport's own limit aside; a stream stops there. Secrets: a request with credentials for
/// plain http:// to a host that is not loopback is refused (provider_error_kind::insecure)
/// unless allowed; the credentials a request carried are removed from the error and from the
/// trace record. The trace keeps a stream's bytes (at most max_body) and takes the whole
/// response by move, so tracing holds no second copy of a whole body.
template <provider P, transport T>
turn_result complete(const P& p, T& transport, const chat_request& request, const stream_events& events = {},
                     const trace_hook& trace = {}) noexcept {
    detail::turn_parts parts{
        &p,
        &transport,
        [](const void* self, const chat_request& r) { return static_cast<const P*>(self)->request(r); },
        [](const void* self, const http_response& r) { return static_cast<const P*>(self)->parse(r); },
        [](void* self, const http_request& r) { return static_cast<T*>(self)->send(r); },
        [](void* self, const http_request& r, stream_handlers& h) { return static_cast<T*>(self)->stream(r, h); },
        nullptr,
    };
    if constexpr (requires {
                      { p.refuse(request) } -> std::same_as<std::optional<provider_error>>;
                  })
        parts.refuse = [](const void* self, const chat_request& r) { return static_cast<const P*>(self)->refuse(r); };
    if (!request.stream) return detail::complete_turn(parts, nullptr, request, trace);
    using assembler_t = typename P::stream;
    try {
        assembler_t assembler = p.start_stream(events);
        bool (*overflowed)(const void*) = nullptr;
        if constexpr (requires(const assembler_t& a) {
                          { a.overflowed() } -> std::convertible_to<bool>;
                      })
            overflowed = [](const void* self) -> bool { return static_cast<const assembler_t*>(self)->overflowed(); };
        const detail::assembler_ref ref{
            &assembler,
            [](void* self, std::string_view bytes) { static_cast<assembler_t*>(self)->feed(bytes); },
            overflowed,
            [](void* self, const http_response& head) { return static_cast<assembler_t*>(self)->finish(head); },
        };
        return detail::complete_turn(parts, &ref, request, trace);
    } catch (...) {
        return detail::turn_thrown();
    }
}

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/turn.ipp>
#endif

#endif
