// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this dialect cannot express a map (std::map<K, T> with any key type
// names: output stops[].prices
#include <agentry/agent.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <map>
#include <string>
#include <vector>

// An output type the provider's structured output cannot express: OpenAI strict has no
// additionalProperties with a schema, so no map; Ollama's dialect (OpenAI without strict) has.
struct stop {
    std::string city;
    std::map<std::string, int> prices;
};
struct trip_plan {
    std::vector<stop> stops;
};

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::agent<agentry::loop_config{}, trip_plan> a{agentry::openai{.model = "m"}, tools, "system",
                                                        null_transport{}};
#else
    agentry::agent<agentry::loop_config{}, trip_plan> a{agentry::ollama{.model = "m"}, tools, "system",
                                                        null_transport{}};
#endif
    return a.conversation().size() == 1 ? 0 : 1;
}
