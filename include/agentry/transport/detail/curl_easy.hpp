// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_DETAIL_CURL_EASY_HPP
#define AGENTRY_TRANSPORT_DETAIL_CURL_EASY_HPP

// The libcurl side of agentry::curl_transport: the one-time global initialisation, a handle
// pair (an easy handle for the transfer, a multi handle that drives it and keeps the
// connection cache), the callbacks that fill a transport_result, and the error mapping.

#if !__has_include(<curl/curl.h>)
#error "agentry: transport/curl.hpp needs libcurl's headers (Debian: libcurl4-openssl-dev) and the agentry::curl CMake target"
#endif

#include <curl/curl.h>

#if LIBCURL_VERSION_NUM < 0x074200
#error "agentry: transport/curl.hpp needs libcurl 7.66 or later (curl_multi_poll)"
#endif

#include <agentry/transport/detail/response_head.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <string_view>

namespace agentry::detail {

/// curl_global_init, once per process and thread-safe (a function-local static). libcurl's
/// global state is kept until the process ends: curl_global_cleanup is never called.
inline bool curl_global_ready() noexcept {
    static const bool ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    return ready;
}

inline transport_error_kind curl_error_kind(CURLcode code) noexcept {
    switch (code) {
    case CURLE_OK: return transport_error_kind::none;
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT: return transport_error_kind::connect;
    case CURLE_OPERATION_TIMEDOUT: return transport_error_kind::timeout;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return transport_error_kind::reset;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_USE_SSL_FAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS: return transport_error_kind::tls;
    default: return transport_error_kind::other;
    }
}

/// An easy handle and the multi handle that drives it. The multi handle owns the connection
/// and DNS caches, so keeping the pair alive keeps connections open between requests.
struct curl_handles {
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
    /// CURLOPT_ERRORBUFFER: lives as long as the easy handle.
    char error[CURL_ERROR_SIZE] = {};

    curl_handles() noexcept {
        if (!curl_global_ready()) return;
        multi = curl_multi_init();
        easy = curl_easy_init();
    }
    curl_handles(const curl_handles&) = delete;
    curl_handles& operator=(const curl_handles&) = delete;
    ~curl_handles() {
        if (easy) curl_easy_cleanup(easy);
        if (multi) curl_multi_cleanup(multi);
    }

    bool valid() const noexcept { return multi && easy; }
};

/// A curl_slist freed on scope exit.
struct curl_header_list {
    curl_slist* list = nullptr;

    curl_header_list() = default;
    curl_header_list(const curl_header_list&) = delete;
    curl_header_list& operator=(const curl_header_list&) = delete;
    ~curl_header_list() { curl_slist_free_all(list); }

    bool append(const char* line) noexcept {
        curl_slist* next = curl_slist_append(list, line);
        if (!next) return false;
        list = next;
        return true;
    }
};

/// What the callbacks of one transfer write to.
struct curl_exchange {
    response_head head;
    /// stream(): the caller's handlers; send(): null.
    stream_handlers* handlers = nullptr;
    /// A handler returned false.
    bool stopped_by_handler = false;
    /// What a handler (or an allocation) threw; rethrown once the transfer is over.
    std::exception_ptr failure;
    /// The most body bytes to take (0: no limit), the bytes taken so far, and whether the
    /// body (or the head, past max_head bytes) went over.
    std::size_t max_body = 0;
    std::size_t received = 0;
    std::size_t head_bytes = 0;
    bool too_large = false;

    /// The head lines of one response, interim ones included, may take this many bytes.
    static constexpr std::size_t max_head = std::size_t(256) << 10;

    bool streaming_body() const noexcept {
        const int s = head.response().status;
        return handlers && head.complete() && s >= 200 && s <= 299;
    }
};

inline std::size_t curl_on_header(char* data, std::size_t size, std::size_t count, void* user) noexcept {
    curl_exchange& x = *static_cast<curl_exchange*>(user);
    const std::size_t n = size * count;
    x.head_bytes += n;
    if (x.head_bytes > curl_exchange::max_head) {
        x.too_large = true;
        return 0;
    }
    try {
        if (x.head.add_line(std::string_view(data, n)) && x.handlers && x.handlers->on_head &&
            !x.handlers->on_head(static_cast<const http_response&>(x.head.response()))) {
            x.stopped_by_handler = true;
            return 0;
        }
        return n;
    } catch (...) {
        x.failure = std::current_exception();
        return 0;
    }
}

inline std::size_t curl_on_body(char* data, std::size_t size, std::size_t count, void* user) noexcept {
    curl_exchange& x = *static_cast<curl_exchange*>(user);
    const std::size_t n = size * count;
    if (n == 0) return 0;
    x.received += n;
    if (x.max_body != 0 && x.received > x.max_body) {
        x.too_large = true;
        return 0;
    }
    try {
        if (!x.streaming_body()) {
            x.head.response().body.append(data, n);
        } else if (x.handlers->on_chunk && !x.handlers->on_chunk(std::string_view(data, n))) {
            x.stopped_by_handler = true;
            return 0;
        }
        return n;
    } catch (...) {
        x.failure = std::current_exception();
        return 0;
    }
}

struct curl_outcome {
    CURLcode code = CURLE_OK;
    /// Set when the multi interface itself failed.
    CURLMcode multi_code = CURLM_OK;
    /// http_request::cancel was seen set.
    bool cancelled = false;
};

/// Runs the transfer configured on h.easy to its end, or until *cancel is set (checked at
/// least every 50 ms while the transfer waits for the network).
inline curl_outcome curl_drive(curl_handles& h, const std::atomic<bool>* cancel) noexcept {
    curl_outcome out;
    out.multi_code = curl_multi_add_handle(h.multi, h.easy);
    if (out.multi_code != CURLM_OK) return out;
    for (;;) {
        int running = 0;
        out.multi_code = curl_multi_perform(h.multi, &running);
        if (out.multi_code != CURLM_OK) break;
        if (running == 0) {
            int queued = 0;
            while (CURLMsg* m = curl_multi_info_read(h.multi, &queued))
                if (m->msg == CURLMSG_DONE && m->easy_handle == h.easy) out.code = m->data.result;
            break;
        }
        if (cancel && cancel->load(std::memory_order_acquire)) {
            out.cancelled = true;
            break;
        }
        out.multi_code = curl_multi_poll(h.multi, nullptr, 0, cancel ? 50 : 1000, nullptr);
        if (out.multi_code != CURLM_OK) break;
    }
    curl_multi_remove_handle(h.multi, h.easy);
    return out;
}

} // namespace agentry::detail

#endif
