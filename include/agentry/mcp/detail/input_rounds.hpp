// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_INPUT_ROUNDS_HPP
#define AGENTRY_MCP_DETAIL_INPUT_ROUNDS_HPP

// 2026-07-28's multi round-trip requests, for a stateless tools/call: a server cannot send a
// request to its client, so the call is answered with an InputRequiredResult holding the
// questions (`inputRequests`, by key) and the client calls again with the answers
// (`inputResponses`, by the same keys). The call runs again from its start, and each question
// it asks, in the same order, finds its answer: the n-th ask of a call has the key "input-<n>"
// (the approval has "approval"). The answers of earlier rounds come back in `requestState`,
// which is bound to the tool and its canonical arguments: answers sent without the state given
// for this tool and these arguments are not used, so an answer is never taken for a question
// about other arguments.
//
// requestState is "<binding>.<base64 of a JSON object of the answers so far>"; the binding is a
// 64-bit FNV-1a of the tool's name and arguments, in hex. The client answers every question
// anyway, so the state carries no secret and needs no signature.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/base64.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

// tools/call params as far as the rounds need them.
struct round_params {
    std::optional<std::map<std::string, raw_json, std::less<>>> inputResponses;
    std::optional<std::string> requestState;
};

class input_rounds {
public:
    /// The rounds of a call of `tool` with `arguments`, from its tools/call `params`; the views
    /// must outlive the rounds. Nothing is read until the call first asks.
    input_rounds(std::string_view tool, std::string_view arguments, std::string_view params) noexcept
        : tool_(tool), arguments_(arguments), params_(params) {}

    /// The key of the call's next question.
    std::string next_key() { return "input-" + std::to_string(++asked_); }

    /// The answer to the question `key` (a result, JSON text), when the client gave one.
    std::optional<std::string_view> answer(std::string_view key) {
        load();
        const auto it = answers_.find(key);
        if (it == answers_.end()) return std::nullopt;
        return std::string_view(it->second);
    }

    /// Asks `method` with `params` (a JSON object) under `key` in this round's answer.
    void ask(std::string_view key, std::string_view method, std::string_view params) {
        load();
        std::string request = R"({"method":)";
        json::write(request, method);
        request += R"(,"params":)";
        request += params;
        request += '}';
        questions_.emplace_back(std::string(key), std::move(request));
    }

    /// Some question has no answer yet: the call is answered with result().
    bool input_required() const noexcept { return !questions_.empty(); }

    /// The InputRequiredResult: the questions, and the answers so far in requestState.
    std::string result() const {
        std::string out = R"({"resultType":"input_required","inputRequests":{)";
        for (std::size_t i = 0; i != questions_.size(); ++i) {
            if (i != 0) out += ',';
            json::write(out, questions_[i].first);
            out += ':';
            out += questions_[i].second;
        }
        std::string answers = "{";
        for (const auto& [key, value] : answers_) {
            if (answers.size() != 1) answers += ',';
            json::write(answers, key);
            answers += ':';
            answers += value;
        }
        answers += '}';
        out += R"(},"requestState":)";
        json::write(out, binding_ + "." + base64(answers));
        out += '}';
        return out;
    }

private:
    // Reads the answers: those of earlier rounds from requestState, this round's from
    // inputResponses, both only with the state given for this tool and these arguments.
    void load() {
        if (loaded_) return;
        loaded_ = true;
        const std::optional<std::string> canonical = agentry::detail::canonical_json(arguments_);
        binding_ = bind(tool_, canonical ? std::string_view(*canonical) : arguments_);
        json::read_options reading;
        reading.max_size = params_.size();
        reading.max_depth = 128;
        reading.ignore_unknown_properties = true;
        auto read = json::read<round_params>(params_.empty() ? std::string_view("{}") : params_, reading);
        if (!read.ok()) return;
        const round_params& p = read.value;
        if (!p.requestState || p.requestState->size() <= binding_.size() || !p.requestState->starts_with(binding_) ||
            (*p.requestState)[binding_.size()] != '.')
            return;
        const auto text = decode_base64(std::string_view(*p.requestState).substr(binding_.size() + 1));
        if (!text) return;
        json::read_options options;
        options.max_size = text->size();
        if (auto earlier = json::read<std::map<std::string, raw_json, std::less<>>>(*text, options); earlier.ok())
            for (auto& [key, value] : earlier.value) answers_[key] = std::string(value.text());
        if (p.inputResponses)
            for (const auto& [key, value] : *p.inputResponses) answers_[key] = std::string(value.text());
    }

    static std::string bind(std::string_view tool, std::string_view canonical) {
        std::uint64_t h = 14695981039346656037ull;
        const auto mix = [&h](std::string_view text) {
            for (const char c : text) {
                h ^= static_cast<unsigned char>(c);
                h *= 1099511628211ull;
            }
        };
        mix(tool);
        mix(std::string_view("\0", 1));
        mix(canonical);
        std::string out;
        for (int shift = 60; shift >= 0; shift -= 4) out += "0123456789abcdef"[(h >> shift) & 0xf];
        return out;
    }

    std::string_view tool_;
    std::string_view arguments_;
    std::string_view params_;
    bool loaded_ = false;
    std::string binding_;
    std::map<std::string, std::string, std::less<>> answers_;
    std::vector<std::pair<std::string, std::string>> questions_;
    unsigned asked_ = 0;
};

} // namespace agentry::mcp::detail

#endif
