// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/session.hpp>

#include <doctest/doctest.h>

namespace mcp = agentry::mcp;

TEST_CASE("session: version once, requests in progress") {
    mcp::session s;
    CHECK(!s.initialized());
    CHECK(s.initialize("2025-11-25"));
    CHECK(!s.initialize("2025-06-18"));
    CHECK(s.protocol_version() == "2025-11-25");

    s.cancel("1");  // not in progress: ignored
    s.expect("1");
    CHECK(!s.cancelled("1"));
    s.expect("2");
    s.cancel("2");
    CHECK(s.cancelled("2"));
    CHECK(s.pending() == 2);
    CHECK(!s.finish("1"));
    CHECK(s.finish("2"));
    CHECK(!s.finish("2"));
    CHECK(s.pending() == 0);
}
