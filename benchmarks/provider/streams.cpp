// SPDX-License-Identifier: BSL-1.0
// Reading the recorded SSE streams (cases.hpp, load_streams).

#include "cases.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#ifndef AGENTRY_BENCH_STREAMS_DIR
#define AGENTRY_BENCH_STREAMS_DIR ""
#endif

namespace bench {

std::vector<recorded_stream> load_streams(std::string& directory, std::string& why_not) {
    namespace fs = std::filesystem;
    const char* from_env = std::getenv("AGENTRY_PROVIDER_STREAMS");
    directory = from_env != nullptr && *from_env != '\0' ? from_env : AGENTRY_BENCH_STREAMS_DIR;
    std::vector<recorded_stream> out;
    std::error_code ec;
    if (directory.empty() || !fs::is_directory(directory, ec)) {
        why_not = "no directory " + (directory.empty() ? std::string("(none given)") : directory) +
                  " (set AGENTRY_PROVIDER_STREAMS)";
        return out;
    }
    for (const fs::directory_entry& e : fs::directory_iterator(directory, ec)) {
        if (!e.is_regular_file() || e.path().extension() != ".sse") continue;
        std::ifstream in(e.path(), std::ios::binary);
        recorded_stream s;
        s.name = e.path().stem().string();
        s.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        for (std::size_t at = 0; (at = s.body.find("data:", at)) != std::string::npos; at += 5)
            if (at == 0 || s.body[at - 1] == '\n' || s.body[at - 1] == '\r') ++s.events;
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const recorded_stream& a, const recorded_stream& b) { return a.name < b.name; });
    if (out.empty()) why_not = "no *.sse file in " + directory;
    return out;
}

} // namespace bench
