// SPDX-License-Identifier: BSL-1.0
// agentry::detail::sha256 against FIPS 180-2's examples, messages whose padding takes one or two
// blocks (the expected digests from Python's hashlib), pieces of every size, and RFC 7636's
// PKCE example.
#include <agentry/detail/sha256.hpp>
#include <agentry/mcp/detail/base64.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace {

std::string hex(const std::array<unsigned char, 32>& digest) {
    constexpr std::string_view digits = "0123456789abcdef";
    std::string out;
    for (const unsigned char b : digest) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

std::string as_text(const std::array<unsigned char, 32>& digest) {
    std::string out;
    for (const unsigned char b : digest) out += static_cast<char>(b);
    return out;
}

// Computed at compile time: the same code runs in constant evaluation.
static_assert(agentry::detail::sha256("abc")[0] == 0xba && agentry::detail::sha256("abc")[31] == 0xad);

} // namespace

TEST_CASE("sha256: the FIPS 180-2 examples") {
    using agentry::detail::sha256;
    CHECK(hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(hex(sha256(std::string(1000000, 'a'))) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: lengths around the end of a block") {
    struct vector {
        std::size_t size;
        std::string_view digest;
    };
    // 'x' repeated `size` times: 55 bytes pad within one block, 56 to 63 need a second one.
    constexpr vector vectors[] = {
        {55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
        {56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
        {63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"},
        {64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"},
        {65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"},
        {119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"},
        {120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"},
        {128, "24da1b81d0b16df6428eee73c69fcb2a93c76bc6df706f0c6670fe6bfe800464"},
    };
    for (const vector& v : vectors) {
        CAPTURE(v.size);
        CHECK(hex(agentry::detail::sha256(std::string(v.size, 'x'))) == v.digest);
    }
}

TEST_CASE("sha256: every byte value, whole and in pieces") {
    std::string bytes;
    for (int b = 0; b != 256; ++b) bytes += static_cast<char>(b);
    constexpr std::string_view expected = "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880";
    CHECK(hex(agentry::detail::sha256(bytes)) == expected);
    for (std::size_t piece = 1; piece != 130; ++piece) {
        CAPTURE(piece);
        agentry::detail::sha256_state state;
        for (std::size_t at = 0; at < bytes.size(); at += piece)
            state.update(std::string_view(bytes).substr(at, piece));
        CHECK(hex(state.digest()) == expected);
    }
}

TEST_CASE("sha256: the PKCE S256 challenge of RFC 7636 appendix B") {
    const auto digest = agentry::detail::sha256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    CHECK(agentry::mcp::detail::base64url(as_text(digest)) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}
