// SPDX-License-Identifier: BSL-1.0
// docs/grafana/agentry.json: valid JSON, a dashboard on a Prometheus data source variable,
// whose queries name only metrics the exposition has.
#include "events.hpp"
#include "grafana.hpp"

#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace metrics_test;

TEST_CASE("metrics dashboard: the Grafana JSON names only metrics the exposition has") {
    const agentry::json::parsed d = grafana_dashboard();
    REQUIRE_MESSAGE(d.ok(), "docs/grafana/agentry.json is not valid JSON");
    CHECK(d.value.find("schemaVersion")->as_int64() == 39);
    const agentry::json::value* variables = d.value.find("templating")->find("list");
    REQUIRE(variables);
    CHECK(variables->items().at(0).find("type")->as_string() == "datasource");
    CHECK(variables->items().at(0).find("query")->as_string() == "prometheus");

    std::vector<std::string> titles;
    for (const agentry::json::value& panel : d.value.find("panels")->items()) {
        titles.push_back(panel.find("title")->as_string());
        CHECK(panel.find("datasource")->find("uid")->as_string() == "${datasource}");
        CHECK(!panel.find("targets")->items().empty());
    }
    CHECK(titles == std::vector<std::string>{"Success rate by tool", "p99 latency by tool", "Fallback rate by tool",
                                             "Calls by tool (usage distribution)", "Top failures",
                                             "Retries, timeouts and tries by tool", "Provider requests and errors",
                                             "Provider p99 request duration", "Tokens by type",
                                             "Tokens per request (p50, p99)", "Cost", "Runs by stop reason"});

    // The sample names of an exposition that has every family.
    agentry::metrics m{priced()};
    script(m);
    std::set<std::string> exposed;
    std::istringstream lines(m.prometheus());
    for (std::string line; std::getline(lines, line);)
        if (!line.starts_with("#")) exposed.insert(line.substr(0, line.find_first_of("{ ")));

    std::set<std::string> used;
    for (const std::string& query : grafana_queries(d.value))
        for (const std::string& name : metric_names(query)) {
            CHECK_MESSAGE(exposed.count(name) == 1, name, " in ", query);
            used.insert(name);
        }
    // Every family is on the dashboard.
    for (const char* family :
         {"agentry_tool_calls_total", "agentry_tool_attempts_total", "agentry_tool_retries_total",
          "agentry_tool_timeouts_total", "agentry_tool_fallbacks_total", "agentry_tool_duration_seconds_bucket",
          "agentry_tool_argument_tokens_total", "agentry_tool_result_tokens_total", "agentry_tool_cost_dollars_total",
          "agentry_provider_requests_total", "agentry_provider_errors_total", "agentry_provider_retries_total",
          "agentry_provider_tokens_total", "agentry_provider_cost_dollars_total",
          "gen_ai_client_operation_duration_seconds_bucket", "gen_ai_client_token_usage_bucket", "agentry_runs_total"})
        CHECK_MESSAGE(used.count(family) == 1, family);
}
