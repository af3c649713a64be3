// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> is std::byte, which has no JSON Schema; use std::uint8_t
// errors: at most 3
// names: send flags
#include <agentry/tool.hpp>

#include <cstddef>
#include <cstdint>

struct frame {
#ifdef AGENTRY_COMPILE_FAIL
    std::byte flags;
#else
    std::uint8_t flags;
#endif
};

int send(const frame&) { return 0; }
constexpr auto t = agentry::tool<"send", "Sends a frame.">(send);

int main() { return t.parameters_schema().empty(); }
