// SPDX-License-Identifier: BSL-1.0
// The signing of OAuth client assertions (AGENTRY_WITH_TLS) and SHA-256 compile without warnings
// under the strict set (tests/CMakeLists.txt).
#include <agentry/detail/sha256.hpp>
#include <agentry/mcp/detail/jwt_sign.hpp>

int main() {
    const auto jwt = agentry::mcp::detail::sign_jwt("", "ES256", "{}");
    return agentry::detail::sha256(jwt.error)[0] == 0 ? 0 : 1;
}
