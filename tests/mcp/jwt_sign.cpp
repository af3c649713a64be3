// SPDX-License-Identifier: BSL-1.0
// mcp::detail::sign_jwt (agentry::tls): ES256 and RS256 tokens signed with keys made here, their
// header and payload read back, their signatures checked with OpenSSL and, where node is on the
// PATH, with node's crypto; and the message for each key or algorithm it refuses.
#include <agentry/mcp/detail/jwt_sign.hpp>

#include <doctest/doctest.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using agentry::mcp::detail::sign_jwt;

template <auto F>
struct free_with {
    template <class T>
    void operator()(T* p) const noexcept {
        F(p);
    }
};
using key_ptr = std::unique_ptr<EVP_PKEY, free_with<&EVP_PKEY_free>>;
using bio_ptr = std::unique_ptr<BIO, free_with<&BIO_free>>;

constexpr std::string_view payload =
    R"({"iss":"client-1","sub":"client-1","aud":"https://auth.example/token","iat":1700000000,"exp":1700000300,"jti":"4f1c"})";

std::string text_of(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(n));
}

// The private key as PKCS#8 PEM ("BEGIN PRIVATE KEY"), or in the traditional form of its type.
std::string private_pem(EVP_PKEY* key, bool traditional = false) {
    const bio_ptr bio(BIO_new(BIO_s_mem()));
    const int ok = traditional
                       ? PEM_write_bio_PrivateKey_traditional(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                       : PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    REQUIRE(ok == 1);
    return text_of(bio.get());
}

std::string public_pem(EVP_PKEY* key) {
    const bio_ptr bio(BIO_new(BIO_s_mem()));
    REQUIRE(PEM_write_bio_PUBKEY(bio.get(), key) == 1);
    return text_of(bio.get());
}

key_ptr ec_key(const char* curve) {
    key_ptr key(EVP_EC_gen(curve));
    REQUIRE(key);
    return key;
}

key_ptr rsa_key(unsigned bits) {
    key_ptr key(EVP_RSA_gen(bits));
    REQUIRE(key);
    return key;
}

// The bytes of base64url text (RFC 4648 section 5, no padding), or nothing when it is not such a
// text. Written here, apart from the library's encoder.
std::optional<std::string> from_base64url(std::string_view text) {
    std::string out;
    unsigned group = 0;
    int bits = 0;
    for (const char c : text) {
        int v = -1;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '-') v = 62;
        else if (c == '_') v = 63;
        if (v < 0) return std::nullopt;
        group = (group << 6 | static_cast<unsigned>(v)) & 0xffffu;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>(group >> bits & 0xffu);
        }
    }
    if (bits >= 6 || (group & ((1u << bits) - 1)) != 0) return std::nullopt;  // a lone character, or stray bits
    return out;
}

struct parts {
    std::string_view header, payload, signature;
    std::string_view signing_input;
};

parts split(std::string_view token) {
    const std::size_t first = token.find('.');
    const std::size_t second = token.find('.', first + 1);
    REQUIRE(first != std::string_view::npos);
    REQUIRE(second != std::string_view::npos);
    REQUIRE(token.find('.', second + 1) == std::string_view::npos);
    return {token.substr(0, first), token.substr(first + 1, second - first - 1), token.substr(second + 1),
            token.substr(0, second)};
}

// The DER ECDSA signature of JWS signature r||s.
std::string der_of(std::string_view raw) {
    REQUIRE(raw.size() == 64);
    const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
    ECDSA_SIG* sig = ECDSA_SIG_new();
    REQUIRE(sig);
    BIGNUM* r = BN_bin2bn(p, 32, nullptr);
    BIGNUM* s = BN_bin2bn(p + 32, 32, nullptr);
    REQUIRE(ECDSA_SIG_set0(sig, r, s) == 1);
    unsigned char* der = nullptr;
    const int n = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    REQUIRE(n > 0);
    std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(n));
    OPENSSL_free(der);
    return out;
}

// Whether `signature` (as JWS gives it) of `data` verifies with the public key of PEM `pem`.
bool verifies(const std::string& pem, std::string_view algorithm, std::string_view data, std::string signature) {
    const bio_ptr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    const key_ptr key(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
    REQUIRE(key);
    if (algorithm == "ES256") signature = der_of(signature);
    const std::unique_ptr<EVP_MD_CTX, free_with<&EVP_MD_CTX_free>> ctx(EVP_MD_CTX_new());
    REQUIRE(EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1);
    const int ok = EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                                    signature.size(), reinterpret_cast<const unsigned char*>(data.data()),
                                    data.size());
    ERR_clear_error();
    return ok == 1;
}

// Signs `payload` with `key` and checks all a verifier checks.
void check_signed(EVP_PKEY* key, std::string_view algorithm, bool traditional, std::size_t signature_size) {
    const std::string pem = private_pem(key, traditional);
    CHECK(pem.rfind(traditional ? (algorithm == "ES256" ? "-----BEGIN EC PRIVATE KEY-----"
                                                        : "-----BEGIN RSA PRIVATE KEY-----")
                                : "-----BEGIN PRIVATE KEY-----",
                    0) == 0);
    const auto jwt = sign_jwt(pem, algorithm, payload);
    REQUIRE(jwt.error == "");
    const parts p = split(jwt.token);
    CHECK(from_base64url(p.header) == R"({"alg":")" + std::string(algorithm) + R"(","typ":"JWT"})");
    CHECK(from_base64url(p.payload) == std::string(payload));
    const auto signature = from_base64url(p.signature);
    REQUIRE(signature);
    CHECK(signature->size() == signature_size);
    const std::string pub = public_pem(key);
    CHECK(verifies(pub, algorithm, p.signing_input, *signature));

    // The same signature over another payload, or another signature, does not verify.
    const std::string other = std::string(p.header) + "." +
                              agentry::mcp::detail::base64url(R"({"iss":"client-2","sub":"client-2"})");
    CHECK_FALSE(verifies(pub, algorithm, other, *signature));
    std::string flipped = *signature;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 1);
    CHECK_FALSE(verifies(pub, algorithm, p.signing_input, flipped));

    // ECDSA signs with a fresh nonce each time, RSASSA-PKCS1-v1_5 the same way each time.
    const auto again = sign_jwt(pem, algorithm, payload);
    REQUIRE(again.error == "");
    if (algorithm == "RS256") CHECK(again.token == jwt.token);
    else CHECK(again.token != jwt.token);
}

std::optional<std::filesystem::path> find_on_path(std::string_view name) {
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "";
    while (!rest.empty()) {
        const std::size_t colon = rest.find(':');
        const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
    return std::nullopt;
}

void write_file(const std::filesystem::path& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out.good());
}

} // namespace

TEST_CASE("jwt_sign: ES256 with a P-256 key") {
    const key_ptr key = ec_key("P-256");
    SUBCASE("PKCS#8") { check_signed(key.get(), "ES256", false, 64); }
    SUBCASE("traditional EC PEM") { check_signed(key.get(), "ES256", true, 64); }
}

TEST_CASE("jwt_sign: RS256 with an RSA-2048 key") {
    const key_ptr key = rsa_key(2048);
    SUBCASE("PKCS#8") { check_signed(key.get(), "RS256", false, 256); }
    SUBCASE("traditional RSA PEM") { check_signed(key.get(), "RS256", true, 256); }
}

TEST_CASE("jwt_sign: the keys and algorithms it refuses, by name") {
    const std::string ec = private_pem(ec_key("P-256").get());
    const std::string rsa = private_pem(rsa_key(2048).get());

    auto jwt = sign_jwt("not a key", "ES256", payload);
    CHECK(jwt.token == "");
    CHECK(jwt.error.rfind("the private key is not a PEM private key (OpenSSL: ", 0) == 0);
    CHECK(jwt.error.back() == ')');
    CHECK(ERR_peek_error() == 0);  // the queue is left empty

    jwt = sign_jwt("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "RS256", payload);
    CHECK(jwt.error.rfind("the private key is not a PEM private key (OpenSSL: ", 0) == 0);

    jwt = sign_jwt(ec, "RS256", payload);
    CHECK(jwt.token == "");
    CHECK(jwt.error == "RS256 needs an RSA key; this key is EC on P-256");

    jwt = sign_jwt(rsa, "ES256", payload);
    CHECK(jwt.error == "ES256 needs a P-256 EC key; this key is RSA");

    jwt = sign_jwt(private_pem(ec_key("P-384").get()), "ES256", payload);
    CHECK(jwt.error == "ES256 needs a P-256 EC key; this key is EC on P-384");

    jwt = sign_jwt(private_pem(ec_key("secp256k1").get()), "ES256", payload);
    CHECK(jwt.error == "ES256 needs a P-256 EC key; this key is EC on secp256k1");

    const key_ptr ed(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    REQUIRE(ed);
    jwt = sign_jwt(private_pem(ed.get()), "ES256", payload);
    CHECK(jwt.error == "ES256 needs a P-256 EC key; this key is ED25519");

    jwt = sign_jwt(private_pem(rsa_key(1024).get()), "RS256", payload);
    CHECK(jwt.error == "RS256 needs an RSA key of 2048 bits or more; this key has 1024");

    jwt = sign_jwt(ec, "HS256", payload);
    CHECK(jwt.token == "");
    CHECK(jwt.error == R"(unsupported signing algorithm "HS256" (ES256 or RS256))");
    jwt = sign_jwt(ec, "es256", payload);
    CHECK(jwt.error == R"(unsupported signing algorithm "es256" (ES256 or RS256))");
}

TEST_CASE("jwt_sign: an encrypted key is refused without asking for a passphrase") {
    const key_ptr key = ec_key("P-256");
    const bio_ptr bio(BIO_new(BIO_s_mem()));
    const char passphrase[] = "secret";
    REQUIRE(PEM_write_bio_PKCS8PrivateKey(bio.get(), key.get(), EVP_aes_256_cbc(), passphrase,
                                          static_cast<int>(sizeof passphrase - 1), nullptr, nullptr) == 1);
    const std::string pem = text_of(bio.get());
    REQUIRE(pem.rfind("-----BEGIN ENCRYPTED PRIVATE KEY-----", 0) == 0);
    const auto jwt = sign_jwt(pem, "ES256", payload);
    CHECK(jwt.token == "");
    CHECK(jwt.error.rfind("the private key is not a PEM private key (OpenSSL: ", 0) == 0);
}

TEST_CASE("jwt_sign: node's crypto verifies both kinds") {
    const auto node = find_on_path("node");
    if (!node) {
        MESSAGE("skipped: node not found");
        return;
    }
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("agentry_jwt_sign_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    // Exits 0 when the token's signature verifies with the public key, 1 when it does not.
    write_file(dir / "verify.js", R"js(
const crypto = require('crypto');
const fs = require('fs');
const [key, token] = [fs.readFileSync(process.argv[2], 'utf8'), fs.readFileSync(process.argv[3], 'utf8')];
const [header, payload, signature] = token.split('.');
const ok = crypto.verify('sha256', Buffer.from(header + '.' + payload), {key, dsaEncoding: 'ieee-p1363'},
                         Buffer.from(signature, 'base64url'));
process.exit(ok ? 0 : 1);
)js");
    const auto run = [&](EVP_PKEY* key, std::string_view algorithm, bool tamper) {
        const auto jwt = sign_jwt(private_pem(key), algorithm, payload);
        REQUIRE(jwt.error == "");
        std::string token = jwt.token;
        if (tamper) token.replace(token.find('.') + 1, 2, "ZZ");
        write_file(dir / "key.pem", public_pem(key));
        write_file(dir / "token.txt", token);
        const std::string command = "'" + node->string() + "' '" + (dir / "verify.js").string() + "' '" +
                                    (dir / "key.pem").string() + "' '" + (dir / "token.txt").string() + "'";
        const int status = std::system(command.c_str());
        REQUIRE(WIFEXITED(status));
        return WEXITSTATUS(status);
    };
    const key_ptr ec = ec_key("P-256");
    const key_ptr rsa = rsa_key(2048);
    CHECK(run(ec.get(), "ES256", false) == 0);
    CHECK(run(rsa.get(), "RS256", false) == 0);
    CHECK(run(ec.get(), "ES256", true) == 1);
    CHECK(run(rsa.get(), "RS256", true) == 1);
    std::filesystem::remove_all(dir);
}
