// SPDX-License-Identifier: BSL-1.0
// Prints the body agentry::openai builds for each representative request, one JSON object
// per line: {"name":...,"body":<the request body>}. Read by request_schema.mjs.

#include "samples.hpp"

#include <agentry/json/writer.hpp>

#include <cstdio>
#include <string>

int main() {
    for (const auto& s : openai_samples::samples()) {
        std::string line = "{\"name\":";
        agentry::json::write(line, s.name);
        line += ",\"body\":";
        line += s.provider.request(s.request()).body;
        line += "}\n";
        std::fputs(line.c_str(), stdout);
    }
    return 0;
}
