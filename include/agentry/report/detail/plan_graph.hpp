// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REPORT_DETAIL_PLAN_GRAPH_HPP
#define AGENTRY_REPORT_DETAIL_PLAN_GRAPH_HPP

// The graph of one plan in the run report, as inline SVG: its steps as nodes in one column per
// round (the steps not run in a last column), an edge per dependency within the plan, each node
// coloured by its status and linked to the step's details.

#include <agentry/loop/result.hpp>
#include <agentry/report/detail/html.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

/// `text` escaped, cut to `n` bytes (at a character boundary) with an ellipsis when longer.
inline std::string short_label(std::string_view text, std::size_t n) {
    if (text.size() <= n) return html(text);
    return html(text.substr(0, utf8_cut(text, n - 1))) + "\xE2\x80\xA6";
}

/// Appends the SVG of `plan`; `ids` prefixes the ids of the page's elements it makes (the
/// arrow marker; the node links point at `ids` + "-step-" + the step's index).
inline void plan_graph(std::string& out, const plan_record& plan, const std::string& ids) {
    constexpr int node_w = 180, node_h = 46, col_gap = 70, row_gap = 16, margin = 12, head = 26;
    const std::size_t n = plan.steps.size();
    std::uint32_t rounds = 0;
    bool not_run = false;
    for (const plan_step_record& s : plan.steps) {
        rounds = std::max(rounds, s.round);
        not_run = not_run || s.round == 0;
    }
    // Column of each step: its round (from 0), or the last column when it did not run.
    const std::size_t columns = rounds + (not_run ? 1u : 0u);
    std::vector<std::size_t> column(n), row(n);
    std::vector<std::size_t> height(std::max<std::size_t>(columns, 1), 0);
    for (std::size_t i = 0; i != n; ++i) {
        column[i] = plan.steps[i].round == 0 ? rounds : plan.steps[i].round - 1;
        row[i] = height[column[i]]++;
    }
    const std::size_t rows = n == 0 ? 1 : *std::max_element(height.begin(), height.end());
    const auto x_of = [&](std::size_t i) { return margin + int(column[i]) * (node_w + col_gap); };
    const auto y_of = [&](std::size_t i) { return margin + head + int(row[i]) * (node_h + row_gap); };
    const int width = 2 * margin + int(std::max<std::size_t>(columns, 1)) * (node_w + col_gap) - col_gap;
    const int height_px = 2 * margin + head + int(rows) * (node_h + row_gap) - row_gap;
    std::map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i != n; ++i) index.emplace(plan.steps[i].id, i);

    const std::string arrow = ids + "-arrow";
    out += "<svg class=\"plan-graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
           "\" height=\"" + std::to_string(height_px) + "\" viewBox=\"0 0 " + std::to_string(width) + ' ' +
           std::to_string(height_px) + "\" role=\"img\" aria-label=\"The plan's steps by round\">";
    out += "<defs><marker id=\"" + arrow +
           "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
           "orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" class=\"arrow\"/></marker></defs>";
    for (std::size_t c = 0; c != columns; ++c) {
        const std::string label = c < rounds ? "Round " + std::to_string(c + 1) : std::string("Not run");
        out += "<text class=\"round-label\" x=\"" + std::to_string(margin + int(c) * (node_w + col_gap)) + "\" y=\"" +
               std::to_string(margin + 14) + "\">" + label + "</text>";
    }
    // Edges first, so that the nodes are drawn over them.
    for (std::size_t i = 0; i != n; ++i)
        for (const std::string& d : plan.steps[i].depends_on) {
            const auto from = index.find(d);
            if (from == index.end()) continue;  // a step of an earlier plan: named in the node's title
            const std::size_t j = from->second;
            const int x1 = x_of(j) + node_w, y1 = y_of(j) + node_h / 2, x2 = x_of(i), y2 = y_of(i) + node_h / 2;
            const int bend = std::max(30, (x2 - x1) / 2);
            out += "<path class=\"edge\" data-from=\"" + html(d) + "\" data-to=\"" + html(plan.steps[i].id) +
                   "\" d=\"M" + std::to_string(x1) + ',' + std::to_string(y1) + " C" + std::to_string(x1 + bend) +
                   ',' + std::to_string(y1) + ' ' + std::to_string(x2 - bend) + ',' + std::to_string(y2) + ' ' +
                   std::to_string(x2) + ',' + std::to_string(y2) + "\" marker-end=\"url(#" + arrow + ")\"/>";
        }
    for (std::size_t i = 0; i != n; ++i) {
        const plan_step_record& s = plan.steps[i];
        const std::string status(to_string(s.status));
        std::string title = s.id + " (" + s.tool + "): " + status;
        if (s.status == plan_step_status::failed) title += ", " + std::string(to_string(s.call_status));
        if (!s.depends_on.empty()) {
            title += "; after";
            for (const std::string& d : s.depends_on)
                title += ' ' + d + (index.count(d) != 0 ? "" : " (an earlier plan's)");
        }
        const int x = x_of(i), y = y_of(i);
        out += "<a href=\"#" + ids + "-step-" + std::to_string(i) + "\"><g class=\"node " + status +
               "\" data-step=\"" + html(s.id) + "\" data-round=\"" + std::to_string(s.round) + "\"><title>" +
               html(title) + "</title><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
               "\" width=\"" + std::to_string(node_w) + "\" height=\"" + std::to_string(node_h) +
               "\" rx=\"6\"/><text x=\"" + std::to_string(x + 10) + "\" y=\"" + std::to_string(y + 19) +
               "\" class=\"node-id\">" + short_label(s.id, 22) + "</text><text x=\"" + std::to_string(x + 10) +
               "\" y=\"" + std::to_string(y + 36) + "\" class=\"node-tool\">" +
               short_label(s.tool + " \xC2\xB7 " + status, 26) + "</text></g></a>";
    }
    out += "</svg>";
}

} // namespace agentry::detail

#endif
