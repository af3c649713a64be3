// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_OAUTH_HPP
#define AGENTRY_MCP_OAUTH_HPP

// OAuth 2.1 for mcp::client over HTTP: the client side of the MCP authorization rules
// (2025-11-25, and the 2025-03-26 discovery as a fallback). With http_url::oauth set, a 401 or a
// 403 insufficient_scope of the server is answered by the client itself, then the request is
// sent again with the new token:
//
//   1. Protected Resource Metadata (RFC 9728): the WWW-Authenticate resource_metadata URL, else
//      /.well-known/oauth-protected-resource/<path>, else at the root. Its `resource` must
//      name this server (same origin, a prefix of its path), or nothing is authorized. Without
//      any, the server's origin is taken as the authorization server (2025-03-26).
//   2. Authorization server metadata (RFC 8414, OpenID Connect Discovery) at the well-known
//      URLs the MCP specification lists, in its order; `issuer` must be the server asked.
//      Without metadata (2025-03-26 only): /authorize, /token and /register at the origin.
//   3. The client: `client_id` as given (pre-registration), else `client_metadata_url` where the
//      server supports Client ID Metadata Documents, else dynamic registration (RFC 7591).
//   4. Scopes: those of the challenge, else the resource's scopes_supported, else none; and
//      offline_access when the authorization server lists it.
//   5. The grant: authorization code with PKCE S256 (the user's browser step is `authorize`),
//      client credentials (a secret or a private_key_jwt assertion), or an identity assertion
//      grant (ID-JAG, enterprise-managed authorization); then refresh with the refresh token.
//      Every token request names the resource (RFC 8707) and authenticates the way the
//      registration or the server's metadata says (client_secret_basic, _post, none).
//
//   agentry::mcp::http_url server{"https://mcp.example.com/mcp"};
//   server.oauth = agentry::mcp::oauth{
//       .redirect_uri = "http://127.0.0.1:8765/callback",
//       .authorize = [](const std::string& url) { return open_browser_and_wait_for_redirect(url); },
//   };
//   auto client = agentry::mcp::client::connect(server);
//
// Endpoints are reached over https://, or over http:// on a loopback host only (unless
// http_url::allow_plain_http_credentials), with the certificate rules of the http_url.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace agentry::mcp {

/// What an authorization server issued.
struct oauth_tokens {
    std::string access_token;
    std::string refresh_token{};
    /// The scopes granted, as the server wrote them (space-separated); empty when it did not say.
    std::string scope{};
    /// When access_token expires; time_point{} when the server did not say.
    std::chrono::system_clock::time_point expires_at{};
};

enum class oauth_grant : unsigned char {
    /// A user approves in a browser: authorization code with PKCE (needs `authorize`).
    authorization_code,
    /// The client acts for itself: `client_id` with `client_secret`, or with `private_key_pem`
    /// (private_key_jwt, RFC 7523; needs the agentry::tls component).
    client_credentials,
    /// Enterprise-managed: the user's ID token (`idp_id_token`) is exchanged at the identity
    /// provider for an identity assertion grant (ID-JAG, RFC 8693), which the authorization
    /// server exchanges for an access token (RFC 7523 jwt-bearer), authenticating with
    /// `client_id` and `client_secret`.
    id_jag,
};

/// How mcp::client authorizes itself with OAuth 2.1 (http_url::oauth).
struct oauth {
    oauth_grant grant = oauth_grant::authorization_code;
    /// authorization_code: where the authorization server sends the browser back.
    std::string redirect_uri{};
    /// authorization_code: the browser step. Shows `authorization_url` to the user and returns
    /// the URL the authorization server redirected to (redirect_uri with `code` and `state`), or
    /// "" when the user gave up. Runs on the thread of the request being authorized.
    std::function<std::string(const std::string& authorization_url)> authorize{};
    /// The name sent in dynamic registration.
    std::string client_name = "agentry";
    /// An https URL of this client's metadata document, used as its client_id where the
    /// authorization server says client_id_metadata_document_supported.
    std::string client_metadata_url{};
    /// A client registered beforehand: no registration is made. client_secret empty: a public
    /// client.
    std::string client_id{};
    std::string client_secret{};
    /// client_credentials with private_key_jwt: the client's private key (PEM) and "ES256" or
    /// "RS256".
    std::string private_key_pem{};
    std::string signing_algorithm = "ES256";
    /// id_jag: the identity provider's token endpoint, the user's ID token from it, and this
    /// client's id there (sent when not empty).
    std::string idp_token_endpoint{};
    std::string idp_id_token{};
    std::string idp_client_id{};
    /// Ask for offline_access (a refresh token) where the authorization server lists it.
    bool offline_access = true;
    /// The authorizations one request may start (its 401, then 403 insufficient_scope steps)
    /// before it fails with the server's last answer.
    int max_authorizations = 3;
    /// Tokens to start with (kept from an earlier run), and a hook given each new set.
    oauth_tokens tokens{};
    std::function<void(const oauth_tokens&)> on_tokens{};
    /// The time each request to a metadata, registration or token endpoint may take.
    std::chrono::milliseconds timeout{30'000};
    /// The longest answer read from those endpoints.
    std::size_t max_answer_size = 1024 * 1024;
};

} // namespace agentry::mcp

#endif
