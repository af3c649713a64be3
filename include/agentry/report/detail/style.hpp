// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REPORT_DETAIL_STYLE_HPP
#define AGENTRY_REPORT_DETAIL_STYLE_HPP

// The run report's style sheet, inline in the page: system fonts only, nothing fetched.

#include <string_view>

namespace agentry::detail {

inline constexpr std::string_view report_style = R"css(
:root{--ok:#2e7d32;--ok-bg:#e8f5e9;--bad:#c62828;--bad-bg:#fdecea;--warn:#b26a00;--warn-bg:#fff4e0;
--ask:#5e35b1;--ask-bg:#efe9fb;--muted:#757575;--muted-bg:#f1f1f1;--turn:#1565c0;--turn-bg:#e3effc;--line:#d6d6d6}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d1d1d;background:#fafafa}
main.report{max-width:1240px;margin:0 auto;padding:16px 20px 40px}
h1{font-size:22px;margin:4px 0 10px}h2,h3,h4,h5,h6{margin:18px 0 8px}
h2{font-size:17px}h3{font-size:16px}h4,h5,h6{font-size:14px}
pre{margin:4px 0;padding:8px;background:#f5f5f5;border:1px solid #e4e4e4;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;max-height:360px;overflow:auto}
section.run{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:10px 0}
section.sub-run{border-left:4px solid var(--ask);background:#fdfcff}
dl.summary{display:flex;flex-wrap:wrap;gap:6px 22px;margin:0}
dl.summary div{min-width:90px}dl.summary dt{color:var(--muted);font-size:12px}dl.summary dd{margin:0;font-weight:600}
.run-id{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-weight:400!important}
.stop.completed,.stop.stop_at_tool{color:var(--ok)}.stop{color:var(--bad)}.stop.approval_pending{color:var(--ask)}
.legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;color:var(--muted);margin:4px 0 8px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-2px;margin-right:4px}
.timeline .row,.timeline .axis{display:flex;align-items:center;min-height:24px;border-bottom:1px solid #f0f0f0}
.timeline .label{flex:0 0 340px;padding-right:10px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:13px}
.timeline .track{position:relative;flex:1;height:20px}
.timeline .axis .track{height:18px;border-bottom:1px solid var(--line)}
.tick{position:absolute;top:0;white-space:nowrap;font-size:11px;color:var(--muted);transform:translateX(-50%)}
.tick.first{transform:none}.tick.last{transform:translateX(-100%)}
.bar{position:absolute;top:3px;height:14px;min-width:3px;border-radius:3px;display:flex;gap:2px;text-decoration:none;overflow:hidden}
.turn .bar,i.turn{background:var(--turn)}.call.ok .bar,i.ok{background:var(--ok)}.call.failed .bar,i.failed{background:var(--bad)}
.call.denied .bar,.call.rate-limited .bar,i.denied{background:var(--warn)}
.attempt{flex:1 1 0;min-width:2px;height:100%}.attempt.ok{background:var(--ok)}.attempt.failed{background:var(--bad)}
.call-id{margin-left:6px;font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.row .tool,.call-detail .tool{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-weight:600}
.tokens,.when,.call-id{color:var(--muted);font-size:12px}
.mark,.approval,.status{display:inline-block;font-size:11px;line-height:16px;padding:0 6px;border-radius:8px;margin-left:4px;font-weight:600}
.status.ok{background:var(--ok-bg);color:var(--ok)}.status.failed{background:var(--bad-bg);color:var(--bad)}
.status.denied,.status.rate-limited,.status.skipped{background:var(--warn-bg);color:var(--warn)}.status.not_run{background:var(--muted-bg);color:var(--muted)}
.mark.retry,.mark.fallback{background:var(--warn-bg);color:var(--warn)}.mark.timeout{background:var(--bad-bg);color:var(--bad)}
.mark.sub-run{background:var(--ask-bg);color:var(--ask)}
.approval{background:var(--ask-bg);color:var(--ask)}.approval.denied{background:var(--warn-bg);color:var(--warn)}
details.call-detail,details.plan-step,details.later-call{border:1px solid #e6e6e6;border-radius:6px;margin:6px 0;background:#fff}
details.call-detail>summary,details.plan-step>summary,details.later-call>summary{padding:6px 10px;cursor:pointer}
details.call-detail.failed{border-left:4px solid var(--bad)}details.call-detail.ok{border-left:4px solid var(--ok)}
details.call-detail.denied,details.call-detail.rate-limited{border-left:4px solid var(--warn)}
details .body{padding:4px 12px 10px}
table.attempts{border-collapse:collapse;font-size:12px;margin:6px 0}
table.attempts td,table.attempts th{border:1px solid #e4e4e4;padding:2px 8px;text-align:left}
.nested{margin:4px 0 12px 28px}
.plan-graph{display:block;margin:6px 0;max-width:100%;height:auto}
.plan-graph .node rect{stroke-width:2;fill:#fff}
.plan-graph .node.ok rect{stroke:var(--ok);fill:var(--ok-bg)}.plan-graph .node.failed rect{stroke:var(--bad);fill:var(--bad-bg)}
.plan-graph .node.skipped rect{stroke:var(--warn);fill:var(--warn-bg)}.plan-graph .node.not_run rect{stroke:#9e9e9e;fill:var(--muted-bg);stroke-dasharray:4 3}
.plan-graph .node-id{font:600 13px ui-monospace,"DejaVu Sans Mono",monospace;fill:#1d1d1d}
.plan-graph .node-tool{font-size:12px;fill:#424242}.plan-graph .round-label{font-size:12px;font-weight:600;fill:var(--muted)}
.plan-graph .edge{fill:none;stroke:#8a8a8a;stroke-width:1.5}.plan-graph .arrow{fill:#8a8a8a}
ul.errors{color:var(--bad)}.cut,.depth-cut,.note{color:var(--warn);font-size:12px;margin:2px 0}
footer{color:var(--muted);font-size:12px;margin-top:20px}
)css";

} // namespace agentry::detail

#endif
