// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_DETAIL_URL_HPP
#define AGENTRY_TRANSPORT_DETAIL_URL_HPP

// The few facts about an http(s) URL that the transport layer needs: its scheme, the userinfo
// and host of its authority (RFC 3986, section 3.2), and whether that host is a loopback
// address. Only splitting, no percent-decoding and no validation: the URL goes to the HTTP
// client as it is. (Boost.URL would do this too, but needs its source compiled into one
// translation unit of the program, which a header-only library cannot arrange.)

#include <agentry/detail/text.hpp>

#include <cstddef>
#include <string_view>

namespace agentry::detail {

struct url_parts {
    std::string_view scheme;
    /// Without the '@'; empty when absent.
    std::string_view userinfo;
    /// Without brackets for an IPv6 literal, without the port.
    std::string_view host;
    /// Offsets in the URL of the userinfo and its '@' (npos when absent).
    std::size_t userinfo_at = std::string_view::npos;
    /// One past the authority: where the path, query or fragment starts.
    std::size_t authority_end = 0;
};

/// Splits "scheme://userinfo@host:port/...". A URL without "://" has an empty scheme and host.
constexpr url_parts split_url(std::string_view url) noexcept {
    url_parts p;
    const std::size_t sep = url.find("://");
    if (sep == std::string_view::npos) return p;
    p.scheme = url.substr(0, sep);
    const std::size_t start = sep + 3;
    std::size_t end = url.find_first_of("/?#", start);
    if (end == std::string_view::npos) end = url.size();
    p.authority_end = end;
    std::string_view authority = url.substr(start, end - start);
    const std::size_t at = authority.rfind('@');
    if (at != std::string_view::npos) {
        p.userinfo = authority.substr(0, at);
        p.userinfo_at = start;
        authority.remove_prefix(at + 1);
    }
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        p.host = authority.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
    } else {
        p.host = authority.substr(0, authority.find(':'));
    }
    return p;
}

/// "localhost" (and names under .localhost, RFC 6761), 127.0.0.0/8 written as four decimal
/// parts, and ::1. Any other name, even one that resolves to a loopback address, is not.
constexpr bool is_loopback_host(std::string_view host) noexcept {
    if (agentry::detail::equal_ignoring_case(host, "localhost")) return true;
    if (host.size() > 10 && agentry::detail::equal_ignoring_case(host.substr(host.size() - 10), ".localhost")) return true;
    if (host == "::1" || host == "0:0:0:0:0:0:0:1") return true;
    // Dotted quad starting with 127.
    int parts = 0;
    std::size_t i = 0;
    while (i <= host.size()) {
        std::size_t j = i;
        int value = 0;
        while (j != host.size() && host[j] >= '0' && host[j] <= '9' && j - i < 3) value = value * 10 + (host[j++] - '0');
        if (j == i || value > 255) return false;
        if (parts == 0 && value != 127) return false;
        ++parts;
        if (j == host.size()) break;
        if (host[j] != '.') return false;
        i = j + 1;
    }
    return parts == 4;
}

} // namespace agentry::detail

#endif
