// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_AUTH_HPP
#define AGENTRY_MCP_AUTH_HPP

// Authorization of MCP over HTTP, the resource-server side of the MCP authorization rules
// (OAuth 2.1 bearer tokens, RFC 9728 Protected Resource Metadata). The application decides
// what a valid token is; agentry asks it through `verify` on every HTTP request.
//
//   agentry::mcp::http_options options;
//   options.address = "0.0.0.0";
//   options.authorization = {
//       .verify = [](std::string_view token) -> std::optional<agentry::mcp::identity> {
//           if (auto claims = my_check_jwt(token)) return agentry::mcp::identity{claims->sub, claims->scopes};
//           return std::nullopt;                                   // -> 401 invalid_token
//       },
//       .resource = "https://mcp.example.com/mcp",
//       .authorization_servers = {"https://auth.example.com"},
//       .required_scopes = {"tools"},                              // missing -> 403 insufficient_scope
//   };
//
// The identity verified for a request is kept with its session (a session belongs to the
// subject that started it) and, while a tool runs, current_identity() returns it on the thread
// that runs the tool.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::mcp {

/// Who a verified bearer token speaks for.
struct identity {
    /// The subject (user or client) the token was issued for; sessions are tied to it.
    std::string subject;
    /// The scopes the token grants.
    std::vector<std::string> scopes{};

    bool has_scope(std::string_view scope) const noexcept {
        for (const std::string& s : scopes)
            if (s == scope) return true;
        return false;
    }
};

/// The settings of bearer-token authorization (http_options::authorization).
struct authorization {
    /// Verifies a bearer token (the text after "Bearer "): the identity, or std::nullopt when
    /// the token is not valid for this server (expired, wrong audience, revoked, ...). It must
    /// check that the token was issued for `resource`. May run on several threads at once; an
    /// exception it throws is answered 500. Empty: no authorization.
    std::function<std::optional<identity>(std::string_view token)> verify{};
    /// This server's canonical URI as clients reach it (behind TLS termination: the public
    /// https URL), e.g. "https://mcp.example.com/mcp". Required with `verify`.
    std::string resource{};
    /// The authorization servers that issue tokens for `resource` (at least one with `verify`).
    std::vector<std::string> authorization_servers{};
    /// Scopes every request needs; a valid token lacking one gets 403 insufficient_scope.
    std::vector<std::string> required_scopes{};
    /// Scopes advertised in the metadata document; empty: `required_scopes`.
    std::vector<std::string> scopes_supported{};
    /// Human-readable name in the metadata document (optional).
    std::string resource_name{};
};

namespace detail {
inline thread_local const identity* current_identity_ = nullptr;

/// Makes `who` the current identity of this thread for the lifetime of the object.
class identity_scope {
public:
    explicit identity_scope(const identity* who) noexcept : previous_(current_identity_) { current_identity_ = who; }
    ~identity_scope() { current_identity_ = previous_; }
    identity_scope(const identity_scope&) = delete;
    identity_scope& operator=(const identity_scope&) = delete;

private:
    const identity* previous_;
};
} // namespace detail

/// While a tool runs for an MCP request: the identity verified for its session, or nullptr when
/// the server has no authorization (stdio, or HTTP without `verify`). Valid until the tool
/// returns, on the thread that runs it only.
inline const identity* current_identity() noexcept { return detail::current_identity_; }

} // namespace agentry::mcp

#endif
