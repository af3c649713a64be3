// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_IMPL_APPROVAL_IPP
#define AGENTRY_POLICY_IMPL_APPROVAL_IPP

// The definitions of the approval of tool calls (policy/approval.hpp): included by it header-only,
// and by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/canonical.hpp>
#include <agentry/json/detail/jcs.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool_result.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace agentry {

namespace detail {

// The text of a json::read-validated `text` by `canonical` (a function of a cursor and the
// text appended), or nothing.
template <class Canonical>
std::optional<std::string> canonical_text(std::string_view text, Canonical canonical) {
    if (!json::read<raw_json>(text).ok()) return std::nullopt;
    json::detail::cursor in;
    in.begin = in.p = text.data();
    in.end = text.data() + text.size();
    std::string out;
    if (!canonical(in, out)) return std::nullopt;
    return out;
}

AGENTRY_DECL tool_result not_canonical(std::string_view tool, std::string_view text) {
    tool_result out;
    out.status = tool_status::invalid_arguments;
    json::read_result<raw_json> read = json::read<raw_json>(text);
    out.content = "agentry: the arguments of " + std::string(tool) + " were refused before it ran: ";
    if (read.ok()) {
        out.content += "they are not one JSON value that can be put in canonical form";
    } else {
        for (std::size_t i = 0; i != read.errors.size(); ++i)
            out.content += (i != 0 ? "; " : "") + read.errors[i].to_string();
        out.errors = std::move(read.errors);
    }
    out.content += ". Send them again as one JSON object, each member once.";
    return out;
}

} // namespace detail

AGENTRY_DECL std::optional<std::string> detail::canonical_json(std::string_view text) {
    return canonical_text(text, [](json::detail::cursor& in, std::string& out) { return json::detail::append_jcs_value(in, out); });
}

AGENTRY_DECL bool detail::same_arguments(std::string_view decided, std::string_view arguments) {
    if (decided == arguments) return true;
    const std::optional<std::string> call = canonical_json(arguments);
    if (!call) return false;
    if (canonical_json(decided) == call) return true;
    // The canonical form before RFC 8785 (members sorted by bytes, numbers as digits and an
    // exponent, strings unescaped but for '"' and '\'): not always JSON, so compared as text.
    return canonical_text(arguments, [](json::detail::cursor& in, std::string& out) {
               return json::detail::canonical_value(in, out);
           }) == decided;
}

} // namespace agentry

#endif
