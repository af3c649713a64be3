// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_MCP_DOC_BLOCK_HPP
#define AGENTRY_TESTS_MCP_DOC_BLOCK_HPP

// For the tests that show a docs/mcp.md example is compiled: the example's block is found, as it
// is, in the test's own source, which compiles and runs it.

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace mcp_test {

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The first ```cpp block after `marker` in docs/mcp.md; empty when there is none.
inline std::string doc_block(std::string_view marker) {
    const std::string doc = read_file(AGENTRY_TEST_SOURCE_DIR "/docs/mcp.md");
    const std::size_t section = doc.find(marker);
    if (section == std::string::npos) return {};
    std::size_t start = doc.find("```cpp\n", section);
    if (start == std::string::npos) return {};
    start += 7;
    const std::size_t end = doc.find("```", start);
    if (end == std::string::npos) return {};
    return doc.substr(start, end - start);
}

/// `block` is not empty and is in tests/mcp/`file`.
inline bool in_test_file(const std::string& block, const std::string& file) {
    return !block.empty() &&
           read_file(AGENTRY_TEST_SOURCE_DIR "/tests/mcp/" + file).find(block) != std::string::npos;
}

} // namespace mcp_test

#endif
