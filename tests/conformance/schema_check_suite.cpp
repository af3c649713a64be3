// SPDX-License-Identifier: BSL-1.0
// JSON-Schema-Test-Suite (draft2020-12) through the run-time schema check: every case of every
// keyword file, its schema and data read with json::parse and checked with
// json::schema_checker, the verdict compared with the suite's `valid`.
//
//   agentry_schema_check_suite <json-schema-test-suite/draft2020-12 directory>
//
// Left out: format.json, whose cases say that `format` is an annotation in 2020-12 (any string
// passes); the check asserts the formats agentry knows, as the typed reader does.
// Exit status: 0 every case agrees, 1 some disagree, 2 a suite file cannot be read, 77 the
// directory is absent.

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    namespace json = agentry::json;
    const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path();
    if (argc < 2 || !fs::is_directory(dir)) {
        std::printf("SKIP: JSON-Schema-Test-Suite draft2020-12 not found at '%s'\n", dir.string().c_str());
        return 77;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".json" && entry.path().filename() != "format.json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::size_t passed = 0, failed = 0;
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        json::read_options options;
        options.max_size = 16 * 1024 * 1024;
        const json::parsed groups = json::parse(text, options);
        if (!groups.ok() || !groups.value.is_array()) {
            std::printf("FAIL: %s cannot be read: %s\n", path.filename().string().c_str(),
                        groups.ok() ? "not an array" : groups.errors[0].to_string().c_str());
            return 2;
        }
        std::size_t file_passed = 0, file_failed = 0;
        for (const json::value& group : groups.value.items()) {
            const json::value* schema = group.find("schema");
            const json::value* tests = group.find("tests");
            if (schema == nullptr || tests == nullptr) return 2;
            const json::schema_checker check(*schema);
            for (const json::value& test : tests->items()) {
                const json::value* data = test.find("data");
                const json::value* valid = test.find("valid");
                if (data == nullptr || valid == nullptr) return 2;
                const std::vector<json::read_error> errors = check(*data);
                if (errors.empty() == valid->as_bool()) {
                    ++file_passed;
                    continue;
                }
                ++file_failed;
                std::printf("FAIL: %s: %s / %s: expected %s%s%s\n", path.filename().string().c_str(),
                            group.find("description")->as_string().c_str(), test.find("description")->as_string().c_str(),
                            valid->as_bool() ? "valid" : "invalid", errors.empty() ? "" : ", got: ",
                            errors.empty() ? "" : errors[0].to_string().c_str());
            }
        }
        std::printf("%-28s %3zu of %3zu\n", path.filename().string().c_str(), file_passed, file_passed + file_failed);
        passed += file_passed;
        failed += file_failed;
    }
    std::printf("schema check: %zu of %zu cases agree with the suite\n", passed, passed + failed);
    return failed == 0 ? 0 : 1;
}
