// SPDX-License-Identifier: BSL-1.0
// GET /metrics on the MCP HTTP server: the exposition, the Host, Origin and authorization rules,
// and a real Prometheus server scraping it (with and without a bearer token) and answering a
// query of a tool's call count and every query of the Grafana dashboard; promtool check metrics
// on the exposition.
#include "events.hpp"
#include "grafana.hpp"
#include "tools.hpp"

#include <agentry/mcp/http.hpp>

#include <doctest/doctest.h>

#include <thread>
#include <type_traits>

using namespace metrics_test;

namespace {

namespace mcp = agentry::mcp;
namespace http = boost::beast::http;

constexpr agentry::registry tools{agentry::tool<"search", "Searches">(+[] { return 1; })};
using registry = std::remove_const_t<decltype(tools)>;
const mcp::server server{tools, {.name = "metrics", .version = "1"}};

constexpr std::string_view token = "s3cret";

mcp::authorization guarded() {
    mcp::authorization a;
    a.verify = [](std::string_view t) -> std::optional<mcp::identity> {
        if (t == token) return mcp::identity{"prometheus"};
        return std::nullopt;
    };
    a.resource = "http://127.0.0.1/mcp";
    a.authorization_servers = {"https://auth.example.com"};
    return a;
}

http::request<http::string_body> get(std::string_view target, std::string_view bearer = {}) {
    http::request<http::string_body> r{http::verb::get, target, 11};
    r.set(http::field::host, "127.0.0.1:8080");
    if (!bearer.empty()) r.set(http::field::authorization, "Bearer " + std::string(bearer));
    return r;
}

// Three calls of "search" (one a tool_error) and one of "fetch".
void some_calls(agentry::observer& o) {
    record(o, {"search"});
    record(o, {"search"});
    call failed{"search"};
    failed.status = agentry::tool_status::tool_error;
    record(o, failed);
    record(o, {"fetch"});
}

// An http_server run on its own thread until the object goes.
struct serving {
    mcp::http_server<registry> http;
    std::thread thread;
    explicit serving(mcp::http_options options) : http(server, std::move(options)) {
        thread = std::thread([this] { http.run(); });
    }
    ~serving() {
        http.stop();
        thread.join();
    }
};

mcp::http_options on_free_port(const agentry::metrics& m) {
    mcp::http_options options;
    options.port = 0;
    options.log = nullptr;
    options.metrics = &m;
    return options;
}

} // namespace

TEST_CASE("metrics over http: GET /metrics answers the exposition") {
    agentry::metrics m;
    some_calls(m);
    mcp::http_options options;
    options.metrics = &m;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    auto reply = endpoint.handle(get("/metrics"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response[http::field::content_type] == "text/plain; version=0.0.4; charset=utf-8");
    CHECK(reply.response.body() == m.prometheus());
    CHECK(reply.response.body().find("agentry_tool_calls_total{tool=\"search\",outcome=\"ok\"} 2\n") !=
          std::string::npos);
    CHECK(endpoint.handle(get("/metrics?x=1")).response.result() == http::status::ok);

    http::request<http::string_body> post{http::verb::post, "/metrics", 11};
    post.set(http::field::host, "localhost");
    reply = endpoint.handle(post);
    CHECK(reply.response.result() == http::status::method_not_allowed);
    CHECK(reply.response[http::field::allow] == "GET");

    auto rebinding = get("/metrics");
    rebinding.set(http::field::host, "evil.example");
    CHECK(endpoint.handle(rebinding).response.result() == http::status::forbidden);
    auto cross_site = get("/metrics");
    cross_site.set(http::field::origin, "https://evil.example");
    CHECK(endpoint.handle(cross_site).response.result() == http::status::forbidden);
}

TEST_CASE("metrics over http: without metrics, or at another path, /metrics is not served") {
    const mcp::http_options plain;
    mcp::detail::http_endpoint<registry> endpoint(server, plain, true);
    CHECK(endpoint.handle(get("/metrics")).response.result() == http::status::not_found);

    agentry::metrics m;
    mcp::http_options moved;
    moved.metrics = &m;
    moved.metrics_path = "/internal/metrics";
    mcp::detail::http_endpoint<registry> other(server, moved, true);
    CHECK(other.handle(get("/metrics")).response.result() == http::status::not_found);
    CHECK(other.handle(get("/internal/metrics")).response.result() == http::status::ok);

    mcp::http_options clash;
    clash.metrics = &m;
    clash.metrics_path = "/mcp";
    CHECK_THROWS_WITH_AS((mcp::detail::http_endpoint<registry>(server, clash, true)),
                         "agentry: mcp::http_options::metrics_path \"/mcp\" is the MCP endpoint's path too; give "
                         "the metrics another path, e.g. \"/metrics\"",
                         std::invalid_argument);
}

TEST_CASE("metrics over http: behind the server's authorization") {
    agentry::metrics m;
    mcp::http_options options;
    options.metrics = &m;
    options.authorization = guarded();
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    auto reply = endpoint.handle(get("/metrics"));
    CHECK(reply.response.result() == http::status::unauthorized);
    CHECK(reply.response[http::field::www_authenticate] ==
          R"(Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp")");
    reply = endpoint.handle(get("/metrics", "wrong"));
    CHECK(reply.response.result() == http::status::unauthorized);
    CHECK(reply.response[http::field::www_authenticate] ==
          R"(Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error="invalid_token")");
    reply = endpoint.handle(get("/metrics", token));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body() == m.prometheus());
}

TEST_CASE("metrics over http: promtool check metrics accepts the exposition") {
    const std::string promtool = required("promtool");
    agentry::metrics m{priced()};
    script(m);
    const scratch_dir dir;
    REQUIRE(!dir.path.empty());
    std::ofstream(dir.path / "metrics.prom") << m.prometheus();
    const int code = run_program({promtool, "check", "metrics"}, dir.path / "out.txt", dir.path / "metrics.prom");
    const std::string said = read_file(dir.path / "out.txt");
    CHECK_MESSAGE(code == 0, said);
    CHECK(said.empty());
}

TEST_CASE("metrics over http: a real Prometheus scrapes /metrics, with and without a bearer token") {
    required("prometheus");
    agentry::metrics m;
    some_calls(m);
    const serving open(on_free_port(m));
    mcp::http_options options = on_free_port(m);
    options.authorization = guarded();
    const serving closed(std::move(options));
    // Over a socket: the guarded server wants the token.
    CHECK(http_get(closed.http.port(), "/metrics")->first == 401);
    const auto scraped = http_get(closed.http.port(), "/metrics", token);
    REQUIRE(scraped);
    CHECK(scraped->first == 200);
    CHECK(scraped->second == m.prometheus());

    const std::string config = "global:\n"
                               "  scrape_interval: 1s\n"
                               "  scrape_timeout: 1s\n"
                               "scrape_configs:\n"
                               "  - job_name: open\n"
                               "    static_configs:\n"
                               "      - targets: ['127.0.0.1:" + std::to_string(open.http.port()) + "']\n"
                               "  - job_name: guarded\n"
                               "    authorization:\n"
                               "      credentials: " + std::string(token) + "\n"
                               "    static_configs:\n"
                               "      - targets: ['127.0.0.1:" + std::to_string(closed.http.port()) + "']\n";
    const prometheus_server prometheus(config);
    REQUIRE(prometheus.started());
    for (const char* job : {"open", "guarded"}) {
        const std::string seen =
            prometheus.poll(std::string("sum(agentry_tool_calls_total{job=\"") + job + "\",tool=\"search\"})", "3");
        CHECK_MESSAGE(seen == "3", job, ": last seen: ", seen, "\nprometheus said: ", read_file(prometheus.log()));
    }
    CHECK(prometheus.poll(R"(agentry_tool_calls_total{job="open",tool="search",outcome="tool_error"})", "1") == "1");

    // Every query of the Grafana dashboard is PromQL this Prometheus evaluates.
    const agentry::json::parsed dashboard = grafana_dashboard();
    REQUIRE(dashboard.ok());
    for (const std::string& query : grafana_queries(dashboard.value)) {
        const auto answer = prometheus.query(expanded(query));
        CHECK_MESSAGE(answer.starts_with(R"({"status":"success")"), query, ": ", answer);
    }
}

TEST_CASE("metrics over http: the example of docs/observability.md is this test") {
    // The block below is the first C++ block of the section "## Metrics", byte for byte.
    // clang-format off
agentry::metrics metrics{{
    .prices = {
        .models = {{"gpt-4o-mini", {.input_per_million = 0.15, .output_per_million = 0.60,
                                    .cached_input_per_million = 0.075}}},
        .per_call = {{"search_flights", 0.002}},  // dollars per call of a paid API
        .tool_tokens_model = "gpt-4o-mini",       // what tools' tokens cost (see below)
    },
}};

agentry::mcp::http_options http;  // <agentry/mcp/http.hpp>
http.metrics = &metrics;          // GET /metrics on the MCP HTTP server
    // clang-format on
    record(metrics, {"search_flights"});
    CHECK(metrics.snapshot().tools.at(0).cost == 0.002);
    CHECK(http.metrics_path == "/metrics");

    const std::string doc = read_file(std::string(AGENTRY_SOURCE_DIR) + "/docs/observability.md");
    const std::size_t section = doc.find("## Metrics\n");
    REQUIRE(section != std::string::npos);
    const std::size_t start = doc.find("```cpp\n", section) + 7;
    const std::string block = doc.substr(start, doc.find("```", start) - start);
    CHECK(read_file(std::string(AGENTRY_METRICS_TEST_DIR) + "/http.cpp").find(block) != std::string::npos);
}
