// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_PLAN_IPP
#define AGENTRY_LOOP_IMPL_PLAN_IPP

// The definitions of the planned mode (loop/plan.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/detail/json_pointer.hpp>
#include <agentry/loop/detail/plan_schema.hpp>
#include <agentry/loop/plan.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/policy/approval.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::string plan_excerpt(std::string_view text, std::size_t n) {
    if (text.size() <= n) return std::string(text);
    return std::string(text.substr(0, utf8_cut(text, n))) + "...";
}

AGENTRY_DECL std::string in_quotes(std::string_view text) {
    std::string out;
    json::write(out, std::string(text));
    return out;
}

AGENTRY_DECL std::string canonical_or_same(std::string arguments) {
    std::optional<std::string> canonical = canonical_json(arguments);
    return canonical ? std::move(*canonical) : std::move(arguments);
}

AGENTRY_DECL std::string cycle_text(const checked_plan& c, const std::vector<bool>& left) {
    std::size_t at = std::size_t(std::find(left.begin(), left.end(), true) - left.begin());
    std::vector<std::size_t> seen(left.size(), std::size_t(-1));
    std::vector<std::size_t> path;
    while (seen[at] == std::size_t(-1)) {
        seen[at] = path.size();
        path.push_back(at);
        for (std::size_t d : c.deps[at])
            if (left[d]) {
                at = d;
                break;
            }
    }
    std::string text;
    for (std::size_t i = seen[at]; i != path.size(); ++i) text += in_quotes(c.plan.steps[path[i]].id) + " -> ";
    return text + in_quotes(c.plan.steps[at].id);
}

AGENTRY_TEMPLATE_DEF
void check_plan_steps(checked_plan& c, std::span<const std::string_view> tools,
                      const finished_steps& finished, std::size_t max_steps) {
    std::vector<plan_step_wire>& steps = c.plan.steps;
    if (steps.empty()) c.errors.push_back("the plan has no steps; give at least one");
    if (steps.size() > max_steps)
        c.errors.push_back("the plan has " + std::to_string(steps.size()) + " steps, more than the " +
                           std::to_string(max_steps) + " allowed; plan fewer steps");
    if (!c.errors.empty()) return;
    std::map<std::string_view, std::size_t, std::less<>> index;
    for (std::size_t i = 0; i != steps.size(); ++i) {
        const std::string& id = steps[i].id;
        const std::string at = "step " + std::to_string(i) + " (" + in_quotes(id) + "): ";
        if (id.empty()) c.errors.push_back("step " + std::to_string(i) + ": its id is empty; give it a unique id");
        else if (finished.contains(id))
            c.errors.push_back(at + "the id " + in_quotes(id) +
                               " is taken by a step that already ran (its result can be used as an input); give "
                               "this step another id");
        else if (!index.emplace(id, i).second)
            c.errors.push_back(at + "the id " + in_quotes(id) + " is also the id of step " + std::to_string(index[id]) +
                               "; give each step a unique id");
        if (std::find(tools.begin(), tools.end(), steps[i].tool) == tools.end()) {
            std::string e = at + "the tool " + in_quotes(steps[i].tool) + " does not exist";
            const std::string_view guess = json::detail::closest(steps[i].tool, tools);
            if (!guess.empty()) e += "; did you mean " + in_quotes(guess) + "?";
            e += " The tools: ";
            for (std::size_t t = 0; t != tools.size(); ++t) e += (t != 0 ? ", " : "") + std::string(tools[t]);
            c.errors.push_back(std::move(e));
        }
    }
    c.deps.resize(steps.size());
    bool graph_ok = true;
    for (std::size_t i = 0; i != steps.size(); ++i) {
        const plan_step_wire& s = steps[i];
        const std::string at = "step " + std::to_string(i) + " (" + in_quotes(s.id) + "): ";
        for (const std::string& d : s.depends_on) {
            if (const auto it = index.find(d); it != index.end()) {
                if (it->second == i) {
                    c.errors.push_back(at + "it depends on itself; remove " + in_quotes(d) + " from its depends_on");
                    graph_ok = false;
                } else if (std::find(c.deps[i].begin(), c.deps[i].end(), it->second) == c.deps[i].end()) {
                    c.deps[i].push_back(it->second);
                }
            } else if (!finished.contains(d)) {
                c.errors.push_back(at + "depends_on names " + in_quotes(d) +
                                   ", which is not a step of this plan nor one that already ran; name an existing "
                                   "step or remove it");
            }
        }
        for (std::size_t k = 0; k != s.inputs.size(); ++k) {
            const plan_input_wire& in = s.inputs[k];
            const std::string where = at + "inputs[" + std::to_string(k) + "]: ";
            const bool known = index.contains(in.step) || finished.contains(in.step);
            if (!known)
                c.errors.push_back(where + "it reads step " + in_quotes(in.step) +
                                   ", which is not a step of this plan nor one that already ran (a dangling "
                                   "reference); name an existing step");
            else if (!finished.contains(in.step) &&
                     std::find(s.depends_on.begin(), s.depends_on.end(), in.step) == s.depends_on.end())
                c.errors.push_back(where + "it reads step " + in_quotes(in.step) +
                                   ", which is not in depends_on, so it may not have run yet (a forward reference); "
                                   "add " + in_quotes(in.step) + " to depends_on");
            if (!pointer_tokens(in.pointer))
                c.errors.push_back(where + "pointer " + in_quotes(in.pointer) +
                                   " is not a JSON Pointer; write \"\" or \"/member/0/...\" (~0 for '~', ~1 for '/')");
            const std::optional<std::vector<std::string>> arg = pointer_tokens(in.argument);
            if (!arg) {
                c.errors.push_back(where + "argument " + in_quotes(in.argument) +
                                   " is not a JSON Pointer; write \"/name\" for the argument `name`");
            } else {
                std::string probe = s.arguments.text();
                if (!json_set(probe, *arg, "null"))
                    c.errors.push_back(where + "argument " + in_quotes(in.argument) +
                                       " has no place in the step's arguments (its parent is missing or not an "
                                       "object or array); point at a member of arguments");
            }
        }
    }
    if (graph_ok) {
        // Kahn's sort: the steps left at the end are on a cycle or behind one.
        std::vector<std::size_t> waiting(steps.size());
        std::vector<std::vector<std::size_t>> dependents(steps.size());
        for (std::size_t i = 0; i != steps.size(); ++i) {
            waiting[i] = c.deps[i].size();
            for (std::size_t d : c.deps[i]) dependents[d].push_back(i);
        }
        std::vector<std::size_t> ready;
        std::vector<bool> left(steps.size(), true);
        for (std::size_t i = 0; i != steps.size(); ++i)
            if (waiting[i] == 0) ready.push_back(i);
        while (!ready.empty()) {
            const std::size_t i = ready.back();
            ready.pop_back();
            left[i] = false;
            for (std::size_t d : dependents[i])
                if (--waiting[d] == 0) ready.push_back(d);
        }
        if (std::find(left.begin(), left.end(), true) != left.end())
            c.errors.push_back("the steps depend on each other in a cycle: " + cycle_text(c, left) +
                               "; remove one of these dependencies");
    }
}

AGENTRY_DECL std::optional<std::string> result_value(std::string_view text, const std::vector<std::string>& tokens) {
    const std::string value = well_formed_json(text) ? std::string(text) : in_quotes(text);
    const std::optional<text_span> at = json_at(value, tokens);
    if (!at) return std::nullopt;
    return value.substr(at->begin, at->end - at->begin);
}

AGENTRY_DECL std::string plan_report(const std::vector<plan_step_record>& steps) {
    std::string out = "[";
    for (std::size_t i = 0; i != steps.size(); ++i) {
        const plan_step_record& s = steps[i];
        if (i != 0) out += ',';
        out += "{\"id\":" + in_quotes(s.id) + ",\"tool\":" + in_quotes(s.tool) + ",\"status\":" +
               in_quotes(to_string(s.status));
        switch (s.status) {
        case plan_step_status::ok: out += ",\"result\":" + (well_formed_json(s.result) ? s.result : in_quotes(s.result)); break;
        case plan_step_status::failed: out += ",\"error\":" + in_quotes(s.result); break;
        case plan_step_status::skipped:
        case plan_step_status::not_run: out += ",\"reason\":" + in_quotes(s.result); break;
        }
        out += '}';
    }
    return out + "]";
}

AGENTRY_DECL std::string plan_errors_text(const std::vector<std::string>& errors, bool ran) {
    std::string out = ran ? "The plan stopped: " : "The plan was not run: ";
    out += std::to_string(errors.size()) + (errors.size() == 1 ? " problem" : " problems") + ":\n";
    for (const std::string& e : errors) out += "- " + e + "\n";
    return out + "Call " + std::string(plan_tool_name) + " again with a corrected plan" +
           (ran ? " for the rest; the steps that ran keep their ids and results, which later steps can use." : ".");
}

AGENTRY_TEMPLATE_DEF
std::string plan_failure_summary(const plan_record& record) {
    std::string out;
    for (const plan_step_record& s : record.steps)
        if (s.status == plan_step_status::failed)
            out += (out.empty() ? "" : "; ") + in_quotes(s.id) + " (" + s.tool + "): " + plan_excerpt(s.result);
    return out;
}

AGENTRY_TEMPLATE_DEF
bool plan_step_arguments(const plan_step_wire& s, std::size_t i, plan_record& record,
                         const finished_steps& finished, const plan_options& options) {
    std::string& args = record.steps[i].arguments;
    if (s.inputs.size() > options.max_inputs_per_step) {
        record.errors.push_back("step " + in_quotes(s.id) + " has " + std::to_string(s.inputs.size()) +
                                " inputs; a step may have at most " + std::to_string(options.max_inputs_per_step) +
                                " (plan_options::max_inputs_per_step). Point fewer inputs at larger parts of the "
                                "results, or split the step");
        return false;
    }
    for (std::size_t k = 0; k != s.inputs.size(); ++k) {
        const plan_input_wire& in = s.inputs[k];
        const std::string where = "step " + in_quotes(s.id) + ", inputs[" + std::to_string(k) + "]: ";
        const auto from = finished.find(in.step);
        const std::optional<std::string> value =
            result_value(from->second, *pointer_tokens(in.pointer));
        if (!value) {
            record.errors.push_back(where + "the result of step " + in_quotes(in.step) + " has nothing at " +
                                    in_quotes(in.pointer) + "; its result is " + plan_excerpt(from->second) +
                                    ". Point at a value it has");
            return false;
        }
        if (!json_set(args, *pointer_tokens(in.argument), *value)) {
            record.errors.push_back(where + "argument " + in_quotes(in.argument) +
                                    " has no place in the arguments once the inputs before it are set (" +
                                    plan_excerpt(args) + "); point at a member of arguments");
            return false;
        }
        args = canonical_or_same(std::move(args));
        if (args.size() > options.max_arguments_size) {
            record.errors.push_back(where + "with this input set, the arguments reach " + std::to_string(args.size()) +
                                    " bytes, past the " + std::to_string(options.max_arguments_size) +
                                    " a step may have (plan_options::max_arguments_size); point the input at a "
                                    "smaller part of the result of step " + in_quotes(in.step));
            return false;
        }
    }
    return true;
}

} // namespace agentry::detail

#endif
