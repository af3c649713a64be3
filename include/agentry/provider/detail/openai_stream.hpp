// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_STREAM_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_STREAM_HPP

// The assembler of a streamed Chat Completion (agentry::openai::stream), declared: its
// definitions are in provider/impl/openai.ipp, with the JSON reading they need. Holds the
// error fields an OpenAI-style body carries (classified by detail/openai_errors.hpp).

#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

namespace openai_wire {
struct message_in;
} // namespace openai_wire

namespace openai_impl {

/// The error an OpenAI-style body carries, if any.
struct error_fields {
    bool present = false;
    std::string message;
    std::string type;
    std::string code;
    /// The code when it is a number (llama.cpp and vLLM put the HTTP status there).
    int numeric_code = 0;

    /// provider_error::type: the code when it is a word, else the type.
    std::string label() const { return !code.empty() && numeric_code == 0 ? code : type; }
};

} // namespace openai_impl

/// The assembler of a streamed Chat Completion: feed() the body in any split, then finish().
class openai_stream {
public:
    explicit openai_stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : parser_(max_event), events_(std::move(events)) {}

    void feed(std::string_view bytes);

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head);

private:
    // How a server sends a call's arguments, once known: each delta the next piece, or the
    // whole text so far.
    enum class sending { unknown, pieces, whole };

    struct partial {
        std::optional<std::int64_t> index;
        std::string id;
        std::string name;
        std::string arguments;
        bool announced = false;
        sending mode = sending::unknown;
        // The id on_tool_call was given, and how much of the arguments on_tool_arguments has had.
        std::string announced_id;
        std::size_t given = 0;
    };

    bool stopped() const noexcept { return done_ || error_ || !unreadable_.empty() || parser_.overflowed(); }

    void on_event(const sse_event& e);
    void on_delta(openai_wire::message_in& d);
    // The call a delta belongs to, a new one when it starts one.
    partial& target(std::optional<std::int64_t> index, std::string_view id, std::string_view name);
    void merge(std::optional<std::int64_t> index, std::string_view id, std::string_view name,
               std::string_view arguments);
    // Gives on_tool_arguments the arguments `p` gained since the last piece, once it is announced
    // and its text so far is not only white space (which would become "{}").
    void give(partial& p);

    sse_parser parser_;
    stream_events events_;
    std::vector<partial> calls_;
    std::string text_;
    std::string refusal_;
    std::string finish_;
    token_usage usage_;
    std::optional<openai_impl::error_fields> error_;
    std::string unreadable_;
    std::size_t event_count_ = 0;
    bool done_ = false;
};

} // namespace agentry::detail

#endif
