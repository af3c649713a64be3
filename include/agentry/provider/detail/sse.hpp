// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_SSE_HPP
#define AGENTRY_PROVIDER_DETAIL_SSE_HPP

// Incremental splitters for streamed bodies: Server-Sent Events (OpenAI, Anthropic, Gemini
// with alt=sse) and newline-delimited JSON (Ollama). Bytes go in with any split; complete
// events come out in order. Each holds at most `max_event` bytes of one line and of one
// event's data: past that it stops for good and overflowed() says so (a line that never
// ends, an event that never ends, data: lines without a blank line).

#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace agentry::detail {

/// One event of an SSE stream: its `event:` name (empty: "message") and its `data:` lines
/// joined by '\n'.
struct sse_event {
    std::string name;
    std::string data;
};

/// Feed bytes; `on_event(const sse_event&)` is called for each event once its blank line has
/// arrived. Lines end in \n, \r\n or \r; comments (":") and unknown fields are ignored.
class sse_parser {
public:
    explicit sse_parser(std::size_t max_event = response_limits{}.max_event) noexcept : max_(max_event) {}

    template <class OnEvent>
    void feed(std::string_view bytes, OnEvent&& on_event) {
        std::size_t i = 0;
        while (i != bytes.size() && !overflowed_) {
            const char c = bytes[i];
            if (after_cr_ && c == '\n') {
                after_cr_ = false;
                ++i;
                continue;
            }
            after_cr_ = c == '\r';
            if (c == '\r' || c == '\n') {
                line_end(on_event);
                ++i;
                continue;
            }
            // The rest of the line, appended at once.
            std::size_t end = i + 1;
            while (end != bytes.size() && bytes[end] != '\r' && bytes[end] != '\n') ++end;
            if (end - i > max_ - line_.size()) {
                overflowed_ = true;
                return;
            }
            line_.append(bytes.data() + i, end - i);
            i = end;
        }
    }

    /// Whether bytes of an unfinished event are pending (the stream was cut mid-event).
    bool pending() const noexcept { return !line_.empty() || has_data_ || !event_.name.empty(); }

    /// A line or an event passed max_event bytes; nothing more is read.
    bool overflowed() const noexcept { return overflowed_; }
    std::size_t max_event() const noexcept { return max_; }

private:
    template <class OnEvent>
    void line_end(OnEvent& on_event) {
        if (line_.empty()) {
            if (has_data_) on_event(static_cast<const sse_event&>(event_));
            event_.name.clear();
            event_.data.clear();
            has_data_ = false;
            return;
        }
        const std::string_view line = line_;
        const std::size_t colon = line.find(':');
        if (colon != 0) {
            const std::string_view field = line.substr(0, colon);
            std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
            if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
            if (field == "data") {
                if (event_.data.size() + value.size() + 1 > max_) {
                    overflowed_ = true;
                    return;
                }
                if (has_data_) event_.data.push_back('\n');
                event_.data.append(value);
                has_data_ = true;
            } else if (field == "event") {
                event_.name.assign(value);
            }
        }
        line_.clear();
    }

    std::size_t max_;
    std::string line_;
    sse_event event_;
    bool has_data_ = false;
    bool after_cr_ = false;
    bool overflowed_ = false;
};

/// Newline-delimited JSON: `on_line(std::string_view)` for each non-empty line.
class ndjson_parser {
public:
    explicit ndjson_parser(std::size_t max_line = response_limits{}.max_event) noexcept : max_(max_line) {}

    template <class OnLine>
    void feed(std::string_view bytes, OnLine&& on_line) {
        while (!bytes.empty() && !overflowed_) {
            const std::size_t newline = bytes.find('\n');
            const std::size_t piece = newline == std::string_view::npos ? bytes.size() : newline;
            if (piece > max_ - line_.size()) {
                overflowed_ = true;
                return;
            }
            line_.append(bytes.data(), piece);
            if (newline == std::string_view::npos) return;
            bytes.remove_prefix(newline + 1);
            if (!line_.empty() && line_.back() == '\r') line_.pop_back();
            if (!line_.empty()) on_line(std::string_view(line_));
            line_.clear();
        }
    }

    /// The last line, when the stream ended without a newline after it.
    std::string_view rest() const noexcept { return line_; }

    /// A line passed max_line bytes; nothing more is read.
    bool overflowed() const noexcept { return overflowed_; }
    std::size_t max_event() const noexcept { return max_; }

private:
    std::size_t max_;
    std::string line_;
    bool overflowed_ = false;
};

} // namespace agentry::detail

#endif
