// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_PROVIDER_REASONING_HPP
#define AGENTRY_BENCH_PROVIDER_REASONING_HPP

// The turns whose replies carry parts only their provider reads: agentry::openai_responses
// (stateless, reasoning items with encrypted content) and agentry::anthropic with thinking
// (thinking blocks with signatures, one redacted_thinking). The history is conversation() of
// fixture.hpp with those parts added to its 4 assistant messages with calls; the response and
// the SSE stream are of the turn that answers its last user message. Built once, at startup
// (reasoning_fixture.cpp); the cases of each implementation as in cases.hpp.

#include "cases.hpp"
#include "fixture.hpp"

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

/// What agent<> sends as `tools` with each provider.
inline constexpr std::string_view responses_tools_payload = tools.definitions<agentry::openai_responses::dialect>();
inline constexpr std::string_view anthropic_tools_payload = tools.definitions<agentry::anthropic::dialect>();

/// One provider's turn: the 20 messages with their parts, the request over them, a whole
/// response (reasoning or thinking, text, two tool calls, usage) and the same turn streamed.
template <class Provider>
struct reasoning_turn {
    Provider provider;
    std::vector<agentry::message> messages;
    agentry::chat_request request;
    agentry::http_response response;
    std::string stream;
    std::size_t stream_events = 0;  // data: lines
};

using responses_turn = reasoning_turn<agentry::openai_responses>;
using anthropic_turn = reasoning_turn<agentry::anthropic>;

const responses_turn& responses_fixture();
const anthropic_turn& anthropic_fixture();

namespace agentry_impl {
agentry::http_request build(const responses_turn& f, const agentry::chat_request& request);
agentry::turn_result parse(const responses_turn& f, const agentry::http_response& response);
agentry::turn_result assemble(const responses_turn& f, std::string_view sse_body);
agentry::http_request build(const anthropic_turn& f, const agentry::chat_request& request);
agentry::turn_result parse(const anthropic_turn& f, const agentry::http_response& response);
agentry::turn_result assemble(const anthropic_turn& f, std::string_view sse_body);
void register_reasoning_benchmarks();
} // namespace agentry_impl

namespace nlohmann_impl {
/// How the tools payload and the provider parts of the history get into the request DOM.
enum class reasoning_mode {
    parts_dom,         // tools parsed for every request; parts kept as nlohmann::json values, copied in
    cached_tools_dom,  // tools parsed once and copied; parts kept as nlohmann::json values, copied in
    parts_text,        // tools and parts parsed from their text for every request
};
agentry::http_request build(const responses_turn& f, const agentry::chat_request& request, reasoning_mode mode);
agentry::turn_result parse(const responses_turn& f, const agentry::http_response& response);
agentry::turn_result assemble(const responses_turn& f, std::string_view sse_body);
agentry::http_request build(const anthropic_turn& f, const agentry::chat_request& request, reasoning_mode mode);
agentry::turn_result parse(const anthropic_turn& f, const agentry::http_response& response);
agentry::turn_result assemble(const anthropic_turn& f, std::string_view sse_body);
void register_reasoning_benchmarks();
} // namespace nlohmann_impl

} // namespace bench

#endif
