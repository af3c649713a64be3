// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/version.hpp>

#include <doctest/doctest.h>

namespace mcp = agentry::mcp;

static_assert(mcp::latest_protocol_version == "2025-11-25");
static_assert(mcp::supported_protocol_version("2024-11-05") && mcp::supported_protocol_version("2025-03-26") &&
              mcp::supported_protocol_version("2025-06-18") && mcp::supported_protocol_version("2025-11-25"));
static_assert(!mcp::supported_protocol_version("2025-01-01") && !mcp::supported_protocol_version(""));

TEST_CASE("negotiation: the client's version when served, otherwise the latest") {
    CHECK(mcp::negotiate_protocol_version("2024-11-05") == "2024-11-05");
    CHECK(mcp::negotiate_protocol_version("2025-03-26") == "2025-03-26");
    CHECK(mcp::negotiate_protocol_version("2025-06-18") == "2025-06-18");
    CHECK(mcp::negotiate_protocol_version("2025-11-25") == "2025-11-25");
    // Not served (newer, between two, older, or no date at all): the latest, as the
    // specification asks; the client then decides whether to disconnect.
    CHECK(mcp::negotiate_protocol_version("2026-01-01") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("2025-07-01") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("2024-10-07") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("") == "2025-11-25");
}

TEST_CASE("features: each one from the version that introduced it") {
    constexpr auto v2024 = mcp::features_of("2024-11-05");
    static_assert(!v2024.tool_annotations && !v2024.titles && !v2024.structured_content);
    constexpr auto v2025_03 = mcp::features_of("2025-03-26");
    static_assert(v2025_03.tool_annotations && !v2025_03.titles && !v2025_03.structured_content);
    constexpr auto v2025_06 = mcp::features_of("2025-06-18");
    static_assert(v2025_06.tool_annotations && v2025_06.titles && v2025_06.structured_content);
    constexpr auto v2025_11 = mcp::features_of("2025-11-25");
    static_assert(v2025_11.tool_annotations && v2025_11.titles && v2025_11.structured_content);
    static_assert(!v2024.icons && !v2025_03.icons && !v2025_06.icons && v2025_11.icons);
    static_assert(mcp::features_of(mcp::stateless_protocol_version).icons);
    CHECK(mcp::features_of(mcp::latest_protocol_version).structured_content);
}
