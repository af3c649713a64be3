// SPDX-License-Identifier: BSL-1.0
// An agent with a destructive tool behind human approval, both ways. The model is replayed from
// recorded OpenAI replies, so that the example runs without a network.
// 1. With an approver: the model asks to delete two files; the approver allows deletions under
//    tmp/ and refuses the others; the model reads the denial and answers.
// 2. Without one: the run stops with the call pending; the conversation is saved, restored in
//    another agent (as another process would), and resumed with the decision, bound to the
//    call's exact arguments.
#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <cstddef>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

std::set<std::string> files{"tmp/cache.bin", "notes.txt"};

std::string delete_file(const std::string& path) {
    return files.erase(path) != 0 ? "deleted " + path : "no such file: " + path;
}

std::vector<std::string> list_files() { return {files.begin(), files.end()}; }

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only}>(
        agentry::tool<"list_files", "Lists the files">(list_files)),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive,
                                              .needs_approval = true,
                                              .rate = {.calls = 10, .per_ms = 60'000}}>(
        agentry::tool<"delete_file", "Deletes one file for good", "path">(delete_file)),
};

// Only read-only tools run without a person's approval; delete_file needs it, so this compiles.
constexpr agentry::loop_config config{.max_turns = 4, .max_permission = agentry::permission::read_only};

// Answers each request with the next recorded reply.
struct replay {
    std::vector<std::string> replies;
    std::size_t next = 0;

    agentry::transport_result send(const agentry::http_request&) {
        const std::string body = next < replies.size() ? replies[next++] : replies.back();
        return {{200, {}, body}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

// The decision a person would take on a pending call.
agentry::approval decide_on(const agentry::pending_call& call) {
    const bool temporary = call.arguments.starts_with(R"({"path":"tmp/)");
    return temporary ? agentry::approval::approve() : agentry::approval::deny("only files under tmp/ may go");
}

int with_approver() {
    replay model_replies{{
        R"({"choices":[{"message":{"role":"assistant","content":"I will delete both files.","tool_calls":[)"
        R"({"id":"c1","type":"function","function":{"name":"delete_file","arguments":"{\"path\": \"tmp/cache.bin\"}"}},)"
        R"({"id":"c2","type":"function","function":{"name":"delete_file","arguments":"{\"path\": \"notes.txt\"}"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":40}})",
        R"({"choices":[{"message":{"role":"assistant","content":"I deleted tmp/cache.bin; notes.txt was kept, )"
        R"(as you asked."},"finish_reason":"stop"}],"usage":{"prompt_tokens":90,"completion_tokens":20}})",
    }};
    const agentry::approver ask = [](const agentry::approval_request& call) {
        // A real application asks a person here; this one has a rule.
        const bool temporary = call.arguments.find(R"("path":"tmp/)") != std::string_view::npos;
        std::printf("approval: %.*s %.*s (the model said: %.*s) -> %s\n", int(call.tool.size()), call.tool.data(),
                    int(call.arguments.size()), call.arguments.data(), int(call.model_text.size()),
                    call.model_text.data(), temporary ? "approved" : "denied");
        return temporary ? agentry::approval::approve() : agentry::approval::deny("only files under tmp/ may go");
    };
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools,
                                 {.system_prompt = "You tidy up files.", .approver = ask}, model_replies};

    const agentry::run_result result = agent.run("Clean up my files.");
    for (const agentry::step& s : result.steps)
        std::printf("step: %s %s -> %.*s\n", s.tool.c_str(), s.arguments.c_str(),
                    int(agentry::to_string(s.status).size()), agentry::to_string(s.status).data());
    std::printf("answer: %s\n", result.text.c_str());
    std::printf("left: %zu file(s)\n", files.size());
    return result.stop == agentry::stop_reason::completed && files.size() == 1 ? 0 : 1;
}

int pause_and_resume() {
    files = {"tmp/old.log", "notes.txt"};
    std::string saved;
    {
        replay first{{
            R"({"choices":[{"message":{"role":"assistant","content":"Removing the old log.","tool_calls":[)"
            R"({"id":"c3","type":"function","function":{"name":"delete_file","arguments":"{\"path\": \"tmp/old.log\"}"}}]},)"
            R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":30}})",
        }};
        agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "You tidy up files.", first};
        const agentry::run_result paused = agent.run("Remove the old log.");
        std::printf("paused: %.*s\n", int(agentry::to_string(paused.stop).size()), agentry::to_string(paused.stop).data());
        for (const agentry::pending_call& call : paused.pending)
            std::printf("pending: %s %s %s (the model said: %s)\n", call.call_id.c_str(), call.tool.c_str(),
                        call.arguments.c_str(), call.model_text.c_str());
        if (paused.stop != agentry::stop_reason::approval_pending || paused.pending.size() != 1) return 1;
        saved = agent.save();  // the pending call is part of the conversation saved
    }
    // Later, perhaps in another process: a new agent restores the conversation and resumes.
    replay second{{
        R"({"choices":[{"message":{"role":"assistant","content":"The old log is gone."},"finish_reason":"stop"}],)"
        R"("usage":{"prompt_tokens":80,"completion_tokens":10}})",
    }};
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "You tidy up files.", second};
    if (!agent.restore(saved)) return 1;
    std::vector<agentry::approval_decision> decisions;
    for (const agentry::pending_call& call : agent.pending_approvals()) {
        const agentry::approval answer = decide_on(call);
        std::printf("decision: %s %s -> %s\n", call.call_id.c_str(), call.arguments.c_str(),
                    answer.kind == agentry::approval_kind::approve ? "approved" : "denied");
        decisions.push_back(agentry::decide(call, answer));
    }
    const agentry::run_result result = agent.run(agentry::approvals{decisions});
    for (const agentry::step& s : result.steps)
        std::printf("step: %s %s -> %.*s\n", s.tool.c_str(), s.arguments.c_str(),
                    int(agentry::to_string(s.status).size()), agentry::to_string(s.status).data());
    std::printf("answer: %s\n", result.text.c_str());
    std::printf("left: %zu file(s)\n", files.size());
    return result.stop == agentry::stop_reason::completed && files.size() == 1 ? 0 : 1;
}

int main() { return with_approver() != 0 || pause_and_resume() != 0 ? 1 : 0; }
