// SPDX-License-Identifier: BSL-1.0
// The benchmark's agentry server: one tool, `quote`, that takes a struct of 5 fields and returns
// a struct, served over Streamable HTTP on 127.0.0.1.
//
//   agentry_mcp_http_bench PORT [THREADS]
//
// The limits admit 256 connections and 1,000 sessions from one client address (the defaults
// are 64 connections, 256 sessions and 32 sessions per address).
#include <agentry/agentry.hpp>
#include <agentry/mcp/http.hpp>

#include <cstdlib>
#include <string>

struct order {
    std::string customer;
    std::string sku;
    int quantity;
    double unit_price;
    bool express;
};

struct quote {
    std::string customer;
    std::string sku;
    int quantity;
    double total;
    bool express;
};

// Reports progress once: a request with a progressToken is then answered with an SSE stream.
quote price(const order& o, agentry::progress p) {
    p.report(1, 1);
    const double total = o.quantity * o.unit_price + (o.express ? 10.0 : 0.0);
    return {o.customer, o.sku, o.quantity, total, o.express};
}

constexpr agentry::registry tools{agentry::tool<"quote", "Price an order">(price)};

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const agentry::mcp::server server{tools, {.name = "bench", .version = "1.0.0"}};
    agentry::mcp::http_options options;
    options.port = static_cast<unsigned short>(std::atoi(argv[1]));
    options.threads = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 2;
    options.max_connections = 1024;
    options.max_sessions = 2048;
    options.max_sessions_per_client = 2048;
    return agentry::mcp::serve_http(server, options);
}
