// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_SELECT_RECORDING_TRANSPORT_HPP
#define AGENTRY_TESTS_SELECT_RECORDING_TRANSPORT_HPP

// A transport that records each request it is given and answers with the next scripted reply
// (the last one again once they run out).

#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace agentry_test {

struct recording {
    std::vector<agentry::http_request> sent;
    std::vector<agentry::transport_result> replies;
};

struct recording_transport {
    std::shared_ptr<recording> log = std::make_shared<recording>();

    /// Adds a reply with `status` and `body`.
    recording_transport& reply(int status, std::string body) {
        agentry::transport_result r;
        r.response.status = status;
        r.response.body = std::move(body);
        log->replies.push_back(std::move(r));
        return *this;
    }

    agentry::transport_result send(const agentry::http_request& request) {
        log->sent.push_back(request);
        if (log->replies.empty()) return {};
        const std::size_t at = std::min(log->sent.size(), log->replies.size()) - 1;
        return log->replies[at];
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

/// The headers of `request` as "name: value" lines.
inline std::string header_lines(const agentry::http_request& request) {
    std::string out;
    for (const agentry::http_header& h : request.headers) out += h.name + ": " + h.value + "\n";
    return out;
}

} // namespace agentry_test

#endif
