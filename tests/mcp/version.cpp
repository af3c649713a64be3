// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/version.hpp>

#include <doctest/doctest.h>

namespace mcp = agentry::mcp;

static_assert(mcp::latest_protocol_version == "2025-11-25");
static_assert(mcp::supported_protocol_version("2025-06-18") && mcp::supported_protocol_version("2025-11-25"));
static_assert(!mcp::supported_protocol_version("2025-03-26"));

TEST_CASE("negotiation: the newest served version the client supports") {
    CHECK(mcp::negotiate_protocol_version("2025-11-25") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("2025-06-18") == "2025-06-18");
    CHECK(mcp::negotiate_protocol_version("2026-01-01") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("2025-07-01") == "2025-06-18");
    // Older than every served version: the newest, as the specification asks.
    CHECK(mcp::negotiate_protocol_version("2025-03-26") == "2025-11-25");
    CHECK(mcp::negotiate_protocol_version("") == "2025-11-25");
}
