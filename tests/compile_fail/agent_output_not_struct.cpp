// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent<config, Output>: Output must be a struct
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <string>
#include <vector>

// The providers' structured outputs take an object at the root: a list is wrapped in a struct.
struct cities {
    std::vector<std::string> names;
};

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

#ifdef AGENTRY_COMPILE_FAIL
using output = std::vector<std::string>;
#else
using output = cities;
#endif

int main() {
    agentry::agent<agentry::loop_config{}, output> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
