// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_JWT_SIGN_HPP
#define AGENTRY_MCP_DETAIL_JWT_SIGN_HPP

// Signed JWTs (RFC 7519, JWS compact form of RFC 7515) with ES256 or RS256 (RFC 7518), with
// OpenSSL: the client assertion of OAuth private_key_jwt client authentication (RFC 7523).
// Needs OpenSSL's headers and libcrypto: include it only where AGENTRY_WITH_TLS is defined (the
// CMake target agentry::tls). The caller writes the claims (iss, sub, aud, iat, exp, jti).

#include <agentry/mcp/detail/base64.hpp>
#include <agentry/mcp/detail/client_tls.hpp>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/opensslv.h>
#include <openssl/pem.h>

#include <climits>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp::detail {

/// A compact JWS (header.payload.signature), or why there is none: exactly one is not empty.
struct signed_jwt {
    std::string token;
    std::string error;
};

namespace jwt {

/// Frees an OpenSSL object with `F`.
template <auto F>
struct free_with {
    template <class T>
    void operator()(T* p) const noexcept {
        F(p);
    }
};

/// OpenSSL's queued errors as " (OpenSSL: ...)" ("" when none), and the queue emptied.
inline std::string openssl_errors() {
    const std::string text = tls_errors();
    return text.empty() ? text : " (OpenSSL: " + text + ")";
}

/// The curve of EC key `key`, by its NIST name where it has one ("P-256"), else OpenSSL's.
inline std::string curve_of(EVP_PKEY* key) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    char name[80] = {};
    std::size_t size = 0;
    if (EVP_PKEY_get_group_name(key, name, sizeof name, &size) != 1) return "an unknown curve";
    const int nid = OBJ_sn2nid(name);
#else
    const EC_KEY* ec = EVP_PKEY_get0_EC_KEY(key);
    const EC_GROUP* group = ec ? EC_KEY_get0_group(ec) : nullptr;
    if (!group) return "an unknown curve";
    const int nid = EC_GROUP_get_curve_name(group);
    const char* name = nid != NID_undef ? OBJ_nid2sn(nid) : "an unnamed curve";
#endif
    const char* nist = nid != NID_undef ? EC_curve_nid2nist(nid) : nullptr;
    return nist ? nist : name;
}

/// What kind of key `key` is, for messages: "RSA", "EC on P-384", "ED25519".
inline std::string kind_of(EVP_PKEY* key) {
    const int id = EVP_PKEY_base_id(key);
    if (id == EVP_PKEY_RSA) return "RSA";
    if (id == EVP_PKEY_EC) return "EC on " + curve_of(key);
    const char* name = OBJ_nid2sn(id);
    return name ? name : "of an unknown type";
}

/// The raw r||s form of JWS (RFC 7518 section 3.4) of DER ECDSA signature `der`, each half
/// `half` bytes; "" when `der` is not such a signature.
inline std::string ecdsa_raw(const unsigned char* der, std::size_t size, int half) {
    const unsigned char* p = der;
    const std::unique_ptr<ECDSA_SIG, free_with<&ECDSA_SIG_free>> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(size)));
    if (!sig) return {};
    const BIGNUM* r = nullptr;
    const BIGNUM* s = nullptr;
    ECDSA_SIG_get0(sig.get(), &r, &s);
    std::string out(2 * static_cast<std::size_t>(half), '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    if (BN_bn2binpad(r, o, half) != half || BN_bn2binpad(s, o + half, half) != half) return {};
    return out;
}

} // namespace jwt

/// The JWT of claims `payload_json` (a JSON object, sent as given) signed with
/// `private_key_pem` (PKCS#8 "BEGIN PRIVATE KEY", or "BEGIN EC PRIVATE KEY" / "BEGIN RSA
/// PRIVATE KEY"; not encrypted) by `algorithm`: "ES256" (a P-256 key) or "RS256" (an RSA key of
/// 2048 bits or more, RFC 7518 section 3.3). Its header is {"alg":"<algorithm>","typ":"JWT"}.
inline signed_jwt sign_jwt(std::string_view private_key_pem, std::string_view algorithm,
                           std::string_view payload_json) {
    const bool es256 = algorithm == "ES256";
    if (!es256 && algorithm != "RS256")
        return {{}, "unsupported signing algorithm \"" + std::string(algorithm) + "\" (ES256 or RS256)"};
    if (private_key_pem.size() > static_cast<std::size_t>(INT_MAX)) return {{}, "the private key is too long"};

    ERR_clear_error();
    const std::unique_ptr<BIO, jwt::free_with<&BIO_free>> bio(
        BIO_new_mem_buf(private_key_pem.data(), static_cast<int>(private_key_pem.size())));
    if (!bio) return {{}, "cannot read the private key" + jwt::openssl_errors()};
    // No passphrase: an encrypted key fails here instead of asking on the terminal.
    pem_password_cb* no_passphrase = [](char*, int, int, void*) { return 0; };
    const std::unique_ptr<EVP_PKEY, jwt::free_with<&EVP_PKEY_free>> key(
        PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
    if (!key) return {{}, "the private key is not a PEM private key" + jwt::openssl_errors()};

    const int id = EVP_PKEY_base_id(key.get());
    if (es256 && (id != EVP_PKEY_EC || jwt::curve_of(key.get()) != "P-256"))
        return {{}, "ES256 needs a P-256 EC key; this key is " + jwt::kind_of(key.get())};
    if (!es256 && id != EVP_PKEY_RSA)
        return {{}, "RS256 needs an RSA key; this key is " + jwt::kind_of(key.get())};
    if (!es256 && EVP_PKEY_bits(key.get()) < 2048)
        return {{}, "RS256 needs an RSA key of 2048 bits or more; this key has " +
                        std::to_string(EVP_PKEY_bits(key.get()))};

    std::string token = base64url(es256 ? R"({"alg":"ES256","typ":"JWT"})" : R"({"alg":"RS256","typ":"JWT"})");
    token += '.';
    token += base64url(payload_json);

    const std::unique_ptr<EVP_MD_CTX, jwt::free_with<&EVP_MD_CTX_free>> ctx(EVP_MD_CTX_new());
    const auto* input = reinterpret_cast<const unsigned char*>(token.data());
    std::size_t size = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &size, input, token.size()) != 1)
        return {{}, "cannot sign with the private key" + jwt::openssl_errors()};
    std::string signature(size, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, input, token.size()) != 1)
        return {{}, "cannot sign with the private key" + jwt::openssl_errors()};
    signature.resize(size);
    if (es256) {
        signature = jwt::ecdsa_raw(reinterpret_cast<const unsigned char*>(signature.data()), signature.size(), 32);
        if (signature.empty()) return {{}, "OpenSSL gave an ECDSA signature that is not DER" + jwt::openssl_errors()};
    }
    token += '.';
    token += base64url(signature);
    ERR_clear_error();  // what reading the PEM text tried and left behind
    return {std::move(token), {}};
}

} // namespace agentry::mcp::detail

#endif
