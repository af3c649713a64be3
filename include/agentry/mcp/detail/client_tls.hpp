// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_TLS_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_TLS_HPP

// TLS for the Streamable HTTP transport of mcp::client (https://), with OpenSSL: included by
// client_http.hpp when AGENTRY_WITH_TLS is defined (the CMake target agentry::tls). OpenSSL
// works on memory buffers; the bytes go through the transport's own non-blocking socket code,
// so deadlines, cancellation and MSG_NOSIGNAL stay as they are for http://. The end of the TCP
// stream ends the TLS stream (with or without close_notify): HTTP framing says whether a body
// is whole, as for http://.

#include <agentry/mcp/detail/client_channel.hpp>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <arpa/inet.h>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <sys/socket.h>

namespace agentry::mcp::detail {

/// OpenSSL's queued errors as one text ("" when none), and the queue emptied.
inline std::string tls_errors() {
    std::string text;
    while (const unsigned long e = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(e, buffer, sizeof buffer);
        if (!text.empty()) text += "; ";
        text += buffer;
    }
    return text;
}

/// The OpenSSL client context of one endpoint: TLS 1.2 or newer, the system's trust store plus
/// the CA certificates of tls_settings, and the session to resume on the next connection.
class tls_context {
public:
    tls_context(const tls_settings& s, std::string& why) : verify_(s.verify) {
        ERR_clear_error();
        ctx_ = SSL_CTX_new(TLS_client_method());
        if (!ctx_) {
            why = "cannot create a TLS context (" + tls_errors() + ")";
            return;
        }
        SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
        SSL_CTX_set_session_cache_mode(ctx_, SSL_SESS_CACHE_OFF);  // keep() holds the one session
        if (!verify_) {
            ok_ = true;
            return;
        }
        if (SSL_CTX_set_default_verify_paths(ctx_) != 1) tls_errors();  // no system store: only the CAs given
        if (!s.ca_file.empty() && SSL_CTX_load_verify_locations(ctx_, s.ca_file.c_str(), nullptr) != 1) {
            why = "cannot load the CA file \"" + s.ca_file + "\" (" + tls_errors() +
                  "); give http_url::tls_ca_file a PEM file of CA certificates";
            return;
        }
        if (!s.ca_pem.empty()) {
            BIO* bio = BIO_new_mem_buf(s.ca_pem.data(), int(s.ca_pem.size()));
            int added = 0;
            while (X509* cert = bio ? PEM_read_bio_X509(bio, nullptr, nullptr, nullptr) : nullptr) {
                added += X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_), cert) == 1;
                X509_free(cert);
            }
            BIO_free(bio);
            ERR_clear_error();  // the end of the PEM text is reported as an error
            if (added == 0) {
                why = "http_url::tls_ca_pem holds no PEM certificate; give it the CA certificate as PEM text "
                      "(-----BEGIN CERTIFICATE----- ...)";
                return;
            }
        }
        ok_ = true;
    }
    tls_context(const tls_context&) = delete;
    tls_context& operator=(const tls_context&) = delete;
    ~tls_context() {
        if (session_) SSL_SESSION_free(session_);
        if (ctx_) SSL_CTX_free(ctx_);
    }

    bool ok() const noexcept { return ok_; }
    SSL_CTX* get() const noexcept { return ctx_; }
    bool verify() const noexcept { return verify_; }

    /// Sets the session of the last connection on `ssl`, so that its handshake is resumed.
    void resume(SSL* ssl) {
        std::lock_guard lock(mutex_);
        if (session_) SSL_set_session(ssl, session_);
    }
    /// Keeps the session `ssl` has for the next connection.
    void keep(SSL* ssl) {
        SSL_SESSION* s = SSL_get1_session(ssl);
        if (!s) return;
        if (!SSL_SESSION_is_resumable(s)) {
            SSL_SESSION_free(s);
            return;
        }
        std::lock_guard lock(mutex_);
        if (session_) SSL_SESSION_free(session_);
        session_ = s;
    }

private:
    SSL_CTX* ctx_ = nullptr;
    bool verify_ = true;
    bool ok_ = false;
    std::mutex mutex_;
    SSL_SESSION* session_ = nullptr;
};

/// One TLS connection over memory buffers. The operations take `send(std::string_view) ->
/// std::string` (writes every byte to the socket: "" or why not) and `receive(std::string&) ->
/// std::string` (appends some bytes: "", "end" at the end of the stream, or why not).
class tls_stream {
public:
    /// `host` is checked against the certificate (a DNS name, or an IP address) and sent as SNI.
    tls_stream(tls_context& context, const std::string& host) : context_(context), host_(host) {
        ssl_ = SSL_new(context.get());
        BIO* in = BIO_new(BIO_s_mem());
        BIO* out = BIO_new(BIO_s_mem());
        if (!ssl_ || !in || !out) {
            BIO_free(in);
            BIO_free(out);
            return;
        }
        SSL_set_bio(ssl_, in, out);
        in_ = in;
        out_ = out;
        unsigned char address[16];
        const bool ip =
            ::inet_pton(AF_INET, host.c_str(), address) == 1 || ::inet_pton(AF_INET6, host.c_str(), address) == 1;
        if (!ip) SSL_set_tlsext_host_name(ssl_, host.c_str());
        if (context.verify()) {
            SSL_set_verify(ssl_, SSL_VERIFY_PEER, nullptr);
            if (ip) X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), host.c_str());
            else SSL_set1_host(ssl_, host.c_str());
            SSL_set_hostflags(ssl_, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);  // "*.a.com", never "w*.a.com"
        } else {
            SSL_set_verify(ssl_, SSL_VERIFY_NONE, nullptr);
        }
        context.resume(ssl_);
    }
    tls_stream(const tls_stream&) = delete;
    tls_stream& operator=(const tls_stream&) = delete;
    ~tls_stream() {
        if (!ssl_) return;
        // After an answer, closing without close_notify is the HTTP framing's end, not a broken
        // session: the session stays resumable.
        if (kept_) SSL_set_shutdown(ssl_, SSL_SENT_SHUTDOWN);
        SSL_free(ssl_);
    }

    template <class Send, class Receive>
    std::string handshake(Send&& send, Receive&& receive) {
        if (!in_) return "cannot start TLS (" + tls_errors() + ")";
        std::string error;
        if (drive([&] { return SSL_connect(ssl_); }, send, receive, error) > 0) return {};
        if (error == "timeout" || error == "cancelled") return error;
        const long v = SSL_get_verify_result(ssl_);
        if (context_.verify() && v != X509_V_OK) {
            const std::string what = X509_verify_cert_error_string(v);
            if (v == X509_V_ERR_HOSTNAME_MISMATCH || v == X509_V_ERR_IP_ADDRESS_MISMATCH)
                return "TLS certificate verification failed: the server's certificate is not for '" + host_ + "' (" +
                       what + "); use the host name the certificate names in the URL";
            return "TLS certificate verification failed for '" + host_ + "' (" + what +
                   "); if the server's certificate is issued by a CA the system does not trust (e.g. self-signed), "
                   "trust that CA with http_url::tls_ca_file or http_url::tls_ca_pem";
        }
        if (error == "end") return "the server closed the connection during the TLS handshake";
        return "the TLS handshake with '" + host_ + "' failed (" + error + ")";
    }

    template <class Send, class Receive>
    std::string write(std::string_view bytes, Send&& send, Receive&& receive) {
        while (!bytes.empty()) {
            std::string error;
            const int size = int(std::min<std::size_t>(bytes.size(), 1 << 30));
            const int n = drive([&] { return SSL_write(ssl_, bytes.data(), size); }, send, receive, error);
            if (n <= 0) return error == "end" ? "the server closed the connection" : error;
            bytes.remove_prefix(std::size_t(n));
        }
        return {};
    }

    /// Appends some decrypted bytes to `into`: "", "end" at the end of the stream, or why not.
    template <class Send, class Receive>
    std::string read(std::string& into, Send&& send, Receive&& receive) {
        char buffer[16384];
        std::string error;
        const int n = drive([&] { return SSL_read(ssl_, buffer, int(sizeof buffer)); }, send, receive, error);
        if (n <= 0) return error;
        into.append(buffer, std::size_t(n));
        // The session (a TLS 1.3 ticket comes after the handshake) for the next connection.
        if (!kept_) {
            kept_ = true;
            context_.keep(ssl_);
        }
        return {};
    }

private:
    // Runs `op` until it succeeds, writing what OpenSSL produced and reading what it waits for.
    // Its result, or <= 0 with `error` ("end": the stream ended).
    template <class Op, class Send, class Receive>
    int drive(Op&& op, Send& send, Receive& receive, std::string& error) {
        for (;;) {
            ERR_clear_error();
            const int r = op();
            const int e = r > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl_, r);
            if (std::string f = flush(send); !f.empty()) {
                error = std::move(f);
                return -1;
            }
            if (e == SSL_ERROR_NONE) return r;
            if (e == SSL_ERROR_WANT_READ) {
                std::string bytes;
                if (std::string f = receive(bytes); !f.empty()) {
                    error = std::move(f);
                    return -1;
                }
                BIO_write(in_, bytes.data(), int(bytes.size()));
                continue;
            }
            if (e == SSL_ERROR_WANT_WRITE) continue;  // the output was flushed above
            if (e == SSL_ERROR_ZERO_RETURN) {
                error = "end";
                return 0;
            }
            error = tls_errors();
            if (error.empty()) error = "TLS error " + std::to_string(e);
            return -1;
        }
    }

    template <class Send>
    std::string flush(Send& send) {
        char buffer[16384];
        while (BIO_ctrl_pending(out_) > 0) {
            const int n = BIO_read(out_, buffer, int(sizeof buffer));
            if (n <= 0) break;
            if (std::string e = send(std::string_view(buffer, std::size_t(n))); !e.empty()) return e;
        }
        return {};
    }

    tls_context& context_;
    std::string host_;
    SSL* ssl_ = nullptr;
    BIO* in_ = nullptr;   // owned by ssl_
    BIO* out_ = nullptr;  // owned by ssl_
    bool kept_ = false;
};

} // namespace agentry::mcp::detail

#endif
