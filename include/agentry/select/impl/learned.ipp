// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_LEARNED_IPP
#define AGENTRY_SELECT_IMPL_LEARNED_IPP

// The definitions of select/learned.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/value.hpp>
#include <agentry/select/learned.hpp>

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

namespace agentry {

AGENTRY_DECL void learned_boost::learn(std::span<const step> steps) {
    for (std::size_t i = 1; i < steps.size(); ++i) record(steps[i - 1].tool, steps[i].tool);
}

AGENTRY_DECL void learned_boost::record(std::string_view from, std::string_view to, std::uint32_t times) {
    std::lock_guard lock(table_->mutex);
    auto at = table_->follows.find(from);
    if (at == table_->follows.end()) at = table_->follows.emplace(std::string(from), decltype(at->second){}).first;
    auto next = at->second.find(to);
    if (next == at->second.end()) next = at->second.emplace(std::string(to), 0).first;
    next->second += times;
}

AGENTRY_DECL double learned_boost::follows(std::string_view from, std::string_view to) const {
    std::lock_guard lock(table_->mutex);
    const auto at = table_->follows.find(from);
    if (at == table_->follows.end()) return 0;
    std::uint64_t total = 0;
    for (const auto& [name, n] : at->second) total += n;
    const auto next = at->second.find(to);
    return next == at->second.end() || total == 0 ? 0 : double(next->second) / double(total);
}

AGENTRY_DECL void learned_boost::score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) {
    const std::size_t n = query.called.size();
    if (n == 0) return;
    std::lock_guard lock(table_->mutex);
    // The last call counts fully, the one before it half: each row's counts over its total.
    const auto add = [&](std::string_view from, double weight) {
        const auto row = table_->follows.find(from);
        if (row == table_->follows.end()) return;
        std::uint64_t total = 0;
        for (const auto& [name, times] : row->second) total += times;
        if (total == 0) return;
        for (std::size_t i = 0; i != catalog.size(); ++i)
            if (const auto next = row->second.find(catalog[i].name); next != row->second.end())
                out[i] += weight * double(next->second) / double(total);
    };
    add(query.called[n - 1], 1.0);
    if (n >= 2) add(query.called[n - 2], 0.5);
}

AGENTRY_DECL std::string learned_boost::save() const {
    json::value follows = json::value::object();
    {
        std::lock_guard lock(table_->mutex);
        for (const auto& [from, next] : table_->follows) {
            json::value counts = json::value::object();
            for (const auto& [to, times] : next) counts.set(to, json::value(times));
            follows.set(from, std::move(counts));
        }
    }
    json::value root = json::value::object();
    root.set("version", json::value(1));
    root.set("follows", std::move(follows));
    return json::to_text(root);
}

AGENTRY_DECL outcome<void> learned_boost::load(std::string_view text) {
    const json::parsed read = json::parse(text);
    const auto refuse = [](std::string why) {
        return fail(failure_kind::invalid_input, "agentry: learned_boost::load: " + why +
                                                     "; give the text learned_boost::save() wrote");
    };
    if (!read.ok()) return refuse("the text is not JSON (" + read.errors.front().to_string() + ")");
    const json::value* version = read.value.find("version");
    if (!version || version->number_text() != "1") return refuse("no \"version\":1");
    const json::value* follows = read.value.find("follows");
    if (!follows || !follows->is_object()) return refuse("no \"follows\" object");
    decltype(table_->follows) next;
    for (const json::member& from : follows->members()) {
        if (!from.value.is_object()) return refuse("\"follows\"/\"" + from.key + "\" is not an object");
        for (const json::member& to : from.value.members()) {
            std::uint64_t times = 0;
            const std::string& digits = to.value.number_text();
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                return refuse("the count of \"" + from.key + "\" -> \"" + to.key + "\" is not a whole number");
            for (char c : digits) times = times * 10 + std::uint64_t(c - '0');
            next[from.key][to.key] = times;
        }
    }
    std::lock_guard lock(table_->mutex);
    table_->follows = std::move(next);
    return {};
}

} // namespace agentry

#endif
