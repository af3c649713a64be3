// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_DURABLE_FIXTURE_HPP
#define AGENTRY_TESTS_DURABLE_FIXTURE_HPP

// What the durable tests and benchmark run: a scripted model that answers from the
// conversation alone (so that any process can take a run over), two tools that write their
// effects to an SQLite file, and kill points where a process stops (tells the test through a
// pipe, then waits to be killed).
//
// A run's user message is its job name. Turn 1 calls charge (not idempotent: each call adds a
// row) and note (idempotent: a call adds or updates one row per job and call); turn 2 answers
// "done <job>: <the tool results>".

#include "../loop/scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace durable_test {

/// The effects file; empty: the tools write nothing (the benchmark).
inline std::string effects_path;
/// Where this process stops: "model:1", "model:2", "tool:charge", "tool:note", or empty.
inline std::string kill_point;
/// The pipe the process writes a byte to when it stops at kill_point.
inline int notify_fd = -1;

inline void stop_if(std::string_view point) {
    if (kill_point.empty() || kill_point != point) return;
    const char byte = 'k';
    if (::write(notify_fd, &byte, 1) != 1) std::abort();
    for (;;) ::pause();  // until SIGKILL
}

/// Runs `sql` on the effects file (made with its tables when missing); throws on failure.
inline void effects_exec(const std::string& sql) {
    if (effects_path.empty()) return;
    sqlite3* db = nullptr;
    if (sqlite3_open(effects_path.c_str(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("cannot open the effects file " + effects_path);
    }
    sqlite3_busy_timeout(db, 60'000);
    const std::string all = "CREATE TABLE IF NOT EXISTS charges(job TEXT, call TEXT);"
                            "CREATE TABLE IF NOT EXISTS notes(job TEXT, call TEXT, runs INTEGER, PRIMARY KEY(job, call));"
                            "CREATE TABLE IF NOT EXISTS unknowns(job TEXT, call TEXT);"
                            "CREATE TABLE IF NOT EXISTS finished(job TEXT, worker TEXT);" +
                            sql;
    char* error = nullptr;
    const int rc = sqlite3_exec(db, all.c_str(), nullptr, nullptr, &error);
    const std::string why = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    if (rc != SQLITE_OK) throw std::runtime_error("effects: " + why);
}

/// The first integer `sql` gives on the effects file.
inline long long effects_count(const std::string& sql) {
    effects_exec("");
    sqlite3* db = nullptr;
    sqlite3_open(effects_path.c_str(), &db);
    sqlite3_busy_timeout(db, 60'000);
    sqlite3_stmt* s = nullptr;
    long long n = -1;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

inline std::string sql_text(std::string_view text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

inline std::string charge(std::string job, int cents) {
    effects_exec("INSERT INTO charges VALUES(" + sql_text(job) + ", 'c1');");
    stop_if("tool:charge");
    return "charged " + std::to_string(cents) + " cents";
}

inline std::string note(std::string job, std::string text) {
    effects_exec("INSERT INTO notes VALUES(" + sql_text(job) + ", 'c2', 1) ON CONFLICT(job, call) DO UPDATE SET runs = runs + 1;");
    stop_if("tool:note");
    return "noted: " + text;
}

inline constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write}>(
        agentry::tool<"charge", "Charges the job's account", "job", "cents">(charge)),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .idempotent = true}>(
        agentry::tool<"note", "Writes a note on the job", "job", "text">(note)),
};

/// The reply to `messages` (see the top of this file).
inline agentry::turn_result reply(const std::vector<agentry::message>& messages) {
    std::string job;
    bool answered = false;
    std::string results;
    for (const agentry::message& m : messages) {
        if (m.role == agentry::role::user && job.empty()) job = m.text;
        if (m.role == agentry::role::assistant) answered = true;
        if (m.role == agentry::role::tool) results += (results.empty() ? "" : "; ") + m.text;
    }
    if (!answered) {
        stop_if("model:1");
        return scripted::calls({scripted::call("c1", "charge", R"({"job":")" + job + R"(","cents":250})"),
                                scripted::call("c2", "note", R"({"job":")" + job + R"(","text":"charged"})")});
    }
    stop_if("model:2");
    return scripted::answer("done " + job + ": " + results);
}

/// The scripted model: request() keeps the conversation, parse() answers it with `replies`
/// (reply above, unless a test gives another).
struct job_model {
    using dialect = agentry::dialect::openai;
    std::shared_ptr<std::vector<agentry::message>> seen = std::make_shared<std::vector<agentry::message>>();
    agentry::turn_result (*replies)(const std::vector<agentry::message>&) = &reply;

    agentry::http_request request(const agentry::chat_request& r) const {
        seen->assign(r.messages.begin(), r.messages.end());
        return {};
    }
    agentry::turn_result parse(const agentry::http_response&) const { return replies(*seen); }

    struct stream {
        const job_model* m;
        void feed(std::string_view) {}
        agentry::turn_result finish(const agentry::http_response&) { return m->replies(*m->seen); }
    };
    stream start_stream(agentry::stream_events) const { return {this}; }
};

inline constexpr agentry::loop_config config{.max_turns = 4};
using job_agent = agentry::agent<config>;

/// `options` with the system prompt "You run jobs.".
inline agentry::agent_options job_options(agentry::agent_options options) {
    options.system_prompt = "You run jobs.";
    return options;
}

inline std::unique_ptr<job_agent> make_agent(agentry::agent_options options = {}) {
    return std::make_unique<job_agent>(job_model{}, tools, job_options(std::move(options)), scripted::quiet_transport{});
}

/// The same tools, charge needing approval: a run without an approver stops before turn 1's
/// calls (stop_reason::approval_pending) until it is given decisions.
inline constexpr agentry::registry approval_tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"charge", "Charges the job's account", "job", "cents">(charge)),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .idempotent = true}>(
        agentry::tool<"note", "Writes a note on the job", "job", "text">(note)),
};
inline std::unique_ptr<job_agent> make_approval_agent(agentry::agent_options options = {}) {
    return std::make_unique<job_agent>(job_model{}, approval_tools, job_options(std::move(options)),
                                       scripted::quiet_transport{});
}

} // namespace durable_test

#endif
