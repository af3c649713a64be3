// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/detail/formats.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace {

using agentry::string_format;
using agentry::json::detail::valid_format;

bool valid(string_format f, std::string_view text) { return valid_format(f, text); }

// Every string in `texts` gets the same verdict; the failing one is named.
void check_all(string_format f, std::initializer_list<std::string_view> texts, bool expected) {
    for (std::string_view text : texts) {
        INFO(agentry::format_name(f), ": \"", std::string(text), "\"");
        CHECK(valid(f, text) == expected);
    }
}

} // namespace

// The checks are constant expressions.
static_assert(valid_format(string_format::date, "2024-02-29"));
static_assert(!valid_format(string_format::date, "2023-02-29"));
static_assert(valid_format(string_format::ipv6, "::ffff:192.0.2.1"));
static_assert(valid_format(string_format::uri, "https://example.com/a?b#c"));

TEST_CASE("formats: date accepts real calendar days") {
    check_all(string_format::date,
              {"2024-01-01", "2024-01-31", "2024-04-30", "2024-12-31", "0000-01-01", "9999-12-31",
               // leap years: divisible by 4, centuries only when divisible by 400 (year 0 is one)
               "2024-02-29", "2000-02-29", "2400-02-29", "1600-02-29", "0000-02-29", "0004-02-29", "2023-02-28"},
              true);
}

TEST_CASE("formats: date rejects impossible days and other shapes") {
    check_all(string_format::date,
              {"2023-02-29", "1900-02-29", "2100-02-29", "0100-02-29", "2024-02-30", "2024-04-31", "2024-06-31",
               "2024-09-31", "2024-11-31", "2024-01-32", "2024-01-00", "2024-00-01", "2024-13-01", "2024-1-01",
               "2024-01-1", "24-01-01", "20240101", "2024/01/01", "+2024-01-01", "12024-01-01", " 2024-01-01",
               "2024-01-01 ", "2024-01-01T00:00:00Z", "2024-0a-01", "", "\xd9\xa2" "024-01-01"},
              false);
}

TEST_CASE("formats: time requires an offset and accepts its three spellings") {
    check_all(string_format::time,
              {"00:00:00Z", "23:59:59Z", "12:34:56z", "12:34:56.789Z", "12:34:56.0000000001Z", "12:34:56+05:30",
               "12:34:56+0530", "12:34:56+05", "12:34:56-00:00", "12:34:56+23:59", "12:34:56-23:59"},
              true);
    check_all(string_format::time,
              {"12:34:56", "12:34:56.789", "12:34Z", "1:34:56Z", "12:34:56.Z", "12:34:56 Z", "12:34:56+5:30",
               "12:34:56+05:3", "12:34:56+05:", "12:34:56+053", "12:34:56+24:00", "12:34:56+23:60",
               "12:34:56+05:30:00", "12:34:56GMT", "24:00:00Z", "23:60:00Z", "12:00:61Z", "T12:00:00Z", ""},
              false);
}

TEST_CASE("formats: time accepts 23:59:60 only as a UTC leap second") {
    check_all(string_format::time,
              {"23:59:60Z", "23:59:60.999Z", "23:59:60+00:00", "22:59:60-01:00", "00:59:60+01:00",
               "05:29:60+05:30", "18:59:60-05:00"},
              true);
    check_all(string_format::time,
              {"23:59:61Z", "23:58:60Z", "12:00:60Z", "22:59:60+01:00", "23:59:60+01:00", "00:00:60Z"}, false);
}

TEST_CASE("formats: time follows ajv's own arithmetic and number reading") {
    // ajv checks hours and minutes against 23 and 59 only outside the leap second rule, whose
    // arithmetic accepts these (23:59 in UTC):
    CHECK(valid(string_format::time, "30:59:59+07:00"));
    CHECK(valid(string_format::time, "30:59:60+07:00"));
    CHECK_FALSE(valid(string_format::time, "30:59:59Z"));
    // ajv reads seconds as a double: 59.9999999999999999 is 60.0, which is a leap second.
    CHECK_FALSE(valid(string_format::time, "12:00:59.9999999999999999Z"));
    CHECK(valid(string_format::time, "23:59:59.9999999999999999Z"));
    CHECK_FALSE(valid(string_format::time, "23:59:60.9999999999999999Z"));
    // The rounding boundary is 60 - 2^-48 (ties to even, which is 60).
    CHECK(valid(string_format::time, "12:00:59.999999999999996447286321199499070644378662109374Z"));
    CHECK_FALSE(valid(string_format::time, "12:00:59.999999999999996447286321199499070644378662109375Z"));
    CHECK(valid(string_format::time, "23:59:60.999999999999996447286321199499070644378662109374Z"));
    CHECK_FALSE(valid(string_format::time, "23:59:60.999999999999996447286321199499070644378662109375Z"));
}

TEST_CASE("formats: date-time joins a date and a time with T or white space") {
    check_all(string_format::date_time,
              {"2024-02-29T12:00:00Z", "2024-01-01t00:00:00z", "2024-01-01 00:00:00Z", "2024-01-01\t00:00:00Z",
               "2024-01-01\n00:00:00Z", "2024-01-01\xc2\xa0" "00:00:00Z", "2024-01-01\xe3\x80\x80" "00:00:00Z",
               "2024-01-01\xe2\x80\xa8" "00:00:00Z", "2024-01-01\xef\xbb\xbf" "00:00:00Z",
               "2016-12-31T23:59:60Z", "2016-12-31T18:59:60-05:00", "2024-01-01T12:00:00.5+01:00",
               "2024-01-01T12:00:00+0100"},
              true);
    check_all(string_format::date_time,
              {"2023-02-29T12:00:00Z", "2024-01-01T12:00:00", "2024-01-01", "12:00:00Z", "2024-01-01TT12:00:00Z",
               "2024-01-01T 12:00:00Z", "2024-01-01_12:00:00Z", "2024-01-0112:00:00Z", "2024-01-01T24:00:00Z",
               "2024-01-01T23:59:60+01:00", "2024-01-01\xe1\xa0\x8e" "00:00:00Z", // U+180E is not white space
               "2024-01-01\xe2\x80\x8b" "00:00:00Z",                              // nor is U+200B
               "2024-01-01\xc2" "00:00:00Z", ""},
              false);
}

TEST_CASE("formats: duration accepts ajv's ISO 8601 subset") {
    check_all(string_format::duration,
              {"P1Y", "P1M", "P1D", "P1W", "PT1H", "PT1M", "PT1S", "P0D", "PT0S", "P1Y2M3D", "P1Y2M3DT4H5M6S",
               "P1DT12H", "PT36H", "P1MT1M", "P12345678901234567890Y", "PT1H1S"},
              true);
    check_all(string_format::duration,
              {"P", "PT", "P1", "PT1", "P1DT", "P1YT", "P1Y1W", "P1W1D", "PW", "PT1W", "P1.5Y", "PT0.5S", "P1,5D",
               "p1y", "P1y", "pt1h", "P1Y2Y", "P1D1M", "PT1S1M", "P1H", "PT1D", "-P1D", "P-1D", " P1D", "P1D ",
               "1D", "P1D1", ""},
              false);
}

TEST_CASE("formats: email accepts dot-atoms at a dotted domain") {
    check_all(string_format::email,
              {"a@b.co", "john.doe@example.com", "A@B.C", "x+tag@sub.example.org", "!#$%&'*+/=?^_`{|}~-@x.yz",
               "a@1.2", "a@b-c.d", "a@b--c.d", "a@xn--bcher-kva.example"},
              true);
    check_all(string_format::email,
              {"a@b", "a@localhost", ".a@b.c", "a.@b.c", "a..b@c.d", "a@b..c", "a@.b.c", "a@b.c.", "a@-b.c",
               "a@b-.c", "a@b.-c", "a@@b.c", "a@b@c.d", "@b.c", "a@", "a", "\"a\"@b.c", "\"a b\"@c.d",
               "a@[127.0.0.1]", "a b@c.d", "a@b_c.d", "a(b)@c.d", "\xc3\xa9@b.c", "a@\xc3\xa9.c", ""},
              false);
}

TEST_CASE("formats: hostname accepts LDH labels within the length limits") {
    const std::string l63(63, 'a'), l64(64, 'a');
    const std::string h253 = l63 + '.' + l63 + '.' + l63 + '.' + std::string(61, 'd');
    const std::string h254 = l63 + '.' + l63 + '.' + l63 + '.' + std::string(62, 'd');
    CHECK(h253.size() == 253);
    check_all(string_format::hostname,
              {"a", "localhost", "example.com", "example.com.", "a-b.c-d", "a--b", "xn--bcher-kva.example", "1",
               "1.2.3.4", "123abc", "EXAMPLE.COM", l63, h253, h253 + "."},
              true);
    check_all(string_format::hostname,
              {"", ".", "a..", "..a", ".a", "a..b", "-a", "a-", "a.-b", "a.b-", "a_b", "a b", "a/b", "a:80", l64,
               h254, h254 + ".", l64 + ".com", "\xc3\xa9.com", "\xe2\x84\xaa" "elvin"},
              false);
}

TEST_CASE("formats: ipv4 accepts dotted decimal without leading zeros") {
    check_all(string_format::ipv4, {"0.0.0.0", "127.0.0.1", "255.255.255.255", "192.168.1.10", "1.22.133.244"},
              true);
    check_all(string_format::ipv4,
              {"256.0.0.0", "1.2.3.256", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "1.2.3.00", "1.2.3.4.",
               ".1.2.3.4", "1..2.3", "1.2.3.4 ", "0x1.2.3.4", "1.2.3.-4", "1.2.3.4/24", "\xd9\xa1.2.3.4", ""},
              false);
}

TEST_CASE("formats: ipv6 accepts full, compressed and IPv4-embedded forms") {
    check_all(string_format::ipv6,
              {"::", "::1", "1::", "1:2:3:4:5:6:7:8", "2001:DB8::ff00:42:8329", "2001:db8:0:0:0:0:2:1",
               "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1::8", "1:2::7:8", "fe80::1", "FFFF::ffff", "0:0:0:0:0:0:0:0",
               "::ffff:192.0.2.1", "::192.0.2.1", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5::1.2.3.4", "1::2:3:4:5:1.2.3.4",
               "::1:2:3:4:5:1.2.3.4", "0001:02:3:004::"},
              true);
    check_all(string_format::ipv6,
              {"", ":", ":::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
               "1::2::3", "1:::2", ":1::", "::1:", "1:", ":1", "12345::", "g::", "::ffff:01.2.3.4",
               "::ffff:1.2.3.256", "::1.2.3", "1.2.3.4", "::1.2.3.4:5", "1:2:3:4:5:6:7:1.2.3.4",
               "1:2:3:4:5:6::1.2.3.4", "::1:2:3:4:5:6:1.2.3.4", "fe80::1%eth0", "[::1]", "::1/128", " ::1"},
              false);
}

TEST_CASE("formats: uuid accepts 8-4-4-4-12 hex in either case, with or without urn:uuid:") {
    check_all(string_format::uuid,
              {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
               "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
               "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
               "Urn:Uuid:123E4567-e89b-12d3-a456-426614174000"},
              true);
    check_all(string_format::uuid,
              {"123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
               "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-4266141740000",
               "123e4567-e89b-12d3a456-426614174000", "g23e4567-e89b-12d3-a456-426614174000",
               "urn:123e4567-e89b-12d3-a456-426614174000", "uuid:123e4567-e89b-12d3-a456-426614174000",
               "urn:uuid:", " 123e4567-e89b-12d3-a456-426614174000", ""},
              false);
}

TEST_CASE("formats: uri requires a scheme and RFC 3986 syntax") {
    check_all(string_format::uri,
              {"http://example.com", "https://example.com/a/b?c=d&e=f#frag", "HTTP://EXAMPLE.COM/", "ftp://a@b:21/c",
               "http://user:pw@host:8080/p", "http://host:/p", "urn:isbn:0451450523", "mailto:a@b.c", "foo:a",
               "foo:/", "foo:/a/b", "foo://", "foo:///", "foo:/host:80/p", "tel:+1-555-0100", "http://a/%20b",
               "http://[::1]/", "http://[::1]:8080/", "http://[2001:db8::7]/c=GB?objectClass?one",
               "http://[::ffff:001.002.003.004]/", "http://[v7.a:b]/", "http://001.002.003.004/",
               "http://a/b?c?d#e?f/g", "a+b.c-d:x", "x:y?@!$&'()*+,;=/?#/?:@"},
              true);
    check_all(string_format::uri,
              {"", "//example.com", "/a/b", "a/b", "example.com", "1http://a", "+a:b", "foo:", "foo:?q", "foo:#f",
               "http://a b/", "http://a/b c", "http://a/%zz", "http://a/%2", "http://a%/", "http://[::1/", "http://[::1]x/", "http://[fe80::1%25eth0]/",
               "http://[v.x]/", "http://[vg.x]/", "http://[v1.]/", "http://a#b#c", "http://a/<b>", "http://a/b\\c",
               "http://a/{b}", "http://\xc3\xa9.com/", "http://a/\xc3\xa9", "a:\xc5\xbf"},
              false);
}

TEST_CASE("formats: uri follows ajv where its grammar is looser than RFC 3986") {
    // ajv allows "scheme:/" before an authority and an empty authority, so "http://a:80x/" is
    // "http:/", an empty authority, then the path "/a:80x/" (':' and '@' are path characters).
    check_all(string_format::uri, {"http://a:80x/", "http://a@b@c/", "http://a:b:c/", "foo:/[::1]/x"}, true);
    // But brackets are not path characters: a bad IP literal stays an error.
    check_all(string_format::uri, {"http://[::1]x/", "http://[1.2.3.4]/", "foo:/[::1/x"}, false);
}

TEST_CASE("formats: every format rejects the empty string and non-ASCII look-alikes") {
    for (unsigned i = 0; i < agentry::string_format_count; ++i) {
        const auto f = static_cast<string_format>(i);
        INFO(agentry::format_name(f));
        CHECK_FALSE(valid(f, ""));
        CHECK_FALSE(valid(f, "\xef\xbc\x91"));                // U+FF11 fullwidth digit one
        CHECK_FALSE(valid(f, "\xff\xfe"));                    // not UTF-8
    }
    // Invalid UTF-8 is never white space: a lone lead byte does not separate date and time.
    CHECK_FALSE(valid(string_format::date_time, "2024-01-01\xe2\x80" "00:00:00Z"));
}
