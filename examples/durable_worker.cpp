// SPDX-License-Identifier: BSL-1.0
// A worker of durable runs: it takes runs from a store, runs each to the end with
// checkpoints, and finishes it. Start several, kill some: the runs still end, each once.
// Booking needs a person's approval: a run that wants to book waits in the store, taken by no
// worker, until someone approves (in any process); then a worker finishes it.
//
//   durable_worker runs.db enqueue 10      queue 10 runs in an SQLite file
//   durable_worker runs.db work            run them until none is runnable (they wait to book)
//   durable_worker runs.db approve         approve every booking waiting
//   durable_worker 'postgresql://localhost/agents' work   the same with PostgreSQL
//   durable_worker runs.db                 queue 3 runs, work, approve, work (what ctest does)
//
// The model is a stand-in that answers from the conversation it is sent (the OpenAI wire
// format, without a network), so any worker can take a run over at any point.
#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/sqlite.hpp>
#include <agentry/store/worker.hpp>
#if defined(EXAMPLE_WITH_POSTGRES)
#include <agentry/store/postgres.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

std::string find_table(std::string city) { return "Chez Anna, " + city + ", has a table at 20:00"; }
std::string book_table(std::string restaurant) { return "booked at " + restaurant; }

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only, .idempotent = true}>(
        agentry::tool<"find_table", "Finds a free table in a city", "city">(find_table)),
    // Not idempotent: after a crash during a booking, the model is told the outcome is unknown.
    // Needs approval: with no approver, the run stops before booking and waits for a decision.
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"book_table", "Books a table", "restaurant">(book_table)),
};

// The stand-in model: the first turn looks for a table, the second books it, the third answers.
struct stand_in {
    agentry::transport_result send(const agentry::http_request& request) {
        const std::string_view body = request.body;
        std::string reply;
        if (body.find("booked at") != std::string_view::npos)
            reply = R"({"message":{"role":"assistant","content":"Your table at Chez Anna is booked."},)"
                    R"("finish_reason":"stop"})";
        else if (body.find("has a table") != std::string_view::npos)
            reply = R"({"message":{"role":"assistant","content":null,"tool_calls":[{"id":"b1","type":"function",)"
                    R"("function":{"name":"book_table","arguments":"{\"restaurant\":\"Chez Anna\"}"}}]},)"
                    R"("finish_reason":"tool_calls"})";
        else
            reply = R"({"message":{"role":"assistant","content":null,"tool_calls":[{"id":"f1","type":"function",)"
                    R"("function":{"name":"find_table","arguments":"{\"city\":\"Lyon\"}"}}]},)"
                    R"("finish_reason":"tool_calls"})";
        return {{200, {}, R"({"choices":[)" + reply + R"(],"usage":{"prompt_tokens":40,"completion_tokens":10}})"}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

constexpr agentry::loop_config config{.max_turns = 6};
using booking_agent = agentry::agent<config>;

std::unique_ptr<booking_agent> make_agent() {
    return std::make_unique<booking_agent>(agentry::openai{.model = "gpt-4o-mini"}, tools, "You book tables.",
                                           stand_in{});
}

// The person's side: every run waiting for a decision, its pending calls, one decision each.
template <agentry::run_store Store>
void approve_all(Store& store) {
    for (const std::string& id : store.runs(agentry::run_status::waiting)) {
        std::vector<agentry::approval_decision> decisions;
        for (const agentry::pending_call& call : agentry::pending_approvals(store, id)) {
            std::printf("run %s asks to run %s %s\n", id.c_str(), call.tool.c_str(), call.arguments.c_str());
            decisions.push_back(agentry::decide(call, agentry::approval::approve()));
        }
        try {
            agentry::decide_run(store, id, decisions);  // checkpointed; the run is runnable again
            std::printf("run %s: approved\n", id.c_str());
        } catch (const agentry::store_error& e) {  // decided meanwhile by someone else
            std::printf("run %s: %s\n", id.c_str(), e.what());
        }
    }
}

template <agentry::run_store Store, class Connect>
int work(Connect connect) {
    agentry::worker_options options;
    options.until_drained = true;
    options.durable.on_unknown_outcome = [](std::string_view run, const agentry::tool_call& call) {
        std::printf("run %.*s: the outcome of %s is unknown\n", int(run.size()), run.data(), call.name.c_str());
    };
    options.on_done = [](std::string_view run, const agentry::run_result& r) {
        if (r.stop == agentry::stop_reason::approval_pending)
            std::printf("run %.*s: waits for approval\n", int(run.size()), run.data());
        else
            std::printf("run %.*s: %s (%u turns)\n", int(run.size()), run.data(), r.text.c_str(), r.turns);
    };
    options.on_failure = [](std::string_view run, const agentry::store_error& e) {
        std::printf("run %.*s: left to another worker: %s\n", int(run.size()), run.data(), e.what());
    };
    const std::size_t done = agentry::run_worker<Store>(connect, make_agent, options);
    std::printf("finished %zu runs\n", done);
    return 0;
}

template <agentry::run_store Store, class Connect>
int serve(Connect connect, std::string_view command, int count) {
    if (command == "work") return work<Store>(connect);
    Store store = connect();
    if (command == "approve") {
        approve_all(store);
        return 0;
    }
    auto agent = make_agent();
    for (int i = 0; i != count; ++i)
        std::printf("queued %s\n", agentry::start_run(store, *agent, "A table for two in Lyon, please.").c_str());
    if (command == "enqueue") return 0;
    work<Store>(connect);
    approve_all(store);
    return work<Store>(connect);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: durable_worker <sqlite file | postgresql://...> [enqueue <n> | work | approve]\n");
        return 2;
    }
    const std::string where = argv[1];
    const std::string_view command = argc > 2 ? argv[2] : "demo";
    const int count = command == "enqueue" && argc > 3 ? std::atoi(argv[3]) : 3;
    try {
        if (where.starts_with("postgres")) {
#if defined(EXAMPLE_WITH_POSTGRES)
            return serve<agentry::postgres_store>(
                [&] { return agentry::postgres_store{{.conninfo = where}}; }, command, count);
#else
            std::fprintf(stderr, "this build has no PostgreSQL store (link agentry::postgres)\n");
            return 2;
#endif
        }
        return serve<agentry::sqlite_store>([&] { return agentry::sqlite_store{{.path = where}}; }, command, count);
    } catch (const agentry::store_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
