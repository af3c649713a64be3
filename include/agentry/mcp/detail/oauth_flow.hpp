// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_OAUTH_FLOW_HPP
#define AGENTRY_MCP_DETAIL_OAUTH_FLOW_HPP

// The OAuth 2.1 client of mcp::client (oauth.hpp says what it does, in order): discovery,
// registration, the grants, refresh. The HTTP requests go through a fetch function, so this
// file holds no socket code; one authorization runs at a time, and a request refused with a
// credential that another request has replaced meanwhile is simply sent again.

#include <agentry/detail/sha256.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/detail/base64.hpp>
#include <agentry/mcp/detail/client_channel.hpp>
#include <agentry/mcp/oauth.hpp>
#include <agentry/transport/detail/url.hpp>

#if defined(AGENTRY_WITH_TLS)
#include <agentry/mcp/detail/jwt_sign.hpp>
#endif

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

using header_list = std::vector<std::pair<std::string, std::string>>;
/// One HTTP request (method, absolute URL, headers, body) and its whole answer.
using fetch_function =
    std::function<fetched(std::string_view method, const std::string& url, const header_list&, std::string_view body)>;

/// Percent-encodes every byte but the unreserved ones (RFC 3986), for queries and form bodies.
inline std::string form_encode(std::string_view s) {
    constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[b >> 4];
            out += hex[b & 15];
        }
    }
    return out;
}

/// `name=value&...` of the fields whose value is not empty.
inline std::string form(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    std::string out;
    for (const auto& [name, value] : fields)
        if (!value.empty()) out += (out.empty() ? "" : "&") + form_encode(name) + '=' + form_encode(value);
    return out;
}

/// The decoded value of query parameter `name` of `url` ('+' is a space), or nothing.
inline std::optional<std::string> query_parameter(std::string_view url, std::string_view name) {
    const std::size_t q = url.find('?');
    if (q == std::string_view::npos) return std::nullopt;
    std::string_view query = url.substr(q + 1);
    query = query.substr(0, query.find('#'));
    const auto hex = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    };
    const auto decode = [&](std::string_view s) {
        std::string out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '+') out += ' ';
            else if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
                out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
                i += 2;
            } else out += s[i];
        }
        return out;
    };
    while (!query.empty()) {
        const std::string_view pair = query.substr(0, query.find('&'));
        query.remove_prefix(std::min(query.size(), pair.size() + 1));
        const std::size_t eq = pair.find('=');
        if (decode(pair.substr(0, eq)) == name) return eq == std::string_view::npos ? std::string() : decode(pair.substr(eq + 1));
    }
    return std::nullopt;
}

/// The parameters of a Bearer challenge (RFC 6750 section 3, RFC 9728 section 5.1).
struct bearer_challenge {
    std::string error;
    std::string error_description;
    std::string scope;
    std::string resource_metadata;
};

/// Reads the Bearer challenge of a WWW-Authenticate value (its first one; parameters as
/// token=token or token="quoted", separated by commas).
inline bearer_challenge parse_bearer_challenge(std::string_view header) {
    bearer_challenge out;
    const std::size_t at = [&] {
        for (std::size_t i = 0; i + 6 <= header.size(); ++i)
            if ((i == 0 || header[i - 1] == ' ' || header[i - 1] == ',') &&
                agentry::detail::equal_ignoring_case(header.substr(i, 6), "bearer") &&
                (i + 6 == header.size() || header[i + 6] == ' '))
                return i + 6;
        return std::string_view::npos;
    }();
    if (at == std::string_view::npos) return out;
    std::string_view s = header.substr(at);
    const auto skip = [&] {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == ',')) s.remove_prefix(1);
    };
    for (skip(); !s.empty(); skip()) {
        std::size_t n = 0;
        while (n < s.size() && s[n] != '=' && s[n] != ' ' && s[n] != ',') ++n;
        const std::string name(s.substr(0, n));
        s.remove_prefix(n);
        while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
        if (s.empty() || s.front() != '=') break;  // the next scheme
        s.remove_prefix(1);
        while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
        std::string value;
        if (!s.empty() && s.front() == '"') {
            s.remove_prefix(1);
            while (!s.empty() && s.front() != '"') {
                if (s.front() == '\\' && s.size() > 1) s.remove_prefix(1);
                value += s.front();
                s.remove_prefix(1);
            }
            if (!s.empty()) s.remove_prefix(1);
        } else {
            std::size_t m = 0;
            while (m < s.size() && s[m] != ',' && s[m] != ' ') ++m;
            value = std::string(s.substr(0, m));
            s.remove_prefix(m);
        }
        if (name == "error") out.error = std::move(value);
        else if (name == "error_description") out.error_description = std::move(value);
        else if (name == "scope") out.scope = std::move(value);
        else if (name == "resource_metadata") out.resource_metadata = std::move(value);
    }
    return out;
}

/// A URL's origin (scheme://authority, scheme and host in lower case) and path (without query
/// and fragment, "" for none).
struct url_origin {
    std::string origin;
    std::string path;
};

inline url_origin split_origin(std::string_view url) {
    const agentry::detail::url_parts p = agentry::detail::split_url(url);
    url_origin out;
    if (p.scheme.empty()) return out;
    const std::size_t start = p.scheme.size() + 3;
    out.origin = std::string(p.scheme) + "://" + std::string(url.substr(start, p.authority_end - start));
    for (char& c : out.origin) c = agentry::detail::ascii_lower(c);
    std::string_view rest = url.substr(p.authority_end);
    out.path = std::string(rest.substr(0, rest.find_first_of("?#")));
    return out;
}

/// Whether Protected Resource Metadata naming `resource` may be used for `server`: the same
/// origin, and the resource's path is the server's or a prefix of it that ends at a '/'.
inline bool resource_covers(std::string_view resource, std::string_view server) {
    const url_origin r = split_origin(resource);
    const url_origin s = split_origin(server);
    if (r.origin.empty() || r.origin != s.origin) return false;
    std::string_view rp = r.path;
    while (!rp.empty() && rp.back() == '/') rp.remove_suffix(1);
    std::string_view sp = s.path;
    while (!sp.empty() && sp.back() == '/') sp.remove_suffix(1);
    return rp.empty() || sp == rp || (sp.size() > rp.size() && sp.substr(0, rp.size()) == rp && sp[rp.size()] == '/');
}

/// `n` random bytes as base64url text (PKCE verifiers, states, JWT ids).
inline std::string random_text(std::size_t n) {
    thread_local std::random_device source;
    std::string bytes;
    while (bytes.size() < n) {
        const auto word = static_cast<std::uint32_t>(source());
        for (int k = 0; k != 4 && bytes.size() < n; ++k) bytes += static_cast<char>((word >> (8 * k)) & 0xFF);
    }
    return base64url(bytes);
}

/// The PKCE S256 code challenge of a verifier (RFC 7636 section 4.2).
inline std::string pkce_challenge(std::string_view verifier) {
    const auto digest = agentry::detail::sha256(verifier);
    return base64url(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

class oauth_flow final : public http_authorizer {
public:
    /// `server_url`: the MCP endpoint; `allow_plain`: credentials may go over http:// to a host
    /// that is not loopback.
    oauth_flow(mcp::oauth options, std::string server_url, bool allow_plain, fetch_function fetch)
        : options_(std::move(options)), server_(std::move(server_url)), allow_plain_(allow_plain),
          fetch_(std::move(fetch)), tokens_(options_.tokens) {}

    std::pair<std::string, unsigned> credential() override {
        std::lock_guard lock(mutex_);
        return {tokens_.access_token.empty() ? std::string() : "Bearer " + tokens_.access_token, generation_};
    }

    int max_attempts() const noexcept override { return options_.max_authorizations; }

    bool challenge(int status, std::string_view header, unsigned generation, std::string& why) override {
        std::lock_guard one(flow_mutex_);
        std::string refresh_token;
        {
            std::lock_guard lock(mutex_);
            if (generation != generation_) return true;
            refresh_token = tokens_.refresh_token;
        }
        const bearer_challenge c = parse_bearer_challenge(header);
        if (status == 403 && c.error != "insufficient_scope") {
            why = "the server refused the token (" + (c.error.empty() ? std::string("403") : c.error) +
                  (c.error_description.empty() ? "" : ": " + c.error_description) +
                  "), and a new authorization cannot change that";
            return false;
        }
        if (!discover(c.resource_metadata, why)) return false;
        const std::string scope = select_scope(c.scope);
        oauth_tokens t;
        // An expired or revoked token is renewed with the refresh token first; more scope needs
        // a new authorization.
        if (status == 401 && !refresh_token.empty() && options_.grant == oauth_grant::authorization_code &&
            refresh(refresh_token, t))
            return store(std::move(t));
        bool ok = false;
        switch (options_.grant) {
        case oauth_grant::authorization_code: ok = code_grant(scope, t, why); break;
        case oauth_grant::client_credentials: ok = credentials_grant(scope, t, why); break;
        case oauth_grant::id_jag: ok = id_jag_grant(scope, t, why); break;
        }
        return ok && store(std::move(t));
    }

private:
    struct endpoint_metadata {
        std::string issuer;
        std::string authorization_endpoint;
        std::string token_endpoint;
        std::string registration_endpoint;
        std::vector<std::string> scopes;
        std::vector<std::string> grant_types;
        std::vector<std::string> auth_methods;
        std::vector<std::string> challenge_methods;
        bool has_metadata = false;
        bool client_id_documents = false;
    };

    static std::vector<std::string> strings_at(const json::value& v, std::string_view key) {
        std::vector<std::string> out;
        if (const json::value* a = v.find(key); a && a->is_array())
            for (const json::value& s : a->items())
                if (s.is_string()) out.push_back(s.as_string());
        return out;
    }

    static bool contains(const std::vector<std::string>& list, std::string_view s) {
        for (const std::string& e : list)
            if (e == s) return true;
        return false;
    }

    static std::string answer_text(const fetched& r) {
        if (!r.error.empty() && r.status == 0) return r.error;
        std::string text = "HTTP " + std::to_string(r.status);
        json::read_options limits;
        limits.max_size = 64 * 1024;
        const json::parsed p = json::parse(r.body, limits);
        if (p.ok() && p.value.is_object() && p.value.find("error")) {
            text += ": " + client_excerpt(string_at(p.value, "error"), 100);
            if (const std::string_view d = string_at(p.value, "error_description"); !d.empty())
                text += " (" + client_excerpt(d, 200) + ")";
        } else if (!r.body.empty()) {
            text += ": " + client_excerpt(r.body, 200);
        }
        return text;
    }

    // Credentials and codes go over https://, or http:// to a loopback host.
    bool allowed(const std::string& url, std::string& why) const {
        const agentry::detail::url_parts p = agentry::detail::split_url(url);
        if (agentry::detail::equal_ignoring_case(p.scheme, "https")) return true;
        if (agentry::detail::equal_ignoring_case(p.scheme, "http") &&
            (allow_plain_ || agentry::detail::is_loopback_host(p.host)))
            return true;
        why = "refusing the OAuth endpoint \"" + client_excerpt(url, 200) +
              "\": it must be https:// (or http:// on a loopback host, or http_url::allow_plain_http_credentials)";
        return false;
    }

    fetched request(std::string_view method, const std::string& url, header_list headers, std::string_view body,
                    std::string& why) const {
        fetched r;
        if (!allowed(url, why)) return r;
        headers.emplace_back("Accept", "application/json");
        r = fetch_(method, url, headers, body);
        return r;
    }

    // The JSON object at `url`, or nothing (why: what came instead).
    std::optional<json::value> get_json(const std::string& url, std::string& why) const {
        const fetched r = request("GET", url, {}, {}, why);
        if (!why.empty()) return std::nullopt;
        if (r.status != 200 || !r.error.empty()) {
            why = answer_text(r);
            return std::nullopt;
        }
        json::read_options limits;
        limits.max_size = options_.max_answer_size;
        json::parsed p = json::parse(r.body, limits);
        if (!p.ok() || !p.value.is_object()) {
            why = "the answer is not a JSON object";
            return std::nullopt;
        }
        return std::move(p.value);
    }

    bool discover(const std::string& resource_metadata, std::string& why) {
        if (discovered_ && (resource_metadata.empty() || resource_metadata == prm_url_)) return true;
        const url_origin server = split_origin(server_);
        std::vector<std::string> candidates;
        if (!resource_metadata.empty()) candidates.push_back(resource_metadata);
        else {
            if (!server.path.empty() && server.path != "/")
                candidates.push_back(server.origin + "/.well-known/oauth-protected-resource" + server.path);
            candidates.push_back(server.origin + "/.well-known/oauth-protected-resource");
        }
        std::optional<json::value> prm;
        std::string tried;
        for (const std::string& url : candidates) {
            std::string e;
            prm = get_json(url, e);
            if (prm) {
                prm_url_ = url;
                break;
            }
            tried += (tried.empty() ? "" : "; ") + url + ": " + e;
            if (!resource_metadata.empty()) {
                why = "reading the protected resource metadata named by the server failed (" + tried + ")";
                return false;
            }
        }
        std::string as_url;
        if (prm) {
            resource_ = std::string(string_at(*prm, "resource"));
            if (resource_.empty() || !resource_covers(resource_, server_)) {
                why = "the protected resource metadata at " + prm_url_ + " is for the resource \"" +
                      client_excerpt(resource_, 200) + "\", not for this server (" + server_ +
                      "); nothing is authorized";
                return false;
            }
            const std::vector<std::string> servers = strings_at(*prm, "authorization_servers");
            if (servers.empty()) {
                why = "the protected resource metadata at " + prm_url_ + " names no authorization_servers";
                return false;
            }
            as_url = servers.front();
            resource_scopes_ = strings_at(*prm, "scopes_supported");
        } else {
            // 2025-03-26: no resource metadata; the server's origin is the authorization server.
            resource_ = server.origin + server.path;
            as_url = server.origin;
            resource_scopes_.clear();
        }
        while (!as_url.empty() && as_url.back() == '/') as_url.pop_back();
        const url_origin as = split_origin(as_url);
        std::vector<std::string> urls;
        if (as.path.empty()) {
            urls = {as.origin + "/.well-known/oauth-authorization-server", as.origin + "/.well-known/openid-configuration"};
        } else {
            urls = {as.origin + "/.well-known/oauth-authorization-server" + as.path,
                    as.origin + "/.well-known/openid-configuration" + as.path,
                    as.origin + as.path + "/.well-known/openid-configuration"};
        }
        endpoint_metadata m;
        std::string tried_as;
        for (const std::string& url : urls) {
            std::string e;
            std::optional<json::value> doc = get_json(url, e);
            if (!doc) {
                if (!allowed(url, e)) {
                    why = e;
                    return false;
                }
                tried_as += (tried_as.empty() ? "" : "; ") + url + ": " + e;
                continue;
            }
            m.has_metadata = true;
            m.issuer = std::string(string_at(*doc, "issuer"));
            std::string_view issuer = m.issuer;
            while (!issuer.empty() && issuer.back() == '/') issuer.remove_suffix(1);
            if (prm && issuer != as_url) {
                why = "the authorization server metadata at " + url + " names the issuer \"" +
                      client_excerpt(m.issuer, 200) + "\", not " + as_url + " (RFC 8414 section 3.3)";
                return false;
            }
            m.authorization_endpoint = std::string(string_at(*doc, "authorization_endpoint"));
            m.token_endpoint = std::string(string_at(*doc, "token_endpoint"));
            m.registration_endpoint = std::string(string_at(*doc, "registration_endpoint"));
            m.scopes = strings_at(*doc, "scopes_supported");
            m.grant_types = strings_at(*doc, "grant_types_supported");
            m.auth_methods = strings_at(*doc, "token_endpoint_auth_methods_supported");
            m.challenge_methods = strings_at(*doc, "code_challenge_methods_supported");
            const json::value* cimd = doc->find("client_id_metadata_document_supported");
            m.client_id_documents = cimd && cimd->as_bool();
            break;
        }
        if (!m.has_metadata) {
            if (prm) {
                why = "no authorization server metadata for " + as_url + " (" + tried_as + ")";
                return false;
            }
            // 2025-03-26 without metadata: the default endpoints at the origin.
            m.issuer = as_url;
            m.authorization_endpoint = as_url + "/authorize";
            m.token_endpoint = as_url + "/token";
            m.registration_endpoint = as_url + "/register";
        }
        if (m.token_endpoint.empty()) {
            why = "the authorization server " + as_url + " names no token_endpoint";
            return false;
        }
        if (m.issuer.empty()) m.issuer = as_url;
        if (as_url != as_url_) {
            client_id_.clear();  // a registration is for one authorization server
            as_url_ = as_url;
        }
        as_ = std::move(m);
        discovered_ = true;
        return true;
    }

    // The challenge's scope, else the resource's scopes_supported, else none; offline_access
    // added where the authorization server lists it.
    std::string select_scope(const std::string& challenged) const {
        std::string scope = challenged;
        if (scope.empty())
            for (const std::string& s : resource_scopes_) scope += (scope.empty() ? "" : " ") + s;
        if (!scope.empty() && options_.offline_access && options_.grant == oauth_grant::authorization_code &&
            contains(as_.scopes, "offline_access") && (as_.grant_types.empty() || contains(as_.grant_types, "refresh_token")) &&
            (" " + scope + " ").find(" offline_access ") == std::string::npos)
            scope += " offline_access";
        return scope;
    }

    std::string secret_method() const {
        if (as_.auth_methods.empty() || contains(as_.auth_methods, "client_secret_basic")) return "client_secret_basic";
        if (contains(as_.auth_methods, "client_secret_post")) return "client_secret_post";
        return "client_secret_basic";
    }

    bool ensure_client(std::string& why) {
        if (!client_id_.empty()) return true;
        if (!options_.client_id.empty()) {
            client_id_ = options_.client_id;
            client_secret_ = options_.client_secret;
            method_ = client_secret_.empty() ? "none" : secret_method();
            return true;
        }
        if (!options_.client_metadata_url.empty() && as_.client_id_documents) {
            client_id_ = options_.client_metadata_url;
            client_secret_.clear();
            method_ = "none";
            return true;
        }
        if (as_.registration_endpoint.empty()) {
            why = "the authorization server " + as_url_ +
                  " offers no dynamic client registration" +
                  (as_.client_id_documents ? " (it takes client ID metadata documents: set oauth.client_metadata_url)"
                                           : "") +
                  "; register the client there and set oauth.client_id";
            return false;
        }
        const std::vector<std::string>& methods = as_.auth_methods;
        const std::string wanted = methods.empty() || contains(methods, "none") ? "none"
                                   : contains(methods, "client_secret_basic") ? "client_secret_basic"
                                   : contains(methods, "client_secret_post") ? "client_secret_post"
                                                                            : methods.front();
        std::string body = R"({"client_name":)";
        write_string(body, options_.client_name);
        body += R"(,"redirect_uris":[)";
        write_string(body, options_.redirect_uri);
        body += R"(],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],)"
                R"("token_endpoint_auth_method":)";
        write_string(body, wanted);
        body += '}';
        const fetched r = request("POST", as_.registration_endpoint, {{"Content-Type", "application/json"}}, body, why);
        if (!why.empty()) return false;
        json::read_options limits;
        limits.max_size = options_.max_answer_size;
        const json::parsed p = json::parse(r.body, limits);
        if ((r.status != 200 && r.status != 201) || !p.ok() || string_at(p.value, "client_id").empty()) {
            why = "dynamic client registration at " + as_.registration_endpoint + " failed: " + answer_text(r);
            return false;
        }
        client_id_ = std::string(string_at(p.value, "client_id"));
        client_secret_ = std::string(string_at(p.value, "client_secret"));
        method_ = std::string(string_at(p.value, "token_endpoint_auth_method"));
        if (method_.empty()) method_ = client_secret_.empty() ? "none" : secret_method();
        return true;
    }

    // Sends `fields` to `endpoint` with the client's authentication (method_) and reads the
    // token answer into `t`.
    bool token_request(const std::string& endpoint, std::string fields, oauth_tokens& t, std::string& why,
                       bool authenticate = true) {
        header_list headers{{"Content-Type", "application/x-www-form-urlencoded"}};
        if (authenticate) {
            if (method_ == "client_secret_basic")
                headers.emplace_back("Authorization",
                                     "Basic " + base64(form_encode(client_id_) + ':' + form_encode(client_secret_)));
            else if (method_ == "client_secret_post")
                fields += '&' + form({{"client_id", client_id_}, {"client_secret", client_secret_}});
            else if (!client_id_.empty())
                fields += '&' + form({{"client_id", client_id_}});
        }
        const fetched r = request("POST", endpoint, std::move(headers), fields, why);
        if (!why.empty()) return false;
        json::read_options limits;
        limits.max_size = options_.max_answer_size;
        const json::parsed p = json::parse(r.body, limits);
        const std::string_view type = string_at(p.value, "token_type", "Bearer");
        if (r.status != 200 || !p.ok() || string_at(p.value, "access_token").empty()) {
            why = "the token endpoint " + endpoint + " answered " + answer_text(r);
            return false;
        }
        if (!agentry::detail::equal_ignoring_case(type, "bearer")) {
            why = "the token endpoint " + endpoint + " issued a \"" + client_excerpt(type, 40) +
                  "\" token; mcp::client sends Bearer tokens only";
            return false;
        }
        t.access_token = std::string(string_at(p.value, "access_token"));
        t.refresh_token = std::string(string_at(p.value, "refresh_token"));
        t.scope = std::string(string_at(p.value, "scope"));
        if (const json::value* e = p.value.find("expires_in"); e && e->is_number() && e->as_double() > 0)
            t.expires_at = std::chrono::system_clock::now() +
                           std::chrono::seconds(static_cast<long long>(std::min(e->as_double(), 1e9)));
        return true;
    }

    bool refresh(const std::string& refresh_token, oauth_tokens& t) {
        std::string why;
        if (!ensure_client(why)) return false;
        if (!token_request(as_.token_endpoint,
                           form({{"grant_type", "refresh_token"}, {"refresh_token", refresh_token}, {"resource", resource_}}),
                           t, why))
            return false;
        if (t.refresh_token.empty()) t.refresh_token = refresh_token;
        return true;
    }

    bool code_grant(const std::string& scope, oauth_tokens& t, std::string& why) {
        if (!options_.authorize || options_.redirect_uri.empty()) {
            why = "the authorization code grant needs oauth.authorize (the user's browser step) and oauth.redirect_uri";
            return false;
        }
        if (as_.has_metadata && !contains(as_.challenge_methods, "S256")) {
            why = "the authorization server " + as_url_ +
                  " does not list S256 in code_challenge_methods_supported; without PKCE nothing is authorized";
            return false;
        }
        if (as_.authorization_endpoint.empty()) {
            why = "the authorization server " + as_url_ + " names no authorization_endpoint";
            return false;
        }
        if (!ensure_client(why)) return false;
        const std::string verifier = random_text(32);
        const std::string state = random_text(16);
        const std::string url =
            as_.authorization_endpoint + (as_.authorization_endpoint.find('?') == std::string::npos ? '?' : '&') +
            form({{"response_type", "code"},
                  {"client_id", client_id_},
                  {"redirect_uri", options_.redirect_uri},
                  {"code_challenge", pkce_challenge(verifier)},
                  {"code_challenge_method", "S256"},
                  {"state", state},
                  {"resource", resource_},
                  {"scope", scope}});
        std::string back;
        try {
            back = options_.authorize(url);
        } catch (const std::exception& e) {
            why = std::string("oauth.authorize threw: ") + e.what();
            return false;
        } catch (...) {
            why = "oauth.authorize threw";
            return false;
        }
        if (back.empty()) {
            why = "the authorization was not completed (oauth.authorize returned no URL)";
            return false;
        }
        if (const auto error = query_parameter(back, "error")) {
            const auto description = query_parameter(back, "error_description");
            why = "the authorization server refused: " + client_excerpt(*error, 100) +
                  (description ? " (" + client_excerpt(*description, 200) + ")" : "");
            return false;
        }
        if (query_parameter(back, "state") != state) {
            why = "the redirect's state is not the request's; the redirect is not used";
            return false;
        }
        const auto code = query_parameter(back, "code");
        if (!code || code->empty()) {
            why = "the redirect holds no code: " + client_excerpt(back, 200);
            return false;
        }
        return token_request(as_.token_endpoint,
                             form({{"grant_type", "authorization_code"},
                                   {"code", *code},
                                   {"redirect_uri", options_.redirect_uri},
                                   {"code_verifier", verifier},
                                   {"resource", resource_}}),
                             t, why);
    }

    bool credentials_grant(const std::string& scope, oauth_tokens& t, std::string& why) {
        if (options_.client_id.empty() || (options_.client_secret.empty() && options_.private_key_pem.empty())) {
            why = "the client credentials grant needs oauth.client_id with oauth.client_secret or oauth.private_key_pem";
            return false;
        }
        client_id_ = options_.client_id;
        client_secret_ = options_.client_secret;
        std::string fields = form({{"grant_type", "client_credentials"}, {"scope", scope}, {"resource", resource_}});
        if (options_.private_key_pem.empty()) {
            method_ = secret_method();
            return token_request(as_.token_endpoint, std::move(fields), t, why);
        }
#if defined(AGENTRY_WITH_TLS)
        const long long now =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        std::string claims = R"({"iss":)";
        write_string(claims, client_id_);
        claims += R"(,"sub":)";
        write_string(claims, client_id_);
        claims += R"(,"aud":)";
        write_string(claims, as_.issuer);
        claims += R"(,"iat":)" + std::to_string(now) + R"(,"exp":)" + std::to_string(now + 300) + R"(,"jti":)";
        write_string(claims, random_text(16));
        claims += '}';
        const signed_jwt jwt = sign_jwt(options_.private_key_pem, options_.signing_algorithm, claims);
        if (!jwt.error.empty()) {
            why = "signing the client assertion failed: " + jwt.error;
            return false;
        }
        fields += '&' + form({{"client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
                              {"client_assertion", jwt.token}});
        return token_request(as_.token_endpoint, std::move(fields), t, why, false);
#else
        why = "private_key_jwt signs with OpenSSL: link the CMake target agentry::tls (it defines AGENTRY_WITH_TLS)";
        return false;
#endif
    }

    bool id_jag_grant(const std::string& scope, oauth_tokens& t, std::string& why) {
        if (options_.idp_token_endpoint.empty() || options_.idp_id_token.empty() || options_.client_id.empty()) {
            why = "the ID-JAG grant needs oauth.idp_token_endpoint, oauth.idp_id_token and oauth.client_id";
            return false;
        }
        const fetched r = request("POST", options_.idp_token_endpoint,
                                  {{"Content-Type", "application/x-www-form-urlencoded"}},
                                  form({{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
                                        {"requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"},
                                        {"audience", as_.issuer},
                                        {"resource", resource_},
                                        {"scope", scope},
                                        {"subject_token", options_.idp_id_token},
                                        {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"},
                                        {"client_id", options_.idp_client_id}}),
                                  why);
        if (!why.empty()) return false;
        const json::parsed p = json::parse(r.body);
        const std::string_view grant = string_at(p.value, "access_token");
        if (r.status != 200 || !p.ok() || grant.empty()) {
            why = "the token exchange at the identity provider " + options_.idp_token_endpoint + " answered " +
                  answer_text(r);
            return false;
        }
        client_id_ = options_.client_id;
        client_secret_ = options_.client_secret;
        method_ = client_secret_.empty() ? "none" : secret_method();
        return token_request(as_.token_endpoint,
                             form({{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                                   {"assertion", grant},
                                   {"scope", scope}}),
                             t, why);
    }

    bool store(oauth_tokens t) {
        {
            std::lock_guard lock(mutex_);
            if (t.refresh_token.empty() && options_.grant == oauth_grant::authorization_code)
                t.refresh_token = tokens_.refresh_token;
            tokens_ = t;
            ++generation_;
        }
        if (options_.on_tokens) options_.on_tokens(t);
        return true;
    }

    mcp::oauth options_;
    std::string server_;
    bool allow_plain_;
    fetch_function fetch_;
    std::mutex flow_mutex_;  // one authorization at a time
    std::mutex mutex_;       // tokens_ and generation_
    oauth_tokens tokens_;
    unsigned generation_ = 1;
    // What discovery found (under flow_mutex_).
    bool discovered_ = false;
    std::string prm_url_;
    std::string resource_;
    std::vector<std::string> resource_scopes_;
    std::string as_url_;
    endpoint_metadata as_;
    std::string client_id_;
    std::string client_secret_;
    std::string method_;
};

} // namespace agentry::mcp::detail

#endif
