// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_CALL_HPP
#define AGENTRY_TOOL_CALL_HPP

// agentry::tool_call: one call of a tool as a model (or a plan) asked for it: the id, the tool's
// name and the arguments as JSON text. The call pipeline (policy/pipeline.hpp) takes it; the
// providers read and write it (provider/message.hpp).

#include <string>

namespace agentry {

/// One call the model asked for.
struct tool_call {
    /// The provider's id (Gemini sends none: agentry assigns "call_<n>", unique in the turn).
    std::string id;
    std::string name;
    /// The arguments as JSON text, as the model wrote them.
    std::string arguments;
    /// Gemini's thoughtSignature of the part, sent back unchanged with the call.
    std::string signature;
};

} // namespace agentry

#endif
