// SPDX-License-Identifier: BSL-1.0
// JSONTestSuite (../shared/testdata/json-test-suite/test_parsing) through the reader's raw-JSON
// type: every y_ file accepted, every n_ file rejected, every i_ file read without a crash.
// One stated exception: raw JSON is read as I-JSON (RFC 7493), which forbids duplicate member
// names, so a y_ file whose one error is a duplicate property counts as refused on purpose.
// Usage: agentry_json_test_suite <test_parsing directory>. Exit 77 when it is absent.

#include <agentry/json/reader.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path();
    if (dir.empty() || !fs::is_directory(dir)) {
        std::printf("SKIP: JSONTestSuite not found at '%s'\n", dir.string().c_str());
        return 77;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    int accepted_y = 0, refused_y = 0, total_y = 0, rejected_n = 0, total_n = 0, accepted_i = 0, total_i = 0, failures = 0;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto result = agentry::json::read<agentry::raw_json>(text);
        const std::string name = file.filename().string();
        const bool ok = result.ok();
        if (name.starts_with("y_")) {
            ++total_y;
            accepted_y += ok;
            const bool duplicate_only = !ok && result.errors.size() == 1 &&
                                        result.errors.front().kind == agentry::json::error_kind::duplicate_property;
            if (duplicate_only) {
                ++refused_y;
                std::printf("I-JSON %s: refused: %s\n", name.c_str(), result.errors.front().to_string().c_str());
            } else if (!ok) {
                ++failures;
                std::printf("FAIL %s: rejected: %s\n", name.c_str(), result.errors.front().to_string().c_str());
            } else if (result.value.text().empty()) {
                ++failures;
                std::printf("FAIL %s: accepted with no text\n", name.c_str());
            }
        } else if (name.starts_with("n_")) {
            ++total_n;
            rejected_n += !ok;
            if (ok) {
                ++failures;
                std::printf("FAIL %s: accepted\n", name.c_str());
            }
        } else {
            ++total_i;
            accepted_i += ok;
            std::printf("i %s: %s\n", name.c_str(), ok ? "accepted" : result.errors.front().to_string().c_str());
        }
    }
    std::printf("JSONTestSuite: y_ accepted %d/%d (%d refused as I-JSON: duplicate names), n_ rejected %d/%d, "
                "i_ read without crash %d/%d (%d accepted)\n",
                accepted_y, total_y, refused_y, rejected_n, total_n, total_i, total_i, accepted_i);
    std::printf("%d passed, %d failed\n", total_y + total_n - failures, failures);
    return failures == 0 && total_y + total_n > 0 ? 0 : 1;
}
