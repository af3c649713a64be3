// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_HTTP_SETTINGS_HPP
#define AGENTRY_PROVIDER_HTTP_SETTINGS_HPP

// agentry::http_settings: how a provider sends its requests, the same member `http` in every
// provider (openai, anthropic, gemini, ollama):
//
//   agentry::openai local{.model = "qwen2.5", .http = {.base_url = "http://127.0.0.1:8080/v1"}};
//   agentry::anthropic claude{.model = "claude-sonnet-4-5",
//                             .http = {.total_timeout = std::chrono::minutes(2), .limits = {.max_body = 16 << 20}}};

#include <agentry/detail/chrono.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <string>
#include <vector>

namespace agentry {

struct http_settings {
    /// Where requests go, as the provider's documentation and official SDKs write it (see the
    /// provider's header); empty: the provider's default_base_url.
    std::string base_url{};
    /// Sent with every request after the provider's own headers, replacing any of the same name
    /// (e.g. Authorization, anthropic-version, an organisation or proxy header).
    std::vector<http_header> headers{};
    /// Connecting, including TLS; 0: the transport's default.
    std::chrono::milliseconds connect_timeout{0};
    /// The whole exchange, streaming included; 0: the transport's default.
    std::chrono::milliseconds total_timeout{0};
    /// Copied into every request (see http_request::cancel) unless chat_request::cancel is set.
    const std::atomic<bool>* cancel = nullptr;
    /// The most a response may make agentry hold (see response_limits).
    response_limits limits{};
    /// Send the key (or any credential header) over plain http:// to a host that is not
    /// loopback; otherwise complete() refuses such a request (provider_error_kind::insecure).
    bool allow_plain_http_credentials = false;
};

} // namespace agentry

#endif
