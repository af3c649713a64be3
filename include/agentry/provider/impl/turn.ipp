// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_TURN_IPP
#define AGENTRY_PROVIDER_IMPL_TURN_IPP

// The body of complete(): included by provider/provider.hpp (header-only) or by
// provider/src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/redact.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL turn_result complete_turn(const turn_parts& parts, const assembler_ref* assembler,
                                       const chat_request& request, const trace_hook& trace) noexcept {
    try {
        if (parts.refuse != nullptr)
            if (std::optional<provider_error> refused = parts.refuse(parts.provider, request))
                return {std::nullopt, std::move(*refused)};
        http_request http = parts.request(parts.provider, request);
        if (request.cancel != nullptr) http.cancel = request.cancel;
        if (request.trace.valid()) http.headers.push_back({"traceparent", request.trace.traceparent()});
        const std::vector<std::string> secrets = secrets_of(http);
        if (std::optional<provider_error> refused = refuse_plain_http(http)) return {std::nullopt, std::move(*refused)};
        const std::size_t limit = http.max_body;
        const auto over = [&](std::size_t size) { return limit != 0 && size > limit; };
        turn_result out;
        transport_result r;
        bool ok_stream = false;
        std::string streamed;
        if (assembler == nullptr) {
            r = parts.send(parts.transport, http);
            if (!r.ok()) out = {std::nullopt, transport_failure(r.error)};
            else if (over(r.response.body.size())) out = {std::nullopt, too_large("the response body", limit)};
            else out = parts.parse(parts.provider, r.response);
        } else {
            stream_handlers handlers;
            handlers.on_head = [](const http_response&) { return true; };
            std::size_t received = 0;
            bool passed = false;
            bool overflowed = false;
            handlers.on_chunk = [&](std::string_view bytes) {
                received += bytes.size();
                if (over(received)) {
                    passed = true;
                    return false;
                }
                if (trace) streamed.append(bytes);
                assembler->feed(assembler->self, bytes);
                if (assembler->overflowed != nullptr) overflowed = assembler->overflowed(assembler->self);
                return !overflowed;
            };
            r = parts.stream(parts.transport, http, handlers);
            ok_stream = r.response.status >= 200 && r.response.status <= 299;
            if (passed || (!ok_stream && over(r.response.body.size())))
                out = {std::nullopt, too_large("the response body", limit)};
            else if (overflowed) out = assembler->finish(assembler->self, r.response);
            else if (!r.ok()) out = {std::nullopt, transport_failure(r.error)};
            else if (!ok_stream) out = parts.parse(parts.provider, r.response);
            else out = assembler->finish(assembler->self, r.response);
        }
        if (!out.ok()) {
            redact_all(out.error.message, secrets);
            redact_all(out.error.type, secrets);
        }
        if (trace) {
            trace_record record{redacted(std::move(http)), std::move(r.response), std::move(r.error)};
            if (ok_stream) record.response.body = std::move(streamed);
            redact_all(record.response.body, secrets);
            for (http_header& h : record.response.headers) redact_all(h.value, secrets);
            redact_all(record.error.message, secrets);
            try {
                trace(record);
            } catch (...) {  // a failing hook does not fail the turn
            }
        }
        return out;
    } catch (...) {
        return turn_thrown();
    }
}

AGENTRY_DECL turn_result turn_thrown() noexcept {
    try {
        throw;
    } catch (const std::exception& e) {
        return {std::nullopt, malformed(std::string("agentry: ") + e.what())};
    } catch (...) {
        return {std::nullopt, malformed("agentry: unknown exception")};
    }
}

} // namespace agentry::detail

#endif
