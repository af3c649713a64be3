// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_METRICS_GRAFANA_HPP
#define AGENTRY_TESTS_METRICS_GRAFANA_HPP

// docs/grafana/agentry.json, read for the tests: its PromQL queries, and the metric names they
// use.

#include <agentry/json/value.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace metrics_test {

inline agentry::json::parsed grafana_dashboard() {
    std::ifstream in(std::string(AGENTRY_SOURCE_DIR) + "/docs/grafana/agentry.json", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return agentry::json::parse(text.str());
}

/// Every PromQL text of the dashboard: the targets' "expr" and the variables' "definition".
inline void collect_queries(const agentry::json::value& v, std::vector<std::string>& out) {
    for (const agentry::json::member& m : v.members()) {
        if ((m.key == "expr" || m.key == "definition") && m.value.is_string()) out.push_back(m.value.as_string());
        else collect_queries(m.value, out);
    }
    for (const agentry::json::value& item : v.items()) collect_queries(item, out);
}

inline std::vector<std::string> grafana_queries(const agentry::json::value& dashboard) {
    std::vector<std::string> out;
    collect_queries(dashboard, out);
    return out;
}

/// The query as Grafana sends it, its variables replaced: $tool by .*, $__rate_interval by 1m,
/// $__range by 5m; Grafana's label_values(m, l) as the PromQL group by (l) (m).
inline std::string expanded(std::string query) {
    if (query.starts_with("label_values(")) {
        const std::size_t comma = query.find(',');
        const std::string metric = query.substr(13, comma - 13);
        std::string label = query.substr(comma + 1, query.rfind(')') - comma - 1);
        label.erase(0, label.find_first_not_of(' '));
        query = "group by (" + label + ") (" + metric + ")";
    }
    const std::pair<std::string, std::string> variables[] = {
        {"$__rate_interval", "1m"}, {"$__range", "5m"}, {"$tool", ".*"}};
    for (const auto& [name, value] : variables)
        for (std::size_t at = query.find(name); at != std::string::npos; at = query.find(name, at + value.size()))
            query.replace(at, name.size(), value);
    return query;
}

/// The metric names in `query` that start with agentry_ or gen_ai_: not the label names of a
/// matcher (name=, name!=, name=~) or of a by (...) or without (...) list.
inline std::set<std::string> metric_names(const std::string& query) {
    std::set<std::string> out;
    const auto word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    bool labels = false;  // in a by (...) or without (...) list
    std::string previous;
    for (std::size_t i = 0; i < query.size();) {
        if (query[i] == ')') labels = false;
        if (!word(query[i]) || (i > 0 && query[i - 1] == '$')) {
            if (query[i] == '(' && (previous == "by" || previous == "without")) labels = true;
            if (query[i] != ' ' && query[i] != '(') previous.clear();
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < query.size() && word(query[end])) ++end;
        previous = query.substr(i, end - i);
        std::size_t next = end;
        while (next < query.size() && query[next] == ' ') ++next;
        const bool matcher = next < query.size() && (query[next] == '=' || query[next] == '!');
        if (!labels && !matcher && (previous.starts_with("agentry_") || previous.starts_with("gen_ai_")))
            out.insert(previous);
        i = end;
    }
    return out;
}

} // namespace metrics_test

#endif
