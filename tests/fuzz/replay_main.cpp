// SPDX-License-Identifier: BSL-1.0
// A main() for a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on every
// file named on the command line, or found (recursively) in a directory named there, in
// sorted order. Any compiler builds it, so every build replays the committed corpus.
//
//   fuzz_replay_weather tests/fuzz/corpus/weather [more files or directories...]
//
// A broken invariant aborts (the test fails); the file being run is printed first, so the
// failing input is on the last "replay:" line.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", path.string().c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.string().c_str(), bytes.size());
    // A buffer of exactly the input's size, so that a sanitizer sees any read past its end.
    const std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[bytes.size() ? bytes.size() : 1]);
    for (std::size_t i = 0; i != bytes.size(); ++i) data[i] = static_cast<std::uint8_t>(bytes[i]);
    LLVMFuzzerTestOneInput(data.get(), bytes.size());
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::error_code ec;
        if (std::filesystem::is_directory(arg, ec)) {
            for (const auto& entry : std::filesystem::recursive_directory_iterator(arg, ec))
                if (entry.is_regular_file()) files.push_back(entry.path());
            if (ec) {
                std::fprintf(stderr, "replay: cannot list %s: %s\n", argv[i], ec.message().c_str());
                return 2;
            }
        } else if (std::filesystem::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    std::size_t run = 0;
    for (const auto& file : files) {
        if (!run_file(file)) return 1;
        ++run;
    }
    std::printf("replay: %zu inputs, no failure\n", run);
    return run == 0 ? 1 : 0;
}
