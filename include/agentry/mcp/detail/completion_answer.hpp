// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_COMPLETION_ANSWER_HPP
#define AGENTRY_MCP_DETAIL_COMPLETION_ANSWER_HPP

// The answer of mcp::server to completion/complete, from its prompts' and resource templates'
// completers (mcp/completion.hpp).

#include <agentry/json/writer.hpp>
#include <agentry/mcp/completion.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/prompts.hpp>
#include <agentry/mcp/resources.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// The answer to completion/complete: the completer of the argument of the prompt or resource
/// template `p.ref` names; no values for an argument without one. On success true with the
/// result in `out`; otherwise false with the error's code and message.
inline bool answer_completion(const complete_params& p, const std::vector<prompt_entry>& prompts,
                              const std::vector<resource_entry>& resources, error_code& code, std::string& out) {
    const auto error = [&](error_code c, std::string message) {
        code = c;
        out = std::move(message);
        return false;
    };
    const std::vector<completion_entry>* completions = nullptr;
    std::vector<std::string_view> arguments;
    std::string owner;
    const auto unknown = [&](std::string_view pointer, std::string_view kind, std::string_view asked,
                             std::string known) {
        std::string message = "Invalid params: " + std::string(pointer) + ": unknown " + std::string(kind) + " ";
        json::write(message, asked.substr(0, 200));
        message += known.empty() ? "; the server has none" : "; " + std::string(kind) + "s: " + known;
        return error(error_code::invalid_params, message);
    };
    if (p.ref.type == "ref/prompt") {
        if (!p.ref.name)
            return error(error_code::invalid_params, "Invalid params: /ref/name: missing required property");
        std::string known;
        for (const prompt_entry& entry : prompts) {
            known += (known.empty() ? "" : ", ") + entry.name;
            if (entry.name != *p.ref.name || completions) continue;
            completions = &entry.completions;
            for (const prompt_argument& a : entry.arguments) arguments.push_back(a.name);
            owner = "prompt ";
            json::write(owner, entry.name);
        }
        if (!completions) return unknown("/ref/name", "prompt", *p.ref.name, std::move(known));
    } else if (p.ref.type == "ref/resource") {
        if (!p.ref.uri)
            return error(error_code::invalid_params, "Invalid params: /ref/uri: missing required property");
        std::string known;
        for (const resource_entry& r : resources) {
            if (!r.templated) continue;
            known += (known.empty() ? "" : ", ") + r.uri;
            if (r.uri != *p.ref.uri || completions) continue;
            completions = &r.completions;
            const template_variables v = parse_uri_template(r.uri);
            arguments.assign(v.names.begin(), v.names.begin() + static_cast<std::ptrdiff_t>(v.count));
            owner = "resource template ";
            json::write(owner, r.uri);
        }
        if (!completions) return unknown("/ref/uri", "resource template", *p.ref.uri, std::move(known));
    } else {
        std::string message = "Invalid params: /ref/type: ";
        json::write(message, std::string_view(p.ref.type).substr(0, 40));
        message += R"( is not one of ["ref/prompt","ref/resource"])";
        return error(error_code::invalid_params, message);
    }
    const std::string& name = p.argument.name;
    if (std::find(arguments.begin(), arguments.end(), name) == arguments.end()) {
        const bool of_prompt = p.ref.type == "ref/prompt";
        std::string message =
            "Invalid params: /argument/name: " + owner + (of_prompt ? " has no argument " : " has no variable ");
        json::write(message, std::string_view(name).substr(0, 200));
        if (arguments.empty()) message += of_prompt ? "; it takes no arguments" : "; it has no variables";
        for (std::size_t i = 0; i != arguments.size(); ++i)
            message +=
                (i != 0 ? ", " : of_prompt ? "; its arguments: " : "; its variables: ") + std::string(arguments[i]);
        return error(error_code::invalid_params, message);
    }
    std::vector<std::string> values;
    for (const completion_entry& c : *completions) {
        if (c.argument != name) continue;
        try {
            values = c.complete(p.argument.value,
                                p.context && p.context->arguments ? *p.context->arguments : completion_arguments{});
        } catch (const std::exception& e) {
            return error(error_code::internal_error,
                         "Completion of \"" + name + "\" of the " + owner + " failed: " + e.what());
        } catch (...) {
            return error(error_code::internal_error,
                         "Completion of \"" + name + "\" of the " + owner + " failed: unknown exception");
        }
    }
    std::string body = R"({"completion":{"values":[)";
    for (std::size_t i = 0; i != values.size() && i != max_completion_values; ++i) {
        if (i != 0) body += ',';
        json::write(body, std::string_view(values[i]));
    }
    body += R"(],"total":)" + std::to_string(values.size());
    body += values.size() > max_completion_values ? R"(,"hasMore":true}})" : R"(,"hasMore":false}})";
    out = std::move(body);
    return true;
}

} // namespace agentry::mcp::detail

#endif
