// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_RESOURCE_ANSWER_HPP
#define AGENTRY_MCP_DETAIL_RESOURCE_ANSWER_HPP

// The answers of mcp::server to resources/list, resources/templates/list and resources/read
// (mcp/resources.hpp).

#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/base64.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/resources.hpp>
#include <agentry/mcp/version.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// The answer to resources/list (templates: resources/templates/list).
inline std::string list_resources(const std::vector<resource_entry>& resources, const protocol_features& f,
                                  bool templates) {
    std::string out = templates ? R"({"resourceTemplates":[)" : R"({"resources":[)";
    bool first = true;
    for (const resource_entry& r : resources) {
        if (r.templated != templates) continue;
        out += first ? "{" : ",{";
        first = false;
        out += templates ? R"("uriTemplate":)" : R"("uri":)";
        json::write(out, r.uri);
        out += R"(,"name":)";
        json::write(out, r.name);
        if (f.titles && !r.info.title.empty()) {
            out += R"(,"title":)";
            json::write(out, r.info.title);
        }
        if (!r.info.description.empty()) {
            out += R"(,"description":)";
            json::write(out, r.info.description);
        }
        out += R"(,"mimeType":)";
        json::write(out, r.mime_type);
        if (f.icons) out += r.icons;
        out += '}';
    }
    out += "]}";
    return out;
}

/// The answer to resources/read from the first resource that matches `p.uri`: on success true with
/// the result in `out`; otherwise false with the error's code and message.
inline bool answer_read_resource(const read_resource_params& p, const std::vector<resource_entry>& resources,
                                 error_code& code, std::string& out) {
    const auto error = [&](error_code c, std::string message) {
        code = c;
        out = std::move(message);
        return false;
    };
    std::string text;
    for (const resource_entry& r : resources) {
        const read_status status = r.read(p.uri, text);
        if (status == read_status::no_match) continue;
        if (status == read_status::failed) {
            std::string message = "Resource " + std::string(r.templated ? "template " : "");
            json::write(message, r.uri);
            message += " cannot be read for ";
            json::write(message, std::string_view(p.uri).substr(0, 200));
            message += ": " + text;
            return error(r.templated ? error_code::resource_not_found : error_code::internal_error, message);
        }
        std::string body = R"({"contents":[{"uri":)";
        json::write(body, p.uri);
        body += R"(,"mimeType":)";
        json::write(body, r.mime_type);
        if (r.binary) {
            body += R"(,"blob":")";
            append_base64(body, text);
            body += "\"}]}";
        } else {
            body += R"(,"text":)";
            json::write(body, text);
            body += "}]}";
        }
        out = std::move(body);
        return true;
    }
    std::string message = "Resource not found: ";
    json::write(message, std::string_view(p.uri).substr(0, 200));
    return error(error_code::resource_not_found, message);
}

} // namespace agentry::mcp::detail

#endif
