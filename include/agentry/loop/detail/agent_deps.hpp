// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_AGENT_DEPS_HPP
#define AGENTRY_LOOP_DETAIL_AGENT_DEPS_HPP

// The typed half of an agent's construction: the registry, provider and transport turned into
// the engine's run_deps, whose functions are the only places their types remain.

#include <agentry/call_scope.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/detail/features.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/loop/large_results.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/provider/provider.hpp>

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::detail {

/// What the engine of an agent<Config, Output> uses: the provider's turn, the registry's calls
/// (read in P's dialect, with the run's context), the policies, the output's schema and judge.
template <loop_config Config, class Output, class P, class Registry, class T>
run_deps deps_of(P model, const Registry& tools, T http, output_slot<Output>& output) {
    constexpr loop_config config_ = Config;  // AGENTRY_WORKAROUND_CLASS_NTTP_READS (config.hpp)
    using D = typename P::dialect;
    run_deps d;
    d.limits = config_;
    auto state = std::make_shared<std::pair<P, T>>(std::move(model), std::move(http));
    d.turn = [state](const chat_request& request, const stream_events& events, const trace_hook& trace) {
        return complete(state->first, state->second, request, events, trace);
    };
    if constexpr (requires(const P& p) {
                      { p.forces_tools() } -> std::convertible_to<bool>;
                  })
        d.forces_tools = [state] { return static_cast<bool>(state->first.forces_tools()); };
    if constexpr (requires { P::provider_name; }) d.provider_name = P::provider_name;
    if constexpr (requires(const P& p) { std::string(p.model); }) d.model = state->first.model;
    // Results kept whole (large_result::page, summary) reach the pipeline uncut: its first layer pages them.
    constexpr bool keeps = config_.large_results != large_result::cut;
    static_assert(!keeps || Registry::find(read_result_tool) == Registry::size(),
                  "agentry: agent: loop_config::large_results pages results through the built-in tool read_result, "
                  "and the registry has a tool of that name; rename that tool");
    call_options options = tools.options();
    options.max_result_size = keeps ? 0 : config_.max_result_size;
    // A dialect that makes every property required sends null for an absent optional one.
    if constexpr (D::rules.all_required) options.arguments.null_as_absent = true;
    d.call = [registry = tools.with_options(options)](std::string_view name, std::string_view arguments,
                                                      const call_scope& scope, [[maybe_unused]] void* ctx) {
        using Context = typename Registry::context_type;
        if constexpr (std::is_void_v<Context>) return registry.template call<D>(name, arguments, {.scope = scope});
        else return registry.template call<D>(name, arguments, {.context = *static_cast<Context*>(ctx), .scope = scope});
    };
    d.tools_payload = Registry::template definitions<D>();
    d.catalog = tool_catalog(D::kind);
    const auto fragments = Registry::template definition_fragments<D>();
    for (std::size_t i = 0; i != Registry::size(); ++i) {
        catalog_entry e;
        e.name = Registry::names[i];
        e.definition = fragments[i];
        e.description = Registry::descriptions[i];
        e.category = Registry::categories[i];
        d.catalog.add_constant(e);
    }
    d.dynamic = dynamic_context::of<D, Registry>(config_.max_permission, keeps ? 0 : config_.max_result_size);
    if constexpr (keeps) {
        // read_result, answered here, after the tools added at run time and before the registry;
        // its definition is in every request's payload, and no added tool may take its name.
        d.kept = std::make_shared<result_keeper>(config_.max_result_size);
        d.call = [kept = d.kept, tool = std::move(d.call)](std::string_view name, std::string_view arguments,
                                                            const call_scope& scope, void* ctx) {
            if (name == read_result_tool) return kept->read(arguments);
            return tool(name, arguments, scope, ctx);
        };
        d.tools_payload = payload_with_reader<D, Registry>::view;
        catalog_entry reader;
        reader.name = read_result_tool;
        reader.definition = payload_with_reader<D, Registry>::entry;
        reader.description = decltype(read_result_declaration)::descriptions[0];
        reader.always = true;
        d.catalog.add_constant(reader);
        d.dynamic.has_static = +[](std::string_view name) noexcept {
            return name == read_result_tool || Registry::find(name) != Registry::size();
        };
    }
    d.output = output.format();
    if constexpr (!std::is_void_v<Output>)
        d.judge = [&output](std::string_view text, std::uint32_t& repairs, std::uint32_t max_repairs,
                            std::vector<message>& history, run_result& result) {
            return output.judge(text, repairs, max_repairs, history, result);
        };
    using policies = registry_policies<Registry>;
    if constexpr (policies::any) d.policy = policy_state::of<policies>(&Registry::find, options.arguments);
    d.features = features_of<config_, policies>();
    return d;
}


} // namespace agentry::detail

#endif
