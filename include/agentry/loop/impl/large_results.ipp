// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_LARGE_RESULTS_IPP
#define AGENTRY_LOOP_IMPL_LARGE_RESULTS_IPP

// The definitions of loop/large_results.hpp.

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/large_results.hpp>
#include <agentry/tool/detail/invoke.hpp>

#include <exception>
#include <utility>

namespace agentry {

namespace detail {

AGENTRY_DECL std::vector<std::size_t> page_starts(std::string_view text, std::size_t size) {
    std::vector<std::size_t> starts{0};
    const bool json = !text.empty() && (text.front() == '{' || text.front() == '[');
    for (std::size_t at = 0; at < text.size();) {
        const std::string_view rest = text.substr(at);
        std::size_t n = utf8_cut(rest, size);
        if (n == 0) {  // a page smaller than the character: the character alone
            n = 1;
            while (n < rest.size() && (static_cast<unsigned char>(rest[n]) & 0xC0) == 0x80) ++n;
        }
        if (json && n < rest.size()) {  // after a separator in the page's second half, when there is one
            const std::size_t separator = rest.substr(0, n).find_last_of(",\n");
            if (separator != std::string_view::npos && separator >= n / 2) n = separator + 1;
        }
        at += n;
        starts.push_back(at);
    }
    if (starts.size() == 1) starts.push_back(0);
    return starts;
}

AGENTRY_DECL std::string json_string(std::string_view text) {
    std::string out;
    json::write(out, text);
    return out;
}

AGENTRY_DECL std::string first_page_note(std::string_view lead, std::string_view call_id, std::size_t total,
                                         std::size_t cap, std::size_t pages) {
    return "\n\n[agentry: " + std::string(lead) + "this result is " + std::to_string(total) +
           " bytes, longer than the " + std::to_string(cap) + " bytes sent at once: above is page 1 of " +
           std::to_string(pages) + ". Read the others with the tool read_result, arguments {\"call_id\":" +
           detail::json_string(call_id) + ",\"page\":2} and so on up to " + std::to_string(pages) + ".]";
}

AGENTRY_DECL std::string summary_note(std::string_view call_id, std::size_t total, std::size_t cap,
                                      std::size_t pages) {
    return "\n\n[agentry: above is a summary, written by the model, of this result of " + std::to_string(total) +
           " bytes, longer than the " + std::to_string(cap) + " bytes sent at once. The whole result is kept in " +
           std::to_string(pages) + " pages: read them with the tool read_result, arguments {\"call_id\":" +
           detail::json_string(call_id) + ",\"page\":1} and so on up to " + std::to_string(pages) + ".]";
}

AGENTRY_DECL std::string page_note(std::string_view call_id, std::size_t total, std::size_t page, std::size_t pages) {
    return "\n\n[agentry: page " + std::to_string(page) + " of " + std::to_string(pages) + " of the result of call " +
           detail::json_string(call_id) + " (" + std::to_string(total) + " bytes); " +
           (page < pages ? "the next is page " + std::to_string(page + 1) + ".]" : std::string("it is the last page.]"));
}

AGENTRY_DECL std::string summary_instruction(std::size_t cap) {
    return "Summarise the tool result in the next message for the assistant that called the tool, in at most " +
           std::to_string(cap) +
           " bytes. Keep what it needs to go on: names, numbers, identifiers, errors, and where in the result "
           "the details are. Answer with the summary only.";
}

AGENTRY_DECL void result_keeper::restart(std::span<const step> steps) {
    std::map<std::string, std::shared_ptr<const std::string>, std::less<>> kept;
    for (const step& s : steps)
        if (!s.kept_result.empty()) kept[s.id] = std::make_shared<const std::string>(s.kept_result);
    std::lock_guard lock(mutex_);
    kept_ = std::move(kept);
}

AGENTRY_DECL void result_keeper::keep(std::string_view call_id, std::shared_ptr<const std::string> text) {
    std::lock_guard lock(mutex_);
    kept_.insert_or_assign(std::string(call_id), std::move(text));
}

AGENTRY_DECL tool_result result_keeper::read(std::string_view arguments) const {
    tool_result out;
    json::read_result<read_result_arguments> args = json::read<read_result_arguments>(arguments);
    if (!args.ok()) {
        set_invalid(out, read_result_tool, args.errors);
        return out;
    }
    const std::string& id = args.value.call_id;
    std::shared_ptr<const std::string> text;
    {
        std::lock_guard lock(mutex_);
        if (const auto found = kept_.find(id); found != kept_.end()) text = found->second;
    }
    out.status = tool_status::tool_error;
    if (!text) {
        out.failure = failure_kind::not_found;
        out.content = "agentry: read_result: no result of call " + detail::json_string(id) +
                      " is kept in this run; give the call_id of a note that says a result is paged";
        return out;
    }
    const std::vector<std::size_t> starts = page_starts(*text, page_size_);
    const std::size_t pages = starts.size() - 1;
    const std::int64_t page = args.value.page;
    if (static_cast<std::uint64_t>(page) > pages) {
        out.failure = failure_kind::invalid_input;
        out.content = "agentry: read_result: page " + std::to_string(page) + " is out of range; the result of call " +
                      detail::json_string(id) + " has pages 1 to " + std::to_string(pages);
        return out;
    }
    const auto p = static_cast<std::size_t>(page);
    out.status = tool_status::ok;
    out.content.assign(*text, starts[p - 1], starts[p] - starts[p - 1]);
    out.content += page_note(id, text->size(), p, pages);
    return out;
}

} // namespace detail

AGENTRY_DECL tool_result large_result_layer::call(tool_invocation& call, const call_chain& next) const {
    tool_result out = next(call);
    if (out.content.size() <= cap_ || call.call.name == read_result_tool) return out;
    if (!out.ok()) {
        if (detail::cut_text(out.content, cap_)) out.truncated = true;
        return out;
    }
    auto whole = std::make_shared<const std::string>(std::move(out.content));
    const std::vector<std::size_t> starts = detail::page_starts(*whole, cap_);
    const std::size_t pages = starts.size() - 1;
    if (call.record) call.record->kept_result = *whole;
    keeper_->keep(call.call.id, whole);
    out.content_blocks = false;
    std::string lead;
    if (summarise_) {
        std::string why;
        if (std::optional<std::string> summary = summary_of(call, *whole, why)) {
            out.content = std::move(*summary) + detail::summary_note(call.call.id, whole->size(), cap_, pages);
            return out;
        }
        lead = "no summary of this result could be written (" + why + "), so it is paged instead; ";
    }
    out.content.assign(*whole, 0, starts[1]);
    out.content += detail::first_page_note(lead, call.call.id, whole->size(), cap_, pages);
    return out;
}

AGENTRY_DECL std::optional<std::string> large_result_layer::summary_of(const tool_invocation& call,
                                                                       const std::string& whole,
                                                                       std::string& why) const {
    const std::vector<message> messages{message::system(detail::summary_instruction(cap_)),
                                        message::user("The result of the tool " + call.call.name + ":\n\n" + whole)};
    chat_request request;
    request.messages = messages;
    request.cancel = call.run ? call.run->cancel : nullptr;
    turn_result turn;
    try {
        turn = summarise_(request);
    } catch (const std::exception& e) {
        why = e.what();
        return std::nullopt;
    }
    if (!turn.ok()) {
        why = turn.error.message;
        return std::nullopt;
    }
    std::string& text = turn.value->reply.text;
    if (detail::trim(text).empty()) {
        why = "the model's summary was empty";
        return std::nullopt;
    }
    if (text.size() > cap_) {
        why = "the model's summary was " + std::to_string(text.size()) + " bytes, longer than the cap";
        return std::nullopt;
    }
    return std::move(text);
}

} // namespace agentry

#endif
