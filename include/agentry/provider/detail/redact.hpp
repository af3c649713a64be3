// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_REDACT_HPP
#define AGENTRY_PROVIDER_DETAIL_REDACT_HPP

// Removing credentials from text that leaves agentry: traces, provider_error messages and
// with them run_result::text. Two passes:
//   - the secrets a request actually carried (credential header values, URL userinfo, key
//     query parameters), replaced wherever they appear;
//   - shapes that are credentials whatever their value: "Bearer <token>", URL userinfo,
//     key=/api_key= query parameters, a credential header echoed as "name: value" or
//     "name":"value", and the key formats of OpenAI/Anthropic ("sk-...") and Google ("AIza...").
// Each credential becomes "[redacted]".

#include <agentry/detail/text.hpp>
#include <agentry/transport/detail/url.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

inline constexpr std::string_view redaction = "[redacted]";

/// Header names whose values are credentials.
inline constexpr std::string_view credential_headers[] = {"authorization", "proxy-authorization", "x-api-key",
                                                          "x-goog-api-key", "api-key", "cookie"};

/// Query parameters whose values are credentials.
inline constexpr std::string_view credential_parameters[] = {"key", "api_key", "apikey", "api-key", "access_token",
                                                             "token"};

inline bool is_credential_name(std::string_view name, std::span<const std::string_view> names) noexcept {
    for (std::string_view n : names)
        if (agentry::detail::equal_ignoring_case(n, name)) return true;
    return false;
}

constexpr bool token_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
}

/// Case-insensitive find of `word` in `text` from `from`.
inline std::size_t find_ignoring_case(std::string_view text, std::string_view word, std::size_t from = 0) noexcept {
    if (word.empty() || text.size() < word.size()) return std::string_view::npos;
    const char first = agentry::detail::ascii_lower(word.front());
    for (std::size_t i = from; i + word.size() <= text.size(); ++i)
        if (agentry::detail::ascii_lower(text[i]) == first && agentry::detail::equal_ignoring_case(text.substr(i, word.size()), word))
            return i;
    return std::string_view::npos;
}

/// Replaces text[from, to) by "[redacted]"; the index just after the replacement.
inline std::size_t replace_span(std::string& text, std::size_t from, std::size_t to) {
    text.replace(from, to - from, redaction);
    return from + redaction.size();
}

/// Every occurrence of `secret` (six characters or more: shorter values would erase ordinary
/// text) replaced.
inline void redact_secret(std::string& text, std::string_view secret) {
    if (secret.size() < 6 || secret == redaction) return;
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
        at = replace_span(text, at, at + secret.size());
}

/// The value of a query parameter from `from`: up to '&', '#', a quote, or white space.
inline std::size_t parameter_end(std::string_view text, std::size_t from) noexcept {
    while (from != text.size() && text[from] != '&' && text[from] != '#' && text[from] != '"' && text[from] != '\'' &&
           text[from] != ' ' && text[from] != '\n' && text[from] != '\r' && text[from] != '\t' && text[from] != '\\')
        ++from;
    return from;
}

/// key=VALUE (and the other credential parameters) after '?' or '&'.
inline void redact_parameters(std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '?' && text[i] != '&') continue;
        const std::size_t name = i + 1;
        const std::size_t eq = text.find('=', name);
        if (eq == std::string::npos) return;
        if (eq - name > 16 || !is_credential_name(std::string_view(text).substr(name, eq - name), credential_parameters))
            continue;
        const std::size_t end = parameter_end(text, eq + 1);
        if (end != eq + 1 && std::string_view(text).substr(eq + 1, end - eq - 1) != redaction)
            replace_span(text, eq + 1, end);
    }
}

/// The userinfo of every "scheme://userinfo@host" in the text.
inline void redact_userinfo(std::string& text) {
    for (std::size_t sep = text.find("://"); sep != std::string::npos; sep = text.find("://", sep + 3)) {
        std::size_t end = sep + 3;
        while (end != text.size() && text[end] != '/' && text[end] != '?' && text[end] != '#' && text[end] != '"' &&
               text[end] != '\'' && text[end] != ' ' && text[end] != '\n' && text[end] != '\r' && text[end] != '\t' &&
               text[end] != '\\' && text[end] != '<' && text[end] != '>')
            ++end;
        const std::size_t at = std::string_view(text).substr(sep + 3, end - sep - 3).rfind('@');
        if (at != std::string_view::npos && at != 0 && std::string_view(text).substr(sep + 3, at) != redaction)
            replace_span(text, sep + 3, sep + 3 + at);
    }
}

/// "Bearer x", "Basic x" and the like: the token after the scheme word.
inline void redact_auth_schemes(std::string& text) {
    for (std::string_view scheme : {std::string_view("bearer "), std::string_view("basic ")})
        for (std::size_t at = find_ignoring_case(text, scheme); at != std::string::npos;
             at = find_ignoring_case(text, scheme, at + 1)) {
            const std::size_t from = at + scheme.size();
            std::size_t end = from;
            while (end != text.size() && token_char(text[end])) ++end;
            if (end - from >= 4 && std::string_view(text).substr(from, end - from) != redaction)
                replace_span(text, from, end);
        }
}

/// A credential header echoed back: `name: value`, `name=value`, `"name":"value"`.
inline void redact_header_echoes(std::string& text) {
    for (std::string_view name : credential_headers)
        for (std::size_t at = find_ignoring_case(text, name); at != std::string::npos;
             at = find_ignoring_case(text, name, at + 1)) {
            std::size_t i = at + name.size();
            if (i != text.size() && text[i] == '"') ++i;
            while (i != text.size() && text[i] == ' ') ++i;
            if (i == text.size() || (text[i] != ':' && text[i] != '=')) continue;
            ++i;
            while (i != text.size() && text[i] == ' ') ++i;
            const bool quoted = i != text.size() && text[i] == '"';
            if (quoted) ++i;
            std::size_t end = i;
            while (end != text.size() && text[end] != '\r' && text[end] != '\n' &&
                   (quoted ? text[end] != '"' : (text[end] != ',' && text[end] != ';' && text[end] != '}')))
                ++end;
            if (end != i && std::string_view(text).substr(i, end - i) != redaction) replace_span(text, i, end);
        }
}

/// Keys by their documented shapes: "sk-" (OpenAI, Anthropic "sk-ant-") and "AIza" (Google)
/// followed by at least 16 key characters.
inline void redact_key_shapes(std::string& text) {
    for (std::string_view prefix : {std::string_view("sk-"), std::string_view("AIza")})
        for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
            if (at != 0 && (token_char(text[at - 1]) && text[at - 1] != '=' && text[at - 1] != '/')) continue;
            std::size_t end = at + prefix.size();
            while (end != text.size() && ((text[end] >= 'a' && text[end] <= 'z') || (text[end] >= 'A' && text[end] <= 'Z') ||
                                          (text[end] >= '0' && text[end] <= '9') || text[end] == '-' || text[end] == '_'))
                ++end;
            if (end - at - prefix.size() >= 16) replace_span(text, at, end);
        }
}

/// Every credential shape in `text` replaced.
inline void redact_credentials(std::string& text) {
    redact_userinfo(text);
    redact_parameters(text);
    redact_auth_schemes(text);
    redact_header_echoes(text);
    redact_key_shapes(text);
}

inline std::string redacted_text(std::string text) {
    redact_credentials(text);
    return text;
}

/// The credential values `request` carries: credential header values (and their token after
/// a scheme word), the URL's userinfo and its password, and credential query parameters.
inline std::vector<std::string> secrets_of(const http_request& request) {
    std::vector<std::string> out;
    for (const http_header& h : request.headers) {
        if (!is_credential_name(h.name, credential_headers) || h.value.empty()) continue;
        out.push_back(h.value);
        const std::size_t space = h.value.find(' ');
        if (space != std::string::npos) out.push_back(h.value.substr(space + 1));
    }
    const std::string_view url = request.url;
    const url_parts parts = split_url(url);
    if (!parts.userinfo.empty()) {
        out.emplace_back(parts.userinfo);
        const std::size_t colon = parts.userinfo.find(':');
        if (colon != std::string_view::npos) out.emplace_back(parts.userinfo.substr(colon + 1));
    }
    for (std::size_t i = url.find('?'); i != std::string_view::npos && i < url.size(); i = url.find('&', i + 1)) {
        const std::size_t eq = url.find('=', i + 1);
        if (eq == std::string_view::npos) break;
        const std::size_t end = parameter_end(url, eq + 1);
        if (is_credential_name(url.substr(i + 1, eq - i - 1), credential_parameters) && end != eq + 1)
            out.emplace_back(url.substr(eq + 1, end - eq - 1));
    }
    return out;
}

/// `text` with each of `secrets` and every credential shape replaced.
inline void redact_all(std::string& text, const std::vector<std::string>& secrets) {
    for (const std::string& s : secrets) redact_secret(text, s);
    redact_credentials(text);
}

/// Whether `request` carries a credential: a credential header with a value, URL userinfo, or a
/// credential query parameter.
inline bool carries_credentials(const http_request& request) {
    for (const http_header& h : request.headers)
        if (is_credential_name(h.name, credential_headers) && !h.value.empty()) return true;
    if (!split_url(request.url).userinfo.empty()) return true;
    std::string url = request.url;
    redact_parameters(url);
    return url != request.url;
}

} // namespace agentry::detail

#endif
