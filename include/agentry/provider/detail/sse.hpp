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
#include <cstdint>
#include <cstring>
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
        const char* p = bytes.data();
        const char* const end = p + bytes.size();
        while (p != end && !overflowed_) {
            if (after_cr_) {
                after_cr_ = false;
                if (*p == '\n' && ++p == end) return;
            }
            const char* stop = line_break(p, end);
            if (std::size_t(stop - p) > max_ - line_.size()) {
                overflowed_ = true;
                return;
            }
            if (stop == end) {
                line_.append(p, std::size_t(stop - p));
                return;
            }
            // A whole line: read where it is when nothing of it came before.
            if (line_.empty()) {
                line_end(std::string_view(p, std::size_t(stop - p)), on_event);
            } else {
                line_.append(p, std::size_t(stop - p));
                line_end(std::string_view(line_), on_event);
                line_.clear();
            }
            after_cr_ = *stop == '\r';
            p = stop + 1;
        }
    }

    /// Whether bytes of an unfinished event are pending (the stream was cut mid-event).
    bool pending() const noexcept { return !line_.empty() || has_data_ || !event_.name.empty(); }

    /// A line or an event passed max_event bytes; nothing more is read.
    bool overflowed() const noexcept { return overflowed_; }
    std::size_t max_event() const noexcept { return max_; }

private:
    // The first '\r' or '\n' at or after p, or end; eight bytes at a time while none of them
    // is below 0x0E.
    static const char* line_break(const char* p, const char* end) noexcept {
        constexpr std::uint64_t ones = 0x0101010101010101ull;
        constexpr std::uint64_t highs = 0x8080808080808080ull;
        while (end - p >= 8) {
            std::uint64_t word;
            std::memcpy(&word, p, 8);
            if (((word - ones * 0x0E) & ~word & highs) != 0) break;
            p += 8;
        }
        while (p != end && *p != '\r' && *p != '\n') ++p;
        return p;
    }

    // A line without its end: an empty one dispatches the event.
    template <class OnEvent>
    void line_end(std::string_view line, OnEvent& on_event) {
        if (line.empty()) {
            if (has_data_) on_event(static_cast<const sse_event&>(event_));
            event_.name.clear();
            event_.data.clear();
            has_data_ = false;
            return;
        }
        const std::size_t colon = line.find(':');
        if (colon == 0) return;
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
