// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_IMPL_APPROVAL_IPP
#define AGENTRY_POLICY_IMPL_APPROVAL_IPP

// The definitions of the approval of tool calls (policy/approval.hpp): included by it header-only,
// and by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/canonical.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/schema/raw_json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace agentry {

AGENTRY_DECL std::optional<std::string> detail::canonical_json(std::string_view text) {
    if (!json::read<raw_json>(text).ok()) return std::nullopt;
    json::detail::cursor in;
    in.begin = in.p = text.data();
    in.end = text.data() + text.size();
    std::string out;
    if (!json::detail::canonical_value(in, out)) return std::nullopt;
    return out;
}

} // namespace agentry

#endif
