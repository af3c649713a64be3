// SPDX-License-Identifier: BSL-1.0
// The parts of curl_transport that need no network: reading a response head line by line,
// and mapping libcurl's error codes.

#include <agentry/transport/curl.hpp>
#include <agentry/transport/detail/response_head.hpp>

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

using agentry::transport_error_kind;
using agentry::detail::response_head;

namespace {

// The lines' results, one per line.
std::vector<bool> feed(response_head& head, std::initializer_list<std::string_view> lines) {
    std::vector<bool> ends;
    for (std::string_view line : lines) ends.push_back(head.add_line(line));
    return ends;
}

} // namespace

TEST_CASE("response head: status, names in their case, values trimmed") {
    response_head h;
    CHECK(feed(h, {"HTTP/1.1 429 Too Many Requests\r\n", "Retry-After:  7 \r\n", "X-Request-ID:req-1\r\n", "\r\n"}) ==
          std::vector<bool>{false, false, false, true});
    CHECK(h.complete());
    CHECK(h.response().status == 429);
    REQUIRE(h.response().headers.size() == 2);
    CHECK(h.response().headers[0].name == "Retry-After");
    CHECK(h.response().headers[0].value == "7");
    CHECK(h.response().headers[1].name == "X-Request-ID");
    CHECK(h.response().headers[1].value == "req-1");
}

TEST_CASE("response head: interim 1xx heads are replaced by the final one") {
    response_head h;
    CHECK(feed(h, {"HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 103 Early Hints\r\n", "Link: </a.css>\r\n", "\r\n",
                   "HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n", "\r\n"}) ==
          std::vector<bool>{false, false, false, false, false, false, false, true});
    CHECK(h.response().status == 200);
    REQUIRE(h.response().headers.size() == 1);
    CHECK(h.response().headers[0].name == "Content-Type");
}

TEST_CASE("response head: HTTP/2, folded lines, lines without a colon, trailers") {
    response_head h;
    feed(h, {"HTTP/2 200 \r\n", "x-long: a\r\n", " \tb\r\n", "no colon here\r\n", ": nameless\r\n", "\r\n"});
    CHECK(h.response().status == 200);
    REQUIRE(h.response().headers.size() == 1);
    CHECK(h.response().headers[0].name == "x-long");
    CHECK(h.response().headers[0].value == "a b");
    CHECK(!h.add_line("X-Trailer: t\r\n"));
    CHECK(!h.add_line("\r\n"));
    CHECK(h.response().headers.size() == 1);
}

TEST_CASE("response head: an unreadable status line gives status 0") {
    response_head h;
    feed(h, {"HTTP/1.1 2x0 OK\r\n", "\r\n"});
    CHECK(h.response().status == 0);
    CHECK(!h.complete());
    feed(h, {"HTTP/1.1\r\n", "\r\n"});
    CHECK(h.response().status == 0);
}

TEST_CASE("libcurl codes to transport_error_kind") {
    using agentry::detail::curl_error_kind;
    CHECK(curl_error_kind(CURLE_OK) == transport_error_kind::none);
    for (CURLcode c : {CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY})
        CHECK(curl_error_kind(c) == transport_error_kind::connect);
    CHECK(curl_error_kind(CURLE_OPERATION_TIMEDOUT) == transport_error_kind::timeout);
    for (CURLcode c : {CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_HTTP2,
                       CURLE_HTTP2_STREAM})
        CHECK(curl_error_kind(c) == transport_error_kind::reset);
    for (CURLcode c : {CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
                       CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
                       CURLE_USE_SSL_FAILED})
        CHECK(curl_error_kind(c) == transport_error_kind::tls);
    for (CURLcode c : {CURLE_URL_MALFORMAT, CURLE_WEIRD_SERVER_REPLY, CURLE_OUT_OF_MEMORY})
        CHECK(curl_error_kind(c) == transport_error_kind::other);
}

TEST_CASE("curl_transport: default options") {
    const agentry::curl_transport defaults;
    CHECK(defaults.options().connect_timeout == std::chrono::seconds(10));
    CHECK(defaults.options().total_timeout == std::chrono::seconds(600));
    CHECK(!defaults.options().proxy);
    CHECK(defaults.options().ca_file.empty());
}
