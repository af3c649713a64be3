// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_CURL_HPP
#define AGENTRY_TRANSPORT_CURL_HPP

// agentry::curl_transport: the agentry::transport over libcurl (link the agentry::curl CMake
// target, which brings CURL::libcurl; libcurl 7.66 or later).
//
//   agentry::curl_transport http;                                  // 10 s connect, 600 s total
//   agentry::turn_result r = agentry::complete(provider, http, request);
//
// - Connections: each curl_transport keeps one libcurl handle pair, and with it its open
//   connections, between requests: the turns of an agent reuse one connection (TLS included).
//   Calls on one object from several threads at once are safe: a call that finds the kept
//   handle busy runs on a handle of its own, opened and closed for that call. For parallel
//   requests, give each thread its own curl_transport.
// - HTTPS: certificates are checked against the system's CA store (libcurl's default), or
//   against curl_options::ca_file.
// - Proxies: by default from the environment, as libcurl reads it: http_proxy (lower case
//   only) for http:// URLs, https_proxy or HTTPS_PROXY for https:// URLs, then all_proxy or
//   ALL_PROXY; no_proxy or NO_PROXY lists the hosts to reach directly. curl_options::proxy
//   overrides that.
// - Timeouts: http_request::connect_timeout and total_timeout, when not 0; otherwise those of
//   curl_options. The total timeout covers the whole exchange, a stream included.
// - Redirects are not followed: a 3xx is returned as it came. Interim 1xx responses are
//   skipped; the head returned is the final one, with header names as the server wrote them.
// - Only http:// and https:// URLs are accepted. The request's headers are sent as given;
//   libcurl adds Host, Accept: */* and, with a body, Content-Length. It adds no Expect:
//   100-continue and, to a body without a Content-Type, no Content-Type of its own. GET with
//   no body and HEAD send no body; any other method sends http_request::body.
// - Cancellation: http_request::cancel is checked at least every 50 ms, and a stream handler
//   may return false; either ends the request with transport_error_kind::cancelled and closes
//   its connection.
// - Size: a body (streamed or whole) past http_request::max_body, else curl_options::max_body
//   (8 MiB), or a head past 256 KiB, ends the exchange with transport_error_kind::too_large.
// - Errors: libcurl's codes are mapped to transport_error_kind, with libcurl's message. A
//   failed request's response holds the final head if it had arrived (and what had come of a
//   body it returns), otherwise nothing.
// - Exceptions: none of its own but std::bad_alloc; what a stream handler throws is rethrown
//   once the request has been abandoned.
// - Process: the first curl_transport calls curl_global_init (once, thread-safe against other
//   curl_transports; a program that uses libcurl elsewhere too calls it first itself).
//   Requests set CURLOPT_NOSIGNAL, as threads require: libcurl then never touches signal
//   handlers, so where it cannot avoid SIGPIPE on a closed connection the program ignores it.

#include <agentry/detail/chrono.hpp>
#include <agentry/transport/detail/curl_easy.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct curl_options {
    /// Connecting, TLS included, when a request leaves its connect_timeout at 0.
    std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
    /// The whole exchange, when a request leaves its total_timeout at 0; 0 here: no limit.
    std::chrono::milliseconds total_timeout{std::chrono::seconds(600)};
    /// Unset: the proxy the environment names, if any. "": no proxy, whatever the environment
    /// says. Otherwise the proxy's URL ("http://proxy.example:3128").
    std::optional<std::string> proxy{};
    /// A PEM file of the CA certificates to trust instead of the system's; empty: the system's.
    std::string ca_file{};
    /// The most body bytes of one response when a request leaves its max_body at 0; 0 here:
    /// no limit.
    std::size_t max_body = response_limits{}.max_body;
};

class curl_transport {
public:
    curl_transport() : curl_transport(curl_options{}) {}
    explicit curl_transport(curl_options options)
        : options_(std::move(options)), kept_(std::make_unique<kept_handles>()) {}

    curl_transport(curl_transport&&) noexcept = default;
    curl_transport& operator=(curl_transport&&) noexcept = default;

    const curl_options& options() const noexcept { return options_; }

    /// The whole response.
    transport_result send(const http_request& request) { return run(request, nullptr); }

    /// The head to handlers.on_head, then a 2xx body to handlers.on_chunk as it arrives; any
    /// other body is returned whole in the response.
    transport_result stream(const http_request& request, stream_handlers& handlers) { return run(request, &handlers); }

private:
    struct kept_handles {
        detail::curl_handles handles;
        std::mutex busy;
    };

    static transport_result failed(transport_error_kind kind, std::string message) {
        transport_result r;
        r.error.kind = kind;
        r.error.message = std::move(message);
        return r;
    }

    static bool http_url(std::string_view url) noexcept {
        const auto scheme = [&](std::string_view s) {
            return agentry::detail::equal_ignoring_case(url.substr(0, s.size()), s);
        };
        return scheme("http://") || scheme("https://");
    }

    static bool has_header(const std::vector<http_header>& headers, std::string_view name) noexcept {
        for (const http_header& h : headers)
            if (same_header_name(h.name, name)) return true;
        return false;
    }

    static bool one_line(std::string_view s) noexcept {
        return s.find_first_of("\r\n") == std::string_view::npos && s.find('\0') == std::string_view::npos;
    }

    transport_result run(const http_request& request, stream_handlers* handlers) {
        if (request.cancel && request.cancel->load(std::memory_order_acquire))
            return failed(transport_error_kind::cancelled, "agentry: cancelled by http_request::cancel");
        if (!http_url(request.url))
            return failed(transport_error_kind::other, "agentry: curl_transport takes http:// and https:// URLs only");
        for (const http_header& h : request.headers)
            if (!one_line(h.name) || !one_line(h.value) || h.name.empty())
                return failed(transport_error_kind::other, "agentry: header '" + h.name + "' has an empty name or a line break");

        std::unique_lock<std::mutex> lock;
        if (kept_) lock = std::unique_lock<std::mutex>(kept_->busy, std::try_to_lock);
        std::unique_ptr<detail::curl_handles> own;
        if (!lock.owns_lock()) own = std::make_unique<detail::curl_handles>();
        detail::curl_handles& h = own ? *own : kept_->handles;
        if (!h.valid()) return failed(transport_error_kind::other, "agentry: libcurl could not be initialised");

        detail::curl_exchange x;
        x.handlers = handlers;
        x.max_body = request.max_body != 0 ? request.max_body : options_.max_body;
        detail::curl_header_list headers;
        CURLcode set = prepare(h, request, x, headers);
        detail::curl_outcome out;
        if (set == CURLE_OK) out = detail::curl_drive(h, request.cancel);
        else out.code = set;

        transport_result r;
        r.response = std::move(x.head.response());
        if (x.failure) std::rethrow_exception(x.failure);
        if (out.cancelled) {
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by http_request::cancel"};
        } else if (x.too_large) {
            r.error.kind = transport_error_kind::too_large;
            r.error.message = x.head_bytes > detail::curl_exchange::max_head
                                  ? "agentry: the response head passed 256 KiB"
                                  : "agentry: the response body passed its limit of " + std::to_string(x.max_body) +
                                        " bytes; raise the provider's limits.max_body (http_request::max_body)";
        } else if (x.stopped_by_handler) {
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by a stream handler"};
        } else if (out.multi_code != CURLM_OK) {
            r.error = {transport_error_kind::other, curl_multi_strerror(out.multi_code)};
        } else if (out.code != CURLE_OK) {
            r.error.kind = detail::curl_error_kind(out.code);
            r.error.message = h.error[0] ? h.error : curl_easy_strerror(out.code);
        }
        // A failed request keeps the final head if it had arrived, never a part of one.
        if (!r.ok() && !x.head.complete()) r.response = {};
        return r;
    }

    // Sets the options of one request; the first failing setopt's code.
    CURLcode prepare(detail::curl_handles& h, const http_request& request, detail::curl_exchange& x,
                     detail::curl_header_list& headers) const {
        CURL* e = h.easy;
        curl_easy_reset(e);
        h.error[0] = '\0';
        CURLcode code = CURLE_OK;
        const auto set = [&](CURLoption option, auto value) {
            if (code == CURLE_OK) code = curl_easy_setopt(e, option, value);
        };
        const auto ms = [](std::chrono::milliseconds request_value, std::chrono::milliseconds fallback) {
            return static_cast<long>((request_value.count() > 0 ? request_value : fallback).count());
        };

        set(CURLOPT_URL, request.url.c_str());
        set(CURLOPT_NOSIGNAL, 1L);
        set(CURLOPT_ERRORBUFFER, h.error);
        set(CURLOPT_CONNECTTIMEOUT_MS, ms(request.connect_timeout, options_.connect_timeout));
        set(CURLOPT_TIMEOUT_MS, ms(request.total_timeout, options_.total_timeout));
        set(CURLOPT_TCP_KEEPALIVE, 1L);
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
        set(CURLOPT_HEADERFUNCTION, static_cast<curl_write_callback>(&detail::curl_on_header));
        set(CURLOPT_HEADERDATA, static_cast<void*>(&x));
        set(CURLOPT_WRITEFUNCTION, static_cast<curl_write_callback>(&detail::curl_on_body));
        set(CURLOPT_WRITEDATA, static_cast<void*>(&x));
        if (options_.proxy) set(CURLOPT_PROXY, options_.proxy->c_str());
        if (!options_.ca_file.empty()) set(CURLOPT_CAINFO, options_.ca_file.c_str());

        bool has_body = false;
        if (request.method == "GET" && request.body.empty()) {
            set(CURLOPT_HTTPGET, 1L);
        } else if (request.method == "HEAD") {
            set(CURLOPT_NOBODY, 1L);
        } else {
            has_body = true;
            set(CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
            set(CURLOPT_POSTFIELDS, request.body.data());
            if (request.method != "POST") set(CURLOPT_CUSTOMREQUEST, request.method.c_str());
        }

        std::string line;
        for (const http_header& hd : request.headers) {
            line.assign(hd.name);
            // "Name;" is libcurl's spelling of a header with an empty value.
            line.append(hd.value.empty() ? ";" : ": ");
            line.append(hd.value);
            if (!headers.append(line.c_str())) return CURLE_OUT_OF_MEMORY;
        }
        // "Name:" removes a header libcurl would add.
        if (!has_header(request.headers, "expect") && !headers.append("Expect:")) return CURLE_OUT_OF_MEMORY;
        if (has_body && !has_header(request.headers, "content-type") && !headers.append("Content-Type:"))
            return CURLE_OUT_OF_MEMORY;
        set(CURLOPT_HTTPHEADER, headers.list);
        return code;
    }

    curl_options options_;
    std::unique_ptr<kept_handles> kept_;
};

static_assert(transport<curl_transport>);

} // namespace agentry

#endif
