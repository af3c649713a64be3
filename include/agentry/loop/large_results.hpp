// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_LARGE_RESULTS_HPP
#define AGENTRY_LOOP_LARGE_RESULTS_HPP

// Tool results longer than loop_config::max_result_size, kept whole (large_result::page and
// large_result::summary; docs/large-results.md). The first layer of the call pipeline keeps a
// successful result over the cap, by its call id, for the rest of the run (in the step too,
// step::kept_result, so that a checkpoint holds it), and sends the model its first page, or a
// summary the model wrote, with a note saying how to read the pages: the built-in tool
// read_result, which the agent adds to the tools payload of every request. A page is at most
// max_result_size bytes, cut at a UTF-8 character boundary (a JSON result after a separator
// where one is near the end). A failure's text over the cap is cut, as with large_result::cut.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/tool.hpp>
#include <agentry/tool_result.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

/// The name of the built-in tool that reads the pages of a kept result.
inline constexpr std::string_view read_result_tool = "read_result";

/// The arguments of read_result.
struct read_result_arguments {
    std::string call_id;
    constrained<std::int64_t, minimum<1>> page;
    static constexpr auto docs = field_docs(
        "call_id", "The id of the tool call whose result was paged, as the note under that result gives it",
        "page", "The page to read, from 1 (the first page, sent with the result) to the number of pages the note gives");
};

namespace detail {

/// Declares read_result in every dialect; the agent answers its calls itself (result_keeper).
inline constexpr registry read_result_declaration{
    tool<"read_result", "Reads one page of a tool result that was too long to be sent whole. The note under that "
                        "result gives the call_id and the number of pages.">(
        +[](const read_result_arguments&) { return std::string(); })};

/// Where each page of `text` starts, cut at `size` bytes (at least one character) at UTF-8
/// boundaries, then text.size(). A JSON text (starting with '{' or '[') is cut after the last
/// ',' or newline of a page when that is in the page's second half, so that a number, a literal
/// or a short string is not split between pages.
AGENTRY_DECL std::vector<std::size_t> page_starts(std::string_view text, std::size_t size);

/// `text` as a JSON string.
AGENTRY_DECL std::string json_string(std::string_view text);

/// The note after the first page: `lead` (empty, or a sentence ending in "; ") first.
AGENTRY_DECL std::string first_page_note(std::string_view lead, std::string_view call_id, std::size_t total,
                                         std::size_t cap, std::size_t pages);
/// The note after a summary.
AGENTRY_DECL std::string summary_note(std::string_view call_id, std::size_t total, std::size_t cap,
                                      std::size_t pages);
/// The note after page `page` read with read_result.
AGENTRY_DECL std::string page_note(std::string_view call_id, std::size_t total, std::size_t page, std::size_t pages);
/// The instruction of a summary request.
AGENTRY_DECL std::string summary_instruction(std::size_t cap);

/// The results a run keeps, by call id (a later result of the same id replaces an earlier one),
/// and the answers of read_result. Safe from several threads.
class result_keeper {
public:
    explicit result_keeper(std::size_t page_size) noexcept : page_size_(page_size) {}

    /// Forgets the results kept so far and keeps those of `steps` (a run going on from them).
    AGENTRY_DECL void restart(std::span<const step> steps);
    AGENTRY_DECL void keep(std::string_view call_id, std::shared_ptr<const std::string> text);
    /// The answer of read_result to `arguments` (JSON text).
    AGENTRY_DECL tool_result read(std::string_view arguments) const;
    std::size_t page_size() const noexcept { return page_size_; }

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const std::string>, std::less<>> kept_;
    std::size_t page_size_;
};

/// The tools payload `Registry::definitions<D>()` with read_result's definition appended.
template <class D, class Registry>
struct payload_with_reader {
    static constexpr std::string_view base = Registry::template definitions<D>();
    static constexpr std::string_view reader = decltype(read_result_declaration)::template definitions<D>();
    static constexpr std::string_view head = D::kind == dialect_kind::gemini ? "[{\"functionDeclarations\":[" : "[";
    static constexpr std::string_view tail = D::kind == dialect_kind::gemini ? "]}]" : "]";
    static constexpr std::string_view entry = reader.substr(head.size(), reader.size() - head.size() - tail.size());
    static constexpr bool empty = base.size() == head.size() + tail.size();
    static constexpr std::size_t size = base.size() + entry.size() + (empty ? 0 : 1);
    static constexpr auto storage = [] {
        std::array<char, size + 1> text{};
        std::size_t at = 0;
        const auto put = [&](std::string_view s) {
            for (char c : s) text[at++] = c;
        };
        put(base.substr(0, base.size() - tail.size()));
        if (!empty) put(",");
        put(entry);
        put(tail);
        return text;
    }();
    static constexpr std::string_view view{storage.data(), size};
};

} // namespace detail

/// The layer that keeps results over the cap (the first of the pipeline when
/// loop_config::large_results is not large_result::cut).
class large_result_layer final : public call_layer {
public:
    /// One model turn for a summary; empty: results are paged.
    using summarise_fn = std::function<turn_result(const chat_request&)>;

    large_result_layer(std::shared_ptr<detail::result_keeper> keeper, std::size_t cap, summarise_fn summarise)
        : keeper_(std::move(keeper)), cap_(cap), summarise_(std::move(summarise)) {}
    AGENTRY_DECL tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    AGENTRY_DECL std::optional<std::string> summary_of(const tool_invocation& call, const std::string& whole,
                                                       std::string& why) const;

    std::shared_ptr<detail::result_keeper> keeper_;
    std::size_t cap_;
    summarise_fn summarise_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/large_results.ipp>
#endif

#endif
