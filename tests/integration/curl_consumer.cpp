// SPDX-License-Identifier: BSL-1.0
// A program that gets the libcurl transport from an installed agentry.
#include <agentry/transport/curl.hpp>

#include <cstdio>

int main() {
    agentry::curl_transport http;
    agentry::http_request request;
    request.url = "ftp://127.0.0.1/";
    const agentry::transport_result r = http.send(request);
    const bool refused = r.error.kind == agentry::transport_error_kind::other;
    std::printf("curl consumer: %s (%s, libcurl %s)\n", refused ? "ok" : "wrong", r.error.message.c_str(),
                curl_version_info(CURLVERSION_NOW)->version);
    return refused ? 0 : 1;
}
