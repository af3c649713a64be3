// SPDX-License-Identifier: BSL-1.0
// What the OpenAI providers' request printers share (openai/print_requests.cpp,
// responses/print_requests.cpp): one {"name","body"} line per request, and a transport the
// agent can keep by value that forwards to a replay_transport read after the run.

#ifndef AGENTRY_TESTS_PROVIDER_PRINT_REQUESTS_HPP
#define AGENTRY_TESTS_PROVIDER_PRINT_REQUESTS_HPP

#include <agentry/json/writer.hpp>
#include <agentry/transport/replay.hpp>

#include <cstdio>
#include <string>

namespace provider_samples {

inline void print(const std::string& name, const std::string& body) {
    std::string line = "{\"name\":";
    agentry::json::write(line, name);
    line += ",\"body\":";
    line += body;
    line += "}\n";
    std::fputs(line.c_str(), stdout);
}

struct replay_at {
    agentry::replay_transport* to;
    agentry::transport_result send(const agentry::http_request& r) { return to->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return to->stream(r, h);
    }
};

} // namespace provider_samples

#endif
