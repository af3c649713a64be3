// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_ELICIT_ACTION_HPP
#define AGENTRY_MCP_ELICIT_ACTION_HPP

// The three answers to an elicitation/create form, for the server (mcp::elicit) and the
// client (client_options::on_elicit).

namespace agentry::mcp {

/// What the user did with the form.
enum class elicit_action : unsigned char {
    accept,   // submitted it: the content is there
    decline,  // refused explicitly
    cancel,   // dismissed it without choosing
};

} // namespace agentry::mcp

#endif
